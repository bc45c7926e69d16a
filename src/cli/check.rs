//! `cspi check`: load and analyse a model without solving it. Errors are
//! every error the front end finds (it collects them all, one per item, and
//! every bad search option); warnings point at likely mistakes that still
//! make a valid model:
//!
//! - a parameter, `let` or variable that nothing uses;
//! - a variable that no constraint mentions (any value of its domain goes);
//! - a constraint that is always true, or always false, once the data are
//!   known (the data decide it: it constrains nothing, or nothing can hold);
//! - an objective that cannot be lowered to a variable: it is compared by
//!   evaluation only, without bounds propagation.

use super::CheckArgs;
use super::diagnostics::report;
use super::interrupt::Interrupt;
use super::solve::{interrupted_loading, load_or_stopped};
use crate::diag::{Diag, Diags, exit};
use crate::model::{Model, Origin};
use crate::output::plural;
use crate::output::sink::{Stdout, eprint};
use crate::sema::walk_names;
use crate::solve::{self, Parsed};
use crate::syntax::ast::{Expr, ExprKind, Ident, Item, VarDomain};
use std::collections::HashSet;
use std::sync::Arc;

pub(super) fn command(args: &CheckArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let options = args.model.load_options(interrupt)?;
    let parsed = solve::parse(&args.model.model)?;
    let Ok(model) = load_or_stopped(&parsed, &options)? else {
        return Ok(interrupted_loading(interrupt));
    };
    let mut spec = model.search.clone();
    args.strategy.apply(&mut spec);
    solve::check_strategy(&model, &spec).map_err(Diags::from)?;
    let warnings = warnings(&parsed, &model);
    if !warnings.is_empty() {
        report(&Diags(warnings.clone()));
    }
    let summary = format!(
        "{}: {}, {}, {}\n",
        args.model.model.display(),
        plural(
            model.vars.iter().filter(|v| !v.aux).count() as u64,
            "variable",
            "variables"
        ),
        plural(model.constraints.len() as u64, "constraint", "constraints"),
        match warnings.len() {
            0 => "no warnings".to_string(),
            n => plural(n as u64, "warning", "warnings"),
        }
    );
    let mut out = Stdout::new();
    out.write(&summary);
    if let Some(code) = super::solve::output_exit(&out) {
        return Ok(code);
    }
    if args.deny_warnings && !warnings.is_empty() {
        eprint("error: warnings are denied (--deny-warnings)\n");
        return Ok(exit::MODEL_ERROR);
    }
    Ok(exit::OK)
}

/// Every warning, in source order.
pub(super) fn warnings(parsed: &Parsed, model: &Model) -> Vec<Diag> {
    let mut out = Vec::new();
    unused(parsed, &mut out);
    unused_functions(parsed, &mut out);
    minizinc_lets(parsed, &mut out);
    unconstrained(parsed, model, &mut out);
    constant(parsed, model, &mut out);
    objective(model, &mut out);
    out.into_iter()
        .map(|d| d.in_source(&parsed.source).warning())
        .collect()
}

/// The name an item defines, and what kind of thing it is.
fn defined(item: &Item) -> Option<(&Ident, &'static str)> {
    match item {
        Item::Param { name, .. } => Some((name, "parameter")),
        Item::Let { name, .. } => Some((name, "`let`")),
        Item::Var { name, .. } => Some((name, "variable")),
        Item::Crossword { name, .. } => Some((name, "crossword")),
        _ => None,
    }
}

/// The expressions of an item.
fn exprs(item: &Item) -> Vec<&Expr> {
    match item {
        Item::Param {
            index_sets, value, ..
        } => index_sets.iter().chain(value).collect(),
        Item::Let { value, .. } | Item::Crossword { value, .. } => vec![value],
        Item::Var {
            index_sets, domain, ..
        } => {
            let domain = match domain {
                VarDomain::In(e) | VarDomain::SetOf(e) => Some(e),
                VarDomain::Type(_) => None,
            };
            index_sets.iter().chain(domain).collect()
        }
        Item::Function(f) => vec![&f.body],
        Item::Constraint(e) => vec![e],
        Item::Search { scope, .. } => scope.iter().collect(),
        Item::Output(list) | Item::Project(list) => list.iter().collect(),
        Item::Objective { expr, .. } => vec![expr],
        Item::Enum { .. } | Item::Type { .. } => Vec::new(),
    }
}

fn unused(parsed: &Parsed, out: &mut Vec<Diag>) {
    let mut used = HashSet::new();
    for item in &parsed.ast.items {
        for e in exprs(item) {
            walk_names(e, &mut |n| {
                used.insert(n.to_string());
            });
        }
    }
    for item in &parsed.ast.items {
        if let Some((name, what)) = defined(item)
            && !used.contains(&name.name)
        {
            out.push(
                Diag::new(
                    "cspi::warn::unused",
                    format!("{what} `{}` is never used", name.name),
                )
                .label(name.span, "declared here")
                .help("remove it, or use it in a constraint or the output"),
            );
        }
    }
}

