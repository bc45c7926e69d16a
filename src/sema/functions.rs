//! User-defined predicates and functions:
//! `predicate adjacent(a, b) = abs(a - b) == 1;`,
//! `function cell(r: int, c: int) = (r - 1) * n + c;`.
//!
//! A call evaluates the body with the parameters bound to the arguments'
//! values (arguments are evaluated first), so a function is unrolled like
//! every other expression when the model is loaded: its parameters may be
//! constants, variables, expressions over variables or arrays, and its body
//! sees the parameters and the model's global names, not the caller's
//! comprehension variables.
//!
//! Recursion is refused when the function is defined: a body may call only
//! functions defined before it, so a call to itself, or to a later function
//! that calls it back, is reported with the cycle. Loading therefore always
//! terminates, as the language promises.

use super::Checker;
use super::types::Type;
use super::value::Value;
use crate::diag::Diag;
use crate::syntax::ast::{Expr, ExprKind, FmtPart, FunctionDef, Ident, Item, Span};
use indexmap::IndexMap;
use std::rc::Rc;

/// A checked definition: the syntax and the parameters' types.
pub(crate) struct Function {
    pub def: Rc<FunctionDef>,
    pub types: Vec<Option<Type>>,
}

/// Every function name defined in the model, with the names its body calls,
/// in definition order: read before checking, to explain recursion.
pub(super) fn call_graph(items: &[Item]) -> IndexMap<String, (Rc<FunctionDef>, Vec<Ident>)> {
    let mut out = IndexMap::new();
    for item in items {
        if let Item::Function(f) = item {
            let mut calls = Vec::new();
            calls_in(&f.body, &mut calls);
            out.entry(f.name.name.clone()).or_insert((f.clone(), calls));
        }
    }
    out
}

/// The names called (or aggregated) anywhere in `e`.
pub(super) fn calls_in(e: &Expr, out: &mut Vec<Ident>) {
    let mut walk = |x: &Expr| calls_in(x, out);
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
        ExprKind::Unary(_, x) | ExprKind::Field(x, _) => walk(x),
        ExprKind::Binary(_, a, b) => {
            walk(a);
            walk(b);
        }
        ExprKind::Index(b, args) => {
            walk(b);
            args.iter().flatten().for_each(walk);
        }
        ExprKind::Call(name, args) => {
            out.push(name.clone());
            args.iter().for_each(|a| calls_in(a, out));
        }
        ExprKind::Aggregate(name, gens, body) => {
            out.push(name.clone());
            gens_in(gens, out);
            calls_in(body, out);
        }
        ExprKind::Forall(gens, body) | ExprKind::Exists(gens, body) => {
            gens_in(gens, out);
            calls_in(body, out);
        }
        ExprKind::ListComp(body, gens) | ExprKind::SetComp(body, gens) => {
            gens_in(gens, out);
            calls_in(body, out);
        }
        ExprKind::If(c, a, b) => {
            walk(c);
            walk(a);
            walk(b);
        }
        ExprKind::List(xs) | ExprKind::Set(xs) | ExprKind::Tuple(xs) => xs.iter().for_each(walk),
        ExprKind::Record(fields) => fields.iter().for_each(|(_, x)| calls_in(x, out)),
        ExprKind::Let { binds, body, .. } => {
            binds.iter().for_each(|(_, x)| calls_in(x, out));
            calls_in(body, out);
        }
        ExprKind::Format(parts) => {
            for p in parts {
                if let FmtPart::Expr(x) = p {
                    calls_in(x, out);
                }
            }
        }
    }
}

fn gens_in(gens: &crate::syntax::ast::Generators, out: &mut Vec<Ident>) {
    for (_, source) in &gens.gens {
        calls_in(source, out);
    }
    if let Some(c) = &gens.condition {
        calls_in(c, out);
    }
}

