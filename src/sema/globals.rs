//! Calls of the global constraints in the registry (`lower/globals/`):
//! arguments checked against each global's declared parameters.

use super::Checker;
use super::value::Value;
use crate::diag::Diag;
use crate::lower::globals::{Global, ParamKind};
use crate::model::{Formula, GlobalArg, GlobalCall, Term};
use crate::syntax::ast::Span;

impl Checker<'_> {
    /// `name(args)` for the global constraint `g`.
    pub(super) fn global_call(
        &mut self,
        g: &'static dyn Global,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let params = g.params();
        let signature = || {
            let shown: Vec<String> = params
                .iter()
                .map(|p| {
                    let kind = match p.kind {
                        ParamKind::Term => "an integer expression",
                        ParamKind::Terms => "an array of integer expressions",
                        ParamKind::Int => "an integer known at load time",
                        ParamKind::Ints => "an array of integers known at load time",
                        ParamKind::Mdd => "a trie(...) of words, or rows of a table",
                    };
                    format!("`{}`: {kind}", p.name)
                })
                .collect();
            format!(
                "{}({}) takes {}",
                g.name(),
                param_names(g),
                shown.join("; ")
            )
        };
        if args.len() != params.len() {
            return Err(Diag::new(
                "cspi::call",
                format!(
                    "`{}` takes {} argument{}, not {}",
                    g.name(),
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            )
            .label(span, "here")
            .help(signature()));
        }
        let mut out = Vec::with_capacity(args.len());
        for (p, (v, s)) in params.iter().zip(args) {
            let wrong = |what: &str| {
                Diag::new(
                    "cspi::type",
                    format!("argument `{}` of `{}` must be {what}", p.name, g.name()),
                )
                .label(*s, format!("this is {}", v.type_name()))
                .help(signature())
            };
            let arg = match p.kind {
                // A diagram, or a table's rows as wide as the array before it.
                ParamKind::Mdd => match v {
                    Value::Mdd(m) => GlobalArg::Mdd(m.clone()),
                    Value::Table(_) | Value::Array(_) => {
                        let arity = out.last().map_or(0, crate::lower::globals::len);
                        let rows = self.rows(v, *s, arity).map_err(|d| {
                            d.help(format!("`{}` takes rows of {arity} values, one per item of the array before it", g.name()))
                        })?;
                        GlobalArg::Mdd(std::sync::Arc::new(crate::model::mdd::Mdd::from_rows(
                            arity, &rows,
                        )))
                    }
                    _ => return Err(wrong("a trie(...) or the rows of a table")),
                },
                ParamKind::Term | ParamKind::Int => {
                    let t = v.as_term().ok_or_else(|| wrong("an integer"))?;
                    if p.kind == ParamKind::Int && t.as_const().is_none() {
                        return Err(wrong("an integer known at load time"));
                    }
                    GlobalArg::Term(t)
                }
                ParamKind::Terms | ParamKind::Ints => {
                    if !matches!(v, Value::Array(_)) {
                        return Err(wrong("an array"));
                    }
                    let items = self.flatten(v, *s)?;
                    let terms = items
                        .iter()
                        .map(Value::as_term)
                        .collect::<Option<Vec<Term>>>()
                        .ok_or_else(|| wrong("an array of integers"))?;
                    if p.kind == ParamKind::Ints && terms.iter().any(|t| t.as_const().is_none()) {
                        return Err(wrong("an array of integers known at load time"));
                    }
                    GlobalArg::Terms(terms)
                }
            };
            out.push(arg);
        }
        if let Err(p) = g.check(&out) {
            return Err(Diag::new("cspi::global::args", p.message)
                .label(args[p.arg].1, "here")
                .help(p.help));
        }
        Ok(Value::from_formula(Formula::Global(GlobalCall {
            def: g,
            args: out,
        })))
    }
}

fn param_names(g: &dyn Global) -> String {
    g.params()
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}
