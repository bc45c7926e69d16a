//! The classic models (SEND+MORE=MONEY, magic square, graph colouring with the
//! fewest colours, knapsack) checked against brute force written from their
//! rules; and the arithmetic lowering (products, abs, element, min/max,
//! implications, disjunctions, counts, division) checked on random small
//! models: the solution count of the engine must equal that of brute-force
//! enumeration with the model's own evaluator, at every propagation level.

use cspi::model::{Model, Propagation};
use cspi::solve::Next;
use cspi::solve::ParamOverride;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, load, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use std::sync::Arc;

fn model(name: &str, params: &[(&str, &str)]) -> Arc<Model> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name);
    let overrides: Vec<ParamOverride> = params
        .iter()
        .map(|(n, v)| ParamOverride {
            name: n.to_string(),
            value: v.to_string(),
        })
        .collect();
    Arc::new(
        load(&path, &LoadOptions::with_params(&overrides))
            .unwrap_or_else(|e| panic!("{name}: {e:?}")),
    )
}

/// Every reported solution (all of them, or each improving one), and the status.
fn run(m: &Arc<Model>, level: Option<Propagation>) -> (Vec<Vec<i64>>, Status) {
    let mut options = Options {
        search: m.search.clone(),
        check: true,
        ..Options::default()
    };
    if let Some(l) = level {
        options.search.propagation = l;
    }
    let mut sols = Vec::new();
    let s = solve(m, &options, |v| {
        sols.push(v[..m.vars.len()].to_vec());
        Next::Continue
    });
    assert!(s.rejected.is_empty(), "{:?}", s.rejected);
    (sols, s.status)
}

fn group(m: &Model, name: &str, values: &[i64]) -> Vec<i64> {
    m.groups[name].vars.iter().map(|&v| values[v]).collect()
}

#[test]
fn send_more_money_has_its_one_solution() {
    let m = model("send-more-money.csp", &[]);
    let (sols, status) = run(&m, None);
    assert_eq!(status, Status::AllSolutions);
    // Brute force over the digit assignments.
    let mut want = 0;
    let num = |ds: &[i64]| ds.iter().fold(0, |a, d| a * 10 + d);
    for p in 0..100_000_000i64 / 10 {
        // Enumerate S,E,N,D,M,O,R (7 digits), Y derived.
        let d: Vec<i64> = (0..7).map(|i| (p / 10i64.pow(i)) % 10).collect();
        let (s, e, n, dd, mm, o, r) = (d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
        if s == 0 || mm == 0 {
            continue;
        }
        let total = num(&[s, e, n, dd]) + num(&[mm, o, r, e]);
        let y = total % 10;
        let mut all = vec![s, e, n, dd, mm, o, r, y];
        if total != num(&[mm, o, n, e, y]) {
            continue;
        }
        all.sort_unstable();
        all.dedup();
        if all.len() == 8 {
            want += 1;
        }
    }
    assert_eq!(sols.len(), want);
    assert_eq!(want, 1);
    let v = |n: &str| sols[0][m.groups[n].vars[0]];
    assert_eq!(
        (
            v("S"),
            v("E"),
            v("N"),
            v("D"),
            v("M"),
            v("O"),
            v("R"),
            v("Y")
        ),
        (9, 5, 6, 7, 1, 0, 8, 2)
    );
}

#[test]
fn magic_squares_of_order_3_are_the_8_symmetries() {
    let m = model("magic-square.csp", &[("n", "3")]);
    let (sols, _) = run(&m, None);
    let mut seen = std::collections::HashSet::new();
    for s in &sols {
        let sq = group(&m, "sq", s);
        let mut sorted = sq.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=9).collect::<Vec<_>>());
        let at = |r: usize, c: usize| sq[r * 3 + c];
        for i in 0..3 {
            assert_eq!((0..3).map(|j| at(i, j)).sum::<i64>(), 15);
            assert_eq!((0..3).map(|j| at(j, i)).sum::<i64>(), 15);
        }
        assert_eq!(at(0, 0) + at(1, 1) + at(2, 2), 15);
        assert_eq!(at(0, 2) + at(1, 1) + at(2, 0), 15);
        assert!(seen.insert(sq));
    }
    assert_eq!(sols.len(), 8, "the Lo Shu square and its 7 symmetries");
}

/// The fewest colours of a graph, by trying every colouring with k colours.
fn chromatic_number(n: usize, edges: &[(usize, usize)]) -> usize {
    (1..=n)
        .find(|&k| {
            let total = k.pow(n as u32);
            (0..total).any(|mut code| {
                let colour: Vec<usize> = (0..n)
                    .map(|_| {
                        let c = code % k;
                        code /= k;
                        c
                    })
                    .collect();
                edges.iter().all(|&(a, b)| colour[a - 1] != colour[b - 1])
            })
        })
        .unwrap_or(n)
}