impl Checker<'_> {
    /// Checks and records a definition.
    pub(super) fn define_function(&mut self, f: &Rc<FunctionDef>) -> Result<(), Diag> {
        let r = self.check_function(f);
        if r.is_err() && !self.functions.contains_key(&f.name.name) {
            // Calls of a rejected definition stay quiet.
            self.failed_functions.insert(f.name.name.clone());
        }
        r
    }

    fn check_function(&mut self, f: &Rc<FunctionDef>) -> Result<(), Diag> {
        let name = &f.name;
        if super::builtins::is_builtin(&name.name) {
            return Err(Diag::new(
                "cspi::name::duplicate",
                format!("`{}` is a built-in function", name.name),
            )
            .label(name.span, "defined again here")
            .help("give the function another name"));
        }
        if self.functions.contains_key(&name.name) || self.globals.contains_key(&name.name) {
            return Err(Diag::new(
                "cspi::name::duplicate",
                format!("`{}` is already defined", name.name),
            )
            .label(name.span, "defined again here")
            .help("every parameter, let, variable and function needs its own name"));
        }
        self.recursion(f)?;
        let mut types = Vec::with_capacity(f.params.len());
        for (i, p) in f.params.iter().enumerate() {
            if f.params[..i].iter().any(|q| q.name.name == p.name.name) {
                return Err(Diag::new(
                    "cspi::name::duplicate",
                    format!("`{}` names two parameters", p.name.name),
                )
                .label(p.name.span, "a second time here"));
            }
            types.push(p.ty.as_ref().map(|t| self.resolve_type(t)).transpose()?);
        }
        self.functions.insert(
            name.name.clone(),
            Rc::new(Function {
                def: f.clone(),
                types,
            }),
        );
        Ok(())
    }

    /// Refuses a body that calls its own function, directly or through
    /// functions defined after it.
    fn recursion(&self, f: &Rc<FunctionDef>) -> Result<(), Diag> {
        let me = &f.name.name;
        // Depth-first over calls to functions not yet defined, keeping the path.
        let mut path: Vec<(String, Ident)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        fn search(
            cx: &Checker,
            me: &str,
            of: &str,
            path: &mut Vec<(String, Ident)>,
            seen: &mut std::collections::HashSet<String>,
        ) -> bool {
            let Some((_, calls)) = cx.call_graph.get(of) else {
                return false;
            };
            for call in calls {
                if cx.functions.contains_key(&call.name)
                    || cx.failed_functions.contains(&call.name)
                    || !cx.call_graph.contains_key(&call.name)
                {
                    continue;
                }
                path.push((of.to_string(), call.clone()));
                if call.name == me
                    || (seen.insert(call.name.clone()) && search(cx, me, &call.name, path, seen))
                {
                    return true;
                }
                path.pop();
            }
            false
        }
        if search(self, me, me, &mut path, &mut seen) {
            let Some((_, first_call)) = path.first() else {
                return Ok(());
            };
            let through: Vec<String> = path[..path.len() - 1]
                .iter()
                .map(|(_, c)| format!("`{}`", c.name))
                .collect();
            let d = Diag::new(
                "cspi::function::recursive",
                if path.len() == 1 {
                    format!("`{me}` calls itself")
                } else {
                    format!("`{me}` calls itself, through {}", through.join(" and "))
                },
            )
            .label(f.name.span, "defined here")
            .label(first_call.span, "this call leads back to it");
            return Err(d.help(
                "functions and predicates cannot be recursive: a model is unrolled when it is loaded; write the repetition with forall, sum or a comprehension",
            ));
        }
        // A later function that does not lead back: it is used too early.
        let (_, calls) = &self.call_graph[me.as_str()];
        for call in calls {
            let later = self.call_graph.contains_key(&call.name)
                && !self.functions.contains_key(&call.name)
                && !self.failed_functions.contains(&call.name)
                && call.name != *me;
            if later {
                let (def, _) = &self.call_graph[call.name.as_str()];
                return Err(Diag::new(
                    "cspi::name::order",
                    format!("`{}` is used before it is defined", call.name),
                )
                .label(call.span, "used here")
                .label(def.name.span, "defined here, later")
                .help("define functions and predicates before the definitions that call them"));
            }
        }
        Ok(())
    }

    /// Calls a user function, once per distinct constant arguments: a call
    /// whose arguments are all data (no expression over variables at the
    /// top) is remembered, so a function called again with the same data
    /// (a clue's pattern inside a loop over cells) is evaluated once. The
    /// body sees only its parameters and names defined before, and values
    /// never change once defined, so the same arguments give the same value.
    pub(super) fn call_user(
        &mut self,
        f: &Rc<Function>,
        args: Vec<(Value, Span)>,
        call: Span,
    ) -> Result<Value, Diag> {
        let key = memo_key(&f.def.name.name, &args);
        if let Some(key) = &key
            && let Some((_, v)) = self.memo.get(key)
        {
            return Ok(v.clone());
        }
        let kept: Vec<Value> = match key {
            Some(_) => args.iter().map(|(v, _)| v.clone()).collect(),
            None => Vec::new(),
        };
        let value = self.call_user_body(f, args, call)?;
        if let Some(key) = key {
            if self.memo.len() >= MEMO_MAX {
                self.memo.clear();
            }
            // The arguments are kept alive with the entry: keys name them by address.
            self.memo.insert(key, (kept, value.clone()));
        }
        Ok(value)
    }

    /// Calls a user function: binds the arguments, evaluates the body.
    fn call_user_body(
        &mut self,
        f: &Rc<Function>,
        args: Vec<(Value, Span)>,
        call: Span,
    ) -> Result<Value, Diag> {
        let def = &f.def;
        let kind = if def.predicate {
            "predicate"
        } else {
            "function"
        };
        if args.len() != def.params.len() {
            let n = def.params.len();
            let names: Vec<&str> = def.params.iter().map(|p| p.name.name.as_str()).collect();
            return Err(Diag::new(
                "cspi::call::arity",
                format!(
                    "{kind} `{}` takes {n} argument{}, but {} {} given",
                    def.name.name,
                    if n == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "is" } else { "are" }
                ),
            )
            .label(call, "this call")
            .label(
                def.name.span,
                format!("defined here with ({})", names.join(", ")),
            )
            .help(format!(
                "call it as {}({})",
                def.name.name,
                names.join(", ")
            )));
        }
        let mut locals = Vec::with_capacity(args.len());
        for ((p, ty), (v, span)) in def.params.iter().zip(&f.types).zip(args) {
            if let Some(ty) = ty
                && !ty.accepts(&v, &self.model)
            {
                let hint = if !ty.has_var()
                    && v.is_term()
                    && !matches!(v, Value::Int(_) | Value::Bool(_) | Value::Enum(..))
                {
                    format!("declare it `var {ty}` to accept expressions over variables")
                } else {
                    format!("pass {ty}")
                };
                return Err(Diag::new(
                    "cspi::call::type",
                    format!(
                        "argument `{}` of `{}` must be {ty}, not {}",
                        p.name.name,
                        def.name.name,
                        v.type_name()
                    ),
                )
                .label(span, "this argument")
                .label(p.name.span, format!("declared {ty} here"))
                .help(hint));
            }
            locals.push((p.name.name.clone(), v));
        }
        // The body sees its parameters and the globals, not the caller's locals.
        let outer = std::mem::replace(&mut self.locals, locals);
        let result = self.eval(&def.body);
        self.locals = outer;
        let value = result.map_err(|d| {
            if d.source.is_some() {
                d
            } else {
                d.label(call, format!("in this call of `{}`", def.name.name))
            }
        })?;
        if def.predicate && !value.is_formula() && !matches!(value, Value::Poison) {
            return Err(Diag::new(
                "cspi::type",
                format!(
                    "predicate `{}` must be true or false, but its body is {}",
                    def.name.name,
                    value.type_name()
                ),
            )
            .label(def.body.span, "the body")
            .label(call, "called here")
            .help("a predicate states a constraint; use `function` for other values"));
        }
        Ok(value)
    }
}

