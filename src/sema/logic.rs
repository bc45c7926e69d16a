//! Truth values: `&&`, `||`, `->`, `<->`, `xor`, `!`, membership (`in`,
//! `not in`), and the shape a formula takes when it is reified.
//!
//! Everything here becomes formulas the lowering already propagates: a
//! `bool` variable is a 0/1 variable (a [`Value::BoolTerm`]), so `a || b`
//! over two of them is the linear `a + b >= 1`, `a -> b` is `a <= b`, and
//! `p <-> q` / `p xor q` over any constraints compare their 0/1 truth terms
//! (`=` / `!=`), each reified by a linear reification. A formula used as a
//! truth value is first rewritten by [`reifiable`] into parts with
//! propagating reifications (an all-different into pairwise `!=`, a
//! membership into interval tests) instead of leaving it to the generic
//! propagator.

use super::Checker;
use super::ops::linear;
use super::value::{IntSet, Value, truth_term};
use crate::diag::Diag;
use crate::model::{CmpOp, Formula, Term};
use crate::syntax::ast::{BinOp, Span};
use std::rc::Rc;

/// All-different over at most this many terms is reified pairwise.
const MAX_PAIRWISE: usize = 40;
/// A membership test of at most this many intervals is reified interval by interval.
const MAX_INTERVALS: usize = 64;

/// The formula rewritten so that its reification propagates: used wherever
/// a formula is a truth value (under `!`, `||`, `->`, `<->`, `xor`, or as 0/1).
/// The rewriting keeps the meaning, undefined terms included: all-different
/// is split only over terms that are always defined.
pub(super) fn reifiable(f: Formula) -> Formula {
    match f {
        Formula::AllDifferent(ts) if ts.len() <= MAX_PAIRWISE && ts.iter().all(Term::is_total) => {
            let mut pairs = Vec::new();
            for i in 0..ts.len() {
                for j in i + 1..ts.len() {
                    pairs.push(Formula::Cmp(CmpOp::Ne, ts[i].clone(), ts[j].clone()));
                }
            }
            and(pairs)
        }
        Formula::Table {
            terms,
            tuples,
            allowed,
        } if terms.len() == 1 => {
            let values: Vec<i64> = tuples.iter().filter_map(|r| r.first().copied()).collect();
            match intervals(&values) {
                Some(runs) => membership(&terms[0], &runs, allowed),
                None => Formula::Table {
                    terms,
                    tuples,
                    allowed,
                },
            }
        }
        Formula::And(fs) => Formula::And(fs.into_iter().map(reifiable).collect()),
        // The parts of `||`, `!` and `->` were made reifiable when they were
        // built (`connective`, `not`, `exists`, membership tests): walking
        // them again at every level made chains of `!` and `->` quadratic.
        f => f,
    }
}

/// The runs of consecutive values of a sorted, distinct list, if there are few.
fn intervals(values: &[i64]) -> Option<Vec<(i64, i64)>> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for v in sorted {
        match runs.last_mut() {
            Some((_, hi)) if hi.checked_add(1) == Some(v) => *hi = v,
            _ => runs.push((v, v)),
        }
        if runs.len() > MAX_INTERVALS {
            return None;
        }
    }
    Some(runs)
}

/// `t` lies in (or, with `inside` false, outside) the union of the intervals.
fn membership(t: &Term, runs: &[(i64, i64)], inside: bool) -> Formula {
    let c = |op, k| Formula::Cmp(op, t.clone(), Term::Const(k));
    let parts: Vec<Formula> = runs
        .iter()
        .map(|&(lo, hi)| match (lo == hi, inside) {
            (true, true) => c(CmpOp::Eq, lo),
            (true, false) => c(CmpOp::Ne, lo),
            (false, true) => and(vec![c(CmpOp::Ge, lo), c(CmpOp::Le, hi)]),
            (false, false) => or(vec![c(CmpOp::Lt, lo), c(CmpOp::Gt, hi)]),
        })
        .collect();
    if inside { or(parts) } else { and(parts) }
}

fn and(mut parts: Vec<Formula>) -> Formula {
    match parts.len() {
        0 => Formula::Const(true),
        1 => parts.pop().unwrap_or(Formula::Const(true)),
        _ => Formula::And(parts),
    }
}

fn or(mut parts: Vec<Formula>) -> Formula {
    match parts.len() {
        0 => Formula::Const(false),
        1 => parts.pop().unwrap_or(Formula::Const(false)),
        _ => Formula::Or(parts),
    }
}

/// The 0/1 term of a truth value: a `bool` variable as it is, a formula
/// through its reification.
fn truth(v: Value) -> Term {
    match v {
        Value::BoolTerm(t) => Rc::try_unwrap(t).unwrap_or_else(|t| (*t).clone()),
        Value::Bool(b) => Term::Const(i64::from(b)),
        v => truth_term(v.into_formula().unwrap_or(Formula::Const(false))),
    }
}

