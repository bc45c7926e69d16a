//! The spanned syntax tree of a `.csp` file: what the text says, before any name
//! is resolved or any value computed.

pub(crate) use crate::source::Span;

#[derive(Clone, Debug)]
pub(crate) struct Ident {
    pub(crate) name: String,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub(crate) items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub(crate) enum Item {
    /// `param n = 3;`, `param d[1..n]: int;`, `param w: int = 5;`
    Param {
        name: Ident,
        index_sets: Vec<Expr>,
        ty: Option<TypeExpr>,
        value: Option<Expr>,
    },
    Let {
        name: Ident,
        value: Expr,
    },
    Var {
        name: Ident,
        index_sets: Vec<Expr>,
        domain: VarDomain,
    },
    /// `enum Colour = {red, green, blue};`
    Enum {
        name: Ident,
        members: Vec<Ident>,
    },
    /// `type Job = (machine: int, duration: int);`
    Type {
        name: Ident,
        ty: TypeExpr,
    },
    /// `predicate p(a, b) = ...;` or `function f(a, b) = ...;`
    Function(std::rc::Rc<FunctionDef>),
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

/// What a variable ranges over: `in` a set, or `:` a type (`bool`, an enum),
/// or `: set of S` (a set variable, any subset of `S`).
#[derive(Clone, Debug)]
pub(crate) enum VarDomain {
    In(Expr),
    Type(TypeExpr),
    SetOf(Expr),
}

/// A user-defined predicate or function.
#[derive(Clone, Debug)]
pub(crate) struct FunctionDef {
    pub(crate) name: Ident,
    pub(crate) params: Vec<FnParam>,
    pub(crate) body: Expr,
    /// A predicate's body must be a truth value.
    pub(crate) predicate: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct FnParam {
    pub(crate) name: Ident,
    pub(crate) ty: Option<TypeExpr>,
}

/// A type as written: `int`, `var int`, `array of Job`, `(int, int)`, `(a: int, b: bool)`.
#[derive(Clone, Debug)]
pub(crate) struct TypeExpr {
    pub(crate) kind: TypeKind,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) enum TypeKind {
    /// `int`, `bool`, `string`, an enum or a `type` name.
    Named(Ident),
    /// `var T`: may depend on variables.
    Var(Box<TypeExpr>),
    /// `array of T`: a list of any length, indexed from 1.
    Array(Box<TypeExpr>),
    /// `set of T`.
    Set(Box<TypeExpr>),
    Tuple(Vec<TypeExpr>),
    Record(Vec<(Ident, TypeExpr)>),
}

#[derive(Clone, Debug)]
pub(crate) struct SearchOption {
    pub(crate) key: Ident,
    pub(crate) value: Ident,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Iff,
    Implies,
    Xor,
    In,
    NotIn,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    /// Set operators: `subset`, `superset`, `union`, `diff`, `symdiff`, `intersect`.
    Subset,
    Superset,
    Union,
    Diff,
    Symdiff,
    Intersect,
    /// `++`: strings and lists joined.
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

impl BinOp {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            BinOp::Iff => "<->",
            BinOp::Implies => "->",
            BinOp::Xor => "xor",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Range => "..",
            BinOp::Subset => "subset",
            BinOp::Superset => "superset",
            BinOp::Union => "union",
            BinOp::Diff => "diff",
            BinOp::Symdiff => "symdiff",
            BinOp::Intersect => "intersect",
            BinOp::Concat => "++",
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
pub(crate) enum UnOp {
    Neg,
    Not,
}

/// One `x in e` (or `x, y in e`) part of a comprehension, with the shared `where`.
#[derive(Clone, Debug)]
pub(crate) struct Generators {
    pub(crate) gens: Vec<(Vec<Ident>, Expr)>,
    pub(crate) condition: Option<Box<Expr>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub(crate) kind: ExprKind,
    pub(crate) span: Span,
}

#[derive(Clone, Debug)]
pub(crate) enum ExprKind {
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
    /// `{ e | generators }`: a set comprehension.
    SetComp(Box<Expr>, Generators),
    Tuple(Vec<Expr>),
    /// `(machine: 2, duration: 5)`
    Record(Vec<(Ident, Expr)>),
    /// `r.name`, or `t.1` for a tuple's first item.
    Field(Box<Expr>, Ident),
    /// A string with `\(e)` interpolations.
    Format(Vec<FmtPart>),
    /// `let b = e, c = f in body`; `braces` when written MiniZinc's way,
    /// `let { int: b = e; } in body`.
    Let {
        binds: Vec<(Ident, Expr)>,
        body: Box<Expr>,
        braces: bool,
    },
}

/// A piece of an interpolated string.
#[derive(Clone, Debug)]
pub(crate) enum FmtPart {
    Text(String),
    Expr(Expr),
}

impl Expr {
    /// Calls `f` with this expression and every expression inside it,
    /// parents before children (generators' ranges and conditions included).
    pub(crate) fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        let gens = |g: &Generators, f: &mut dyn FnMut(&Expr)| {
            for (_, source) in &g.gens {
                source.visit(f);
            }
            if let Some(c) = &g.condition {
                c.visit(f);
            }
        };
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
            ExprKind::Unary(_, x) | ExprKind::Field(x, _) => x.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Index(base, args) => {
                base.visit(f);
                args.iter().flatten().for_each(|a| a.visit(f));
            }
            ExprKind::Call(_, xs)
            | ExprKind::List(xs)
            | ExprKind::Set(xs)
            | ExprKind::Tuple(xs) => xs.iter().for_each(|a| a.visit(f)),
            ExprKind::Aggregate(_, g, body)
            | ExprKind::Forall(g, body)
            | ExprKind::Exists(g, body)
            | ExprKind::ListComp(body, g)
            | ExprKind::SetComp(body, g) => {
                gens(g, f);
                body.visit(f);
            }
            ExprKind::If(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Record(fields) => fields.iter().for_each(|(_, a)| a.visit(f)),
            ExprKind::Format(parts) => {
                for p in parts {
                    if let FmtPart::Expr(a) = p {
                        a.visit(f);
                    }
                }
            }
            ExprKind::Let { binds, body, .. } => {
                binds.iter().for_each(|(_, a)| a.visit(f));
                body.visit(f);
            }
        }
    }
}
