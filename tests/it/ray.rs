//! The Ray driver (contrib/ray/cspi_ray.py) on a local Ray cluster: a split
//! into 8 parts, one Ray task each, merged into the whole count.
//!
//! Ray is a Python package: `.ci/run` installs it into a virtual environment
//! and names its interpreter in `CSPI_RAY_PYTHON` (otherwise that virtual
//! environment, `target/ray-venv`, then `python3` is tried). Without Ray the test says so loudly on stderr (`RAY NOT TESTED`)
//! and passes, unless `CSPI_REQUIRE_RAY=1` (as CI sets), where it fails.

use crate::common;
use crate::common::json::JsonRead;

use crate::common::{root, scratch};
use std::process::Command;

/// `CSPI_RAY_PYTHON`, else the virtual environment `.ci/run` makes, else
/// `python3`.
fn python() -> String {
    if let Ok(p) = std::env::var("CSPI_RAY_PYTHON") {
        return p;
    }
    let venv = root().join("target/ray-venv/bin/python");
    if venv.exists() {
        return venv.display().to_string();
    }
    "python3".into()
}

/// Whether `python` can import Ray; when it cannot, says why (and fails if
/// Ray is required).
fn ray_available(python: &str) -> bool {
    let probe = Command::new(python)
        .args(["-c", "import ray; print(ray.__version__)"])
        .output();
    let why = match probe {
        Ok(out) if out.status.success() => return true,
        Ok(out) => String::from_utf8_lossy(&out.stderr)
            .lines()
            .last()
            .unwrap_or("")
            .to_string(),
        Err(e) => format!("cannot run {python}: {e}"),
    };
    let message = format!(
        "RAY NOT TESTED: `{python}` cannot import ray ({why}); install it (`.ci/run` does, into a virtual environment) and set CSPI_RAY_PYTHON"
    );
    if std::env::var("CSPI_REQUIRE_RAY").is_ok_and(|v| v == "1") {
        panic!("{message}");
    }
    // Straight to the process's stderr: the test harness hides `eprintln!`
    // of a passing test, and this must be seen.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
    false
}

#[test]
fn eight_ray_tasks_merge_into_the_whole_count() {
    let python = python();
    if !ray_available(&python) {
        return;
    }
    let out = scratch("ray-parts");
    let run = Command::new(&python)
        .arg(root().join("contrib/ray/cspi_ray.py"))
        .args([
            "--parts",
            "8",
            "--format",
            "json",
            "--cspi",
            env!("CARGO_BIN_EXE_cspi"),
        ])
        .arg("--out")
        .arg(&out)
        .args([
            "--",
            "solve",
            "models/n-queens.csp",
            "--param",
            "n=9",
            "--count",
        ])
        .current_dir(root())
        .output()
        .expect("run the Ray driver");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "driver failed:\n{stdout}\n{stderr}");
    let summary = common::json::parse(stdout.lines().last().expect("a summary")).unwrap();
    assert_eq!(summary["solutions"].int(), 352, "{stdout}");
    assert_eq!(summary["status"].str(), "ALL_SOLUTIONS");
    assert_eq!(summary["parts"].int(), 8);
    let files = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(files, 8, "one output per part");
    // The parts ran as Ray tasks, in Ray's worker processes, not the driver.
    let driver = stderr
        .lines()
        .find_map(|l| l.strip_prefix("ray ")?.split("driver pid ").nth(1))
        .unwrap_or_else(|| panic!("the driver reports its Ray cluster:\n{stderr}"));
    for k in 1..=8 {
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("part {k}/8: ")))
            .unwrap_or_else(|| panic!("part {k} reported:\n{stderr}"));
        let worker = line
            .split("on Ray worker ")
            .nth(1)
            .and_then(|w| w.split('/').nth(1))
            .unwrap_or_else(|| panic!("part {k} names its Ray worker: {line}"));
        assert_ne!(worker, driver, "part {k} ran in a Ray worker: {line}");
    }
}
