//! All-different over variables with constant offsets (`x[i] + c[i]` pairwise
//! distinct, as in the n-queens diagonals).
//!
//! Filtering, to a fixpoint within one call:
//! - value elimination: a fixed term's value is removed from every other term;
//! - pigeonhole: fewer distinct values than terms is a failure;
//! - hidden singles: when there are exactly as many values as terms, a value
//!   that only one term can take is given to that term;
//! - under `propagation ac`, Régin's matching-based GAC (`alldiff_gac.rs`),
//!   which subsumes the two rules above. It runs on the open terms that can
//!   be in a Hall set only (below), and removes that set's values from the
//!   other terms.
//!
//! Which terms can be in a Hall set: a set of k open terms with at most k
//! values between them (the only thing GAC prunes by, or fails on) has
//! terms of at most k values each. With the open terms' sizes sorted,
//! `s_1 <= s_2 <= ...`, such a set needs `s_k <= k`; so only terms of at
//! most K values can be in one, K the largest k with `s_k <= k` (none: GAC
//! has nothing to do). In a crossword the open slots of one length hold
//! thousands of words each, save the few slots that are almost decided, and
//! the matching over every slot and the whole word list (40% of the time of
//! a suggestion on a 15×15 grid with a 7×7 corner open) shrinks to those few.
//!
//! When the terms' values fit in a window of 64 (most classic models), the
//! same filtering runs on one machine word per term (`alldiff_bits.rs`).
//!
//! Explanations (learning, `alldiff_explain.rs`): a value removed from a
//! term because another term is fixed to it is explained by that term's
//! `[x = v]`; any other removal, a hidden single and a failure by a Hall
//! set found from a matching (only the terms that use up the values).

use super::alldiff_bits::BitAllDiff;
use super::alldiff_gac::Matching;
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator};
use crate::engine::trail::RevInt;
use crate::model::VarId;

pub(crate) struct AllDifferent {
    vars: Vec<VarId>,
    /// The terms, permuted so that `order[..done]` are fixed terms whose
    /// values every other term has lost already: value elimination looks
    /// only at the terms fixed since (Gecode's value propagation keeps its
    /// assigned views in front the same way). Swaps happen past `done`
    /// only, so the prefix of every ancestor node stays as it was.
    order: Vec<usize>,
    done: RevInt,
    /// Run Régin's matching-based filtering (under `propagation ac`).
    gac: Option<Matching>,
    /// The same filtering on bitsets, when the values fit in 64.
    bits: Option<BitAllDiff>,
    offsets: Vec<i64>,
    /// Scratch: how many terms can take each value in `lo..lo+counts.len()`.
    counts: Vec<u32>,
    owner: Vec<u32>,
    /// Scratch: the values of fixed terms, sorted.
    taken: Vec<i64>,
    scratch: Vec<i64>,
    /// Scratch for GAC: how many open terms have each size, each term's
    /// size, the Hall candidates (term positions), their variables and
    /// offsets, the tight set's values.
    sizes: Vec<u64>,
    term_sizes: Vec<u64>,
    hall: Vec<usize>,
    last_hall: Vec<usize>,
    sub_vars: Vec<VarId>,
    sub_offsets: Vec<i64>,
    tight: Vec<i64>,
}

/// Value ranges wider than this skip the counting rules (pigeonhole, singles).
const MAX_COUNTED_SPAN: i64 = 1 << 16;

impl AllDifferent {
    /// `x + c` pairwise distinct over the `(x, c)` terms, under the current
    /// domains (which decide the representation); GAC when `gac`.
    pub(crate) fn new(terms: Vec<(VarId, i64)>, gac: bool, d: &mut Domains) -> Self {
        let (vars, offsets): (Vec<VarId>, Vec<i64>) = terms.into_iter().unzip();
        AllDifferent {
            bits: BitAllDiff::new(d, &vars, &offsets),
            order: (0..vars.len()).collect(),
            done: d.trail.new_int(0),
            vars,
            gac: gac.then(Matching::default),
            offsets,
            counts: Vec::new(),
            owner: Vec::new(),
            taken: Vec::new(),
            scratch: Vec::new(),
            sizes: Vec::new(),
            term_sizes: Vec::new(),
            hall: Vec::new(),
            last_hall: Vec::new(),
            sub_vars: Vec::new(),
            sub_offsets: Vec::new(),
            tight: Vec::new(),
        }
    }

