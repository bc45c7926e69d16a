//! models/n-queens.csp: every solution checked against the rules, the set of
//! solutions compared with brute force for small n, and the counts for
//! n = 1..10 compared with the known values (OEIS A000170).

use crate::common;

use cspi::solve::ParamOverride;
use cspi::solve::{Limits, Next};
use cspi::solve::{LoadOptions, Options, Status, load, solve};
use std::collections::BTreeSet;
use std::sync::Arc;

/// All solutions of the model for `n`, as the column of the queen in each row.
fn model_solutions(n: usize) -> (Status, Vec<Vec<i64>>) {
    let over = [ParamOverride {
        name: "n".into(),
        value: n.to_string(),
    }];
    let model = Arc::new(
        load(
            &common::model("n-queens.csp"),
            &LoadOptions::with_params(&over),
        )
        .expect("model loads"),
    );
    let q = model.groups["q"].vars.clone();
    let options = Options {
        search: model.search.clone(),
        limits: Limits::default(),
        check: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    let summary = solve(&model, &options, |values| {
        out.push(q.iter().map(|&v| values[v]).collect());
        Next::Continue
    });
    assert!(summary.rejected.is_empty(), "n={n}: {:?}", summary.rejected);
    assert_eq!(summary.stats.solutions, out.len() as u64);
    (summary.status, out)
}

/// The rules: one queen per row (by construction), columns in 1..=n, no two
/// queens in the same column or on the same diagonal.
fn valid(n: usize, q: &[i64]) -> bool {
    q.len() == n
        && q.iter().all(|&c| (1..=n as i64).contains(&c))
        && (0..n).all(|i| {
            (i + 1..n).all(|j| q[i] != q[j] && (q[i] - q[j]).abs() != (j as i64 - i as i64))
        })
}

/// Every placement of one queen per row, filtered by [`valid`].
fn brute_force(n: usize) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let total = n.pow(n as u32);
    for mut k in 0..total {
        let q: Vec<i64> = (0..n)
            .map(|_| {
                let c = (k % n) as i64 + 1;
                k /= n;
                c
            })
            .collect();
        if valid(n, &q) {
            out.insert(q);
        }
    }
    out
}

#[test]
fn solutions_equal_brute_force_up_to_7() {
    for n in 1..=7 {
        let (status, sols) = model_solutions(n);
        let set: BTreeSet<Vec<i64>> = sols.iter().cloned().collect();
        assert_eq!(set.len(), sols.len(), "n={n}: a solution was repeated");
        assert_eq!(set, brute_force(n), "n={n}");
        let want = if sols.is_empty() {
            Status::Unsatisfiable
        } else {
            Status::AllSolutions
        };
        assert_eq!(status, want, "n={n}");
    }
}

#[test]
fn counts_match_known_values_up_to_10() {
    // OEIS A000170, n = 1..10.
    let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (i, &want) in known.iter().enumerate() {
        let n = i + 1;
        let (_, sols) = model_solutions(n);
        assert!(sols.iter().all(|q| valid(n, q)), "n={n}: invalid solution");
        let distinct: BTreeSet<_> = sols.iter().collect();
        assert_eq!(distinct.len(), sols.len(), "n={n}: repeated solution");
        assert_eq!(sols.len(), want, "n={n}");
    }
}

#[test]
fn checker_rejects_attacks() {
    assert!(valid(4, &[2, 4, 1, 3]));
    assert!(!valid(4, &[1, 3, 2, 4])); // 3 and 2 share a diagonal
    assert!(!valid(4, &[2, 4, 2, 3])); // same column
    assert!(!valid(4, &[2, 4, 1, 5])); // off the board
}
