//! `x[0] <= x[1] <= ... <= x[n-1]`. One forward pass raising each minimum
//! to its predecessor's and one backward pass lowering each maximum to its
//! successor's reach the fixpoint, and at that fixpoint every value is
//! supported (the predecessors at their minima and the successors at their
//! maxima extend it): domain consistency in O(n) per call.

use crate::engine::domains::{Domains, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct Increasing {
    vars: Vec<VarId>,
}

impl Increasing {
    pub(crate) fn new(vars: Vec<VarId>) -> Self {
        Increasing { vars }
    }
}

impl Propagator for Increasing {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(&self.vars, event::BOUNDS);
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        for w in self.vars.windows(2) {
            d.set_min(w[1], d.min(w[0]))?;
        }
        for w in self.vars.windows(2).rev() {
            d.set_max(w[0], d.max(w[1]))?;
        }
        Ok(())
    }
    fn violated(&mut self, d: &Domains) -> bool {
        self.vars
            .windows(2)
            .any(|w| matches!((d.value(w[0]), d.value(w[1])), (Some(a), Some(b)) if a > b))
    }
    fn consistent_on_last_open(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    #[test]
    fn bounds_move_along_the_chain() {
        let mut h = Harness::new();
        let x = [h.range(0, 9), h.var(&[2, 5, 7]), h.range(0, 6)];
        h.post(Increasing::new(x.to_vec()));
        assert_eq!(h.values(x[0]), (0..=5).collect::<Vec<_>>());
        assert_eq!(h.values(x[1]), vec![2, 5]);
        assert_eq!(h.values(x[2]), (2..=6).collect::<Vec<_>>());
        h.set_min(x[0], 3).unwrap();
        assert_eq!(h.values(x[1]), vec![5]);
        assert_eq!(h.bounds(x[2]), (5, 6));
        assert!(h.set_max(x[2], 4).is_err());
    }

    #[test]
    fn domain_consistent_against_brute_force() {
        for n in 1..=4 {
            check_random(
                "increasing",
                Strength::Domain,
                n,
                |_, vars| Some(Box::new(Increasing::new(vars.to_vec()))),
                |t| t.windows(2).all(|w| w[0] <= w[1]),
            );
        }
    }
}
