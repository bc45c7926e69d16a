//! `cspi check`: every error of a model in one run, and the warnings.

use crate::common;

use crate::common::cspi;

#[test]
fn every_error_in_one_run() {
    let r = cspi(&["check", "tests/check/many-errors.csp"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    for what in [
        "unknown name `y`",
        "unknown name `m`",
        "unknown variable selection `first-fail`",
        "unknown value selection `smallest`",
        "unknown propagation level `gac`",
        "cspi calls `first-fail` `mrv`",
        "cspi calls `gac` `ac`",
    ] {
        assert!(
            r.stderr.contains(what),
            "missing `{what}` in:\n{}",
            r.stderr
        );
    }
    // The type error on line 5 too.
    assert!(r.stderr.contains("many-errors.csp:5:"), "{}", r.stderr);
}

#[test]
fn warnings_point_at_likely_mistakes() {
    let r = cspi(&["check", "tests/check/warnings.csp"]);
    assert_eq!(r.code, 0, "warnings alone pass: {}", r.stderr);
    assert_eq!(
        r.stdout,
        "tests/check/warnings.csp: 5 variables, 2 constraints, 5 warnings\n"
    );
    for (code, what) in [
        ("cspi::warn::unused", "parameter `unused` is never used"),
        ("cspi::warn::unused", "`let` `twice` is never used"),
        (
            "cspi::warn::unconstrained",
            "no constraint mentions variable `lonely`",
        ),
        ("cspi::warn::always_true", "this constraint is always true"),
        (
            "cspi::warn::always_false",
            "this constraint is always false",
        ),
    ] {
        assert!(r.stderr.contains(code), "{code}: {}", r.stderr);
        assert!(r.stderr.contains(what), "{what}: {}", r.stderr);
    }
    assert!(r.stderr.contains("⚠"), "drawn as warnings: {}", r.stderr);
    let r = cspi(&["check", "tests/check/warnings.csp", "--deny-warnings"]);
    assert_eq!(r.code, 1);
}

#[test]
fn the_bundled_models_are_clean() {
    for entry in std::fs::read_dir(common::root().join("models")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csp") {
            continue;
        }
        let shown = path.to_str().unwrap();
        let r = cspi(&["check", shown]);
        if r.stderr.contains("cspi::param::missing") {
            continue; // a model that needs its data on the command line
        }
        assert_eq!(r.code, 0, "{shown}: {}", r.stderr);
        assert!(
            r.stdout.ends_with("no warnings\n"),
            "{shown}: {}{}",
            r.stdout,
            r.stderr
        );
    }
}

#[test]
fn check_does_not_solve() {
    // 30 queens counted would take hours; checking takes no time.
    let r = cspi(&["check", "models/n-queens.csp", "-p", "n=30"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "models/n-queens.csp: 30 variables, 3 constraints, no warnings\n"
    );
}
