//! Integer terms and constraint formulas over the model's variables, with a
//! direct evaluator: the meaning of every constraint, independent of how the
//! engine propagates it.

pub(crate) use super::globals::{ArgValue, Global};
use super::{Model, VarId, VarKind};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub(crate) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// An integer-valued expression over variables.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Const(i64),
    Var(VarId),
    /// `sum(c * t) + k`.
    Linear(Vec<(i64, Term)>, i64),
    Mul(Box<Term>, Box<Term>),
    /// Integer division rounding toward zero; undefined for a zero divisor.
    Div(Box<Term>, Box<Term>),
    Mod(Box<Term>, Box<Term>),
    Pow(Box<Term>, Box<Term>),
    Abs(Box<Term>),
    Min(Vec<Term>),
    Max(Vec<Term>),
    /// `items[index]`, the first item at index `low`.
    Element {
        items: Vec<Term>,
        index: Box<Term>,
        low: i64,
    },
    /// `if cond then a else b`; also how a formula becomes 0 or 1.
    Ite(Box<Formula>, Box<Term>, Box<Term>),
    /// The letter (its code point) at 0-based `pos` (in chars) of a word variable.
    Letter(VarId, usize),
    /// The score of a word variable's word in its scored list (`score(w)`).
    Score(VarId),
}

/// A constraint: a truth-valued expression over terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Formula {
    Const(bool),
    Cmp(CmpOp, Term, Term),
    AllDifferent(Vec<Term>),
    /// The tuple of `terms` is (or, with `allowed` false, is not) a row of `tuples`.
    Table {
        terms: Vec<Term>,
        tuples: Arc<Vec<Vec<i64>>>,
        allowed: bool,
    },
    /// A global constraint from the registry (`model/globals/`).
    Global(GlobalCall),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
}

/// A call of a global constraint: its definition (name, parameters and meaning,
/// file per global) and its arguments, in the order of its parameters.
#[derive(Clone)]
pub struct GlobalCall {
    pub def: &'static dyn Global,
    pub args: Vec<GlobalArg>,
}

impl std::fmt::Debug for GlobalCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{:?}", self.def.name(), self.args)
    }
}

impl PartialEq for GlobalCall {
    fn eq(&self, other: &Self) -> bool {
        self.def.name() == other.def.name() && self.args == other.args
    }
}

/// One argument of a global constraint: a term or an array of terms.
#[derive(Clone, Debug, PartialEq)]
pub enum GlobalArg {
    Term(Term),
    Terms(Vec<Term>),
    /// A decision diagram (a compiled dictionary or table), known at load time.
    Mdd(Arc<super::mdd::Mdd>),
    /// A regular expression, compiled at load time.
    Regex(Arc<super::regex::Regex>),
}

impl GlobalArg {
    fn terms(&self) -> &[Term] {
        match self {
            GlobalArg::Term(t) => std::slice::from_ref(t),
            GlobalArg::Terms(ts) => ts,
            GlobalArg::Mdd(_) | GlobalArg::Regex(_) => &[],
        }
    }
}

impl GlobalCall {
    /// The arguments' values under the assignment; `None` if one is unknown
    /// or undefined.
    pub(crate) fn values(
        &self,
        m: &Model,
        a: &(impl Assignment + ?Sized),
    ) -> Option<Vec<ArgValue>> {
        self.args
            .iter()
            .map(|arg| match arg {
                GlobalArg::Term(t) => t.eval(m, a).map(ArgValue::Int),
                GlobalArg::Terms(ts) => ts
                    .iter()
                    .map(|t| t.eval(m, a))
                    .collect::<Option<Vec<_>>>()
                    .map(ArgValue::Ints),
                GlobalArg::Mdd(m) => Some(ArgValue::Mdd(m.clone())),
                GlobalArg::Regex(r) => Some(ArgValue::Regex(r.clone())),
            })
            .collect()
    }
}

/// The value of a variable, if known. Evaluation returns `None` when a value
/// it needs is unknown, or when the term is undefined (a zero divisor, an index
/// out of range, an overflow): a formula over an undefined term is false.
pub trait Assignment {
    fn value(&self, var: VarId) -> Option<i64>;
}

