//! `x = y ∪ z`, `x = y ∩ z` and `x = y \ z` over sets aligned on one
//! universe.
//!
//! Elements: for each value, the three booleans are made domain consistent
//! with `x_e = y_e op z_e` (what the decomposition into one reified
//! formula per value reaches too).
//!
//! Cardinalities (what the decomposition cannot see): with `I` the size of
//! `y ∩ z`, between `I_lo` (values surely in both) and `I_hi` (values that
//! may be in both), and `U` the size of `y ∪ z` likewise,
//! - union: `|x| = |y| + |z| - I`, so `|x| <= |y| + |z| - I_lo`,
//!   `|x| >= |y| + |z| - I_hi`, `|x| >= |y|, |z|`, and each of `|y|`,
//!   `|z|` follows from the others;
//! - intersection: `|x| = I <= |y|, |z|` and `|y| + |z| - |x| = U <= U_hi`
//!   (`>= U_lo`);
//! - difference: `|x| = |y| - |y ∩ z|` with `|y ∩ z|` at most `|z|`
//!   and `I_hi`, at least `I_lo`.
//!
//! Bounds of the three cardinalities are moved by these until nothing
//! changes; each cardinality is also kept between the sizes of its set's
//! bounds (so the propagator is checking on its own).

use super::{SetVar, clamp_card, maybe, surely};
use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

/// Which operation `x = y op z` states (the model's definition's).
pub(crate) use crate::model::globals::sets::Op as SetOp;

pub(crate) struct SetOpProp {
    op: SetOp,
    /// `x`, `y`, `z`.
    sets: [SetVar; 3],
    vars: Vec<VarId>,
}

impl SetOpProp {
    /// `x = y op z`; `None` when the universes differ in length.
    pub(crate) fn new(op: SetOp, x: SetVar, y: SetVar, z: SetVar) -> Option<Self> {
        let n = x.bools.len();
        if y.bools.len() != n || z.bools.len() != n {
            return None;
        }
        let mut vars = Vec::with_capacity(3 * n + 3);
        for s in [&x, &y, &z] {
            s.push_vars(&mut vars);
        }
        Some(SetOpProp {
            op,
            sets: [x, y, z],
            vars,
        })
    }

    /// Domain consistency on `x_e = y_e op z_e` for value `e`.
    fn element(&self, d: &mut Domains, e: usize) -> PResult {
        let b = [
            self.sets[0].bools[e],
            self.sets[1].bools[e],
            self.sets[2].bools[e],
        ];
        // supported[i][v]: variable i can take v in some support.
        let mut supported = [[false; 2]; 3];
        for yv in 0..2 {
            for zv in 0..2 {
                let xv = i64::from(self.op.apply(yv == 1, zv == 1));
                let t = [xv, yv, zv];
                if (0..3).all(|i| d.contains(b[i], t[i])) {
                    for i in 0..3 {
                        supported[i][t[i] as usize] = true;
                    }
                }
            }
        }
        for (&var, values) in b.iter().zip(&supported) {
            for (v, &ok) in values.iter().enumerate() {
                if !ok && d.contains(var, v as i64) {
                    d.remove(var, v as i64)?;
                }
            }
        }
        Ok(())
    }

    /// The bounds of `|y ∩ z|` and `|y ∪ z|` from the element bounds.
    fn overlap(&self, d: &Domains) -> [i64; 4] {
        let (y, z) = (&self.sets[1].bools, &self.sets[2].bools);
        let mut out = [0; 4];
        for (&a, &b) in y.iter().zip(z) {
            out[0] += i64::from(surely(d, a) && surely(d, b));
            out[1] += i64::from(maybe(d, a) && maybe(d, b));
            out[2] += i64::from(surely(d, a) || surely(d, b));
            out[3] += i64::from(maybe(d, a) || maybe(d, b));
        }
        out
    }

