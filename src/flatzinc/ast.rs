//! The FlatZinc text as items with spans, as `grammar/flatzinc.pest` reads it.

use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ExprKind {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// `lo..hi` (empty when `hi < lo`).
    Range(i64, i64),
    FloatRange,
    /// `{1, 3, 5}`.
    Set(Vec<i64>),
    Array(Vec<Expr>),
    Ident(String),
    /// `a[3]`.
    Access(String, i64),
    /// `int_search(x, first_fail, indomain_min, complete)`: annotations only.
    Call(String, Vec<Expr>),
    Str(String),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expr {
    pub(crate) kind: ExprKind,
    pub(crate) span: Span,
}

/// The element type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BaseType {
    Bool,
    Int,
    /// `lo..hi` as a type: `var 1..9`.
    IntRange(i64, i64),
    /// `{1, 3}` as a type.
    IntSet(Vec<i64>),
    Float,
    FloatRange,
    /// `set of ...` (parameters only are supported).
    SetOf,
}

#[derive(Clone, Debug)]
pub(crate) struct Decl {
    /// `array [1..n] of`: its length.
    pub(crate) array: Option<usize>,
    pub(crate) var: bool,
    pub(crate) base: BaseType,
    pub(crate) name: String,
    pub(crate) annotations: Vec<Expr>,
    pub(crate) value: Option<Expr>,
    pub(crate) span: Span,
    /// The span of the type, for diagnostics on unsupported types.
    pub(crate) type_span: Span,
}

#[derive(Clone, Debug)]
pub(crate) struct Constraint {
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) args: Vec<Expr>,
    pub(crate) annotations: Vec<Expr>,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) enum Goal {
    Satisfy,
    Minimize(Expr),
    Maximize(Expr),
}

#[derive(Clone, Debug)]
pub(crate) struct Solve {
    pub(crate) annotations: Vec<Expr>,
    pub(crate) goal: Goal,
}

#[derive(Clone, Debug)]
pub(crate) struct FznAst {
    pub(crate) decls: Vec<Decl>,
    pub(crate) constraints: Vec<Constraint>,
    pub(crate) solve: Solve,
}