impl Assignment for [i64] {
    fn value(&self, var: VarId) -> Option<i64> {
        self.get(var).copied()
    }
}

impl Assignment for [Option<i64>] {
    fn value(&self, var: VarId) -> Option<i64> {
        self.get(var).copied().flatten()
    }
}

impl Term {
    /// True when the term is defined for every assignment (conservatively: no
    /// element, division, remainder or power anywhere in it), so that a factor
    /// 0 may drop it (`0 * (x % x)` is undefined where `x = 0`), and so that
    /// lowering may reify it.
    pub(crate) fn is_total(&self) -> bool {
        match self {
            // Every value of a word variable is a word of its list.
            Term::Const(_) | Term::Var(_) | Term::Score(_) => true,
            Term::Linear(parts, _) => parts.iter().all(|(_, u)| u.is_total()),
            Term::Mul(a, b) => a.is_total() && b.is_total(),
            Term::Abs(a) => a.is_total(),
            Term::Min(ts) | Term::Max(ts) => ts.iter().all(Term::is_total),
            Term::Ite(f, a, b) => f.is_total() && a.is_total() && b.is_total(),
            Term::Element { .. }
            | Term::Div(..)
            | Term::Mod(..)
            | Term::Pow(..)
            | Term::Letter(..) => false,
        }
    }

    /// The value of a constant term.
    pub(crate) fn as_const(&self) -> Option<i64> {
        if let Term::Const(k) = self {
            Some(*k)
        } else {
            None
        }
    }

    pub fn eval(&self, m: &Model, a: &(impl Assignment + ?Sized)) -> Option<i64> {
        match self {
            Term::Const(k) => Some(*k),
            Term::Var(v) => a.value(*v),
            // Exact: the partial sums of a folded sum (`2^62 * x - 2^63`)
            // may leave i64 where the sum as written never does.
            Term::Linear(parts, k) => {
                let sum = parts.iter().try_fold(*k as i128, |acc, (c, t)| {
                    acc.checked_add((*c as i128).checked_mul(t.eval(m, a)? as i128)?)
                })?;
                i64::try_from(sum).ok()
            }
            Term::Mul(x, y) => x.eval(m, a)?.checked_mul(y.eval(m, a)?),
            Term::Div(x, y) => x.eval(m, a)?.checked_div(y.eval(m, a)?),
            Term::Mod(x, y) => x.eval(m, a)?.checked_rem(y.eval(m, a)?),
            Term::Pow(x, y) => {
                let e = u32::try_from(y.eval(m, a)?).ok()?;
                x.eval(m, a)?.checked_pow(e)
            }
            Term::Abs(x) => x.eval(m, a)?.checked_abs(),
            Term::Min(ts) => ts
                .iter()
                .map(|t| t.eval(m, a))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .min(),
            Term::Max(ts) => ts
                .iter()
                .map(|t| t.eval(m, a))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .max(),
            Term::Element { items, index, low } => {
                let i = index.eval(m, a)?.checked_sub(*low)?;
                items.get(usize::try_from(i).ok()?)?.eval(m, a)
            }
            Term::Ite(c, x, y) => {
                if c.eval(m, a)? {
                    x.eval(m, a)
                } else {
                    y.eval(m, a)
                }
            }
            Term::Letter(v, pos) => {
                let value = a.value(*v)?;
                match &m.vars[*v].kind {
                    VarKind::Word(list) => {
                        let word = list.words.get(usize::try_from(value).ok()?)?;
                        word.chars().nth(*pos).map(|c| i64::from(u32::from(c)))
                    }
                    _ => None,
                }
            }
            Term::Score(v) => match &m.vars[*v].kind {
                VarKind::Word(list) => list.score(a.value(*v)?),
                _ => None,
            },
        }
    }

