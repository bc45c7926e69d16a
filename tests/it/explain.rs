//! `cspi explain`: the conflict it names is unsatisfiable, and removing any
//! one of its constraints makes the rest satisfiable (checked here by solving
//! the sub-models through the library, one per removed constraint).

use crate::common;
use crate::common::json::JsonRead;

use cspi::explain::{Explanation, explain};
use cspi::model::Model;
use cspi::solve::ParamOverride;
use cspi::solve::{self, LoadOptions, Options, Status, load};
use cspi::solve::{Limits, Next};
use std::sync::Arc;
use std::time::Duration;

/// Whether the model restricted to `keep` has a solution.
fn satisfiable(model: &Model, keep: &[usize]) -> bool {
    let mut sub = model.clone();
    sub.constraints = keep.iter().map(|&i| model.constraints[i].clone()).collect();
    sub.origins = keep.iter().map(|&i| model.origins[i].clone()).collect();
    sub.objective = None;
    let options = Options {
        search: model.search.clone(),
        limits: Limits {
            solutions: Some(1),
            ..Limits::default()
        },
        ..Options::default()
    };
    let s = solve::solve(&Arc::new(sub), &options, |_| Next::Continue);
    assert_ne!(s.status, Status::Unknown);
    s.status != Status::Unsatisfiable
}

/// Explains `model` and checks the conflict is unsatisfiable and minimal.
fn conflict_of(model: &Model) -> Vec<usize> {
    let Explanation::Conflict {
        constraints,
        minimal,
        ..
    } = explain(model, Duration::from_secs(60), &Limits::default())
    else {
        panic!("expected a conflict");
    };
    assert!(minimal);
    assert!(!constraints.is_empty());
    assert!(
        !satisfiable(model, &constraints),
        "the conflict has no solution"
    );
    for k in 0..constraints.len() {
        let mut rest = constraints.clone();
        rest.remove(k);
        assert!(
            satisfiable(model, &rest),
            "without constraint {} the rest has a solution",
            constraints[k]
        );
    }
    constraints
}

fn param(name: &str, value: &str) -> ParamOverride {
    ParamOverride {
        name: name.into(),
        value: value.into(),
    }
}

#[test]
fn the_bundled_unsatisfiable_schedule() {
    let path = common::model("unsat-schedule.csp");
    let model = load(&path, &LoadOptions::default()).unwrap();
    let text = common::read(&path);
    let conflict = conflict_of(&model);
    let shown: Vec<&str> = conflict
        .iter()
        .map(|&i| &text[model.origins[i].span.start..model.origins[i].span.end])
        .collect();
    // One of the two clashes: talk 1 cannot open the day after talk 5.
    assert_eq!(
        shown,
        [
            "slot[1] < slot[4]",
            "slot[4] < slot[2]",
            "slot[1] == slot[5] + 1"
        ]
    );
}

#[test]
fn sudoku_puzzles_whose_givens_clash() {
    let path = common::model("sudoku.csp");
    // A row clash; Inkala's puzzle with an 8 added in the last cell, which
    // clashes with the 8 given at row 7, column 9 (same box and column).
    let puzzles = [
        "11...............................................................................",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.8",
        // a column clash
        "5........5.......................................................................",
    ];
    for puzzle in puzzles {
        let model = load(&path, &LoadOptions::with_params(&[param("puzzle", puzzle)])).unwrap();
        let conflict = conflict_of(&model);
        // Givens are data; the conflict holds two of them and one rule.
        let data = conflict
            .iter()
            .filter(|&&i| model.origins[i].data.contains(&"puzzle".to_string()))
            .count();
        assert_eq!(data, 2, "{puzzle}");
        assert_eq!(conflict.len(), 3, "{puzzle}");
    }
}

#[test]
fn queens_without_room() {
    let path = common::model("n-queens.csp");
    for n in ["2", "3"] {
        let model = load(&path, &LoadOptions::with_params(&[param("n", n)])).unwrap();
        conflict_of(&model);
    }
}

