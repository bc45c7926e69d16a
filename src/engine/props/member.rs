//! `x in S` for a sorted set `S`: the holes of a domain too wide for a
//! bitset (the variable is held by its bounds). Bounds consistency: each
//! bound moves to the nearest member of `S` inside the domain, which also
//! makes the propagator checking.

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;
use std::sync::Arc;

pub(crate) struct Member {
    vars: [VarId; 1],
    /// Sorted, distinct.
    set: Arc<[i64]>,
}

impl Member {
    pub(crate) fn new(x: VarId, set: Arc<[i64]>) -> Self {
        Member { vars: [x], set }
    }
}

impl Propagator for Member {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Unary
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake(self.vars[0], event::BOUNDS);
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let x = self.vars[0];
        // A bitset domain may snap a bound onto a non-member: go again.
        loop {
            let lo = self.set.partition_point(|&v| v < d.min(x));
            let hi = self.set.partition_point(|&v| v <= d.max(x));
            if lo >= hi {
                return Err(Fail);
            }
            let moved = d.set_min(x, self.set[lo])? | d.set_max(x, self.set[hi - 1])?;
            if !moved {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;

    #[test]
    fn bounds_snap_to_members() {
        let mut h = Harness::new();
        let x = h.range(0, 1 << 40);
        h.post(Member::new(x, vec![3, 1 << 20, 1 << 35].into()));
        assert_eq!(h.bounds(x), (3, 1 << 35));
        h.set_min(x, 4).unwrap();
        assert_eq!(h.bounds(x), (1 << 20, 1 << 35));
        h.set_max(x, (1 << 35) - 1).unwrap();
        assert_eq!(h.bounds(x), (1 << 20, 1 << 20));
    }

    #[test]
    fn no_member_inside_fails() {
        let mut h = Harness::new();
        let x = h.range(10, 20);
        assert!(h.try_post(Member::new(x, vec![1, 30].into())).is_err());
    }

    #[test]
    fn agrees_with_brute_force() {
        crate::engine::harness::check_random(
            "member",
            crate::engine::harness::Strength::Bounds,
            1,
            |_, vars| Some(Box::new(Member::new(vars[0], vec![-2, 0, 3].into()))),
            |values| [-2, 0, 3].contains(&values[0]),
        );
    }
}
