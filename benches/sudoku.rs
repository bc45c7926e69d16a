//! Whole-process sudoku benchmark: runs `cspi solve models/sudoku.csp` once per
//! puzzle on the shared hard sets and prints a Markdown table of wall times,
//! as milliseconds and as ratios to a baseline measured in the same run (the
//! whole-process time of a trivial one-variable model: startup, parse, exit).
//!
//!     cargo bench --bench sudoku               # samples of the big sets
//!     cargo bench --bench sudoku -- --all      # every puzzle
//!     cargo bench --bench sudoku -- --limit 30 # per-puzzle time limit in s (default 20)
//!
//! Not a test: nothing here passes or fails on speed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CSPI: &str = env!("CARGO_BIN_EXE_cspi");

struct Set {
    name: &'static str,
    /// File (or directory of one-puzzle files) under ../shared/data/sudoku.
    path: &'static str,
    n: usize,
    symbols: Option<&'static str>,
    /// Puzzles taken by default (spread evenly over the file); `--all` takes every one.
    sample: usize,
}

const SETS: &[Set] = &[
    Set {
        name: "norvig top95",
        path: "norvig-top95.txt",
        n: 3,
        symbols: None,
        sample: 95,
    },
    Set {
        name: "norvig hardest",
        path: "norvig-hardest.txt",
        n: 3,
        symbols: None,
        sample: 11,
    },
    Set {
        name: "forum hardest 1106",
        path: "forum-hardest-1106.txt",
        n: 3,
        symbols: None,
        sample: 375,
    },
    Set {
        name: "magictour top1465",
        path: "magictour-top1465.txt",
        n: 3,
        symbols: None,
        sample: 200,
    },
    Set {
        name: "forum hardest 1905 11+",
        path: "forum-hardest-1905-11plus-first10000.txt",
        n: 3,
        symbols: None,
        sample: 200,
    },
    Set {
        name: "tdoku 17-clue",
        path: "tdoku-17clue-49158.txt",
        n: 3,
        symbols: None,
        sample: 300,
    },
    Set {
        name: "16×16 (vu-kr)",
        path: "vu-kr-16x16.txt",
        n: 4,
        symbols: None,
        sample: 100,
    },
    Set {
        name: "25×25 alphadoku",
        path: "alphadoku-25x25",
        n: 5,
        symbols: Some("ABCDEFGHIJKLMNOPQRSTUVWXY"),
        sample: 31,
    },
];

/// One puzzle as a `--param puzzle=` value: the line itself, or `@file`.
fn puzzles(path: &Path) -> Vec<String> {
    if path.is_dir() {
        let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(path)
            .expect("read dir")
            .filter_map(|e| {
                let p = e.ok()?.path();
                let k = p.file_stem()?.to_str()?.rsplit('_').next()?.parse().ok()?;
                Some((k, p))
            })
            .collect();
        files.sort();
        return files
            .into_iter()
            .map(|(_, p)| format!("@{}", p.display()))
            .collect();
    }
    std::fs::read_to_string(path)
        .expect("read puzzle file")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn spread(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    if count < 2 {
        return vec![0];
    }
    let mut v: Vec<usize> = (0..count).map(|i| i * (len - 1) / (count - 1)).collect();
    v.dedup();
    v
}

/// Runs cspi once; returns the wall time and the status it printed.
fn run(args: &[String]) -> (Duration, String) {
    let start = Instant::now();
    let out = Command::new(CSPI)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("run cspi");
    let time = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    let status = text
        .rsplit("\"status\":\"")
        .next()
        .filter(|_| out.status.success())
        .and_then(|s| s.split('"').next())
        .unwrap_or("ERROR")
        .to_string();
    (time, status)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Summary {
    mean: f64,
    median: f64,
    max: f64,
}

fn summarize(mut t: Vec<f64>) -> Summary {
    t.sort_by(f64::total_cmp);
    let mean = t.iter().sum::<f64>() / t.len() as f64;
    let median = if t.len() % 2 == 1 {
        t[t.len() / 2]
    } else {
        (t[t.len() / 2 - 1] + t[t.len() / 2]) / 2.0
    };
    Summary {
        mean,
        median,
        max: *t.last().unwrap(),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let all = argv.iter().any(|a| a == "--all");
    let limit: f64 = argv
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| argv.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(20.0);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let model = root.join("models/sudoku.csp").display().to_string();
    let data = root.join("../shared/data/sudoku");
    if !data.exists() {
        println!("skipped: ../shared/data/sudoku not found");
        return;
    }

    // Baseline: the whole-process cost of a trivial model.
    let trivial =
        std::env::temp_dir().join(format!("cspi-bench-trivial-{}.csp", std::process::id()));
    std::fs::write(&trivial, "var x in 1..1;\n").expect("write trivial model");
    let base_args = vec![
        "solve".to_string(),
        trivial.display().to_string(),
        "--format".into(),
        "json".into(),
    ];
    for _ in 0..5 {
        run(&base_args); // warm the page cache
    }
    let base = summarize((0..51).map(|_| ms(run(&base_args).0)).collect());
    let _ = std::fs::remove_file(&trivial);
    let b = base.median;

    println!(
        "Baseline (trivial model `var x in 1..1;`, 51 runs): mean {:.2} ms, median {:.2} ms, max {:.2} ms.",
        base.mean, base.median, base.max
    );
    println!(
        "Ratios are to the baseline median. Per-puzzle time limit {limit} s (`--time-limit`); {} puzzles.\n",
        if all { "every" } else { "a spread sample of" }
    );
    println!(
        "| set | puzzles | sat | unsat | unknown | mean ms | median ms | max ms | mean × | median × | max × |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for set in SETS {
        let path = data.join(set.path);
        if !path.exists() {
            println!(
                "| {} | skipped: {} not found | | | | | | | | | |",
                set.name,
                path.display()
            );
            continue;
        }
        let list = puzzles(&path);
        let chosen = if all {
            (0..list.len()).collect()
        } else {
            spread(list.len(), set.sample)
        };
        let mut times = Vec::new();
        let (mut sat, mut unsat, mut unknown) = (0, 0, 0);
        for &i in &chosen {
            let mut args = vec![
                "solve".to_string(),
                model.clone(),
                "--param".into(),
                format!("n={}", set.n),
                "--param".into(),
                format!("puzzle={}", list[i]),
                "--format".into(),
                "json".into(),
                "--time-limit".into(),
                limit.to_string(),
            ];
            if let Some(s) = set.symbols {
                args.extend(["--param".into(), format!("symbols={s}")]);
            }
            let (t, status) = run(&args);
            match status.as_str() {
                "SATISFIABLE" | "ALL_SOLUTIONS" => sat += 1,
                "UNSATISFIABLE" => unsat += 1,
                "UNKNOWN" => unknown += 1,
                other => panic!("{}: puzzle {}: cspi failed ({other})", set.name, i + 1),
            }
            times.push(ms(t));
        }
        let s = summarize(times);
        println!(
            "| {} | {} | {sat} | {unsat} | {unknown} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {:.2} |",
            set.name,
            chosen.len(),
            s.mean,
            s.median,
            s.max,
            s.mean / b,
            s.median / b,
            s.max / b
        );
    }
}
