//! Every sudoku file of ../shared/data/sudoku, solved with models/sudoku.csp
//! through the library and checked by the independent checker of
//! tests/it/common/sudoku.rs.
//!
//! The default run takes an evenly spread sample of every file; the `#[ignore]`
//! tests (`cargo test --release -- --ignored`) take every puzzle.

use crate::common::sudoku::{self, Puzzle};
use crate::common::{read, shared_data, spread};

/// Node budget per puzzle: a search that runs away fails with a message
/// instead of hanging the suite.
const SAMPLE_NODES: u64 = 2_000_000;
const FULL_NODES: u64 = 3_000_000;
/// 25×25 nodes are far dearer (about 2k nodes/s on a busy 2-core machine for
/// the hard ones), so both runs give them a smaller budget.
const FULL_NODES_25: u64 = 100_000;

fn lines(file: &str, side: usize) -> Option<Vec<Puzzle>> {
    let path = shared_data(&format!("sudoku/{file}"))?;
    Some(sudoku::parse_lines(file, &read(&path), side))
}

fn top95() -> Option<Vec<Puzzle>> {
    lines("norvig-top95.txt", 9)
}
fn hardest() -> Option<Vec<Puzzle>> {
    lines("norvig-hardest.txt", 9)
}
fn easy50() -> Option<Vec<Puzzle>> {
    lines("norvig-easy50.txt", 9)
}
fn magictour() -> Option<Vec<Puzzle>> {
    lines("magictour-top1465.txt", 9)
}
fn forum_1106() -> Option<Vec<Puzzle>> {
    lines("forum-hardest-1106.txt", 9)
}
fn forum_1905() -> Option<Vec<Puzzle>> {
    lines("forum-hardest-1905-11plus-first10000.txt", 9)
}
fn clue17() -> Option<Vec<Puzzle>> {
    lines("tdoku-17clue-49158.txt", 9)
}
fn vu_4x4() -> Option<Vec<Puzzle>> {
    lines("vu-kr-4x4.txt", 4)
}
fn vu_16x16() -> Option<Vec<Puzzle>> {
    lines("vu-kr-16x16.txt", 16)
}
fn euler() -> Option<Vec<Puzzle>> {
    let file = "projecteuler-p096-sudoku.txt";
    let path = shared_data(&format!("sudoku/{file}"))?;
    Some(sudoku::parse_euler(file, &read(&path)))
}
fn tdoku_test() -> Option<Vec<Puzzle>> {
    let file = "tdoku-test_puzzles.txt";
    let path = shared_data(&format!("sudoku/{file}"))?;
    Some(sudoku::parse_tdoku_test(file, &read(&path)))
}
fn kaggle() -> Option<Vec<Puzzle>> {
    let file = "kaggle-3m-sample7034.csv";
    let path = shared_data(&format!("sudoku/{file}"))?;
    Some(sudoku::parse_kaggle(file, &read(&path)))
}
fn alphadoku() -> Option<Vec<Puzzle>> {
    let dir = shared_data("sudoku/alphadoku-25x25")?;
    let mut files: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir(&dir)
        .expect("read alphadoku dir")
        .map(|e| e.expect("dir entry").path())
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?;
            let k: u32 = stem.strip_prefix("alpha_")?.parse().ok()?;
            Some((k, p))
        })
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .map(|(k, p)| sudoku::parse_alphadoku(&format!("alpha_{k}.txt"), &read(p)))
            .collect(),
    )
}

/// Verifies the chosen puzzles, reporting every failure at once.
fn run(puzzles: Option<Vec<Puzzle>>, expected_len: usize, sample: Option<usize>, nodes: u64) {
    let Some(puzzles) = puzzles else { return };
    assert_eq!(puzzles.len(), expected_len, "puzzles in the file");
    let chosen: Vec<usize> = match sample {
        Some(k) => spread(puzzles.len(), k),
        None => (0..puzzles.len()).collect(),
    };
    let failures: Vec<String> = chosen
        .iter()
        .filter_map(|&i| {
            let p = &puzzles[i];
            let budget = if p.n >= 5 {
                nodes.min(FULL_NODES_25)
            } else {
                nodes
            };
            sudoku::verify(p, Some(budget)).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} puzzles failed:\n{}",
        failures.len(),
        chosen.len(),
        failures.join("\n")
    );
    eprintln!("{} puzzles verified", chosen.len());
}

