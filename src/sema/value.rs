//! Values that model expressions evaluate to while the front end runs.

use crate::formats::dictionary::Dictionary;
use crate::model::{Display, EnumType, FormatPiece, Formula, Term, WordList};
use std::rc::Rc;
use std::sync::Arc;

/// A set of integers: a range kept as bounds (so `0..10^18` costs nothing), or
/// an explicit sorted list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum IntSet {
    Range(i64, i64),
    Values(Rc<Vec<i64>>),
}

impl IntSet {
    pub(crate) fn len(&self) -> u64 {
        match self {
            IntSet::Range(lo, hi) if hi >= lo => {
                (*hi as i128 - *lo as i128 + 1).min(u64::MAX as i128) as u64
            }
            IntSet::Range(..) => 0,
            IntSet::Values(v) => v.len() as u64,
        }
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub(crate) fn contains(&self, x: i64) -> bool {
        match self {
            IntSet::Range(lo, hi) => *lo <= x && x <= *hi,
            IntSet::Values(v) => v.binary_search(&x).is_ok(),
        }
    }
    /// The members in increasing order. Callers bound the size first.
    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = i64> + '_> {
        match self {
            IntSet::Range(lo, hi) => Box::new(*lo..=*hi),
            IntSet::Values(v) => Box::new(v.iter().copied()),
        }
    }
    pub(crate) fn from_values(mut v: Vec<i64>) -> IntSet {
        v.sort_unstable();
        v.dedup();
        IntSet::Values(Rc::new(v))
    }
}

/// An n-dimensional array with an index range per dimension, row-major.
#[derive(Clone, Debug)]
pub(crate) struct Array {
    pub dims: Vec<(i64, i64)>,
    pub items: Vec<Value>,
    /// For each dimension indexed by an enum, the enum; empty when none is.
    pub index_enums: Vec<Option<Arc<EnumType>>>,
}

impl Array {
    /// A one-dimensional list indexed from 1.
    pub(crate) fn list(items: Vec<Value>) -> Array {
        Array::new(vec![(1, items.len() as i64)], items)
    }
    /// An array indexed by integers.
    pub(crate) fn new(dims: Vec<(i64, i64)>, items: Vec<Value>) -> Array {
        Array {
            dims,
            items,
            index_enums: Vec::new(),
        }
    }
    /// The enum indexing dimension `d`, if any.
    pub(crate) fn index_enum(&self, d: usize) -> Option<&Arc<EnumType>> {
        self.index_enums.get(d).and_then(Option::as_ref)
    }
}

/// A record: named fields, in declaration order.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub fields: Vec<(String, Value)>,
}

