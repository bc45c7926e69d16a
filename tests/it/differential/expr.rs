//! Terms and formulas as this test understands them: each can print itself
//! as .csp text and evaluate itself directly, with the language's meaning
//! written out here (not taken from cspi's model or evaluator).
//!
//! Undefined values (a zero divisor, an index out of range, a negative
//! exponent, an overflow) are `None`, as in cspi's own evaluator
//! (`model/term.rs`), which this mirrors. A term or comparison, table or
//! all-different over an undefined term is undefined; `!` keeps it
//! undefined; `&&` is false when a part is false, `||` true when a part is
//! true, `p -> q` true when `p` is false or `q` true, and otherwise
//! undefined. An undefined constraint does not hold.

use std::collections::BTreeSet;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub(super) const ALL: [Op; 6] = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge];

    pub(super) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }

    pub(super) fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

/// An integer term over the variables `x0, x1, ...`.
#[derive(Clone, Debug)]
pub(super) enum Term {
    Const(i64),
    Var(usize),
    Add(Box<Term>, Box<Term>),
    Sub(Box<Term>, Box<Term>),
    Mul(Box<Term>, Box<Term>),
    /// Rounds toward zero (`checked_div`); undefined for a zero divisor.
    Div(Box<Term>, Box<Term>),
    /// The remainder of `Div` (sign of the dividend); undefined for zero.
    Mod(Box<Term>, Box<Term>),
    /// `a ^ b`; undefined for a negative exponent.
    Pow(Box<Term>, Box<Term>),
    Neg(Box<Term>),
    Abs(Box<Term>),
    Sum(Vec<Term>),
    Min(Vec<Term>),
    Max(Vec<Term>),
    /// `[items][index]`: a list numbered from 1; undefined out of range.
    /// Only the selected item is evaluated.
    Element(Vec<Term>, Box<Term>),
    /// `count([f, ...])`: how many of the formulas hold.
    Count(Vec<Formula>),
    /// `count([t, ...], v)`: how many of the terms equal `v`.
    CountEq(Vec<Term>, Box<Term>),
    /// `if c then a else b end`: only the chosen branch is evaluated.
    Ite(Box<Formula>, Box<Term>, Box<Term>),
    /// A formula used as a number, 0 or 1.
    Truth(Box<Formula>),
}

/// Where a table's rows come from in the model text.
#[derive(Clone, Debug)]
pub(super) enum Rows {
    /// `[(1, 2), (3, 4)]`, or with `lists` `[[1, 2], [3, 4]]`; a table of
    /// one column may write its rows as bare integers `[1, 3]`.
    Inline { lists: bool },
    /// A comprehension; the text is printed as is, and `Table::rows` holds
    /// what it evaluates to.
    Comprehension(String),
    /// `read_table(path)`.
    /// The path, and whether the file starts with a header line.
    File(PathBuf, bool),
}

#[derive(Clone, Debug)]
pub(super) struct Table {
    pub terms: Vec<Term>,
    pub rows: Vec<Vec<i64>>,
    /// `table` when true, `forbidden` when false.
    pub allowed: bool,
    pub source: Rows,
}

/// A truth-valued expression.
#[derive(Clone, Debug)]
pub(super) enum Formula {
    Cmp(Op, Term, Term),
    AllDiff(Vec<Term>),
    Table(Table),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Not(Box<Formula>),
}

pub(super) fn var(x: usize) -> Term {
    Term::Var(x)
}

pub(super) fn konst(k: i64) -> Term {
    Term::Const(k)
}

pub(super) fn bx<T>(t: T) -> Box<T> {
    Box::new(t)
}

impl Term {
    pub(super) fn eval(&self, v: &[i64]) -> Option<i64> {
        let two = |a: &Term, b: &Term| Some((a.eval(v)?, b.eval(v)?));
        match self {
            Term::Const(k) => Some(*k),
            Term::Var(x) => Some(v[*x]),
            Term::Add(a, b) => two(a, b).and_then(|(a, b)| a.checked_add(b)),
            Term::Sub(a, b) => two(a, b).and_then(|(a, b)| a.checked_sub(b)),
            Term::Mul(a, b) => two(a, b).and_then(|(a, b)| a.checked_mul(b)),
            Term::Div(a, b) => two(a, b).and_then(|(a, b)| a.checked_div(b)),
            Term::Mod(a, b) => two(a, b).and_then(|(a, b)| a.checked_rem(b)),
            Term::Pow(a, b) => two(a, b).and_then(|(a, b)| a.checked_pow(u32::try_from(b).ok()?)),
            Term::Neg(a) => a.eval(v)?.checked_neg(),
            Term::Abs(a) => a.eval(v)?.checked_abs(),
            Term::Sum(ts) => all(ts, v)?.into_iter().try_fold(0i64, i64::checked_add),
            Term::Min(ts) => all(ts, v)?.into_iter().min(),
            Term::Max(ts) => all(ts, v)?.into_iter().max(),
            Term::Element(items, index) => {
                let i = usize::try_from(index.eval(v)? - 1).ok()?;
                items.get(i)?.eval(v)
            }
            Term::Count(fs) => fs
                .iter()
                .map(|f| f.eval(v).map(i64::from))
                .sum::<Option<i64>>(),
            Term::CountEq(ts, x) => {
                let x = x.eval(v)?;
                Some(all(ts, v)?.into_iter().filter(|&t| t == x).count() as i64)
            }
            Term::Ite(c, a, b) => {
                if c.eval(v)? {
                    a.eval(v)
                } else {
                    b.eval(v)
                }
            }
            Term::Truth(f) => f.eval(v).map(i64::from),
        }
    }

