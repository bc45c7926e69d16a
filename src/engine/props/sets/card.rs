//! `|s| = c`: the cardinality variable of a set kept equal to the number
//! of its members. `c` stays between the sizes of the lower and upper
//! bounds; when `c` can be no more than the lower bound's size the other
//! values leave the set, and when it must be the upper bound's size they
//! all join it. That is domain consistency (on the booleans and on `c`),
//! the fixpoint of the sum `c = Σ b` it replaces, in one pass of O(n).

use super::{SetVar, bound_sizes, fix_open};
use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct SetCard {
    set: SetVar,
    /// The booleans, then the cardinality.
    vars: Vec<VarId>,
}

impl SetCard {
    pub(crate) fn new(set: SetVar) -> Self {
        let mut vars = Vec::new();
        set.push_vars(&mut vars);
        SetCard { set, vars }
    }
}

impl Propagator for SetCard {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn consistent_on_last_open(&self) -> bool {
        true
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let s = &self.set;
        let (lo, hi) = bound_sizes(d, &s.bools);
        d.set_min(s.card, lo)?;
        d.set_max(s.card, hi)?;
        if lo < hi {
            if d.max(s.card) == lo {
                fix_open(d, &s.bools, 0)?;
            } else if d.min(s.card) == hi {
                fix_open(d, &s.bools, 1)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Shape, check_sets};
    use super::*;
    use crate::engine::harness::{Harness, Strength};

    #[test]
    fn card_fills_or_empties_the_open_values() {
        let mut h = Harness::new();
        let bools: Vec<VarId> = (0..4).map(|_| h.range(0, 1)).collect();
        let card = h.range(0, 10);
        h.post(SetCard::new(SetVar {
            bools: bools.clone(),
            card,
        }));
        assert_eq!(h.bounds(card), (0, 4));
        h.fix(bools[0], 1).unwrap();
        h.fix(bools[1], 0).unwrap();
        assert_eq!(h.bounds(card), (1, 3));
        h.set_min(card, 3).unwrap();
        assert_eq!((h.values(bools[2]), h.values(bools[3])), (vec![1], vec![1]));
    }

    #[test]
    fn agrees_with_brute_force() {
        for n in 1..=4 {
            check_sets(
                "set card",
                Strength::Domain,
                Shape {
                    n,
                    sets: vec![0],
                    extra: vec![],
                },
                |s, _| Box::new(SetCard::new(s[0].clone())),
                |_, _| true,
            );
        }
    }
}
