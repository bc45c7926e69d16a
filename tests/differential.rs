//! Differential testing: random small models, written as .csp text, are
//! solved by cspi under every search strategy and propagation level, and by
//! brute force over the same constraints evaluated here in Rust (not through
//! cspi's parser, model or propagators). The solution *sets* must be equal.
//!
//! `CSPI_DIFF_CASES=N` runs N models instead of the default.

use cspi::engine::search::{Limits, Next};
use cspi::model::search::Named;
use cspi::model::{Model, Propagation, ValSelect, VarSelect};
use cspi::solve::{Options, Status, load_str, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
    fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

/// A constraint as this test understands it.
#[derive(Clone, Debug)]
enum C {
    AllDiff(Vec<usize>),
    /// `x op y + c`
    Cmp(usize, Op, usize, i64),
    /// `sum(a * x) op c`
    Linear(Vec<(i64, usize)>, Op, i64),
    /// `(x == a) -> (y != b)`
    Implies(usize, i64, usize, i64),
    /// `abs(x - y) op c`
    AbsDiff(usize, usize, Op, i64),
    /// `x * y op c`
    Product(usize, usize, Op, i64),
    /// `(x == a) || (y == b)`
    Or(usize, i64, usize, i64),
}

impl C {
    fn holds(&self, v: &[i64]) -> bool {
        match self {
            C::AllDiff(xs) => {
                let set: BTreeSet<i64> = xs.iter().map(|&x| v[x]).collect();
                set.len() == xs.len()
            }
            C::Cmp(x, op, y, c) => op.holds(v[*x], v[*y] + c),
            C::Linear(terms, op, c) => op.holds(terms.iter().map(|&(a, x)| a * v[x]).sum(), *c),
            C::Implies(x, a, y, b) => v[*x] != *a || v[*y] != *b,
            C::AbsDiff(x, y, op, c) => op.holds((v[*x] - v[*y]).abs(), *c),
            C::Product(x, y, op, c) => op.holds(v[*x] * v[*y], *c),
            C::Or(x, a, y, b) => v[*x] == *a || v[*y] == *b,
        }
    }

    fn text(&self) -> String {
        let n = |x: &usize| format!("x{x}");
        match self {
            C::AllDiff(xs) => format!(
                "alldifferent([{}])",
                xs.iter().map(n).collect::<Vec<_>>().join(", ")
            ),
            C::Cmp(x, op, y, c) => format!("{} {} {} + {c}", n(x), op.text(), n(y)),
            C::Linear(terms, op, c) => {
                let parts: Vec<String> = terms
                    .iter()
                    .map(|(a, x)| format!("{a} * {}", n(x)))
                    .collect();
                format!("{} {} {c}", parts.join(" + "), op.text())
            }
            C::Implies(x, a, y, b) => format!("({} == {a}) -> ({} != {b})", n(x), n(y)),
            C::AbsDiff(x, y, op, c) => format!("abs({} - {}) {} {c}", n(x), n(y), op.text()),
            C::Product(x, y, op, c) => format!("{} * {} {} {c}", n(x), n(y), op.text()),
            C::Or(x, a, y, b) => format!("{} == {a} || {} == {b}", n(x), n(y)),
        }
    }
}

struct Case {
    domains: Vec<Vec<i64>>,
    constraints: Vec<C>,
}

fn op(rng: &mut Xoshiro256PlusPlus) -> Op {
    [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge][rng.random_range(0..6usize)]
}

fn generate(rng: &mut Xoshiro256PlusPlus) -> Case {
    let n = rng.random_range(2..=5usize);
    let domains: Vec<Vec<i64>> = (0..n)
        .map(|_| {
            if rng.random_bool(0.5) {
                let lo = rng.random_range(-2..=2i64);
                (lo..=lo + rng.random_range(0..=4i64)).collect()
            } else {
                let mut v: Vec<i64> = (0..rng.random_range(1..=4))
                    .map(|_| rng.random_range(-3..=5i64))
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
        })
        .collect();
    let var = |rng: &mut Xoshiro256PlusPlus| rng.random_range(0..n);
    let constraints = (0..rng.random_range(1..=4))
        .map(|_| match rng.random_range(0..7) {
            0 => {
                let mut xs: Vec<usize> = (0..n).filter(|_| rng.random_bool(0.6)).collect();
                if xs.len() < 2 {
                    xs = vec![0, 1];
                }
                C::AllDiff(xs)
            }
            1 => C::Cmp(var(rng), op(rng), var(rng), rng.random_range(-2..=2)),
            2 => {
                let terms = (0..rng.random_range(1..=3))
                    .map(|_| (rng.random_range(-3..=3i64), var(rng)))
                    .collect();
                C::Linear(terms, op(rng), rng.random_range(-5..=5))
            }
            3 => C::Implies(
                var(rng),
                rng.random_range(-1..=3),
                var(rng),
                rng.random_range(-1..=3),
            ),
            4 => C::AbsDiff(var(rng), var(rng), op(rng), rng.random_range(0..=3)),
            5 => C::Product(var(rng), var(rng), op(rng), rng.random_range(-4..=6)),
            _ => C::Or(
                var(rng),
                rng.random_range(-1..=3),
                var(rng),
                rng.random_range(-1..=3),
            ),
        })
        .collect();
    Case {
        domains,
        constraints,
    }
}

fn text(case: &Case) -> String {
    let mut s = String::new();
    for (i, d) in case.domains.iter().enumerate() {
        let vals: Vec<String> = d.iter().map(i64::to_string).collect();
        s += &format!("var x{i} in {{{}}};\n", vals.join(", "));
    }
    for c in &case.constraints {
        s += &format!("constraint {};\n", c.text());
    }
    s
}

/// Every solution, by enumerating the cartesian product.
fn brute_force(case: &Case) -> BTreeSet<Vec<i64>> {
    let mut out = BTreeSet::new();
    let n = case.domains.len();
    let mut idx = vec![0usize; n];
    loop {
        let v: Vec<i64> = (0..n).map(|i| case.domains[i][idx[i]]).collect();
        if case.constraints.iter().all(|c| c.holds(&v)) {
            out.insert(v);
        }
        let mut k = 0;
        loop {
            if k == n {
                return out;
            }
            idx[k] += 1;
            if idx[k] < case.domains[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// Solutions found by cspi under one strategy, as values of x0..x(n-1).
fn solve_with(
    model: &Arc<Model>,
    var: VarSelect,
    val: ValSelect,
    level: Propagation,
    seed: u64,
) -> (Status, Vec<Vec<i64>>) {
    let ids: Vec<usize> = (0..model.groups.len())
        .map(|i| model.groups[&format!("x{i}")].vars[0])
        .collect();
    let mut options = Options {
        search: model.search.clone(),
        limits: Limits::default(),
        check: true,
        ..Options::default()
    };
    options.search.var = var;
    options.search.val = val;
    options.search.propagation = level;
    options.search.seed = seed;
    let mut found = Vec::new();
    let summary = solve(model, &options, |values| {
        found.push(ids.iter().map(|&i| values[i]).collect());
        Next::Continue
    });
    assert!(
        summary.rejected.is_empty(),
        "checker rejected: {:?}",
        summary.rejected
    );
    (summary.status, found)
}

#[test]
fn random_models_agree_with_brute_force_under_every_strategy() {
    let cases: u64 = std::env::var("CSPI_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20261129);
    for case_no in 0..cases {
        let case = generate(&mut rng);
        let src = text(&case);
        let model = Arc::new(
            load_str("random.csp", &src, Path::new("."), &[])
                .unwrap_or_else(|e| panic!("case {case_no} does not load: {e:?}\n{src}")),
        );
        let expected = brute_force(&case);
        for &var in VarSelect::ALL.iter().map(|(_, v)| v) {
            for &val in ValSelect::ALL.iter().map(|(_, v)| v) {
                for &level in Propagation::ALL.iter().map(|(_, v)| v) {
                    let (status, found) = solve_with(&model, var, val, level, case_no);
                    let set: BTreeSet<Vec<i64>> = found.iter().cloned().collect();
                    let combo = format!("{} / {} / {}", var.name(), val.name(), level.name());
                    assert_eq!(
                        set.len(),
                        found.len(),
                        "case {case_no}, {combo}: a solution was reported twice\n{src}"
                    );
                    assert_eq!(
                        set, expected,
                        "case {case_no}, {combo}: wrong solutions\n{src}"
                    );
                    let want = if expected.is_empty() {
                        Status::Unsatisfiable
                    } else {
                        Status::AllSolutions
                    };
                    assert_eq!(status, want, "case {case_no}, {combo}\n{src}");
                }
            }
        }
    }
}

/// Random word models: a small dictionary over a three-letter alphabet, word
/// variables of two or three letters, random crossings `w[i] == v[j]`, fixed
/// letters, and sometimes all-different; solution sets against brute force.
#[test]
fn random_word_models_agree_with_brute_force_under_every_strategy() {
    let cases: u64 = std::env::var("CSPI_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
        / 3;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7_2026);
    let dir = std::env::temp_dir().join(format!("cspi-diff-words-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case_no in 0..cases {
        // The dictionary: random distinct words of length 2 and 3.
        let mut dict: BTreeSet<String> = BTreeSet::new();
        for _ in 0..rng.random_range(3..12) {
            let len = rng.random_range(2..=3);
            dict.insert(
                (0..len)
                    .map(|_| ['a', 'b', 'c'][rng.random_range(0..3usize)])
                    .collect(),
            );
        }
        let path = dir.join(format!("dict-{case_no}.txt"));
        std::fs::write(&path, dict.iter().cloned().collect::<Vec<_>>().join("\n")).unwrap();
        let n = rng.random_range(2..=4usize);
        let lens: Vec<usize> = (0..n).map(|_| rng.random_range(2..=3)).collect();
        // Constraints: (a, i, b, j) crossings, (a, i, letter) givens, all-different.
        let mut crossings = Vec::new();
        let mut givens = Vec::new();
        for _ in 0..rng.random_range(1..=4) {
            let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
            if a != b {
                crossings.push((
                    a,
                    rng.random_range(0..lens[a]),
                    b,
                    rng.random_range(0..lens[b]),
                ));
            } else {
                givens.push((
                    a,
                    rng.random_range(0..lens[a]),
                    ['a', 'b', 'c'][rng.random_range(0..3usize)],
                ));
            }
        }
        let distinct = rng.random_bool(0.3);
        let mut src = format!("let d = dictionary(\"{}\");\n", path.display());
        for (k, l) in lens.iter().enumerate() {
            src += &format!("var w{k} in words(d, {l});\n");
        }
        for (a, i, b, j) in &crossings {
            src += &format!("constraint w{a}[{}] == w{b}[{}];\n", i + 1, j + 1);
        }
        for (a, i, c) in &givens {
            src += &format!("constraint w{a}[{}] == \"{c}\";\n", i + 1);
        }
        if distinct {
            let all: Vec<String> = (0..n).map(|k| format!("w{k}")).collect();
            src += &format!("constraint alldifferent([{}]);\n", all.join(", "));
        }
        // Brute force over the words of each length.
        let by_len = |l: usize| {
            dict.iter()
                .filter(|w| w.len() == l)
                .cloned()
                .collect::<Vec<String>>()
        };
        let domains: Vec<Vec<String>> = lens.iter().map(|&l| by_len(l)).collect();
        let mut expected: BTreeSet<Vec<String>> = BTreeSet::new();
        if domains.iter().all(|d| !d.is_empty()) {
            let mut idx = vec![0usize; n];
            'outer: loop {
                let pick: Vec<&String> = (0..n).map(|k| &domains[k][idx[k]]).collect();
                let ok = crossings
                    .iter()
                    .all(|&(a, i, b, j)| pick[a].as_bytes()[i] == pick[b].as_bytes()[j])
                    && givens
                        .iter()
                        .all(|&(a, i, c)| pick[a].as_bytes()[i] == c as u8)
                    && (!distinct || pick.iter().collect::<BTreeSet<_>>().len() == n);
                if ok {
                    expected.insert(pick.into_iter().cloned().collect());
                }
                let mut k = 0;
                loop {
                    if k == n {
                        break 'outer;
                    }
                    idx[k] += 1;
                    if idx[k] < domains[k].len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
            }
        }
        let loaded = load_str("words.csp", &src, Path::new("."), &[]);
        let Ok(model) = loaded else {
            // A length with no words is a diagnostic, and then no fill exists.
            assert!(
                expected.is_empty(),
                "case {case_no} does not load: {:?}\n{src}",
                loaded.err()
            );
            continue;
        };
        let model = Arc::new(model);
        let ids: Vec<usize> = (0..n)
            .map(|k| model.groups[&format!("w{k}")].vars[0])
            .collect();
        for &var in VarSelect::ALL.iter().map(|(_, v)| v) {
            for &val in [
                ValSelect::Min,
                ValSelect::Max,
                ValSelect::Random,
                ValSelect::Lcv,
            ]
            .iter()
            {
                for &level in Propagation::ALL.iter().map(|(_, v)| v) {
                    let mut options = Options {
                        search: model.search.clone(),
                        check: true,
                        ..Options::default()
                    };
                    options.search.var = var;
                    options.search.val = val;
                    options.search.propagation = level;
                    options.search.seed = case_no;
                    let mut found: Vec<Vec<String>> = Vec::new();
                    let summary = solve(&model, &options, |values| {
                        found.push(
                            ids.iter()
                                .map(|&v| model.format_value(v, values[v]))
                                .collect(),
                        );
                        Next::Continue
                    });
                    let combo = format!("{} / {} / {}", var.name(), val.name(), level.name());
                    assert!(
                        summary.rejected.is_empty(),
                        "case {case_no}, {combo}: {:?}",
                        summary.rejected
                    );
                    let set: BTreeSet<Vec<String>> = found.iter().cloned().collect();
                    assert_eq!(
                        set.len(),
                        found.len(),
                        "case {case_no}, {combo}: repeated solution\n{src}"
                    );
                    assert_eq!(set, expected, "case {case_no}, {combo}: wrong fills\n{src}");
                    // Counting alone (with the product shortcut under ac) agrees too.
                    let counting = Options {
                        count_only: true,
                        check: false,
                        ..options.clone()
                    };
                    let counted = solve(&model, &counting, |_| Next::Continue);
                    assert_eq!(
                        counted.stats.solutions,
                        expected.len() as u64,
                        "case {case_no}, {combo}: count\n{src}"
                    );
                }
            }
        }
    }
}