/// `!v` for a truth value (`as_written`: see [`super::Checker::as_written`]).
pub(super) fn not(v: Value, as_written: bool) -> Option<Value> {
    Some(match v {
        Value::Bool(b) => Value::Bool(!b),
        // Moved out when unshared, so that `!!!...` chains cost linear time.
        Value::BoolTerm(t) => {
            let t = Rc::try_unwrap(t).unwrap_or_else(|t| (*t).clone());
            Value::BoolTerm(Rc::new(linear(vec![(-1, t)], 1, as_written)))
        }
        Value::Formula(f) => {
            let f = Rc::try_unwrap(f).unwrap_or_else(|f| (*f).clone());
            Value::from_formula(Formula::Not(Box::new(reifiable(f))))
        }
        _ => return None,
    })
}

/// `&&`, `||`, `->`, `<->` and `xor` of two truth values.
pub(super) fn connective(
    op: BinOp,
    a: Value,
    b: Value,
    span: Span,
    as_written: bool,
) -> Result<Value, Diag> {
    if !a.is_formula() || !b.is_formula() {
        return Err(Diag::new(
            "cspi::type",
            format!(
                "`{}` combines truth values, not {} and {}",
                op.symbol(),
                a.type_name(),
                b.type_name()
            ),
        )
        .label(span, "here")
        .help("compare integers first, as in `(x > 0) xor (y > 0)`; `bool` variables are truth values"));
    }
    // Constants decide or vanish.
    if let (Value::Bool(x), Value::Bool(y)) = (&a, &b) {
        let (x, y) = (*x, *y);
        return Ok(Value::Bool(match op {
            BinOp::And => x && y,
            BinOp::Or => x || y,
            BinOp::Implies => !x || y,
            BinOp::Iff => x == y,
            _ => x != y,
        }));
    }
    match (op, &a, &b) {
        (BinOp::And, Value::Bool(true), _) | (BinOp::Or, Value::Bool(false), _) => return Ok(b),
        (BinOp::And, _, Value::Bool(true)) | (BinOp::Or, _, Value::Bool(false)) => return Ok(a),
        (BinOp::And, Value::Bool(false), _) | (BinOp::And, _, Value::Bool(false)) => {
            return Ok(Value::Bool(false));
        }
        (BinOp::Or, Value::Bool(true), _) | (BinOp::Or, _, Value::Bool(true)) => {
            return Ok(Value::Bool(true));
        }
        (BinOp::Implies, Value::Bool(true), _) => return Ok(b),
        (BinOp::Implies, Value::Bool(false), _) | (BinOp::Implies, _, Value::Bool(true)) => {
            return Ok(Value::Bool(true));
        }
        (BinOp::Implies, _, Value::Bool(false)) => {
            return Ok(not(a, as_written).unwrap_or(Value::Poison));
        }
        (BinOp::Iff, Value::Bool(k), _) | (BinOp::Xor, Value::Bool(k), _) => {
            let same = *k == (op == BinOp::Iff);
            return Ok(if same {
                b
            } else {
                not(b, as_written).unwrap_or(Value::Poison)
            });
        }
        (BinOp::Iff, _, Value::Bool(k)) | (BinOp::Xor, _, Value::Bool(k)) => {
            let same = *k == (op == BinOp::Iff);
            return Ok(if same {
                a
            } else {
                not(a, as_written).unwrap_or(Value::Poison)
            });
        }
        _ => {}
    }
    // Linear forms need terms that are always defined: `||` and `->` are
    // true over an undefined part when the other part holds.
    let total = |v: &Value| matches!(v, Value::BoolTerm(t) if t.is_total());
    let both_terms = total(&a) && total(&b);
    Ok(Value::from_formula(match op {
        BinOp::Iff | BinOp::Xor => {
            let cmp = if op == BinOp::Iff {
                CmpOp::Eq
            } else {
                CmpOp::Ne
            };
            Formula::Cmp(cmp, truth(a), truth(b))
        }
        // Over two `bool` variables: linear, with no reification at all.
        BinOp::Or if both_terms => Formula::Cmp(
            CmpOp::Ge,
            linear(vec![(1, truth(a)), (1, truth(b))], 0, as_written),
            Term::Const(1),
        ),
        BinOp::Implies if both_terms => Formula::Cmp(CmpOp::Le, truth(a), truth(b)),
        BinOp::And => {
            // The left part's list is kept and extended (linear-time chains).
            let mut parts = flatten_and(formula(a));
            parts.extend(flatten_and(formula(b)));
            Formula::And(parts)
        }
        BinOp::Or => {
            let (x, y) = (reifiable(formula(a)), reifiable(formula(b)));
            // The left part's list is kept and extended, so that a chain of
            // `||` costs linear time.
            let mut parts = match x {
                Formula::Or(fs) => fs,
                f => vec![f],
            };
            match y {
                Formula::Or(fs) => parts.extend(fs),
                f => parts.push(f),
            }
            Formula::Or(parts)
        }
        _ => Formula::Implies(
            Box::new(reifiable(formula(a))),
            Box::new(reifiable(formula(b))),
        ),
    }))
}