#[test]
fn graph_colouring_finds_the_chromatic_number() {
    let cases: &[(usize, &str)] = &[
        (
            10,
            "1 2  2 3  3 4  4 5  5 1   1 6  2 7  3 8  4 9  5 10   6 8  8 10  10 7  7 9  9 6",
        ),
        (5, "1 2 2 3 3 4 4 5 5 1"),
        (6, "1 2 1 3 1 4 2 3 2 4 3 4 4 5 5 6"),
        (7, "1 2 2 3 3 4 4 5 5 6 6 7 7 1 1 4"),
    ];
    for &(n, edges) in cases {
        let nums: Vec<usize> = edges
            .split_whitespace()
            .map(|s| s.parse().unwrap())
            .collect();
        let pairs: Vec<(usize, usize)> = nums.chunks(2).map(|c| (c[0], c[1])).collect();
        let want = chromatic_number(n, &pairs);
        let ns = n.to_string();
        let m = model("graph-colouring.csp", &[("n", &ns), ("edges", edges)]);
        let (sols, status) = run(&m, None);
        assert_eq!(status, Status::Optimal);
        let last = sols.last().expect("a colouring");
        let colour = group(&m, "colour", last);
        assert!(pairs.iter().all(|&(a, b)| colour[a - 1] != colour[b - 1]));
        let used: std::collections::HashSet<i64> = colour.iter().copied().collect();
        assert_eq!(used.len(), want, "graph {edges}");
        // Each reported solution improves on the one before.
        let counts: Vec<i64> = sols.iter().map(|s| group(&m, "colours", s)[0]).collect();
        assert!(counts.windows(2).all(|w| w[1] < w[0]), "{counts:?}");
    }
}

#[test]
fn knapsack_is_optimal() {
    let weight = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82];
    let value = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72];
    for cap in [0, 50, 100, 165, 300, 600] {
        let best = (0..1u32 << 10)
            .filter(|s| {
                (0..10)
                    .filter(|i| s >> i & 1 == 1)
                    .map(|i| weight[i])
                    .sum::<i64>()
                    <= cap
            })
            .map(|s| {
                (0..10)
                    .filter(|i| s >> i & 1 == 1)
                    .map(|i| value[i])
                    .sum::<i64>()
            })
            .max()
            .unwrap_or(0);
        let c = cap.to_string();
        let m = model("knapsack.csp", &[("capacity", &c)]);
        let mut options = Options {
            search: m.search.clone(),
            ..Options::default()
        };
        options.limits.solutions = None;
        let s = solve(&m, &options, |_| Next::Continue);
        assert_eq!(s.status, Status::Optimal);
        assert_eq!(s.objective, Some(best), "capacity {cap}");
    }
}

#[test]
fn a_limit_leaves_the_best_objective_found_unproved() {
    // Branch and bound stopped by a limit keeps its best solution: SATISFIABLE.
    let m = model("knapsack.csp", &[]);
    let mut options = Options {
        search: m.search.clone(),
        ..Options::default()
    };
    options.limits.nodes = Some(12);
    let mut seen = Vec::new();
    let s = solve(&m, &options, |v| {
        let take = group(&m, "take", v);
        seen.push(take);
        Next::Continue
    });
    assert!(!seen.is_empty(), "a first selection within 12 nodes");
    assert_eq!(s.status, Status::Satisfiable);
    let value = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72];
    let last: i64 = seen
        .last()
        .unwrap()
        .iter()
        .zip(value)
        .map(|(t, v)| t * v)
        .sum();
    assert_eq!(s.objective, Some(last));
    assert!(last <= 309);
}

/// A random constraint over x, y, z in small domains, in model syntax.
fn random_constraint(rng: &mut Xoshiro256PlusPlus) -> String {
    let vars = ["x", "y", "z"];
    let v = |rng: &mut Xoshiro256PlusPlus| vars[rng.random_range(0..3)].to_string();
    let k = |rng: &mut Xoshiro256PlusPlus| rng.random_range(-3..4i64).to_string();
    let term = |rng: &mut Xoshiro256PlusPlus| -> String {
        match rng.random_range(0..9) {
            0 => format!("{} * {}", v(rng), v(rng)),
            1 => format!("abs({} - {})", v(rng), k(rng)),
            2 => format!("[3, -1, 4, 1, -5][{} + 3]", v(rng)),
            3 => format!("[x, y, z][{} + 2]", v(rng)),
            4 if rng.random_range(0..2) == 0 => {
                format!("min({}, {}, {} - 1)", v(rng), v(rng), v(rng))
            }
            4 => format!("max([3, -1, 4, 1, -5][{} + 3], {})", v(rng), v(rng)),
            5 => format!("max({}, {}) + {}", v(rng), v(rng), k(rng)),
            6 => format!("{} / ({} + 5)", v(rng), v(rng)),
            7 => format!(
                "count([{} == {}, {} > 0, {} != {}])",
                v(rng),
                v(rng),
                v(rng),
                v(rng),
                k(rng)
            ),
            _ => format!("2 * {} - {}", v(rng), v(rng)),
        }
    };
    let ops = ["==", "!=", "<", "<=", ">", ">="];
    let cmp = |rng: &mut Xoshiro256PlusPlus| {
        format!(
            "{} {} {}",
            term(rng),
            ops[rng.random_range(0..6)],
            term(rng)
        )
    };
    match rng.random_range(0..5) {
        0 => format!("{} -> {}", cmp(rng), cmp(rng)),
        1 => format!("{} || {}", cmp(rng), cmp(rng)),
        2 => format!("!({})", cmp(rng)),
        3 => format!("({} -> {}) == ({})", cmp(rng), cmp(rng), cmp(rng)),
        _ => cmp(rng),
    }
}