    /// Appends every variable the term mentions, in order, repeats included.
    pub(crate) fn collect_vars(&self, out: &mut Vec<VarId>) {
        match self {
            Term::Const(_) => {}
            Term::Var(v) | Term::Letter(v, _) | Term::Score(v) => out.push(*v),
            Term::Linear(parts, _) => parts.iter().for_each(|(_, t)| t.collect_vars(out)),
            Term::Mul(x, y) | Term::Div(x, y) | Term::Mod(x, y) | Term::Pow(x, y) => {
                x.collect_vars(out);
                y.collect_vars(out);
            }
            Term::Abs(x) => x.collect_vars(out),
            Term::Min(ts) | Term::Max(ts) => ts.iter().for_each(|t| t.collect_vars(out)),
            Term::Element { items, index, .. } => {
                index.collect_vars(out);
                items.iter().for_each(|t| t.collect_vars(out));
            }
            Term::Ite(c, x, y) => {
                c.collect_vars(out);
                x.collect_vars(out);
                y.collect_vars(out);
            }
        }
    }
}

impl Formula {
    /// True when every term in the formula is total ([`Term::is_total`]).
    pub(crate) fn is_total(&self) -> bool {
        match self {
            Formula::Const(_) => true,
            Formula::Cmp(_, a, b) => a.is_total() && b.is_total(),
            Formula::AllDifferent(ts) | Formula::Table { terms: ts, .. } => {
                ts.iter().all(Term::is_total)
            }
            Formula::Global(call) => call
                .args
                .iter()
                .all(|a| a.terms().iter().all(Term::is_total)),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().all(Formula::is_total),
            Formula::Not(g) => g.is_total(),
            Formula::Implies(p, q) => p.is_total() && q.is_total(),
        }
    }

    pub(crate) fn eval(&self, m: &Model, a: &(impl Assignment + ?Sized)) -> Option<bool> {
        match self {
            Formula::Const(b) => Some(*b),
            Formula::Cmp(op, x, y) => Some(op.holds(x.eval(m, a)?, y.eval(m, a)?)),
            Formula::AllDifferent(ts) => {
                let mut values = ts
                    .iter()
                    .map(|t| t.eval(m, a))
                    .collect::<Option<Vec<_>>>()?;
                values.sort_unstable();
                Some(values.windows(2).all(|w| w[0] != w[1]))
            }
            Formula::Table {
                terms,
                tuples,
                allowed,
            } => {
                let row = terms
                    .iter()
                    .map(|t| t.eval(m, a))
                    .collect::<Option<Vec<_>>>()?;
                Some(tuples.contains(&row) == *allowed)
            }
            Formula::Global(call) => Some(call.def.holds(&call.values(m, a)?)),
            Formula::And(fs) => {
                let mut unknown = false;
                for f in fs {
                    match f.eval(m, a) {
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
                    match f.eval(m, a) {
                        Some(true) => return Some(true),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                (!unknown).then_some(false)
            }
            Formula::Not(f) => f.eval(m, a).map(|b| !b),
            Formula::Implies(p, q) => match p.eval(m, a) {
                Some(false) => Some(true),
                Some(true) => q.eval(m, a),
                None => (q.eval(m, a) == Some(true)).then_some(true),
            },
        }
    }

    /// True when the formula holds under a complete assignment; an undefined
    /// term makes it false.
    pub fn holds(&self, m: &Model, a: &[i64]) -> bool {
        self.eval(m, a).unwrap_or(false)
    }

    /// Appends every variable the formula mentions, in order, repeats included.
    pub(crate) fn collect_vars(&self, out: &mut Vec<VarId>) {
        match self {
            Formula::Const(_) => {}
            Formula::Cmp(_, x, y) => {
                x.collect_vars(out);
                y.collect_vars(out);
            }
            Formula::AllDifferent(ts) | Formula::Table { terms: ts, .. } => {
                ts.iter().for_each(|t| t.collect_vars(out))
            }
            Formula::Global(call) => call
                .args
                .iter()
                .for_each(|a| a.terms().iter().for_each(|t| t.collect_vars(out))),
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.collect_vars(out)),
            Formula::Not(f) => f.collect_vars(out),
            Formula::Implies(p, q) => {
                p.collect_vars(out);
                q.collect_vars(out);
            }
        }
    }

    /// The variables of the formula, each once, in order of first occurrence.
    pub(crate) fn vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        let mut seen = std::collections::HashSet::with_capacity(out.len());
        out.retain(|v| seen.insert(*v));
        out
    }
}
