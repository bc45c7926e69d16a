//! `c = #{j : x_j in S}` for a constant set `S`: `among`, and through it
//! `at_most`, `at_least`, `exactly` and each window of `sequence`. With `F`
//! the number of `x_j` whose domain lies inside `S` and `P` the number whose
//! domain meets `S`, `c` lies in `F..=P`; when `c` can be no more than `F`,
//! the values of `S` leave every other domain, and when it must be at least
//! `P`, every `x_j` that meets `S` is restricted to `S`. That is domain
//! consistency on the `x_j` and bounds consistency on `c` (the decomposition
//! into reified memberships and a sum has the same fixpoint), in one pass of
//! O(n·|S|) per run; on an interval domain (too wide for a bitset) inner
//! removals are no-ops and restriction to `S` moves its bounds only.
//!
//! `count_eq.rs` is the incremental special case `S = {v}` that sums use.
//! Both explain (learning) by the terms each rule needs (`among_explain.rs`).

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct Among {
    /// The `x_j`, then `c` last.
    vars: Vec<VarId>,
    /// `S`, sorted and distinct.
    set: Vec<i64>,
}

impl Among {
    pub(crate) fn new(xs: &[VarId], mut set: Vec<i64>, count: VarId) -> Self {
        set.sort_unstable();
        set.dedup();
        let mut vars = xs.to_vec();
        vars.push(count);
        Among { vars, set }
    }

    /// Whether `x`'s domain meets `S`, and whether it lies inside `S`.
    fn state(&self, d: &Domains, x: VarId) -> (bool, bool) {
        meets_and_inside(&self.set, d, x)
    }

    /// Restricts `x` to `S`.
    fn restrict(&self, d: &mut Domains, x: VarId) -> PResult {
        restrict_to(&self.set, d, x)
    }
}

/// Whether `x`'s domain meets the sorted set `set`, and whether it lies
/// inside it (an interval domain only when `set` covers its range).
pub(crate) fn meets_and_inside(set: &[i64], d: &Domains, x: VarId) -> (bool, bool) {
    let in_set = |v: i64| set.binary_search(&v).is_ok();
    let (lo, hi) = (d.min(x), d.max(x));
    if let Some(v) = d.value(x) {
        let is = in_set(v);
        return (is, is);
    }
    let meets = set.iter().any(|&s| lo <= s && s <= hi && d.contains(x, s));
    if !meets {
        return (false, false);
    }
    let inside = if d.is_bitset(x) {
        d.values(x).all(in_set)
    } else {
        let (a, b) = (
            set.partition_point(|&s| s < lo),
            set.partition_point(|&s| s <= hi),
        );
        (b - a) as i128 == hi as i128 - lo as i128 + 1
    };
    (true, inside)
}

/// Restricts `x` to the sorted set `set` (an interval domain: its bounds).
pub(crate) fn restrict_to(set: &[i64], d: &mut Domains, x: VarId) -> PResult {
    let (lo, hi) = (d.min(x), d.max(x));
    let a = set.partition_point(|&s| s < lo);
    let b = set.partition_point(|&s| s <= hi);
    if a == b {
        return Err(Fail);
    }
    d.set_min(x, set[a])?;
    d.set_max(x, set[b - 1])?;
    if d.is_bitset(x) {
        let out: Vec<i64> = d
            .values(x)
            .filter(|v| set.binary_search(v).is_err())
            .collect();
        for v in out {
            d.remove(x, v)?;
        }
    }
    Ok(())
}

impl Propagator for Among {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    /// Learning: by the terms the rule that acted needs (`among_explain.rs`).
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let Some((c, xs)) = self.vars.split_last() else {
            return false;
        };
        super::among_explain::explain(xs, *c, &self.set, lit, past, out)
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.vars.len() - 1;
        let c = self.vars[n];
        let (mut fixed, mut possible) = (0i64, 0i64);
        let mut open = Vec::new();
        for j in 0..n {
            let (meets, inside) = self.state(d, self.vars[j]);
            possible += meets as i64;
            fixed += inside as i64;
            if meets && !inside {
                open.push(self.vars[j]);
            }
        }
        d.set_min(c, fixed)?;
        d.set_max(c, possible)?;
        if open.is_empty() {
            return Ok(());
        }
        if d.max(c) == fixed {
            for &x in &open {
                for &s in &self.set {
                    d.remove(x, s)?;
                }
            }
        } else if d.min(c) == possible {
            for &x in &open {
                self.restrict(d, x)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    #[test]
    fn bounds_of_the_count_follow_the_domains() {
        let mut h = Harness::new();
        let x = h.range(0, 2);
        let y = h.var(&[1, 3]);
        let z = h.range(5, 6);
        let c = h.range(0, 5);
        h.post(Among::new(&[x, y, z], vec![1, 3], c));
        assert_eq!(h.bounds(c), (1, 2));
        h.remove(x, 1).unwrap();
        assert_eq!(h.bounds(c), (1, 1));
    }

    #[test]
    fn a_count_that_must_be_reached_restricts_to_the_set() {
        let mut h = Harness::new();
        let xs: Vec<VarId> = (0..3).map(|_| h.range(0, 5)).collect();
        let c = h.range(3, 3);
        h.post(Among::new(&xs, vec![2, 4], c));
        assert!(xs.iter().all(|&x| h.values(x) == vec![2, 4]));
    }

    #[test]
    fn interval_domains_move_their_bounds_into_the_set() {
        let mut h = Harness::new();
        h.engine.doms.bounds_only = true;
        let x = h.range(0, 100);
        let c = h.range(1, 1);
        h.post(Among::new(&[x], vec![7, 50], c));
        assert_eq!(h.bounds(x), (7, 50));
    }

    #[test]
    fn agrees_with_brute_force() {
        for set in [vec![0], vec![-1, 2], vec![-3, 0, 1, 4], vec![9]] {
            for arity in [2, 4, 5] {
                let s = set.clone();
                check_random(
                    "among",
                    Strength::Domain,
                    arity,
                    |_, vs| {
                        let (c, xs) = vs.split_last().unwrap();
                        Some(Box::new(Among::new(xs, set.clone(), *c)))
                    },
                    |vals| {
                        let (c, xs) = vals.split_last().unwrap();
                        crate::model::globals::holds::among(*c, xs, &s)
                    },
                );
            }
        }
    }
}
