//! Explanations of the linear propagator for learning (docs/learning.md):
//! a bound of one term follows from the opposite bounds of the others, so
//! `[x <= v]` from `sum(a[i] * x[i]) + k <= 0` is explained by
//! `[x[i] >= min]` (or `<= max` for a negative coefficient) of every other
//! term, read at the time of the propagation. The bound those literals
//! give is recomputed and checked against the literal: should it not
//! follow (a repeated variable), the caller falls back to the default.

use super::linear::LinOp;
use crate::engine::learn::{Kind, Lit, Past};
use crate::model::VarId;
use crate::num::{ceil_div, floor_div};

/// The literal fixing term `a * x` at its smallest (`low`) or largest value
/// in `lo..=hi`, and that value.
fn side(a: i64, x: VarId, (lo, hi): (i64, i64), low: bool) -> (Lit, i128) {
    if (a >= 0) == low {
        (Lit::ge(x, lo), a as i128 * lo as i128)
    } else {
        (Lit::le(x, hi), a as i128 * hi as i128)
    }
}

/// Explains `lit` (or, with `None`, a failure) of
/// `sum(coefs[i] * vars[i]) + constant  op  0`; false when it cannot.
pub(crate) fn explain(
    coefs: &[i64],
    vars: &[VarId],
    constant: i128,
    op: LinOp,
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let bounds: Vec<(i64, i64)> = vars.iter().map(|&x| past.bounds(x)).collect();
    let Some(lit) = lit else {
        return explain_failure(coefs, vars, constant, op, &bounds, out);
    };
    if op == LinOp::Ne {
        // All others fixed, the value left would make the sum zero.
        let Some(j) = vars.iter().position(|&x| x == lit.var) else {
            return false;
        };
        let mut rest = constant;
        for i in (0..vars.len()).filter(|&i| i != j) {
            let (lo, hi) = bounds[i];
            if lo != hi || vars[i] == lit.var {
                return false;
            }
            rest += coefs[i] as i128 * lo as i128;
        }
        let a = coefs[j] as i128;
        if lit.kind != Kind::Ne || a == 0 || -rest != a * lit.val as i128 {
            return false;
        }
        out.extend(
            (0..vars.len())
                .filter(|&i| i != j)
                .map(|i| Lit::eq(vars[i], bounds[i].0)),
        );
        return true;
    }
    // Which bound of the term the literal is: `upper` when it caps `a * x`.
    for j in (0..vars.len()).filter(|&j| vars[j] == lit.var) {
        let a = coefs[j];
        if a == 0 {
            continue;
        }
        let upper = match lit.kind {
            Kind::Le => a > 0,
            Kind::Ge => a < 0,
            _ => continue,
        };
        if !upper && op == LinOp::Le {
            continue;
        }
        // upper: a*x <= -k - sum(min of the others); else a*x >= -k - sum(max).
        let start = out.len();
        let mut rest = constant;
        for i in (0..vars.len()).filter(|&i| i != j) {
            let (l, v) = side(coefs[i], vars[i], bounds[i], upper);
            rest += v;
            out.push(l);
        }
        let cap = -rest;
        let a = a as i128;
        let implied = match (lit.kind, a > 0) {
            // x <= floor(cap / a), a > 0; x >= ceil(cap / a) for lower, a > 0.
            (Kind::Le, true) => floor_div(cap, a) <= lit.val as i128,
            (Kind::Ge, false) => ceil_div(cap, a) >= lit.val as i128,
            (Kind::Ge, true) => ceil_div(cap, a) >= lit.val as i128,
            (Kind::Le, false) => floor_div(cap, a) <= lit.val as i128,
            _ => false,
        };
        if implied {
            return true;
        }
        out.truncate(start);
    }
    false
}

/// The sum cannot reach zero: its smallest value is too large (`<=`,
/// `==`), or its largest too small (`==`), or it is fixed at zero (`!=`).
fn explain_failure(
    coefs: &[i64],
    vars: &[VarId],
    constant: i128,
    op: LinOp,
    bounds: &[(i64, i64)],
    out: &mut Vec<Lit>,
) -> bool {
    let sum = |low: bool| -> i128 {
        constant
            + (0..vars.len())
                .map(|i| side(coefs[i], vars[i], bounds[i], low).1)
                .sum::<i128>()
    };
    let low = match op {
        LinOp::Le => true,
        LinOp::Eq if sum(true) > 0 => true,
        LinOp::Eq if sum(false) < 0 => false,
        LinOp::Eq => return false,
        LinOp::Ne => {
            if bounds.iter().any(|&(l, h)| l != h) || sum(true) != 0 {
                return false;
            }
            out.extend((0..vars.len()).map(|i| Lit::eq(vars[i], bounds[i].0)));
            return true;
        }
    };
    if low && sum(true) <= 0 {
        return false;
    }
    out.extend((0..vars.len()).map(|i| side(coefs[i], vars[i], bounds[i], low).0));
    true
}
