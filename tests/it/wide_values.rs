//! Wide values: domains of any i64 range held by their bounds, objectives
//! of any range lowered with bounds propagation, auxiliary terms computed
//! rather than searched, and folded sums evaluated exactly.

use cspi::model::Propagation;
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, Summary, load, solve};
use std::path::Path;
use std::sync::Arc;

fn run(text: &str, level: Propagation, count: bool) -> (Summary, Vec<Vec<i64>>) {
    let model = Arc::new(
        load(ModelSource::text("wide.csp", text), &LoadOptions::default()).expect("loads"),
    );
    let mut options = Options {
        check: true,
        count_only: count,
        ..Options::default()
    };
    options.search = model.search.clone();
    options.search.propagation = level;
    let mut sols = Vec::new();
    let s = solve(&model, &options, |v| {
        sols.push(v[..model.vars.len()].to_vec());
        Next::Continue
    });
    assert!(s.rejected.is_empty(), "{:?}", s.rejected);
    (s, sols)
}

const LEVELS: [Propagation; 3] = [Propagation::Ac, Propagation::Fc, Propagation::None];

/// An objective scaled by 100,000 needs the same search as the original:
/// its variable is held by bounds and propagates like a small one.
#[test]
fn scaled_objectives_prune_like_small_ones() {
    let knapsack = |scale: i64| {
        let values: Vec<String> = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72]
            .iter()
            .map(|v| (v * scale).to_string())
            .collect();
        format!(
            "let weight = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82];
             let value = [{}];
             var take[1..10] in 0..1;
             constraint sum(i in 1..10: weight[i] * take[i]) <= 165;
             maximize sum(i in 1..10: value[i] * take[i]);
             search take: var input, val max;",
            values.join(", ")
        )
    };
    let (small, a) = run(&knapsack(1), Propagation::Ac, false);
    let (large, b) = run(&knapsack(100_000), Propagation::Ac, false);
    assert_eq!(small.status, Status::Optimal);
    assert_eq!(large.status, Status::Optimal);
    assert_eq!(a.last(), b.last(), "the same optimal selection");
    assert_eq!(small.stats.nodes, large.stats.nodes);
    assert_eq!(large.objective, Some(30_900_000));
}

/// Tiny models with wide auxiliary terms: the terms are computed from the
/// decision variables at every level, never branched on value by value.
#[test]
fn auxiliary_terms_are_computed_not_searched() {
    let cases = [
        // (model, solutions, most nodes)
        (
            "var x in {0, 1000000}; var y in 0..1;
             constraint (if y == 0 then x else 0 end) != 5;",
            4,
            20,
        ),
        (
            "var x in {0, 3000}; var y in 0..3000; constraint abs(x - y) >= 2;",
            5998,
            2 * 2 * 3001 + 10,
        ),
    ];
    for (text, want, most) in cases {
        for level in LEVELS {
            let (s, _) = run(text, level, true);
            assert_eq!(s.stats.solutions, want, "{level:?}: {text}");
            assert!(
                s.stats.nodes <= most,
                "{level:?}: {} nodes: {text}",
                s.stats.nodes
            );
        }
    }
}

/// Folding may distribute a constant over a sum (`2^62 * (x - 2)` becomes
/// `2^62 * x - 2^63`), whose partial sums leave i64 where the sum as written
/// does not: sums are evaluated and lowered exactly.
#[test]
fn folded_sums_are_exact() {
    for level in LEVELS {
        let (s, sols) = run(
            "var x in 2..3; constraint 4611686018427387904 * (x - 2) >= 0;",
            level,
            false,
        );
        assert_eq!(s.status, Status::AllSolutions);
        assert_eq!(sols, vec![vec![2], vec![3]], "{level:?}");
    }
}

/// Any range of i64 is a domain; decisions on a bounds-only domain take a
/// bound, so enumeration terminates and finds each value once.
#[test]
fn intervals_enumerate_exactly() {
    let (s, sols) = run(
        // The widest x for which x * 2 + y stays within i64 (exact integers).
        "var x in -2^62..2^62 - 1; var y in 0..1; constraint x * 2 + y == 2^62 + 1;",
        Propagation::Ac,
        false,
    );
    assert_eq!(s.status, Status::AllSolutions);
    assert_eq!(sols, vec![vec![1 << 61, 1]]);
}

/// A quotient's auxiliary variable is bounded by the corners of its
/// arguments (9999 * M / 1000 with M in 1..9 is 9..89, not ±89991): with the
/// loose bounds, products of it and a linear sum narrowed each other step by
/// step, about 540,000 propagator runs at a single leaf (a fuzz finding:
/// 39 s for 2,000 nodes under `none`).
#[test]
fn quotients_are_bounded_by_their_arguments() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz-regressions/pipeline-timeout-division-bounds.csp"),
    )
    .expect("the regression input");
    let model = Arc::new(
        load(
            ModelSource::text("division.csp", &text),
            &LoadOptions::default(),
        )
        .expect("loads"),
    );
    for level in LEVELS {
        let mut options = Options {
            check: true,
            ..Options::default()
        };
        options.search = model.search.clone();
        options.search.propagation = level;
        options.limits.nodes = Some(2000);
        let s = solve(&model, &options, |_| Next::Continue);
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
        assert!(
            s.stats.propagations < 100_000,
            "{level:?}: {} propagations",
            s.stats.propagations
        );
    }
}
