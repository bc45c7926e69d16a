//! The word that keeps its crossings most open (crossword fill): for a word
//! variable, each word of its domain is rated by the words it leaves the
//! slots it crosses — the sum, over its crossings, of the logarithm of how
//! many words of the crossing slot's current domain have the word's letter
//! at the shared cell — and the best-rated word is tried first; ties go to
//! the best score, then the smallest value. This is the least-constraining
//! value of Ginsberg et al.'s crossword search ("Search lessons learned from
//! crossword puzzles", AAAI 1990), computed from letter counts instead of a
//! propagation per value: one popcount per letter and crossing, then one
//! table lookup per letter of each word.
//!
//! A first-fail search with best-scored words first fills open grids (every
//! cell in two long slots) badly: a high-scoring word with a `q` or a `j`
//! leaves its crossings a handful of words each and the search thrashes
//! below it. Rating by the crossings' counts steers away from such letters.
//!
//! The log of a count makes a letter shared by 1 word count as badly as it
//! should against one shared by 1,000, and keeps the rating a sum. Words of
//! a variable with no crossing (or not over a bitset domain) are chosen as
//! `val score` chooses them.
//!
//! `val fill-random` draws one of the two best-rated words (the seeded
//! generator): with restarts, each run then tries other words as well as
//! other variables, where a fixed order meets the same dead end after every
//! restart. Rating by the tightest crossing instead of the sum was tried and
//! was worse (docs/crossword-measured.md).

use super::score::Score;
use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::engine::crossings::Crossings;
use crate::engine::props::wordcross::LetterIndex;
use crate::model::{Model, VarId};
use rand::RngExt;
use std::sync::Arc;

pub(super) struct Fill {
    /// The fallback, and the scores that break ties.
    score: Score,
    crossings: Option<Arc<Crossings>>,
    /// Scratch: for each crossing of the variable, the rating of each of
    /// its letters there (`f32::NEG_INFINITY`: no word of the crossing has it).
    ratings: Vec<Vec<f32>>,
    /// Scratch: the best-rated words so far (rating, score, value), best first.
    best: Vec<(f32, i64, i64)>,
    /// How many of the best-rated words the choice is drawn from: 1 for
    /// `val fill`, 2 for `val fill-random`.
    draw: usize,
}

impl Fill {
    /// `draw`: the choice is one of the `draw` best-rated words, drawn at
    /// random (1: the best one).
    pub(super) fn new(model: &Model, draw: usize) -> Self {
        Fill {
            score: Score::new(model),
            crossings: None,
            ratings: Vec::new(),
            best: Vec::new(),
            draw: draw.max(1),
        }
    }
}

impl ValSelector for Fill {
    fn select(&mut self, engine: &mut Engine, v: VarId, rng: &mut Rng) -> Branch {
        let Some(crossings) = self.crossings.as_ref().filter(|c| !c.is_empty()) else {
            return self.score.select(engine, v, rng);
        };
        let d = &engine.doms;
        if !d.is_bitset(v) || d.is_fixed(v) {
            return self.score.select(engine, v, rng);
        }
        // The crossings of `v` whose other word is open, with their ratings.
        let mut sides: Vec<&LetterIndex> = Vec::new();
        let mut n = 0;
        for &(p, _) in &engine.watchers[v] {
            let Some(c) = crossings.get(p) else { continue };
            let s = c.side(v);
            let w = c.vars()[1 - s];
            if w == v || d.is_fixed(w) {
                continue;
            }
            let counts = c.letters_on(1 - s).counts(d.bits(w));
            let mine = c.letters_on(s);
            if self.ratings.len() <= n {
                self.ratings.push(Vec::new());
            }
            let r = &mut self.ratings[n];
            r.clear();
            r.extend((0..mine.num_letters()).map(|k| match c.map(s, k) {
                Some(kb) if counts[kb] > 0 => (counts[kb] as f32).ln(),
                _ => f32::NEG_INFINITY,
            }));
            sides.push(mine);
            n += 1;
        }
        if n == 0 {
            return self.score.select(engine, v, rng);
        }
        let ratings = &self.ratings[..n];
        // The `draw` best (rating, score, value), best first; a word is
        // better when rated higher, then scored higher, then smaller.
        let draw = self.draw;
        let better = |a: &(f32, i64, i64), b: &(f32, i64, i64)| {
            a.0 > b.0 || (a.0 == b.0 && (a.1 > b.1 || (a.1 == b.1 && a.2 < b.2)))
        };
        let best = &mut self.best;
        best.clear();
        for x in d.values(v) {
            let rating: f32 = sides
                .iter()
                .zip(ratings)
                .map(|(idx, r)| idx.letter_of(x).map_or(f32::NEG_INFINITY, |k| r[k]))
                .sum();
            let key = (rating, self.score.score_of(v, x), x);
            if best.len() < draw || better(&key, &best[best.len() - 1]) {
                let at = best
                    .iter()
                    .position(|b| better(&key, b))
                    .unwrap_or(best.len());
                best.insert(at, key);
                best.truncate(draw);
            }
        }
        let i = if best.len() > 1 {
            rng.random_range(0..best.len())
        } else {
            0
        };
        Branch::Assign(best.get(i).map_or_else(|| d.min(v), |b| b.2))
    }

    fn varies(&self) -> bool {
        self.draw > 1
    }

