//! `lex_less(x, y)` and `lex_lesseq(x, y)`: the sequence `x` comes strictly
//! before (or not after) `y` in lexicographic order; both have length n.
//!
//! Domain consistency for distinct variables, in O(n) per call, after
//! Frisch, Hnich, Kiziltan, Miguel & Walsh ("Global constraints for
//! lexicographic orderings", CP 2002), computed as a scan: `F(i)` says
//! whether the suffixes from `i` can still be ordered (`x[i] < y[i]` is
//! possible, or `x[i] = y[i]` and `F(i + 1)`; `F(n)` is true only for
//! `lex_lesseq`). Going forward while every earlier position must be equal,
//! position `i` keeps `x[i] <= max y[i]` and `y[i] >= min x[i]`, strictly
//! when `F(i + 1)` fails; the first position where `x[i] < y[i]` is still
//! possible frees everything after it. A variable shared by `x` and `y`
//! makes the constraint only bounds-checked by the same rules (correct and
//! checking).

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct Lex {
    /// `x` then `y`.
    vars: Vec<VarId>,
    n: usize,
    strict: bool,
    /// Scratch: `F(i)` for each position.
    tail: Vec<bool>,
}

impl Lex {
    pub(crate) fn new(x: &[VarId], y: &[VarId], strict: bool) -> Self {
        debug_assert_eq!(x.len(), y.len());
        let mut vars = x.to_vec();
        vars.extend_from_slice(y);
        Lex {
            vars,
            n: x.len(),
            strict,
            tail: Vec::new(),
        }
    }
}

/// Whether `x = y = a` is possible for some `a`.
fn can_equal(d: &Domains, x: VarId, y: VarId) -> bool {
    let (lo, hi) = (d.min(x).max(d.min(y)), d.max(x).min(d.max(y)));
    if lo > hi {
        return false;
    }
    if !d.is_bitset(x) || !d.is_bitset(y) {
        return true;
    }
    let (small, other) = if d.size(x) <= d.size(y) {
        (x, y)
    } else {
        (y, x)
    };
    d.values(small)
        .any(|a| a >= lo && a <= hi && d.contains(other, a))
}

impl Propagator for Lex {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        for &v in &self.vars {
            s.wake(v, event::REMOVE);
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.n;
        let (x, y) = self.vars.split_at(n);
        self.tail.clear();
        self.tail.resize(n + 1, false);
        self.tail[n] = !self.strict;
        for i in (0..n).rev() {
            self.tail[i] =
                d.min(x[i]) < d.max(y[i]) || (self.tail[i + 1] && can_equal(d, x[i], y[i]));
        }
        if !self.tail[0] {
            return Err(Fail);
        }
        for i in 0..n {
            // Every earlier position must be equal: this one decides or ties.
            if self.tail[i + 1] {
                d.set_max(x[i], d.max(y[i]))?;
                d.set_min(y[i], d.min(x[i]))?;
            } else {
                d.set_max(x[i], d.max(y[i]) - 1)?;
                d.set_min(y[i], d.min(x[i]) + 1)?;
            }
            if d.min(x[i]) < d.max(y[i]) {
                return Ok(()); // x[i] < y[i] is possible: the rest is free
            }
            if !can_equal(d, x[i], y[i]) {
                return Err(Fail);
            }
            // Only x[i] = y[i] remains possible.
            if d.is_fixed(x[i]) && d.is_fixed(y[i]) {
                continue;
            }
            // x[i] >= y[i] everywhere and ties only: x[i] = y[i] = max y = min x.
            let a = d.min(x[i]);
            d.fix(x[i], a)?;
            d.fix(y[i], a)?;
        }
        Ok(())
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let (x, y) = self.vars.split_at(self.n);
        for i in 0..self.n {
            match (d.value(x[i]), d.value(y[i])) {
                (Some(a), Some(b)) if a < b => return false,
                (Some(a), Some(b)) if a > b => return true,
                (Some(_), Some(_)) => continue,
                _ => return false,
            }
        }
        self.strict
    }
    fn consistent_on_last_open(&self) -> bool {
        false
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::model::globals::holds::lex as holds;

    #[test]
    fn equal_prefix_then_order() {
        let mut h = Harness::new();
        let x = [h.range(2, 2), h.range(0, 5), h.range(0, 9)];
        let y = [h.range(1, 2), h.range(0, 3), h.range(0, 9)];
        h.post(Lex::new(&x, &y, true));
        assert_eq!(h.values(y[0]), vec![2]);
        assert_eq!(h.values(x[1]), (0..=3).collect::<Vec<_>>());
        h.fix(y[1], 0).unwrap();
        assert_eq!(h.values(x[1]), vec![0]);
        assert!(h.values(x[2]).iter().all(|&v| v < 9));
        assert!(h.values(y[2]).iter().all(|&v| v > 0));
    }

    #[test]
    fn domain_consistent_against_brute_force() {
        for strict in [false, true] {
            for n in 1..=3 {
                check_random(
                    if strict { "lex_less" } else { "lex_lesseq" },
                    Strength::Domain,
                    2 * n,
                    move |_, vars| Some(Box::new(Lex::new(&vars[..n], &vars[n..], strict))),
                    move |t| holds(&t[..n], &t[n..], strict),
                );
            }
        }
    }
}
