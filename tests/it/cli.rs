//! The command-line contract, through the binary: output formats, statuses,
//! solve modes, `--param` (including `@file`), strategy overrides, exit codes.

use crate::common;

use crate::common::json::{self, JsonRead};
use crate::common::sudoku::{self, ALPHADOKU_SYMBOLS};
use crate::common::{Run, cspi, cspi_in, scratch, shared_data};
use serde_json::Value;

/// The puzzle models/sudoku.csp solves when no `--param puzzle` is given.
const DEFAULT_PUZZLE: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const TOP95_FIRST: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn givens(puzzle: &str) -> Vec<u8> {
    sudoku::parse_lines("arg", puzzle, 9).remove(0).givens
}

fn ok(r: &Run) {
    assert_eq!(r.code, 0, "stderr:\n{}", r.stderr);
}

/// Every stdout line parsed as JSON (JSON Lines).
fn json_lines(r: &Run) -> Vec<Value> {
    r.stdout
        .lines()
        .map(|l| json::parse(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The statistics every summary and `--stats` report carries.
const STAT_KEYS: [&str; 7] = [
    "nodes",
    "failures",
    "backtracks",
    "max_depth",
    "propagations",
    "solutions",
    "time_ms",
];

/// The summary (last line), checked for shape; returns (status, solutions).
fn summary(lines: &[Value]) -> (String, i64) {
    let s = lines.last().expect("a summary line");
    assert_eq!(s["type"].str(), "summary");
    let stats = &s["stats"];
    for key in STAT_KEYS {
        assert!(stats[key].int() >= 0, "stat {key}");
    }
    assert_eq!(stats["solutions"].int(), s["solutions"].int());
    let status = s["status"].str().to_string();
    assert!(
        ["SATISFIABLE", "UNSATISFIABLE", "ALL_SOLUTIONS", "UNKNOWN"].contains(&status.as_str()),
        "status {status}"
    );
    (status, s["solutions"].int())
}

/// The `cell` grid of a JSON solution line, row-major.
fn json_grid(line: &Value, side: usize) -> Vec<u8> {
    assert_eq!(line["type"].str(), "solution");
    let rows = line["values"]["cell"].arr();
    assert_eq!(rows.len(), side);
    rows.iter()
        .flat_map(|r| {
            let r = r.arr();
            assert_eq!(r.len(), side);
            r.iter().map(|v| v.int() as u8).collect::<Vec<_>>()
        })
        .collect()
}

/// The value of one drawn cell: the position of its symbol in `symbols`, from 1.
fn symbol_value(cell: &str, symbols: &str) -> u8 {
    let mut chars = cell.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        panic!("cell `{cell}` is not one symbol");
    };
    symbols
        .chars()
        .position(|s| s == c)
        .unwrap_or_else(|| panic!("`{c}` is not one of {symbols}")) as u8
        + 1
}

/// The `cell_grid` rows of a JSON solution line, decoded by `symbols`.
fn json_text_grid(line: &Value, symbols: &str) -> Vec<u8> {
    line["values"]["cell_grid"]
        .arr()
        .iter()
        .flat_map(|row| {
            row.str()
                .chars()
                .map(|c| symbol_value(&c.to_string(), symbols))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The n-queens `q` array of a JSON solution line.
fn queens(line: &Value) -> Vec<i64> {
    assert_eq!(line["type"].str(), "solution");
    line["values"]["q"].arr().iter().map(Value::int).collect()
}

fn queens_valid(q: &[i64]) -> bool {
    let n = q.len();
    (0..n).all(|i| {
        (1..=n as i64).contains(&q[i])
            && (i + 1..n).all(|j| q[i] != q[j] && (q[i] - q[j]).abs() != (j - i) as i64)
    })
}

#[test]
fn default_run_prints_the_sudoku_as_a_grid() {
    let r = cspi(&["solve", "models/sudoku.csp"]);
    ok(&r);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 11, "9 rows and 2 separators:\n{}", r.stdout);
    let cells: Vec<u8> = lines
        .iter()
        .filter(|l| !l.starts_with('-'))
        .flat_map(|l| l.split_whitespace().filter(|t| *t != "|"))
        .map(|t| t.parse().expect("a digit"))
        .collect();
    assert_eq!(sudoku::check(3, &givens(DEFAULT_PUZZLE), &cells), Ok(()));
    assert!(r.stderr.is_empty(), "no stats unless asked: {}", r.stderr);
}

#[test]
fn json_first_solution_then_summary() {
    let r = cspi(&[
        "solve",
        "models/sudoku.csp",
        "--format",
        "json",
        "--param",
        &format!("puzzle={TOP95_FIRST}"),
    ]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].keys(), ["type", "values"]);
    assert_eq!(
        lines[0]["values"].keys(),
        ["cell"],
        "only the model's variables"
    );
    let grid = json_grid(&lines[0], 9);
    assert_eq!(sudoku::check(3, &givens(TOP95_FIRST), &grid), Ok(()));
    assert_eq!(summary(&lines), ("SATISFIABLE".into(), 1));
}

#[test]
fn other_models_print_name_value_lines() {
    let r = cspi(&["solve", "models/n-queens.csp", "--param", "n=4"]);
    ok(&r);
    let line = r.stdout.trim_end();
    let list = line.strip_prefix("q = [").and_then(|s| s.strip_suffix(']'));
    let q: Vec<i64> = list
        .unwrap_or_else(|| panic!("expected `q = [..]`, got {line}"))
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(queens_valid(&q) && q.len() == 4, "{q:?}");
}

#[test]
fn count_all_and_n() {
    let r = cspi(&["solve", "models/n-queens.csp", "--param", "n=6", "--count"]);
    ok(&r);
    assert_eq!(r.stdout, "4 solutions (ALL_SOLUTIONS)\n");

    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "-p",
        "n=6",
        "--count",
        "--format",
        "json",
    ]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(lines.len(), 1, "--count prints no solutions");
    assert_eq!(summary(&lines), ("ALL_SOLUTIONS".into(), 4));

    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=5",
        "--all",
        "--format",
        "json",
    ]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(summary(&lines), ("ALL_SOLUTIONS".into(), 10));
    let sols: std::collections::BTreeSet<Vec<i64>> = lines[..10].iter().map(queens).collect();
    assert_eq!(sols.len(), 10);
    assert!(sols.iter().all(|q| q.len() == 5 && queens_valid(q)));

    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=8",
        "-n",
        "3",
        "--format",
        "json",
    ]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(lines.len(), 4);
    assert_eq!(summary(&lines), ("SATISFIABLE".into(), 3));

    // Asking for more than there are finishes the search.
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=6",
        "-n",
        "10",
        "--format",
        "json",
    ]);
    ok(&r);
    assert_eq!(summary(&json_lines(&r)), ("ALL_SOLUTIONS".into(), 4));

    // Human output with several solutions separates them.
    let r = cspi(&["solve", "models/n-queens.csp", "--param", "n=6", "--all"]);
    ok(&r);
    assert_eq!(r.stdout.matches("--- solution ---").count(), 4);
    assert!(
        r.stdout.ends_with("4 solutions, search complete\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn unsatisfiable_is_an_answer() {
    let r = cspi(&["solve", "models/n-queens.csp", "--param", "n=3"]);
    ok(&r);
    assert_eq!(r.stdout, "UNSATISFIABLE\n");
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=3",
        "--format",
        "json",
    ]);
    ok(&r);
    assert_eq!(summary(&json_lines(&r)), ("UNSATISFIABLE".into(), 0));
    // Givens that clash: two 1s in the first row.
    let bad = format!("11{}", ".".repeat(79));
    let r = cspi(&[
        "solve",
        "models/sudoku.csp",
        "--param",
        &format!("puzzle={bad}"),
        "--format",
        "json",
    ]);
    ok(&r);
    assert_eq!(summary(&json_lines(&r)), ("UNSATISFIABLE".into(), 0));
}

