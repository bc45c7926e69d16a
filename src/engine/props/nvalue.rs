//! `nvalue(n, x)`: `n` is the number of distinct values taken by `x`.
//!
//! Bounds on `n` (Beldiceanu, "Pruning for the minimum constraint family
//! and for the number of distinct values constraint family", CP 2001): at
//! least the distinct values already fixed plus a set of open variables
//! whose domains are pairwise disjoint and disjoint from them (found
//! greedily on the domains' spans, by earliest end), and at most the number
//! of variables and the size of the union of the domains. When `n` can be
//! no more than the fixed values, every open variable must reuse one of
//! them. Strength: correct and checking (tested against brute force). O(n
//! log n + Σ|D|) per round.

use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

/// Unions of domains wider than this bound `n` by the variable count only.
const MAX_UNION: u64 = 1 << 16;

pub(crate) struct NValue {
    /// `n` then `x`.
    vars: Vec<VarId>,
    fixed: Vec<i64>,
    spans: Vec<(i64, i64)>,
}

impl NValue {
    pub(crate) fn new(n: VarId, x: &[VarId]) -> Self {
        let mut vars = vec![n];
        vars.extend_from_slice(x);
        NValue {
            vars,
            fixed: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// The fixed values (sorted, distinct), and a lower bound on `n`.
    fn lower_bound(&mut self, d: &Domains) -> i64 {
        let x = &self.vars[1..];
        self.fixed.clear();
        self.fixed.extend(x.iter().filter_map(|&v| d.value(v)));
        self.fixed.sort_unstable();
        self.fixed.dedup();
        self.spans.clear();
        for &v in x {
            if d.is_fixed(v) {
                continue;
            }
            let (lo, hi) = (d.min(v), d.max(v));
            // Disjoint from the fixed values: none lies in the span.
            let i = self.fixed.partition_point(|&f| f < lo);
            if self.fixed.get(i).is_none_or(|&f| f > hi) {
                self.spans.push((hi, lo));
            }
        }
        self.spans.sort_unstable();
        let mut disjoint = 0;
        let mut end = i64::MIN;
        for &(hi, lo) in &self.spans {
            if lo > end {
                disjoint += 1;
                end = hi;
            }
        }
        let lb = self.fixed.len() as i64 + disjoint;
        if x.is_empty() { 0 } else { lb.max(1) }
    }

    /// An upper bound on `n`: the variables, and the values they can take.
    fn upper_bound(&self, d: &Domains) -> i64 {
        let x = &self.vars[1..];
        let count = x.len() as i64;
        let lo = x.iter().map(|&v| d.min(v)).min().unwrap_or(0);
        let hi = x.iter().map(|&v| d.max(v)).max().unwrap_or(0);
        let span = crate::engine::domains::span(lo, hi);
        if span > MAX_UNION || x.iter().any(|&v| !d.is_bitset(v)) {
            return count.min(i64::try_from(span).unwrap_or(i64::MAX));
        }
        let mut seen = vec![false; span as usize];
        for &v in x {
            for a in d.values(v) {
                seen[(a - lo) as usize] = true;
            }
        }
        count.min(seen.iter().filter(|&&s| s).count() as i64)
    }
}

impl Propagator for NValue {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.vars[0];
        loop {
            let lb = self.lower_bound(d);
            let mut changed = d.set_min(n, lb)?;
            changed |= d.set_max(n, self.upper_bound(d))?;
            if d.max(n) == self.fixed.len() as i64 {
                // No new value: each open variable takes a fixed one.
                for i in 1..self.vars.len() {
                    let v = self.vars[i];
                    if d.is_fixed(v) {
                        continue;
                    }
                    if d.is_bitset(v) {
                        let gone: Vec<i64> = d
                            .values(v)
                            .filter(|a| self.fixed.binary_search(a).is_err())
                            .collect();
                        for a in gone {
                            changed |= d.remove(v, a)?;
                        }
                    } else {
                        let (lo, hi) = (d.min(v), d.max(v));
                        let i0 = self.fixed.partition_point(|&f| f < lo);
                        let i1 = self.fixed.partition_point(|&f| f <= hi);
                        if i0 == i1 {
                            return Err(crate::engine::domains::Fail);
                        }
                        changed |= d.set_min(v, self.fixed[i0])?;
                        changed |= d.set_max(v, self.fixed[i1 - 1])?;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let lb = self.lower_bound(d);
        lb > d.max(self.vars[0]) || self.upper_bound(d) < d.min(self.vars[0])
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::model::globals::holds::nvalue as holds;

    #[test]
    fn bounds_of_the_count() {
        let mut h = Harness::new();
        let n = h.range(0, 10);
        let x = [h.var(&[1]), h.var(&[1, 2]), h.var(&[5, 6]), h.var(&[5])];
        h.post(NValue::new(n, &x));
        assert_eq!(h.bounds(n), (2, 4));
        h.set_max(n, 2).unwrap();
        assert_eq!(h.values(x[1]), vec![1]);
        assert_eq!(h.values(x[2]), vec![5]);
    }

    #[test]
    fn disjoint_open_domains_raise_the_lower_bound() {
        let mut h = Harness::new();
        let n = h.range(0, 10);
        let x = [
            h.var(&[1, 2]),
            h.var(&[3, 4]),
            h.var(&[5, 6]),
            h.var(&[1, 6]),
        ];
        h.post(NValue::new(n, &x));
        assert_eq!(h.bounds(n), (3, 4));
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        for arity in 2..=5 {
            check_random(
                "nvalue",
                Strength::Check,
                arity,
                |_, vars| Some(Box::new(NValue::new(vars[0], &vars[1..]))),
                |t| holds(t[0], &t[1..]),
            );
        }
    }
}
