//! `v ∈ s` for an integer variable `v` and a set `s` over the values
//! `elems`: `v` keeps only values `s` may hold, a fixed `v` joins `s`, and
//! `s` has at least one member: the fixpoint of the decomposition
//! (`v ∈ elems`, `v = e -> b_e` for each value) on `v` and the booleans (on
//! an interval domain, too wide for a bitset, `v`'s bounds move to the
//! nearest value `s` may hold).

use super::{SetVar, clamp_card, maybe};
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct SetIn {
    /// The values of the set's positions, increasing.
    elems: Vec<i64>,
    s: SetVar,
    /// The booleans, the cardinality, then `v`.
    vars: Vec<VarId>,
}

impl SetIn {
    /// `v ∈ s`; `None` unless `elems` is increasing and as long as `s`.
    pub(crate) fn new(v: VarId, elems: Vec<i64>, s: SetVar) -> Option<Self> {
        if elems.len() != s.bools.len() || elems.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        let mut vars = Vec::new();
        s.push_vars(&mut vars);
        vars.push(v);
        Some(SetIn { elems, s, vars })
    }

    fn v(&self) -> VarId {
        self.vars[self.vars.len() - 1]
    }

    /// Whether `v` may take the value at position `i`.
    fn allowed(&self, d: &Domains, i: usize) -> bool {
        maybe(d, self.s.bools[i])
    }
}

impl Propagator for SetIn {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Binary
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let v = self.v();
        if d.is_bitset(v) {
            let gone: Vec<i64> = d
                .values(v)
                .filter(|x| {
                    self.elems
                        .binary_search(x)
                        .map_or(true, |i| !self.allowed(d, i))
                })
                .collect();
            for x in gone {
                d.remove(v, x)?;
            }
        } else {
            let first =
                (0..self.elems.len()).find(|&i| self.allowed(d, i) && self.elems[i] >= d.min(v));
            let last = (0..self.elems.len())
                .rev()
                .find(|&i| self.allowed(d, i) && self.elems[i] <= d.max(v));
            match (first, last) {
                (Some(a), Some(b)) if a <= b => {
                    d.set_min(v, self.elems[a])?;
                    d.set_max(v, self.elems[b])?;
                }
                _ => return Err(Fail),
            }
        }
        if let Some(x) = d.value(v) {
            let i = self.elems.binary_search(&x).map_err(|_| Fail)?;
            d.fix(self.s.bools[i], 1)?;
        }
        // Last: it moves no boolean, so this is a fixpoint.
        d.set_min(self.s.card, 1)?;
        clamp_card(d, &self.s)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Shape, check_sets};
    use super::*;
    use crate::engine::harness::{Harness, Strength};

    #[test]
    fn the_element_keeps_the_values_the_set_may_hold() {
        let mut h = Harness::new();
        let s = SetVar {
            bools: (0..3).map(|_| h.range(0, 1)).collect(),
            card: h.range(0, 3),
        };
        let v = h.range(0, 50);
        h.post(SetIn::new(v, vec![5, 10, 20], s.clone()).unwrap());
        assert_eq!(h.values(v), vec![5, 10, 20]);
        assert_eq!(h.bounds(s.card), (1, 3));
        h.fix(s.bools[1], 0).unwrap();
        assert_eq!(h.values(v), vec![5, 20]);
        h.set_min(v, 6).unwrap();
        assert_eq!(h.values(s.bools[2]), vec![1]);
    }

    #[test]
    fn agrees_with_brute_force() {
        // Positions 0, 1, 2 stand for the values -1, 1, 2; `v` ranges over
        // -2..=3, so values outside the set are tried too.
        let elems = [-1, 1, 2];
        check_sets(
            "set in",
            Strength::Check,
            Shape {
                n: 3,
                sets: vec![0],
                extra: vec![-2..=3],
            },
            |s, v| Box::new(SetIn::new(v[0], elems.to_vec(), s[0].clone()).unwrap()),
            |s, v| {
                elems
                    .iter()
                    .position(|&x| x == v[0])
                    .is_some_and(|i| s[0].contains(&i))
            },
        );
    }
}
