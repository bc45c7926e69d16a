//! Hostile input: every case ends with a diagnostic or an answer, in bounded
//! time, never a crash (exit codes 0, 1 or 2 only; 3 or a signal is a bug).

use std::path::PathBuf;
use std::process::Command;

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

/// Runs `cspi solve` and returns (exit code, stderr).
fn solve(path: &std::path::Path, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .arg("solve")
        .arg(path)
        .args(extra)
        .output()
        .expect("cspi runs");
    let code = out.status.code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&out.stderr).into_owned())
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
            "var x in -2^62..2^62; constraint 3 * x == 2^62 - 1;",
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
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
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
