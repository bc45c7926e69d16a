//! Operators on values: constant folding when both sides are known, symbolic
//! terms and formulas when a variable is involved.

use super::Checker;
use super::value::{IntSet, Value};
use crate::diag::Diag;
use crate::model::{CmpOp, Formula, Term, VarKind};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Span, UnOp};

impl Checker<'_> {
    /// `sum(c * t) + k`: merged and folded, or as written when this run
    /// builds the checker's form (see [`linear`]).
    pub(super) fn linear(&self, parts: Vec<(i64, Term)>, k: i64) -> Term {
        linear(parts, k, self.as_written)
    }

    pub(super) fn unary(&mut self, op: UnOp, v: Value, span: Span) -> Result<Value, Diag> {
        Ok(match (op, v) {
            (_, Value::Poison) => Value::Poison,
            (UnOp::Neg, Value::Int(k)) => {
                Value::Int(k.checked_neg().ok_or_else(|| overflow(span))?)
            }
            // A truth value used as a number is 0 or 1. Terms are moved, not
            // cloned, so that chains of operators cost linear time.
            (
                UnOp::Neg,
                v @ (Value::Term(_) | Value::Bool(_) | Value::BoolTerm(_) | Value::Formula(_)),
            ) => match v.into_term() {
                Some(t) => Value::from_term(self.linear(vec![(-1, t)], 0)),
                None => Value::Poison,
            },
            (UnOp::Not, v @ (Value::Bool(_) | Value::BoolTerm(_) | Value::Formula(_))) => {
                super::logic::not(v, self.as_written).unwrap_or(Value::Poison)
            }
            (op, v) => {
                let what = if op == UnOp::Neg {
                    "negate"
                } else {
                    "apply `!` to"
                };
                return Err(
                    Diag::new("cspi::type", format!("cannot {what} {}", v.type_name()))
                        .label(span, "here"),
                );
            }
        })
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        sa: Span,
        sb: Span,
    ) -> Result<Value, Diag> {
        let span = sa.to(sb);
        if matches!(a, Value::Poison) || matches!(b, Value::Poison) {
            return Ok(Value::Poison);
        }
        if matches!(op, BinOp::Eq | BinOp::Ne)
            && let Some(r) = self.word_is(op, &a, &b, span)
        {
            return r;
        }
        let is_set = |v: &Value| matches!(v, Value::Set(_) | Value::EnumSet(..) | Value::SetVar(_));
        let set_var = matches!(a, Value::SetVar(_)) || matches!(b, Value::SetVar(_));
        if matches!(op, BinOp::Eq | BinOp::Ne) && (set_var || (is_set(&a) && is_set(&b))) {
            return self.set_binary(op, a, b, sa, sb);
        }
        match op {
            BinOp::Subset
            | BinOp::Superset
            | BinOp::Union
            | BinOp::Diff
            | BinOp::Symdiff
            | BinOp::Intersect => self.set_binary(op, a, b, sa, sb),
            BinOp::In | BinOp::NotIn if matches!(b, Value::SetVar(_)) => {
                let Value::SetVar(s) = &b else {
                    return Err(type_error(op, &a, &b, span));
                };
                let s = s.clone();
                self.member_of_set_var(a, &s, op == BinOp::In, sa, sb)
            }
            BinOp::Range => match (&a, &b) {
                (Value::Int(lo), Value::Int(hi)) => Ok(Value::Set(IntSet::Range(*lo, *hi))),
                (Value::Enum(e, lo), Value::Enum(f, hi)) if e == f => {
                    Ok(Value::EnumSet(e.clone(), IntSet::Range(*lo, *hi)))
                }
                _ => Err(type_error(op, &a, &b, span)),
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow => {
                self.computable(op, &a, sa)?;
                self.computable(op, &b, sb)?;
                self.arith(op, a, b, sb, span)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.same_enum(&a, &b, sa, sb)?;
                compare(op, a, b, span)
            }
            BinOp::In | BinOp::NotIn => self.member(a, b, op == BinOp::In, sa, sb),
            BinOp::Concat => self.concat(a, b, sa, sb),
            BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff | BinOp::Xor => {
                super::logic::connective(op, a, b, span, self.as_written)
            }
        }
    }

    /// `w == "word"` (or `!=`) for a word variable `w`: a theme entry locked
    /// in its slot. The string is normalised as dictionary entries are; a
    /// word not in the slot's list is an error (the grid could not be filled).
    fn word_is(&self, op: BinOp, a: &Value, b: &Value, span: Span) -> Option<Result<Value, Diag>> {
        let (t, text) = match (a, b) {
            (Value::Term(t), Value::Str(s)) | (Value::Str(s), Value::Term(t)) => (t, s),
            _ => return None,
        };
        let Term::Var(v) = **t else { return None };
        let VarKind::Word(list) = &self.model.vars[v].kind else {
            return None;
        };
        let word: String = text
            .chars()
            .filter(|c| c.is_alphabetic())
            .filter_map(crate::formats::dictionary::fold_letter)
            .collect();
        let found = list.words.binary_search(&word).ok();
        Some(match (found, op) {
            (Some(i), _) => Ok(Value::from_formula(Formula::Cmp(
                cmp_op(op),
                Term::Var(v),
                Term::Const(i as i64),
            ))),
            (None, BinOp::Ne) => Ok(Value::from_formula(Formula::Const(true))),
            (None, _) => Err(Diag::new(
                super::NO_WORDS,
                format!("`{word}` is not a word of `{}`", list.name),
            )
            .label(span, "this entry")
            .help(
                "add it to the word list (with a score at least the minimum), or check its length",
            )),
        })
    }

    /// Refuses arithmetic on a member of an enum.
    fn computable(&self, op: BinOp, v: &Value, s: Span) -> Result<(), Diag> {
        match v.enum_type(&self.model) {
            None => Ok(()),
            Some(e) => Err(Diag::new(
                "cspi::type",
                format!("`{}` cannot compute with a member of `{}`", op.symbol(), e.name),
            )
            .label(s, "an enum value")
            .help("enum values are compared (== != < <= > >=), not computed with; `ord(x)` is the position of x, from 1")),
        }
    }

    /// Refuses to compare members of an enum with integers or with members of another enum.
    fn same_enum(&self, a: &Value, b: &Value, sa: Span, sb: Span) -> Result<(), Diag> {
        let (ea, eb) = (a.enum_type(&self.model), b.enum_type(&self.model));
        let describe = |e: &Option<std::sync::Arc<crate::model::EnumType>>, v: &Value| match e {
            Some(e) => format!("a member of `{}`", e.name),
            None => v.type_name().to_string(),
        };
        let clash = match (&ea, &eb) {
            (Some(x), Some(y)) => x != y,
            (Some(_), None) => matches!(b, Value::Int(_)),
            (None, Some(_)) => matches!(a, Value::Int(_)),
            (None, None) => false,
        };
        if !clash {
            return Ok(());
        }
        Err(Diag::new(
            "cspi::type",
            format!(
                "cannot compare {} with {}",
                describe(&ea, a),
                describe(&eb, b)
            ),
        )
        .label(sa, describe(&ea, a))
        .label(sb, describe(&eb, b))
        .help("compare members of one enum with each other, and integers with integers"))
    }

    fn arith(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        sb: Span,
        span: Span,
    ) -> Result<Value, Diag> {
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            let r = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Div | BinOp::Mod if y == 0 => {
                    return Err(Diag::new("cspi::arith::zero", "division by zero")
                        .label(sb, "this is 0")
                        .help("`/` and `%` need a non-zero divisor"));
                }
                BinOp::Div => x.checked_div(y),
                BinOp::Mod => x.checked_rem(y),
                _ => u32::try_from(y).ok().and_then(|e| x.checked_pow(e)),
            };
            return r.map(Value::Int).ok_or_else(|| overflow(span));
        }
        if !a.is_term() || !b.is_term() {
            return Err(type_error(op, &a, &b, span));
        }
        let (Some(x), Some(y)) = (a.into_term(), b.into_term()) else {
            return Ok(Value::Poison);
        };
        let built = Value::from_term(match op {
            BinOp::Add => self.linear(vec![(1, x), (1, y)], 0),
            BinOp::Sub => self.linear(vec![(1, x), (-1, y)], 0),
            BinOp::Mul if self.as_written => Term::Mul(Box::new(x), Box::new(y)),
            BinOp::Mul => match (&x, &y) {
                (Term::Const(k), t) | (t, Term::Const(k)) => self.linear(vec![(*k, t.clone())], 0),
                _ => {
                    // Checked as built: a later factor 0 may fold the product
                    // away, but the model as written would need its values.
                    let left = self.chain_bounds.take();
                    let b = super::range::product(left, &x, &y, &self.model)
                        .map_err(|w| super::items::too_wide(w, span))?;
                    self.chain_bounds = Some(b);
                    Term::Mul(Box::new(x), Box::new(y))
                }
            },
            BinOp::Div => Term::Div(Box::new(x), Box::new(y)),
            BinOp::Mod => Term::Mod(Box::new(x), Box::new(y)),
            _ => Term::Pow(Box::new(x), Box::new(y)),
        });
        Ok(self.untyped(built))
    }

    /// The result of arithmetic is an integer, never a member of an enum,
    /// even where folding reduced it to an enum variable: `ord(c) + 0` and
    /// `1 * ord(c)` fold to `c` itself, which then compared as an enum.
    /// (No operand of arithmetic is enum-typed: `computable` refuses them.)
    pub(super) fn untyped(&self, v: Value) -> Value {
        match &v {
            Value::Term(t) if v.enum_type(&self.model).is_some() => {
                Value::Term(std::rc::Rc::new(Term::Linear(vec![(1, (**t).clone())], 0)))
            }
            _ => v,
        }
    }
}

