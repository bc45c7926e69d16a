//! Reified constraints with propagators of their own (tables, all-different,
//! registered globals): the truth variable is propagated both ways, and the
//! solutions equal brute force under every propagation level.

use cspi::model::Propagation;
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, load, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

fn random_reified(rng: &mut Xoshiro256PlusPlus) -> String {
    let v = ["x", "y", "z"];
    let pick = |rng: &mut Xoshiro256PlusPlus| v[rng.random_range(0..3)];
    let rows: Vec<String> = (0..rng.random_range(1..6))
        .map(|_| format!("({}, {})", rng.random_range(-1..3), rng.random_range(-1..3)))
        .collect();
    let inner = match rng.random_range(0..4) {
        0 => format!(
            "table([{}, {}], [{}])",
            pick(rng),
            pick(rng),
            rows.join(", ")
        ),
        1 => format!(
            "forbidden([{}, {}], [{}])",
            pick(rng),
            pick(rng),
            rows.join(", ")
        ),
        2 => format!(
            "alldifferent([{}, {}, {} + 1])",
            pick(rng),
            pick(rng),
            pick(rng)
        ),
        _ => format!("increasing([{}, {}, {}])", pick(rng), pick(rng), pick(rng)),
    };
    match rng.random_range(0..3) {
        0 => format!("b == ({inner})"),
        1 => format!("!({inner}) || {} == {}", pick(rng), rng.random_range(-1..3)),
        _ => format!("({inner}) -> b == 1"),
    }
}

#[test]
fn reified_constraints_agree_with_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for case in 0..200 {
        let text = format!(
            "var x in -1..2;\nvar y in -1..2;\nvar z in -1..2;\nvar b in 0..1;\nconstraint {};\nconstraint {};\n",
            random_reified(&mut rng),
            random_reified(&mut rng)
        );
        let m = Arc::new(
            load(ModelSource::text("r.csp", &text), &LoadOptions::default()).expect("loads"),
        );
        let mut want = Vec::new();
        for x in -1..=2 {
            for y in -1..=2 {
                for z in -1..=2 {
                    for b in 0..=1 {
                        let a = [x, y, z, b];
                        if m.constraints.iter().all(|f| f.holds(&m, &a)) {
                            want.push(a.to_vec());
                        }
                    }
                }
            }
        }
        for level in [Propagation::Ac, Propagation::Fc, Propagation::None] {
            let mut options = Options {
                search: m.search.clone(),
                check: true,
                ..Options::default()
            };
            options.search.propagation = level;
            let mut sols = Vec::new();
            let s = solve(&m, &options, |v| {
                sols.push(v[..m.vars.len()].to_vec());
                Next::Continue
            });
            assert!(s.rejected.is_empty(), "{:?}", s.rejected);
            sols.sort();
            assert_eq!(sols, want, "case {case} at {level:?}:\n{text}");
        }
    }
}

/// The truth variable is fixed by propagation, before any decision on it.
#[test]
fn the_truth_value_is_propagated() {
    let text = "var x in 0..3; var y in 0..3; var b in 0..1;
                constraint b == table([x, y], [(0, 1), (1, 2), (2, 3)]);
                constraint x == 3;";
    let m =
        Arc::new(load(ModelSource::text("r.csp", text), &LoadOptions::default()).expect("loads"));
    let options = Options {
        count_only: true,
        ..Options::default()
    };
    let s = solve(&m, &options, |_| Next::Continue);
    assert_eq!(s.stats.solutions, 4, "b = 0 with each y");
    // x = 3 has no row: b is 0 at the root, and only y is branched on.
    assert!(s.stats.nodes <= 7, "{} nodes", s.stats.nodes);
}