#[test]
fn arithmetic_lowering_keeps_every_solution() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut nontrivial = 0;
    for case in 0..400 {
        let c1 = random_constraint(&mut rng);
        let c2 = random_constraint(&mut rng);
        let text = format!(
            "var x in -2..2;\nvar y in -1..3;\nvar z in -3..1;\nconstraint {c1};\nconstraint {c2};\n"
        );
        let m = match load(
            ModelSource::text("random.csp", &text),
            &LoadOptions::default(),
        ) {
            Ok(m) => Arc::new(m),
            Err(e) => panic!("case {case}: {text}\n{e:?}"),
        };
        let mut want = 0;
        for x in -2..=2 {
            for y in -1..=3 {
                for z in -3..=1 {
                    let a = [x, y, z];
                    if m.constraints.iter().all(|f| f.holds(&m, &a)) {
                        want += 1;
                    }
                }
            }
        }
        if want > 0 && want < 75 {
            nontrivial += 1;
        }
        for level in [Propagation::Ac, Propagation::Fc] {
            let (sols, _) = run(&m, Some(level));
            assert_eq!(sols.len(), want, "case {case} at {level:?}:\n{text}");
        }
    }
    assert!(nontrivial > 100, "{nontrivial}");
}

/// `0 * t` is undefined where `t` is, and a formula over it false: the
/// factor 0 used to drop `t` at load time, and with it the zero divisor.
#[test]
fn a_zero_factor_keeps_an_undefined_term() {
    for text in [
        "var x in 0..1;\nconstraint 0 * (1 / x) == 0;\n",
        "var x in 0..1;\nconstraint !((0 * (x % x)) < -1);\n",
    ] {
        let m =
            Arc::new(load(ModelSource::text("zero.csp", text), &LoadOptions::default()).unwrap());
        for level in [Propagation::None, Propagation::Fc, Propagation::Ac] {
            let (sols, _) = run(&m, Some(level));
            assert_eq!(sols, vec![vec![1]], "{level:?}:\n{text}");
        }
    }
}

/// The same random arithmetic models with every domain held by its bounds
/// only (as wide domains are): inner values cannot be removed, value
/// selection must take bounds, and yet every strategy finds exactly the
/// solutions brute force finds, each once.
#[test]
fn bounds_only_domains_keep_every_solution() {
    use cspi::model::ValSelect;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for case in 0..150 {
        let c1 = random_constraint(&mut rng);
        let c2 = random_constraint(&mut rng);
        let text = format!(
            "var x in -2..2;\nvar y in -1..3;\nvar z in -3..1;\nconstraint {c1};\nconstraint {c2};\n"
        );
        let m = Arc::new(
            load(
                ModelSource::text("random.csp", &text),
                &LoadOptions::default(),
            )
            .expect("loads"),
        );
        let mut want = Vec::new();
        for x in -2..=2 {
            for y in -1..=3 {
                for z in -3..=1 {
                    let a = [x, y, z];
                    if m.constraints.iter().all(|f| f.holds(&m, &a)) {
                        want.push(a.to_vec());
                    }
                }
            }
        }
        for level in [Propagation::Ac, Propagation::Fc, Propagation::None] {
            for val in [
                ValSelect::Min,
                ValSelect::Max,
                ValSelect::Random,
                ValSelect::Split,
            ] {
                let mut options = Options {
                    search: m.search.clone(),
                    check: true,
                    bounds_only: true,
                    ..Options::default()
                };
                options.search.propagation = level;
                options.search.val = val;
                options.search.var = cspi::model::VarSelect::Mrv;
                let mut sols = Vec::new();
                let s = solve(&m, &options, |v| {
                    sols.push(v[..m.vars.len()].to_vec());
                    Next::Continue
                });
                assert!(s.rejected.is_empty(), "{:?}", s.rejected);
                sols.sort();
                assert_eq!(sols, want, "case {case} at {level:?}, val {val:?}:\n{text}");
            }
        }
    }
}
