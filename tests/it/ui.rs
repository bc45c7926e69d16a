//! Broken models and the diagnostics they must produce, snapshot style.
//!
//! Each `tests/ui/NAME.csp` is run as `cspi solve NAME.csp ARGS` from
//! tests/ui, where ARGS come from an optional first line `// args: ...`. The
//! exit code and stderr must equal `tests/ui/NAME.stderr` (first line
//! `exit: N`). Diagnostics are rendered without colour at a fixed width
//! (stderr is a pipe, and NO_COLOR is set). The absolute path of tests/ui,
//! which a missing file's diagnostic shows, is written `<tests/ui>`.
//!
//! The golden files are expect-test snapshots (`expect_file!`): to
//! regenerate them after a deliberate change,
//!     UPDATE_EXPECT=1 cargo test --release --test it ui::
//! and review the diff.

use crate::common;
use expect_test::expect_file;

use std::path::{Path, PathBuf};

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/ui")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "csp"))
        .collect();
    out.sort();
    out
}

/// `// args: a b c` on the first line, split on whitespace.
fn args_of(text: &str) -> Vec<String> {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("// args:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

#[test]
fn broken_models_give_their_diagnostics() {
    let dir = common::root().join("tests/ui");
    let cases = cases(&dir);
    // Issue 13 asks for at least 40 kinds of mistake; some kinds come by several routes.
    assert!(cases.len() >= 80, "the suite has {} cases", cases.len());
    let mut failures = Vec::new();
    let mut goldens = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_str().unwrap();
        let text = common::read(case);
        let mut args = vec!["solve".to_string(), name.to_string()];
        args.extend(args_of(&text));
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = common::cspi_in(&dir, &argv);

        // Invariants that hold whatever the golden file says.
        let mut problems = Vec::new();
        if !(r.code == 1 || r.code == 2) {
            problems.push(format!("exit code {} (expected 1 or 2)", r.code));
        }
        if r.stderr.contains("panicked") || r.stderr.contains("internal error") {
            problems.push("cspi panicked".to_string());
        }
        if !r.stdout.is_empty() {
            problems.push(format!("wrote to stdout: {}", r.stdout));
        }
        if r.stderr.trim().is_empty() {
            problems.push("no diagnostic".to_string());
        }
        if r.code == 1 && !r.stderr.contains("help:") {
            problems.push("a model error without a help line".to_string());
        }
        if r.stderr.contains('\u{1b}') {
            problems.push("colour escapes in stderr".to_string());
        }

        let actual = format!("exit: {}\n{}", r.code, in_any_checkout(&r.stderr, &dir));
        goldens.push((case.with_extension("stderr"), actual));
        if !problems.is_empty() {
            failures.push(format!("{name}: {}", problems.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    // Then each diagnostic against its golden file (`UPDATE_EXPECT=1`
    // rewrites them; a missing one reads as empty).
    for (golden, actual) in goldens {
        expect_file![golden].assert_eq(&actual);
    }
}

/// `text` with the absolute path of tests/ui (a missing file's diagnostic
/// says where it was looked for) written `<tests/ui>`, so that the golden
/// files hold in every checkout.
fn in_any_checkout(text: &str, dir: &Path) -> String {
    let mut out = text.to_string();
    let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    for d in [dir, real.as_path()] {
        out = out.replace(&d.display().to_string(), "<tests/ui>");
    }
    out
}

/// Every golden file belongs to a case (none left behind by a rename).
#[test]
fn no_orphan_golden_files() {
    let dir = common::root().join("tests/ui");
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "stderr") {
            assert!(p.with_extension("csp").exists(), "orphan {}", p.display());
        }
    }
}
