//! Provenance of constraints: which source text and comprehension binding
//! produced each constraint instance, and which data it reads. `cspi explain`
//! names conflicting constraints with it; data constraints (a puzzle's givens,
//! a value from `--param`) are told apart from the rules.
//!
//! A parameter is *data* when its value comes from outside the model's logic:
//! given on the command line, or text (a puzzle, a file name). A `let` reads
//! the data its expression names, directly or through other `let`s.

use super::Checker;
use super::value::Value;
use crate::model::Origin;
use crate::syntax::ast::{Expr, ExprKind, Generators};

impl Checker<'_> {
    /// Records which data the definition of `name` reads (`own`: the name is
    /// a data parameter itself).
    pub(super) fn note_data(&mut self, name: &str, e: &Expr, own: bool) {
        let mut data = Vec::new();
        if own {
            data.push(name.to_string());
        }
        self.data_read(e, &mut data);
        if !data.is_empty() {
            self.data_deps.insert(name.to_string(), data);
        }
    }

    /// The origin of a constraint instance whose text is `e`, evaluated
    /// under the current comprehension bindings.
    pub(super) fn origin(&self, e: &Expr) -> Origin {
        let mut data = Vec::new();
        self.data_read(e, &mut data);
        Origin {
            span: e.span,
            bindings: self
                .locals
                .iter()
                .map(|(n, v)| (n.clone(), shown(v)))
                .collect(),
            data,
            cell: None,
        }
    }

    /// Adds to `out` the data that the names in `e` read.
    fn data_read(&self, e: &Expr, out: &mut Vec<String>) {
        let mut add = |name: &str| {
            let local = self.locals.iter().any(|(n, _)| n == name);
            if let Some(deps) = self.data_deps.get(name).filter(|_| !local) {
                for d in deps {
                    if !out.contains(d) {
                        out.push(d.clone());
                    }
                }
            }
        };
        walk_names(e, &mut add);
    }
}

/// Calls `f` with every name `e` mentions (comprehension variables included).
pub(crate) fn walk_names(e: &Expr, f: &mut dyn FnMut(&str)) {
    let gens = |g: &Generators, f: &mut dyn FnMut(&str)| {
        for (_, source) in &g.gens {
            walk_names(source, f);
        }
        if let Some(c) = &g.condition {
            walk_names(c, f);
        }
    };
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Bool(_) => {}
        ExprKind::Name(n) => f(n),
        ExprKind::Unary(_, x) => walk_names(x, f),
        ExprKind::Binary(_, a, b) => {
            walk_names(a, f);
            walk_names(b, f);
        }
        ExprKind::Index(base, args) => {
            walk_names(base, f);
            args.iter().flatten().for_each(|a| walk_names(a, f));
        }
        ExprKind::Call(_, args) | ExprKind::List(args) | ExprKind::Set(args) => {
            args.iter().for_each(|a| walk_names(a, f))
        }
        ExprKind::Tuple(items) => items.iter().for_each(|a| walk_names(a, f)),
        ExprKind::Aggregate(_, g, body)
        | ExprKind::Forall(g, body)
        | ExprKind::Exists(g, body)
        | ExprKind::ListComp(body, g)
        | ExprKind::SetComp(body, g) => {
            gens(g, f);
            walk_names(body, f);
        }
        ExprKind::If(c, a, b) => {
            walk_names(c, f);
            walk_names(a, f);
            walk_names(b, f);
        }
        ExprKind::Record(fields) => fields.iter().for_each(|(_, a)| walk_names(a, f)),
        ExprKind::Field(base, _) => walk_names(base, f),
        ExprKind::Let { binds, body, .. } => {
            binds.iter().for_each(|(_, a)| walk_names(a, f));
            walk_names(body, f);
        }
        ExprKind::Format(parts) => {
            for p in parts {
                if let crate::syntax::ast::FmtPart::Expr(a) = p {
                    walk_names(a, f);
                }
            }
        }
    }
}

/// A comprehension variable's value as written for people.
fn shown(v: &Value) -> String {
    match v {
        Value::Int(k) => k.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => format!("{s:?}"),
        Value::Enum(e, k) => e.member(*k),
        other => other.type_name().to_string(),
    }
}
