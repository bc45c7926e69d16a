//! Reified linear constraints `b <-> (sum + k op 0)` with `b` in 0..1: the
//! building block for implications, disjunctions, negations and `count`.
//! When `b` is fixed the constraint or its negation is propagated; otherwise
//! `b` is fixed as soon as bounds entail or refute the constraint.
//!
//! Explanations (learning): with `b` fixed, `b`'s literal and the explanation
//! of the linear that ran; `b` fixed because the other side cannot hold, that
//! side's explanation of its failure (the bounds that entail the constraint
//! or refute it).

use super::linear::Linear;
use crate::engine::domains::{Domains, PResult, event};
use crate::engine::learn::{Lit, Past};
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
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        explain_reified(self.b, &self.when_true, &self.when_false, lit, past, out)
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

/// The explanation of `b <-> C`, given propagators for `C` (`on_true`) and
/// its negation (`on_false`) that explain themselves (docs/learning.md);
/// false when they cannot.
pub(crate) fn explain_reified(
    b: VarId,
    on_true: &dyn Propagator,
    on_false: &dyn Propagator,
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let start = out.len();
    let ok = match past.bounds(b) {
        // `b` fixed: the side that ran made `lit` true, or failed.
        (1, 1) => {
            out.push(Lit::ge(b, 1));
            on_true.explain(lit, past, out)
        }
        (0, 0) => {
            out.push(Lit::le(b, 0));
            on_false.explain(lit, past, out)
        }
        // `b` open: fixed because one side cannot hold.
        _ => match lit {
            Some(l) if l.var == b && l.holds(1) && !l.holds(0) => on_false.explain(None, past, out),
            Some(l) if l.var == b && l.holds(0) && !l.holds(1) => on_true.explain(None, past, out),
            _ => false,
        },
    };
    if !ok {
        out.truncate(start);
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};
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

    fn reified(d: &Domains, v: &[VarId], op: LinOp) -> Option<Box<dyn Propagator>> {
        if d.min(v[0]) < 0 || d.max(v[0]) > 1 {
            return None;
        }
        // b <-> (x + 2y - z  op  1), and its negation.
        let terms = vec![(1, v[1]), (2, v[2]), (-1, v[3])];
        let neg: Vec<_> = terms.iter().map(|&(a, x)| (-a, x)).collect();
        let (t, f) = match op {
            LinOp::Le => (
                Linear::new(terms, -1, LinOp::Le),
                Linear::new(neg, 2, LinOp::Le),
            ),
            _ => (
                Linear::new(terms.clone(), -1, op),
                Linear::new(
                    terms,
                    -1,
                    if op == LinOp::Eq {
                        LinOp::Ne
                    } else {
                        LinOp::Eq
                    },
                ),
            ),
        };
        Some(Box::new(ReifLinear::new(v[0], t, f)))
    }

    #[test]
    fn explanations_are_implied() {
        for op in [LinOp::Le, LinOp::Eq, LinOp::Ne] {
            let sum = |t: &[i64]| t[1] + 2 * t[2] - t[3];
            check_explanations_random(
                "reified linear explained",
                4,
                -1..=4,
                80,
                |d, v| reified(d, v, op),
                |t| {
                    let c = match op {
                        LinOp::Le => sum(t) <= 1,
                        LinOp::Eq => sum(t) == 1,
                        LinOp::Ne => sum(t) != 1,
                    };
                    (0..=1).contains(&t[0]) && (t[0] == 1) == c
                },
            );
        }
    }

    /// `b` fixed by entailment is explained by the bounds that entail it,
    /// not by every domain.
    #[test]
    fn entailment_is_explained_by_the_bounds_that_entail() {
        let mut h = Harness::new();
        let (b, x, y, z) = (h.range(0, 1), h.range(0, 5), h.range(0, 5), h.range(0, 5));
        h.engine.start_learning();
        let p = reified(&h.engine.doms, &[b, x, y, z], LinOp::Le).unwrap();
        h.try_post_boxed(p).unwrap();
        h.engine.doms.checkpoint();
        h.set_max(x, 0).unwrap();
        h.set_max(y, 1).unwrap();
        assert_eq!(h.engine.doms.value(b), None);
        h.set_min(z, 2).unwrap();
        assert_eq!(h.engine.doms.value(b), Some(1));
        let got = h.explanation(Lit::ge(b, 1));
        assert_eq!(got, vec![Lit::le(x, 0), Lit::le(y, 1), Lit::ge(z, 2)]);
    }
}
