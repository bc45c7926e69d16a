//! `global_cardinality(x, v, c)`: `c[k]` is the number of variables of `x`
//! equal to `v[k]` (the values `v` distinct; `x` may take other values too).
//! Also what a family of counts over the same terms lowers to
//! (`count(j in J: x[j] == i)` for several `i`, as in a magic sequence).
//!
//! For each value: the variables fixed to it bound `c[k]` from below and
//! those that can take it from above; when `c[k]` can be no larger than the
//! fixed ones, the value leaves every other variable, and when it must be as
//! large as the possible ones, they all take it (the counting rules of
//! Régin's GCC without the flow: Choco's and Gecode's "value" consistency).
//! With `shared`, also the counts share the n variables: each `c[k]` is at
//! most n minus the other counts' minima. Strength: correct and checking,
//! tested against brute force (not domain consistency, which needs a flow).
//!
//! Incremental: per value the number fixed to it and the number that can
//! take it, and per variable which of the values it can take and whether it
//! is fixed, all on the trail and kept up to date by notification, which
//! costs the number of counted values the variable could take before the
//! change. A run looks only at the values whose counts or count variable
//! changed. (The version before scanned all n variables for each of the m
//! values at every run: a magic sequence of 200 as `global_cardinality`
//! took five times Gecode's time for the same nodes.)
//!
//! Learning: without `shared`, every pruning is one value's counting rule,
//! explained as `among` over that value is (`among_explain.rs`); with it,
//! the default.

