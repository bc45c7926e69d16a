//! Hostile input: every case ends with a diagnostic or an answer, in bounded
//! time, never a crash (exit codes 0, 1 or 2 only; 3 or a signal is a bug).

use crate::common;

use std::path::{Path, PathBuf};

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspi-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    // A directory of an earlier run with the same process id may hold a
    // symlink loop of that name.
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs `cspi solve` (with a hang guard) and returns (exit code, stderr).
fn solve(path: &Path, extra: &[&str]) -> (i32, String) {
    let run = run_solve(path, extra);
    (run.code, run.stderr)
}

fn run_solve(path: &Path, extra: &[&str]) -> common::Run {
    let path = path.to_str().expect("a UTF-8 path");
    let mut args = vec!["solve", path];
    args.extend_from_slice(extra);
    common::cspi_in(&std::env::temp_dir(), &args)
}

fn expect_diagnostic(name: &str, text: &[u8], needle: &str) {
    let path = scratch(name, text);
    let (code, err) = solve(&path, &[]);
    assert!(code == 1 || code == 2, "{name}: exit {code}\n{err}");
    assert!(
        err.contains(needle),
        "{name}: expected `{needle}` in\n{err}"
    );
}

#[test]
fn deep_brackets_are_refused() {
    let text = format!(
        "var x in 1..3; constraint {}x{} == 1;",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    expect_diagnostic("deep.csp", text.as_bytes(), "nest");
    let text = format!(
        "var x in 1..3; constraint {}x{} == 1;",
        "[".repeat(300),
        "]".repeat(300)
    );
    expect_diagnostic("deep-list.csp", text.as_bytes(), "nest");
}

#[test]
fn moderately_deep_brackets_parse_in_linear_time() {
    // Exponential backtracking on nested brackets once made this hang.
    let text = format!(
        "var x in 1..3; constraint {}x{} == 2;",
        "(".repeat(190),
        ")".repeat(190)
    );
    let path = scratch("deep-ok.csp", text.as_bytes());
    let (code, err) = solve(&path, &[]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn operator_floods_are_refused_and_long_chains_work() {
    let flood = format!(
        "var x in 1..3; constraint x {}== 1;",
        "+ x ".repeat(1_000_000)
    );
    expect_diagnostic("flood.csp", flood.as_bytes(), "operator symbols");
    let chain = format!("var x in 1..3; constraint {}x == 1;", "-".repeat(150_000));
    let (code, err) = solve(&scratch("neg.csp", chain.as_bytes()), &[]);
    assert_eq!(code, 0, "{err}");
    let imp = format!(
        "var x in 1..3; constraint x == 1{};",
        " -> x == 1".repeat(30_000)
    );
    let (code, err) = solve(&scratch("imp.csp", imp.as_bytes()), &[]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn enormous_domains_and_sizes_are_refused() {
    expect_diagnostic("huge-array.csp", b"var x[1..10^9] in 0..1;", "too large");
    expect_diagnostic("overflow.csp", b"let k = 10^30; var x in 0..k;", "overflow");
    // 10^4 domains with holes over 10^6 values would take over a GiB of bitsets.
    expect_diagnostic(
        "wide-array.csp",
        b"var x[1..10000] in {0, 1000000};",
        "need 1192 MiB",
    );
}

/// Wide ranges are held by their bounds: any range of i64 is a domain.
#[test]
fn wide_ranges_are_domains() {
    let cases: [(&str, &str, &str); 3] = [
        (
            "big.csp",
            "var x in 0..10^18; constraint x >= 10^17 + 5;",
            "x = 100000000000000005",
        ),
        (
            "full.csp",
            // 3 * x must fit in i64 too (exact integers): |x| <= 2^61.
            "var x in -2^61..2^61; constraint 3 * x == 2^62 - 1;",
            "x = 1537228672809129301",
        ),
        (
            "wide-array.csp",
            "var x[1..10000] in 0..1000000; constraint sum(x) == 9999999;",
            "x = [0,",
        ),
    ];
    for (name, text, want) in cases {
        let path = scratch(name, text.as_bytes());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args(["solve", "--check-solutions"])
            .arg(&path)
            .output()
            .expect("cspi runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(want), "{name}: want `{want}` in\n{stdout}");
    }
}

/// Peak memory reported by `--stats`, in KiB.
fn peak_kb(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("peak_memory_kb:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak_memory_kb in\n{stderr}"))
}

#[test]
fn million_element_arrays_work_in_bounded_memory() {
    let cases: [(&str, &str); 3] = [
        ("free.csp", "var x[1..1000000] in 0..1;"),
        (
            "sum.csp",
            "var x[1..1000000] in 0..1; constraint sum(x) == 3;",
        ),
        (
            "chain.csp",
            "var x[1..1000000] in 0..3; constraint forall i in 1..999999: x[i] <= x[i + 1];",
        ),
    ];
    for (name, text) in cases {
        let path = scratch(name, text.as_bytes());
        let (code, err) = solve(&path, &["--stats"]);
        assert_eq!(code, 0, "{name}\n{err}");
        let kb = peak_kb(&err);
        assert!(kb < 1_500_000, "{name}: {kb} KiB");
    }
    // A thousand domains of a million values each: 120 MiB of bitsets.
    let path = scratch("wide.csp", b"var x[1..1000] in 0..1000000;");
    let (code, err) = solve(&path, &["--stats"]);
    assert_eq!(code, 0, "{err}");
    assert!(peak_kb(&err) < 1_000_000, "{err}");
}

#[test]
fn binary_and_non_utf8_files_are_refused() {
    let mut junk: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    junk[0] = 0xff;
    expect_diagnostic("binary.csp", &junk, "UTF-8");
    let data = scratch("latin1.txt", b"caf\xe9\n");
    let model = format!("param p = \"{}\"; let t = read(p);", data.display());
    expect_diagnostic("reads-latin1.csp", model.as_bytes(), "UTF-8");
}

#[test]
fn paths_to_directories_devices_and_loops_are_refused() {
    let dir = std::env::temp_dir();
    let (code, err) = solve(&dir, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("directory"), "{err}");
    let model = format!("param p = \"{}\"; let t = read(p);", dir.display());
    expect_diagnostic("reads-dir.csp", model.as_bytes(), "directory");
    expect_diagnostic(
        "reads-dev.csp",
        b"let t = read(\"/dev/zero\");",
        "not a regular file",
    );
    let a = scratch("loop-a", b"");
    let b = a.with_file_name("loop-b");
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let model = format!("let t = read(\"{}\");", a.display());
    expect_diagnostic("reads-loop.csp", model.as_bytes(), "a loop of");
}

#[test]
fn a_ten_megabyte_string_parameter_is_handled() {
    let line = "x".repeat(10 << 20);
    let path = scratch(
        "long-line.csp",
        format!("param s = \"{line}\"; var y in 1..2;").as_bytes(),
    );
    let (code, err) = solve(&path, &["--count"]);
    assert_eq!(code, 0, "{err}");
}

/// Inputs the fuzzers found (crashes, hangs), kept as regression tests: each
/// must end with an answer or a diagnostic.
#[test]
fn fuzz_findings_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let (code, err) = solve(&path, &["--node-limit", "10000", "--time-limit", "60"]);
        assert!(
            (0..=2).contains(&code),
            "{}: exit {code}\n{err}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen > 0, "no regression inputs in {}", dir.display());
}

/// Diagnostics with their wrapped lines joined again (the gutter and
/// indentation of a continuation become one space).
fn unwrapped(stderr: &str) -> String {
    let mut out = String::new();
    for line in stderr.lines() {
        let text = line.trim_start_matches([' ', '│']);
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(text.trim_end());
    }
    out
}

/// A directory of its own for the file tests.
fn files_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspi-hostile-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `path` is refused, with `needle` in the message, however it is named: by
/// `read`, `read_table` or `dictionary` in the model, or by `--param @`.
fn refused_everywhere(path: &Path, needle: &str) {
    let p = path.display();
    for call in [
        format!("read(\"{p}\")"),
        format!("read_table(\"{p}\")"),
        format!("dictionary(\"{p}\")"),
    ] {
        let model = format!("let t = {call}; var x in 1..2;");
        let run = run_solve(&scratch("refused.csp", model.as_bytes()), &[]);
        assert_eq!(run.code, 1, "{call}: {}", run.stderr);
        assert!(
            unwrapped(&run.stderr).contains(needle),
            "{call}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{call}: {}", run.stdout);
    }
    let model = scratch("param.csp", b"param s = \"\"; var x in 1..2;");
    let run = run_solve(&model, &["--param", &format!("s=@{p}")]);
    assert_eq!(run.code, 2, "@{p}: {}", run.stderr);
    assert!(
        unwrapped(&run.stderr).contains(needle),
        "@{p}: {}",
        run.stderr
    );
}

#[test]
fn devices_fifos_and_kernel_files_are_refused() {
    refused_everywhere(Path::new("/dev/zero"), "it is a device");
    refused_everywhere(Path::new("/dev/null"), "it is a device");
    refused_everywhere(Path::new("/dev/urandom"), "it is a device");
    // A FIFO without a writer: opening it for reading would wait forever.
    let fifo = files_dir().join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    match made {
        Ok(s) if s.success() => refused_everywhere(&fifo, "FIFO"),
        _ => eprintln!("skipped: mkfifo is not available"),
    }
    // Kernel pseudo-files claim a size of 0 or 4096 whatever they hold.
    if Path::new("/proc/self/status").exists() {
        refused_everywhere(Path::new("/proc/self/environ"), "kernel pseudo-file (proc)");
        refused_everywhere(Path::new("/proc/self/status"), "kernel pseudo-file (proc)");
        refused_everywhere(Path::new("/proc/cpuinfo"), "kernel pseudo-file (proc)");
    } else {
        eprintln!("skipped: no /proc");
    }
    let sys = Path::new("/sys/kernel/mm/transparent_hugepage/enabled");
    if sys.exists() {
        refused_everywhere(sys, "kernel pseudo-file (sysfs)");
    }
}

/// `read("/proc/self/environ")` used to print the environment.
#[test]
fn a_model_cannot_print_the_environment() {
    let model = scratch(
        "environ.csp",
        b"param p = \"/proc/self/environ\"; let t = read(p); var x in 1..2; output t;",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cspi"))
        .arg("solve")
        .arg(&model)
        .env("CSPI_HOSTILE_MARKER", "c0ffee-secret-marker")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(!all.contains("c0ffee-secret-marker"), "{all}");
}

/// `--param dict=@/etc/shadow` used to repeat the file in its message.
#[test]
fn messages_never_repeat_the_text_of_a_param_file() {
    let secret = scratch(
        "shadow",
        b"root:$6$SECRETMARKER$abc:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
    );
    let arg = |name: &str| format!("{name}=@{}", secret.display());
    // A path parameter given a file's text instead of the file's path.
    let model = scratch(
        "dict-param.csp",
        b"param dict = \"words.txt\"; let d = dictionary(dict); var w in words(d, 3);",
    );
    let run = run_solve(&model, &["--param", &arg("dict")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("is the text of"), "{}", run.stderr);
    assert!(!run.stderr.contains("SECRETMARKER"), "{}", run.stderr);
    // An integer parameter given a file.
    let model = scratch("int-param.csp", b"param n = 3; var x in 1..n;");
    let run = run_solve(&model, &["--param", &arg("n")]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("expected an integer"), "{}", run.stderr);
    assert!(!run.stderr.contains("SECRETMARKER"), "{}", run.stderr);
}

#[test]
fn byte_order_marks_are_dropped_everywhere() {
    let dir = files_dir();
    let bom = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("\u{FEFF}{text}")).unwrap();
        path
    };
    // The model file itself.
    let model = bom("bom-model.csp", "var x in 1..2; constraint x == 2;");
    let run = run_solve(&model, &[]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "x = 2\n"),
        "{}",
        run.stderr
    );
    // read(): the text has no mark.
    bom("bom.txt", "ab");
    let model = dir.join("bom-read.csp");
    std::fs::write(
        &model,
        "let t = read(\"bom.txt\"); let ok = assert(t == \"ab\", \"the mark was kept\"); var x in 1..2;",
    )
    .unwrap();
    let run = run_solve(&model, &["--count"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A dictionary: the first word keeps its first letter.
    bom("bom-words.txt", "ab\ncd\n");
    let model = dir.join("bom-dict.csp");
    std::fs::write(
        &model,
        "let d = dictionary(\"bom-words.txt\"); var w in words(d, 2); constraint w[1] == \"a\";",
    )
    .unwrap();
    let run = run_solve(&model, &["--count"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "1 solution (ALL_SOLUTIONS)\n"),
        "{}",
        run.stderr
    );
    // A table: the first row counts.
    bom("bom-rows.csv", "1,2\n2,3\n");
    let model = dir.join("bom-table.csp");
    std::fs::write(
        &model,
        "var x in 0..3; var y in 0..3; constraint table([x, y], read_table(\"bom-rows.csv\"));",
    )
    .unwrap();
    let run = run_solve(&model, &["--count"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "2 solutions (ALL_SOLUTIONS)\n"),
        "{}",
        run.stderr
    );
    // A puzzle given with --param @.
    let puzzle = bom("bom-puzzle.txt", "1234\n3412\n2143\n43..\n");
    let sudoku = common::model("sudoku.csp");
    let run = run_solve(
        &sudoku,
        &[
            "--param",
            "n=2",
            "--param",
            &format!("puzzle=@{}", puzzle.display()),
            "--count",
        ],
    );
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "1 solution (ALL_SOLUTIONS)\n"),
        "{}",
        run.stderr
    );
}

/// Models must reach only the sandbox's files, whatever the path.
#[test]
fn the_sandbox_confines_reads() {
    let root = files_dir().join("sandbox");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/in.txt"), "inside").unwrap();
    std::fs::write(files_dir().join("out.txt"), "outside").unwrap();
    let link = root.join("sub/link.txt");
    std::os::unix::fs::symlink(files_dir().join("out.txt"), &link).unwrap();
    // Every command that loads a model keeps to the sandbox (explain once
    // loaded it without).
    let commands: [&[&str]; 4] = [&["solve", "--count"], &["check"], &["explain"], &["bench"]];
    let model_in = |read: &str, command: &[&str]| {
        let path = root.join("sub/m.csp");
        std::fs::write(&path, format!("let t = read(\"{read}\"); var x in 1..2;")).unwrap();
        let mut args = vec![
            command[0],
            path.to_str().unwrap(),
            "--sandbox",
            root.to_str().unwrap(),
        ];
        args.extend_from_slice(&command[1..]);
        common::cspi_in(&std::env::temp_dir(), &args)
    };
    let model = |read: &str| model_in(read, commands[0]);
    for command in commands {
        let run = model_in("in.txt", command);
        assert_eq!(run.code, 0, "{command:?}: {}", run.stderr);
        let run = model_in("../../out.txt", command);
        assert_eq!(run.code, 1, "{command:?}: {}", run.stderr);
        assert!(
            unwrapped(&run.stderr).contains("outside the sandbox"),
            "{command:?}: {}",
            run.stderr
        );
    }
    for ok in [
        "in.txt",
        "../sub/in.txt",
        &root.join("sub/in.txt").display().to_string(),
    ] {
        let run = model(ok);
        assert_eq!(run.code, 0, "{ok}: {}", run.stderr);
    }
    let out = files_dir().join("out.txt").display().to_string();
    for outside in [
        "../../out.txt",
        out.as_str(),
        "link.txt",
        "/etc/passwd",
        "../../nothing-here.txt",
        "/nonexistent/x",
    ] {
        let run = model(outside);
        assert_eq!(run.code, 1, "{outside}: {}", run.stderr);
        assert!(
            unwrapped(&run.stderr).contains("outside the sandbox"),
            "{outside}: {}",
            run.stderr
        );
    }
    let run = model("missing.txt");
    assert!(run.stderr.contains("no such file"), "{}", run.stderr);
    // Without the sandbox the same model reads the file outside.
    let path = root.join("sub/m.csp");
    std::fs::write(&path, "let t = read(\"../../out.txt\"); var x in 1..2;").unwrap();
    assert_eq!(run_solve(&path, &["--count"]).code, 0);
    let run = run_solve(&path, &["--sandbox", "/nonexistent-sandbox"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// 100,000 levels of brackets: a diagnostic (it used to panic inside the
/// renderer, which cannot pad past 65,535 columns), drawn in a short window.
#[test]
fn nesting_a_hundred_thousand_deep_gives_a_readable_diagnostic() {
    const DEEP: usize = 100_000;
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
        let text = format!(
            "var x in 1..3; constraint {}x{} == 1;",
            open.repeat(DEEP),
            close.repeat(DEEP)
        );
        let run = run_solve(&scratch("deep-100k.csp", text.as_bytes()), &[]);
        assert_eq!(run.code, 1, "{open}: {}", run.stderr);
        assert!(
            run.stderr.contains("brackets nest 100000 levels deep"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("this bracket"), "{}", run.stderr);
        assert!(
            run.stderr.len() < 4000,
            "{} bytes of diagnostics",
            run.stderr.len()
        );
    }
    // Without brackets: prefix operators, quantifiers and conditionals.
    for (name, text) in [
        (
            "not",
            format!("var x in 1..3; constraint {}(x == 1);", "!".repeat(DEEP)),
        ),
        (
            "neg",
            format!("var x in 1..3; constraint {}x == 1;", "-".repeat(DEEP)),
        ),
        (
            "exists",
            format!(
                "var x in 1..3; constraint {}x == 1;",
                "exists i in 1..1: ".repeat(DEEP)
            ),
        ),
        (
            "if",
            format!(
                "var x in 1..3; let c = x >= 2; let d = x == 3; constraint {}d{};",
                "if c then ".repeat(DEEP),
                " else false end".repeat(DEEP)
            ),
        ),
    ] {
        let run = run_solve(&scratch("deep-ops.csp", text.as_bytes()), &["--count"]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
    }
}

/// An error at the end of a line of a million characters is shown in a
/// window of that line, with its real column.
#[test]
fn errors_on_huge_lines_are_drawn_in_a_window() {
    let text = format!(
        "var x in 1..3; constraint {}y == 1;",
        "x + ".repeat(150_000)
    );
    let run = run_solve(&scratch("long-line.csp", text.as_bytes()), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("unknown name `y`"), "{}", run.stderr);
    assert!(run.stderr.contains(":1:600027]"), "{}", run.stderr);
    assert!(
        run.stderr.len() < 4000,
        "{} bytes of diagnostics",
        run.stderr.len()
    );
    // A name a megabyte long is cut in the message.
    let name = "z".repeat(1 << 20);
    let text = format!("var x in 1..3; constraint {name} == 1;");
    let run = run_solve(&scratch("long-name.csp", text.as_bytes()), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("characters left out"), "{}", run.stderr);
    assert!(
        run.stderr.len() < 8000,
        "{} bytes of diagnostics",
        run.stderr.len()
    );
}

/// 22 nested `exists` in a 464-byte model once took 1.6 GB and 104 s within
/// the step budget: building is bounded by bytes (`--memory-limit`) and by
/// `--time-limit`, whichever comes first, each where it is crossed.
#[test]
fn building_a_model_is_bounded_by_bytes_and_by_the_time_limit() {
    let nested: String = (0..22).map(|k| format!("exists i{k} in 1..2: ")).collect();
    let text = format!("var x in 0..1;\nconstraint {nested}x == 1;\n");
    let path = scratch("nested-exists.csp", text.as_bytes());
    let (code, err) = solve(&path, &["--memory-limit", "64M"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cspi::memory"), "{err}");
    assert!(err.contains("more than 64 MiB"), "{err}");
    assert!(
        err.contains("exists i21 in 1..2"),
        "points at the construct: {err}"
    );
    // The default limit (1 GiB) refuses it too.
    let (code, err) = solve(&path, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cspi::memory"), "{err}");
    // With room to grow, the time limit stops the loading: no answer.
    let run = run_solve(&path, &["--memory-limit", "100G", "--time-limit", "0.5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("UNKNOWN"), "{}", run.stdout);
    assert!(
        run.stderr.contains("time limit ran out while"),
        "{}",
        run.stderr
    );
    // With --each, each instance's limit covers its own loading.
    let param = text.replace("var x in 0..1;", "param n: int;\nvar x in 0..n;");
    let path_n = scratch("nested-exists-n.csp", param.as_bytes());
    let lines = scratch("nested-exists-n.txt", b"1\n2\n");
    let each = format!("n={}", lines.to_str().unwrap());
    let run = run_solve(
        &path_n,
        &[
            "--each",
            &each,
            "--memory-limit",
            "100G",
            "--time-limit",
            "0.5",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("2 unknown, 0 with errors"),
        "{}",
        run.stdout
    );
    // Bad sizes are usage errors.
    let (code, err) = solve(&path, &["--memory-limit", "lots"]);
    assert_eq!(code, 2, "{err}");
}

/// One declaration of 20 million variables (of wide domains, which cost no
/// bitset) once took 4 GB and 30 s past `--memory-limit 100M`, its
/// variables made after the one check of the declaration: the limits are
/// read as they are made, and a set variable's members too.
#[test]
fn one_large_declaration_is_bounded_as_it_is_made() {
    for (name, text) in [
        ("wide-array.csp", "var x[1..20000000] in 0..1000000000;\n"),
        ("set-array.csp", "var s[1..2000000]: set of 1..20;\n"),
    ] {
        let path = scratch(name, text.as_bytes());
        let (code, err) = solve(&path, &["--memory-limit", "64M"]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("cspi::memory") && err.contains("more than 64 MiB"),
            "{err}"
        );
        let run = run_solve(&path, &["--memory-limit", "100G", "--time-limit", "0.2"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains("UNKNOWN"), "{}", run.stdout);
    }
}

/// `grid(text, N, symbols)`: symbols are one per value, distinct, and never
/// a blank.
#[test]
fn sudoku_symbols_are_validated() {
    for (symbols, needle) in [
        ("ABCDA", "appears twice"),
        ("AbCDa", "appears twice"),
        ("AB.D", "marks a blank"),
        ("AB0D", "marks a blank"),
        ("ABC", "needs 4 symbols, and these are 3"),
    ] {
        let text = format!("let g = grid(\"A...........\", 4, \"{symbols}\");\nvar x in 0..1;\n");
        expect_diagnostic("symbols.csp", text.as_bytes(), needle);
    }
    let ok = "let g = grid(\"A..B ....  .... ....\", 4, \"ABCD\");\nvar x in 0..1;\nconstraint x == g[1, 4] - 1;\noutput x;\n";
    let path = scratch("symbols-ok.csp", ok.as_bytes());
    let run = run_solve(&path, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("x = 1"), "{}", run.stdout);
}

/// A 70,000-word dictionary of CJK letters on a 2×2 picture grid once
/// tripped an `assert!` in the word-intersection propagator.
#[test]
fn a_large_cjk_dictionary_on_a_tiny_grid_solves() {
    let letters: Vec<char> = (0x4E00..0x4E00 + 20_000)
        .filter_map(char::from_u32)
        .collect();
    let mut words = std::collections::BTreeSet::new();
    let mut state = 7u64;
    while words.len() < 70_000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let a = letters[(state >> 33) as usize % letters.len()];
        let b = letters[(state >> 13) as usize % letters.len()];
        words.insert(format!("{a}{b}"));
    }
    let dict: String = words.iter().map(|w| format!("{w}\n")).collect();
    let dict_path = scratch("cjk-words.txt", dict.as_bytes());
    let grid_path = scratch("cjk-grid.txt", b"..\n..\n");
    let model = format!(
        "let words = dictionary({:?});\ncrossword xw = picture({:?}, words);\noutput xw;\n",
        dict_path.to_str().unwrap(),
        grid_path.to_str().unwrap()
    );
    let path = scratch("cjk.csp", model.as_bytes());
    for level in ["ac", "fc", "none"] {
        let run = run_solve(
            &path,
            &["--check-solutions", "-n", "3", "--propagation", level],
        );
        assert_eq!(run.code, 0, "{level}: {}", run.stderr);
        assert!(
            run.stdout.contains("3 solutions") || run.stdout.matches("---").count() >= 3,
            "{level}: {}",
            run.stdout
        );
    }
}

/// The documented constraint form `if c then f else g end` between truth
/// values was once rejected.
#[test]
fn if_then_else_between_constraints_is_a_constraint() {
    let path = scratch(
        "if-constraint.csp",
        b"var x in 0..3; var y in 0..1;\nconstraint if x > 1 then y == 0 else y == 1 end;\n",
    );
    for level in ["ac", "fc", "none"] {
        let run = run_solve(
            &path,
            &["--count", "--check-solutions", "--propagation", level],
        );
        assert_eq!(run.code, 0, "{level}: {}", run.stderr);
        // x in {0, 1} with y = 1, x in {2, 3} with y = 0.
        assert!(
            run.stdout.starts_with("4 solutions"),
            "{level}: {}",
            run.stdout
        );
    }
}
