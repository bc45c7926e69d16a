//! Long linear constraints (32 terms and more keep their bounds
//! incrementally on the trail): solution counts of random models with long
//! sums against a count by dynamic programming over partial sums, computed
//! here without cspi, under forward checking and arc consistency and several
//! strategies (`none` checks a sum only at its leaves).
//! Every solution is re-checked by the independent checker.

use cspi::model::search::Named;
use cspi::model::{Model, Propagation, ValSelect, VarSelect};
use cspi::solve::Limits;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, load, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
enum Op {
    Eq,
    Ne,
    Le,
    Ge,
}

impl Op {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Le => a <= b,
            Op::Ge => a >= b,
        }
    }
    fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Le => "<=",
            Op::Ge => ">=",
        }
    }
}

/// `sum(coefs[i] * x[i]) op rhs`, one coefficient per variable (0 = absent).
struct Sum {
    coefs: Vec<i64>,
    op: Op,
    rhs: i64,
}

struct Case {
    n: usize,
    domain: Vec<i64>,
    sums: Vec<Sum>,
}

impl Case {
    fn text(&self) -> String {
        let values: Vec<String> = self.domain.iter().map(i64::to_string).collect();
        let mut s = format!("var x[1..{}] in {{{}}};\n", self.n, values.join(", "));
        for sum in &self.sums {
            let terms: Vec<String> = sum
                .coefs
                .iter()
                .enumerate()
                .filter(|(_, a)| **a != 0)
                .map(|(i, a)| format!("{a} * x[{}]", i + 1))
                .collect();
            s += &format!(
                "constraint {} {} {};\n",
                terms.join(" + "),
                sum.op.text(),
                sum.rhs
            );
        }
        s
    }

    /// The number of solutions, by dynamic programming over the vector of
    /// partial sums (one per constraint), variable by variable.
    fn count(&self) -> u64 {
        let mut states: HashMap<Vec<i64>, u64> = HashMap::new();
        states.insert(vec![0; self.sums.len()], 1);
        for i in 0..self.n {
            let mut next: HashMap<Vec<i64>, u64> = HashMap::new();
            for (partial, ways) in &states {
                for &v in &self.domain {
                    let key: Vec<i64> = partial
                        .iter()
                        .zip(&self.sums)
                        .map(|(p, s)| p + s.coefs[i] * v)
                        .collect();
                    *next.entry(key).or_default() += ways;
                }
            }
            states = next;
        }
        states
            .iter()
            .filter(|(partial, _)| {
                partial
                    .iter()
                    .zip(&self.sums)
                    .all(|(p, s)| s.op.holds(*p, s.rhs))
            })
            .map(|(_, ways)| ways)
            .sum()
    }
}

/// A model whose solutions are few enough to enumerate: a tight equality
/// or upper bound over non-negative weights, plus sometimes a second long
/// constraint of any kind and sign.
fn generate(rng: &mut Xoshiro256PlusPlus) -> Case {
    let n = rng.random_range(32..=48usize);
    let domain = if rng.random_bool(0.5) {
        vec![0, 1]
    } else {
        vec![0, 1, 2]
    };
    let weights: Vec<i64> = (0..n).map(|_| rng.random_range(1..=4)).collect();
    let tight = rng.random_range(2..=5);
    let first = if rng.random_bool(0.5) {
        Sum {
            coefs: weights,
            op: Op::Eq,
            rhs: tight,
        }
    } else {
        // The same bound written with negated weights: `-w.x >= -t`.
        Sum {
            coefs: weights.iter().map(|w| -w).collect(),
            op: Op::Ge,
            rhs: -tight,
        }
    };
    let mut sums = vec![first];
    if rng.random_bool(0.7) {
        let coefs = (0..n)
            .map(|_| {
                if rng.random_bool(0.2) {
                    0
                } else {
                    rng.random_range(-3..=3)
                }
            })
            .collect();
        let op = [Op::Eq, Op::Ne, Op::Le, Op::Ge][rng.random_range(0..4usize)];
        sums.push(Sum {
            coefs,
            op,
            rhs: rng.random_range(-3..=3),
        });
    }
    Case { n, domain, sums }
}

fn count_with(
    model: &Arc<Model>,
    var: VarSelect,
    val: ValSelect,
    level: Propagation,
) -> (Status, u64) {
    let mut options = Options {
        search: model.search.clone(),
        limits: Limits::default(),
        check: true,
        count_only: true,
        ..Options::default()
    };
    options.search.var = var;
    options.search.val = val;
    options.search.propagation = level;
    let summary = solve(model, &options, |_| cspi::solve::Next::Continue);
    assert!(
        summary.rejected.is_empty(),
        "checker rejected: {:?}",
        summary.rejected
    );
    (summary.status, summary.stats.solutions)
}

#[test]
fn long_sums_count_like_dynamic_programming() {
    let cases: u64 = std::env::var("CSPI_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(40, |n: u64| n / 10);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20_261_129);
    let strategies = [
        (VarSelect::Input, ValSelect::Min),
        (VarSelect::Mrv, ValSelect::Max),
        (VarSelect::DomWdeg, ValSelect::Random),
    ];
    for case_no in 0..cases {
        let case = generate(&mut rng);
        let src = case.text();
        let model = Arc::new(
            load(ModelSource::text("long.csp", &src), &LoadOptions::default())
                .unwrap_or_else(|e| panic!("case {case_no} does not load: {e:?}\n{src}")),
        );
        let expected = case.count();
        for &(var, val) in &strategies {
            for &level in Propagation::ALL.iter().map(|(_, v)| v) {
                if level == Propagation::None {
                    continue; // checks a sum only once all its terms are set: 2^32 leaves and more
                }
                let (status, got) = count_with(&model, var, val, level);
                let want = if expected == 0 {
                    Status::Unsatisfiable
                } else {
                    Status::AllSolutions
                };
                assert_eq!(
                    (status, got),
                    (want, expected),
                    "case {case_no}, {var:?}/{val:?}/{level:?}\n{src}"
                );
            }
        }
    }
}

/// `sum(x) == k` over a million 0/1 variables: the first solution in
/// linear time (each node moves one bound of the kept sums).
#[test]
fn a_sum_over_a_million_variables_is_solved() {
    let src = "var x[1..1000000] in 0..1;\nconstraint sum(x) == 3;\n";
    let model = Arc::new(
        load(
            ModelSource::text("million.csp", src),
            &LoadOptions::default(),
        )
        .unwrap(),
    );
    let options = Options {
        search: model.search.clone(),
        limits: Limits {
            solutions: Some(1),
            ..Limits::default()
        },
        check: true,
        ..Options::default()
    };
    let mut ones = 0;
    let summary = solve(&model, &options, |values| {
        ones = values.iter().filter(|&&v| v == 1).count();
        cspi::solve::Next::Stop
    });
    assert!(summary.rejected.is_empty());
    assert_eq!(ones, 3);
    assert_eq!(summary.stats.failures, 0);
}