impl Checker<'_> {
    /// A chain `a * b * c * ...`, evaluated left to right like nested binary
    /// operators, the bounds of the product so far carried from one step to
    /// the next (`Checker::chain_bounds`): recomputed at each step, they made
    /// a long chain cost quadratic time.
    pub(super) fn product_chain(&mut self, e: &Expr) -> Result<Value, Diag> {
        let mut rights = Vec::new();
        let mut first = e;
        while let ExprKind::Binary(BinOp::Mul, l, r) = &first.kind {
            rights.push(&**r);
            first = l;
        }
        let mut acc = self.eval(first)?;
        let mut span = first.span;
        let mut known = None;
        for r in rights.into_iter().rev() {
            let v = self.eval(r)?;
            // Only the product this loop built last is `acc`: any other
            // bounds left over (a chain inside `r`) are dropped.
            self.chain_bounds = known.take();
            acc = self.binary(BinOp::Mul, acc, v, span, r.span)?;
            let built = matches!(&acc, Value::Term(t) if matches!(**t, Term::Mul(..)));
            known = self.chain_bounds.take().filter(|_| built);
            self.tick(r.span)?;
            span = span.to(r.span);
        }
        Ok(acc)
    }

    /// A chain `a + b - c + ...`, evaluated left to right like nested binary
    /// operators, but with the terms gathered and merged once at the end: a
    /// merge per operator would make a long chain cost quadratic time.
    pub(super) fn sum_chain(&mut self, e: &Expr) -> Result<Value, Diag> {
        let mut rights = Vec::new();
        let mut first = e;
        while let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) = &first.kind {
            rights.push((*op, &**r));
            first = l;
        }
        let mut acc = self.eval(first)?;
        let mut span = first.span;
        if let Some((op, _)) = rights.last() {
            self.computable(*op, &acc, span)?;
        }
        // Once a term appears: the parts gathered so far.
        let mut parts: Option<Vec<(i64, Term)>> = None;
        for (op, r) in rights.into_iter().rev() {
            let v = self.eval(r)?;
            self.tick(r.span)?;
            self.computable(op, &v, r.span)?;
            let sign = if op == BinOp::Add { 1 } else { -1 };
            match &mut parts {
                Some(p) if v.is_term() => p.push((sign, v.into_term().unwrap_or(Term::Const(0)))),
                Some(p) => {
                    let sum = Value::from_term(self.linear(std::mem::take(p), 0));
                    return self.binary(op, sum, v, span, r.span);
                }
                None if matches!(acc, Value::Int(_)) && matches!(v, Value::Int(_)) => {
                    acc = self.binary(op, acc, v, span, r.span)?;
                }
                None if acc.is_term() && v.is_term() => {
                    let a = std::mem::replace(&mut acc, Value::Poison);
                    parts = Some(vec![
                        (1, a.into_term().unwrap_or(Term::Const(0))),
                        (sign, v.into_term().unwrap_or(Term::Const(0))),
                    ]);
                }
                None => acc = self.binary(op, acc, v, span, r.span)?,
            }
            span = span.to(r.span);
        }
        Ok(match parts {
            Some(p) => self.untyped(Value::from_term(self.linear(p, 0))),
            None => acc,
        })
    }
}

