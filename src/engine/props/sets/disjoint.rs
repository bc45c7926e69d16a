//! `all_disjoint(S)`: no value in two sets of `S`; with a universe `U`,
//! `partition_set(S, U)`: every value of `U` in exactly one set and no
//! other value in any (`disjoint(a, b)` is `all_disjoint([a, b])`).
//!
//! Elements: a value surely in one set leaves the others; for a
//! partition, a value of `U` that all sets but one exclude joins that one,
//! and a value outside `U` leaves all (domain consistency per value, as the
//! decomposition into sums `<= 1` or `= 1` per value).
//!
//! Cardinalities, the counting argument the decomposition cannot make:
//! disjoint sets fit in the union of their upper bounds, so with `V` the
//! number of values some set may still hold, `Σ |s_i| <= V` and each
//! `|s_i| <= V - Σ_{j≠i} min |s_j|`; a partition of `U` has
//! `Σ |s_i| = |U|` exactly, so also `|s_i| >= |U| - Σ_{j≠i} max |s_j|`.

use super::{SetVar, clamp_card, maybe, surely};
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct AllDisjoint {
    sets: Vec<SetVar>,
    /// For a partition, whether each value of the universe must be covered.
    universe: Option<Vec<bool>>,
    vars: Vec<VarId>,
}

impl AllDisjoint {
    /// `None` when the sets' universes differ in length (or the
    /// universe's).
    pub(crate) fn new(sets: Vec<SetVar>, universe: Option<Vec<bool>>) -> Option<Self> {
        let n = sets.first().map_or(0, |s| s.bools.len());
        if sets.iter().any(|s| s.bools.len() != n)
            || universe.as_ref().is_some_and(|u| u.len() != n)
        {
            return None;
        }
        let mut vars = Vec::new();
        for s in &sets {
            s.push_vars(&mut vars);
        }
        Some(AllDisjoint {
            sets,
            universe,
            vars,
        })
    }

    /// The element rules for value `e`; whether some set may hold it
    /// afterwards.
    fn element(&self, d: &mut Domains, e: usize) -> Result<bool, Fail> {
        let covered = self.universe.as_ref().map(|u| u[e]);
        if covered == Some(false) {
            for s in &self.sets {
                d.fix(s.bools[e], 0)?;
            }
            return Ok(false);
        }
        let holder = self.sets.iter().position(|s| surely(d, s.bools[e]));
        if let Some(k) = holder {
            for (i, s) in self.sets.iter().enumerate() {
                if i != k {
                    d.fix(s.bools[e], 0)?;
                }
            }
            return Ok(true);
        }
        let mut open = self.sets.iter().filter(|s| maybe(d, s.bools[e]));
        let first = open.next();
        if covered == Some(true) {
            match (first, open.next()) {
                (None, _) => return Err(Fail),
                (Some(s), None) => {
                    d.fix(s.bools[e], 1)?;
                }
                _ => {}
            }
        }
        Ok(first.is_some())
    }
}

impl Propagator for AllDisjoint {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.sets.first().map_or(0, |s| s.bools.len());
        let mut room = 0;
        for e in 0..n {
            room += i64::from(self.element(d, e)?);
        }
        let size = self
            .universe
            .as_ref()
            .map(|u| u.iter().filter(|&&c| c).count() as i64);
        loop {
            let mut cards = Vec::with_capacity(self.sets.len());
            for s in &self.sets {
                cards.push(clamp_card(d, s)?);
            }
            let least: i64 = cards.iter().map(|c| c.0).sum();
            let most: i64 = cards.iter().map(|c| c.1).sum();
            let mut moved = false;
            for (s, &(lo, hi)) in self.sets.iter().zip(&cards) {
                moved |= d.set_max(s.card, room - (least - lo))?;
                if let Some(size) = size {
                    moved |= d.set_max(s.card, size - (least - lo))?;
                    moved |= d.set_min(s.card, size - (most - hi))?;
                }
            }
            if !moved {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Shape, check_sets};
    use super::*;
    use crate::engine::harness::{Harness, Strength};

    fn sets(h: &mut Harness, k: usize, n: usize) -> Vec<SetVar> {
        (0..k)
            .map(|_| SetVar {
                bools: (0..n).map(|_| h.range(0, 1)).collect(),
                card: h.range(0, n as i64),
            })
            .collect()
    }

    #[test]
    fn disjoint_sets_fit_in_the_values_left() {
        // Three sets of at least 2 out of 6 values: once one value is out
        // of every set, they cannot fit, which no single value shows.
        let mut h = Harness::new();
        let s = sets(&mut h, 3, 6);
        for x in &s {
            h.set_min(x.card, 2).unwrap();
        }
        h.post(AllDisjoint::new(s.clone(), None).unwrap());
        assert_eq!(h.bounds(s[0].card), (2, 2));
        h.engine.doms.checkpoint();
        let mut failed = false;
        for x in &s {
            failed |= h.engine.doms.fix(x.bools[5], 0).is_err();
        }
        assert!(failed || h.engine.fixpoint().is_err());
    }

    #[test]
    fn a_partition_covers_its_universe() {
        let mut h = Harness::new();
        let s = sets(&mut h, 2, 4);
        h.set_max(s[0].card, 1).unwrap();
        h.post(AllDisjoint::new(s.clone(), Some(vec![true, true, true, false])).unwrap());
        // |s1| = 3 - |s0| >= 2, and value 3 is in neither.
        assert_eq!(h.bounds(s[1].card), (2, 3));
        assert_eq!(h.values(s[0].bools[3]), vec![0]);
        h.fix(s[1].bools[0], 0).unwrap();
        assert_eq!(h.values(s[0].bools[0]), vec![1]);
        // With the cardinalities' own propagators, s0 is full at 1 member,
        // so the rest of the universe goes to s1.
        for x in &s {
            h.post(crate::engine::props::sets::card::SetCard::new(x.clone()));
        }
        assert_eq!(h.values(s[1].bools[1]), vec![1]);
        assert_eq!(h.values(s[1].bools[2]), vec![1]);
    }

    #[test]
    fn agrees_with_brute_force() {
        let disjoint = |s: &[Vec<usize>]| {
            s.iter()
                .enumerate()
                .all(|(i, a)| s[i + 1..].iter().all(|b| a.iter().all(|e| !b.contains(e))))
        };
        for universe in [None, Some(vec![true, false, true])] {
            for sets in [vec![0, 1, 2], vec![0, 1], vec![0, 0], vec![0, 1, 0]] {
                let u = universe.clone();
                check_sets(
                    &format!("set all_disjoint {universe:?} {sets:?}"),
                    Strength::Check,
                    Shape {
                        n: 3,
                        sets,
                        extra: vec![],
                    },
                    |s, _| Box::new(AllDisjoint::new(s.to_vec(), u.clone()).unwrap()),
                    |s, _| {
                        disjoint(s)
                            && universe.as_ref().is_none_or(|u| {
                                (0..3).all(|e| u[e] == s.iter().any(|m| m.contains(&e)))
                            })
                    },
                );
            }
        }
    }
}
