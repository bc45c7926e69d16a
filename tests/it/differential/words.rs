//! Random word models: a small dictionary over a three-letter alphabet, word
//! variables of two or three letters, random crossings `w[i] == v[j]`, fixed
//! letters, and sometimes all-different; solution sets against brute force.

use super::tape::Tape;
use super::{Scratch, case_seed, cases, check_every_strategy, product, run_cases};
use cspi::model::{Restarts, ValSelect, VarSelect};
use cspi::solve::{Limits, LoadOptions, ModelSource, Next, Options, Status, load, solve};
use rand::RngExt;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

/// A word model: dictionary, word lengths and constraints.
pub(super) struct WordModel {
    pub dict: BTreeSet<String>,
    pub lens: Vec<usize>,
    /// `w{a}[i] == w{b}[j]` (0-based positions here, 1-based in the text).
    crossings: Vec<(usize, usize, usize, usize)>,
    /// `w{a}[i] == "c"`.
    givens: Vec<(usize, usize, char)>,
    distinct: bool,
}

fn letter(rng: &mut Tape) -> char {
    ['a', 'b', 'c'][rng.random_range(0..3usize)]
}

pub(super) fn generate(rng: &mut Tape) -> WordModel {
    // The dictionary: random distinct words of length 2 and 3.
    let mut dict = BTreeSet::new();
    for _ in 0..rng.random_range(3..12) {
        let len = rng.random_range(2..=3);
        dict.insert((0..len).map(|_| letter(rng)).collect());
    }
    let n = rng.random_range(2..=4usize);
    let lens: Vec<usize> = (0..n).map(|_| rng.random_range(2..=3)).collect();
    let mut crossings = Vec::new();
    let mut givens = Vec::new();
    for _ in 0..rng.random_range(1..=4) {
        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
        let i = rng.random_range(0..lens[a]);
        if a != b {
            crossings.push((a, i, b, rng.random_range(0..lens[b])));
        } else {
            givens.push((a, i, letter(rng)));
        }
    }
    WordModel {
        dict,
        lens,
        crossings,
        givens,
        distinct: rng.random_bool(0.3),
    }
}

impl WordModel {
    /// Writes the dictionary into `dir` (named by the case) and gives the
    /// model's text reading it.
    fn source_in(&self, dir: &Path, case_no: u64) -> String {
        let path = dir.join(format!("dict-{case_no}.txt"));
        let words: Vec<&str> = self.dict.iter().map(String::as_str).collect();
        std::fs::write(&path, words.join("\n")).expect("write the dictionary");
        self.text(&path)
    }

    pub(super) fn text(&self, dict_path: &Path) -> String {
        let mut src = format!("let d = dictionary(\"{}\");\n", dict_path.display());
        for (k, l) in self.lens.iter().enumerate() {
            let _ = writeln!(src, "var w{k} in words(d, {l});");
        }
        for (a, i, b, j) in &self.crossings {
            let _ = writeln!(src, "constraint w{a}[{}] == w{b}[{}];", i + 1, j + 1);
        }
        for (a, i, c) in &self.givens {
            let _ = writeln!(src, "constraint w{a}[{}] == \"{c}\";", i + 1);
        }
        if self.distinct {
            let all: Vec<String> = (0..self.lens.len()).map(|k| format!("w{k}")).collect();
            let _ = writeln!(src, "constraint alldifferent([{}]);", all.join(", "));
        }
        src
    }

    fn holds(&self, pick: &[String]) -> bool {
        let at = |a: usize, i: usize| pick[a].as_bytes()[i];
        self.crossings
            .iter()
            .all(|&(a, i, b, j)| at(a, i) == at(b, j))
            && self.givens.iter().all(|&(a, i, c)| at(a, i) == c as u8)
            && (!self.distinct || pick.iter().collect::<BTreeSet<_>>().len() == pick.len())
    }

