//! `count(x == v)` with enough terms lowers to one counting propagator
//! (engine/props/count_eq.rs) instead of reified equalities: solution counts
//! against brute force on random small models, under every propagation
//! level, and the magic sequences' known counts.

use crate::common;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Solutions of the model `text`, written into the scratch folder `dir`.
fn count(dir: &str, text: &str, extra: &[&str]) -> u64 {
    let path = common::scratch(dir).join("model.csp");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let mut args = vec!["solve", p, "--count", "--format", "json"];
    args.extend_from_slice(extra);
    let r = common::cspi(&args);
    assert_eq!(r.code, 0, "{text}\n{}", r.stderr);
    let summary = r.stdout.lines().last().unwrap();
    let n = summary.split("\"solutions\":").nth(1).unwrap();
    n[..n.find(|c: char| !c.is_ascii_digit()).unwrap()]
        .parse()
        .unwrap()
}

#[test]
fn magic_sequences_have_their_known_counts() {
    // Magic sequences of length n: 2 for n = 4, 1 for n = 5, none for 6, 1 for 7 and 8.
    // Written with counts (lowered to one global cardinality over all the
    // counts, each `s[i]` both counted and a count) and with the global.
    for (n, want) in [(4, 2), (5, 1), (6, 0), (7, 1), (8, 1)] {
        let by_counts = "constraint forall i in 0..n - 1: s[i] == count(j in 0..n - 1: s[j] == i);";
        let by_global = "constraint global_cardinality(s, [i | i in 0..n - 1], s);";
        for constraint in [by_counts, by_global] {
            let text = format!("param n = {n};\nvar s[0..n - 1] in 0..n - 1;\n{constraint}\n");
            for level in ["none", "fc", "ac"] {
                assert_eq!(
                    count("count-eq-magic", &text, &["--propagation", level]),
                    want,
                    "n = {n}, {level}\n{text}"
                );
            }
            assert_eq!(
                count("count-eq-magic", &text, &["--threads", "2"]),
                want,
                "n = {n}, two threads\n{text}"
            );
            let parts: u64 = ["1/3", "2/3", "3/3"]
                .iter()
                .map(|k| count("count-eq-magic", &text, &["--part", k]))
                .sum();
            assert_eq!(parts, want, "n = {n}, three parts\n{text}");
        }
    }
}

#[test]
fn random_counts_agree_with_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..20 {
        let n = rng.random_range(3..=6);
        let doms: Vec<(i64, i64)> = (0..n)
            .map(|_| {
                let lo = rng.random_range(-1..=1);
                (lo, lo + rng.random_range(0..=3))
            })
            .collect();
        let v = rng.random_range(-1..=2);
        let k = rng.random_range(0..=n as i64);
        let coef = rng.random_range(1..=2);
        let op = ["==", "<=", ">=", "!="][rng.random_range(0..4)];
        let mut text = String::new();
        for (i, (lo, hi)) in doms.iter().enumerate() {
            text += &format!("var x{i} in {lo}..{hi};\n");
        }
        let eqs: Vec<String> = (0..n).map(|i| format!("x{i} == {v}")).collect();
        text += &format!(
            "constraint {coef} * count([{}]) + x0 {op} {k};\n",
            eqs.join(", ")
        );
        // Brute force over the product of the domains.
        let mut want = 0u64;
        let mut vals: Vec<i64> = doms.iter().map(|d| d.0).collect();
        'all: loop {
            let c = vals.iter().filter(|&&x| x == v).count() as i64;
            let lhs = coef * c + vals[0];
            let holds = match op {
                "==" => lhs == k,
                "<=" => lhs <= k,
                ">=" => lhs >= k,
                _ => lhs != k,
            };
            want += holds as u64;
            for i in 0..n {
                if vals[i] < doms[i].1 {
                    vals[i] += 1;
                    continue 'all;
                }
                vals[i] = doms[i].0;
            }
            break;
        }
        for level in ["none", "fc", "ac"] {
            assert_eq!(
                count("count-eq-random", &text, &["--propagation", level]),
                want,
                "{text}{level}"
            );
        }
    }
}
