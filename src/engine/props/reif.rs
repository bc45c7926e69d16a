//! Reified linear constraints `b <-> (sum + k op 0)` with `b` in 0..1: the
//! building block for implications, disjunctions, negations and `count`.
//! When `b` is fixed the constraint or its negation is propagated; otherwise
//! `b` is fixed as soon as bounds entail or refute the constraint.

use super::linear::Linear;
use crate::engine::domains::{Domains, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct ReifLinear {
    b: VarId,
    when_true: Linear,
    when_false: Linear,
    vars: Vec<VarId>,
}

impl ReifLinear {
    /// `when_false` must be the negation of `when_true`.
    pub(crate) fn new(b: VarId, when_true: Linear, when_false: Linear) -> Self {
        let mut vars = vec![b];
        vars.extend_from_slice(when_true.vars_slice());
        ReifLinear {
            b,
            when_true,
            when_false,
            vars,
        }
    }
}

impl Propagator for ReifLinear {
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
        match d.value(self.b) {
            Some(1) => self.when_true.propagate(d),
            Some(_) => self.when_false.propagate(d),
            None => {
                match self.when_true.entailed(d) {
                    Some(true) => {
                        d.fix(self.b, 1)?;
                    }
                    Some(false) => {
                        d.fix(self.b, 0)?;
                    }
                    None => {}
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Strength, check_random};
    use crate::engine::props::linear::LinOp;

    #[test]
    fn reified_comparisons_against_brute_force() {
        // b <-> (x - 2y + 1 <= 0), and b <-> (x + y == 2).
        check_random(
            "reified <=",
            Strength::Check,
            3,
            |d, v| {
                if d.min(v[0]) < 0 || d.max(v[0]) > 1 {
                    return None;
                }
                let t = Linear::new(vec![(1, v[1]), (-2, v[2])], 1, LinOp::Le);
                let e = Linear::new(vec![(-1, v[1]), (2, v[2])], 0, LinOp::Le);
                Some(Box::new(ReifLinear::new(v[0], t, e)))
            },
            |t| (t[0] == 1) == (t[1] - 2 * t[2] < 0) && (0..=1).contains(&t[0]),
        );
        check_random(
            "reified ==",
            Strength::Check,
            3,
            |d, v| {
                if d.min(v[0]) < 0 || d.max(v[0]) > 1 {
                    return None;
                }
                let t = Linear::new(vec![(1, v[1]), (1, v[2])], -2, LinOp::Eq);
                let e = Linear::new(vec![(1, v[1]), (1, v[2])], -2, LinOp::Ne);
                Some(Box::new(ReifLinear::new(v[0], t, e)))
            },
            |t| (t[0] == 1) == (t[1] + t[2] == 2) && (0..=1).contains(&t[0]),
        );
    }
}