/// The most remembered calls; the memo starts afresh beyond.
const MEMO_MAX: usize = 1 << 16;

/// A call's identity for the memo: the function and its arguments, data by
/// value (numbers, strings) or by the address of their shared contents
/// (arrays, records, sets), which stay alive in the memo entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MemoKey(String, Vec<ArgKey>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ArgKey {
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Range(i64, i64),
    Enum(usize, i64),
    Shared(usize),
}

/// The memo key of a call, or `None` when an argument is an expression over
/// variables (or anything else that is not plain data).
fn memo_key(name: &str, args: &[(Value, Span)]) -> Option<MemoKey> {
    use super::value::IntSet;
    let mut key = Vec::with_capacity(args.len());
    for (v, _) in args {
        key.push(match v {
            Value::Int(k) => ArgKey::Int(*k),
            Value::Bool(b) => ArgKey::Bool(*b),
            Value::Str(s) => ArgKey::Str(s.clone()),
            Value::Enum(e, k) => ArgKey::Enum(std::sync::Arc::as_ptr(e) as usize, *k),
            Value::Set(IntSet::Range(lo, hi)) => ArgKey::Range(*lo, *hi),
            Value::Set(IntSet::Values(s)) => ArgKey::Shared(Rc::as_ptr(s) as usize),
            Value::Array(a) => ArgKey::Shared(Rc::as_ptr(a) as usize),
            Value::Tuple(t) => ArgKey::Shared(Rc::as_ptr(t) as usize),
            Value::Record(r) => ArgKey::Shared(Rc::as_ptr(r) as usize),
            _ => return None,
        });
    }
    Some(MemoKey(name.to_string(), key))
}