    /// One round of cardinality reasoning; whether a bound moved.
    fn cards(&self, d: &mut Domains) -> Result<bool, crate::engine::domains::Fail> {
        let mut c = [(0, 0); 3];
        for (k, s) in self.sets.iter().enumerate() {
            c[k] = clamp_card(d, s)?;
        }
        let [i_lo, i_hi, u_lo, u_hi] = self.overlap(d);
        let [(x0, x1), (y0, y1), (z0, z1)] = c;
        // New bounds (min, max) for x, y, z.
        let (x, y, z) = match self.op {
            SetOp::Union => (
                (y0.max(z0).max(y0 + z0 - i_hi), y1 + z1 - i_lo),
                (x0 - z1 + i_lo, x1.min(x1 - z0 + i_hi)),
                (x0 - y1 + i_lo, x1.min(x1 - y0 + i_hi)),
            ),
            SetOp::Intersect => (
                (i_lo.max(y0 + z0 - u_hi), i_hi.min(y1).min(z1)),
                (x0.max(u_lo - z1 + x0), u_hi - z0 + x1),
                (x0.max(u_lo - y1 + x0), u_hi - y0 + x1),
            ),
            SetOp::Diff => {
                let most = i_hi.min(z1);
                (
                    (y0 - most, y1 - i_lo),
                    (x0 + i_lo, x1 + most),
                    (y0 - x1, z1),
                )
            }
        };
        let mut moved = false;
        for (s, (lo, hi)) in self.sets.iter().zip([x, y, z]) {
            moved |= d.set_min(s.card, lo)?;
            moved |= d.set_max(s.card, hi)?;
        }
        Ok(moved)
    }
}

impl Propagator for SetOpProp {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        for e in 0..self.sets[0].bools.len() {
            self.element(d, e)?;
        }
        while self.cards(d)? {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Shape, check_sets};
    use super::*;
    use crate::engine::harness::{Harness, Strength};

    fn set(h: &mut Harness, n: usize) -> SetVar {
        SetVar {
            bools: (0..n).map(|_| h.range(0, 1)).collect(),
            card: h.range(0, n as i64),
        }
    }

    /// `x = y op z` on member lists.
    fn holds(op: SetOp, s: &[Vec<usize>], n: usize) -> bool {
        (0..n).all(|e| s[0].contains(&e) == op.apply(s[1].contains(&e), s[2].contains(&e)))
    }

    #[test]
    fn union_bounds_its_cardinality_by_the_parts() {
        // |y| <= 1 and |z| <= 1: |x| <= 2, so x's third value may not
        // join once two are in; the element rules alone see nothing.
        let mut h = Harness::new();
        let (x, y, z) = (set(&mut h, 4), set(&mut h, 4), set(&mut h, 4));
        h.set_max(y.card, 1).unwrap();
        h.set_max(z.card, 1).unwrap();
        h.post(SetOpProp::new(SetOp::Union, x.clone(), y.clone(), z.clone()).unwrap());
        assert_eq!(h.bounds(x.card), (0, 2));
        // x must have 2 members: y and z must hold one each.
        h.set_min(x.card, 2).unwrap();
        assert_eq!(h.bounds(y.card), (1, 1));
        assert_eq!(h.bounds(z.card), (1, 1));
    }

    #[test]
    fn intersection_is_no_larger_than_either_side() {
        let mut h = Harness::new();
        let (x, y, z) = (set(&mut h, 5), set(&mut h, 5), set(&mut h, 5));
        h.set_max(z.card, 2).unwrap();
        h.post(SetOpProp::new(SetOp::Intersect, x.clone(), y.clone(), z.clone()).unwrap());
        assert_eq!(h.bounds(x.card), (0, 2));
        // |y| + |z| - |x| <= 5: |y| = 5 and |z| = 2 force |x| = 2.
        h.set_min(y.card, 5).unwrap();
        h.set_min(z.card, 2).unwrap();
        assert_eq!(h.bounds(x.card), (2, 2));
    }

    #[test]
    fn difference_keeps_what_z_cannot_remove() {
        let mut h = Harness::new();
        let (x, y, z) = (set(&mut h, 5), set(&mut h, 5), set(&mut h, 5));
        h.set_min(y.card, 4).unwrap();
        h.set_max(z.card, 1).unwrap();
        h.post(SetOpProp::new(SetOp::Diff, x.clone(), y.clone(), z.clone()).unwrap());
        assert_eq!(h.bounds(x.card), (3, 5));
    }

    #[test]
    fn agrees_with_brute_force() {
        for op in [SetOp::Union, SetOp::Intersect, SetOp::Diff] {
            // Distinct sets, then the same set twice (x = x op z, x = y op y,
            // x = y op x) and thrice.
            for sets in [
                vec![0, 1, 2],
                vec![0, 0, 1],
                vec![0, 1, 1],
                vec![0, 1, 0],
                vec![0, 0, 0],
            ] {
                check_sets(
                    &format!("set {op:?} {sets:?}"),
                    Strength::Check,
                    Shape {
                        n: 2,
                        sets,
                        extra: vec![],
                    },
                    |s, _| {
                        Box::new(
                            SetOpProp::new(op, s[0].clone(), s[1].clone(), s[2].clone()).unwrap(),
                        )
                    },
                    |s, _| holds(op, s, 2),
                );
            }
        }
    }
}
