//! `cspi solve MODEL --each NAME=FILE`: many instances in one run, through
//! the binary. Every solution is checked by the independent sudoku checker.

use crate::common;

use crate::common::json::{self, JsonRead};
use crate::common::sudoku;
use crate::common::{cspi_in, scratch, shared_data};
use serde_json::Value;

const TOP95_FIRST: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// Two 1s in the first row: no solution.
const CLASH: &str =
    "11...............................................................................";

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| json::parse(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn grid(line: &Value) -> Vec<u8> {
    line["values"]["cell"]
        .arr()
        .iter()
        .flat_map(|r| r.arr().iter().map(|v| v.int() as u8).collect::<Vec<_>>())
        .collect()
}

#[test]
fn each_line_is_an_instance_and_a_bad_one_does_not_stop_the_rest() {
    let dir = scratch("each-lines");
    let file = dir.join("puzzles.txt");
    let text = format!("# three puzzles\n{TOP95_FIRST}\n\n123\n{CLASH}\n");
    std::fs::write(&file, text).unwrap();
    let model = common::model("sudoku.csp");
    let args = [
        "solve",
        model.to_str().unwrap(),
        "--each",
        "puzzle=puzzles.txt",
        "--format",
        "json",
    ];
    let r = cspi_in(&dir, &args);
    assert_eq!(r.code, 1, "one instance has an error: {}", r.stderr);
    let lines = json_lines(&r.stdout);
    let kinds: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["type"].str() != "total")
        .map(|l| (l["type"].str(), l["instance"].str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("solution", "puzzles.txt:2"),
            ("summary", "puzzles.txt:2"),
            ("error", "puzzles.txt:4"),
            ("summary", "puzzles.txt:5"),
        ]
    );
    let givens = sudoku::parse_lines("top95", TOP95_FIRST, 9)
        .remove(0)
        .givens;
    assert_eq!(sudoku::check(3, &givens, &grid(&lines[0])), Ok(()));
    assert_eq!(lines[1]["status"].str(), "SATISFIABLE");
    assert!(lines[2]["message"].str().contains("cells"));
    assert_eq!(lines[3]["status"].str(), "UNSATISFIABLE");
    let total = lines.last().unwrap();
    assert_eq!(total["type"].str(), "total");
    for (key, want) in [
        ("instances", 3),
        ("solved", 1),
        ("unsatisfiable", 1),
        ("unknown", 0),
        ("errors", 1),
    ] {
        assert_eq!(total[key].int(), want, "{key}");
    }
    // The bad instance's diagnostic names it and points into the data.
    assert!(
        r.stderr.contains("error in instance puzzles.txt:4"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("cspi::data::grid"), "{}", r.stderr);

    // For people: a header per instance and the tally at the end.
    let r = cspi_in(&dir, &args[..4]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.starts_with("=== puzzles.txt:2 ===\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("=== puzzles.txt:5 ===\nUNSATISFIABLE\n"));
    assert!(r.stdout.contains("\n=== puzzles.txt:4 ===\nERROR: "));
    assert!(
        r.stdout
            .contains("3 instances: 1 solved, 1 unsatisfiable, 0 unknown, 1 with errors;"),
        "{}",
        r.stdout
    );
}

#[test]
fn json_records_give_several_parameters() {
    let dir = scratch("each-json");
    let file = dir.join("sizes.jsonl");
    std::fs::write(
        &file,
        "{\"n\": 4}\n{\"n\": 6}\n{\"n\": \"x\"}\n{\"m\": 3}\n[1]\n",
    )
    .unwrap();
    let model = common::model("n-queens.csp");
    let r = cspi_in(
        &dir,
        &[
            "solve",
            model.to_str().unwrap(),
            "--each",
            "sizes.jsonl",
            "--count",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 1, "an instance with an error exits 1: {}", r.stderr);
    let lines = json_lines(&r.stdout);
    let counts: Vec<(String, String)> = lines
        .iter()
        .filter(|l| l["type"].str() != "total")
        .map(|l| {
            let what = match l["type"].str() {
                "summary" => l["solutions"].int().to_string(),
                other => other.to_string(),
            };
            (l["instance"].str().to_string(), what)
        })
        .collect();
    let want = [
        ("sizes.jsonl:1", "2"),
        ("sizes.jsonl:2", "4"),
        ("sizes.jsonl:3", "error"),
        ("sizes.jsonl:4", "error"),
        ("sizes.jsonl:5", "error"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(counts, want);
    assert_eq!(lines.last().unwrap()["errors"].int(), 3);
}

#[test]
fn a_missing_instance_file_names_the_path() {
    let r = common::cspi(&["solve", "models/sudoku.csp", "--each", "puzzle=no-such.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no-such.txt"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

#[test]
fn the_shared_hard_set_in_one_run() {
    let Some(path) = shared_data("sudoku/norvig-top95.txt") else {
        return;
    };
    let text = common::read(&path);
    let puzzles = sudoku::parse_lines("top95", &text, 9);
    let arg = format!("puzzle={}", path.display());
    let r = common::cspi(&[
        "solve",
        "models/sudoku.csp",
        "--each",
        &arg,
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = json_lines(&r.stdout);
    let solutions: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"].str() == "solution")
        .collect();
    assert_eq!(solutions.len(), puzzles.len());
    for (p, s) in puzzles.iter().zip(&solutions) {
        assert_eq!(sudoku::check(3, &p.givens, &grid(s)), Ok(()));
    }
    let total = lines.last().unwrap();
    assert_eq!(total["solved"].int(), puzzles.len() as i64);
}

/// A model whose parameters are an array, a record and an enum member.
const TYPED: &str = "enum Colour = {red, green, blue};
type Box = (w: int, h: int);
param c: Colour;
param d: array of int;
param b: Box;
var x in 0..100;
constraint x == sum(d) + b.w * b.h + ord(c);
output \"\\(c) \\(x)\";
";

#[test]
fn json_records_give_arrays_records_and_enums() {
    let dir = scratch("each-typed");
    std::fs::write(dir.join("typed.csp"), TYPED).unwrap();
    let lines = "{\"c\": \"green\", \"d\": [1, 2, 3], \"b\": {\"w\": 2, \"h\": 5}}\n\
                 {\"c\": \"blue\", \"d\": [], \"b\": {\"w\": 1, \"h\": 1}}\n\
                 {\"c\": \"blue\", \"d\": [\"x\"], \"b\": {\"w\": 1, \"h\": 1}}\n";
    std::fs::write(dir.join("runs.jsonl"), lines).unwrap();
    let r = cspi_in(&dir, &["solve", "typed.csp", "--each", "runs.jsonl"]);
    assert_eq!(r.code, 1, "the third record is wrong: {}", r.stderr);
    assert!(
        r.stdout.contains("=== runs.jsonl:1 ===\ngreen 18\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("=== runs.jsonl:2 ===\nblue 4\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("error in instance runs.jsonl:3"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .contains("3 instances: 2 solved, 0 unsatisfiable, 0 unknown, 1 with errors"),
        "{}",
        r.stdout
    );
}

#[test]
fn each_data_file_and_folder_is_an_instance() {
    let dir = scratch("each-data");
    std::fs::write(dir.join("typed.csp"), TYPED).unwrap();
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("a.json"),
        "{\"c\": \"red\", \"d\": [5], \"b\": {\"w\": 3, \"h\": 3}}",
    )
    .unwrap();
    std::fs::write(
        data.join("b.dzn"),
        "c = green; d = [1, 1]; b = (w: 2, h: 2);",
    )
    .unwrap();
    std::fs::write(data.join("notes.txt"), "not data").unwrap();
    let r = cspi_in(
        &dir,
        &[
            "solve",
            "typed.csp",
            "--each-data",
            "data",
            "--format",
            "json",
        ],
    );
    let lines = json_lines(&r.stdout);
    let tags: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| l["type"].str() != "total")
        .map(|l| (l["type"].str(), l["instance"].str()))
        .collect();
    assert_eq!(tags[0], ("solution", "a.json"), "{}", r.stdout);
    assert_eq!(lines[0]["values"]["x"].int(), 15);
    // The .dzn's record (MiniZinc 2.7's `(w: 2, h: 2)`) is a record as JSON's.
    let b = lines
        .iter()
        .find(|l| l["instance"].str() == "b.dzn")
        .unwrap_or_else(|| panic!("{}\n{}", r.stdout, r.stderr));
    assert_eq!(b["type"].str(), "solution", "{}\n{}", r.stdout, r.stderr);
    assert_eq!(b["values"]["x"].int(), 2 + 2 * 2 + 2);
    let r = cspi_in(
        &dir,
        &[
            "solve",
            "typed.csp",
            "--each-data",
            "data/a.json",
            "data/a.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("red 15").count(), 2, "{}", r.stdout);
}
