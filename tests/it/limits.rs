//! Issue 25, items 3 to 5 and a valid model once refused. Limits in every
//! phase: the split, counting by components,
//! search under every propagation level and each loop of loading hear the
//! clock, the node limit and the interrupt; no phase costs the width of a
//! domain rather than its size; data is parsed in linear time with a depth
//! cap and under `--memory-limit`; no message repeats the text of a
//! `--param NAME=@file`; no diagnostic prints a raw control character; the
//! sandbox holds against a folder swapped for a symbolic link; `ord` of an
//! enum variable computes as an integer.
//!
//! Every test proves termination by its outcome (an exit status, a
//! "stopped by" status, a count); the hang guard of `common::cspi_in`
//! (two minutes) only turns a hang into a failure.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn run(dir: &Path, args: &[&str]) -> common::Run {
    common::cspi_in(dir, args)
}

#[test]
fn the_split_hears_the_time_limit_on_a_domain_of_a_hundred_million_values() {
    let dir = common::scratch("limits-split");
    write(&dir, "wide.csp", "var x in 0..100000000;\n");
    for threads in ["2", "3"] {
        let r = run(
            &dir,
            &[
                "solve",
                "wide.csp",
                "--count",
                "--time-limit",
                "1",
                "--threads",
                threads,
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.contains("stopped by the time limit"),
            "{threads} threads: {}",
            r.stdout
        );
    }
    // A part of a split, and a node limit, end too.
    let r = run(
        &dir,
        &[
            "solve",
            "wide.csp",
            "--count",
            "--part",
            "1/4",
            "--format",
            "json",
            "--node-limit",
            "1000",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"UNKNOWN\""), "{}", r.stdout);
}

#[test]
fn sparse_wide_domains_cost_their_size_not_their_width() {
    let dir = common::scratch("limits-sparse");
    write(&dir, "one.csp", "var x in {0, 4611686018427387904};\n");
    write(
        &dir,
        "two.csp",
        "var x in {-4611686018427387904, 0, 4611686018427387904};\n\
         var y in {1, 2305843009213693952};\n\
         var z in {0, 4611686018427387904};\n\
         constraint x != z;\n",
    );
    write(
        &dir,
        "none.csp",
        "var x in {0, 4611686018427387904};\n\
         constraint x != 0;\nconstraint x != 4611686018427387904;\n",
    );
    for level in ["ac", "fc", "none"] {
        for threads in ["1", "2"] {
            for (model, count) in [("one.csp", "2 solutions"), ("two.csp", "8 solutions")] {
                let r = run(
                    &dir,
                    &[
                        "solve",
                        model,
                        "--count",
                        "--threads",
                        threads,
                        "--propagation",
                        level,
                    ],
                );
                assert_eq!(r.code, 0, "{model} {level} {threads}: {}", r.stderr);
                assert!(
                    r.stdout.contains(count) && r.stdout.contains("ALL_SOLUTIONS"),
                    "{model} {level} {threads}: {}",
                    r.stdout
                );
            }
            let r = run(
                &dir,
                &[
                    "solve",
                    "none.csp",
                    "--count",
                    "--threads",
                    threads,
                    "--propagation",
                    level,
                ],
            );
            assert_eq!(r.code, 0, "{}", r.stderr);
            assert!(r.stdout.contains("0 solutions"), "{level}: {}", r.stdout);
            let r = run(&dir, &["solve", "two.csp", "--all", "--propagation", level]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            assert_eq!(r.stdout.matches("x = ").count(), 8, "{level}: {}", r.stdout);
        }
    }
}

#[test]
fn a_long_product_chain_loads() {
    // Quadratic once: 20,000 factors took 54 s, 50,000 would take minutes.
    let dir = common::scratch("limits-product");
    let factors = vec!["x"; 50_000].join(" * ");
    write(
        &dir,
        "chain.csp",
        &format!("var x in 1..1;\nconstraint {factors} == 1;\n"),
    );
    let r = run(&dir, &["solve", "chain.csp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("x = 1"), "{}", r.stdout);
    // The range is still checked along the chain.
    let factors = vec!["y"; 70].join(" * ");
    write(
        &dir,
        "wide.csp",
        &format!("var y in 1..2;\nconstraint {factors} >= 1;\n"),
    );
    let r = run(&dir, &["solve", "wide.csp"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("cspi::arith::range"), "{}", r.stderr);
}

#[test]
fn deep_data_is_refused_with_a_diagnostic() {
    let dir = common::scratch("limits-deep");
    write(&dir, "m.csp", "param d = [1];\n");
    let n = 200_000;
    write(
        &dir,
        "deep.json",
        &format!("{{\"d\": {}1{}}}", "[".repeat(n), "]".repeat(n)),
    );
    let r = run(&dir, &["solve", "m.csp", "--data", "deep.json"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("nest more than 256 deep"), "{}", r.stderr);
    // The same through --param (an argument holds at most 128 KiB).
    let n = 30_000;
    let value = format!("d={}1{}", "[".repeat(n), "]".repeat(n));
    let r = run(&dir, &["solve", "m.csp", "--param", &value]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("nest more than 256 deep"), "{}", r.stderr);
}

/// A data file of `n` ones in one array.
fn ones(dir: &Path, n: usize) {
    let mut text = String::with_capacity(2 * n + 16);
    text.push_str("{\"d\": [1");
    for _ in 1..n {
        text.push_str(",1");
    }
    text.push_str("]}");
    write(dir, "ones.json", &text);
    write(dir, "m.csp", "param d = [1];\nvar x in 0..1;\n");
}

#[test]
fn data_files_are_parsed_under_the_memory_and_time_limits() {
    let dir = common::scratch("limits-data");
    ones(&dir, 3_000_000);
    // The text fits, its values do not: refused while parsing.
    let r = run(
        &dir,
        &[
            "solve",
            "m.csp",
            "--data",
            "ones.json",
            "--memory-limit",
            "40M",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("cspi::memory"), "{}", r.stderr);
    // The text itself does not fit: refused before it is read.
    let r = run(
        &dir,
        &[
            "solve",
            "m.csp",
            "--data",
            "ones.json",
            "--memory-limit",
            "8M",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("would take more than 8 MiB"),
        "{}",
        r.stderr
    );
    // `read()` too.
    write(
        &dir,
        "r.csp",
        "param t = read(\"ones.json\");\nvar x in 0..1;\n",
    );
    let r = run(&dir, &["solve", "r.csp", "--memory-limit", "8M"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("would take more than 8 MiB"),
        "{}",
        r.stderr
    );
    // A time limit reached while parsing ends the run as stopped.
    stops_in_time(&dir, &["solve", "m.csp", "--data", "ones.json"]);
    // The same data as MiniZinc data: refused inside the array, while
    // parsing (the parser once read it all first, and the limit was only
    // found where the array's value began).
    let dzn = format!("d = [1{}];\n", ",1".repeat(2_999_999));
    write(&dir, "ones.dzn", &dzn);
    let r = run(
        &dir,
        &[
            "solve",
            "m.csp",
            "--data",
            "ones.dzn",
            "--memory-limit",
            "40M",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("cspi::memory"), "{}", r.stderr);
    let column: usize = r
        .stderr
        .split("ones.dzn:1:")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no place in ones.dzn: {}", r.stderr));
    assert!(column > 100, "stopped at column {column}: {}", r.stderr);
    stops_in_time(&dir, &["solve", "m.csp", "--data", "ones.dzn"]);
}

/// `args` with `--time-limit 0.001` ends as stopped by it, exit 0.
fn stops_in_time(dir: &Path, args: &[&str]) {
    let r = run(dir, &[args, &["--time-limit", "0.001"]].concat());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    assert!(
        r.stdout.contains("stopped by the time limit"),
        "{args:?}: {}",
        r.stdout
    );
}

/// Word lists, tables and files of integers of hundreds of thousands of
/// lines are parsed under the limits too: the memory limit stops the parse
/// inside the file (the diagnostic points at the line it reached; these
/// parsers once read the whole file first, past the limit, and a word list
/// then fit again once parsed), and a time limit reached there ends the
/// run as stopped.
#[test]
fn word_lists_and_integer_files_are_parsed_under_the_limits() {
    let dir = common::scratch("limits-lists");
    let mut words = String::new();
    let mut rows = String::new();
    for i in 0..400_000u32 {
        let w: String = (0..5)
            .map(|k| (b'a' + ((i >> (3 * k)) % 8) as u8) as char)
            .collect();
        words.push_str(&format!("{w};{}\n", i % 60));
        rows.push_str(&format!("{},{},{}\n", i % 7, i % 5, i % 3));
    }
    write(&dir, "words.txt", &words);
    write(&dir, "rows.txt", &rows);
    write(&dir, "grid.txt", ".....\n");
    write(
        &dir,
        "t.csp",
        "var x in 0..9; var y in 0..9; var z in 0..9;\nconstraint table([x, y, z], read_table(\"rows.txt\"));\n",
    );
    write(
        &dir,
        "i.csp",
        "param d = read_ints(\"rows.txt\");\nvar x in 0..length(d);\n",
    );
    let crossword = common::root().join("models/crossword.csp");
    let crossword = crossword.to_str().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "solve",
                crossword,
                "--param",
                "grid=grid.txt",
                "--param",
                "dict=words.txt",
            ],
            "words.txt:",
        ),
        (&["solve", "t.csp"], "rows.txt:"),
        (&["solve", "i.csp"], "rows.txt:"),
    ];
    for (args, file) in cases {
        let r = run(&dir, &[args, &["--memory-limit", "16M"]].concat());
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("cspi::memory"), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(file),
            "{args:?}: stopped outside {file}: {}",
            r.stderr
        );
        stops_in_time(&dir, args);
    }
}

/// `cspi fzn -t`: the time limit holds while a large FlatZinc file is read
/// (its parser reads the file in one piece, so the file is loaded beside
/// the clock): the run ends with `=====UNKNOWN=====` and statistics that
/// show no model read, where it once read the whole file first (an 85 MB
/// file: 22 s past `-t 500`). Without the limit the same file loads.
#[test]
fn flatzinc_loading_hears_the_time_limit() {
    let dir = common::scratch("limits-fzn");
    let n = 200_000;
    let mut text = String::with_capacity(n * 60);
    for i in 0..n {
        text.push_str(&format!("var 0..9: x{i};\n"));
    }
    for i in 1..n {
        text.push_str(&format!("constraint int_le(x{}, x{i});\n", i - 1));
    }
    text.push_str("solve satisfy;\n");
    write(&dir, "big.fzn", &text);
    let r = run(&dir, &["fzn", "big.fzn", "-t", "100", "-s"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("=====UNKNOWN=====\n"), "{}", r.stdout);
    assert!(r.stdout.contains("%%%mzn-stat: initTime="), "{}", r.stdout);
    assert!(
        !r.stdout.contains("%%%mzn-stat: variables="),
        "the model was read before the limit was heard: {}",
        r.stdout
    );
    let r = run(&dir, &["fzn", "big.fzn", "--node-limit", "1", "-s"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(&format!("%%%mzn-stat: variables={n}")),
        "{}",
        r.stdout
    );
}

/// The first SIGINT stops a long load in every command that loads a model:
/// `solve` answers UNKNOWN, `explain` UNKNOWN, `check` and `bench` say so;
/// each exits 130 (they used to build on to the end, and `check`, `bench`
/// and `explain` then exited 0).
#[test]
fn the_first_sigint_stops_a_long_load() {
    let dir = common::scratch("limits-sigint");
    // Forty-four million comprehension steps: seconds to load.
    write(
        &dir,
        "slow.csp",
        "param s = sum(i in 1..4000000: sum(j in 1..10: (i * j) % 7));\nvar x in 0..1;\n",
    );
    let commands: [(&[&str], &str); 4] = [
        (
            &["solve", "--format", "json"],
            "\"stopped_by\":\"interrupt\"",
        ),
        (&["explain", "--format", "json"], "\"status\":\"UNKNOWN\""),
        (&["check"], ""),
        (&["bench"], ""),
    ];
    for (command, says) in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args([command[0], "slow.csp"])
            .args(&command[1..])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn cspi");
        std::thread::sleep(Duration::from_millis(400));
        let ok = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill")
            .success();
        assert!(ok);
        // A hang guard: the load would take far longer than this.
        let mut waited = 0;
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s;
            }
            assert!(
                waited < 60_000,
                "{command:?}: the first SIGINT was not heard while loading"
            );
            std::thread::sleep(Duration::from_millis(10));
            waited += 10;
        };
        let out = child.wait_with_output().expect("output");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(status.code(), Some(130), "{command:?}: {stdout}{stderr}");
        assert!(stdout.contains(says), "{command:?}: {stdout}");
        if says.is_empty() {
            assert!(
                stderr.contains("interrupted while the model was being built"),
                "{command:?}: {stderr}"
            );
        }
    }
}

#[test]
fn a_param_file_is_never_repeated_whatever_its_type() {
    let dir = common::scratch("limits-secret");
    const SECRET: &str = "SECRET-7f3a";
    write(
        &dir,
        "secret.txt",
        &format!("[1, \"{SECRET}\", 3]\n{SECRET}\n"),
    );
    write(&dir, "word.txt", &format!("{SECRET}\n"));
    let cases: &[(&str, &str)] = &[
        ("array.csp", "param d = [1, 2, 3];\n"),
        ("typed.csp", "param d[1..3]: int;\n"),
        ("record.csp", "param d: (a: int, b: int);\n"),
        ("enum.csp", "enum E = {red, green};\nparam d: E;\n"),
        ("int.csp", "param d: string;\nparam k = int(d);\n"),
        (
            "lines.csp",
            "param d: string;\nparam k = int(lines(d)[2]);\n",
        ),
        (
            "regular.csp",
            "param d: string;\nvar x[1..3] in 1..3;\nconstraint regular(x, d);\n",
        ),
    ];
    for (name, text) in cases {
        write(&dir, name, text);
        for file in ["secret.txt", "word.txt"] {
            let r = run(&dir, &["solve", name, "--param", &format!("d=@{file}")]);
            assert!(r.code == 1 || r.code == 2, "{name} {file}: {}", r.stderr);
            assert!(
                !r.stderr.contains(SECRET) && !r.stdout.contains(SECRET),
                "{name} {file} repeats the file:\n{}",
                r.stderr
            );
            assert!(!r.stderr.contains("SECRET"), "{name} {file}:\n{}", r.stderr);
        }
    }
}

#[test]
fn diagnostics_print_no_control_character() {
    let dir = common::scratch("limits-control");
    // An escape sequence that would retitle the terminal, raw in a data
    // file (invalid JSON there) and in a model.
    let esc = "\u{1b}]0;pwned\u{7}\u{9b}2J";
    write(&dir, "m.csp", "param d = [1];\n");
    write(&dir, "bad.json", &format!("{{\"d\": [1, {esc}]}}\n"));
    write(
        &dir,
        "bad.csp",
        &format!("var x in 1..3;\nconstraint x == {esc};\n"),
    );
    write(
        &dir,
        "names.csp",
        &format!("param n = 1;\nconstraint n{esc} > 0;\n"),
    );
    for args in [
        vec!["solve", "m.csp", "--data", "bad.json"],
        vec!["solve", "bad.csp"],
        vec!["solve", "names.csp"],
    ] {
        let r = run(&dir, &args);
        assert!(r.code == 1 || r.code == 2, "{args:?}: {}", r.stderr);
        assert!(
            !r.stderr.chars().any(|c| c.is_control() && c != '\n'),
            "{args:?} prints a control character:\n{:?}",
            r.stderr
        );
    }
    let r = run(&dir, &["solve", "m.csp", "--data", "bad.json"]);
    assert!(r.stderr.contains("\\u{1b}"), "{}", r.stderr);
}

#[test]
fn ord_of_an_enum_variable_is_an_integer_whatever_folds_it() {
    let dir = common::scratch("limits-ord");
    // Brute force: c takes a, b, c (ord 1, 2, 3).
    let cases = [
        ("constraint ord(c) + 0 >= 2;", "2 solutions"),
        ("constraint ord(c) - 0 == 1;", "1 solution"),
        ("constraint 1 * ord(c) <= 2;", "2 solutions"),
        ("constraint sum([ord(c)]) == 3;", "1 solution"),
        (
            "var x in 0..9;\nconstraint product([ord(c), 2]) == x;",
            "3 solutions",
        ),
        (
            "var x in 0..9;\nconstraint product([ord(c), 1]) == x;",
            "3 solutions",
        ),
    ];
    for (i, (constraint, count)) in cases.iter().enumerate() {
        let name = format!("ord{i}.csp");
        write(
            &dir,
            &name,
            &format!("enum E = {{r, g, b}};\nvar c: E;\n{constraint}\n"),
        );
        let r = run(&dir, &["solve", &name, "--count", "--check-solutions"]);
        assert_eq!(r.code, 0, "{constraint}: {}", r.stderr);
        assert!(r.stdout.contains(count), "{constraint}: {}", r.stdout);
    }
    write(
        &dir,
        "x.csp",
        "enum E = {r, g, b};\nvar c: E;\nvar x in 0..9;\nconstraint product([ord(c), 2]) == x;\nconstraint c == g;\n",
    );
    let r = run(&dir, &["solve", "x.csp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("x = 4"), "{}", r.stdout);
    // Arithmetic on the enum itself is still refused.
    write(
        &dir,
        "bad.csp",
        "enum E = {r, g, b};\nvar c: E;\nconstraint c + 0 >= 1;\n",
    );
    let r = run(&dir, &["solve", "bad.csp"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("cannot compute with a member"),
        "{}",
        r.stderr
    );
}

/// A process that can write inside the sandbox swaps a folder for a
/// symbolic link to a folder outside, over and over, while the model reads
/// a file in it: the file outside must never be read (the check and the
/// open are one step, beneath the sandbox's descriptor).
#[test]
fn the_sandbox_holds_against_a_symlink_swap() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = common::scratch("limits-sandbox-race");
    let sandbox = dir.join("sandbox");
    let outside = dir.join("outside");
    std::fs::create_dir_all(sandbox.join("real")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(sandbox.join("real/f.txt"), "inside").unwrap();
    std::fs::write(outside.join("f.txt"), "OUTSIDE-SECRET").unwrap();
    std::os::unix::fs::symlink(&outside, sandbox.join("link")).unwrap();
    std::fs::create_dir_all(sandbox.join("d")).unwrap();
    std::fs::write(sandbox.join("d/f.txt"), "inside").unwrap();
    let model = "param t = read(\"d/f.txt\");\nvar x in 0..1;\nconstraint x == (if t == \"inside\" then 1 else 0);\n";
    write(&sandbox, "m.csp", model);
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, sandbox) = (Arc::clone(&stop), sandbox.clone());
        std::thread::spawn(move || {
            // Swap `d` between the real folder and the link, atomically.
            let (d, real, link) = (
                sandbox.join("d"),
                sandbox.join("real"),
                sandbox.join("link"),
            );
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let _ = if i.is_multiple_of(2) {
                    std::fs::rename(&d, &real).and_then(|()| std::fs::rename(&link, &d))
                } else {
                    std::fs::rename(&d, &link).and_then(|()| std::fs::rename(&real, &d))
                };
                i += 1;
            }
        })
    };
    let root = sandbox.to_str().unwrap().to_string();
    let mut read_inside = 0;
    for _ in 0..150 {
        let r = run(
            &sandbox,
            &["solve", "m.csp", "--sandbox", &root, "--format", "json"],
        );
        assert!(
            !r.stdout.contains("\"x\":0") && !r.stderr.contains("OUTSIDE"),
            "read the file outside the sandbox:\n{}{}",
            r.stdout,
            r.stderr
        );
        read_inside += usize::from(r.stdout.contains("\"x\":1"));
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    // Some runs are refused (the link is outside), some read the file
    // inside; with no swapper, every run reads it.
    let _ = read_inside;
    let r = run(
        &sandbox,
        &["solve", "m.csp", "--sandbox", &root, "--format", "json"],
    );
    assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
}

/// A FIFO left in the dictionary cache folder, in place of a cache file,
/// is refused by the one reader (the diagram is compiled again), never
/// waited on: it once hung every later run.
#[test]
fn a_fifo_in_the_cache_folder_is_not_waited_on() {
    let dir = common::scratch("limits-cache-fifo");
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    write(
        &dir,
        "t.csp",
        "let words = trie(\"CAB BAC ABC\", [\"A\", \"B\", \"C\"], 3);\n\
         var w[1..columns(words)] in 0..3;\nconstraint mdd(w, words);\n",
    );
    let solve = || {
        Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args(["solve", "t.csp", "--count"])
            .current_dir(&dir)
            .env("CSPI_CACHE_DIR", &cache)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn cspi")
    };
    let first = solve().wait_with_output().expect("first run");
    assert!(String::from_utf8_lossy(&first.stdout).contains("3 solutions"));
    let files: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    assert_eq!(files.len(), 1, "one cache file: {files:?}");
    std::fs::remove_file(&files[0]).unwrap();
    let made = Command::new("mkfifo")
        .arg(&files[0])
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let mut child = solve();
    let mut waited = 0;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if waited > 60_000 {
            let _ = child.kill();
            panic!("the run waits on the FIFO in the cache folder");
        }
        std::thread::sleep(Duration::from_millis(10));
        waited += 10;
    };
    let out = child.wait_with_output().expect("output");
    assert_eq!(status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 solutions"));
}

/// A count of 2^64 or more does not fit the count's 64 bits: it reads "at
/// least", in every output and mode, never as an exact wrong number (70 free
/// booleans once printed 18446744073709551615 as their count).
#[test]
fn a_count_past_64_bits_says_at_least() {
    let dir = common::scratch("limits-count-overflow");
    write(&dir, "big.csp", "var x[1..70] in 0..1;\n");
    write(&dir, "fits.csp", "var x[1..63] in 0..1;\n");
    for threads in ["1", "2"] {
        let r = run(&dir, &["solve", "big.csp", "--count", "--threads", threads]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout
                .contains("at least 18446744073709551615 solutions (ALL_SOLUTIONS; the count does not fit 64 bits)"),
            "{threads}: {}",
            r.stdout
        );
        let r = run(
            &dir,
            &[
                "solve",
                "big.csp",
                "--count",
                "--threads",
                threads,
                "--format",
                "json",
            ],
        );
        assert!(
            r.stdout
                .contains("\"solutions\":18446744073709551615,\"solutions_at_least\":true"),
            "{}",
            r.stdout
        );
        let r = run(
            &dir,
            &["solve", "fits.csp", "--count", "--threads", threads],
        );
        assert!(
            r.stdout
                .starts_with("9223372036854775808 solutions (ALL_SOLUTIONS)"),
            "{}",
            r.stdout
        );
    }
    // Parts that each fit but whose sum does not: the merge says "at least".
    let mut files = Vec::new();
    for k in 1..=2 {
        let r = run(
            &dir,
            &[
                "solve",
                "big.csp",
                "--count",
                "--part",
                &format!("{k}/2"),
                "--format",
                "json",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let name = format!("part{k}.jsonl");
        write(&dir, &name, &r.stdout);
        files.push(name);
    }
    let r = run(&dir, &["merge", &files[0], &files[1]]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("at least 18446744073709551615 solutions"),
        "{}",
        r.stdout
    );
}

/// Two-letter words over `n` distinct letters (CJK ideographs of plane 2), as
/// scripts/phases.py writes them.
fn huge_alphabet(dir: &Path, n: usize) -> usize {
    let letter = |i: usize| char::from_u32(0x20000 + (i % n) as u32).unwrap();
    let words: std::collections::BTreeSet<String> = (0..n)
        .map(|i| format!("{}{}", letter(i), letter(i * 7 + 1)))
        .collect();
    let text: String = words.iter().map(|w| format!("{w}\n")).collect();
    write(dir, "words.txt", &text);
    // The count by enumeration: rows a and b, columns c = a[1] b[1] and
    // e = a[2] b[2]; b's first letter is a second letter of a word c
    // starting with a[1].
    let pairs: Vec<(char, char)> = words
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            (cs.next().unwrap(), cs.next().unwrap())
        })
        .collect();
    let set: std::collections::HashSet<(char, char)> = pairs.iter().copied().collect();
    let mut by_first = std::collections::HashMap::<char, Vec<(char, char)>>::new();
    for &p in &pairs {
        by_first.entry(p.0).or_default().push(p);
    }
    let mut count = 0;
    for a in &pairs {
        for c in by_first.get(&a.0).into_iter().flatten() {
            for b in by_first.get(&c.1).into_iter().flatten() {
                count += usize::from(set.contains(&(a.1, b.1)));
            }
        }
    }
    count
}

const GRID_2X2: &str = "let d = dictionary(\"words.txt\");\n\
    var a in words(d, 2);\nvar b in words(d, 2);\n\
    var c in words(d, 2);\nvar e in words(d, 2);\n\
    constraint a[1] == c[1];\nconstraint a[2] == e[1];\n\
    constraint b[1] == c[2];\nconstraint b[2] == e[2];\n";

/// A crossword over a huge alphabet costs memory linear in the dictionary:
/// the word intersection keeps no bitset per letter past 256 letters (one
/// per letter took 587 MB at 40,000 letters). The count agrees with brute
/// force, and with enumeration on a smaller alphabet.
#[test]
fn a_crossword_over_a_huge_alphabet_stays_linear_in_memory() {
    let dir = common::scratch("limits-alphabet");
    let expected = huge_alphabet(&dir, 600);
    write(&dir, "grid.csp", GRID_2X2);
    for args in [
        &["--count"][..],
        &["--count", "--no-product-count"],
        &["--count", "--threads", "2"],
        &["--count", "--propagation", "fc"],
    ] {
        let r = run(&dir, &[&["solve", "grid.csp"][..], args].concat());
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout
                .starts_with(&format!("{expected} solutions (ALL_SOLUTIONS)")),
            "{args:?}: expected {expected}: {}",
            r.stdout
        );
    }
    let expected = huge_alphabet(&dir, 40_000);
    let r = run(&dir, &["solve", "grid.csp", "--count", "--stats"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .starts_with(&format!("{expected} solutions (ALL_SOLUTIONS)")),
        "expected {expected}: {}",
        r.stdout
    );
    let peak_kb: u64 = r
        .stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("peak_memory_kb: "))
        .map_or(0, |v| v.trim().parse().unwrap());
    // Where the OS reports it: well under the quadratic 587 MB.
    assert!(peak_kb < 150_000, "peak {peak_kb} kB");
}

/// `--memory-limit` holds past the building: a crossword whose model is
/// small (a picture and a word list) but whose propagators are not (22,500
/// crossings over domains of 17,576 words) is stopped while it is lowered,
/// on one thread and on two (whose workers lower their own copies), as the
/// time limit stops it: UNKNOWN, exit 0. Under a limit it fits, the same run
/// goes on to the search (stopped there by its node limit).
#[test]
fn the_memory_limit_holds_while_the_model_is_lowered() {
    let dir = common::scratch("limits-memory-lowering");
    let letters = b'a'..=b'z';
    let mut words = String::new();
    for a in letters.clone() {
        for b in letters.clone() {
            for c in letters.clone() {
                words.extend([a as char, b as char, c as char, '\n']);
            }
        }
    }
    write(&dir, "w.txt", &words);
    let row: String = "...#".repeat(50);
    let grid: Vec<String> = (0..200)
        .map(|i| {
            if i % 4 == 3 {
                "#".repeat(200)
            } else {
                row.clone()
            }
        })
        .collect();
    write(&dir, "g.txt", &(grid.join("\n") + "\n"));
    write(
        &dir,
        "m.csp",
        "let words = dictionary(\"w.txt\");\ncrossword xw = picture(\"g.txt\", words);\n\
         search xw: var dom-wdeg, val min;\noutput xw;\n",
    );
    // (the limit, more arguments, what the output says): on one thread and
    // on two; suggestions and the fillability map, which lower the model
    // too and say that nothing is known rather than print a map; under a
    // limit the model fits, the search (stopped by its node limit).
    let unknown = "UNKNOWN: stopped by the memory limit before a solution";
    let by_memory = "\"stopped_by\":\"memory limit\"";
    let cases: [(&str, &[&str], &[&str]); 8] = [
        ("40M", &["--threads", "1"], &[unknown]),
        ("40M", &["--threads", "2"], &[unknown]),
        ("40M", &["--format", "json"], &[by_memory]),
        (
            "40M",
            &["--suggest", "xw[1]", "--fillability"],
            &[
                "xw[1] (3 across, row 1, column 1): UNKNOWN, a limit stopped the run before the model was propagated",
                "fillability: UNKNOWN",
            ],
        ),
        // --try-blocks: the grid as drawn stopped by the heap, said so.
        ("40M", &["--try-blocks", "1"], &["no grid filled", unknown]),
        (
            "40M",
            &["--try-blocks", "1", "--format", "json"],
            &[by_memory],
        ),
        // explain's checks solve the model: the first stops where it is lowered.
        (
            "40M",
            &["explain"],
            &["UNKNOWN: a limit (time, memory or interrupt) came before"],
        ),
        ("2G", &["--node-limit", "1"], &["stopped by the node limit"]),
    ];
    for (limit, more, says) in cases {
        let (command, more) = match more {
            ["explain", rest @ ..] => ("explain", rest),
            _ => ("solve", more),
        };
        let args = [&[command, "m.csp", "--memory-limit", limit][..], more].concat();
        let r = run(&dir, &args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        for s in says {
            assert!(r.stdout.contains(s), "{args:?}: {}", r.stdout);
        }
    }
}

/// On two threads each sub-problem is held to what is left of the node
/// limit, so the nodes of a run stopped by its clock can add up past that
/// limit: the summary must still name the clock (it used to say "node
/// limit" whenever the total reached it).
#[test]
fn a_run_on_threads_stopped_by_the_clock_says_so_past_the_node_limit() {
    let golomb = common::model("golomb.csp");
    let json = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            golomb.to_str().unwrap(),
            "--param",
            "m=11",
            "--threads",
            "2",
            "--time-limit",
            "0.5",
            "--thread-stats",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let r = common::cspi(&args);
        let last = r.stdout.lines().last().unwrap_or_default().to_string();
        serde_json::from_str::<serde_json::Value>(&last).unwrap()
    };
    // How many nodes the two threads search in the time: the limit goes
    // between one thread's and both together.
    let free = json(&[]);
    assert_eq!(free["stopped_by"], "time limit", "{free}");
    let total = free["stats"]["nodes"].as_u64().unwrap();
    let limit = (total * 3 / 4).max(2).to_string();
    let s = json(&["--node-limit", &limit]);
    let n: u64 = limit.parse().unwrap();
    let threads = s["threads"].as_array().unwrap();
    // Each thread held one sub-problem: none stopped on the node limit
    // unless it searched that many nodes alone.
    let one_each = threads.iter().all(|t| t["subproblems"] == 1);
    let none_at_limit = threads
        .iter()
        .all(|t| t["stats"]["nodes"].as_u64().unwrap() < n);
    if one_each && none_at_limit {
        assert_eq!(s["stopped_by"], "time limit", "{s}");
    }
    // On one thread the node limit is what stops it, and says so.
    let one = common::cspi(&[
        "solve",
        golomb.to_str().unwrap(),
        "--param",
        "m=11",
        "--node-limit",
        "200",
        "--time-limit",
        "30",
        "--format",
        "json",
    ]);
    assert!(
        one.stdout.contains("\"stopped_by\":\"node limit\""),
        "{}",
        one.stdout
    );
}
