//! Output written from each solution, as MiniZinc writes its `output`: an
//! expression of `output` that needs the values of variables (`where
//! take[i]`, `if x[i] > 0 then ...`, `follow(next, 1)`, a helper function
//! over variables) is deferred when the model loads
//! ([`OutputItem::Deferred`]), and evaluated for each printed solution by
//! a run of the checker in which every variable is fixed to its value.
//!
//! That run reads the same model, parameters and data files, declares the
//! same variables and then binds each name to its values; it skips
//! constraints, search, objectives and projections, and writes only the
//! deferred expressions. It costs about a load without the constraints per
//! printed solution, and nothing when solutions are only counted or written
//! as JSON values.

use super::value::{Array, IntSet, Value};
use super::{Checker, Input, LoadOptions, ParamOverride};
use crate::diag::{Diag, Diags};
use crate::model::{Model, OutputItem, Render, VarKind};
use crate::source::Source;
use crate::syntax::ast::{Expr, Item};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// What the checker needs to run again over a solution: the model's text
/// and everything it was loaded with.
#[derive(Debug)]
pub(super) struct Program {
    source: Source,
    model_dir: PathBuf,
    overrides: Vec<ParamOverride>,
    data_files: Vec<PathBuf>,
    options: LoadOptions,
}

/// The renderer of `model`'s deferred output items, when it has any.
pub(super) fn program(input: &Input, model: &Model) -> Option<Arc<dyn Render>> {
    deferred_program(input, model).map(|p| Arc::new(p) as Arc<dyn Render>)
}

/// The run over solutions of `model`'s deferred output items, if any.
fn deferred_program(input: &Input, model: &Model) -> Option<Program> {
    let deferred = model
        .output
        .iter()
        .any(|o| matches!(o, OutputItem::Deferred { .. }));
    deferred.then(|| {
        let mut options = input.options.clone();
        // Printing happens after the search: the load's clock has no say.
        options.deadline = None;
        options.stop = None;
        options.as_written = false;
        Program {
            source: input.source.clone(),
            model_dir: input.model_dir.clone(),
            overrides: input.overrides.to_vec(),
            data_files: input.data_files.to_vec(),
            options,
        }
    })
}

/// The errors of the deferred output that no solution can cure, found when
/// the model loads rather than printed in place of every solution's text:
/// the output is written for two assignments, every variable at the least
/// value of its domain and every one at the greatest, and an error of a
/// wrong type or a wrong call (`concat(x)` of an integer, a string as a
/// width) that both report at the same place is the model's. Errors that
/// depend on the values (an index out of range, a division by zero) stay
/// with the solutions that meet them.
pub(super) fn deferred_type_errors(input: &Input, model: &Model) -> Result<(), Diags> {
    let Some(program) = deferred_program(input, model) else {
        return Ok(());
    };
    let at = |pick: fn(&crate::model::Domain) -> i64| {
        let values: Vec<i64> = model.vars.iter().map(|v| pick(&v.domain)).collect();
        match program.run(model, &values) {
            Ok(_) => Vec::new(),
            Err(d) => {
                d.0.into_iter()
                    .filter(|d| matches!(d.code, "cspi::type" | "cspi::call" | "cspi::call::type"))
                    .collect()
            }
        }
    };
    let low = at(crate::model::Domain::min);
    if low.is_empty() {
        return Ok(());
    }
    let high = at(crate::model::Domain::max);
    let place = |d: &Diag| (d.code, d.labels.first().map(|(s, _)| *s));
    let both: Vec<Diag> = low
        .into_iter()
        .filter(|d| high.iter().any(|h| place(h) == place(d)))
        .collect();
    if both.is_empty() {
        Ok(())
    } else {
        Err(Diags(both))
    }
}

impl Render for Program {
    fn render(&self, model: &Model, values: &[i64]) -> Result<Vec<String>, String> {
        self.run(model, values)
            .map_err(|d| first_message(&d.0, &self.source.text))
    }
}

impl Program {
    /// The deferred output of the solution `values`, or the errors met.
    fn run(&self, model: &Model, values: &[i64]) -> Result<Vec<String>, Diags> {
        let ast = crate::syntax::parse(&self.source.text)?;
        let input = Input {
            source: &self.source,
            model_dir: self.model_dir.clone(),
            overrides: &self.overrides,
            data_files: &self.data_files,
            options: &self.options,
            memory: crate::memory::Mark::now(),
        };
        let mut cx = Checker::new(&input, false);
        cx.fixed = Some(fixed_values(model, values));
        cx.deferred_here = model
            .output
            .iter()
            .filter_map(|o| match o {
                OutputItem::Deferred { item, expr } => Some((*item, *expr)),
                _ => None,
            })
            .collect();
        cx.read_call_graph(&ast);
        cx.read_declarations(&ast);
        cx.read_data_files();
        cx.check_items(&ast);
        if !cx.errors.is_empty() {
            return Err(std::mem::take(&mut cx.errors));
        }
        Ok(std::mem::take(&mut cx.texts))
    }
}

/// The first diagnostic in one line: its message, where and what its first
/// label says.
fn first_message(diags: &[Diag], text: &str) -> String {
    diags
        .first()
        .map(|d| match d.labels.first() {
            Some((span, label)) => {
                let line = text
                    .get(..span.start)
                    .map_or(0, |t| t.matches('\n').count())
                    + 1;
                format!("{} (line {line}: {label})", d.message)
            }
            None => d.message.clone(),
        })
        .unwrap_or_else(|| "the output could not be written".to_string())
}