/// Builds `sum(c * t) + k`, flattening nested sums and folding constants.
/// Where flattening would need a factor or a constant beyond i64 (`6 * (t -
/// base)` with a base near 2^60 distributes to `6 * t - 6 * base`), the
/// parts stay as written: the sum is the same exact integer either way.
/// With `as_written` (see [`Checker::as_written`]) the sum stays as written.
pub(super) fn linear(parts: Vec<(i64, Term)>, k: i64, as_written: bool) -> Term {
    if as_written {
        return written_sum(parts, k);
    }
    if !flattens_in_i64(&parts, k) {
        return Term::Linear(parts, k);
    }
    // Exact partial sums: only the final factors and constant must fit.
    let mut flat: Vec<(i128, Term)> = Vec::new();
    // Where each plain variable sits in `flat`, so long sums merge in linear time.
    let mut var_at: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut constant = k as i128;
    let mut stack: Vec<(i128, Term)> = parts.into_iter().map(|(c, t)| (c as i128, t)).collect();
    while let Some((c, t)) = stack.pop() {
        match t {
            Term::Const(v) => constant += c * v as i128,
            Term::Linear(inner, k2) => {
                constant += c * k2 as i128;
                stack.extend(inner.into_iter().map(|(c2, t2)| (c * c2 as i128, t2)));
            }
            Term::Var(v) => match var_at.get(&v) {
                Some(&i) => flat[i].0 += c,
                None => {
                    var_at.insert(v, flat.len());
                    flat.push((c, Term::Var(v)));
                }
            },
            t => flat.push((c, t)),
        }
    }
    // A part with factor 0 goes unless it may be undefined: `0 * (x / y)` is
    // undefined where `y = 0`, and a formula over it is then false.
    flat.retain(|(c, t)| *c != 0 || !t.is_total());
    flat.reverse();
    // Checked by `flattens_in_i64`: every factor and the constant fit.
    let narrow = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
    let constant = narrow(constant);
    match flat.as_slice() {
        [] => Term::Const(constant),
        [(1, t)] if constant == 0 => t.clone(),
        _ => Term::Linear(
            flat.into_iter().map(|(c, t)| (narrow(c), t)).collect(),
            constant,
        ),
    }
}

