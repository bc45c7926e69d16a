//! Models of two to four independent clusters — small word models (crossings,
//! fixed letters, all-different) and small integer models — so that counting
//! by components has components to find, at the root and after branching.
//! The count must equal the product of the clusters' brute-force counts,
//! counted by components under every variable selection, and leaf by leaf
//! (`--no-product-count`) when the product is small enough to enumerate.

use super::tape::Tape;
use super::{Scratch, case_seed, cases, ints, run_cases, words};
use cspi::model::search::Named;
use cspi::model::{Propagation, VarSelect};
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, load, solve};
use rand::RngExt;
use std::path::Path;
use std::sync::Arc;

/// The most solutions counted leaf by leaf.
const MAX_LEAVES: u128 = 20_000;

/// Renames the variables `x<digits>` (or `w<digits>`) of one cluster's text
/// to `c<k>_x<digits>`, leaving quoted paths alone.
fn rename(text: &str, letter: char, k: usize) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut prev = ' ';
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '"' {
            quoted = !quoted;
        }
        let starts = !quoted
            && c == letter
            && !(prev.is_alphanumeric() || prev == '_')
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if starts {
            out.push_str(&format!("c{k}_"));
        }
        out.push(c);
        prev = c;
    }
    out
}

/// One cluster: its text and its number of solutions by brute force.
fn cluster(rng: &mut Tape, k: usize, dir: &Path, case_no: u64) -> (String, u128) {
    if rng.random_bool(0.6) {
        let m = words::generate(rng);
        let path = dir.join(format!("dict-{case_no}-{k}.txt"));
        let list: Vec<&str> = m.dict.iter().map(String::as_str).collect();
        std::fs::write(&path, list.join("\n")).expect("write the dictionary");
        // A length without words is a diagnostic: give every length one.
        let text = m
            .text(&path)
            .replace("let d =", &format!("let d{k} ="))
            .replace("words(d,", &format!("words(d{k},"));
        let has = |l: usize| m.dict.iter().any(|w| w.len() == l);
        if !m.lens.iter().all(|&l| has(l)) {
            return (String::new(), 1);
        }
        (rename(&text, 'w', k), m.brute_force().len() as u128)
    } else {
        let seed = rng.random::<u64>();
        let mut g = ints::Gen::new(seed, 4, 64, dir, format!("case{case_no}c{k}"));
        let constraints = (0..g.count(1, 3)).map(|_| ints::classic(&mut g)).collect();
        let m = g.model(constraints);
        (rename(&m.text(), 'x', k), m.brute_force().len() as u128)
    }
}

fn count(model: &Arc<Model>, var: VarSelect, leaf_by_leaf: bool, learn: bool) -> (u64, Status) {
    let mut options = Options {
        search: model.search.clone(),
        count_only: true,
        no_product_count: leaf_by_leaf,
        ..Options::default()
    };
    options.search.var = var;
    options.search.propagation = Propagation::Ac;
    options.search.learning = Some(learn);
    let s = solve(model, &options, |_| Next::Continue);
    (s.stats.solutions, s.status)
}

use cspi::model::Model;

#[test]
fn counting_by_components_agrees_with_brute_force_and_leaf_by_leaf() {
    let scratch = Scratch::new("components");
    run_cases(cases(15), |case_no| {
        let seed = case_seed(6, case_no);
        let mut rng = Tape::seeded(seed);
        let mut src = String::new();
        let mut expected: u128 = 1;
        for k in 0..rng.random_range(2..=4usize) {
            let (text, n) = cluster(&mut rng, k, scratch.path(), case_no);
            src.push_str(&text);
            expected *= n;
        }
        let what = format!("case {case_no}, seed {seed}:\n{src}");
        if src.is_empty() {
            return;
        }
        let model = Arc::new(
            load(
                ModelSource::text("components.csp", &src),
                &LoadOptions::default(),
            )
            .unwrap_or_else(|e| panic!("does not load: {e:?}\n{what}")),
        );
        let status = if expected == 0 {
            Status::Unsatisfiable
        } else {
            Status::AllSolutions
        };
        for (k, &(_, var)) in VarSelect::ALL.iter().enumerate() {
            let learn = super::learning(seed ^ k as u64);
            let (n, s) = count(&model, var, false, learn);
            assert_eq!(
                u128::from(n),
                expected,
                "{}, learning {learn}: by components\n{what}",
                var.name()
            );
            assert_eq!(s, status, "{}: status\n{what}", var.name());
        }
        if expected <= MAX_LEAVES {
            let learn = super::learning(!seed);
            let (n, _) = count(&model, VarSelect::Input, true, learn);
            assert_eq!(
                u128::from(n),
                expected,
                "leaf by leaf, learning {learn}\n{what}"
            );
        }
    });
}
