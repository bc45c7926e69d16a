//! `regular(x, "regex")`: the compiler (`model/regex.rs`) against an
//! independent backtracking matcher (`common/regex.rs`) on random small
//! expressions, every word up to length 5 over a small alphabet; the
//! layered graph it unrolls into against the same matcher; and expressions
//! computed when the model loads.

use crate::common::regex::{Re, words};
use cspi::model::regex::Regex;
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, load, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// The symbols expressions are drawn over, and the alphabet words are:
/// with values below, between and above them, for `.` and `[^ ]`.
const SYMBOLS: [i64; 4] = [-1, 0, 1, 2];
const ALPHABET: [i64; 6] = [-2, -1, 0, 1, 2, 7];

fn random_expression(seed: u64) -> Re {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Re::random(&mut |lo, hi| rng.random_range(lo..=hi), &SYMBOLS, 3)
}

#[test]
fn random_expressions_agree_with_a_backtracking_matcher() {
    let all = words(&ALPHABET, 5);
    for seed in 0..300 {
        let re = random_expression(seed);
        let text = re.text();
        let r = Regex::compile(&text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
        for w in &all {
            assert_eq!(
                r.accepts(w),
                re.matches(w),
                "{text:?} on {w:?} (seed {seed})"
            );
        }
    }
}

#[test]
fn the_layered_graph_holds_exactly_the_matching_words() {
    let values = ALPHABET.to_vec();
    for seed in 1000..1150 {
        let re = random_expression(seed);
        let r = Regex::compile(&re.text()).expect("compiles");
        let layer: Vec<(u32, u32)> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as u32, r.class(v)))
            .collect();
        for n in 0..=4 {
            let m = r.dfa.unroll(values.clone(), &vec![layer.as_slice(); n]);
            let expected: Vec<Vec<i64>> = words(&ALPHABET, n)
                .into_iter()
                .filter(|w| w.len() == n && re.matches(w))
                .collect();
            assert_eq!(m.rows(), expected, "{} over {n} (seed {seed})", re.text());
            assert_eq!(m.rows as usize, expected.len());
        }
    }
}

/// The expression may be any string known at load time: here a repeat
/// count and a part interpolated from parameters. Every solution is
/// checked by the matcher, and their number against brute force.
#[test]
fn an_expression_computed_at_load_time() {
    let src = "param k = 2;\nparam part = \"1 [2 3]*\";\nvar x[1..5] in 0..3;\n\
               constraint regular(x, \"(\\(part)) 0{\\(k)}\");\n";
    let model = Arc::new(
        load(
            ModelSource::text("computed.csp", src),
            &LoadOptions::default(),
        )
        .expect("loads"),
    );
    let re = Re::Cat(vec![
        Re::Sym(1),
        Re::Rep(Box::new(Re::Class(vec![(2, 3)], false)), 0, None),
        Re::Rep(Box::new(Re::Sym(0)), 2, Some(2)),
    ]);
    let ids = model.groups["x"].vars.clone();
    let mut found = Vec::new();
    let options = Options {
        check: true,
        ..Options::default()
    };
    let summary = solve(&model, &options, |values| {
        let w: Vec<i64> = ids.iter().map(|&i| values[i]).collect();
        assert!(re.matches(&w), "{w:?}");
        found.push(w);
        Next::Continue
    });
    let expected = words(&[0, 1, 2, 3], 5)
        .into_iter()
        .filter(|w| w.len() == 5 && re.matches(w))
        .count();
    assert_eq!(expected, 4); // 1 then two of {2, 3}, then 0 0
    assert_eq!(found.len(), expected);
    assert!(summary.rejected.is_empty(), "{:?}", summary.rejected);
}