    /// Every fill, over the dictionary's words of each variable's length.
    pub(super) fn brute_force(&self) -> BTreeSet<Vec<String>> {
        let domains: Vec<Vec<String>> = self
            .lens
            .iter()
            .map(|&l| self.dict.iter().filter(|w| w.len() == l).cloned().collect())
            .collect();
        product(&domains).filter(|p| self.holds(p)).collect()
    }
}

#[test]
fn word_models_agree_with_brute_force_under_every_strategy() {
    let scratch = Scratch::new("words");
    run_cases(cases(15), |case_no| {
        let seed = case_seed(4, case_no);
        let m = generate(&mut Tape::seeded(seed));
        let src = m.source_in(scratch.path(), case_no);
        let what = format!("case {case_no}, seed {seed}:\n{src}");
        let expected = m.brute_force();
        let model = match load(
            ModelSource::text("words.csp", &src),
            &LoadOptions::default(),
        ) {
            Ok(model) => Arc::new(model),
            // A length with no words is a diagnostic, and then no fill exists.
            Err(e) => {
                assert!(expected.is_empty(), "does not load: {e:?}\n{what}");
                return;
            }
        };
        let ids: Vec<usize> = (0..m.lens.len())
            .map(|k| model.groups[&format!("w{k}")].vars[0])
            .collect();
        let read = |values: &[i64]| {
            ids.iter()
                .map(|&v| model.format_value(v, values[v]))
                .collect()
        };
        // `score` needs a scored dictionary.
        let vals = [
            ValSelect::Min,
            ValSelect::Max,
            ValSelect::Random,
            ValSelect::Lcv,
        ];
        check_every_strategy(&model, &vals, &expected, read, seed, &what);
    });
}

/// A first fill with the search by components (`components on`) and
/// without: a fill exactly when brute force finds one, every fill one of
/// brute force's and accepted by the checker, under several selections.
#[test]
fn first_fills_by_components_agree_with_brute_force() {
    let scratch = Scratch::new("words-components");
    run_cases(cases(15), |case_no| {
        let seed = case_seed(9, case_no);
        let mut tape = Tape::seeded(seed);
        let mut m = generate(&mut tape);
        m.distinct = tape.random_bool(0.6);
        let src = m.source_in(scratch.path(), case_no);
        let what = format!("case {case_no}, seed {seed}:\n{src}");
        let expected = m.brute_force();
        let Ok(model) = load(
            ModelSource::text("words.csp", &src),
            &LoadOptions::default(),
        ) else {
            assert!(expected.is_empty(), "does not load\n{what}");
            return;
        };
        let model = Arc::new(model);
        let ids: Vec<usize> = (0..m.lens.len())
            .map(|k| model.groups[&format!("w{k}")].vars[0])
            .collect();
        for components in [true, false] {
            for (var, val) in [
                (VarSelect::DomWdeg, ValSelect::Min),
                (VarSelect::Input, ValSelect::Max),
                (VarSelect::Mrv, ValSelect::Random),
            ] {
                let mut options = Options {
                    search: model.search.clone(),
                    limits: Limits {
                        solutions: Some(1),
                        ..Limits::default()
                    },
                    check: true,
                    ..Options::default()
                };
                options.search.var = var;
                options.search.val = val;
                options.search.restarts = Restarts::Luby;
                options.search.seed = seed;
                options.search.components = components;
                let mut found = Vec::new();
                let summary = solve(&model, &options, |values| {
                    let fill: Vec<String> = ids
                        .iter()
                        .map(|&v| model.format_value(v, values[v]))
                        .collect();
                    found.push(fill);
                    Next::Continue
                });
                let combo = format!("components {components}, {var:?} {val:?}");
                assert!(summary.rejected.is_empty(), "{combo}: rejected\n{what}");
                assert_eq!(
                    found.len(),
                    usize::from(!expected.is_empty()),
                    "{combo}\n{what}"
                );
                for fill in &found {
                    assert!(expected.contains(fill), "{combo}: {fill:?}\n{what}");
                }
                let status = if expected.is_empty() {
                    Status::Unsatisfiable
                } else {
                    Status::Satisfiable
                };
                assert_eq!(summary.status, status, "{combo}\n{what}");
            }
        }
    });
}
