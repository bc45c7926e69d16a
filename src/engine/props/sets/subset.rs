//! `x ⊆ y`, and `x = y` (both ways). Elements: a value surely in `x` is
//! in `y`, one surely not in `y` is not in `x` (for equality, both ways):
//! domain consistency per value, the fixpoint of the decomposition into
//! implications. Cardinalities: `|x| <= |y|` (equal for `x = y`), on the
//! bounds of the two cardinality variables, each kept between its set's
//! bound sizes (a cardinality's effect on the booleans is `card.rs`'s).

use super::{SetVar, clamp_card, maybe, surely};
use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct Subset {
    x: SetVar,
    y: SetVar,
    /// `x = y` rather than `x ⊆ y`.
    equal: bool,
    vars: Vec<VarId>,
}

impl Subset {
    /// `x ⊆ y` (`equal`: `x = y`); `None` when the universes differ in length.
    pub(crate) fn new(x: SetVar, y: SetVar, equal: bool) -> Option<Self> {
        if x.bools.len() != y.bools.len() {
            return None;
        }
        let mut vars = Vec::new();
        x.push_vars(&mut vars);
        y.push_vars(&mut vars);
        Some(Subset { x, y, equal, vars })
    }
}

impl Propagator for Subset {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        for (&a, &b) in self.x.bools.iter().zip(&self.y.bools) {
            if surely(d, a) {
                d.fix(b, 1)?;
            }
            if !maybe(d, b) {
                d.fix(a, 0)?;
            }
            if self.equal {
                if surely(d, b) {
                    d.fix(a, 1)?;
                }
                if !maybe(d, a) {
                    d.fix(b, 0)?;
                }
            }
        }
        loop {
            let (x0, x1) = clamp_card(d, &self.x)?;
            let (y0, y1) = clamp_card(d, &self.y)?;
            let mut moved = d.set_max(self.x.card, y1)? | d.set_min(self.y.card, x0)?;
            if self.equal {
                moved |= d.set_min(self.x.card, y0)? | d.set_max(self.y.card, x1)?;
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

    #[test]
    fn cardinalities_follow_inclusion() {
        let mut h = Harness::new();
        let mut set = |card: (i64, i64)| SetVar {
            bools: (0..4).map(|_| h.range(0, 1)).collect(),
            card: h.range(card.0, card.1),
        };
        let (x, y) = (set((2, 4)), set((0, 3)));
        h.post(Subset::new(x.clone(), y.clone(), false).unwrap());
        assert_eq!((h.bounds(x.card), h.bounds(y.card)), ((2, 3), (2, 3)));
        h.fix(x.bools[0], 1).unwrap();
        h.fix(y.bools[1], 0).unwrap();
        assert_eq!(h.values(y.bools[0]), vec![1]);
        assert_eq!(h.values(x.bools[1]), vec![0]);
    }

    #[test]
    fn agrees_with_brute_force() {
        for equal in [false, true] {
            for sets in [vec![0, 1], vec![0, 0]] {
                check_sets(
                    &format!("set subset {equal} {sets:?}"),
                    Strength::Check,
                    Shape {
                        n: 3,
                        sets,
                        extra: vec![],
                    },
                    |s, _| Box::new(Subset::new(s[0].clone(), s[1].clone(), equal).unwrap()),
                    |s, _| s[0].iter().all(|e| s[1].contains(e)) && (!equal || s[0] == s[1]),
                );
            }
        }
    }
}