    /// Into `self.hall`, after value elimination: the open terms that can be
    /// in a Hall set, those of at most K values (module doc), in term order.
    /// K is the largest k with at least k open terms of at most k values,
    /// found by counting the sizes up to the number of open terms.
    fn hall_candidates(&mut self, d: &Domains) {
        self.term_sizes.clear();
        self.term_sizes.extend(self.vars.iter().map(|&v| d.size(v)));
        let open = self.term_sizes.iter().filter(|&&s| s > 1).count();
        self.sizes.clear();
        self.sizes.resize(open + 1, 0);
        for &s in &self.term_sizes {
            if s > 1 && s <= open as u64 {
                self.sizes[s as usize] += 1;
            }
        }
        let mut k = 0;
        let mut at_most = 0;
        for (size, &count) in self.sizes.iter().enumerate().skip(2) {
            at_most += count;
            if at_most >= size as u64 {
                k = size as u64;
            }
        }
        self.hall.clear();
        for (i, &s) in self.term_sizes.iter().enumerate() {
            if s > 1 && s <= k {
                self.hall.push(i);
            }
        }
    }

    /// One round of GAC: the matching over the Hall candidates, then the
    /// values of their tight set removed from every other open term.
    fn gac_round(&mut self, d: &mut Domains) -> PResult {
        let Some(m) = self.gac.as_mut() else {
            return Ok(());
        };
        self.sub_vars.clear();
        self.sub_offsets.clear();
        for &i in &self.hall {
            self.sub_vars.push(self.vars[i]);
            self.sub_offsets.push(self.offsets[i]);
        }
        m.filter(
            d,
            &self.sub_vars,
            &self.sub_offsets,
            &self.hall,
            &mut self.tight,
        )?;
        if self.tight.is_empty() {
            return Ok(());
        }
        let mut h = 0;
        for (j, &v) in self.vars.iter().enumerate() {
            if h < self.hall.len() && self.hall[h] == j {
                h += 1;
                continue;
            }
            if d.is_fixed(v) {
                continue;
            }
            let off = self.offsets[j];
            for &t in &self.tight {
                d.remove(v, t - off)?;
            }
        }
        Ok(())
    }

    /// The smallest and largest value the terms can take.
    fn value_range(&self, d: &Domains) -> (i64, i64) {
        let n = self.vars.len();
        let lo = (0..n)
            .map(|i| d.min(self.vars[i]) + self.offsets[i])
            .min()
            .unwrap_or(0);
        let hi = (0..n)
            .map(|i| d.max(self.vars[i]) + self.offsets[i])
            .max()
            .unwrap_or(0);
        (lo, hi)
    }

    /// Removes the values of fixed terms from the others, until nothing
    /// changes: the terms fixed since the last call (or an ancestor's)
    /// only, their values checked among themselves and taken from every
    /// term not yet done.
    fn eliminate(&mut self, d: &mut Domains) -> PResult {
        let n = self.vars.len();
        let mut done = d.trail.int(self.done) as usize;
        loop {
            let start = done;
            for p in start..n {
                if d.is_fixed(self.vars[self.order[p]]) {
                    self.order.swap(p, done);
                    done += 1;
                }
            }
            if done == start {
                break;
            }
            self.taken.clear();
            for &i in &self.order[start..done] {
                if let Some(x) = d.value(self.vars[i]) {
                    self.taken.push(x + self.offsets[i]);
                }
            }
            self.taken.sort_unstable();
            if self.taken.windows(2).any(|w| w[0] == w[1]) {
                return Err(Fail);
            }
            for &j in &self.order[done..] {
                let (v, off) = (self.vars[j], self.offsets[j]);
                if d.size(v) as usize <= self.taken.len() {
                    self.scratch.clear();
                    let taken = &self.taken;
                    self.scratch.extend(
                        d.values(v)
                            .filter(|&x| taken.binary_search(&(x + off)).is_ok()),
                    );
                    for &x in &self.scratch {
                        d.remove(v, x)?;
                    }
                } else {
                    for &t in &self.taken {
                        d.remove(v, t - off)?;
                    }
                }
            }
        }
        if done != d.trail.int(self.done) as usize {
            d.trail.set_int(self.done, done as i64);
        }
        Ok(())
    }

