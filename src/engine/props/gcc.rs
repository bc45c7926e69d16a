//! `global_cardinality(x, v, c)`: `c[k]` is the number of variables of `x`
//! equal to `v[k]` (the values `v` distinct; `x` may take other values too).
//!
//! For each value: the variables fixed to it bound `c[k]` from below and
//! those that can take it from above; when `c[k]` can be no larger than the
//! fixed ones, the value leaves every other variable, and when it must be as
//! large as the possible ones, they all take it (the counting rules of
//! Régin's GCC without the flow: Choco's and Gecode's "value" consistency).
//! Also the counts share the n variables: each `c[k]` is at most n minus the
//! other counts' minima. Strength: correct and checking, tested against
//! brute force (not domain consistency, which needs a flow). O(n · |v|) per
//! round.

use crate::engine::domains::{Domains, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct GlobalCardinality {
    /// `x` then `c`.
    vars: Vec<VarId>,
    n: usize,
    values: Vec<i64>,
}

impl GlobalCardinality {
    pub(crate) fn new(x: &[VarId], values: Vec<i64>, counts: &[VarId]) -> Self {
        debug_assert_eq!(values.len(), counts.len());
        let mut vars = x.to_vec();
        vars.extend_from_slice(counts);
        GlobalCardinality {
            vars,
            n: x.len(),
            values,
        }
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
        for &v in &self.vars[..self.n] {
            s.wake(v, event::REMOVE);
        }
        for &c in &self.vars[self.n..] {
            s.wake(c, event::BOUNDS);
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let (x, c) = self.vars.split_at(self.n);
        let n = self.n as i64;
        loop {
            let mut changed = false;
            for (k, &v) in self.values.iter().enumerate() {
                let fixed = x.iter().filter(|&&xi| d.value(xi) == Some(v)).count() as i64;
                let possible = x.iter().filter(|&&xi| d.contains(xi, v)).count() as i64;
                changed |= d.set_min(c[k], fixed)?;
                changed |= d.set_max(c[k], possible)?;
                if d.max(c[k]) == fixed && possible > fixed {
                    for &xi in x {
                        if !d.is_fixed(xi) {
                            changed |= d.remove(xi, v)?;
                        }
                    }
                } else if d.min(c[k]) == possible && possible > fixed {
                    for &xi in x {
                        if d.contains(xi, v) {
                            changed |= d.fix(xi, v)?;
                        }
                    }
                }
            }
            let least: i64 = c.iter().map(|&ck| d.min(ck)).sum();
            for &ck in c {
                changed |= d.set_max(ck, n - (least - d.min(ck)))?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let (x, c) = self.vars.split_at(self.n);
        self.values.iter().enumerate().any(|(k, &v)| {
            let fixed = x.iter().filter(|&&xi| d.value(xi) == Some(v)).count() as i64;
            let possible = x.iter().filter(|&&xi| d.contains(xi, v)).count() as i64;
            fixed > d.max(c[k]) || possible < d.min(c[k])
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::model::globals::holds::global_cardinality as holds;

    #[test]
    fn counts_and_values_prune_each_other() {
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..4).map(|_| h.range(1, 3)).collect();
        let c = [h.range(0, 4), h.range(0, 1)];
        h.post(GlobalCardinality::new(&x, vec![1, 2], &c));
        h.fix(x[0], 2).unwrap();
        // Value 2 is used once and may be used at most once.
        assert!(x[1..].iter().all(|&xi| !h.values(xi).contains(&2)));
        h.set_min(c[0], 3).unwrap();
        assert!(x[1..].iter().all(|&xi| h.values(xi) == vec![1]));
        assert_eq!(h.values(c[0]), vec![3]);
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        // The first n - 2 variables are x, the last two the counts of -1 and 2.
        for n in 3..=5 {
            check_random(
                "global_cardinality",
                Strength::Check,
                n,
                move |_, vars| {
                    Some(Box::new(GlobalCardinality::new(
                        &vars[..n - 2],
                        vec![-1, 2],
                        &vars[n - 2..],
                    )))
                },
                move |t| holds(&t[..n - 2], &[-1, 2], &t[n - 2..]),
            );
        }
    }
}