/// A sum as written: kept whole unless every part is a constant (a sum of
/// data, such as a horizon, is a constant in both forms), computed exactly.
fn written_sum(parts: Vec<(i64, Term)>, k: i64) -> Term {
    let constant = parts.iter().try_fold(k as i128, |acc, (c, t)| {
        acc.checked_add((*c as i128).checked_mul(t.as_const()? as i128)?)
    });
    match constant.and_then(|v| i64::try_from(v).ok()) {
        Some(v) => Term::Const(v),
        None => Term::Linear(parts, k),
    }
}

fn flattens_in_i64(parts: &[(i64, Term)], k: i64) -> bool {
    let fits = |v: i128| i64::try_from(v).is_ok();
    let mut constant = k as i128;
    let mut factors: std::collections::HashMap<usize, i128> = std::collections::HashMap::new();
    let mut stack: Vec<(i128, &Term)> = parts.iter().map(|(c, t)| (*c as i128, t)).collect();
    while let Some((c, t)) = stack.pop() {
        if !fits(c) {
            return false;
        }
        match t {
            Term::Const(v) => constant += c * *v as i128,
            Term::Linear(inner, k2) => {
                constant += c * *k2 as i128;
                stack.extend(inner.iter().map(|(c2, t2)| (c * *c2 as i128, t2)));
            }
            Term::Var(v) => *factors.entry(*v).or_insert(0) += c,
            _ => {}
        }
        // Each step adds less than 2^126: a constant kept within i64 cannot
        // leave i128 before this check.
        if !fits(constant) {
            return false;
        }
    }
    factors.values().all(|&c| fits(c))
}