    /// Pigeonhole and hidden singles. Returns whether a variable got fixed.
    fn count(&mut self, d: &mut Domains) -> Result<bool, Fail> {
        let n = self.vars.len();
        let (lo, hi) = self.value_range(d);
        if hi - lo >= MAX_COUNTED_SPAN {
            return Ok(false);
        }
        let span = (hi - lo + 1) as usize;
        self.counts.clear();
        self.counts.resize(span, 0);
        self.owner.clear();
        self.owner.resize(span, 0);
        for i in 0..n {
            let v = self.vars[i];
            for x in d.values(v) {
                let k = (x + self.offsets[i] - lo) as usize;
                self.counts[k] += 1;
                self.owner[k] = i as u32;
            }
        }
        let distinct = self.counts.iter().filter(|&&c| c > 0).count();
        if distinct < n {
            return Err(Fail);
        }
        if distinct > n {
            return Ok(false);
        }
        let mut fixed = false;
        for k in 0..span {
            if self.counts[k] == 1 {
                let i = self.owner[k] as usize;
                fixed |= d.fix(self.vars[i], lo + k as i64 - self.offsets[i])?;
            }
        }
        Ok(fixed)
    }
}

impl Propagator for AllDifferent {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    /// Régin's filtering over wide values costs up to the sum of the
    /// candidates' domain sizes per run (a matching and its components), so
    /// it waits for the linear propagators' wave, as Gecode schedules its
    /// domain-consistent distinct.
    fn priority(&self) -> Priority {
        if self.gac.is_some() && self.bits.is_none() {
            Priority::Slow
        } else {
            Priority::Linear
        }
    }
    /// Two fixed terms with the same value: what the pairwise `!=` would see.
    fn violated(&mut self, d: &Domains) -> bool {
        if let Some(b) = &mut self.bits {
            return b.violated(d, &self.vars);
        }
        let seen = &mut self.taken;
        seen.clear();
        seen.extend(
            self.vars
                .iter()
                .zip(&self.offsets)
                .filter_map(|(&v, &o)| d.value(v).map(|x| x + o)),
        );
        seen.sort_unstable();
        seen.windows(2).any(|w| w[0] == w[1])
    }
    /// Value elimination removes every fixed term's value from the last open one.
    fn consistent_on_last_open(&self) -> bool {
        true
    }
    /// Left with all-different among the open terms: value elimination has
    /// removed the fixed terms' values.
    fn residual_in_domains(&self) -> bool {
        true
    }
    fn distinct_terms(&self) -> Option<(&[VarId], &[i64])> {
        Some((&self.vars, &self.offsets))
    }
    /// Learning: the fixed term, or a Hall set (`alldiff_explain.rs`).
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        super::alldiff_explain::explain(&self.vars, &self.offsets, lit, past, out)
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        if let Some(b) = &mut self.bits {
            return if self.gac.is_some() {
                b.gac(d, &self.vars)
            } else {
                b.eliminate_and_count(d, &self.vars)
            };
        }
        if self.gac.is_some() {
            // Rounds until the candidates stay the same: GAC over them is
            // idempotent, and a term outside them is in no Hall set.
            let mut first = true;
            loop {
                self.eliminate(d)?;
                self.hall_candidates(d);
                if self.hall.is_empty() || (!first && self.hall == self.last_hall) {
                    return Ok(());
                }
                first = false;
                self.gac_round(d)?;
                std::mem::swap(&mut self.last_hall, &mut self.hall);
            }
        }
        loop {
            self.eliminate(d)?;
            if !self.count(d)? {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
impl AllDifferent {
    /// The general (not bitset) filtering, to test it on small domains too.
    pub(crate) fn without_bits(mut self) -> Self {
        self.bits = None;
        self
    }

    /// The general filtering with the matching's values numbered through
    /// their list (as for the words of a long list), on small domains.
    fn listed(mut self) -> Self {
        self.bits = None;
        if self.gac.is_some() {
            self.gac = Some(Matching::listed());
        }
        self
    }

    /// Form `k` of three: 0 the bitset one, 1 the general one with a dense
    /// window of values, 2 the general one with listed values.
    fn form(self, k: usize) -> Self {
        match k {
            0 => self,
            1 => self.without_bits(),
            _ => self.listed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};
    use crate::engine::learn::Lit;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// Both representations of the same constraint.
    fn both(h: &mut Harness, terms: &[(VarId, i64)], gac: bool) -> [AllDifferent; 2] {
        let p = AllDifferent::new(terms.to_vec(), gac, &mut h.engine.doms);
        assert!(p.bits.is_some(), "small values take the bitset form");
        let q = AllDifferent::new(terms.to_vec(), gac, &mut h.engine.doms).without_bits();
        [p, q]
    }

    #[test]
    fn hidden_single_without_gac() {
        for general in [false, true] {
            let mut h = Harness::new();
            let x = [h.var(&[1, 2]), h.var(&[1, 2]), h.var(&[1, 2, 3])];
            let [p, q] = both(&mut h, &[(x[0], 0), (x[1], 0), (x[2], 0)], false);
            h.post(if general { q } else { p });
            assert_eq!(h.values(x[2]), vec![3], "3 has one place left");
            h.fix(x[0], 2).unwrap();
            assert_eq!(h.values(x[1]), vec![1], "value elimination");
            assert!(h.remove(x[1], 1).is_err());
        }
    }

    #[test]
    fn hall_set_needs_gac() {
        for gac in [false, true] {
            for general in [false, true] {
                let mut h = Harness::new();
                let x = [h.var(&[1, 2]), h.var(&[1, 2]), h.range(1, 4), h.range(1, 4)];
                let terms: Vec<_> = x.iter().map(|&v| (v, 0)).collect();
                let [p, q] = both(&mut h, &terms, gac);
                h.post(if general { q } else { p });
                let want: Vec<i64> = if gac { vec![3, 4] } else { vec![1, 2, 3, 4] };
                assert_eq!(h.values(x[2]), want, "gac {gac}, general {general}");
                assert_eq!(h.values(x[3]), want);
            }
        }
    }

    #[test]
    fn offsets_shift_the_values() {
        for general in [false, true] {
            let mut h = Harness::new();
            let x = [h.var(&[1, 2]), h.var(&[1, 2]), h.var(&[0])];
            let [p, q] = both(&mut h, &[(x[0], 0), (x[1], 1), (x[2], 2)], true);
            h.post(if general { q } else { p });
            assert_eq!((h.values(x[0]), h.values(x[1])), (vec![1], vec![2]));
        }
    }

    #[test]
    fn pigeonhole_fails() {
        for gac in [false, true] {
            let mut h = Harness::new();
            let x = [h.var(&[1, 2]), h.var(&[1, 2]), h.var(&[1, 2])];
            let [p, _] = both(&mut h, &[(x[0], 0), (x[1], 0), (x[2], 0)], gac);
            assert!(h.try_post(p).is_err());
        }
    }

    #[test]
    fn wide_values_take_the_general_form() {
        let mut h = Harness::new();
        let x = [h.var(&[0, 1]), h.var(&[0, 100])];
        let p = AllDifferent::new(vec![(x[0], 0), (x[1], 0)], true, &mut h.engine.doms);
        assert!(p.bits.is_none());
        h.post(p);
        h.fix(x[1], 0).unwrap();
        assert_eq!(h.values(x[0]), vec![1]);
    }

    /// Only the terms small enough to be in a Hall set enter the matching,
    /// and that set's values still leave the large ones; a failure among
    /// the small ones is still found.
    #[test]
    fn hall_set_of_small_terms_prunes_the_large_ones() {
        for form in 1..3 {
            let mut h = Harness::new();
            let small = [h.var(&[100, 300]), h.var(&[100, 300])];
            let large: Vec<VarId> = (0..3).map(|_| h.range(0, 1000)).collect();
            let terms: Vec<_> = small.iter().chain(&large).map(|&v| (v, 0)).collect();
            let mut p = AllDifferent::new(terms.clone(), true, &mut h.engine.doms).form(form);
            p.hall_candidates(&h.engine.doms);
            assert_eq!(p.hall, vec![0, 1], "sizes 2, 2, 1001, ...: K = 2");
            h.post(p);
            for &x in &large {
                assert_eq!(h.engine.doms.size(x), 999);
                assert!(!h.engine.doms.contains(x, 100) && !h.engine.doms.contains(x, 300));
            }
            let mut h = Harness::new();
            let small = [h.var(&[5, 900]), h.var(&[5, 900]), h.var(&[5, 900])];
            let big = h.range(0, 1000);
            let terms: Vec<_> = small.iter().chain([&big]).map(|&v| (v, 0)).collect();
            let p = AllDifferent::new(terms, true, &mut h.engine.doms).form(form);
            assert!(h.try_post(p).is_err(), "three terms, two values");
        }
    }

    /// Régin's pruning when a free value reaches some terms and not others
    /// (`alldiff_gac.rs` looks for components among the unreached ones
    /// only): {x0, x1} on {10, 20} is a Hall set inside x2's wider domain,
    /// while x3 reaches the free value. With every term reached, nothing goes.
    #[test]
    fn free_values_reach_some_terms_and_not_others() {
        for form in 1..3 {
            let mut h = Harness::new();
            let x = [
                h.var(&[10, 20]),
                h.var(&[10, 20]),
                h.var(&[10, 20, 30, 200]),
                h.var(&[30, 200, 400]),
            ];
            let terms: Vec<_> = x.iter().map(|&v| (v, 0)).collect();
            let p = AllDifferent::new(terms, true, &mut h.engine.doms).form(form);
            h.post(p);
            assert_eq!(h.values(x[2]), vec![30, 200], "form {form}");
            assert_eq!(h.values(x[3]), vec![30, 200, 400]);
            assert_eq!(h.values(x[0]), vec![10, 20]);

            let mut h = Harness::new();
            let x = [
                h.var(&[10, 20, 300]),
                h.var(&[10, 20, 300]),
                h.var(&[10, 300, 500]),
            ];
            let terms: Vec<_> = x.iter().map(|&v| (v, 0)).collect();
            let p = AllDifferent::new(terms, true, &mut h.engine.doms).form(form);
            h.post(p);
            let sizes: Vec<u64> = x.iter().map(|&v| h.engine.doms.size(v)).collect();
            assert_eq!(
                sizes,
                vec![3, 3, 3],
                "form {form}: every value has a support"
            );
        }
    }

    /// `t[i] + i` pairwise distinct: offsets as in the queens' diagonals.
    fn distinct_diagonals(t: &[i64]) -> bool {
        let s: Vec<i64> = t.iter().enumerate().map(|(i, &x)| x + i as i64).collect();
        (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j]))
    }

    #[test]
    fn gac_is_domain_consistent_against_brute_force() {
        for form in 0..3 {
            for n in 1..=4 {
                check_random(
                    "alldifferent gac",
                    Strength::Domain,
                    n,
                    |d, vars| {
                        let terms = vars.iter().enumerate().map(|(i, &v)| (v, i as i64));
                        let p = AllDifferent::new(terms.collect(), true, d);
                        Some(Box::new(p.form(form)))
                    },
                    distinct_diagonals,
                );
            }
        }
    }

    #[test]
    fn elimination_is_correct_against_brute_force() {
        for general in [false, true] {
            for n in 1..=4 {
                check_random(
                    "alldifferent",
                    Strength::Check,
                    n,
                    |d, vars| {
                        let terms = vars.iter().enumerate().map(|(i, &v)| (v, i as i64));
                        let p = AllDifferent::new(terms.collect(), false, d);
                        Some(Box::new(if general { p.without_bits() } else { p }))
                    },
                    distinct_diagonals,
                );
            }
        }
    }

    #[test]
    fn explanations_are_implied() {
        for gac in [false, true] {
            for form in 0..3 {
                for n in [3, 5] {
                    check_explanations_random(
                        "alldifferent explained",
                        n,
                        0..=5,
                        60,
                        |d, vars| {
                            let terms = vars.iter().enumerate().map(|(i, &v)| (v, i as i64 / 2));
                            let p = AllDifferent::new(terms.collect(), gac, d);
                            Some(Box::new(p.form(form)))
                        },
                        distinct_halves,
                    );
                }
            }
        }
    }

    /// Value elimination is explained by the fixed term alone; a Hall set
    /// by the other terms' domains, not the pruned term's own.
    #[test]
    fn removals_are_explained_by_the_other_terms() {
        for general in [false, true] {
            let mut h = Harness::new();
            let x = [h.range(1, 3), h.range(1, 3), h.range(1, 3), h.range(1, 4)];
            h.engine.start_learning();
            let [p, q] = both(&mut h, &x.map(|v| (v, 0)), true);
            h.post(if general { q } else { p });
            h.engine.doms.checkpoint();
            h.fix(x[0], 1).unwrap();
            assert_eq!(h.explanation(Lit::ne(x[1], 1)), vec![Lit::eq(x[0], 1)]);
            let mut h = Harness::new();
            let x = [h.range(1, 4), h.range(1, 4), h.range(1, 4), h.range(1, 4)];
            h.engine.start_learning();
            let [p, q] = both(&mut h, &x.map(|v| (v, 0)), true);
            h.post(if general { q } else { p });
            h.engine.doms.checkpoint();
            h.set_max(x[0], 2).unwrap();
            h.set_max(x[1], 2).unwrap();
            let got = h.explanation(Lit::ne(x[3], 2));
            assert!(got.contains(&Lit::le(x[0], 2)) && got.contains(&Lit::le(x[1], 2)));
            assert!(got.iter().all(|l| l.var != x[3]), "{got:?}");
        }
    }

    /// `t[i] + i / 2` pairwise distinct: equal offsets in pairs, so that the
    /// harness's repeated variables give both `x` twice (never distinct)
    /// and `x` beside `x + 1` (never equal).
    fn distinct_halves(t: &[i64]) -> bool {
        let s: Vec<i64> = t
            .iter()
            .enumerate()
            .map(|(i, &x)| x + i as i64 / 2)
            .collect();
        (0..s.len()).all(|i| (i + 1..s.len()).all(|j| s[i] != s[j]))
    }

    #[test]
    fn repeated_variables_with_equal_and_shifted_offsets() {
        for gac in [false, true] {
            for form in 0..3 {
                for n in 2..=5 {
                    check_random(
                        "alldifferent halves",
                        if gac {
                            Strength::Domain
                        } else {
                            Strength::Check
                        },
                        n,
                        |d, vars| {
                            let terms = vars.iter().enumerate().map(|(i, &v)| (v, i as i64 / 2));
                            let p = AllDifferent::new(terms.collect(), gac, d);
                            Some(Box::new(p.form(form)))
                        },
                        distinct_halves,
                    );
                }
            }
        }
    }

    /// The bitset and the general forms reach the same domains, on random
    /// domains larger than brute force can check, through random decisions
    /// and backtracks.
    #[test]
    fn bitset_form_matches_the_general_one() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(10);
        for trial in 0..400 {
            let gac = trial % 2 == 0;
            let n = rng.random_range(2..=10);
            let width = rng.random_range(n as i64..=40);
            let mut hs = [Harness::new(), Harness::new()];
            let mut vars = Vec::new();
            let mut terms = Vec::new();
            for i in 0..n {
                // A third of the terms repeat an earlier variable under
                // another offset (`x` and `x + 3`): both enter the done
                // prefix together when it is fixed.
                if i > 0 && rng.random_range(0..3) == 0 {
                    let v = vars[rng.random_range(0..vars.len())];
                    let first = terms.iter().find(|t: &&(VarId, i64)| t.0 == v).unwrap().1;
                    terms.push((v, first + 1 + i as i64));
                    continue;
                }
                let values: Vec<i64> = (0..width).filter(|_| rng.random_range(0..4) > 0).collect();
                let values = if values.is_empty() { vec![0] } else { values };
                let off = rng.random_range(-3..=3) + i as i64 % 3;
                let v = hs[0].var(&values);
                hs[1].var(&values);
                vars.push(v);
                terms.push((v, off));
            }
            let p = AllDifferent::new(terms.clone(), gac, &mut hs[0].engine.doms);
            assert!(p.bits.is_some(), "small values take the bitset form");
            let q = AllDifferent::new(terms.clone(), gac, &mut hs[1].engine.doms).without_bits();
            let results = [hs[0].try_post(p), hs[1].try_post(q)];
            assert_eq!(results[0], results[1], "trial {trial} posted");
            if results[0].is_err() {
                continue;
            }
            // Dives and backtracks: the general form keeps its value
            // elimination's progress on the trail.
            let mut stack = Vec::new();
            for step in 0..24 {
                for v in &vars {
                    assert_eq!(
                        hs[0].values(*v),
                        hs[1].values(*v),
                        "trial {trial} step {step}"
                    );
                }
                if !stack.is_empty() && rng.random_range(0..4) == 0 {
                    let [a, b] = stack.pop().unwrap();
                    hs[0].engine.doms.restore(a);
                    hs[1].engine.doms.restore(b);
                    continue;
                }
                let open: Vec<VarId> = vars
                    .iter()
                    .copied()
                    .filter(|&v| hs[0].values(v).len() > 1)
                    .collect();
                if open.is_empty() {
                    break;
                }
                stack.push(hs.each_mut().map(|h| h.engine.doms.checkpoint()));
                let x = open[rng.random_range(0..open.len())];
                let values = hs[0].values(x);
                let v = values[rng.random_range(0..values.len())];
                let kind = rng.random_range(0..3);
                let results = hs.each_mut().map(|h| match kind {
                    0 => h.fix(x, v),
                    1 => h.remove(x, v),
                    _ => h.set_min(x, v),
                });
                assert_eq!(results[0], results[1], "trial {trial} step {step}");
                if results[0].is_err() {
                    let [a, b] = stack.pop().unwrap();
                    hs[0].engine.doms.restore(a);
                    hs[1].engine.doms.restore(b);
                }
            }
        }
    }
}
