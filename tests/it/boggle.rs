//! The Boggle model against an independent depth-first Boggle solver written
//! from the rules (neighbours include diagonals, no cell twice, a `Qu` die
//! reads QU, words of 3 letters or more, scores 1 1 2 3 5 11): the words, each
//! word's score and the total must agree, and board-pointsN.txt must score N
//! with dictionary-yawl.txt. The default run takes a sample of the shared
//! boards; `-- --ignored` runs all of them.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/boggle");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("skipped: ../shared/data/boggle not found");
        None
    }
}

fn score(letters: usize) -> i64 {
    match letters {
        0..=2 => 0,
        3 | 4 => 1,
        5 => 2,
        6 => 3,
        7 => 5,
        _ => 11,
    }
}

/// Every dictionary word on the board, with its score, by DFS over paths.
fn dfs_solve(
    board: &Path,
    dict: &HashSet<String>,
    prefixes: &HashSet<String>,
) -> BTreeMap<String, i64> {
    let text = std::fs::read_to_string(board).expect("board");
    let mut it = text.split_whitespace();
    let rows: usize = it.next().and_then(|s| s.parse().ok()).expect("rows");
    let cols: usize = it.next().and_then(|s| s.parse().ok()).expect("cols");
    // A bare Q is the Qu die too.
    let cells: Vec<String> = it
        .map(|s| match s.to_uppercase().as_str() {
            "Q" => "QU".to_string(),
            u => u.to_string(),
        })
        .collect();
    assert_eq!(cells.len(), rows * cols);
    let mut found = BTreeMap::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        at: usize,
        word: &mut String,
        used: &mut Vec<bool>,
        cells: &[String],
        (rows, cols): (usize, usize),
        dict: &HashSet<String>,
        prefixes: &HashSet<String>,
        found: &mut BTreeMap<String, i64>,
    ) {
        let len = word.len();
        word.push_str(&cells[at]);
        if prefixes.contains(word.as_str()) {
            if word.len() >= 3 && dict.contains(word.as_str()) {
                found.insert(word.clone(), score(word.len()));
            }
            used[at] = true;
            let (r, c) = ((at / cols) as i64, (at % cols) as i64);
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if (dr, dc) != (0, 0)
                        && (0..rows as i64).contains(&nr)
                        && (0..cols as i64).contains(&nc)
                    {
                        let n = (nr * cols as i64 + nc) as usize;
                        if !used[n] {
                            go(n, word, used, cells, (rows, cols), dict, prefixes, found);
                        }
                    }
                }
            }
            used[at] = false;
        }
        word.truncate(len);
    }
    for start in 0..cells.len() {
        let mut used = vec![false; cells.len()];
        go(
            start,
            &mut String::new(),
            &mut used,
            &cells,
            (rows, cols),
            dict,
            prefixes,
            &mut found,
        );
    }
    found
}

fn load_dict(path: &Path) -> (HashSet<String>, HashSet<String>) {
    let text = std::fs::read_to_string(path).expect("dictionary");
    let words: HashSet<String> = text.split_whitespace().map(str::to_string).collect();
    let mut prefixes = HashSet::new();
    for w in &words {
        for i in 1..=w.len() {
            prefixes.insert(w[..i].to_string());
        }
    }
    (words, prefixes)
}

/// The model's words with their scores, and its total, from `--format json`.
fn model_solve(board: &Path, dict: &Path) -> (BTreeMap<String, i64>, i64) {
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/boggle.csp");
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .arg("solve")
        .arg(model)
        .arg("--param")
        .arg(format!("board={}", board.display()))
        .arg("--param")
        .arg(format!("dict={}", dict.display()))
        .args(["--all", "--format", "json"])
        .output()
        .expect("cspi runs");
    assert!(
        out.status.success(),
        "cspi failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let field = |line: &str, key: &str| -> Option<String> {
        let at = line.find(key)? + key.len();
        let rest = &line[at..];
        let end = rest.find(['"', ',', '}'])?;
        Some(rest[..end].to_string())
    };
    let mut words = BTreeMap::new();
    let mut total = None;
    for line in text.lines() {
        if line.contains("\"type\":\"solution\"") {
            let w = field(line, "\"word\":\"").expect("word");
            let s: i64 = field(line, "\"score\":")
                .and_then(|s| s.parse().ok())
                .expect("score");
            assert!(words.insert(w.clone(), s).is_none(), "{w} reported twice");
        } else if line.contains("\"type\":\"summary\"") {
            assert!(
                line.contains("\"status\":\"ALL_SOLUTIONS\"")
                    || line.contains("\"status\":\"UNSATISFIABLE\""),
                "{line}"
            );
            total = Some(
                field(line, "\"totals\":{\"score\":")
                    .and_then(|s| s.parse().ok())
                    .expect("total"),
            );
        }
    }
    (words, total.expect("a summary"))
}

fn compare(boards: &[&str], dict_name: &str) {
    let Some(dir) = data() else { return };
    let dict = dir.join(dict_name);
    let (words, prefixes) = load_dict(&dict);
    for b in boards {
        let board = dir.join(b);
        let want = dfs_solve(&board, &words, &prefixes);
        let (got, total) = model_solve(&board, &dict);
        assert_eq!(got, want, "{b} with {dict_name}");
        assert_eq!(total, want.values().sum::<i64>(), "{b}: total");
        if let Some(n) = b
            .strip_prefix("board-points")
            .and_then(|s| s.strip_suffix(".txt"))
            && dict_name == "dictionary-yawl.txt"
        {
            assert_eq!(total, n.parse::<i64>().unwrap(), "{b} must score {n}");
        }
    }
}

#[test]
fn sample_boards_match_the_dfs_solver() {
    compare(
        &[
            "board-points0.txt",
            "board-points1.txt",
            "board-points5.txt",
            "board-points100.txt",
            "board-q.txt",
            "board-16q.txt",
            "board-aqua.txt",
        ],
        "dictionary-yawl.txt",
    );
    compare(&["board4x4.txt", "board-q.txt"], "dictionary-algs4.txt");
}

#[test]
#[ignore = "every shared board: run with --ignored"]
fn all_boards_match_the_dfs_solver() {
    let Some(dir) = data() else { return };
    let mut boards: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("board") && n.ends_with(".txt"))
        .collect();
    boards.sort();
    let names: Vec<&str> = boards.iter().map(String::as_str).collect();
    compare(&names, "dictionary-yawl.txt");
}
