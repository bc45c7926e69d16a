//! `z = if b then a else e`, with `b` a 0/1 variable (the condition, reified
//! by lowering). Once `b` is fixed, `z` and the chosen branch are equal
//! (bounds both ways). Until then `z` lies in the hull of both branches, and
//! a branch whose range misses `z`'s excludes its side of `b`. Bounds
//! reasoning: every bound of `z` is supported by some branch's bounds.

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct IfThenElse {
    /// `[b, a, e, z]`.
    vars: [VarId; 4],
}

impl IfThenElse {
    pub(crate) fn new(b: VarId, a: VarId, e: VarId, z: VarId) -> Self {
        IfThenElse { vars: [b, a, e, z] }
    }
}

/// Narrows `x` to `lo..=hi`; true if it changed.
fn clamp(d: &mut Domains, x: VarId, lo: i64, hi: i64) -> Result<bool, Fail> {
    Ok(d.set_min(x, lo)? | d.set_max(x, hi)?)
}

/// Whether the bounds of `x` and `y` overlap.
fn meet(d: &Domains, x: VarId, y: VarId) -> bool {
    d.min(x) <= d.max(y) && d.min(y) <= d.max(x)
}

impl Propagator for IfThenElse {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Binary
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(&self.vars, event::BOUNDS);
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let [b, a, e, z] = self.vars;
        loop {
            if !meet(d, a, z) {
                d.remove(b, 1)?;
            }
            if !meet(d, e, z) {
                d.remove(b, 0)?;
            }
            let changed = match d.value(b) {
                Some(v) => {
                    let x = if v == 1 { a } else { e };
                    clamp(d, z, d.min(x), d.max(x))? | clamp(d, x, d.min(z), d.max(z))?
                }
                None => {
                    let lo = d.min(a).min(d.min(e));
                    let hi = d.max(a).max(d.max(e));
                    clamp(d, z, lo, hi)?
                }
            };
            if !changed {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    #[test]
    fn against_brute_force() {
        check_random(
            "if-then-else",
            Strength::Bounds,
            4,
            |d, v| {
                (d.min(v[0]) >= 0 && d.max(v[0]) <= 1).then(|| {
                    Box::new(IfThenElse::new(v[0], v[1], v[2], v[3])) as Box<dyn Propagator>
                })
            },
            |t| (0..=1).contains(&t[0]) && t[3] == if t[0] == 1 { t[1] } else { t[2] },
        );
    }

    #[test]
    fn a_branch_out_of_reach_decides_the_condition() {
        let mut h = Harness::new();
        let (b, a, e, z) = (
            h.range(0, 1),
            h.range(0, 3),
            h.range(10, 20),
            h.range(-5, 50),
        );
        h.post(IfThenElse::new(b, a, e, z));
        assert_eq!(h.bounds(z), (0, 20));
        h.set_min(z, 5).unwrap();
        assert_eq!(h.engine.doms.value(b), Some(0));
        assert_eq!(h.bounds(z), (10, 20));
    }
}
