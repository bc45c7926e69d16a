//! Exact integers: every value an expression of the model can take must fit
//! in 64 bits, or the model is refused when it loads. Each constraint and the
//! objective are walked once, bounding every term by the bounds of its parts
//! in `i128`, so that no propagator, folding step or checker ever has to wrap,
//! saturate or treat an overflow as "undefined". Bounds are those of interval
//! arithmetic (`x - x` is bounded by `-max..max`), which the documentation
//! states (docs/language.md, "Integers").

use crate::model::{Formula, Model, Term};
use crate::num::product_bounds;

/// A term whose values may leave i64: what it is, and a value it may reach.
#[derive(Debug)]
pub(super) struct TooWide {
    pub what: &'static str,
    pub reaches: i128,
}

pub(super) type Bounds = (i128, i128);

const LO: i128 = i64::MIN as i128;
const HI: i128 = i64::MAX as i128;

/// Checks every term of `f`.
pub(super) fn check_formula(f: &Formula, m: &Model) -> Result<(), TooWide> {
    match f {
        Formula::Const(_) => Ok(()),
        Formula::Cmp(_, a, b) => {
            bounds(a, m)?;
            bounds(b, m).map(|_| ())
        }
        Formula::AllDifferent(ts) | Formula::Table { terms: ts, .. } => {
            ts.iter().try_for_each(|t| bounds(t, m).map(|_| ()))
        }
        Formula::Global(call) => call.args.iter().try_for_each(|a| match a {
            crate::model::GlobalArg::Term(t) => bounds(t, m).map(|_| ()),
            crate::model::GlobalArg::Terms(ts) => {
                ts.iter().try_for_each(|t| bounds(t, m).map(|_| ()))
            }
            // A diagram or an expression holds values known at load time, not terms.
            crate::model::GlobalArg::Mdd(_) | crate::model::GlobalArg::Regex(_) => Ok(()),
        }),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().try_for_each(|g| check_formula(g, m)),
        Formula::Not(g) => check_formula(g, m),
        Formula::Implies(p, q) => {
            check_formula(p, m)?;
            check_formula(q, m)
        }
    }
}

/// The bounds of `x * y`, as [`bounds`] gives them, with those of `x` known
/// already when `left` holds them.
pub(super) fn product(
    left: Option<Bounds>,
    x: &Term,
    y: &Term,
    m: &Model,
) -> Result<Bounds, TooWide> {
    let left = match left {
        Some(b) => b,
        None => bounds(x, m)?,
    };
    fits("a product", product_bounds(left, bounds(y, m)?))
}

