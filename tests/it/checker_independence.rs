//! The independent checker evaluates the constraints as written, not as
//! folded: a bug in constant folding, sum merging or distribution makes the
//! engine report a wrong solution, and the checker must reject it rather than
//! share the bug. A wrong folding is injected by replacing a loaded model's
//! folded constraints with a plausible mis-folding; the engine then solves
//! the wrong problem and the checker, reading the written form, rejects it.

use cspi::model::check::violations;
use cspi::model::{CmpOp, Formula, Model, Term};
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, load as load_model, solve};
use std::path::Path;
use std::sync::Arc;

fn load(text: &str) -> Model {
    load_model(
        ModelSource::text("checker.csp", text),
        &LoadOptions::default(),
    )
    .expect("the model loads")
}

/// Solves with the checker on: (solutions found, solutions rejected).
fn solve_checked(model: &Model) -> (Vec<Vec<i64>>, Vec<String>) {
    let options = Options {
        check: true,
        ..Options::default()
    };
    let model = Arc::new(model.clone());
    let mut found = Vec::new();
    let s = solve(&model, &options, |v| {
        found.push(v[..model.vars.len()].to_vec());
        Next::Continue
    });
    assert!(matches!(
        s.status,
        Status::AllSolutions | Status::Unsatisfiable
    ));
    (found, s.rejected)
}

fn var(m: &Model, name: &str) -> Term {
    Term::Var(
        m.vars
            .iter()
            .position(|v| v.name == name)
            .expect("declared"),
    )
}

#[test]
fn the_written_form_keeps_sums_and_factors_as_written() {
    let m = load("var x in 0..3; var y in 0..3; constraint 2 * (x + y) - x == 5;");
    // Folded: one merged sum, `x + 2*y == 5`, no product left.
    assert_eq!(m.constraints.len(), 1);
    let folded = format!("{:?}", m.constraints[0]);
    assert!(!folded.contains("Mul"), "{folded}");
    // As written: the product of 2 and the sum `x + y` is still there.
    let written = m
        .written
        .as_ref()
        .expect("the library keeps the written form");
    assert_eq!(written.len(), 1);
    let shown = format!("{:?}", written[0]);
    assert!(shown.contains("Mul(Const(2), Linear("), "{shown}");
    // Both mean the same: exactly (1, 2) and (3, 1).
    let (found, rejected) = solve_checked(&m);
    assert!(rejected.is_empty(), "{rejected:?}");
    let mut found = found;
    found.sort();
    assert_eq!(found, vec![vec![1, 2], vec![3, 1]]);
}

#[test]
fn a_wrong_folding_is_rejected_by_the_checker() {
    let mut m = load("var x in 0..3; var y in 0..3; constraint 2 * (x + y) - x == 5;");
    // A folding bug that forgets to distribute the factor over `y`:
    // `x + y == 5` instead of `x + 2*y == 5`.
    let (x, y) = (var(&m, "x"), var(&m, "y"));
    m.constraints = vec![Formula::Cmp(
        CmpOp::Eq,
        Term::Linear(vec![(1, x), (1, y)], 0),
        Term::Const(5),
    )];
    let (found, rejected) = solve_checked(&m);
    // The engine solved the mis-folded model: (2, 3) and (3, 2), neither of
    // which satisfies the model as written (2 + 6 and 3 + 4 are not 5).
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(rejected.len(), 2, "every wrong solution is rejected");
    for values in &found {
        assert!(!violations(&m, values).is_empty(), "{values:?}");
    }
    // A checker that read the folded form would have passed them: this is
    // the blindness the written form removes.
    m.written = None;
    let (_, rejected) = solve_checked(&m);
    assert!(rejected.is_empty());
}

#[test]
fn a_saturating_fold_is_rejected_by_exact_evaluation() {
    // The issue-15 repro had `x * 2^62 * 2` folded, saturated, to `x * (2^63 - 1)`,
    // so x = 1 looked like a solution of `... == 2^63 - 1`. Today the load
    // refuses that product; the same bug on an accepted model: the written
    // `x * 2^31 * 2^31` is evaluated exactly, a saturated fold is not.
    let mut m =
        load("var x in 0..1; constraint x * 2147483648 * 2147483648 == 4611686018427387904;");
    let x = var(&m, "x");
    let saturated = Formula::Cmp(
        CmpOp::Eq,
        Term::Linear(vec![(i64::MAX, x)], 0),
        Term::Const(4611686018427387904),
    );
    // The true solution x = 1 passes; x = 0 does not.
    assert!(violations(&m, &[1]).is_empty());
    assert!(!violations(&m, &[0]).is_empty());
    // With the saturated fold, the engine finds nothing; with a fold that
    // drops the product entirely (`0 == 0`), it reports x = 0, which the
    // checker rejects.
    m.constraints = vec![saturated];
    assert!(solve_checked(&m).0.is_empty());
    m.constraints = vec![];
    let (found, rejected) = solve_checked(&m);
    assert_eq!(found.len(), 2);
    assert_eq!(rejected.len(), 1, "x = 0 is rejected: {rejected:?}");
}

#[test]
fn the_written_form_is_evaluated_exactly_near_64_bits() {
    // Folding drops `x * x * (x - x)` to 0; as written, the product `x * x`
    // comes within a hair of 2^63 (x near 2^31.5), and the checker computes
    // it exactly: every assignment is a solution, as in mathematics.
    let m = load("var x in 3037000498..3037000499; constraint x * x * (x - x) == 0;");
    let written = &m.written.as_ref().expect("kept")[0];
    let Formula::Cmp(_, lhs, _) = written else {
        panic!("{written:?}")
    };
    assert!(matches!(lhs, Term::Mul(..)), "the product stays: {lhs:?}");
    let (found, rejected) = solve_checked(&m);
    assert_eq!(found.len(), 2);
    assert!(rejected.is_empty(), "{rejected:?}");
}

#[test]
fn a_product_beyond_64_bits_is_refused_even_if_folded_away() {
    // As written, `x * x` leaves 64 bits (x near 2^62): the model is refused
    // (docs/language.md, exact integers), although folding would drop it.
    for text in [
        "var x in 4611686018427387904..4611686018427387906; constraint x * x * (x - x) == 0;",
        "var x in 1700000000000000000..1700000000000000002;\n\
         var z in 1700000000000000000..1700000000000000002;\n\
         constraint ((-5 * x) * z) * (z - z) == 0;",
    ] {
        let err = load_model(
            ModelSource::text("checker.csp", text),
            &LoadOptions::default(),
        )
        .expect_err("refused");
        assert!(format!("{err:?}").contains("cspi::arith::range"), "{err:?}");
    }
}

#[test]
fn every_bundled_model_keeps_its_written_form() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("models/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "csp") {
            continue;
        }
        let Ok(m) = load_model(&path, &LoadOptions::default()) else {
            continue; // needs parameters or data; covered where it is solved
        };
        let written = m.written.as_ref().unwrap_or_else(|| {
            panic!(
                "{}: the as-written run declared other variables",
                path.display()
            )
        });
        assert!(
            written.len() + m.folded.len() >= m.constraints.len(),
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 10, "only {seen} bundled models loaded");
}