fn cmp_op(op: BinOp) -> CmpOp {
    match op {
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        _ => CmpOp::Ge,
    }
}

fn compare(op: BinOp, a: Value, b: Value, span: Span) -> Result<Value, Diag> {
    let cop = cmp_op(op);
    match (&a, &b) {
        (Value::Int(x), Value::Int(y)) | (Value::Enum(_, x), Value::Enum(_, y)) => {
            return Ok(Value::Bool(cop.holds(*x, *y)));
        }
        (Value::Str(x), Value::Str(y)) => return Ok(Value::Bool(cop.holds(x.cmp(y) as i64, 0))),
        (Value::Bool(x), Value::Bool(y)) if matches!(op, BinOp::Eq | BinOp::Ne) => {
            return Ok(Value::Bool(cop.holds(i64::from(*x), i64::from(*y))));
        }
        // A letter of a word compared with a one-letter string.
        (Value::Term(t), Value::Str(s)) | (Value::Str(s), Value::Term(t))
            if matches!(**t, Term::Letter(..)) =>
        {
            let mut chars = s.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(
                    Diag::new("cspi::type", "a letter compares with a one-letter string")
                        .label(span, "here"),
                );
            };
            let Some(c) = crate::formats::dictionary::fold_letter(c) else {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "this string has {}",
                        crate::formats::dictionary::unfoldable(c)
                    ),
                )
                .label(span, "here")
                .help("dictionaries refuse such letters too; compare with another letter"));
            };
            let letter = Term::Const(i64::from(u32::from(c)));
            let (x, y) = if matches!(a, Value::Term(_)) {
                ((**t).clone(), letter)
            } else {
                (letter, (**t).clone())
            };
            return Ok(Value::from_formula(Formula::Cmp(cop, x, y)));
        }
        _ => {}
    }
    if !a.is_term() || !b.is_term() {
        return Err(type_error(op, &a, &b, span));
    }
    let (x, y) = (
        a.into_term().unwrap_or(Term::Const(0)),
        b.into_term().unwrap_or(Term::Const(0)),
    );
    Ok(Value::from_formula(Formula::Cmp(cop, x, y)))
}

pub(super) fn type_error(op: BinOp, a: &Value, b: &Value, span: Span) -> Diag {
    let text = |v: &Value| matches!(v, Value::Str(_) | Value::Format(_));
    if op == BinOp::Add && (text(a) || text(b)) {
        return Diag::new(
            "cspi::type",
            format!("`+` cannot combine {} and {}", a.type_name(), b.type_name()),
        )
        .label(span, "here")
        .help("`+` adds numbers; join texts with `++` (`\"a\" ++ \"b\"`) or write the values into one string: `\"\\(a)\\(b)\"`");
    }
    let set = |v: &Value| matches!(v, Value::Set(_) | Value::EnumSet(..) | Value::SetVar(_));
    let help = if set(a) || set(b) {
        "sets combine with `union`, `intersect`, `diff` and `symdiff`, compare with `==`, \
         `!=`, `subset` and `superset`; `card(s)` counts their members"
    } else {
        "both sides must be integers (or integer expressions over variables), or both booleans"
    };
    Diag::new(
        "cspi::type",
        format!(
            "`{}` cannot combine {} and {}",
            op.symbol(),
            a.type_name(),
            b.type_name()
        ),
    )
    .label(span, "here")
    .help(help)
}

fn overflow(span: Span) -> Diag {
    Diag::new("cspi::arith::overflow", "integer overflow")
        .label(span, "this does not fit in 64 bits")
}
