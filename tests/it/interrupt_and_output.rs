//! Signals and write errors, through the binary: the first SIGINT or SIGTERM
//! stops the search as a limit does and the run still reports; a second one
//! exits at once; a reader that goes away ends the run quietly; a full disk or
//! a closed stdout is an error exit, never a panic or an abort.

use crate::common;
use crate::common::json::JsonRead;

use crate::common::json;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[&str], stdout: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(args)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cspi")
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("run kill")
        .success();
    assert!(ok, "kill -{name} failed");
}

/// Waits for the child with a hang guard; returns (exit code, stdout, stderr).
fn finish(mut child: Child) -> (i32, String, String) {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            o.read_to_string(&mut s).expect("read stdout");
        }
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).expect("read stderr");
        s
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        assert!(Instant::now() < deadline, "cspi did not stop");
        std::thread::sleep(Duration::from_millis(10));
    };
    let code = status
        .code()
        .expect("cspi exits, it is not killed by the signal");
    (code, t_out.join().unwrap(), t_err.join().unwrap())
}

/// A search far too long to finish: all 14,772,512 solutions of 16 queens.
const LONG: [&str; 5] = ["solve", "models/n-queens.csp", "-p", "n=16", "--count"];

#[test]
fn the_first_sigint_stops_the_search_and_reports() {
    let mut args = LONG.to_vec();
    args.extend(["--format", "json"]);
    let child = spawn(&args, Stdio::piped());
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, "INT");
    let (code, stdout, stderr) = finish(child);
    assert_eq!(code, 130, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let lines: Vec<_> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one summary line: {stdout}");
    let s = json::parse(lines[0]).expect("a whole JSON line");
    assert_eq!(s["type"].str(), "summary");
    assert_eq!(s["status"].str(), "UNKNOWN");
    assert_eq!(s["stopped_by"].str(), "interrupt");
    let count = s["solutions"].int();
    assert!(count > 0 && count < 14_772_512, "a count so far: {count}");
    assert_eq!(s["stats"]["solutions"].int(), count);
}

#[test]
fn sigterm_stops_the_search_and_keeps_every_solution_line_whole() {
    let args = [
        "solve",
        "models/n-queens.csp",
        "-p",
        "n=16",
        "--all",
        "--format",
        "json",
    ];
    let child = spawn(&args, Stdio::piped());
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, "TERM");
    let (code, stdout, stderr) = finish(child);
    assert_eq!(code, 143, "stderr: {stderr}");
    let lines: Vec<_> = stdout
        .lines()
        .map(|l| json::parse(l).unwrap_or_else(|e| panic!("a broken line ({e}): {l}")))
        .collect();
    let (summary, solutions) = lines.split_last().expect("lines");
    assert_eq!(summary["type"].str(), "summary");
    assert_eq!(summary["status"].str(), "UNKNOWN");
    assert_eq!(summary["solutions"].int(), solutions.len() as i64);
    assert!(!solutions.is_empty());
}

#[test]
fn human_output_says_the_search_was_interrupted() {
    let child = spawn(&LONG, Stdio::piped());
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, "INT");
    let (code, stdout, _) = finish(child);
    assert_eq!(code, 130);
    assert!(
        stdout.ends_with("so far (UNKNOWN: stopped by an interrupt)\n"),
        "{stdout}"
    );
}

#[test]
fn a_second_signal_exits_at_once() {
    // Nobody reads stdout: cspi blocks writing solutions into the full pipe,
    // so the first signal cannot be acted on; the second ends the process.
    // Each solution is 6 kB: a dozen fill the pipe.
    let dir = common::scratch("second-signal");
    let model = dir.join("wide.csp");
    std::fs::write(&model, "var x[1..3000] in 0..1;\n").unwrap();
    let args = ["solve", model.to_str().unwrap(), "--all"];
    let mut child = spawn(&args, Stdio::piped());
    std::thread::sleep(Duration::from_millis(1000));
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "blocked on the pipe, the first signal cannot finish the run"
    );
    signal(&child, "INT");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        assert!(
            Instant::now() < deadline,
            "the second signal did not end cspi"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
}

/// Runs a shell command line with `$CSPI` set, from the crate root.
fn sh(script: &str) -> (i32, String, String) {
    let child = Command::new("bash")
        .args(["-c", script])
        .env("CSPI", env!("CARGO_BIN_EXE_cspi"))
        .env("NO_COLOR", "1")
        .current_dir(common::root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sh");
    finish(child)
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    for format in ["human", "json"] {
        // pipefail: the pipeline's code is cspi's (head exits 0).
        let (code, stdout, stderr) = sh(&format!(
            "set -o pipefail; $CSPI solve models/n-queens.csp -p n=16 --all --format {format} | head -1"
        ));
        assert_eq!(code, 0, "{format}: {stderr}");
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        assert!(stderr.is_empty(), "quiet: {stderr}");
    }
}

#[test]
fn a_full_disk_is_an_error_exit() {
    let (code, _, stderr) = sh("$CSPI solve models/n-queens.csp -p n=6 >/dev/full");
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("cannot write the results"), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let (code, _, _) =
        sh("$CSPI solve models/n-queens.csp -p n=6 --count --format json >/dev/full");
    assert_eq!(code, 4);
}

#[test]
fn a_closed_stdout_stops_the_search() {
    // 16 queens has 14.7 million solutions: without the check this would run for minutes.
    let (code, _, stderr) = sh("$CSPI solve models/n-queens.csp -p n=16 --all >&-");
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("standard output is closed"), "{stderr}");
    let (code, _, _) = sh("$CSPI solve models/n-queens.csp -p n=16 --count >&-");
    assert_eq!(code, 4);
}

#[test]
fn a_dev_null_opened_read_write_is_not_a_closed_stdout() {
    // Python's subprocess.DEVNULL opens /dev/null read-write, as the Rust
    // runtime does on a closed descriptor: only a closed one stops the search.
    let (code, _, stderr) =
        sh("$CSPI solve models/n-queens.csp -p n=8 --count --stats 1<>/dev/null");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("nodes"), "{stderr}");
}

#[test]
fn a_broken_stderr_never_aborts() {
    // Errors go to stderr; a full or closed stderr loses them but keeps the exit code.
    for redirect in ["2>/dev/full", "2>&-"] {
        let (code, stdout, _) = sh(&format!(
            "$CSPI solve models/no-such-model.csp {redirect}; echo \"rc=$?\""
        ));
        assert_eq!(code, 0);
        assert_eq!(stdout, "rc=2\n", "{redirect}");
        let (_, stdout, _) = sh(&format!(
            "$CSPI solve models/n-queens.csp -p n=6 --stats {redirect}; echo \"rc=$?\""
        ));
        assert!(stdout.ends_with("rc=0\n"), "{redirect}: {stdout}");
    }
    // Both broken: still the exit code, no abort (134).
    let (_, stdout, _) =
        sh("$CSPI solve models/n-queens.csp -p n=6 >/dev/full 2>/dev/full; echo \"rc=$?\"");
    assert_eq!(stdout, "rc=4\n");
}
