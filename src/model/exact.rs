//! Exact evaluation for the independent checker: a formula as written
//! ([`Model::written`]) evaluated in 128-bit integers with checked
//! operations, so that an intermediate the folded form never computes (`x *
//! y * (z - z)` with x, y near 2^62) still has its mathematical value. A
//! value beyond i128, a zero divisor or an index out of range is undefined,
//! which makes the formula false: never a wrapped value. Kept apart from
//! [`Term::eval`] (used by propagation-side code) on purpose.

use super::globals::ArgValue;
use super::{Formula, Model, Term, VarKind};
use crate::model::GlobalArg;

/// Whether `f` holds under the complete assignment `a`, exactly.
pub(crate) fn holds(f: &Formula, m: &Model, a: &[i64]) -> bool {
    formula(f, m, a).unwrap_or(false)
}

fn formula(f: &Formula, m: &Model, a: &[i64]) -> Option<bool> {
    match f {
        Formula::Const(b) => Some(*b),
        Formula::Cmp(op, x, y) => {
            let (x, y) = (term(x, m, a)?, term(y, m, a)?);
            Some(op.holds(x.cmp(&y) as i64, 0))
        }
        Formula::AllDifferent(ts) => {
            let mut values = terms(ts, m, a)?;
            values.sort_unstable();
            Some(values.windows(2).all(|w| w[0] != w[1]))
        }
        Formula::Table {
            terms: ts,
            tuples,
            allowed,
        } => {
            let row = narrow(terms(ts, m, a)?)?;
            Some(tuples.contains(&row) == *allowed)
        }
        Formula::Global(call) => {
            let args = call
                .args
                .iter()
                .map(|arg| match arg {
                    GlobalArg::Term(t) => Some(ArgValue::Int(i64::try_from(term(t, m, a)?).ok()?)),
                    GlobalArg::Terms(ts) => Some(ArgValue::Ints(narrow(terms(ts, m, a)?)?)),
                    GlobalArg::Mdd(d) => Some(ArgValue::Mdd(d.clone())),
                    GlobalArg::Regex(r) => Some(ArgValue::Regex(r.clone())),
                })
                .collect::<Option<Vec<_>>>()?;
            Some(call.def.holds(&args))
        }
        Formula::And(fs) => {
            let mut unknown = false;
            for f in fs {
                match formula(f, m, a) {
                    Some(false) => return Some(false),
                    Some(true) => {}
                    None => unknown = true,
                }
            }
            (!unknown).then_some(true)
        }
        Formula::Or(fs) => {
            let mut unknown = false;
            for f in fs {
                match formula(f, m, a) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => unknown = true,
                }
            }
            (!unknown).then_some(false)
        }
        Formula::Not(f) => formula(f, m, a).map(|b| !b),
        Formula::Implies(p, q) => match formula(p, m, a) {
            Some(false) => Some(true),
            Some(true) => formula(q, m, a),
            None => (formula(q, m, a) == Some(true)).then_some(true),
        },
    }
}

fn terms(ts: &[Term], m: &Model, a: &[i64]) -> Option<Vec<i128>> {
    ts.iter().map(|t| term(t, m, a)).collect()
}

/// The values as i64, or `None` if one does not fit.
fn narrow(vs: Vec<i128>) -> Option<Vec<i64>> {
    vs.into_iter().map(|v| i64::try_from(v).ok()).collect()
}

fn term(t: &Term, m: &Model, a: &[i64]) -> Option<i128> {
    match t {
        Term::Const(k) => Some(i128::from(*k)),
        Term::Var(v) => a.get(*v).map(|&x| i128::from(x)),
        Term::Linear(parts, k) => parts.iter().try_fold(i128::from(*k), |acc, (c, t)| {
            acc.checked_add(i128::from(*c).checked_mul(term(t, m, a)?)?)
        }),
        Term::Mul(x, y) => term(x, m, a)?.checked_mul(term(y, m, a)?),
        Term::Div(x, y) => term(x, m, a)?.checked_div(term(y, m, a)?),
        Term::Mod(x, y) => term(x, m, a)?.checked_rem(term(y, m, a)?),
        Term::Pow(x, y) => {
            let e = u32::try_from(term(y, m, a)?).ok()?;
            term(x, m, a)?.checked_pow(e)
        }
        Term::Abs(x) => term(x, m, a)?.checked_abs(),
        Term::Min(ts) => terms(ts, m, a)?.into_iter().min(),
        Term::Max(ts) => terms(ts, m, a)?.into_iter().max(),
        Term::Element { items, index, low } => {
            let i = term(index, m, a)?.checked_sub(i128::from(*low))?;
            term(items.get(usize::try_from(i).ok()?)?, m, a)
        }
        Term::Ite(c, x, y) => {
            if formula(c, m, a)? {
                term(x, m, a)
            } else {
                term(y, m, a)
            }
        }
        Term::Letter(v, pos) => {
            let value = *a.get(*v)?;
            match &m.vars[*v].kind {
                VarKind::Word(list) => {
                    let word = list.words.get(usize::try_from(value).ok()?)?;
                    word.chars().nth(*pos).map(|c| i128::from(u32::from(c)))
                }
                _ => None,
            }
        }
        Term::Score(v) => match &m.vars[*v].kind {
            VarKind::Word(list) => list.score(*a.get(*v)?).map(i128::from),
            _ => None,
        },
    }
}