/// One sampled test and one exhaustive `#[ignore]` test per file.
macro_rules! sets {
    ($($name:ident, $full:ident: $load:expr, $len:expr, $sample:expr;)*) => {$(
        #[test]
        fn $name() {
            run($load, $len, Some($sample), SAMPLE_NODES);
        }
        #[test]
        #[ignore = "every puzzle of the file; run with --ignored"]
        fn $full() {
            run($load, $len, None, FULL_NODES);
        }
    )*};
}

sets! {
    top95_sample, top95_all: top95(), 95, 95;
    hardest_sample, hardest_all: hardest(), 11, 11;
    easy50_sample, easy50_all: easy50(), 50, 50;
    euler_sample, euler_all: euler(), 50, 50;
    tdoku_counts_sample, tdoku_counts_all: tdoku_test(), 43, 43;
    magictour_sample, magictour_all: magictour(), 1465, 150;
    forum_1106_sample, forum_1106_all: forum_1106(), 375, 100;
    forum_1905_sample, forum_1905_all: forum_1905(), 10000, 150;
    clue17_sample, clue17_all: clue17(), 49158, 200;
    kaggle_sample, kaggle_all: kaggle(), 7034, 200;
    vu_4x4_sample, vu_4x4_all: vu_4x4(), 1000, 1000;
    vu_16x16_sample, vu_16x16_all: vu_16x16(), 1000, 50;
    alphadoku_sample, alphadoku_all: alphadoku(), 31, 8;
}

/// The two encodings of the same 50 puzzles (Norvig's easy50 and Project
/// Euler 96) decode to the same givens: a check of the two parsers.
#[test]
fn easy50_is_project_euler_96() {
    let (Some(a), Some(b)) = (easy50(), euler()) else {
        return;
    };
    let a: Vec<_> = a.iter().map(|p| p.givens.clone()).collect();
    let b: Vec<_> = b.iter().map(|p| p.givens.clone()).collect();
    assert_eq!(a, b);
}

/// The reference solver agrees with tdoku's stated solution counts, so it can
/// be trusted where the tests use it to confirm an UNSATISFIABLE answer.
#[test]
fn reference_solver_matches_tdoku_counts() {
    let Some(puzzles) = tdoku_test() else { return };
    for p in &puzzles {
        let want = p.count.unwrap();
        let got = sudoku::reference_count(p.n, &p.givens, u64::MAX, 50_000_000);
        assert_eq!(got, Some(want), "{}", p.label);
    }
}

/// The checker rejects what breaks the rules (it could otherwise pass anything).
#[test]
fn checker_rejects_broken_grids() {
    let solution: Vec<u8> =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
            .bytes()
            .map(|b| b - b'0')
            .collect();
    let givens = vec![0; 81];
    assert_eq!(sudoku::check(3, &givens, &solution), Ok(()));
    let mut given_broken = givens.clone();
    given_broken[0] = 9;
    assert!(sudoku::check(3, &given_broken, &solution).is_err());
    // Swapping two cells of a row keeps the row valid but breaks two columns.
    let mut swapped = solution.clone();
    swapped.swap(0, 1);
    assert!(sudoku::check(3, &givens, &swapped).is_err());
    // A Latin square whose boxes are wrong: row r is the shift r of 1..9.
    let latin: Vec<u8> = (0..81).map(|i| ((i / 9 + i % 9) % 9 + 1) as u8).collect();
    assert!(
        sudoku::check(3, &givens, &latin)
            .unwrap_err()
            .contains("box")
    );
    let mut zero = solution.clone();
    zero[40] = 0;
    assert!(sudoku::check(3, &givens, &zero).is_err());
}
