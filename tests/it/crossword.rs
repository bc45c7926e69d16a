//! Crossword fill against the original assignment's data (../shared/data/crossword):
//! the report's solution counts, the same count at every propagation level,
//! first fills checked by an independent checker, brute-force counts on small
//! picture grids, and diagnostics for bad grids and dictionaries.

use cspi::model::{Propagation, VarSelect};
use cspi::solve::ParamOverride;
use cspi::solve::{Limits, Next};
use cspi::solve::{LoadOptions, Options, Status, load, solve};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The assignment's data directory, or `None` (with a note) when absent.
fn data() -> Option<PathBuf> {
    let d = root().join("../shared/data/crossword");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("skipped: ../shared/data/crossword not found");
        None
    }
}

fn param(name: &str, value: &Path) -> ParamOverride {
    ParamOverride {
        name: name.into(),
        value: value.display().to_string(),
    }
}

/// Counts the fills of a slot puzzle with a dictionary.
fn count(data: &Path, puzzle: u32, words: u32, level: Propagation, by_product: bool) -> u64 {
    let overrides = [
        param("slots", &data.join(format!("puzzle-{puzzle}.txt"))),
        param("dict", &data.join(format!("words-{words}.txt"))),
    ];
    let model = Arc::new(
        load(
            &root().join("models/crossword-slots.csp"),
            &LoadOptions::with_params(&overrides),
        )
        .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let mut options = Options {
        search: model.search.clone(),
        count_only: true,
        no_product_count: !by_product,
        ..Options::default()
    };
    options.search.propagation = level;
    if level == Propagation::None {
        // Without pruning, taking neighbouring slots in turn is far faster than mrv.
        options.search.var = VarSelect::Input;
    }
    let summary = solve(&model, &options, |_| Next::Continue);
    assert!(
        matches!(summary.status, Status::AllSolutions | Status::Unsatisfiable),
        "search incomplete"
    );
    summary.stats.solutions
}

/// The original report's table: rows words-200, -500, -1000; columns puzzles 1-4.
const REPORT: [(u32, [u64; 4]); 3] = [
    (200, [0, 0, 0, 0]),
    (500, [32, 509, 70, 0]),
    (1000, [1381, 20593, 11561, 320]),
];

#[test]
fn counts_reproduce_the_report() {
    let Some(d) = data() else { return };
    for (words, row) in REPORT {
        for (p, &expected) in row.iter().enumerate() {
            let p = p as u32 + 1;
            assert_eq!(
                count(&d, p, words, Propagation::Ac, true),
                expected,
                "puzzle {p}, words-{words}"
            );
        }
    }
}

#[test]
fn every_level_gives_the_same_count() {
    let Some(d) = data() else { return };
    for (words, row) in &REPORT[..2] {
        for (p, &expected) in row.iter().enumerate() {
            let p = p as u32 + 1;
            for level in [Propagation::None, Propagation::Fc, Propagation::Ac] {
                for by_product in [false, true] {
                    assert_eq!(
                        count(&d, p, *words, level, by_product),
                        expected,
                        "puzzle {p}, words-{words}, {level:?}, by product {by_product}"
                    );
                }
            }
        }
    }
    // words-1000 leaf by leaf, at ac and fc.
    for (p, &expected) in REPORT[2].1.iter().enumerate() {
        let p = p as u32 + 1;
        for level in [Propagation::Fc, Propagation::Ac] {
            assert_eq!(count(&d, p, 1000, level, false), expected, "puzzle {p}");
        }
    }
}

/// words-1800 and words-3000: the same count leaf by leaf and by product,
/// at every level for words-1800 (`none` on puzzles 1-3 only: on puzzle 4's
/// twelve slots it runs for well over ten minutes). Slow (about ten minutes):
/// run with `--ignored`.
#[test]
#[ignore]
fn large_dictionaries_agree_across_levels() {
    let Some(d) = data() else { return };
    for p in 1..=4 {
        let fast = count(&d, p, 1800, Propagation::Ac, true);
        let levels: &[Propagation] = if p < 4 {
            &[Propagation::None, Propagation::Fc, Propagation::Ac]
        } else {
            &[Propagation::Fc, Propagation::Ac]
        };
        for &level in levels {
            assert_eq!(
                count(&d, p, 1800, level, false),
                fast,
                "puzzle {p} {level:?}"
            );
        }
        let fast = count(&d, p, 3000, Propagation::Ac, true);
        assert_eq!(
            count(&d, p, 3000, Propagation::Ac, false),
            fast,
            "puzzle {p}"
        );
        eprintln!("puzzle {p}: words-3000 {fast}");
    }
}

/// The words of a JSON string array that follows `"key":` in `line`.
fn json_words(line: &str, key: &str) -> Vec<String> {
    let start = line
        .find(&format!("\"{key}\":["))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + key.len()
        + 4;
    let end = start + line[start..].find(']').expect("array end");
    line[start..end]
        .split(',')
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

/// The independent checker: reads the slot file and the dictionary itself and
/// checks that each word is a dictionary word of the slot's length and that
/// crossing slots agree on every shared cell.
fn check_fill(slot_file: &Path, dict_file: &Path, words: &[String]) -> Result<(), String> {
    let dict: std::collections::HashSet<String> = std::fs::read_to_string(dict_file)
        .map_err(|e| e.to_string())?
        .lines()
        .map(|l| l.trim().to_lowercase())
        .filter(|l| !l.is_empty())
        .collect();
    let text = std::fs::read_to_string(slot_file).map_err(|e| e.to_string())?;
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != words.len() * 4 {
        return Err(format!("{} words for {} tokens", words.len(), tokens.len()));
    }
    let mut cells: std::collections::HashMap<(usize, usize), char> = Default::default();
    for (slot, word) in tokens.chunks(4).zip(words) {
        let (x, y, len): (usize, usize, usize) = (
            slot[0].parse().unwrap(),
            slot[1].parse().unwrap(),
            slot[2].parse().unwrap(),
        );
        if !dict.contains(word) {
            return Err(format!("`{word}` is not in the dictionary"));
        }
        if word.chars().count() != len {
            return Err(format!("`{word}` does not have length {len}"));
        }
        for (i, c) in word.chars().enumerate() {
            let at = if slot[3] == "A" {
                (x + i, y)
            } else {
                (x, y + i)
            };
            if let Some(&old) = cells.get(&at)
                && old != c
            {
                return Err(format!("cell {at:?} holds both {old} and {c}"));
            }
            cells.insert(at, c);
        }
    }
    Ok(())
}

fn cspi(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run cspi")
}

#[test]
fn first_fills_with_words_3000_pass_the_checker() {
    let Some(d) = data() else { return };
    let dict = d.join("words-3000.txt");
    for p in 1..=4 {
        let slots = d.join(format!("puzzle-{p}.txt"));
        let out = cspi(&[
            "solve",
            "models/crossword-slots.csp",
            "--param",
            &format!("slots={}", slots.display()),
            "--param",
            &format!("dict={}", dict.display()),
            "--format",
            "json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().next().expect("a solution line");
        let words = json_words(line, "xw");
        check_fill(&slots, &dict, &words).unwrap_or_else(|e| panic!("puzzle {p}: {e}"));
        // The checker is not vacuous: a changed word fails it.
        let mut bad = words.clone();
        bad[0] = "zzzz".into();
        assert!(check_fill(&slots, &dict, &bad).is_err());
    }
}

#[test]
fn contract_outputs() {
    let Some(d) = data() else { return };
    let out = cspi(&[
        "solve",
        "models/crossword-slots.csp",
        "--param",
        &format!("slots={}", d.join("puzzle-1.txt").display()),
        "--param",
        &format!("dict={}", d.join("words-500.txt").display()),
        "--count",
        "--format",
        "json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"type\":\"summary\""), "{text}");
    assert!(text.contains("\"status\":\"ALL_SOLUTIONS\""), "{text}");
    assert!(text.contains("\"solutions\":32"), "{text}");
    let out = cspi(&["solve", "models/crossword.csp", "--format", "json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("{\"type\":\"solution\""), "{text}");
}

/// A small model over a picture grid and a word list, written to a temp dir.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("cspi-xw-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Brute force: every slot of a picture grid (runs of 2+ open cells) and the
/// number of fills from `words` that agree on shared cells and given letters.
fn brute_count(grid: &str, words: &[&str], distinct: bool) -> u64 {
    let mut n = 0;
    brute_fills(grid, words, distinct, &mut |_| n += 1);
    n
}

/// Calls `f` with the words of every fill, in reading order of the slots
/// (across before down at each cell), as cspi numbers them.
fn brute_fills(grid: &str, words: &[&str], distinct: bool, f: &mut dyn FnMut(&[String])) {
    let rows: Vec<Vec<char>> = grid.lines().map(|l| l.chars().collect()).collect();
    let (h, w) = (rows.len(), rows[0].len());
    let open = |x: usize, y: usize| rows[y][x] != '#';
    let mut slots: Vec<Vec<(usize, usize)>> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            for (dx, dy) in [(1, 0), (0, 1)] {
                if !open(x, y)
                    || (dx == 1 && x > 0 && open(x - 1, y))
                    || (dy == 1 && y > 0 && open(x, y - 1))
                {
                    continue;
                }
                let mut cells = Vec::new();
                let (mut cx, mut cy) = (x, y);
                while cx < w && cy < h && open(cx, cy) {
                    cells.push((cx, cy));
                    cx += dx;
                    cy += dy;
                }
                // A grid marking a region (`*`) fills only the slots through it.
                let region = !grid.contains('*') || cells.iter().any(|&(x, y)| rows[y][x] == '*');
                if cells.len() >= 2 && region {
                    slots.push(cells);
                }
            }
        }
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        k: usize,
        slots: &[Vec<(usize, usize)>],
        rows: &[Vec<char>],
        words: &[&str],
        grid: &mut std::collections::HashMap<(usize, usize), char>,
        used: &mut Vec<String>,
        distinct: bool,
        f: &mut dyn FnMut(&[String]),
    ) {
        if k == slots.len() {
            f(used);
            return;
        }
        for word in words {
            let chars: Vec<char> = word.chars().collect();
            if chars.len() != slots[k].len() || (distinct && used.iter().any(|u| u == word)) {
                continue;
            }
            let fits = slots[k].iter().zip(&chars).all(|(&(x, y), &c)| {
                let given = rows[y][x];
                (given == '.' || given == '*' || given == c)
                    && grid.get(&(x, y)).is_none_or(|&g| g == c)
            });
            if !fits {
                continue;
            }
            let mut added = Vec::new();
            for (&cell, &c) in slots[k].iter().zip(&chars) {
                if let std::collections::hash_map::Entry::Vacant(e) = grid.entry(cell) {
                    e.insert(c);
                    added.push(cell);
                }
            }
            used.push(word.to_string());
            go(k + 1, slots, rows, words, grid, used, distinct, f);
            used.pop();
            for c in added {
                grid.remove(&c);
            }
        }
    }
    go(
        0,
        &slots,
        &rows,
        words,
        &mut Default::default(),
        &mut Vec::new(),
        distinct,
        f,
    )
}

#[test]
fn picture_grids_match_brute_force() {
    let words = [
        "at", "to", "on", "no", "an", "ta", "oat", "tan", "ant", "not", "ton", "nat", "toa",
        "oaten", "tot", "tat", "noon", "tanto", "onto", "into", "iota", "tin", "nit", "ion",
    ];
    let grids = [
        "...\n.#.\n...\n",
        "#..\n...\n..#\n",
        "....\n.##.\n....\n",
        "..t\n.#.\n...\n",
        "...\n...\n",
    ];
    let s = Scratch::new("brute");
    let dict = s.file("words.txt", words.join("\r\n").as_bytes());
    for (g, grid) in grids.iter().enumerate() {
        let gpath = s.file(&format!("g{g}.txt"), grid.as_bytes());
        for distinct in [false, true] {
            let model = s.file(
                "m.csp",
                format!(
                    "param grid = \"\"; param dict = \"\";\nlet w = dictionary(dict);\ncrossword xw = picture(grid, w);\n{}\n",
                    if distinct { "constraint alldifferent(xw);" } else { "" }
                )
                .as_bytes(),
            );
            let overrides = [param("grid", &gpath), param("dict", &dict)];
            let m = Arc::new(
                load(&model, &LoadOptions::with_params(&overrides))
                    .unwrap_or_else(|e| panic!("{e:?}")),
            );
            let expected = brute_count(grid, &words, distinct);
            for level in [Propagation::None, Propagation::Fc, Propagation::Ac] {
                for var in [VarSelect::Input, VarSelect::Mrv, VarSelect::Degree] {
                    for by_product in [false, true] {
                        let mut o = Options {
                            count_only: true,
                            no_product_count: !by_product,
                            ..Options::default()
                        };
                        o.search.propagation = level;
                        o.search.var = var;
                        let n = solve(&m, &o, |_| Next::Continue).stats.solutions;
                        assert_eq!(
                            n, expected,
                            "grid {g}, distinct {distinct}, {level:?} {var:?} {by_product}"
                        );
                    }
                }
            }
            // Printed solutions are checked by the model's own checker, too.
            let o = Options {
                check: true,
                limits: Limits::default(),
                ..Options::default()
            };
            let mut seen = 0u64;
            let summary = solve(&m, &o, |_| {
                seen += 1;
                Next::Continue
            });
            assert!(summary.rejected.is_empty());
            assert_eq!(seen, expected, "grid {g}");
        }
    }
}

/// Runs cspi on a model over the given files; returns (exit code, stderr).
fn diag_of(s: &Scratch, model: &str, files: &[(&str, &[u8])]) -> (i32, String) {
    for (name, bytes) in files {
        s.file(name, bytes);
    }
    let m = s.file("m.csp", model.as_bytes());
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(["solve", &m.display().to_string()])
        .output()
        .expect("run cspi");
    // Undo miette's line wrapping: drop the gutter and collapse whitespace.
    let err = String::from_utf8_lossy(&out.stderr).replace('│', " ");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    (out.status.code().unwrap_or(-1), err)
}

#[test]
fn bad_grids_and_dictionaries_get_diagnostics() {
    let s = Scratch::new("diag");
    let words: &[u8] = b"cat\ndog\nact\n";
    let picture = "let w = dictionary(\"w.txt\"); crossword xw = picture(\"g.txt\", w);";
    let slots = "let w = dictionary(\"w.txt\"); crossword xw = slots(\"s.txt\", w, 4, 4);";
    let layered =
        "let w = dictionary([\"w.txt\", \"m.txt\"], 5); crossword xw = picture(\"g.txt\", w);";
    type Case<'a> = (&'a str, Vec<(&'a str, &'a [u8])>, &'a [&'a str]);
    let cases: Vec<Case> = vec![
        (
            slots,
            vec![("w.txt", words), ("s.txt", b"0 0 3 A  2 1 3 A")],
            &["runs off the 4×4 grid", "s.txt"],
        ),
        (
            slots,
            vec![("w.txt", words), ("s.txt", b"0 0 3 A  0 0 4 D")],
            &["no word", "length 4", "lengths 3"],
        ),
        (
            slots,
            vec![("w.txt", words), ("s.txt", b"0 0 3")],
            &["incomplete slot"],
        ),
        (
            slots,
            vec![("w.txt", words), ("s.txt", b"")],
            &["holds no slots"],
        ),
        (
            picture,
            vec![("w.txt", b""), ("g.txt", b"...\n")],
            &["holds no words", "w.txt"],
        ),
        (
            picture,
            vec![("w.txt", b"cat\nc4t\n"), ("g.txt", b"...\n")],
            &["line 2", "a digit", "w.txt"],
        ),
        (
            picture,
            vec![("w.txt", b"cat\n\xff\xfe\n"), ("g.txt", b"...\n")],
            &["not UTF-8", "line 2"],
        ),
        (
            picture,
            vec![("w.txt", words), ("g.txt", b"")],
            &["is empty"],
        ),
        (
            picture,
            vec![("w.txt", words), ("g.txt", b"...\n..\n")],
            &["row 2", "2 cells"],
        ),
        (
            picture,
            vec![("w.txt", words), ("g.txt", b"..?\n")],
            &["not a cell"],
        ),
        (
            picture,
            vec![("w.txt", words), ("g.txt", b"\xff..\n")],
            &["not UTF-8"],
        ),
        (
            picture,
            vec![("w.txt", words), ("g.txt", b"....\n")],
            &["no word", "length 4"],
        ),
        // Layered lists: a bad line names its own file; nothing left.
        (
            layered,
            vec![
                ("w.txt", words),
                ("m.txt", b"cat;1\nd0g;9\n"),
                ("g.txt", b"...\n"),
            ],
            &["line 2", "a digit", "m.txt"],
        ),
        (
            layered,
            vec![
                ("w.txt", words),
                ("m.txt", b"cat;1\ndog;1\nact;1\n"),
                ("g.txt", b"...\n"),
            ],
            &["w.txt + ", "m.txt` holds no words", "minimum score"],
        ),
        (
            "let w = dictionary([\"\", \"\"]);",
            vec![],
            &["every path in the list is empty"],
        ),
        (
            "let w = dictionary([\"w.txt\", 3]);",
            vec![("w.txt", words)],
            &["a list of paths"],
        ),
    ];
    for (model, files, wanted) in cases {
        let (code, err) = diag_of(&s, model, &files);
        assert_eq!(code, 1, "{err}");
        for w in wanted {
            assert!(err.contains(w), "expected `{w}` in:\n{err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn scores_order_values_and_filter_words() {
    let s = Scratch::new("scores");
    s.file("w.txt", b"ab;1\ncd;9\nef;5\ngh\n");
    s.file("g.txt", b"..\n");
    let run = |model: &str, extra: &[&str]| {
        let m = s.file("m.csp", model.as_bytes());
        let mut args = vec!["solve".to_string(), m.display().to_string()];
        args.extend(extra.iter().map(|a| a.to_string()));
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args(&args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = "let w = dictionary(\"w.txt\"); crossword xw = picture(\"g.txt\", w); output xw;";
    assert_eq!(run(plain, &[]).trim(), "a b");
    assert_eq!(run(plain, &["--val", "score"]).trim(), "c d");
    // The order of solutions is the search's on one thread (several
    // threads print them as their sub-problems finish).
    let all = run(plain, &["--val", "score", "--all", "--threads", "1"]);
    let order: Vec<&str> = all
        .lines()
        .filter(|l| !l.starts_with('-') && l.len() == 3)
        .collect();
    assert_eq!(order, ["c d", "e f", "a b", "g h"]);
    let filtered = "let w = dictionary(\"w.txt\", 5); crossword xw = picture(\"g.txt\", w);";
    assert!(run(filtered, &["--count"]).starts_with("2 solutions"));
}

#[test]
fn hand_written_word_variables_match_brute_force() {
    let s = Scratch::new("hand");
    let words = [
        "cat", "car", "arc", "tar", "rat", "art", "act", "tic", "sea", "ate",
    ];
    s.file("w.txt", words.join("\n").as_bytes());
    // a[3] == b[1], b[3] == c[2], c[1] == "a", a != b.
    let model = "let d = dictionary(\"w.txt\");\n\
        var a in words(d, 3); var b in words(d, 3); var c in words(d, 3);\n\
        constraint a[3] == b[1]; constraint b[3] == c[2]; constraint c[1] == \"A\";\n\
        constraint alldifferent([a, b]);\n";
    let m = s.file("m.csp", model.as_bytes());
    let m = Arc::new(load(&m, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e:?}")));
    let ch = |w: &str, i: usize| w.as_bytes()[i];
    let mut expected = 0;
    for a in words {
        for b in words {
            for c in words {
                if ch(a, 2) == ch(b, 0) && ch(b, 2) == ch(c, 1) && ch(c, 0) == b'a' && a != b {
                    expected += 1;
                }
            }
        }
    }
    assert!(expected > 0);
    for level in [Propagation::None, Propagation::Fc, Propagation::Ac] {
        for by_product in [false, true] {
            let mut o = Options {
                count_only: true,
                no_product_count: !by_product,
                ..Options::default()
            };
            o.search.propagation = level;
            assert_eq!(
                solve(&m, &o, |_| Next::Continue).stats.solutions,
                expected,
                "{level:?}"
            );
        }
    }
}

/// models/crossword-best.csp against brute force: on small grids and random
/// scored word lists, the optimum of each goal (the lowest score, the total,
/// both lexicographically) is the best over every fill, and a grid with no
/// fill is unsatisfiable. Every other round scales the scores far apart,
/// past what a bitset domain holds (a word list the crossword fuzzer wrote,
/// one score 466,666,666, hung the score's propagation).
#[test]
fn best_fills_match_brute_force() {
    let grids = [
        "...\n.#.\n...\n",
        "#..\n...\n..#\n",
        "...\n...\n",
        "..b\n.#.\n...\n",
    ];
    let mut next = below(0x2545_f491_4f6c_dd1du64);
    let s = Scratch::new("best");
    let model = root().join("models/crossword-best.csp");
    let mut optimal = 0;
    for round in 0..12 {
        // 40 random words of 2 and 3 letters over a, b, c, random scores.
        let mut lines = Vec::new();
        let mut words: Vec<(String, i64)> = Vec::new();
        for _ in 0..40 {
            let len = 2 + next(2) as usize;
            let w: String = (0..len).map(|_| (b'a' + next(3) as u8) as char).collect();
            let scale = if round % 2 == 1 { 1_000_000_007 } else { 1 };
            let score = next(60) as i64 * scale;
            lines.push(format!("{};{score}", w.to_uppercase()));
            match words.iter_mut().find(|e| e.0 == w) {
                Some(e) => e.1 = e.1.max(score),
                None => words.push((w, score)),
            }
        }
        let dict = s.file("w.txt", lines.join("\n").as_bytes());
        let plain: Vec<&str> = words.iter().map(|e| e.0.as_str()).collect();
        let score_of = |w: &String| words.iter().find(|e| &e.0 == w).unwrap().1;
        let grid = grids[round % grids.len()];
        let gpath = s.file("g.txt", grid.as_bytes());
        let mut best: [Option<i64>; 3] = [None; 3];
        let mut slots = 0;
        brute_fills(grid, &plain, true, &mut |fill| {
            slots = fill.len() as i64;
            let scores: Vec<i64> = fill.iter().map(score_of).collect();
            let (lo, sum) = (*scores.iter().min().unwrap(), scores.iter().sum::<i64>());
            for (b, v) in best
                .iter_mut()
                .zip([lo, sum, lo * (slots * 1_000_000 + 1) + sum])
            {
                *b = Some(b.map_or(v, |b| b.max(v)));
            }
        });
        for (g, goal) in ["min", "sum", "lex"].iter().enumerate() {
            let overrides = [
                param("grid", &gpath),
                param("dict", &dict),
                ParamOverride {
                    name: "goal".into(),
                    value: goal.to_string(),
                },
            ];
            let m = Arc::new(
                load(&model, &LoadOptions::with_params(&overrides))
                    .unwrap_or_else(|e| panic!("{e:?}")),
            );
            for level in [Propagation::Fc, Propagation::Ac] {
                let mut o = Options {
                    check: true,
                    ..Options::default()
                };
                o.search.propagation = level;
                let r = solve(&m, &o, |_| Next::Continue);
                assert!(r.rejected.is_empty());
                let what = format!("round {round}, grid {grid:?}, goal {goal}, {level:?}");
                match best[g] {
                    Some(b) => {
                        assert_eq!(r.status, Status::Optimal, "{what}");
                        assert_eq!(r.objective, Some(b), "{what}");
                        optimal += 1;
                    }
                    None => assert_eq!(r.status, Status::Unsatisfiable, "{what}"),
                }
            }
        }
    }
    assert!(optimal >= 24, "only {optimal} rounds had a fill");
}

/// `--param personal=FILE` lays a constructor's own list over `dict`: a
/// word takes the score of the personal list when that list has it (raised
/// or lowered), then `min_score` applies. Against brute force over the
/// lists merged here, on random lists: the number of fills at a random
/// minimum, and the best total score; every other round also with at most
/// `most_weak` entries scoring below `weak_score`.
#[test]
fn a_personal_list_and_weak_entries_match_brute_force() {
    let mut next = below(0x9e37_79b9_7f4a_7c15u64);
    let s = Scratch::new("personal");
    let grids = ["...\n.#.\n...\n", "#..\n...\n..#\n", "...\n...\n"];
    let (mut filled, mut changed, mut weakened) = (0, 0, 0);
    for round in 0..12 {
        // Words of 2 and 3 letters over a, b, c; each list keeps a
        // word's best score, the personal one wins over the base.
        let mut list = |n: usize| {
            let mut lines = Vec::new();
            let mut best = std::collections::BTreeMap::<String, i64>::new();
            for _ in 0..n {
                let len = 2 + next(2) as usize;
                let w: String = (0..len).map(|_| (b'a' + next(3) as u8) as char).collect();
                let score = next(60) as i64;
                lines.push(format!(
                    "{};{score}",
                    if next(2) == 0 {
                        w.to_uppercase()
                    } else {
                        w.clone()
                    }
                ));
                let b = best.entry(w).or_insert(score);
                *b = (*b).max(score);
            }
            (lines.join("\n"), best)
        };
        let (base_text, base) = list(40);
        let (mine_text, mine) = list(12);
        let mut merged = base.clone();
        merged.extend(mine.clone());
        let min = next(40) as i64;
        // Every other round: at most `most_weak` entries below `weak`.
        let (weak, most_weak) = match round % 2 {
            1 => (min + 10 + next(30) as i64, next(2) as i64),
            _ => (0, 0),
        };
        let allowed = |fill: &[String], scores: &std::collections::BTreeMap<String, i64>| {
            fill.iter().filter(|w| scores[*w] < weak).count() as i64 <= most_weak
        };
        let kept = |scores: &std::collections::BTreeMap<String, i64>| -> Vec<String> {
            scores
                .iter()
                .filter(|e| *e.1 >= min)
                .map(|e| e.0.clone())
                .collect()
        };
        let grid = grids[round % grids.len()];
        let gpath = s.file("g.txt", grid.as_bytes());
        let dict = s.file("base.txt", base_text.as_bytes());
        let personal = s.file("mine.txt", mine_text.as_bytes());
        let words = kept(&merged);
        let plain: Vec<&str> = words.iter().map(String::as_str).collect();
        let (mut expected, mut all) = (0, 0);
        brute_fills(grid, &plain, true, &mut |f| {
            expected += u64::from(allowed(f, &merged));
            all += 1;
        });
        weakened += usize::from(expected != all);
        let base_words = kept(&base);
        let base_plain: Vec<&str> = base_words.iter().map(String::as_str).collect();
        let mut on_base = 0;
        brute_fills(grid, &base_plain, true, &mut |f| {
            on_base += u64::from(allowed(f, &base))
        });
        changed += usize::from(expected != on_base);
        let number = |name: &str, value: i64| ParamOverride {
            name: name.into(),
            value: value.to_string(),
        };
        let overrides = [
            param("grid", &gpath),
            param("dict", &dict),
            param("personal", &personal),
            number("min_score", min),
            number("weak_score", weak),
            number("most_weak", most_weak),
        ];
        let what =
            format!("round {round}, grid {grid:?}, min {min}, at most {most_weak} below {weak}");
        let o = Options {
            count_only: true,
            ..Options::default()
        };
        match load(
            &root().join("models/crossword.csp"),
            &LoadOptions::with_params(&overrides),
        ) {
            Ok(m) => {
                let n = solve(&Arc::new(m), &o, |_| Next::Continue).stats.solutions;
                assert_eq!(n, expected, "{what}");
            }
            // No word of some slot's length reaches the minimum: no fill.
            Err(e) => assert!(
                expected == 0 && format!("{e:?}").contains("no word"),
                "{what}: {e:?}"
            ),
        }
        let mut best = None;
        brute_fills(grid, &plain, true, &mut |fill| {
            let sum: i64 = fill.iter().map(|w| merged[w]).sum();
            if allowed(fill, &merged) {
                best = Some(best.map_or(sum, |b: i64| b.max(sum)));
            }
        });
        let mut overrides = overrides.to_vec();
        overrides.push(ParamOverride {
            name: "goal".into(),
            value: "sum".into(),
        });
        let m = load(
            &root().join("models/crossword-best.csp"),
            &LoadOptions::with_params(&overrides),
        );
        match (m, best) {
            (Ok(m), _) => {
                let o = Options {
                    check: true,
                    ..Options::default()
                };
                let r = solve(&Arc::new(m), &o, |_| Next::Continue);
                assert!(r.rejected.is_empty());
                match best {
                    Some(b) => {
                        assert_eq!(
                            (r.status, r.objective),
                            (Status::Optimal, Some(b)),
                            "{what}"
                        );
                        filled += 1;
                    }
                    None => assert_eq!(r.status, Status::Unsatisfiable, "{what}"),
                }
            }
            // No word of some slot's length reaches the minimum: no fill.
            (Err(e), b) => assert!(
                b.is_none() && format!("{e:?}").contains("no word"),
                "{what}: {e:?}"
            ),
        }
    }
    assert!(
        filled >= 4 && changed >= 3 && weakened >= 2,
        "filled {filled}, changed {changed}, weakened {weakened}"
    );
}

/// Three lists: a word takes the score of the last list naming it, so a
/// middle list's demotion holds when the last list leaves the word alone,
/// and the first list's words below the minimum come back when raised.
#[test]
fn a_middle_list_demotes_and_the_last_raises() {
    let s = Scratch::new("three_lists");
    s.file("a.txt", b"cat;50\ndog;50\nemu;2\nant;1\n");
    s.file("b.txt", b"CAT;1\nemu;60\nowl;3\n");
    s.file("c.txt", b"owl;70\nyak;1\n");
    let m = s.file(
        "m.csp",
        b"let d = dictionary([\"a.txt\", \"b.txt\", \"\", \"c.txt\"], 5);\nvar w in words(d, 3);\noutput w;\n",
    );
    let out = cspi(&[
        "solve",
        &m.display().to_string(),
        "--all",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["type"] == "solution")
        .map(|r| r["values"]["w"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(words, ["dog", "emu", "owl"]);
}

/// `--param max_shared=k` (the global `max_shared_substring`) against
/// brute force: on small grids and random word lists, the number of fills
/// in which no two entries share more than `k` letters in a row, counted at
/// every propagation level, and every fill found checked.
#[test]
fn max_shared_substring_matches_brute_force() {
    let grids = [
        "....\n.#..\n....\n",
        "...\n...\n...\n",
        "#...\n....\n...#\n",
    ];
    let mut next = below(0x9e37_79b9_7f4a_7c15u64);
    let shares = |a: &str, b: &str, w: usize| {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        a.windows(w).any(|s| b.windows(w).any(|t| s == t))
    };
    let s = Scratch::new("shared");
    let model = root().join("models/crossword.csp");
    let mut nonzero = 0;
    for round in 0..9 {
        let mut words: Vec<String> = Vec::new();
        for _ in 0..70 {
            let len = 2 + next(3) as usize;
            let w: String = (0..len).map(|_| (b'a' + next(3) as u8) as char).collect();
            if !words.contains(&w) {
                words.push(w);
            }
        }
        let dict = s.file("w.txt", words.join("\n").as_bytes());
        let plain: Vec<&str> = words.iter().map(String::as_str).collect();
        let grid = grids[round % grids.len()];
        let gpath = s.file("g.txt", grid.as_bytes());
        for k in 1..=3usize {
            let mut expected = 0u64;
            brute_fills(grid, &plain, true, &mut |fill| {
                let ok = (0..fill.len())
                    .all(|i| (i + 1..fill.len()).all(|j| !shares(&fill[i], &fill[j], k + 1)));
                expected += u64::from(ok);
            });
            nonzero += usize::from(expected > 0);
            let overrides = [
                param("grid", &gpath),
                param("dict", &dict),
                ParamOverride {
                    name: "max_shared".into(),
                    value: k.to_string(),
                },
            ];
            let m = Arc::new(
                load(&model, &LoadOptions::with_params(&overrides))
                    .unwrap_or_else(|e| panic!("{e:?}")),
            );
            for level in [Propagation::None, Propagation::Fc, Propagation::Ac] {
                let mut o = Options {
                    check: true,
                    ..Options::default()
                };
                o.search.propagation = level;
                let r = solve(&m, &o, |_| Next::Continue);
                assert!(r.rejected.is_empty(), "round {round}, k {k}, {level:?}");
                assert_eq!(
                    r.stats.solutions, expected,
                    "round {round}, grid {grid:?}, k {k}, {level:?}"
                );
            }
        }
    }
    assert!(nonzero >= 8, "only {nonzero} cases had a fill");
}

/// `xw[k] == "entry"` locks a theme entry in its slot (normalised as the
/// dictionary is); an entry missing from the slot's list is a diagnostic.
#[test]
fn theme_entries_lock_their_slot() {
    let s = Scratch::new("theme");
    let words = root().join("models/data/crossword-words.txt");
    let grid = root().join("models/data/crossword-empty.txt");
    let model = |entry: &str| {
        format!(
            "let w = dictionary(\"{}\"); crossword xw = picture(\"{}\", w); constraint alldifferent(xw); constraint xw[5] == \"{entry}\"; output xw;",
            words.display(),
            grid.display()
        )
    };
    let m = s.file("m.csp", model("Gr-ape").as_bytes());
    let out = cspi(&["solve", &m.display().to_string()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().nth(2), Some("g r a p e"), "{text}");
    let m = s.file("m.csp", model("grapes").as_bytes());
    let out = cspi(&["solve", &m.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`grapes` is not a word"), "{err}");
}

/// The `xw` entries of each solution line of `--format json` output.
fn json_fills(stdout: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"solution\""))
        .map(|l| json_words(l, "xw"))
        .collect()
}

/// A marked region (`*`) fills only the slots through it: the fills are the
/// brute-force fills of those slots, and cells outside it are not written.
#[test]
fn region_fills_match_brute_force() {
    let words = [
        "at", "to", "on", "no", "an", "ta", "oat", "tan", "ant", "not", "ton", "nat", "toa", "tot",
        "tat", "noon", "onto", "into", "iota", "tin", "nit", "ion",
    ];
    let grids = ["**.\n*#.\n...\n", "..t\n.#*\n..*\n", "....\n.**.\n....\n"];
    let s = Scratch::new("region");
    let dict = s.file("words.txt", words.join("\n").as_bytes());
    let model = s.file(
        "m.csp",
        b"param grid = \"\"; param dict = \"\";\nlet w = dictionary(dict);\ncrossword xw = picture(grid, w);\nconstraint alldifferent(xw);\noutput xw;\n",
    );
    for (g, grid) in grids.iter().enumerate() {
        let gpath = s.file(&format!("g{g}.txt"), grid.as_bytes());
        let overrides = [param("grid", &gpath), param("dict", &dict)];
        let m = Arc::new(
            load(&model, &LoadOptions::with_params(&overrides)).unwrap_or_else(|e| panic!("{e:?}")),
        );
        let mut fills = std::collections::BTreeSet::new();
        brute_fills(grid, &words, true, &mut |f| {
            fills.insert(f.to_vec());
        });
        assert!(!fills.is_empty(), "grid {g}");
        let o = Options {
            count_only: true,
            ..Options::default()
        };
        assert_eq!(
            solve(&m, &o, |_| Next::Continue).stats.solutions,
            fills.len() as u64,
            "grid {g}"
        );
        // The printed grid writes the region and keeps the rest as it was.
        let out = fill_with(&model, &gpath, &dict, &["--format", "json"]);
        let text = String::from_utf8_lossy(&out.stdout);
        let drawn = json_words(&text, "xw_grid");
        for (row, want) in drawn.iter().zip(grid.lines()) {
            for (c, w) in row.chars().zip(want.chars()) {
                match w {
                    '*' => assert!(c.is_alphabetic(), "grid {g}: {text}"),
                    w => assert_eq!(c, w, "grid {g}: {text}"),
                }
            }
        }
        assert!(fills.contains(&json_words(&text, "xw")), "grid {g}: {text}");
    }
}

/// `--differ K` with `-n N`: every fill is a fill, each pair differs in at
/// least K entries, and when fewer than N come, brute force agrees that no
/// other fill differs enough from all of them. An exclusion list removes its
/// words from every slot.
#[test]
fn differing_fills_and_exclusion_lists_match_brute_force() {
    let words = [
        "at", "to", "on", "no", "an", "ta", "oat", "tan", "ant", "not", "ton", "nat", "toa", "tot",
        "tat", "tin", "nit", "ion", "oi", "it", "ti", "in",
    ];
    let s = Scratch::new("differ");
    let scored: Vec<String> = words.iter().map(|w| format!("{w};5")).collect();
    let dict = s.file("words.txt", scored.join("\n").as_bytes());
    let grid = "...\n.#.\n...\n";
    let gpath = s.file("g.txt", grid.as_bytes());
    let mut all = Vec::new();
    brute_fills(grid, &words, true, &mut |f| all.push(f.to_vec()));
    let model = root().join("models/crossword.csp").display().to_string();
    let differs = |a: &[String], b: &[String]| a.iter().zip(b).filter(|(x, y)| x != y).count();
    for k in [1usize, 2, 3, 4] {
        let out = cspi(&[
            "solve",
            &model,
            "--param",
            &format!("grid={}", gpath.display()),
            "--param",
            &format!("dict={}", dict.display()),
            "--format",
            "json",
            "-n",
            "6",
            "--differ",
            &k.to_string(),
        ]);
        assert_eq!(out.status.code(), Some(0));
        let fills = json_fills(&out.stdout);
        assert!(!fills.is_empty());
        for (i, f) in fills.iter().enumerate() {
            assert!(all.contains(f), "k {k}: {f:?} is not a fill");
            for g in &fills[..i] {
                assert!(differs(f, g) >= k, "k {k}: {f:?} and {g:?}");
            }
        }
        if fills.len() < 6 {
            assert!(
                !all.iter().any(|f| fills.iter().all(|g| differs(f, g) >= k)),
                "k {k}: a further fill differs enough"
            );
        }
    }
    // The exclusion list: the same count as brute force without its words.
    let never = s.file("never.txt", b"TON\nnot\nzebra\n");
    let kept: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !["ton", "not"].contains(w))
        .collect();
    let m = Arc::new(
        load(
            &root().join("models/crossword.csp"),
            &LoadOptions::with_params(&[
                param("grid", &gpath),
                param("dict", &dict),
                param("exclude", &never),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let o = Options {
        count_only: true,
        ..Options::default()
    };
    assert_eq!(
        solve(&m, &o, |_| Next::Continue).stats.solutions,
        brute_count(grid, &kept, true)
    );
}

/// The first fill of crossword-empty, written with `flag` to `file` in `s`,
/// then read back as the grid: its letters are given, so `--all` finds
/// that one fill again. The fill and the file's path.
fn written_and_read_back(s: &Scratch, flag: &str, file: &str) -> (Vec<String>, PathBuf) {
    let out_path = s.0.join(file);
    let model = root().join("models/crossword.csp").display().to_string();
    let first = cspi(&[
        "solve",
        &model,
        "--param",
        "grid=models/data/crossword-empty.txt",
        "--format",
        "json",
        flag,
        &out_path.display().to_string(),
    ]);
    assert_eq!(first.status.code(), Some(0));
    let fill = json_fills(&first.stdout).remove(0);
    let again = cspi(&[
        "solve",
        &model,
        "--param",
        &format!("grid={}", out_path.display()),
        "--format",
        "json",
        "--all",
    ]);
    assert_eq!(json_fills(&again.stdout), vec![fill.clone()]);
    (fill, out_path)
}

/// `--puz` writes the fill as Across Lite's `.puz`; read back as the grid,
/// its letters are given, so the one fill is the same. A damaged file is
/// refused, never read as another grid. (Files of another program:
/// `python::puz_files_agree_with_puzpy`.)
#[test]
fn puz_round_trip_and_damage() {
    let s = Scratch::new("puz");
    let (fill, out_path) = written_and_read_back(&s, "--puz", "fill.puz");
    let bytes = std::fs::read(&out_path).unwrap();
    assert_eq!(&bytes[2..14], b"ACROSS&DOWN\0");
    assert_eq!((bytes[0x2C], bytes[0x2D]), (5, 5));
    let solution = String::from_utf8_lossy(&bytes[0x34..0x34 + 5]).to_string();
    assert_eq!(solution, fill[0].to_uppercase());
    // One letter of the solution changed: the checksum fails.
    let mut damaged = bytes.clone();
    damaged[0x34] = if damaged[0x34] == b'A' { b'B' } else { b'A' };
    let (code, err) = diag_of(
        &s,
        "let w = dictionary(\"w.txt\"); crossword xw = picture(\"g.puz\", w); output xw;",
        &[("w.txt", b"ab\n"), ("g.puz", &damaged)],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("`") && err.contains("g.puz` fails its checksum"),
        "{err}"
    );
    // Not a slot file.
    let (code, err) = diag_of(
        &s,
        "let w = dictionary(\"w.txt\"); crossword xw = slots(\"g.puz\", w); output xw;",
        &[("w.txt", b"ab\n"), ("g.puz", &bytes)],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("a .puz file is a drawn grid, not a slot file"),
        "{err}"
    );
    // A model without a crossword: a usage error.
    let out = cspi(&[
        "solve",
        &root().join("models/sudoku.csp").display().to_string(),
        "--puz",
        &s.0.join("x.puz").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--puz: this model outputs no crossword")
    );
}

/// `--ipuz` writes the fill as ipuz; read back as the grid, its letters are
/// given, so the one fill is the same. A grid asked to be symmetric and not
/// is refused with the cells named.
#[test]
fn ipuz_round_trip_and_symmetry() {
    let s = Scratch::new("ipuz");
    let (fill, out_path) = written_and_read_back(&s, "--ipuz", "fill.ipuz");
    let ipuz: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert_eq!(ipuz["dimensions"]["width"], 5);
    assert_eq!(ipuz["puzzle"][0][0], 1);
    assert_eq!(ipuz["puzzle"][1][1], "#");
    assert_eq!(ipuz["clues"]["Across"].as_array().unwrap().len(), 3);
    let row0: String = ipuz["solution"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(row0, fill[0].to_uppercase());
    let (code, err) = diag_of(
        &s,
        "let w = dictionary(\"w.txt\"); crossword xw = picture(\"g.txt\", w, true); output xw;",
        &[("w.txt", b"ab\ncd\n"), ("g.txt", b"#..\n...\n...\n")],
    );
    assert_eq!(code, 1);
    assert!(err.contains("not symmetric under a 180° turn: row 1, column 1 is a block but row 3, column 3 is open"), "{err}");
    // An .ipuz file of 5 MB (its JSON tree many times that) is refused
    // before it is parsed; the same grid with its notes cut short fills.
    let notes = "1,".repeat(5 << 19);
    let huge = format!(
        "{{\"dimensions\":{{\"width\":2,\"height\":1}},\"puzzle\":[[0,0]],\"notes\":[{notes}1]}}"
    );
    let model = "let w = dictionary(\"w.txt\"); crossword xw = picture(\"g.ipuz\", w); output xw;";
    let (code, err) = diag_of(
        &s,
        model,
        &[("w.txt", b"ab\n"), ("g.ipuz", huge.as_bytes())],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("is 5 MB, larger than the 4 MB cspi reads from an .ipuz file"),
        "{err}"
    );
    // One of 3.5 MB is read, and the memory limit holds while it is: the
    // diagnostic points into the file.
    let big = huge.replacen(&notes, &"1,".repeat(7 << 18), 1);
    s.file("g.ipuz", big.as_bytes());
    let m = s.file("m.csp", model.as_bytes());
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(["solve", &m.display().to_string(), "--memory-limit", "40MB"])
        .output()
        .expect("run cspi");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("more than 40 MiB of memory") && err.contains("g.ipuz:1:"),
        "{err}"
    );
    let small = huge.replacen(&notes, "", 1);
    let (code, err) = diag_of(
        &s,
        model,
        &[("w.txt", b"ab\n"), ("g.ipuz", small.as_bytes())],
    );
    assert_eq!(code, 0, "{err}");
}

/// A small scored list over a, i, n, o, t for the suggestion tests.
const SUGGEST_WORDS: [(&str, i64); 22] = [
    ("at", 9),
    ("to", 3),
    ("on", 7),
    ("no", 2),
    ("an", 5),
    ("ta", 1),
    ("oat", 4),
    ("tan", 8),
    ("ant", 6),
    ("not", 2),
    ("ton", 3),
    ("nat", 1),
    ("toa", 5),
    ("tot", 2),
    ("tat", 7),
    ("tin", 1),
    ("nit", 4),
    ("ion", 6),
    ("oi", 3),
    ("it", 8),
    ("ti", 2),
    ("in", 4),
];

/// `--suggest`: every candidate of a slot, ranked by score, with its exact
/// number of fills, against brute force; the domain sizes of the map keep
/// every word some fill uses.
#[test]
fn suggestions_count_exactly() {
    let words = SUGGEST_WORDS;
    let s = Scratch::new("suggest");
    let lines: Vec<String> = words.iter().map(|(w, n)| format!("{w};{n}")).collect();
    let dict = s.file("words.txt", lines.join("\n").as_bytes());
    let plain: Vec<&str> = words.iter().map(|e| e.0).collect();
    for (g, grid) in ["...\n.#.\n...\n", "#..\n...\n..#\n", "t..\n.#.\n...\n"]
        .iter()
        .enumerate()
    {
        let gpath = s.file("g.txt", grid.as_bytes());
        let m = Arc::new(
            load(
                &root().join("models/crossword.csp"),
                &LoadOptions::with_params(&[param("grid", &gpath), param("dict", &dict)]),
            )
            .unwrap_or_else(|e| panic!("{e:?}")),
        );
        let xw = m.groups["xw"].vars.clone();
        let mut fills = Vec::new();
        brute_fills(grid, &plain, true, &mut |f| fills.push(f.to_vec()));
        for (k, &var) in xw.iter().enumerate() {
            let r = cspi::suggest::suggest(&m, Some(var), 1000, &Limits::default(), 1);
            // On three threads, the same candidates and counts, in order.
            let on_three = cspi::suggest::suggest(&m, Some(var), 1000, &Limits::default(), 3);
            assert_eq!(r.candidates, on_three.candidates, "grid {g}, slot {k}");
            let mut last_score = i64::MAX;
            let mut total = 0;
            for c in &r.candidates {
                let word = m.format_value(var, c.value);
                let expected = fills.iter().filter(|f| f[k] == word).count() as u64;
                assert_eq!(c.count, Some(expected), "grid {g}, slot {k}, {word}");
                assert!(c.score.unwrap() <= last_score, "ranked by score");
                last_score = c.score.unwrap();
                total += expected;
            }
            assert_eq!(total, fills.len() as u64, "grid {g}, slot {k}");
            let used: std::collections::BTreeSet<&String> = fills.iter().map(|f| &f[k]).collect();
            assert!(r.sizes[var] >= used.len() as u64 && r.sizes[var] == r.left);
        }
    }
    // The command line: the ranked list and the map; with --threads 2, the
    // same output.
    let args = [
        "solve",
        "models/crossword.csp",
        "--param",
        "grid=models/data/crossword-theme.txt",
        "--suggest",
        "xw[1]",
        "--top",
        "3",
        "--fillability",
    ];
    let out = cspi(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.starts_with("xw[1] (5 across, row 1, column 1): "),
        "{text}"
    );
    assert!(text.contains("fillability: "), "{text}");
    assert!(text.lines().any(|l| l == "g r a p e"), "{text}");
    let on_two = cspi(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(String::from_utf8_lossy(&on_two.stdout), text);
    // The map is of the model's first crossword, printed or not; a model
    // without one is a usage error.
    let map = text[text.find("fillability: ").unwrap()..].to_string();
    let s = Scratch::new("fillability_unprinted");
    let m = s.file(
        "m.csp",
        format!(
            "let words = dictionary(\"{}\");\ncrossword xw = picture(\"{}\", words);\nconstraint alldifferent(xw);\n",
            root().join("models/data/crossword-words.txt").display(),
            root().join("models/data/crossword-theme.txt").display(),
        )
        .as_bytes(),
    );
    let out = cspi(&["solve", &m.display().to_string(), "--fillability"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(text, map);
    let out = cspi(&["solve", "models/n-queens.csp", "--fillability"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--fillability: this model has no crossword"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--format json`: the suggestions and the map as one record each, the
/// counts against brute force, each cell's number the fewest words of the
/// entries through it (placed from the records' rows and columns), each
/// entry keeping every word some fill uses.
#[test]
fn suggestions_and_the_map_in_json_match_brute_force() {
    let s = Scratch::new("suggest_json");
    let lines: Vec<String> = SUGGEST_WORDS
        .iter()
        .map(|(w, n)| format!("{w};{n}"))
        .collect();
    let dict = s.file("words.txt", lines.join("\n").as_bytes());
    let plain: Vec<&str> = SUGGEST_WORDS.iter().map(|e| e.0).collect();
    let score = |w: &str| SUGGEST_WORDS.iter().find(|e| e.0 == w).map(|e| e.1);
    for grid in [
        "...\n.#.\n...\n",
        "#..\n...\n..#\n",
        "t..\n.#.\n...\n",
        "..\n..\n",
    ] {
        let gpath = s.file("g.txt", grid.as_bytes());
        let mut fills = Vec::new();
        brute_fills(grid, &plain, true, &mut |f| fills.push(f.to_vec()));
        let rows: Vec<&[u8]> = grid.lines().map(str::as_bytes).collect();
        let slots = fills.first().map_or(0, Vec::len).max(1);
        for k in 0..slots {
            let out = cspi(&[
                "solve",
                "models/crossword.csp",
                "--param",
                &format!("grid={}", gpath.display()),
                "--param",
                &format!("dict={}", dict.display()),
                "--suggest",
                &format!("xw[{}]", k + 1),
                "--top",
                "1000",
                "--fillability",
                "--format",
                "json",
            ]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{grid:?}: {text}");
            let records: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
                .collect();
            assert_eq!(records.len(), 2, "{text}");
            let (sug, map) = (&records[0], &records[1]);
            assert_eq!(sug["type"], "suggestions");
            assert_eq!(sug["var"], format!("xw[{}]", k + 1));
            let candidates = sug["candidates"].as_array().unwrap();
            assert_eq!(sug["left"].as_u64(), Some(candidates.len() as u64));
            let mut total = 0;
            for c in candidates {
                let word = c["value"].as_str().unwrap();
                let expected = fills.iter().filter(|f| f[k] == word).count() as u64;
                assert_eq!(
                    c["count"].as_u64(),
                    Some(expected),
                    "{grid:?} xw[{}] {word}",
                    k + 1
                );
                assert_eq!(c["score"].as_i64(), score(word));
                total += expected;
            }
            assert_eq!(total, fills.len() as u64, "{grid:?}");
            // The entry's place: its cells are open in the picture.
            let e = &sug["entry"];
            let (r, c0, len) = (
                e["row"].as_u64().unwrap() as usize - 1,
                e["column"].as_u64().unwrap() as usize - 1,
                e["length"].as_u64().unwrap() as usize,
            );
            let across = e["across"].as_bool().unwrap();
            let cells = |r: usize, c: usize, len: usize, across: bool| -> Vec<(usize, usize)> {
                (0..len)
                    .map(|i| if across { (r, c + i) } else { (r + i, c) })
                    .collect()
            };
            assert!(
                cells(r, c0, len, across)
                    .iter()
                    .all(|&(y, x)| rows[y][x] != b'#')
            );

            assert_eq!(map["type"], "fillability");
            assert_eq!(map["grid"], "xw");
            let mut fewest = vec![vec![None::<u64>; rows[0].len()]; rows.len()];
            for e in map["entries"].as_array().unwrap() {
                let name = e["name"].as_str().unwrap();
                let i: usize = name[3..name.len() - 1].parse().unwrap();
                let words = e["words"].as_u64().unwrap();
                let used: std::collections::BTreeSet<&String> =
                    fills.iter().map(|f| &f[i - 1]).collect();
                assert!(words >= used.len() as u64, "{grid:?} {name}");
                let place = cells(
                    e["row"].as_u64().unwrap() as usize - 1,
                    e["column"].as_u64().unwrap() as usize - 1,
                    e["length"].as_u64().unwrap() as usize,
                    e["across"].as_bool().unwrap(),
                );
                for (y, x) in place {
                    fewest[y][x] = Some(fewest[y][x].map_or(words, |m: u64| m.min(words)));
                }
            }
            let cells_json: Vec<Vec<Option<u64>>> =
                serde_json::from_value(map["cells"].clone()).unwrap();
            assert_eq!(cells_json, fewest, "{grid:?}");
        }
    }
}

/// A fill stopped by a limit before it was found draws where its search
/// failed: each cell's digit is its entries' blame (the failures shared out
/// over the failing constraints' variables) against the most blamed cell,
/// computed here from the grid's slots and the run's blame through the
/// library, and the entries blamed most come first.
#[test]
fn an_unfilled_grid_shows_where_its_search_failed() {
    let grid = ".....\n.....\n.....\n.....\n.....\n";
    let dir = crate::common::scratch("an_unfilled_grid_shows_where_its_search_failed");
    let path = dir.join("open5.txt");
    std::fs::write(&path, grid).unwrap();
    let model_path = root().join("models/crossword.csp");
    let model = Arc::new(
        load(
            &model_path,
            &LoadOptions::with_params(&[param("grid", &path)]),
        )
        .unwrap(),
    );
    let options = Options {
        search: model.search.clone(),
        limits: Limits {
            solutions: Some(1),
            nodes: Some(200),
            ..Limits::default()
        },
        ..Options::default()
    };
    let summary = solve(&model, &options, |_| Next::Stop);
    assert_eq!(summary.status, Status::Unknown);
    assert_eq!(summary.stats.solutions, 0);
    let blame = &summary.stats.blame;
    let total: f64 = blame.iter().sum();
    assert!(
        (total - summary.stats.failures as f64).abs() < 1e-6,
        "each failure is one unit of blame: {total} against {}",
        summary.stats.failures
    );
    // Every cell of an open 5x5 grid is in the across entry of its row and
    // the down entry of its column.
    let (_, layout) = &model.crosswords[0];
    let var = |name: String| model.vars.iter().position(|v| v.name == name).unwrap();
    let of = |v: usize| blame.get(v).copied().unwrap_or(0.0);
    let entry = |across: bool, at: usize| {
        let s = layout
            .slots
            .iter()
            .find(|s| s.across == across && (if across { s.y } else { s.x }) == at);
        of(s.unwrap().var)
    };
    let cell = |r: usize, c: usize| entry(true, r) + entry(false, c);
    assert_eq!(layout.slots.len(), 10);
    let top = (0..25).map(|k| cell(k / 5, k % 5)).fold(0.0, f64::max);
    let path_text = path.display().to_string();
    let grid_arg = format!("grid={path_text}");
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", "models/crossword.csp", "--param", &grid_arg];
        args.extend_from_slice(&["--node-limit", "200"]);
        args.extend_from_slice(extra);
        cspi(&args)
    };
    let out = run(&[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "UNKNOWN: stopped by the node limit before a solution"
    );
    assert!(lines[1].starts_with("where the search failed"), "{stdout}");
    for r in 0..5 {
        let want: Vec<String> = (0..5)
            .map(|c| ((cell(r, c) / top * 9.0).round() as u32).to_string())
            .collect();
        assert_eq!(lines[2 + r], want.join(" "), "row {}", r + 1);
    }
    let most = lines[7].strip_prefix("failed most: ").expect(&stdout);
    let named: Vec<&str> = most
        .split("; ")
        .map(|e| e.split(' ').next().unwrap())
        .collect();
    let mut ranked: Vec<usize> = (1..=10).map(|k| var(format!("xw[{k}]"))).collect();
    ranked.sort_by(|&a, &b| of(b).total_cmp(&of(a)).then(a.cmp(&b)));
    let want: Vec<&str> = ranked[..5]
        .iter()
        .map(|&v| model.vars[v].name.as_str())
        .collect();
    assert_eq!(named, want);

    // JSON: a `failed` record before the summary, each cell's blame as a
    // share of all failures, the entries blamed most first.
    let out = run(&["--format", "json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let failed: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(failed["type"], "failed");
    assert_eq!(failed["grid"], "xw");
    assert!(lines[1].starts_with("{\"type\":\"summary\""));
    for r in 0..5 {
        for c in 0..5 {
            let got = failed["cells"][r][c].as_f64().unwrap();
            assert!((got - cell(r, c) / total).abs() < 1e-4, "cell {r},{c}");
        }
    }
    let names: Vec<&str> = failed["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = ranked
        .iter()
        .map(|&v| model.vars[v].name.as_str())
        .collect();
    assert_eq!(names, want);

    // --svg draws the same map: one cell per open cell with its digit.
    let svg_path = dir.join("failed.svg");
    let svg_arg = svg_path.display().to_string();
    let out = run(&["--svg", &svg_arg]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.contains("class=\"failed\""), "{svg}");
    let digits: Vec<char> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next()?.chars().last())
        .filter(char::is_ascii_digit)
        .collect();
    let want: Vec<char> = (0..25)
        .map(|k| char::from_digit((cell(k / 5, k % 5) / top * 9.0).round() as u32, 10).unwrap())
        .collect();
    assert_eq!(digits, want);
}

/// The maps of where the parts of a split failed (`--part K/N` stopped by
/// a limit before a fill) merge into one: each cell's share weighed by the
/// failures its part blamed, the entries ranked again.
#[test]
fn the_maps_of_a_split_s_parts_merge_weighed_by_their_failures() {
    let dir = crate::common::scratch("the_maps_of_a_split_s_parts_merge");
    let grid = dir.join("open5.txt");
    std::fs::write(&grid, ".....\n".repeat(5)).unwrap();
    let grid_arg = format!("grid={}", grid.display());
    let mut files = Vec::new();
    let mut maps = Vec::new();
    for k in 1..=3 {
        let part = format!("{k}/3");
        let out = cspi(&[
            "solve",
            "models/crossword.csp",
            "--param",
            &grid_arg,
            "--node-limit",
            "50",
            "--part",
            &part,
            "--format",
            "json",
        ]);
        let mut text = String::from_utf8_lossy(&out.stdout).to_string();
        if let Some(line) = text.lines().find(|l| l.starts_with("{\"type\":\"failed\"")) {
            maps.push(serde_json::from_str::<serde_json::Value>(line).unwrap());
        } else if let Some(first) = maps.first() {
            // On this grid the other parts' sub-problems fall to
            // propagation: give part 2 a map of its own, the first part's
            // mirrored with twice its failures, to weigh against it.
            let mut m = first.clone();
            for row in m["cells"].as_array_mut().unwrap() {
                row.as_array_mut().unwrap().reverse();
            }
            for e in m["entries"].as_array_mut().unwrap() {
                let share = e["share"].as_f64().unwrap();
                e["share"] = serde_json::json!(share * share);
            }
            m["failures"] = serde_json::json!(2.0 * first["failures"].as_f64().unwrap());
            if k == 2 {
                text = format!("{m}\n{text}");
                maps.push(m);
            }
        }
        let file = dir.join(format!("part{k}.json"));
        std::fs::write(&file, &text).unwrap();
        files.push(file.display().to_string());
    }
    assert_eq!(maps.len(), 2, "the first part stopped before a fill");
    let merge = |format: &str| {
        let mut args = vec!["merge", "--format", format];
        args.extend(files.iter().map(String::as_str));
        let out = cspi(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let json = merge("json");
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 2, "{json}");
    assert!(lines[1].contains("\"status\":\"UNKNOWN\""), "{json}");
    let merged: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(merged["type"], "failed");
    let weight = |m: &serde_json::Value| m["failures"].as_f64().unwrap();
    let total: f64 = maps.iter().map(weight).sum();
    assert!((merged["failures"].as_f64().unwrap() - total).abs() < 1e-2);
    let mut cells = [0.0f64; 25];
    for (k, cell) in cells.iter_mut().enumerate() {
        *cell = maps
            .iter()
            .map(|m| m["cells"][k / 5][k % 5].as_f64().unwrap() * weight(m))
            .sum::<f64>()
            / total;
        let got = merged["cells"][k / 5][k % 5].as_f64().unwrap();
        assert!((got - *cell).abs() < 2e-4, "cell {k}: {got} against {cell}");
    }
    // Every entry once, by its summed share, most first.
    let share = |name: &str| {
        maps.iter()
            .flat_map(|m| {
                m["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|e| e["name"] == name)
                    .map(|e| e["share"].as_f64().unwrap() * weight(m))
            })
            .sum::<f64>()
            / total
    };
    let entries = merged["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 10);
    for e in entries {
        let want = share(e["name"].as_str().unwrap());
        assert!((e["share"].as_f64().unwrap() - want).abs() < 2e-4, "{e}");
    }
    let shares: Vec<f64> = entries
        .iter()
        .map(|e| e["share"].as_f64().unwrap())
        .collect();
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
    // For people: the status, the parts, the map's digits, the top five.
    let human = merge("human");
    let lines: Vec<&str> = human.lines().collect();
    assert_eq!(lines[1], "merged 3 parts");
    assert!(lines[2].starts_with("where the search failed"), "{human}");
    let top = cells.iter().copied().fold(0.0, f64::max);
    for r in 0..5 {
        let want: Vec<String> = (0..5)
            .map(|c| ((cells[r * 5 + c] / top * 9.0).round() as u32).to_string())
            .collect();
        assert_eq!(lines[3 + r], want.join(" "), "row {}", r + 1);
    }
    let first = entries[0]["name"].as_str().unwrap();
    assert!(
        lines[8].starts_with(&format!("failed most: {first} (5 ")),
        "{human}"
    );
}

/// `cspi solve models/crossword.csp` on a picture grid and a word list,
/// with `extra` arguments.
fn fill_picture(grid: &Path, dict: &Path, extra: &[&str]) -> std::process::Output {
    fill_with(Path::new("models/crossword.csp"), grid, dict, extra)
}

/// `cspi solve MODEL` with its `grid` and `dict` parameters and `extra`
/// arguments.
fn fill_with(model: &Path, grid: &Path, dict: &Path, extra: &[&str]) -> std::process::Output {
    let model = model.display().to_string();
    let grid = format!("grid={}", grid.display());
    let dict = format!("dict={}", dict.display());
    let args = ["solve", &model, "--param", &grid, "--param", &dict];
    cspi(&[&args[..], extra].concat())
}

/// The entries of a filled picture grid (`#` a block): every run of two
/// or more cells across, then down.
#[allow(clippy::needless_range_loop)] // `line` indexes rows or columns
fn runs_of(rows: &[Vec<char>]) -> Vec<String> {
    let (h, w) = (rows.len(), rows[0].len());
    let mut out = Vec::new();
    for across in [true, false] {
        let (lines, along) = if across { (h, w) } else { (w, h) };
        for line in 0..lines {
            let at = |i: usize| if across { rows[line][i] } else { rows[i][line] };
            let mut word = String::new();
            for i in 0..=along {
                match (i < along).then(|| at(i)) {
                    Some(c) if c != '#' => word.push(c),
                    _ => {
                        if word.chars().count() >= 2 {
                            out.push(word.clone());
                        }
                        word.clear();
                    }
                }
            }
        }
    }
    out
}

/// `--try-blocks`: a grid with no fill opened by cheater blocks. The word
/// list is the entries of a fill of the grid with two blocks and their
/// twins, so the open grid has none (it needs ten 5-letter words; the list
/// has six). Every grid reported as having no fill has none by brute force;
/// the grid that fills is the grid as drawn with the blocks reported, each
/// with its 180° twin, every entry 3 letters or more, and its fill is a fill
/// of that picture from the list.
#[test]
fn try_blocks_opens_a_grid_with_no_fill() {
    let s = Scratch::new("try_blocks");
    let open = ".....\n.....\n.....\n.....\n.....\n";
    let grid = s.file("g.txt", open.as_bytes());
    let targets: [&[(usize, usize)]; 3] = [
        &[(0, 0), (4, 4)],
        &[(0, 4), (4, 0)],
        &[(0, 0), (4, 4), (0, 4), (4, 0)],
    ];
    // Grids with an entry no word fits, reported without a search.
    let mut unbuilt = 0;
    for (seed, target) in targets.iter().enumerate() {
        // A fill of the target grid with letters drawn from a fixed sequence.
        let mut state = 0x2545_f491_u64 + seed as u64;
        let mut rows: Vec<Vec<char>> = vec![vec!['.'; 5]; 5];
        for (y, row) in rows.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *cell = if target.contains(&(y, x)) {
                    '#'
                } else {
                    (b'a' + ((state >> 33) % 26) as u8) as char
                };
            }
        }
        let words = runs_of(&rows);
        let list: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(
            brute_count(open, &list, true),
            0,
            "the open grid has a fill"
        );
        let dict = s.file("w.txt", words.join("\n").as_bytes());
        // Two grids at once with --threads 2: a grid stopped when another
        // filled ends after the first fill, undecided.
        for threads in ["1", "2"] {
            let out = fill_picture(
                &grid,
                &dict,
                &[
                    "--try-blocks",
                    "2",
                    "--format",
                    "json",
                    "--check-solutions",
                    "--threads",
                    threads,
                ],
            );
            let records = json_records(&out);
            let grids: Vec<&serde_json::Value> =
                records.iter().filter(|r| r["type"] == "grid").collect();
            assert_eq!(
                grids[0]["blocks"],
                serde_json::json!([]),
                "the grid as drawn comes first"
            );
            let picture_of = |blocks: &serde_json::Value| -> String {
                let mut g: Vec<Vec<char>> = open.lines().map(|l| l.chars().collect()).collect();
                for b in blocks.as_array().unwrap() {
                    g[b[0].as_u64().unwrap() as usize - 1][b[1].as_u64().unwrap() as usize - 1] =
                        '#';
                }
                g.iter()
                    .map(|r| r.iter().collect::<String>() + "\n")
                    .collect()
            };
            for g in &grids {
                let picture = picture_of(&g["blocks"]);
                let cells: Vec<(u64, u64)> = g["blocks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| (b[0].as_u64().unwrap(), b[1].as_u64().unwrap()))
                    .collect();
                for &(r, c) in &cells {
                    assert!(
                        cells.contains(&(6 - r, 6 - c)),
                        "{cells:?}: no twin of ({r}, {c})"
                    );
                }
                let rows: Vec<Vec<char>> = picture.lines().map(|l| l.chars().collect()).collect();
                assert!(runs_of(&rows).iter().all(|w| w.len() >= 3), "{picture}");
                let after_fill = grids
                    .iter()
                    .take_while(|h| !std::ptr::eq(**h, *g))
                    .any(|h| h["status"] == "SATISFIABLE");
                match g["status"].as_str().unwrap() {
                    "UNSATISFIABLE" => {
                        assert_eq!(brute_count(&picture, &list, true), 0, "{picture}");
                        if let Some(why) = g["unbuilt"].as_str() {
                            assert!(why.starts_with("no word of the dictionary"), "{why}");
                            unbuilt += 1;
                        }
                    }
                    "SATISFIABLE" => {
                        assert_eq!(g["picture"].as_str(), Some(picture.as_str()));
                        assert!(brute_count(&picture, &list, true) > 0, "{picture}");
                    }
                    "UNKNOWN" if threads == "2" && after_fill && g["cut_short"] == true => {}
                    other => panic!("{other}: every grid here is decided"),
                }
            }
            let filled = *grids
                .iter()
                .find(|g| g["status"] == "SATISFIABLE")
                .unwrap_or_else(|| panic!("seed {seed}: {grids:?}"));
            if threads == "1" {
                assert!(
                    std::ptr::eq(filled, *grids.last().unwrap()),
                    "the search stops at the first fill"
                );
            }
            let picture = picture_of(&filled["blocks"]);
            let fill = json_fills(&out.stdout);
            assert_eq!(fill.len(), 1);
            let mut fills = Vec::new();
            brute_fills(&picture, &list, true, &mut |f| fills.push(f.to_vec()));
            assert!(
                fills.contains(&fill[0]),
                "{picture}: {:?} is not a fill",
                fill[0]
            );
            assert_eq!(records.last().unwrap()["status"], "SATISFIABLE");
            // A list without scores has no quality to report, and says so.
            let solution = records.iter().find(|r| r["type"] == "solution").unwrap();
            assert_eq!(solution["values"]["xw_quality"], serde_json::Value::Null);
            let picture = s.file("filled.txt", picture.as_bytes());
            let human = fill_picture(&picture, &dict, &[]);
            let text = String::from_utf8_lossy(&human.stdout);
            assert!(
                text.contains("quality: none to report, the word list has no scores\n"),
                "{text}"
            );
        }
    }
    assert!(unbuilt > 0, "no grid had an entry without words");
}

/// `--memory-limit` bounds each grid `--try-blocks` builds, with two grids
/// at once as with one: at the smallest limit (of a ladder) one thread
/// works within, two threads do too, run after run. (The limit once counted
/// the heap that the other thread's grid held, and refused the second grid
/// at limits where one thread filled.) Each model is made large by 300,000
/// 9-letter words, which no entry of a 5×5 grid can take.
#[test]
fn try_blocks_threads_keep_the_memory_limit_of_one() {
    let s = Scratch::new("try_blocks_memory");
    let grid = s.file("g.txt", b".....\n.....\n.....\n.....\n.....\n");
    let mut state = 0x9e37_79b9_u64;
    let mut letter = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (b'a' + ((state >> 33) % 26) as u8) as char
    };
    // The entries of a fill of the grid with blocks at two corners: the open
    // grid has no fill from them (it needs ten 5-letter words).
    let rows: Vec<Vec<char>> = (0..5)
        .map(|y| {
            (0..5)
                .map(|x| match (y, x) {
                    (0, 0) | (4, 4) => '#',
                    _ => letter(),
                })
                .collect()
        })
        .collect();
    let mut words = runs_of(&rows);
    assert!(words.iter().filter(|w| w.len() == 5).count() < 10);
    words.extend((0..300_000).map(|_| (0..9).map(|_| letter()).collect::<String>()));
    let dict = s.file("w.txt", words.join("\n").as_bytes());
    let run = |threads: &str, mib: u64| {
        let limit = format!("{mib}M");
        let args = [
            "--try-blocks",
            "2",
            "--threads",
            threads,
            "--memory-limit",
            &limit,
        ];
        fill_picture(&grid, &dict, &[&args[..], &["--format", "json"]].concat())
    };
    let ladder = [2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64, 96, 128];
    let fits = |out: &std::process::Output| {
        let last = String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .map(str::to_owned);
        out.status.code() == Some(0)
            && last.is_some_and(|l| l.contains(r#""type":"summary","status":"SATISFIABLE""#))
    };
    let mut least = None;
    for mib in ladder {
        let out = run("1", mib);
        if fits(&out) {
            least = Some(mib);
            break;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(1) && err.contains("cspi::memory"),
            "{mib} MiB: {err}{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let least = least.expect("one thread fills within 128 MiB");
    assert!(least > 2, "the limit never bit: the test measures nothing");
    for _ in 0..5 {
        let out = run("2", least);
        assert!(
            fits(&out),
            "{least} MiB, two threads: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The JSON records of a run that must have succeeded.
fn json_records(out: &std::process::Output) -> Vec<serde_json::Value> {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A xorshift sequence from `seed`: each call a number below its argument.
fn below(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

/// `n` words of random letters (a fixed sequence from `seed`), the `i`-th
/// of `len(i)` letters.
fn random_words(seed: u64, n: usize, len: impl Fn(usize) -> usize) -> Vec<String> {
    let mut state = seed;
    (0..n)
        .map(|i| {
            (0..len(i))
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (b'a' + ((state >> 33) % 26) as u8) as char
                })
                .collect()
        })
        .collect()
}

/// `--try-blocks` with no grid filled because every grid's own budget ran
/// out (here `--node-limit`) says so: not "a limit", which a reader would
/// take for `--time-limit`.
#[test]
fn try_blocks_says_when_the_grids_budgets_ran_out() {
    let s = Scratch::new("try_blocks_budget");
    let grid = s.file("g.txt", b".....\n.....\n.....\n.....\n.....\n");
    // 3,000 random 5-letter words: a fill of the open grid is unlikely and
    // not decided in 20 nodes; a block leaves 4-letter entries, which none
    // fits (those grids have no fill, without a search).
    let words = random_words(0x51_7cc1, 3000, |_| 5);
    let dict = s.file("w.txt", words.join("\n").as_bytes());
    let run = |format: &str| {
        let args = [
            "--try-blocks",
            "1",
            "--node-limit",
            "20",
            "--format",
            format,
        ];
        let out = fill_picture(&grid, &dict, &args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let human = run("human");
    assert!(
        human.contains("the grid as drawn: no fill found"),
        "{human}"
    );
    assert_eq!(
        human.lines().last(),
        Some("UNKNOWN: stopped by each grid's budget before a solution"),
        "{human}"
    );
    let json = run("json");
    let end: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(end["status"], "UNKNOWN");
    assert_eq!(end["stopped_by"], "grid budget");
}

/// `--try-blocks` searches the grids with new blocks in rounds: each for an
/// eighth of its budget (here `--node-limit 64`: 8 nodes), then the grids
/// still undecided for twice as long, up to the whole budget. Every grid is
/// in the first round, in the order of the failures; a grid is searched
/// again only when undecided, and then in the next round; no search passes
/// its round's budget.
#[test]
fn try_blocks_searches_in_rounds_of_doubling_budgets() {
    let s = Scratch::new("try_blocks_rounds");
    let grid = s.file("g.txt", ".......\n".repeat(7).as_bytes());
    // Random words of 3 to 7 letters: undecided in a few nodes, grid as
    // drawn and grids with blocks alike.
    let words = random_words(0x2f6b_1d3a, 8000, |i| 3 + i % 5);
    let dict = s.file("w.txt", words.join("\n").as_bytes());
    let args = [
        "--try-blocks",
        "2",
        "--node-limit",
        "64",
        "--format",
        "json",
    ];
    let out = fill_picture(&grid, &dict, &args);
    let grids: Vec<serde_json::Value> = json_records(&out)
        .into_iter()
        .filter(|r| r["type"] == "grid")
        .collect();
    assert_eq!(grids[0]["blocks"], serde_json::json!([]));
    // A search may pass its node limit by the node it stops at.
    assert!(grids[0]["nodes"].as_u64().unwrap() <= 65);
    // The rounds: a grid met again starts the next one.
    let mut rounds: Vec<Vec<&serde_json::Value>> = vec![Vec::new()];
    for g in &grids[1..] {
        if rounds
            .last()
            .unwrap()
            .iter()
            .any(|h| h["blocks"] == g["blocks"])
        {
            rounds.push(Vec::new());
        }
        rounds.last_mut().unwrap().push(g);
    }
    assert!(
        rounds.len() >= 2 && rounds.len() <= 4,
        "{} rounds",
        rounds.len()
    );
    let filled = grids.last().unwrap()["status"] == "SATISFIABLE";
    for (k, round) in rounds.iter().enumerate() {
        let budget = 8u64 << k;
        for g in round {
            assert!(g["nodes"].as_u64().unwrap() <= budget + 1, "round {k}: {g}");
        }
        let Some(next) = rounds.get(k + 1) else {
            break;
        };
        // Exactly the grids left undecided, in the same order.
        let undecided: Vec<&serde_json::Value> = round
            .iter()
            .filter(|g| g["status"] == "UNKNOWN")
            .map(|g| &g["blocks"])
            .collect();
        let again: Vec<&serde_json::Value> = next.iter().map(|g| &g["blocks"]).collect();
        let last = k + 2 == rounds.len();
        if last && filled {
            assert!(undecided.starts_with(&again), "round {k}");
        } else {
            assert_eq!(undecided, again, "round {k}");
        }
    }
    assert!(rounds[0].len() > 5, "{} grids", rounds[0].len());
}

/// `--try-blocks` parses and loads the model again on threads of its own,
/// which must have the stack the main pipeline has: a constraint summing
/// 50,000 terms (a deep syntax tree) overflowed their default stack, and the
/// process aborted. Now it runs to its end, with one thread and with two.
#[test]
fn try_blocks_threads_load_deep_models() {
    let s = Scratch::new("try_blocks_deep");
    let grid = s.file("g.txt", b".....\n.....\n.....\n.....\n.....\n");
    let dict = s.file("w.txt", b"abcde\nfghij\nklmno\n");
    let text = std::fs::read_to_string(root().join("models/crossword.csp")).unwrap();
    let sum = vec!["1"; 50_000].join(" + ");
    let model = s.file(
        "deep.csp",
        format!("{text}\nconstraint {sum} >= 1;\n").as_bytes(),
    );
    for threads in ["1", "2"] {
        let args = [
            "--try-blocks",
            "1",
            "--node-limit",
            "20",
            "--threads",
            threads,
        ];
        let out = fill_with(&model, &grid, &dict, &args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{threads} threads: {}{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("the grid as drawn:"), "{stdout}");
    }
}

/// `--try-blocks` refuses what it cannot do: a model naming entries by
/// number (a block renumbers them), one with an objective, a slot file.
#[test]
fn try_blocks_refuses_models_it_would_change() {
    let s = Scratch::new("try_blocks_refuses");
    let grid = s.file("g.txt", b"...\n...\n...\n");
    let dict = s.file("w.txt", b"abc;50\ndef;50\nghi;50\nadg;50\nbeh;50\ncfi;50\n");
    let slots = s.file("s.txt", b"0 0 3 A 0 0 3 D\n");
    let run = |model: &str| {
        let m = s.file("m.csp", model.as_bytes());
        let out = cspi(&["solve", &m.display().to_string(), "--try-blocks", "1"]);
        let err = String::from_utf8_lossy(&out.stderr).replace('│', " ");
        (
            out.status.code(),
            err.split_whitespace().collect::<Vec<_>>().join(" "),
        )
    };
    let head = format!(
        "let words = dictionary(\"{}\");\ncrossword xw = picture(\"{}\", words);\n",
        dict.display(),
        grid.display()
    );
    let (code, err) = run(&format!("{head}constraint xw[2] == \"adg\";\noutput xw;\n"));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("names an entry by its number") && err.contains("xw[2]"),
        "{err}"
    );
    let (code, err) = run(&format!(
        "{head}maximize sum([score(xw[i]) | i in 1..length(xw)]);\n"
    ));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not for the best fill"), "{err}");
    let (code, err) = run(&format!(
        "crossword xw = slots(\"{}\", dictionary(\"{}\"));\noutput xw;\n",
        slots.display(),
        dict.display()
    ));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not to a slot file"), "{err}");
    // The same grid without them fills at once, as drawn.
    let (code, err) = run(&format!("{head}output xw;\n"));
    assert_eq!(code, Some(0), "{err}");
}
