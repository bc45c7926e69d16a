//! Golden tests of search order: the first decisions of every variable and
//! value heuristic (and of random tie-breaking and restarts) on one small
//! model, so that any change in search order shows up in review.
//! The golden file is an expect-test snapshot:
//! `UPDATE_EXPECT=1 cargo test --release --test it search_order` rewrites it.

use cspi::model::search::Named;
use cspi::model::{Guide, LnsKind, Propagation, Restarts, ValSelect, VarSelect};
use cspi::run::Branch;
use cspi::solve::{LoadOptions, ModelSource, Options, load, solve};
use expect_test::expect_file;
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;

const MODEL: &str = "
var a in 1..4;
var b in 1..3;
var c in {1, 3, 5};
var d in 0..6;
var e in 2..4;
var f in 1..9;
constraint a != b;
constraint b + c <= 6;
constraint alldifferent([a, c, e]);
constraint d == a + e - 1;
constraint c != d;
constraint f >= 2 * b;
";

fn trace(
    var: VarSelect,
    val: ValSelect,
    level: Propagation,
    ties: bool,
    restarts: Restarts,
) -> String {
    let model = Arc::new(
        load(
            ModelSource::text("order.csp", MODEL),
            &LoadOptions::default(),
        )
        .expect("loads"),
    );
    let mut options = Options {
        trace: Some(12),
        check: true,
        ..Options::default()
    };
    options.search.var = var;
    options.search.val = val;
    options.search.propagation = level;
    options.search.random_ties = ties;
    options.search.restarts = restarts;
    options.search.seed = 7;
    options.limits.solutions = Some(1);
    let summary = solve(&model, &options, |_| cspi::solve::Next::Continue);
    assert!(summary.rejected.is_empty());
    let mut out = String::new();
    for d in &summary.trace {
        let name = &model.vars[d.var].name;
        let text = match (d.branch, d.right) {
            (Branch::Assign(v), false) => format!("{name}={v}"),
            (Branch::Assign(v), true) => format!("{name}!={v}"),
            (Branch::AtMost(v), false) => format!("{name}<={v}"),
            (Branch::AtMost(v), true) => format!("{name}>{v}"),
        };
        let _ = write!(out, "{text} ");
    }
    out.trim_end().to_string()
}

#[test]
fn first_decisions_of_every_heuristic() {
    let mut got = String::new();
    for level in [Propagation::Ac, Propagation::Fc, Propagation::None] {
        for &(vn, var) in VarSelect::ALL {
            for &(ln, val) in ValSelect::ALL {
                if val == ValSelect::Score {
                    continue; // needs a scored dictionary
                }
                let t = trace(var, val, level, false, Restarts::None);
                let _ = writeln!(got, "{} {vn} {ln}: {t}", level.name());
            }
        }
    }
    for &(vn, var) in [("mrv", VarSelect::Mrv), ("degree", VarSelect::Degree)].iter() {
        let t = trace(var, ValSelect::Min, Propagation::Ac, true, Restarts::None);
        let _ = writeln!(got, "ac {vn} min, random ties: {t}");
    }
    let t = trace(
        VarSelect::DomWdeg,
        ValSelect::Min,
        Propagation::Ac,
        false,
        Restarts::Luby,
    );
    let _ = writeln!(got, "ac dom-wdeg min, luby: {t}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search-order.txt");
    // Reviewed like any diff: `UPDATE_EXPECT=1` rewrites tests/search-order.txt.
    expect_file![path].assert_eq(&got);
}

/// The first `n` decisions of `model` (text) under `var` and `level`, as
/// variable names; the model's own search item gives the scope.
fn first_decisions(model: &str, var: VarSelect, level: Propagation, n: usize) -> Vec<String> {
    let model = Arc::new(
        load(
            ModelSource::text("scope.csp", model),
            &LoadOptions::default(),
        )
        .expect("loads"),
    );
    let mut options = Options {
        trace: Some(n),
        threads: 1,
        ..Options::default()
    };
    options.search = model.search.clone();
    options.search.var = var;
    options.search.propagation = level;
    options.limits.solutions = Some(1);
    let summary = solve(&model, &options, |_| cspi::solve::Next::Continue);
    summary
        .trace
        .iter()
        .map(|d| model.vars[d.var].name.clone())
        .collect()
}

/// The scope of a search item is branched first under every variable
/// selection and propagation level, in its stated order under `input`
/// (issue 25: `mrv` took `b`, of three values, before the scope's `f`).
#[test]
fn the_scope_is_branched_first() {
    let scoped = format!("{MODEL}search f, c: var input;");
    for level in [Propagation::Ac, Propagation::Fc, Propagation::None] {
        for &(name, var) in VarSelect::ALL {
            let got = first_decisions(&scoped, var, level, 12);
            let first = got.first().map(String::as_str);
            assert!(
                matches!(first, Some("f" | "c")),
                "{} {name}: {got:?}",
                level.name()
            );
            if var == VarSelect::Input {
                assert_eq!(got[0], "f", "input follows the scope's order");
            }
        }
    }
}

/// models/warehouse.csp branches on the suppliers, whatever the selection:
/// `open`, declared first and of two values, is never decided before them.
#[test]
fn warehouse_search_keeps_to_its_scope() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/warehouse.csp");
    let text = std::fs::read_to_string(path).expect("models/warehouse.csp");
    for &(name, var) in VarSelect::ALL {
        let got = first_decisions(&text, var, Propagation::Ac, 20);
        assert_eq!(got.len(), 20, "{name}");
        assert!(
            got.iter().all(|v| v.starts_with("supplier")),
            "{name}: {got:?}"
        );
    }
}

/// Every strategy name of the one list in `model/search.rs` is documented
/// in docs/search.md, and `--help` lists it.
#[test]
fn every_strategy_name_is_documented_and_in_help() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/search.md"))
            .expect("docs/search.md");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(["solve", "--help"])
        .output()
        .expect("cspi runs");
    let help = String::from_utf8_lossy(&help.stdout);
    let mut names: Vec<&str> = Vec::new();
    names.extend(VarSelect::names());
    names.extend(ValSelect::names());
    names.extend(Propagation::names());
    names.extend(Restarts::names());
    names.extend(Guide::names());
    names.extend(LnsKind::names());
    for name in names {
        assert!(
            docs.contains(&format!("| `{name}` |")),
            "docs/search.md lacks a row for `{name}`"
        );
        assert!(
            help.contains(name),
            "`cspi solve --help` does not list `{name}`"
        );
    }
}