#[test]
fn a_limit_gives_unknown() {
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "-p",
        "n=10",
        "--all",
        "--node-limit",
        "5",
        "--format",
        "json",
    ]);
    ok(&r);
    let (status, _) = summary(&json_lines(&r));
    assert_eq!(status, "UNKNOWN");
}

#[test]
fn stats_go_to_stderr() {
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=6",
        "--count",
        "--stats",
    ]);
    ok(&r);
    assert_eq!(r.stdout, "4 solutions (ALL_SOLUTIONS)\n");
    for key in STAT_KEYS {
        assert!(
            r.stderr.contains(&format!("{key}:")),
            "missing {key} in:\n{}",
            r.stderr
        );
    }
    assert!(
        r.stderr.lines().any(|l| l.trim() == "solutions: 4"),
        "{}",
        r.stderr
    );
}

#[test]
fn strategy_flags_override_the_search_block() {
    for args in [
        ["--var", "input", "--val", "max"],
        ["--var", "dom-wdeg", "--val", "min"],
        ["--var", "degree", "--propagation", "fc"],
        ["--propagation", "none", "--val", "lcv"],
    ] {
        let mut all = vec!["solve", "models/n-queens.csp", "-p", "n=6", "--count"];
        all.extend(args);
        let r = cspi(&all);
        ok(&r);
        assert_eq!(r.stdout, "4 solutions (ALL_SOLUTIONS)\n", "{args:?}");
    }
    let r = cspi(&["solve", "models/n-queens.csp", "--var", "mvr"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean `mrv`"), "{}", r.stderr);
}

#[test]
fn param_from_file_is_relative_to_the_working_directory() {
    let dir = scratch("param_at_file");
    std::fs::write(dir.join("p.txt"), format!("{TOP95_FIRST}\n")).unwrap();
    let model = common::model("sudoku.csp");
    let r = cspi_in(
        &dir,
        &[
            "solve",
            model.to_str().unwrap(),
            "--param",
            "puzzle=@p.txt",
            "--format",
            "json",
        ],
    );
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(
        sudoku::check(3, &givens(TOP95_FIRST), &json_grid(&lines[0], 9)),
        Ok(())
    );

    let r = cspi_in(
        &dir,
        &[
            "solve",
            model.to_str().unwrap(),
            "--param",
            "puzzle=@missing.txt",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("missing.txt"), "{}", r.stderr);
}

#[test]
fn paths_in_a_model_are_relative_to_the_model_file() {
    let dir = scratch("model_relative");
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(dir.join("m/givens.txt"), TOP95_FIRST).unwrap();
    let text = std::fs::read_to_string(common::model("sudoku.csp")).unwrap();
    let text = text.replace(
        "let given = grid(puzzle, N, symbols);",
        "let given = grid(read(\"givens.txt\"), N, symbols);",
    );
    assert!(text.contains("read(\"givens.txt\")"));
    std::fs::write(dir.join("m/s.csp"), text).unwrap();
    // Run from the parent directory: the model's path is m/s.csp.
    let r = cspi_in(&dir, &["solve", "m/s.csp", "--format", "json"]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(
        sudoku::check(3, &givens(TOP95_FIRST), &json_grid(&lines[0], 9)),
        Ok(())
    );
}

#[test]
fn larger_grids_from_files() {
    if let Some(dir) = shared_data("sudoku/alphadoku-25x25") {
        let file = dir.join("alpha_1.txt");
        let p = sudoku::parse_alphadoku("alpha_1.txt", &common::read(&file));
        let r = cspi(&[
            "solve",
            "models/sudoku.csp",
            "--param",
            "n=5",
            "--param",
            &format!("puzzle=@{}", file.display()),
            "--param",
            &format!("symbols={ALPHADOKU_SYMBOLS}"),
            "--format",
            "json",
        ]);
        ok(&r);
        let lines = json_lines(&r);
        assert_eq!(
            sudoku::check(5, &p.givens, &json_grid(&lines[0], 25)),
            Ok(())
        );
        // The human grid prints the puzzle's letters as 25 rows of 25, with box separators,
        // and the JSON solution has the same rows as text.
        assert_eq!(
            json_text_grid(&lines[0], ALPHADOKU_SYMBOLS),
            json_grid(&lines[0], 25)
        );
        let r = cspi(&[
            "solve",
            "models/sudoku.csp",
            "-p",
            "n=5",
            "-p",
            &format!("puzzle=@{}", file.display()),
            "-p",
            &format!("symbols={ALPHADOKU_SYMBOLS}"),
        ]);
        ok(&r);
        let rows: Vec<Vec<u8>> = r
            .stdout
            .lines()
            .filter(|l| !l.starts_with('-'))
            .map(|l| {
                l.split_whitespace()
                    .filter(|t| *t != "|")
                    .map(|t| symbol_value(t, ALPHADOKU_SYMBOLS))
                    .collect()
            })
            .collect();
        assert_eq!(sudoku::check(5, &p.givens, &rows.concat()), Ok(()));
    }
    if let Some(path) = shared_data("sudoku/vu-kr-16x16.txt") {
        let p = sudoku::parse_lines("16x16", &common::read(&path), 16).remove(0);
        let r = cspi(&[
            "solve",
            "models/sudoku.csp",
            "-p",
            "n=4",
            "-p",
            &format!("puzzle={}", p.text),
            "--format",
            "json",
        ]);
        ok(&r);
        let lines = json_lines(&r);
        assert_eq!(
            sudoku::check(4, &p.givens, &json_grid(&lines[0], 16)),
            Ok(())
        );
    }
    // 4×4 with a solution count: this puzzle has two solutions.
    let p = "1.......2.......";
    let givens = sudoku::parse_lines("4x4", p, 4).remove(0).givens;
    let want = sudoku::reference_count(2, &givens, u64::MAX, 1_000_000).unwrap();
    let r = cspi(&[
        "solve",
        "models/sudoku.csp",
        "-p",
        "n=2",
        "-p",
        &format!("puzzle={p}"),
        "--all",
        "--format",
        "json",
    ]);
    ok(&r);
    let lines = json_lines(&r);
    assert_eq!(summary(&lines), ("ALL_SOLUTIONS".into(), want as i64));
    for l in &lines[..lines.len() - 1] {
        assert_eq!(sudoku::check(2, &givens, &json_grid(l, 4)), Ok(()));
    }
}

/// A puzzle typed in letters prints back in the same letters; a 16×16 one typed
/// with the default alphabet prints in `1-9A-G`; 9×9 digits stay digits.
#[test]
fn puzzles_print_in_their_own_symbols() {
    // Inkala's puzzle with the digits 1..9 written as the letters Q..Y.
    let letters = "QRSTUVWXY";
    let typed: String = DEFAULT_PUZZLE
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => letters.chars().nth(d as usize - 1).unwrap(),
            None => c,
        })
        .collect();
    let r = cspi(&[
        "solve",
        "models/sudoku.csp",
        "-p",
        &format!("puzzle={typed}"),
        "-p",
        &format!("symbols={letters}"),
    ]);
    ok(&r);
    let cells: Vec<u8> = r
        .stdout
        .lines()
        .filter(|l| !l.starts_with('-'))
        .flat_map(|l| {
            l.split_whitespace()
                .filter(|t| *t != "|")
                .map(|t| symbol_value(t, letters))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(sudoku::check(3, &givens(DEFAULT_PUZZLE), &cells), Ok(()));

    // 16×16: the first row of a solved grid, blanks elsewhere; any completion will do.
    let first_row = "123456789ABCDEFG";
    let puzzle = format!("{first_row}{}", ".".repeat(240));
    let r = cspi(&[
        "solve",
        "models/sudoku.csp",
        "-p",
        "n=4",
        "-p",
        &format!("puzzle={puzzle}"),
        "--format",
        "json",
    ]);
    ok(&r);
    let line = &json_lines(&r)[0];
    let grid = json_grid(line, 16);
    assert_eq!(json_text_grid(line, first_row), grid);
    let mut givens = vec![0u8; 256];
    for (i, g) in givens.iter_mut().take(16).enumerate() {
        *g = i as u8 + 1;
    }
    assert_eq!(sudoku::check(4, &givens, &grid), Ok(()));

    // A 9×9 grid of digits has no text rows in JSON: they would repeat the numbers.
    let r = cspi(&["solve", "models/sudoku.csp", "--format", "json"]);
    ok(&r);
    assert!(
        !r.stdout.contains("cell_grid"),
        "digits need no text rows: {}",
        r.stdout
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["solve", "models/sudoku.csp", "--param", "n=x"],
        vec!["solve", "models/sudoku.csp", "--param", "nn=3"],
        vec!["solve", "models/sudoku.csp", "--param", "n"],
        vec!["solve", "models/sudoku.csp", "--no-such-flag"],
        vec!["solve", "models/sudoku.csp", "--format", "xml"],
        vec!["solve", "models/sudoku.csp", "--all", "--count", "-n", "2"],
        vec!["solve", "models/sudoku.csp", "-n", "0"],
        vec!["solve", "models/sudoku.csp", "--time-limit", "1e30"],
        vec!["solve", "models/sudoku.csp", "--time-limit", "nan"],
        vec!["solve", "models/sudoku.csp", "--time-limit", "0"],
        vec!["bench", "models/sudoku.csp", "--time-limit", "inf"],
        vec!["solve", "models/does-not-exist.csp"],
        vec!["solve", "models"],
        vec!["solve"],
        vec![],
    ] {
        let r = cspi(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
}

/// `--param n 8`, before or after the model, is answered with `--param n=8`;
/// a missing model says where it was looked for.
#[test]
fn usage_slips_get_the_fix() {
    for args in [
        ["solve", "models/n-queens.csp", "--param", "n", "8"],
        ["solve", "--param", "n", "8", "models/n-queens.csp"],
    ] {
        let r = cspi(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("write --param n=8"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = cspi(&["solve", "models/no-such-model.csp"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    // The working directory as the operating system gives it: symbolic links resolved.
    let root = common::root().canonicalize().unwrap();
    let looked = root.join("models/no-such-model.csp");
    assert!(
        r.stderr
            .contains(&format!("looked for {}", looked.display())),
        "{}",
        r.stderr
    );
}

#[test]
fn model_errors_exit_1() {
    let dir = scratch("model_errors");
    std::fs::write(dir.join("bad.csp"), "var x in 1..3;\nconstraint x == y;\n").unwrap();
    let r = cspi_in(&dir, &["solve", "bad.csp"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("unknown name `y`"), "{}", r.stderr);
    assert!(
        r.stderr.contains("bad.csp:2:"),
        "span points into the file: {}",
        r.stderr
    );
    // No colour escapes when NO_COLOR is set or stderr is not a terminal.
    assert!(!r.stderr.contains('\u{1b}'), "{}", r.stderr);
}

#[test]
fn help_and_version_exit_0() {
    for args in [["--help"].as_slice(), &["--version"], &["solve", "--help"]] {
        let r = cspi(args);
        assert_eq!(r.code, 0, "{args:?}");
        assert!(!r.stdout.is_empty());
    }
}

#[test]
fn count_matches_tdoku_stated_counts() {
    let Some(path) = shared_data("sudoku/tdoku-test_puzzles.txt") else {
        return;
    };
    let puzzles = sudoku::parse_tdoku_test("tdoku", &common::read(&path));
    // Every puzzle with no solution or several, through the binary's --count.
    let chosen: Vec<_> = puzzles.iter().filter(|p| p.count != Some(1)).collect();
    assert!(chosen.len() >= 10);
    for p in chosen {
        let r = cspi(&[
            "solve",
            "models/sudoku.csp",
            "-p",
            &format!("puzzle={}", p.text),
            "--count",
            "--format",
            "json",
        ]);
        ok(&r);
        let want = p.count.unwrap() as i64;
        let status = if want == 0 {
            "UNSATISFIABLE"
        } else {
            "ALL_SOLUTIONS"
        };
        assert_eq!(
            summary(&json_lines(&r)),
            (status.to_string(), want),
            "{}",
            p.label
        );
    }
}

#[test]
fn a_model_without_variables_still_answers() {
    let dir = scratch("no-vars");
    let holds = dir.join("holds.csp");
    std::fs::write(&holds, "constraint 1 + 1 == 2;\n").unwrap();
    let r = cspi(&["solve", holds.to_str().unwrap()]);
    ok(&r);
    assert_eq!(r.stdout, "SATISFIABLE (the model has no variables)\n");
    let fails = dir.join("fails.csp");
    std::fs::write(&fails, "constraint 1 + 1 == 3;\n").unwrap();
    let r = cspi(&["solve", fails.to_str().unwrap()]);
    ok(&r);
    assert_eq!(r.stdout, "UNSATISFIABLE\n");
}

#[test]
fn a_truth_value_negated_is_a_number() {
    // -(x < y) is 0 or -1: the solutions are exactly those with x < y.
    let path = scratch("negated-truth").join("m.csp");
    std::fs::write(
        &path,
        "var x in 0..2;\nvar y in 0..2;\nconstraint -(x < y) == -1;\n",
    )
    .unwrap();
    let r = cspi(&["solve", path.to_str().unwrap(), "--count"]);
    ok(&r);
    assert!(r.stdout.starts_with("3 solutions"), "{}", r.stdout);
}

#[test]
fn one_solution_is_singular() {
    let r = cspi(&["solve", "models/sudoku.csp", "--count"]);
    ok(&r);
    assert_eq!(r.stdout, "1 solution (ALL_SOLUTIONS)\n");
}

#[test]
fn completions_and_man_page_come_from_the_same_definitions() {
    for shell in ["bash", "zsh", "fish"] {
        let r = cspi(&["completions", shell]);
        ok(&r);
        for word in [
            "solve",
            "check",
            "bench",
            "each",
            "time-limit",
            "propagation",
        ] {
            assert!(r.stdout.contains(word), "{shell} completion lacks {word}");
        }
    }
    let r = cspi(&["completions", "tcsh"]);
    assert_eq!(r.code, 2);
    let r = cspi(&["man"]);
    ok(&r);
    assert!(
        r.stdout.starts_with(".ie \\n(.g .ds Aq"),
        "roff: {}",
        &r.stdout[..80]
    );
    assert!(r.stdout.contains(".TH cspi 1"));
    for word in ["solve", "check", "bench", "completions"] {
        assert!(r.stdout.contains(word), "the man page lacks {word}");
    }
    // Every command has its own page, named as the top page refers to it.
    for cmd in [
        "solve",
        "check",
        "explain",
        "bench",
        "merge",
        "completions",
        "man",
        "fzn",
    ] {
        let r = cspi(&["man", cmd]);
        ok(&r);
        assert!(
            r.stdout.contains(&format!(".TH cspi-{cmd} 1")),
            "{cmd}: {}",
            &r.stdout[..200]
        );
    }
    assert!(cspi(&["man", "solve"]).stdout.contains("\\-\\-each\\-data"));
    let r = cspi(&["man", "sovle"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("there is no command `sovle`"),
        "{}",
        r.stderr
    );
}