use super::count_eq::bound_count;
use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::learn::{Kind, Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::engine::trail::RevWords;
use crate::model::VarId;

pub(crate) struct GlobalCardinality {
    /// `x` then `c`.
    vars: Vec<VarId>,
    n: usize,
    values: Vec<i64>,
    /// Whether the rule over the counts' sum runs (`global_cardinality`
    /// has it; a family of counts, lowered from a decomposition, does not).
    shared: bool,
    /// Words per variable in `kept.can`.
    words: usize,
    /// The first value when the values are consecutive (ascending).
    range: Option<i128>,
    kept: Kept,
    /// The value whose rule failed in the last run, for its explanation.
    failed: Option<usize>,
}

/// Per value `k`, `counts[2k]` the variables fixed to it and `counts[2k+1]`
/// those that can take it; per variable `j`, bit `k` of its `words` words
/// at `can[j * words]` whether it can take `v[k]`, and bit `j` of `fixed`
/// whether it is fixed (to a counted value or not). Bit `k` of `pending`:
/// value `k`'s counts or count variable changed since its rule last ran.
/// That too is on the trail: a look-ahead (`val lcv`) that runs the
/// propagator and is undone must leave pending what was pending before it,
/// as under `propagation fc` the propagator is not at its fixpoint there.
#[derive(Clone, Copy)]
struct Kept {
    counts: RevWords,
    can: RevWords,
    fixed: RevWords,
    pending: RevWords,
}

impl GlobalCardinality {
    /// `values` must be distinct (lowering turns a repeated value into an
    /// equality of its counts).
    pub(crate) fn new(
        x: &[VarId],
        values: Vec<i64>,
        counts: &[VarId],
        shared: bool,
        d: &mut Domains,
    ) -> Self {
        debug_assert_eq!(values.len(), counts.len());
        let (n, m) = (x.len(), values.len());
        let words = m.div_ceil(64).max(1);
        let mut can = vec![0u64; n * words];
        let mut fixed = vec![0u64; n.div_ceil(64).max(1)];
        let mut tally = vec![0u64; 2 * m];
        for (j, &xj) in x.iter().enumerate() {
            let is = d.is_fixed(xj);
            fixed[j / 64] |= (is as u64) << (j % 64);
            for (k, &v) in values.iter().enumerate() {
                if d.contains(xj, v) {
                    can[j * words + k / 64] |= 1 << (k % 64);
                    tally[2 * k + 1] += 1;
                    tally[2 * k] += is as u64;
                }
            }
        }
        let mut pending = vec![0u64; words];
        for k in 0..m {
            pending[k / 64] |= 1 << (k % 64);
        }
        let t = &mut d.trail;
        let kept = Kept {
            counts: t.new_words(&tally),
            can: t.new_words(&can),
            fixed: t.new_words(&fixed),
            pending: t.new_words(&pending),
        };
        let mut vars = x.to_vec();
        vars.extend_from_slice(counts);
        let range = Self::contiguous(&values);
        GlobalCardinality {
            vars,
            n,
            values,
            shared,
            words,
            range,
            kept,
            failed: None,
        }
    }

    fn mark(&mut self, d: &mut Domains, k: usize) {
        let word = d.trail.word(self.kept.pending, k / 64);
        d.trail
            .set_word(self.kept.pending, k / 64, word | 1 << (k % 64));
    }

    /// A pending value, taken off the list.
    fn next_pending(&mut self, d: &mut Domains) -> Option<usize> {
        let p = self.kept.pending;
        let w = (0..p.len()).find(|&w| d.trail.word(p, w) != 0)?;
        let word = d.trail.word(p, w);
        d.trail.set_word(p, w, word & (word - 1));
        Some(w * 64 + word.trailing_zeros() as usize)
    }

    fn count(&self, d: &Domains, k: usize, fixed: bool) -> i64 {
        d.trail.word(self.kept.counts, 2 * k + !fixed as usize) as i64
    }

    fn add(&mut self, d: &mut Domains, k: usize, fixed: bool, delta: i64) {
        let slot = 2 * k + !fixed as usize;
        let now = d.trail.word(self.kept.counts, slot) as i64 + delta;
        d.trail.set_word(self.kept.counts, slot, now as u64);
        self.mark(d, k);
    }

    fn can(&self, d: &Domains, j: usize, k: usize) -> bool {
        d.trail.word(self.kept.can, j * self.words + k / 64) >> (k % 64) & 1 == 1
    }

    /// Brings variable `j`'s kept bits and the counts up to its domain;
    /// whether anything changed.
    fn refresh(&mut self, j: usize, d: &mut Domains) -> bool {
        let x = self.vars[j];
        let was_fixed = d.trail.word(self.kept.fixed, j / 64) >> (j % 64) & 1 == 1;
        let is_fixed = d.is_fixed(x);
        let mut changed = false;
        for w in 0..self.words {
            let slot = j * self.words + w;
            let old = d.trail.word(self.kept.can, slot);
            let new = match self.range {
                Some(lo) => {
                    old & d.window_at(x, i64::try_from(lo + 64 * w as i128).unwrap_or(i64::MAX))
                }
                None => {
                    let mut new = old;
                    let mut bits = old;
                    while bits != 0 {
                        let k = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if !d.contains(x, self.values[k]) {
                            new &= !(1 << (k % 64));
                        }
                    }
                    new
                }
            };
            let mut gone = old & !new;
            while gone != 0 {
                let k = w * 64 + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                self.add(d, k, false, -1);
                if was_fixed {
                    self.add(d, k, true, -1);
                }
            }
            if is_fixed && !was_fixed && new != 0 {
                self.add(d, w * 64 + new.trailing_zeros() as usize, true, 1);
            }
            if new != old {
                d.trail.set_word(self.kept.can, slot, new);
                changed = true;
            }
        }
        if is_fixed != was_fixed {
            let word = d.trail.word(self.kept.fixed, j / 64) ^ 1 << (j % 64);
            d.trail.set_word(self.kept.fixed, j / 64, word);
            changed = true;
        }
        changed
    }

    /// One value's counting rule.
    fn count_rule(&mut self, k: usize, d: &mut Domains) -> PResult {
        let (v, c) = (self.values[k], self.vars[self.n + k]);
        let (fixed, possible) = (self.count(d, k, true), self.count(d, k, false));
        let Some((reached, _)) = bound_count(d, c, fixed, possible)? else {
            return Ok(());
        };
        for j in 0..self.n {
            let x = self.vars[j];
            if !self.can(d, j, k) || d.is_fixed(x) || !d.contains(x, v) {
                continue;
            }
            if reached {
                d.remove(x, v)?;
            } else {
                d.fix(x, v)?;
            }
            self.refresh(j, d);
        }
        Ok(())
    }

    /// Each count is at most n minus the others' minima; whether a count
    /// changed (its value is then pending again).
    fn shared_rule(&mut self, d: &mut Domains) -> Result<bool, Fail> {
        let counts = self.n..self.vars.len();
        let least: i64 = counts.clone().map(|i| d.min(self.vars[i])).sum();
        let spare = self.n as i64 - least;
        if spare < 0 {
            return Err(Fail);
        }
        let mut changed = false;
        for (k, i) in counts.enumerate() {
            let c = self.vars[i];
            if d.max(c) > d.min(c) + spare {
                d.set_max(c, d.min(c) + spare)?;
                self.mark(d, k);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Whether the values are `lo, lo + 1, ...`: then a variable's kept
    /// bits are updated a word at a time from its domain.
    fn contiguous(values: &[i64]) -> Option<i128> {
        let lo = *values.first()? as i128;
        (lo..)
            .zip(values)
            .all(|(expected, &v)| v as i128 == expected)
            .then_some(lo)
    }

    /// The value of the rule that made `lit` (learning without `shared`).
    fn value_of(&self, lit: Lit) -> Option<usize> {
        let (x, c) = self.vars.split_at(self.n);
        let mut ks = c.iter().enumerate().filter(|&(_, &ck)| ck == lit.var);
        if let Some((k, _)) = ks.next() {
            // A count of one value only, not also counted: that value's rule.
            return (ks.next().is_none() && !x.contains(&lit.var)).then_some(k);
        }
        let v = match lit.kind {
            Kind::Eq | Kind::Ne => lit.val,
            Kind::Le => lit.val.checked_add(1)?,
            Kind::Ge => lit.val.checked_sub(1)?,
        };
        self.values.iter().position(|&u| u == v)
    }
}

impl Propagator for GlobalCardinality {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        // Woken when an x_j is fixed (forward checking runs the watchers of
        // a decided variable) or a count's bounds move, and, through
        // `notify`, when a counted value leaves an x_j.
        for (j, &x) in self.vars[..self.n].iter().enumerate() {
            s.wake(x, event::FIX);
            s.notify(x, j, event::REMOVE);
        }
        for (k, &c) in self.vars[self.n..].iter().enumerate() {
            s.wake(c, event::BOUNDS);
            s.notify(c, self.n + k, event::BOUNDS);
        }
    }
    fn notify(&mut self, position: usize, d: &mut Domains) -> bool {
        if position < self.n {
            self.refresh(position, d)
        } else {
            self.mark(d, position - self.n);
            true
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        self.failed = None;
        loop {
            while let Some(k) = self.next_pending(d) {
                if self.count_rule(k, d).is_err() {
                    self.failed = Some(k);
                    return Err(Fail);
                }
            }
            if !self.shared || !self.shared_rule(d)? {
                return Ok(());
            }
        }
    }
    /// From the kept counts, which every change reaches through `notify`
    /// before this is asked.
    fn violated(&mut self, d: &Domains) -> bool {
        (0..self.values.len()).any(|k| {
            let c = self.vars[self.n + k];
            self.count(d, k, true) > d.max(c) || self.count(d, k, false) < d.min(c)
        })
    }
    /// Learning: by the one value's rule that acted, as `among` over that
    /// value explains it; with the counts' sum rule, the default.
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        if self.shared {
            return false;
        }
        let k = match lit {
            None => self.failed,
            Some(l) => self.value_of(l),
        };
        let Some(k) = k else {
            return false;
        };
        let (x, c) = self.vars.split_at(self.n);
        super::among_explain::explain(x, c[k], &[self.values[k]], lit, past, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};
    use crate::model::globals::holds::global_cardinality as holds;

    fn post(h: &mut Harness, x: &[VarId], values: Vec<i64>, c: &[VarId], shared: bool) {
        let p = GlobalCardinality::new(x, values, c, shared, &mut h.engine.doms);
        h.post(p);
    }

    #[test]
    fn counts_and_values_prune_each_other() {
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..4).map(|_| h.range(1, 3)).collect();
        let c = [h.range(0, 4), h.range(0, 1)];
        post(&mut h, &x, vec![1, 2], &c, true);
        h.fix(x[0], 2).unwrap();
        // Value 2 is used once and may be used at most once.
        assert!(x[1..].iter().all(|&xi| !h.values(xi).contains(&2)));
        h.set_min(c[0], 3).unwrap();
        assert!(x[1..].iter().all(|&xi| h.values(xi) == vec![1]));
        assert_eq!(h.values(c[0]), vec![3]);
    }

    /// No values: nothing to count, nothing to look at (a value past the
    /// end once was, on the first run).
    #[test]
    fn no_values_prune_nothing() {
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..3).map(|_| h.range(0, 2)).collect();
        post(&mut h, &x, vec![], &[], true);
        h.fix(x[0], 1).unwrap();
        assert_eq!(h.values(x[1]), vec![0, 1, 2]);
    }

    #[test]
    fn the_counts_share_the_variables() {
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..4).map(|_| h.range(0, 5)).collect();
        let c = [h.range(0, 4), h.range(0, 4)];
        post(&mut h, &x, vec![1, 2], &c, true);
        h.set_min(c[0], 3).unwrap();
        assert_eq!(h.bounds(c[1]), (0, 1));
        // Without the shared rule each count only sees its own value.
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..4).map(|_| h.range(0, 5)).collect();
        let c = [h.range(0, 4), h.range(0, 4)];
        post(&mut h, &x, vec![1, 2], &c, false);
        h.set_min(c[0], 3).unwrap();
        assert_eq!(h.bounds(c[1]), (0, 4));
    }

    /// The kept counts come back with the domains on backtracking.
    #[test]
    fn kept_counts_follow_backtracking() {
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..4).map(|_| h.range(0, 2)).collect();
        let c = [h.range(0, 4), h.range(0, 4)];
        post(&mut h, &x, vec![1, 2], &c, false);
        let cp = h.engine.doms.checkpoint();
        h.fix(x[0], 1).unwrap();
        h.remove(x[1], 1).unwrap();
        h.remove(x[2], 2).unwrap();
        assert_eq!(h.bounds(c[0]), (1, 3));
        assert_eq!(h.bounds(c[1]), (0, 2));
        h.engine.doms.restore(cp);
        h.fix(x[3], 2).unwrap();
        assert_eq!(h.bounds(c[0]), (0, 3));
        assert_eq!(h.bounds(c[1]), (1, 4));
    }

    /// A magic sequence of 7 as one propagator: `s[i]` is the number of
    /// `s[j]` equal to `i`, each `s[i]` both counted and a count. Its one
    /// solution is 3, 2, 1, 1, 0, 0, 0.
    #[test]
    fn a_magic_sequence_counts_itself() {
        let mut h = Harness::new();
        let s: Vec<VarId> = (0..7).map(|_| h.range(0, 6)).collect();
        post(&mut h, &s, (0..7).collect(), &s, false);
        for (i, v) in [3, 2, 1, 1, 0].into_iter().enumerate() {
            h.fix(s[i], v).unwrap();
        }
        assert_eq!((h.values(s[5]), h.values(s[6])), (vec![0], vec![0]));
        let mut h = Harness::new();
        let s: Vec<VarId> = (0..7).map(|_| h.range(0, 6)).collect();
        post(&mut h, &s, (0..7).collect(), &s, false);
        assert!(h.fix(s[0], 2).and_then(|_| h.fix(s[2], 0)).is_err());
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        // The first n - 2 variables are x, the last two the counts of the
        // two values (apart, or consecutive: kept a word at a time).
        for values in [[-1, 2], [0, 1]] {
            for shared in [true, false] {
                for n in 3..=5 {
                    check_random(
                        "global_cardinality",
                        Strength::Check,
                        n,
                        move |d, vars| {
                            Some(Box::new(GlobalCardinality::new(
                                &vars[..n - 2],
                                values.to_vec(),
                                &vars[n - 2..],
                                shared,
                                d,
                            )))
                        },
                        move |t| holds(&t[..n - 2], &values, &t[n - 2..]),
                    );
                }
            }
        }
    }

    /// The variables are their own counts, as in a magic sequence, with
    /// the values 0 to n - 1 (the brute force draws from -3 to 4).
    #[test]
    fn counts_that_are_counted_against_brute_force() {
        for n in 3..=5 {
            let values: Vec<i64> = (0..n as i64).collect();
            let v = values.clone();
            check_random(
                "global_cardinality of itself",
                Strength::Check,
                n,
                move |d, vars| {
                    Some(Box::new(GlobalCardinality::new(
                        vars,
                        values.clone(),
                        vars,
                        false,
                        d,
                    )))
                },
                move |t| holds(t, &v, t),
            );
        }
    }

    #[test]
    fn explanations_are_implied() {
        for arity in [4, 5, 6] {
            check_explanations_random(
                "global_cardinality explained",
                arity,
                0..=3,
                60,
                |d, vs| {
                    let (c, xs) = vs.split_at(2);
                    Some(Box::new(GlobalCardinality::new(
                        xs,
                        vec![0, 2],
                        c,
                        false,
                        d,
                    )))
                },
                |vals| {
                    let (c, xs) = vals.split_at(2);
                    holds(xs, &[0, 2], c)
                },
            );
        }
    }
}