fn formula(v: Value) -> Formula {
    v.into_formula().unwrap_or(Formula::Const(false))
}

fn flatten_and(f: Formula) -> Vec<Formula> {
    match f {
        Formula::And(fs) => fs,
        f => vec![f],
    }
}

/// `exists` over truth values that are all `bool` variables: `sum >= 1`.
pub(super) fn exists_of_bools(items: &[Value], as_written: bool) -> Option<Value> {
    let terms: Vec<(i64, Term)> = items
        .iter()
        .map(|v| match v {
            Value::BoolTerm(t) if t.is_total() => Some((1, (**t).clone())),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if terms.len() < 2 {
        return None;
    }
    Some(Value::from_formula(Formula::Cmp(
        CmpOp::Ge,
        linear(terms, 0, as_written),
        Term::Const(1),
    )))
}

impl Checker<'_> {
    /// `x in s` (or, with `inside` false, `x not in s`): `s` a range, a set,
    /// an enum's members or an array.
    pub(super) fn member(
        &mut self,
        x: Value,
        s: Value,
        inside: bool,
        sx: Span,
        ss: Span,
    ) -> Result<Value, Diag> {
        let span = sx.to(ss);
        let mismatch = |what: String| {
            Diag::new("cspi::type", format!("`in` tests {what}"))
                .label(sx, "this value")
                .label(ss, "this set")
                .help("the value and the set must be of one kind: integers, or members of one enum")
        };
        let xe = x.enum_type(&self.model);
        let set = match &s {
            Value::Set(set) => {
                if let Some(e) = &xe {
                    return Err(mismatch(format!(
                        "a member of `{}` against a set of integers",
                        e.name
                    )));
                }
                set.clone()
            }
            Value::EnumSet(e, set) => {
                if xe.as_ref() != Some(e) {
                    return Err(mismatch(format!(
                        "{} against members of `{}`",
                        x.type_name(),
                        e.name
                    )));
                }
                set.clone()
            }
            Value::Array(a) => {
                // Membership of a list: constants as a set, anything else as `x == item` for some item.
                let consts: Option<Vec<i64>> = a
                    .items
                    .iter()
                    .map(|i| match i {
                        Value::Int(k) | Value::Enum(_, k) => Some(*k),
                        _ => None,
                    })
                    .collect();
                match consts {
                    Some(ks) => IntSet::from_values(ks),
                    None => {
                        let mut parts = Vec::with_capacity(a.items.len());
                        for item in a.items.iter() {
                            parts.push(self.binary(BinOp::Eq, x.clone(), item.clone(), sx, ss)?);
                        }
                        let any = self.conjunction(parts, span, false)?;
                        return Ok(if inside {
                            any
                        } else {
                            not(any, self.as_written).unwrap_or(Value::Poison)
                        });
                    }
                }
            }
            Value::Poison => return Ok(Value::Poison),
            other => {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "`in` needs a range, set or array, not {}",
                        other.type_name()
                    ),
                )
                .label(ss, "here"));
            }
        };
        match &x {
            Value::Int(k) | Value::Enum(_, k) => {
                return Ok(Value::Bool(set.contains(*k) == inside));
            }
            Value::Poison => return Ok(Value::Poison),
            _ => {}
        }
        let Some(t) = x.as_term() else {
            return Err(Diag::new(
                "cspi::type",
                format!(
                    "`in` tests an integer or an enum value, not {}",
                    x.type_name()
                ),
            )
            .label(sx, "here"));
        };
        if set.is_empty() {
            return Ok(Value::Bool(!inside));
        }
        Ok(Value::from_formula(match set {
            IntSet::Range(lo, hi) => {
                let c = |op, k| Formula::Cmp(op, t.clone(), Term::Const(k));
                if inside {
                    and(vec![c(CmpOp::Ge, lo), c(CmpOp::Le, hi)])
                } else {
                    or(vec![c(CmpOp::Lt, lo), c(CmpOp::Gt, hi)])
                }
            }
            IntSet::Values(vs) => {
                self.spend(vs.len() as u64, ss)?;
                Formula::Table {
                    terms: vec![t],
                    tuples: std::sync::Arc::new(vs.iter().map(|&v| vec![v]).collect()),
                    allowed: inside,
                }
            }
        }))
    }
}
