//! The spanned syntax tree of a `.csp` file: what the text says, before any name
//! is resolved or any value computed.

use miette::SourceSpan;

/// A byte range in the model's source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for SourceSpan {
    fn from(s: Span) -> SourceSpan {
        (s.start, s.end.saturating_sub(s.start)).into()
    }
}

#[derive(Clone, Debug)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Param {
        name: Ident,
        value: Expr,
    },
    Let {
        name: Ident,
        value: Expr,
    },
    Var {
        name: Ident,
        index_sets: Vec<Expr>,
        domain: Expr,
    },
    Constraint(Expr),
    Search {
        scope: Vec<Expr>,
        options: Vec<SearchOption>,
        span: Span,
    },
    Output(Vec<Expr>),
    Objective {
        maximize: bool,
        expr: Expr,
        span: Span,
    },
    Project(Vec<Expr>),
    /// `crossword xw = slots(path, dict);` or `= picture(path, dict);`
    Crossword {
        name: Ident,
        value: Expr,
    },
}

#[derive(Clone, Debug)]
pub struct SearchOption {
    pub key: Ident,
    pub value: Ident,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Implies,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Implies => "->",
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Range => "..",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Pow => "^",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// One `x in e` (or `x, y in e`) part of a comprehension, with the shared `where`.
#[derive(Clone, Debug)]
pub struct Generators {
    pub gens: Vec<(Vec<Ident>, Expr)>,
    pub condition: Option<Box<Expr>>,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Str(String),
    Bool(bool),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a[i, ..]`: each argument is an index, a range, or `None` for `..`.
    Index(Box<Expr>, Vec<Option<Expr>>),
    Call(Ident, Vec<Expr>),
    Aggregate(Ident, Generators, Box<Expr>),
    Forall(Generators, Box<Expr>),
    Exists(Generators, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    ListComp(Box<Expr>, Generators),
    Set(Vec<Expr>),
    Tuple(Vec<Expr>),
}