#[cfg(test)]
mod tests {
    use super::super::{Checker, Input, LoadOptions};
    use crate::source::Source;

    /// The elements (comprehension steps, array items) checking `text`
    /// spends: evidence of how often a function body ran, with no clock.
    fn elements(text: &str) -> u64 {
        let source = Source::new("memo.csp", text);
        let syntax = crate::syntax::parse(text).expect("parses");
        let options = LoadOptions::default();
        let input = Input {
            source: &source,
            model_dir: std::path::PathBuf::new(),
            overrides: &[],
            data_files: &[],
            options: &options,
            memory: crate::memory::Mark::now(),
        };
        let mut cx = Checker::new(&input, false);
        cx.read_call_graph(&syntax);
        cx.read_declarations(&syntax);
        cx.read_data_files();
        cx.check_items(&syntax);
        assert!(cx.errors.is_empty(), "{text}: {:?}", cx.errors.0);
        cx.elements
    }

    #[test]
    fn a_call_with_constant_arguments_is_evaluated_once() {
        // The body spends 2,000 elements each time it runs (1,000 steps
        // and 1,000 items).
        let model = |bound: &str| {
            format!(
                "function f(k) = sum([i * k | i in 1..1000]);\n\
                 var x in 0..100000000;\n\
                 constraint forall j in 1..50: x >= {bound};"
            )
        };
        let same = elements(&model("f(2)"));
        let nested =
            elements(&model("g(2) - f(2)").replace("var x", "function g(k) = f(k) + 1;\nvar x"));
        let distinct = elements(&model("f(j)"));
        // Fifty calls with the argument 2 run the body once: fewer than
        // 4,000 elements in all; fifty different arguments run it fifty
        // times. A call inside another function is remembered as well.
        assert!(same < 4_000, "{same}");
        assert!(nested < 4_000, "{nested}");
        assert!(distinct >= 100_000, "{distinct}");
    }
}