/// Every declared variable and array of `model` as constants of the solution.
fn fixed_values(model: &Model, values: &[i64]) -> HashMap<String, Value> {
    let value = |v: usize| {
        let k = values[v];
        match &model.vars[v].kind {
            VarKind::Int => Value::Int(k),
            VarKind::Bool => Value::Bool(k != 0),
            VarKind::Enum(e) => Value::Enum(e.clone(), k),
            VarKind::Word(_) => Value::Str(model.format_value(v, k).into()),
        }
    };
    model
        .groups
        .iter()
        .map(|(name, g)| {
            let item = |k: usize| match &g.set {
                // A set variable: the constant set of its members.
                Some(layout) => {
                    let set = IntSet::from_values(layout.members(g.item_vars(k), values));
                    match &layout.of_enum {
                        Some(e) => Value::EnumSet(e.clone(), set),
                        None => Value::Set(set),
                    }
                }
                None => value(g.vars[k]),
            };
            let items = g.dims.iter().try_fold(1usize, |n, &(lo, hi)| {
                n.checked_mul(usize::try_from(hi - lo + 1).unwrap_or(0))
            });
            let v = if g.dims.is_empty() {
                item(0)
            } else {
                Value::Array(Rc::new(Array {
                    dims: g.dims.clone(),
                    items: (0..items.unwrap_or(0)).map(item).collect(),
                    index_enums: g.index_enums.clone(),
                }))
            };
            (name.clone(), v)
        })
        .collect()
}

/// Whether a load-time error of an output expression may come from
/// variables standing where values are needed (a `where` or `if` over a
/// variable, a variable index into strings, a width over a variable), so
/// that the solution's values may cure it; unknown names, wrong numbers of
/// arguments and the like are reported as they are.
pub(super) fn values_could_help(d: &Diag) -> bool {
    matches!(
        d.code,
        "cspi::type" | "cspi::index" | "cspi::fix" | "cspi::call::type" | "cspi::output"
    )
}

impl Checker<'_> {
    /// Whether an output expression that failed at load time reads the
    /// solution: it names a variable, a `let` over variables, or calls a
    /// function whose body does (or `fix`).
    pub(super) fn needs_solution(&self, e: &Expr) -> bool {
        let mut pending: Vec<&Expr> = vec![e];
        let mut seen_fns = std::collections::HashSet::new();
        let mut found = false;
        while let Some(x) = pending.pop() {
            super::origin::walk_names(x, &mut |n: &str| {
                let local = self.locals.iter().any(|(l, _)| l == n);
                found |= !local
                    && (self.model.groups.contains_key(n)
                        || self
                            .globals
                            .get(n)
                            .is_some_and(|v| !super::strings::is_fixed(v)));
            });
            let mut calls = Vec::new();
            super::functions::calls_in(x, &mut calls);
            for c in calls {
                found |= c.name == "fix";
                if let Some(f) = self.functions.get(&c.name)
                    && seen_fns.insert(c.name.clone())
                {
                    pending.push(&f.def.body);
                }
            }
            if found {
                return true;
            }
        }
        false
    }

    /// `output` in the run over a solution: writes the deferred expressions.
    pub(super) fn output_fixed(&mut self, exprs: &[Expr]) -> Result<(), Diag> {
        for (k, e) in exprs.iter().enumerate() {
            if !self.deferred_here.contains(&(self.item_index, k)) {
                continue;
            }
            let v = self.eval(e)?;
            let mut out = super::format::Pieces::default();
            let all_text = |v: &Value| match v {
                Value::Str(_) => true,
                Value::Array(a) => a.items.iter().all(|i| matches!(i, Value::Str(_))),
                _ => false,
            };
            if all_text(&v) {
                match &v {
                    Value::Array(a) => {
                        for item in a.items.iter() {
                            self.write_value(item, &mut out, e.span, false)?;
                        }
                    }
                    v => self.write_value(v, &mut out, e.span, false)?,
                }
            } else {
                out.0.push(crate::model::FormatPiece::Text(format!(
                    "{} = ",
                    self.text(e.span)
                )));
                self.write_value(&v, &mut out, e.span, true)?;
            }
            let text = match out.into_value() {
                Value::Str(s) => s.to_string(),
                _ => String::new(),
            };
            self.texts.push(text);
        }
        Ok(())
    }

    /// An item in the run over a solution: declarations as in the load,
    /// variables then fixed to their values, and no constraint, search,
    /// objective or projection.
    pub(super) fn item_fixed(&mut self, item: &Item) -> Option<Result<(), Diag>> {
        match item {
            Item::Constraint(_)
            | Item::Search { .. }
            | Item::Objective { .. }
            | Item::Project(_) => Some(Ok(())),
            Item::Var {
                name,
                index_sets,
                domain,
            } => {
                let r = self.var(name, index_sets, domain);
                if let Some(v) = self.fixed.as_ref().and_then(|f| f.get(&name.name)) {
                    self.globals.insert(name.name.clone(), v.clone());
                }
                Some(r)
            }
            _ => None,
        }
    }
}