/// Predicates and functions that no item calls (a call from another
/// function's body counts).
fn unused_functions(parsed: &Parsed, out: &mut Vec<Diag>) {
    let mut called = HashSet::new();
    for item in &parsed.ast.items {
        for e in exprs(item) {
            e.visit(&mut |x| match &x.kind {
                ExprKind::Call(name, _) | ExprKind::Aggregate(name, ..) => {
                    called.insert(name.name.clone());
                }
                _ => {}
            });
        }
    }
    for item in &parsed.ast.items {
        if let Item::Function(f) = item
            && !called.contains(&f.name.name)
        {
            let what = if f.predicate { "predicate" } else { "function" };
            out.push(
                Diag::new(
                    "cspi::warn::unused",
                    format!("{what} `{}` is never called", f.name.name),
                )
                .label(f.name.span, "defined here")
                .help("remove it, or call it in a constraint, a definition or the output"),
            );
        }
    }
}

/// MiniZinc's `let { int: b = e; } in ...`: read, and the shorter form suggested.
fn minizinc_lets(parsed: &Parsed, out: &mut Vec<Diag>) {
    for item in &parsed.ast.items {
        for e in exprs(item) {
            e.visit(&mut |x| {
                if let ExprKind::Let {
                    binds,
                    braces: true,
                    ..
                } = &x.kind
                {
                    let names: Vec<String> = binds
                        .iter()
                        .map(|(n, v)| {
                            format!(
                                "{} = {}",
                                n.name,
                                parsed
                                    .source
                                    .text
                                    .get(v.span.start..v.span.end)
                                    .unwrap_or("...")
                            )
                        })
                        .collect();
                    out.push(
                        Diag::new("cspi::warn::minizinc", "MiniZinc's `let { ... } in`")
                            .label(x.span, "read as a let expression")
                            .help(format!("cspi writes it `let {} in ...`", names.join(", "))),
                    );
                }
            });
        }
    }
}

fn unconstrained(parsed: &Parsed, model: &Model, out: &mut Vec<Diag>) {
    let mut constrained = vec![false; model.vars.len()];
    let mut mark = |vars: Vec<usize>| vars.into_iter().for_each(|v| constrained[v] = true);
    for f in &model.constraints {
        mark(f.vars());
    }
    if let Some(o) = &model.objective {
        let mut vars = Vec::new();
        o.term.collect_vars(&mut vars);
        mark(vars);
    }
    for item in &parsed.ast.items {
        let Item::Var { name, .. } = item else {
            continue;
        };
        let Some(group) = model.groups.get(&name.name) else {
            continue;
        };
        if !group.vars.is_empty() && group.vars.iter().all(|&v| !constrained[v]) {
            out.push(
                Diag::new(
                    "cspi::warn::unconstrained",
                    format!("no constraint mentions variable `{}`", name.name),
                )
                .label(name.span, "any value of its domain goes")
                .help(
                    "every value of its domain makes another solution: constrain it, or leave it out",
                ),
            );
        }
    }
}

/// Spans of constraint items that mention no variable: checks of the data
/// (`assert`, a parity test), meant to be constant.
fn data_checks(parsed: &Parsed, model: &Model) -> Vec<crate::source::Span> {
    let mut out = Vec::new();
    for item in &parsed.ast.items {
        if let Item::Constraint(e) = item {
            let mut vars = false;
            walk_names(e, &mut |n| vars |= model.groups.contains_key(n));
            if !vars {
                out.push(e.span);
            }
        }
    }
    out
}

fn constant(parsed: &Parsed, model: &Model, out: &mut Vec<Diag>) {
    let checks = data_checks(parsed, model);
    // Per constraint text: instances that folded to true or false, and
    // whether some instance is a real constraint.
    let mut spans: Vec<(&Origin, u64, Vec<&Origin>)> = Vec::new();
    for (o, value) in &model.folded {
        let at = match spans.iter().position(|(first, ..)| first.span == o.span) {
            Some(i) => i,
            None => {
                spans.push((o, 0, Vec::new()));
                spans.len() - 1
            }
        };
        if *value {
            spans[at].1 += 1;
        } else {
            spans[at].2.push(o);
        }
    }
    for (first, trues, falses) in spans {
        let real = model.origins.iter().any(|o| o.span == first.span);
        let data = if first.data.is_empty() {
            String::new()
        } else {
            format!(" with the data ({})", first.data.join(", "))
        };
        if let Some(f) = falses.first() {
            let which = match f.bindings_text() {
                b if b.is_empty() => String::new(),
                b if falses.len() == 1 => format!(" for {b}"),
                b => format!(" for {b} and {} more", falses.len() - 1),
            };
            out.push(
                Diag::new(
                    "cspi::warn::always_false",
                    format!("this constraint is always false{data}"),
                )
                .label(first.span, format!("false{which}"))
                .help("the model has no solution: `cspi explain` shows what clashes"),
            );
        } else if trues > 0
            && !real
            && !checks
                .iter()
                .any(|c| c.start <= first.span.start && first.span.end <= c.end)
        {
            out.push(
                Diag::new(
                    "cspi::warn::always_true",
                    format!("this constraint is always true{data}"),
                )
                .label(first.span, "it constrains nothing")
                .help("it holds whatever the variables are: check it says what you meant"),
            );
        }
    }
}

fn objective(model: &Model, out: &mut Vec<Diag>) {
    if model.objective.is_none() {
        return;
    }
    let model = Arc::new(model.clone());
    let lowered = crate::lower::lower(&model, model.search.propagation);
    if lowered.consistent && lowered.objective.is_none() {
        out.push(
            Diag::new(
                "cspi::warn::objective",
                "the objective cannot be bound by propagation",
            )
            .help(
                "cspi compares it by evaluation only: each better solution is found without \
                 pruning; narrow the ranges of its variables or write it as a sum",
            ),
        );
    }
}