    fn attach(&mut self, crossings: &Arc<Crossings>) {
        self.crossings = Some(Arc::clone(crossings));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::wordcross::{Crossing, IndexCache, WordCross};
    use crate::model::{Domain, VarKind, Variable, WordList};
    use crate::source::Span;
    use rand::{RngExt, SeedableRng};

    /// A word variable over all of `list` in the model (for its scores).
    fn word_var(model: &mut Model, list: &Arc<WordList>) {
        model.vars.push(Variable {
            name: format!("w{}", model.vars.len()),
            domain: Domain::Range(0, list.words.len() as i64 - 1),
            kind: VarKind::Word(Arc::clone(list)),
            aux: false,
            span: Span::new(0, 0),
        });
    }

    /// On random lists and domains, the word chosen for `a` is the one a
    /// brute force over the strings rates best: the sum over `a`'s
    /// crossings of the log of the crossing's words sharing its letter,
    /// ties to the best score, then the smallest value.
    #[test]
    fn picks_the_word_its_crossings_keep_most_words_of() {
        let mut rng = Rng::seed_from_u64(11);
        for case in 0..300 {
            let n = rng.random_range(2..40);
            let words: Vec<String> = (0..n)
                .map(|_| {
                    (0..3)
                        .map(|_| char::from(b'a' + rng.random_range(0..4u8)))
                        .collect()
                })
                .collect();
            let scores: Vec<i64> = (0..n).map(|_| rng.random_range(0..3)).collect();
            let list = Arc::new(WordList {
                name: "t".into(),
                words,
                scores,
            });
            let mut model = Model::default();
            let mut h = Harness::new();
            // a crosses b (a[i] == b[j]) and c (a[k] == c[l]); b and c keep random subsets.
            let mut vars = Vec::new();
            for _ in 0..3 {
                let keep: Vec<i64> = (0..n as i64).filter(|_| rng.random_bool(0.6)).collect();
                let keep = if keep.is_empty() { vec![0] } else { keep };
                vars.push(h.var(&keep));
                word_var(&mut model, &list);
            }
            let (a, b, c) = (vars[0], vars[1], vars[2]);
            let (i, j, k, l) = (
                rng.random_range(0..3),
                rng.random_range(0..3),
                rng.random_range(0..3),
                rng.random_range(0..3),
            );
            let mut crossings = Crossings::default();
            let mut cache = IndexCache::new();
            for (x, px, y, py) in [(a, i, b, j), (a, k, c, l)] {
                let d = &h.engine.doms;
                let ix = LetterIndex::shared(&mut cache, &list, px, d, x).unwrap();
                let iy = LetterIndex::shared(&mut cache, &list, py, d, y).unwrap();
                let cr = Crossing::new(x, ix, y, iy);
                let wc = WordCross::new(&cr, &mut h.engine.doms);
                let p = h.engine.add_prop(Box::new(wc));
                crossings.push(p, Arc::new(cr));
            }
            if h.values(a).len() < 2 || h.values(b).len() < 2 || h.values(c).len() < 2 {
                continue;
            }
            let at = |x: i64, p: usize| list.words[x as usize].as_bytes()[p];
            let rate = |x: i64| -> f32 {
                let sharing = |y: VarId, py: usize, px: usize| {
                    h.values(y)
                        .iter()
                        .filter(|&&z| at(z, py) == at(x, px))
                        .count()
                };
                [(b, j, i), (c, l, k)]
                    .iter()
                    .map(|&(y, py, px)| match sharing(y, py, px) {
                        0 => f32::NEG_INFINITY,
                        m => (m as f32).ln(),
                    })
                    .sum()
            };
            let mut want: Option<(f32, i64, i64)> = None;
            for x in h.values(a) {
                let key = (rate(x), list.scores[x as usize], x);
                if want.is_none_or(|w| key.0 > w.0 || key.0 == w.0 && key.1 > w.1) {
                    want = Some(key);
                }
            }
            // `fill-random`: one of the two best, each drawn in 32 tries (below).
            let mut ranked: Vec<(f32, i64, i64)> = h
                .values(a)
                .into_iter()
                .map(|x| (rate(x), list.scores[x as usize], x))
                .collect();
            ranked.sort_by(|p, q| q.0.total_cmp(&p.0).then(q.1.cmp(&p.1)).then(p.2.cmp(&q.2)));
            let two: Vec<i64> = ranked.iter().take(2).map(|k| k.2).collect();
            let crossings = Arc::new(crossings);
            let mut sel = Fill::new(&model, 1);
            sel.attach(&crossings);
            let mut r = Rng::seed_from_u64(0);
            let got = sel.select(&mut h.engine, a, &mut r);
            assert_eq!(
                got,
                Branch::Assign(want.unwrap().2),
                "case {case}: {:?}",
                list.words
            );
            let mut sel = Fill::new(&model, 2);
            sel.attach(&crossings);
            assert!(sel.varies());
            let mut drawn = Vec::new();
            for _ in 0..32 {
                let Branch::Assign(x) = sel.select(&mut h.engine, a, &mut r) else {
                    panic!("fill assigns");
                };
                assert!(two.contains(&x), "case {case}: {x} not among {two:?}");
                if !drawn.contains(&x) {
                    drawn.push(x);
                }
            }
            assert_eq!(drawn.len(), 2, "case {case}: both of {two:?} drawn");
        }
    }
}