impl Record {
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Value {
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Set(IntSet),
    Array(Rc<Array>),
    Tuple(Rc<Vec<Value>>),
    Record(Rc<Record>),
    /// A member of an enum: its position, from 1.
    Enum(Arc<EnumType>, i64),
    /// A set of members of an enum (the enum's name stands for all of them).
    EnumSet(Arc<EnumType>, IntSet),
    /// An integer expression that mentions variables.
    Term(Rc<Term>),
    /// A truth value over variables kept as a 0/1 term: a `bool` variable, `!b`.
    BoolTerm(Rc<Term>),
    /// A set whose members depend on variables (`var s: set of 1..n;`).
    SetVar(Rc<super::sets::SetVar>),
    /// Text that depends on the solution (an interpolated string over variables).
    Format(Rc<Vec<FormatPiece>>),
    /// A constraint that mentions variables.
    Formula(Rc<Formula>),
    Dict(Rc<Dictionary>),
    /// A set of words from which a word variable takes its values.
    Words(Arc<WordList>),
    /// Rows of integers, all of one length, as read by `read_table`: kept
    /// packed so that tables of millions of rows stay cheap.
    Table(Arc<Vec<Vec<i64>>>),
    /// A decision diagram of equal-length rows, as built by `trie(...)`.
    Mdd(Arc<crate::model::mdd::Mdd>),
    /// Stands in for a value whose definition failed, so one error is reported once.
    Poison,
}

impl Value {
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::Set(_) => "a set",
            Value::Array(_) => "an array",
            Value::Tuple(_) => "a tuple",
            Value::Record(_) => "a record",
            Value::Enum(..) => "an enum value",
            Value::EnumSet(..) => "a set of enum values",
            Value::Term(_) => "an integer expression over variables",
            Value::BoolTerm(_) => "a truth value over variables",
            Value::SetVar(_) => "a set over variables",
            Value::Format(_) => "a text over variables",
            Value::Formula(_) => "a constraint",
            Value::Dict(_) => "a dictionary",
            Value::Words(_) => "a word set",
            Value::Table(_) => "a table",
            Value::Mdd(_) => "a decision diagram",
            Value::Poison => "an erroneous value",
        }
    }

    /// The value as an integer term, if it is one.
    pub(crate) fn as_term(&self) -> Option<Term> {
        match self {
            Value::Int(k) | Value::Enum(_, k) => Some(Term::Const(*k)),
            Value::Bool(b) => Some(Term::Const(i64::from(*b))),
            Value::Term(t) | Value::BoolTerm(t) => Some((**t).clone()),
            Value::Formula(f) => Some(truth_term((**f).clone())),
            _ => None,
        }
    }

    /// Whether [`Value::as_term`] would succeed (without building the term).
    pub(crate) fn is_term(&self) -> bool {
        matches!(
            self,
            Value::Int(_)
                | Value::Enum(..)
                | Value::Bool(_)
                | Value::Term(_)
                | Value::BoolTerm(_)
                | Value::Formula(_)
        )
    }

    /// Whether [`Value::as_formula`] would succeed.
    pub(crate) fn is_formula(&self) -> bool {
        matches!(
            self,
            Value::Bool(_) | Value::Formula(_) | Value::BoolTerm(_)
        )
    }

    /// The enum this value belongs to, when it is a member (constant or variable).
    pub(crate) fn enum_type(&self, model: &crate::model::Model) -> Option<Arc<EnumType>> {
        match self {
            Value::Enum(e, _) | Value::EnumSet(e, _) => Some(e.clone()),
            Value::Term(t) => term_enum(t, model),
            _ => None,
        }
    }

    /// How values of this term are shown in formatted output.
    pub(crate) fn display(&self, model: &crate::model::Model) -> Display {
        match self {
            Value::Bool(_) | Value::BoolTerm(_) | Value::Formula(_) => Display::Bool,
            Value::Term(t) => match &**t {
                // A `bool` variable that arithmetic reduced to itself
                // (`1 * b + 0`) is a number: truth values are `BoolTerm`s.
                Term::Var(v) if matches!(model.vars[*v].kind, crate::model::VarKind::Bool) => {
                    Display::Int
                }
                Term::Var(v) => Display::As(*v),
                t => term_enum(t, model).map_or(Display::Int, Display::Enum),
            },
            Value::Enum(e, _) => Display::Enum(e.clone()),
            _ => Display::Int,
        }
    }

    /// Like [`Value::as_term`], but moves the term out when nothing else
    /// shares it, so chains of operators cost linear, not quadratic, time.
    pub(crate) fn into_term(self) -> Option<Term> {
        match self {
            Value::Term(t) | Value::BoolTerm(t) => {
                Some(Rc::try_unwrap(t).unwrap_or_else(|t| (*t).clone()))
            }
            Value::Formula(f) => {
                let f = Rc::try_unwrap(f).unwrap_or_else(|f| (*f).clone());
                Some(truth_term(f))
            }
            other => other.as_term(),
        }
    }

    /// Like [`Value::as_formula`], moving the formula out when unshared.
    pub(crate) fn into_formula(self) -> Option<Formula> {
        match self {
            Value::Formula(f) => Some(Rc::try_unwrap(f).unwrap_or_else(|f| (*f).clone())),
            other => other.as_formula(),
        }
    }

    /// The value as a formula, if it is truth-valued.
    pub(crate) fn as_formula(&self) -> Option<Formula> {
        match self {
            Value::Bool(b) => Some(Formula::Const(*b)),
            Value::Formula(f) => Some((**f).clone()),
            Value::BoolTerm(t) => Some(Formula::Cmp(
                crate::model::CmpOp::Eq,
                (**t).clone(),
                Term::Const(1),
            )),
            _ => None,
        }
    }

    /// Wraps a term, folding constants back to plain integers.
    pub(crate) fn from_term(t: Term) -> Value {
        match t {
            Term::Const(k) => Value::Int(k),
            t => Value::Term(Rc::new(t)),
        }
    }

    pub(crate) fn from_formula(f: Formula) -> Value {
        match f {
            Formula::Const(b) => Value::Bool(b),
            f => Value::Formula(Rc::new(f)),
        }
    }
}

/// A formula as a 0/1 term, prepared for reification (see [`super::logic::reifiable`]).
pub(crate) fn truth_term(f: Formula) -> Term {
    Term::Ite(
        Box::new(super::logic::reifiable(f)),
        Box::new(Term::Const(1)),
        Box::new(Term::Const(0)),
    )
}

/// The enum whose members a term takes: an enum variable, or an element of
/// an array of them.
fn term_enum(t: &Term, model: &crate::model::Model) -> Option<Arc<EnumType>> {
    match t {
        Term::Var(v) => match &model.vars.get(*v)?.kind {
            crate::model::VarKind::Enum(e) => Some(e.clone()),
            _ => None,
        },
        Term::Element { items, .. } => {
            let first = term_enum(items.first()?, model)?;
            items
                .iter()
                .all(|i| match i {
                    Term::Const(_) => true,
                    i => term_enum(i, model).is_some_and(|e| e == first),
                })
                .then_some(first)
        }
        _ => None,
    }
}