/// All solutions of `src` (the values of `x`) under `options`, each
/// checked by cspi's own checker as well.
fn solutions(src: &str, options: &Options) -> Vec<Vec<i64>> {
    let model =
        Arc::new(load(ModelSource::text("case.csp", src), &LoadOptions::default()).expect("loads"));
    let ids = model.groups["x"].vars.clone();
    let mut found = Vec::new();
    let options = Options {
        check: true,
        ..options.clone()
    };
    let summary = solve(&model, &options, |values| {
        found.push(ids.iter().map(|&i| values[i]).collect());
        Next::Continue
    });
    assert!(summary.rejected.is_empty(), "{src}{:?}", summary.rejected);
    found.sort();
    found
}

/// Domains held as intervals (bounds only) take the lowering's other path:
/// the values of each class are listed from the bounds.
#[test]
fn interval_domains_give_the_same_solutions() {
    let bounds_only = Options {
        bounds_only: true,
        ..Options::default()
    };
    for seed in 2000..2060 {
        let re = random_expression(seed);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let n = rng.random_range(1..=3usize);
        let (lo, hi) = (rng.random_range(-3..=0i64), rng.random_range(0..=8i64));
        let src = format!(
            "var x[1..{n}] in {lo}..{hi};\nconstraint regular(x, \"{}\");\n",
            re.text()
        );
        let alphabet: Vec<i64> = (lo..=hi).collect();
        let expected: Vec<Vec<i64>> = words(&alphabet, n)
            .into_iter()
            .filter(|w| w.len() == n && re.matches(w))
            .collect();
        let mut sorted = expected.clone();
        sorted.sort();
        assert_eq!(solutions(&src, &bounds_only), sorted, "{src}");
        assert_eq!(solutions(&src, &Options::default()), sorted, "{src}");
    }
}

/// Over domains of 2·10¹² values, the classes an expression reads are
/// listed (`1 (2|3) [-5-5]` has 22 matches); `.` over such domains is more
/// than a layered graph can list, and refused when the model loads.
#[test]
fn wide_domains() {
    let wide = "var x[1..3] in -1000000000000..1000000000000;\n";
    let found = solutions(
        &format!("{wide}constraint regular(x, \"1 (2|3) [-5-5]\");\n"),
        &Options::default(),
    );
    assert_eq!(found.len(), 22);
    assert!(
        found
            .iter()
            .all(|w| w[0] == 1 && (2..=3).contains(&w[1]) && w[2].abs() <= 5)
    );
    let refused = load(
        ModelSource::text(
            "wide.csp",
            &format!("{wide}constraint regular(x, \"[^0] 5 .\");\n"),
        ),
        &LoadOptions::default(),
    )
    .expect_err("too wide");
    assert_eq!(refused.0[0].code, "cspi::global::regex");
    assert!(
        refused.0[0].message.contains("would list"),
        "{:?}",
        refused.0[0]
    );
    // 10⁵ values per position are listed.
    let found = solutions(
        "var x[1..3] in 0..100000;\nconstraint regular(x, \"[^0] 5 [0 100000]\");\n\
         constraint x[1] >= 99999;\n",
        &Options::default(),
    );
    assert_eq!(
        found,
        vec![
            vec![99999, 5, 0],
            vec![99999, 5, 100000],
            vec![100000, 5, 0],
            vec![100000, 5, 100000]
        ]
    );
}

/// Random strings of the expression's characters, most of them malformed,
/// compile or are refused with an offset inside the text; never a panic.
#[test]
fn random_text_compiles_or_is_refused() {
    let chars: Vec<char> = "0123-[]^(){},|*+?. 9a\t".chars().collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut compiled = 0;
    for _ in 0..20_000 {
        let len = rng.random_range(0..=12);
        let text: String = (0..len)
            .map(|_| chars[rng.random_range(0..chars.len())])
            .collect();
        match Regex::compile(&text) {
            Ok(r) => {
                compiled += 1;
                assert!(r.dfa.states() >= 1, "{text:?}");
            }
            Err(e) => {
                let at = e.at.unwrap_or(0);
                assert!(at <= text.chars().count(), "{text:?}: {e:?}");
                assert!(!e.message.is_empty());
            }
        }
    }
    assert!(compiled > 100, "only {compiled} compiled");
}
