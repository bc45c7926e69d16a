//! The 8-puzzle model against an independent breadth-first search over all
//! boards reachable from the goal (written from the puzzle's rules, sharing
//! nothing with the engine): the model's plan length must be the BFS distance,
//! its boards a legal sequence of moves from the start to the goal, and a start
//! that BFS never reaches must be reported unsatisfiable.
//!
//! The default run takes a sample of ../shared/data/eight-puzzle/instances.txt;
//! `cargo test --release -- --ignored` runs them all (the two 31-move ones too).

use cspi::model::Model;
use cspi::solve::Next;
use cspi::solve::ParamOverride;
use cspi::solve::{LoadOptions, Options, Status, load, solve};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;

const GOAL: &str = "123456780";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn instances() -> Option<Vec<String>> {
    let path = root().join("../shared/data/eight-puzzle/instances.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            text.lines()
                .map(str::trim)
                .filter(|l| l.len() == 9)
                .map(String::from)
                .collect(),
        ),
        Err(_) => {
            eprintln!("skipped: ../shared/data/eight-puzzle/instances.txt not found");
            None
        }
    }
}

/// The boards one move away: the blank swaps with an orthogonal neighbour.
fn neighbours(board: &[u8; 9]) -> Vec<[u8; 9]> {
    let b = board.iter().position(|&t| t == 0).unwrap_or(0);
    let (r, c) = (b / 3, b % 3);
    let mut out = Vec::new();
    for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
        let (nr, nc) = (r as i32 + dr, c as i32 + dc);
        if (0..3).contains(&nr) && (0..3).contains(&nc) {
            let n = (nr * 3 + nc) as usize;
            let mut next = *board;
            next.swap(b, n);
            out.push(next);
        }
    }
    out
}

fn parse(s: &str) -> [u8; 9] {
    let mut b = [0u8; 9];
    for (i, ch) in s.bytes().enumerate() {
        b[i] = ch - b'0';
    }
    b
}

/// Distance to the goal of every board that can reach it.
fn bfs_from_goal() -> HashMap<[u8; 9], u32> {
    let goal = parse(GOAL);
    let mut dist = HashMap::new();
    dist.insert(goal, 0);
    let mut queue = VecDeque::from([goal]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for n in neighbours(&b) {
            dist.entry(n).or_insert_with(|| {
                queue.push_back(n);
                d + 1
            });
        }
    }
    dist
}

/// Solves the model; the last (optimal) solution's boards, or None when unsatisfiable.
fn run_model(start: &str) -> Option<Vec<[u8; 9]>> {
    let overrides = vec![ParamOverride {
        name: "start".into(),
        value: start.into(),
    }];
    let model: Model = load(
        &root().join("models/eight-puzzle.csp"),
        &LoadOptions::with_params(&overrides),
    )
    .unwrap_or_else(|e| panic!("model does not load: {e:?}"));
    let model = Arc::new(model);
    let mut options = Options {
        search: model.search.clone(),
        check: true,
        ..Options::default()
    };
    options.limits.solutions = None;
    // The boards read from the model's own variables: loc[t, k] is the
    // cell of tile k after t moves (row by row), so cell loc[t, k] holds k.
    let loc = model.groups["loc"].clone();
    let mut last: Option<Vec<[u8; 9]>> = None;
    let summary = solve(&model, &options, |values| {
        let cells: Vec<i64> = loc.vars.iter().map(|&v| values[v]).collect();
        last = Some(
            cells
                .chunks(9)
                .map(|step| {
                    let mut b = [u8::MAX; 9];
                    for (k, &p) in step.iter().enumerate() {
                        b[p as usize] = k as u8;
                    }
                    b
                })
                .collect(),
        );
        Next::Continue
    });
    assert!(
        summary.rejected.is_empty(),
        "checker rejected: {:?}",
        summary.rejected
    );
    match summary.status {
        Status::Optimal => last,
        Status::Unsatisfiable => None,
        s => panic!("unexpected status {s:?} for {start}"),
    }
}

/// The number of moves of a legal plan, checked board by board.
fn check_plan(start: &str, boards: &[[u8; 9]]) -> u32 {
    assert_eq!(boards[0], parse(start), "the plan must begin at the start");
    assert_eq!(
        *boards.last().unwrap(),
        parse(GOAL),
        "the plan must end at the goal"
    );
    let mut moves = 0;
    let mut stopped = false;
    for w in boards.windows(2) {
        if w[0] == w[1] {
            stopped = true;
            continue;
        }
        assert!(!stopped, "a move after the plan stopped");
        assert!(
            neighbours(&w[0]).contains(&w[1]),
            "illegal move {:?} -> {:?}",
            w[0],
            w[1]
        );
        moves += 1;
    }
    moves
}

fn compare(starts: &[String]) {
    let dist = bfs_from_goal();
    assert_eq!(dist.len(), 181_440, "half of the 9! boards reach the goal");
    for s in starts {
        let want = dist.get(&parse(s)).copied();
        let got = run_model(s).map(|boards| check_plan(s, &boards));
        assert_eq!(got, want, "start {s}: model {got:?}, BFS {want:?}");
    }
}

#[test]
fn sample_instances_have_the_bfs_optimal_length() {
    let Some(all) = instances() else { return };
    let dist = bfs_from_goal();
    // Every instance cheap enough for the default run (up to 20 moves), and
    // the unsolvable ones.
    let sample: Vec<String> = all
        .into_iter()
        .filter(|s| dist.get(&parse(s)).is_none_or(|&d| d <= 20))
        .collect();
    assert!(sample.len() >= 10);
    assert!(
        sample.iter().any(|s| !dist.contains_key(&parse(s))),
        "the sample holds an unsolvable start"
    );
    compare(&sample);
}

#[test]
#[ignore = "all instances, the 31-move ones included: run with --ignored"]
fn all_instances_have_the_bfs_optimal_length() {
    let Some(all) = instances() else { return };
    compare(&all);
}