#[test]
fn the_command_shows_one_diagnostic_and_json() {
    let r = common::cspi(&["explain", "models/unsat-schedule.csp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("cspi::explain\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("these 3 constraints cannot all hold together")
    );
    assert_eq!(
        r.stdout.matches("this constraint").count(),
        3,
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("without any one of them the others have a solution")
    );

    let puzzle =
        "puzzle=11...............................................................................";
    let r = common::cspi(&[
        "explain",
        "models/sudoku.csp",
        "-p",
        puzzle,
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0);
    let j = common::json::parse(r.stdout.trim()).unwrap();
    assert_eq!(j["status"].str(), "UNSATISFIABLE");
    assert_eq!(j["minimal"], serde_json::Value::Bool(true));
    let list = j["constraints"].arr();
    assert_eq!(list.len(), 3);
    let givens: Vec<(&str, &str)> = list
        .iter()
        .filter(|c| !c["data"].arr().is_empty())
        .map(|c| (c["bindings"]["r"].str(), c["bindings"]["c"].str()))
        .collect();
    assert_eq!(givens, [("1", "1"), ("1", "2")]);

    let r = common::cspi(&["explain", "models/n-queens.csp"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "SATISFIABLE: the model has a solution; nothing to explain\n"
    );
}

/// Crosswords whose given letters leave no fill: the conflict is minimal
/// (checked by solving above), and `cspi explain` draws exactly its cells on
/// the grid (a given letter of it in capitals, a crossing of it as `+`) and
/// names the entries it constrains.
#[test]
fn stuck_crosswords_drawn_on_their_grids() {
    let dir = common::scratch("stuck_crosswords_drawn_on_their_grids");
    let grids = [
        common::read(&common::root().join("models/data/crossword-stuck.txt")),
        ".e...\n.#.#.\ngrape\n.#.#.\nn....\n".to_string(),
        "..a..\n.#.#.\ngrape\n.#.#.\n.t...\n".to_string(),
    ];
    let model_path = common::model("crossword.csp");
    for (k, grid) in grids.iter().enumerate() {
        let path = dir.join(format!("grid{k}.txt"));
        std::fs::write(&path, grid).unwrap();
        let grid_param = format!("grid={}", path.display());
        let model = load(
            &model_path,
            &LoadOptions::with_params(&[param("grid", &path.display().to_string())]),
        )
        .unwrap();
        let conflict = conflict_of(&model);
        // What the picture must show, from the conflict's bindings alone.
        let rows: Vec<Vec<char>> = grid.lines().map(|l| l.chars().collect()).collect();
        let mut want = rows.clone();
        let mut entries = std::collections::BTreeSet::new();
        for &i in &conflict {
            let b = &model.origins[i].bindings;
            let get = |name: &str| b.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
            let (Some(r), Some(c)) = (get("row"), get("column")) else {
                continue;
            };
            let (r, c) = (
                r.parse::<usize>().unwrap() - 1,
                c.parse::<usize>().unwrap() - 1,
            );
            match get("letter") {
                Some(l) => {
                    assert_eq!(rows[r][c].to_string(), l);
                    want[r][c] = rows[r][c].to_ascii_uppercase();
                    entries.insert((r, c, get("entry").unwrap()));
                }
                None if want[r][c] == '.' => want[r][c] = '+',
                None => {}
            }
        }
        assert!(
            !entries.is_empty(),
            "grid {k}: the givens are in the conflict"
        );
        let r = common::cspi(&["explain", "models/crossword.csp", "-p", &grid_param]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let lines: Vec<&str> = r.stdout.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("the conflict on the grid of xw"))
            .unwrap_or_else(|| panic!("no picture: {}", r.stdout));
        for (y, row) in want.iter().enumerate() {
            let shown: String = row
                .iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(lines[at + 1 + y], shown, "grid {k}, row {}", y + 1);
        }
        let named = lines[at + 1 + want.len()];
        assert!(named.contains("cannot all be filled"), "{named}");
        for (_, _, entry) in &entries {
            assert!(named.contains(&format!("{entry} (")), "{entry} in {named}");
        }
    }
}