/// The bounds of every value `t` can take, or the first part that may leave i64.
pub(super) fn bounds(t: &Term, m: &Model) -> Result<Bounds, TooWide> {
    let b = match t {
        Term::Const(k) => (*k as i128, *k as i128),
        Term::Var(v) => {
            let d = &m.vars[*v].domain;
            (d.min() as i128, d.max() as i128)
        }
        Term::Letter(..) => (0, 0x10FFFF),
        Term::Score(v) => {
            let d = &m.vars[*v].domain;
            match &m.vars[*v].kind {
                crate::model::VarKind::Word(list) => list
                    .score_range(d.min(), d.max())
                    .map_or((0, 0), |(l, h)| (l as i128, h as i128)),
                _ => (0, 0),
            }
        }
        Term::Linear(parts, k) => {
            // `3 * x` is a sum of one part: call it what the user wrote.
            let what = if parts.len() == 1 && *k == 0 {
                "a product"
            } else {
                "a sum"
            };
            let mut acc = (*k as i128, *k as i128);
            for (c, u) in parts {
                let (lo, hi) = product_bounds(bounds(u, m)?, (*c as i128, *c as i128));
                // Each product is below 2^126 in size; a sum of many could
                // leave i128 itself, which is far out of range anyway.
                acc = match (acc.0.checked_add(lo), acc.1.checked_add(hi)) {
                    (Some(l), Some(h)) => (l, h),
                    (l, _) => {
                        return Err(TooWide {
                            what,
                            reaches: if l.is_none() { i128::MIN } else { i128::MAX },
                        });
                    }
                };
            }
            return fits(what, acc);
        }
        Term::Mul(a, b) => {
            return fits("a product", product_bounds(bounds(a, m)?, bounds(b, m)?));
        }
        Term::Div(a, b) => {
            let (al, ah) = bounds(a, m)?;
            let (bl, _) = bounds(b, m)?;
            // |a / b| <= |a|; a negative divisor can flip the sign.
            let lo = al.min(0);
            let hi = ah.max(0);
            if bl < 0 {
                (lo.min(-hi), hi.max(-lo))
            } else {
                (lo, hi)
            }
        }
        Term::Mod(a, b) => {
            let (al, ah) = bounds(a, m)?;
            let (bl, bh) = bounds(b, m)?;
            // The remainder has the sign of `a` and is smaller than |b|.
            let below = bl.abs().max(bh.abs()).saturating_sub(1);
            (al.max(-below).min(0), ah.min(below).max(0))
        }
        Term::Pow(a, b) => pow_bounds(bounds(a, m)?, bounds(b, m)?)?,
        Term::Abs(a) => {
            let (lo, hi) = bounds(a, m)?;
            let top = lo.abs().max(hi.abs());
            if lo >= 0 {
                (lo, hi)
            } else if hi <= 0 {
                (-hi, -lo)
            } else {
                (0, top)
            }
        }
        Term::Min(ts) | Term::Max(ts) => {
            let mut acc: Option<Bounds> = None;
            for u in ts {
                let (l, h) = bounds(u, m)?;
                acc = Some(match (acc, t) {
                    (None, _) => (l, h),
                    (Some((al, ah)), Term::Min(_)) => (al.min(l), ah.min(h)),
                    (Some((al, ah)), _) => (al.max(l), ah.max(h)),
                });
            }
            acc.unwrap_or((0, 0))
        }
        Term::Element { items, index, .. } => {
            bounds(index, m)?;
            let mut acc: Option<Bounds> = None;
            for u in items {
                let (l, h) = bounds(u, m)?;
                acc = Some(acc.map_or((l, h), |(al, ah)| (al.min(l), ah.max(h))));
            }
            acc.unwrap_or((0, 0))
        }
        Term::Ite(c, a, b) => {
            check_formula(c, m)?;
            let (al, ah) = bounds(a, m)?;
            let (bl, bh) = bounds(b, m)?;
            (al.min(bl), ah.max(bh))
        }
    };
    fits(describe(t), b)
}

fn describe(t: &Term) -> &'static str {
    match t {
        Term::Div(..) => "a quotient",
        Term::Mod(..) => "a remainder",
        Term::Pow(..) => "a power",
        Term::Abs(..) => "an absolute value",
        _ => "a value",
    }
}

fn fits(what: &'static str, (lo, hi): Bounds) -> Result<Bounds, TooWide> {
    if lo < LO {
        Err(TooWide { what, reaches: lo })
    } else if hi > HI {
        Err(TooWide { what, reaches: hi })
    } else {
        Ok((lo, hi))
    }
}

/// Bounds of `a ^ b`: the largest magnitude is `max|a| ^ max b`; a negative
/// base may give either sign. Negative exponents give 0, 1 or -1 (or are
/// undefined), which the bounds below include.
fn pow_bounds((al, ah): Bounds, (_, bh): Bounds) -> Result<Bounds, TooWide> {
    let base = al.abs().max(ah.abs());
    let top = if base <= 1 {
        1
    } else {
        // 2^64 is already out of range: larger exponents need no computing.
        let e = u32::try_from(bh.clamp(0, 64)).unwrap_or(64);
        match base.checked_pow(e) {
            Some(p) if p <= HI => p,
            _ => {
                return Err(TooWide {
                    what: "a power",
                    reaches: base.checked_pow(e).unwrap_or(i128::MAX),
                });
            }
        }
    };
    Ok((if al < 0 { -top } else { 0 }, top))
}

/// Shows a bound that left i64, and which end of i64 it passed.
pub(super) fn shown(v: i128) -> String {
    match v {
        i128::MAX => "beyond 2^127".into(),
        i128::MIN => "below -2^127".into(),
        v if v > 0 => format!("{v}, above 2^63 - 1"),
        v => format!("{v}, below -2^63"),
    }
}
