//! Set variables in the engine. A set over a universe of `n` values is `n`
//! 0/1 variables, one per value, and a cardinality variable: its lower
//! bound (the values that must be in it) is the booleans fixed to 1, its
//! upper bound (the values that may be) those not fixed to 0. The
//! propagators here reason on whole sets, as Gecode's set propagators do on
//! set bounds: each keeps, besides its element rules, the cardinality of
//! every set it names between the sizes of its bounds, and reasons on the
//! cardinalities together (`|y ∪ z| <= |y| + |z| - |lb y ∩ lb z|`; disjoint
//! sets fit in the union of their upper bounds).
//!
//! Every propagator takes its sets aligned on one universe: position `e`
//! of every set's booleans stands for the same value (lowering pads a set
//! with a variable fixed to 0 where its universe lacks a value). A set may
//! appear twice (`x = x ∪ y`, `all_disjoint([s, s])`): each position is
//! read as its own (a relaxation, see ARCHITECTURE.md, 3a), so all the
//! rules stay correct and checking, and the engine runs the propagator again
//! on its own changes.
//!
//! - `card.rs`: `|s| = c`, the cardinality variable of each set.
//! - `ops.rs`: `x = y ∪ z`, `x = y ∩ z`, `x = y \ z`.
//! - `subset.rs`: `x ⊆ y` and `x = y`.
//! - `disjoint.rs`: `all_disjoint` and `partition_set` (and `disjoint`).
//! - `member.rs`: `v ∈ s` for an integer variable `v`.

pub(crate) mod card;
pub(crate) mod disjoint;
pub(crate) mod member;
pub(crate) mod ops;
pub(crate) mod subset;

use crate::engine::domains::{Domains, Fail};
use crate::model::VarId;

/// A set variable: a 0/1 variable per value of its universe and its
/// cardinality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SetVar {
    pub bools: Vec<VarId>,
    pub card: VarId,
}

impl SetVar {
    /// Its variables in the order the propagators list them: the booleans,
    /// then the cardinality.
    fn push_vars(&self, out: &mut Vec<VarId>) {
        out.extend_from_slice(&self.bools);
        out.push(self.card);
    }
}

/// Whether value `e` is surely in the set (the boolean is fixed to 1).
pub(super) fn surely(d: &Domains, b: VarId) -> bool {
    d.min(b) >= 1
}

/// Whether value `e` may be in the set (the boolean is not fixed to 0).
pub(super) fn maybe(d: &Domains, b: VarId) -> bool {
    d.max(b) >= 1
}

/// The sizes of the lower and upper bounds of a set.
pub(super) fn bound_sizes(d: &Domains, bools: &[VarId]) -> (i64, i64) {
    let lo = bools.iter().filter(|&&b| surely(d, b)).count() as i64;
    let hi = bools.iter().filter(|&&b| maybe(d, b)).count() as i64;
    (lo, hi)
}

/// Keeps the cardinality between the sizes of the set's bounds; returns
/// the cardinality's bounds afterwards.
pub(super) fn clamp_card(d: &mut Domains, s: &SetVar) -> Result<(i64, i64), Fail> {
    let (lo, hi) = bound_sizes(d, &s.bools);
    d.set_min(s.card, lo)?;
    d.set_max(s.card, hi)?;
    Ok((d.min(s.card), d.max(s.card)))
}

/// Fixes the booleans still open in `bools` to `v`.
pub(super) fn fix_open(d: &mut Domains, bools: &[VarId], v: i64) -> Result<(), Fail> {
    for &b in bools {
        if !d.is_fixed(b) {
            d.fix(b, v)?;
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod testing {
    //! Brute-force checks of the set propagators: sets of a small universe
    //! (their booleans 0/1, their cardinalities drawn from `0..=n+1`, so a
    //! cardinality outside the bounds is tried too), optionally the same set
    //! in two places.

    use super::SetVar;
    use crate::engine::harness::{Strength, check_random_shaped};
    use crate::engine::propagator::Propagator;
    use crate::model::VarId;

    /// The sets of one trial: `count` distinct sets of `n` booleans and a
    /// cardinality each (variables `k * (n + 1) ..`), plus `extra` integer
    /// variables after them with values in `extra_values`; position `p`
    /// names set `sets[p]`.
    pub(crate) struct Shape {
        pub n: usize,
        pub sets: Vec<usize>,
        pub extra: Vec<std::ops::RangeInclusive<i64>>,
    }

    impl Shape {
        fn distinct(&self) -> usize {
            self.sets.iter().max().map_or(0, |&m| m + 1)
        }
    }

    /// Checks the propagator `make` builds over the sets of `shape` (then the
    /// extra variables) against `holds`, which sees each set as its member
    /// list (positions `0..n` with boolean 1) and the extra values, and is
    /// wrapped so that every cardinality must equal its set's size.
    pub(crate) fn check_sets(
        name: &str,
        strength: Strength,
        shape: Shape,
        make: impl Fn(&[SetVar], &[VarId]) -> Box<dyn Propagator>,
        holds: impl Fn(&[Vec<usize>], &[i64]) -> bool,
    ) {
        let n = shape.n;
        let count = shape.distinct();
        let mut ranges = Vec::new();
        for _ in 0..count {
            ranges.extend((0..n).map(|_| 0..=1));
            ranges.push(0..=n as i64 + 1);
        }
        ranges.extend(shape.extra.iter().cloned());
        let width = n + 1;
        let sets = shape.sets.clone();
        let extra = shape.extra.len();
        check_random_shaped(
            name,
            strength,
            &ranges,
            |_, vars| {
                let set = |k: usize| SetVar {
                    bools: vars[k * width..k * width + n].to_vec(),
                    card: vars[k * width + n],
                };
                let args: Vec<SetVar> = sets.iter().map(|&k| set(k)).collect();
                Some(make(&args, &vars[count * width..]))
            },
            |values| {
                let mut members = Vec::new();
                for k in 0..count {
                    let bits = &values[k * width..k * width + n];
                    let m: Vec<usize> = (0..n).filter(|&e| bits[e] == 1).collect();
                    if values[k * width + n] != m.len() as i64 {
                        return false;
                    }
                    members.push(m);
                }
                let args: Vec<Vec<usize>> = sets.iter().map(|&k| members[k].clone()).collect();
                holds(&args, &values[count * width..count * width + extra])
            },
        );
    }
}