    pub(super) fn text(&self) -> String {
        let bin = |a: &Term, op: &str, b: &Term| format!("({} {op} {})", a.text(), b.text());
        match self {
            Term::Const(k) => k.to_string(),
            Term::Var(x) => format!("x{x}"),
            Term::Add(a, b) => bin(a, "+", b),
            Term::Sub(a, b) => bin(a, "-", b),
            Term::Mul(a, b) => bin(a, "*", b),
            Term::Div(a, b) => bin(a, "/", b),
            Term::Mod(a, b) => bin(a, "%", b),
            Term::Pow(a, b) => bin(a, "^", b),
            Term::Neg(a) => format!("(-{})", a.text()),
            Term::Abs(a) => format!("abs({})", a.text()),
            Term::Sum(ts) => format!("sum([{}])", list(ts, Term::text)),
            Term::Min(ts) => format!("min({})", list(ts, Term::text)),
            Term::Max(ts) => format!("max({})", list(ts, Term::text)),
            Term::Element(items, i) => format!("[{}][{}]", list(items, Term::text), i.text()),
            Term::Count(fs) => format!("count([{}])", list(fs, Formula::text)),
            Term::CountEq(ts, x) => format!("count([{}], {})", list(ts, Term::text), x.text()),
            Term::Ite(c, a, b) => {
                format!("(if {} then {} else {} end)", c.text(), a.text(), b.text())
            }
            Term::Truth(f) => format!("({})", f.text()),
        }
    }
}

impl Formula {
    pub(super) fn eval(&self, v: &[i64]) -> Option<bool> {
        match self {
            Formula::Cmp(op, a, b) => Some(op.holds(a.eval(v)?, b.eval(v)?)),
            Formula::AllDiff(ts) => {
                let values = all(ts, v)?;
                Some(values.iter().collect::<BTreeSet<_>>().len() == values.len())
            }
            Formula::Table(t) => {
                let row = all(&t.terms, v)?;
                Some(t.rows.contains(&row) == t.allowed)
            }
            Formula::And(p, q) => match (p.eval(v), q.eval(v)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Formula::Or(p, q) => match (p.eval(v), q.eval(v)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            Formula::Implies(p, q) => match (p.eval(v), q.eval(v)) {
                (Some(false), _) | (_, Some(true)) => Some(true),
                (Some(true), Some(false)) => Some(false),
                _ => None,
            },
            Formula::Not(p) => p.eval(v).map(|b| !b),
        }
    }

    /// Whether the constraint holds: an undefined one does not.
    pub(super) fn holds(&self, v: &[i64]) -> bool {
        self.eval(v) == Some(true)
    }

    pub(super) fn text(&self) -> String {
        let bin = |p: &Formula, op: &str, q: &Formula| format!("({} {op} {})", p.text(), q.text());
        match self {
            Formula::Cmp(op, a, b) => format!("({} {} {})", a.text(), op.text(), b.text()),
            Formula::AllDiff(ts) => format!("alldifferent([{}])", list(ts, Term::text)),
            Formula::Table(t) => t.text(),
            Formula::And(p, q) => bin(p, "&&", q),
            Formula::Or(p, q) => bin(p, "||", q),
            Formula::Implies(p, q) => bin(p, "->", q),
            Formula::Not(p) => format!("!{}", p.text()),
        }
    }
}

impl Table {
    pub(super) fn text(&self) -> String {
        let name = if self.allowed { "table" } else { "forbidden" };
        let rows = match &self.source {
            Rows::Inline { lists } => {
                let row = |r: &Vec<i64>| {
                    let values = list(r, i64::to_string);
                    match (lists, r.len()) {
                        (true, _) => format!("[{values}]"),
                        (false, 1) => values,
                        (false, _) => format!("({values})"),
                    }
                };
                format!("[{}]", list(&self.rows, row))
            }
            Rows::Comprehension(text) => text.clone(),
            Rows::File(path, false) => format!("read_table(\"{}\")", path.display()),
            Rows::File(path, true) => format!("read_table(\"{}\", \"header\")", path.display()),
        };
        format!("{name}([{}], {rows})", list(&self.terms, Term::text))
    }
}

fn all(ts: &[Term], v: &[i64]) -> Option<Vec<i64>> {
    ts.iter().map(|t| t.eval(v)).collect()
}

fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    items.iter().map(show).collect::<Vec<_>>().join(", ")
}
