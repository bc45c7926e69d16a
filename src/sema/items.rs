//! Top-level items: parameters, lets, variable declarations, constraints,
//! the search block, output, objectives and projections.

use super::types::Type;
use super::value::{Array, IntSet, Value};
use super::{Checker, MAX_DOMAIN};
use crate::diag::{Diag, did_you_mean};
use crate::model::search::{Guide, LnsKind, Named, Propagation, Restarts, ValSelect, VarSelect};
use crate::model::{
    Domain, EnumType, Formula, LexPart, Objective, OutputItem, Term, VarGroup, VarKind, Variable,
};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Item, SearchOption, Span, VarDomain};
use std::rc::Rc;
use std::sync::Arc;

impl Checker<'_> {
    pub(super) fn item(&mut self, item: &Item) -> Result<(), Diag> {
        if self.fixed.is_some()
            && let Some(r) = self.item_fixed(item)
        {
            return r;
        }
        match item {
            Item::Param {
                name,
                index_sets,
                ty,
                value,
            } => self.param(name, index_sets, ty.as_ref(), value.as_ref()),
            Item::Enum { name, members } => self.define_enum(name, members),
            Item::Type { name, ty } => self.define_type(name, ty),
            Item::Function(f) => self.define_function(f),
            Item::Let { name, value } => {
                let v = self.eval_or_poison(value);
                self.note_data(&name.name, value, false);
                self.define(name, v)
            }
            Item::Var {
                name,
                index_sets,
                domain,
            } => self.var(name, index_sets, domain),
            Item::Constraint(e) => self.constraint(e),
            Item::Search {
                scope,
                options,
                span,
            } => self.search(scope, options, *span),
            Item::Output(exprs) => self.output(exprs),
            Item::Objective {
                maximize,
                expr,
                span,
            } => self.objective(*maximize, expr, *span),
            Item::Project(exprs) => self.project(exprs),
            Item::Crossword { name, value } => self.crossword(name, value),
        }
    }

    /// Evaluates, recording an error and yielding [`Value::Poison`] on failure,
    /// so that the name still gets defined and later uses stay quiet.
    fn eval_or_poison(&mut self, e: &Expr) -> Value {
        match self.eval(e) {
            Ok(v) => v,
            Err(d) => {
                if !super::is_echo_of_poison(&d) {
                    self.errors.push(d.in_source(self.input.source));
                }
                Value::Poison
            }
        }
    }

    pub(super) fn define(&mut self, name: &Ident, value: Value) -> Result<(), Diag> {
        if self.globals.contains_key(&name.name) {
            return Err(Diag::new(
                "cspi::name::duplicate",
                format!("`{}` is already defined", name.name),
            )
            .label(name.span, "defined again here")
            .help("every parameter, let and variable needs its own name"));
        }
        self.globals.insert(name.name.clone(), value);
        Ok(())
    }

    pub(super) fn var(
        &mut self,
        name: &Ident,
        index_sets: &[Expr],
        domain: &VarDomain,
    ) -> Result<(), Diag> {
        // Define the name as poison first, so a failing declaration reports once.
        self.define(name, Value::Poison)?;
        let Some(dim_list) = self.dims_of(index_sets)? else {
            return Ok(());
        };
        let dims: Vec<(i64, i64)> = dim_list.iter().map(|d| d.range.unwrap_or((1, 0))).collect();
        let index_enums: Vec<_> = dim_list.into_iter().map(|d| d.index).collect();
        let count = dims.iter().try_fold(1u64, |acc, &(lo, hi)| {
            acc.checked_mul((hi - lo + 1).max(0) as u64)
        });
        let count = count.unwrap_or(u64::MAX);
        self.spend(count, name.span)?;
        if let VarDomain::SetOf(of) = domain {
            return self.set_var(name, dims, index_enums, count, of);
        }
        let Some((values, kind, span)) = self.var_domain(name, domain)? else {
            return Ok(());
        };
        self.spend_domain_words(&values, count, name, span)?;
        // Grown, not reserved, and the limits read as the variables are
        // made: 20 million of them once took 4 GB past `--memory-limit 100M`.
        let mut vars = Vec::new();
        let mut index = vec![0i64; dims.len()];
        for (k, slot) in index.iter_mut().enumerate() {
            *slot = dims[k].0;
        }
        for _ in 0..count {
            self.tick(name.span)?;
            let label = element_label(&name.name, &index, &index_enums);
            vars.push(self.model.add_var(Variable {
                name: label,
                domain: values.clone(),
                kind: kind.clone(),
                aux: false,
                span: name.span,
            }));
            for k in (0..dims.len()).rev() {
                index[k] += 1;
                if index[k] <= dims[k].1 {
                    break;
                }
                index[k] = dims[k].0;
            }
        }
        let wrap = |v: usize| {
            let t = Rc::new(Term::Var(v));
            if matches!(kind, VarKind::Bool) {
                Value::BoolTerm(t)
            } else {
                Value::Term(t)
            }
        };
        let value = if dims.is_empty() {
            wrap(vars[0])
        } else {
            let items = vars.iter().map(|&v| wrap(v)).collect();
            Value::Array(Rc::new(Array {
                dims: dims.clone(),
                items,
                index_enums: index_enums.clone(),
            }))
        };
        self.model.groups.insert(
            name.name.clone(),
            VarGroup {
                dims,
                vars,
                index_enums,
                set: None,
            },
        );
        self.globals.insert(name.name.clone(), value);
        Ok(())
    }

    /// The values and kind of a variable's domain, and the span to blame;
    /// `None` when the domain failed earlier.
    fn var_domain(&mut self, name: &Ident, domain: &VarDomain) -> Result<Option<DomainOf>, Diag> {
        let (span, value) = match domain {
            VarDomain::In(e) | VarDomain::SetOf(e) => (e.span, self.eval(e)?),
            VarDomain::Type(t) => {
                return Ok(Some(match self.resolve_type(t)? {
                    Type::Bool => (Domain::Range(0, 1), VarKind::Bool, t.span),
                    Type::Enum(e) => (
                        Domain::Range(1, e.members.len() as i64),
                        VarKind::Enum(e),
                        t.span,
                    ),
                    Type::Int => {
                        return Err(Diag::new(
                            "cspi::domain::unbounded",
                            format!("integer variable `{}` needs a domain", name.name),
                        )
                        .label(t.span, "int has no bounds")
                        .help(format!(
                            "write `var {} in 0..100;` with the values it may take",
                            name.name
                        )));
                    }
                    other => {
                        return Err(Diag::new(
                            "cspi::type",
                            format!(
                                "a variable takes integers, truth values or enum members, not {other}"
                            ),
                        )
                        .label(t.span, "here")
                        .help("declare `var x in 1..9;`, `var b: bool;` or `var c: Colour;`"));
                    }
                }));
            }
        };
        let (values, kind) = match value {
            Value::Set(s) => {
                if matches!(s, IntSet::Values(_)) && s.len() > MAX_DOMAIN {
                    return Err(Diag::new(
                        "cspi::domain::too_large",
                        format!("the domain of `{}` lists {} values", name.name, s.len()),
                    )
                    .label(span, "this domain")
                    .help(format!(
                        "a domain listed value by value may hold at most {MAX_DOMAIN} values; \
                         a range lo..hi may be as wide as you like"
                    )));
                }
                (int_domain(&s), VarKind::Int)
            }
            Value::EnumSet(e, s) => (int_domain(&s), VarKind::Enum(e)),
            Value::Words(list) => (
                (!list.words.is_empty()).then(|| Domain::Range(0, list.words.len() as i64 - 1)),
                VarKind::Word(list),
            ),
            Value::Poison => return Ok(None),
            other => {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "a domain must be a set or range of integers, an enum or a word set, not {}",
                        other.type_name()
                    ),
                )
                .label(span, "expected a domain such as 1..9 or {1, 3, 5}"));
            }
        };
        let Some(values) = values else {
            let d = Diag::new(
                "cspi::domain::empty",
                format!("the domain of `{}` is empty", name.name),
            )
            .label(span, "this has no values");
            let is_range = matches!(
                domain,
                VarDomain::In(Expr {
                    kind: ExprKind::Binary(BinOp::Range, ..),
                    ..
                })
            );
            return Err(match &kind {
                VarKind::Word(list) => {
                    d.help(format!("the word set `{}` holds no words", list.name))
                }
                _ if is_range => d.help("a range low..high needs low <= high"),
                _ => d.help("a domain needs at least one value, e.g. {1, 2} or 1..9"),
            });
        };
        Ok(Some((values, kind, span)))
    }

    /// Counts the bitset memory of `count` domains like `values` against the
    /// model-wide budget: each domain takes one bit per value between its
    /// smallest and largest.
    fn spend_domain_words(
        &mut self,
        values: &Domain,
        count: u64,
        name: &Ident,
        span: Span,
    ) -> Result<(), Diag> {
        let (lo, hi) = (values.min(), values.max());
        // Wide domains are kept as bounds only: they cost no bitset words.
        let words = values.bitset_words();
        if words == 0 {
            return Ok(());
        }
        self.domain_words = self
            .domain_words
            .saturating_add(words.saturating_mul(count));
        if self.domain_words <= super::MAX_DOMAIN_WORDS {
            return Ok(());
        }
        let mib = |w: u64| w.saturating_mul(8) >> 20;
        Err(Diag::new(
            "cspi::domain::too_large",
            format!(
                "the domains of `{}` need {} MiB ({count} × {lo}..{hi})",
                name.name,
                mib(words.saturating_mul(count)),
            ),
        )
        .label(span, "this domain, for every variable of the array")
        .help(format!(
            "cspi keeps each domain as one bit per value between its bounds, at most {} MiB \
             for all variables together; narrow the domains or use fewer variables",
            mib(super::MAX_DOMAIN_WORDS)
        )))
    }

    /// A constraint item: a top-level `forall` is unrolled here, one
    /// instance per binding, so that each instance knows where it came from.
    fn constraint(&mut self, e: &Expr) -> Result<(), Diag> {
        if let ExprKind::Forall(gens, body) = &e.kind {
            let base = self.guards.len();
            return self.for_each_binding(gens, body.span, &mut |cx| match cx.guard_since(base)? {
                None => cx.constraint(body),
                // Counting only when variables say so: `guard -> body`.
                Some(guard) => {
                    let v = cx.eval(body)?;
                    let v = cx.skipped(super::eval::Skip::True, guard, v, body.span)?;
                    cx.post(v, body)
                }
            });
        }
        let v = self.eval(e)?;
        self.post(v, e)
    }

    /// Posts the value of constraint expression `e`.
    fn post(&mut self, v: Value, e: &Expr) -> Result<(), Diag> {
        let f = match v {
            Value::Poison => return Ok(()),
            v => v.as_formula().ok_or_else(|| {
                Diag::new(
                    "cspi::type",
                    format!(
                        "a constraint must be true or false, but this is {}",
                        v.type_name()
                    ),
                )
                .label(e.span, "not a constraint")
                .help("compare it with something, such as `x == 3`")
            })?,
        };
        // The as-written form is only evaluated, exactly, by the checker:
        // its intermediate bounds may be wider than i64 where the folded
        // form's are not (`x * 2^62 * 2 - 2^63`).
        if !self.as_written {
            super::range::check_formula(&f, &self.model).map_err(|w| too_wide(w, e.span))?;
        }
        let origin = self.origin(e);
        if let Formula::Const(b) = f {
            self.model.folded.push((origin.clone(), b));
        }
        self.push_constraint(f, &origin);
        Ok(())
    }

    /// Adds a formula, splitting conjunctions so each part is checked on its own.
    fn push_constraint(&mut self, f: Formula, origin: &crate::model::Origin) {
        match f {
            Formula::And(parts) => parts
                .into_iter()
                .for_each(|p| self.push_constraint(p, origin)),
            Formula::Const(true) => {}
            f => {
                self.model.constraints.push(f);
                self.model.origins.push(origin.clone());
            }
        }
    }

    fn search(&mut self, scope: &[Expr], options: &[SearchOption], span: Span) -> Result<(), Diag> {
        if self.search_seen {
            return Err(Diag::new(
                "cspi::search::duplicate",
                "a model has at most one `search` item",
            )
            .label(span, "a second search item")
            .help("put every option in one item: `search var mrv, val min, propagation ac;`"));
        }
        self.search_seen = true;
        for e in scope {
            let v = self.eval(e)?;
            let vars = self.vars_of(&v, e.span)?;
            self.model.search.scope.extend(vars);
        }
        // Every bad option is reported, not only the first.
        for opt in options {
            if let Err(d) = self.search_option(opt) {
                self.errors.push(d.in_source(self.input.source));
            }
        }
        Ok(())
    }

    fn search_option(&mut self, opt: &SearchOption) -> Result<(), Diag> {
        let value = &opt.value;
        match opt.key.name.as_str() {
            "var" => self.model.search.var = strategy::<VarSelect>(value)?,
            "val" => self.model.search.val = strategy::<ValSelect>(value)?,
            "propagation" => self.model.search.propagation = strategy::<Propagation>(value)?,
            "restarts" => self.model.search.restarts = strategy::<Restarts>(value)?,
            "lns" => self.model.search.lns = strategy::<LnsKind>(value)?,
            "guide" => self.model.search.guide = strategy::<Guide>(value)?,
            "learning" => {
                self.model.search.learning = match value.name.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => return Err(unknown_name(value, "learning", &["on", "off"])),
                }
            }
            "components" => {
                self.model.search.components = match value.name.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(unknown_name(value, "components", &["on", "off"])),
                }
            }
            "restart_nogoods" => {
                self.model.search.restart_nogoods = match value.name.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => return Err(unknown_name(value, "restart_nogoods", &["on", "off"])),
                }
            }
            "ties" => {
                self.model.search.random_ties = match value.name.as_str() {
                    "random" => true,
                    "input" => false,
                    _ => return Err(unknown_name(value, "tie-breaking", &["input", "random"])),
                }
            }
            "seed" => {
                self.model.search.seed = value.name.parse().map_err(|_| {
                    Diag::new(
                        "cspi::search::seed",
                        format!("`{}` is not a seed", value.name),
                    )
                    .label(value.span, "expected a non-negative integer")
                })?
            }
            _ => {
                return Err(unknown_name(
                    &opt.key,
                    "search option",
                    &[
                        "var",
                        "val",
                        "propagation",
                        "restarts",
                        "lns",
                        "guide",
                        "learning",
                        "components",
                        "restart_nogoods",
                        "ties",
                        "seed",
                    ],
                ));
            }
        }
        Ok(())
    }

    fn output(&mut self, exprs: &[Expr]) -> Result<(), Diag> {
        if self.fixed.is_some() {
            return self.output_fixed(exprs);
        }
        for (k, e) in exprs.iter().enumerate() {
            // An expression that needs the solution's values (`where x[i]`,
            // `follow(next, 1)`, a helper function over variables) is
            // evaluated from each solution instead (`output.rs`).
            match self.output_expr(e) {
                Ok(Some(item)) => self.model.output.push(item),
                Ok(None) => {}
                Err(d) if super::output::values_could_help(&d) && self.needs_solution(e) => {
                    self.model.output.push(OutputItem::Deferred {
                        item: self.item_index,
                        expr: k,
                    })
                }
                Err(d) => return Err(d),
            }
        }
        Ok(())
    }

    /// One expression of `output`, as an item; `None` when it was already
    /// reported where it was defined.
    fn output_expr(&mut self, e: &Expr) -> Result<Option<OutputItem>, Diag> {
        {
            let item = match &e.kind {
                ExprKind::Call(f, args) if f.name == "grid" && (1..=3).contains(&args.len()) => {
                    let value = self.eval(&args[0])?;
                    if matches!(value, Value::Poison) {
                        return Ok(None); // already reported where it was defined
                    }
                    let group = self.group_of(&value, args[0].span)?;
                    if group.dims.len() != 2 {
                        return Err(Diag::new(
                            "cspi::output",
                            "grid(...) draws a two-dimensional array",
                        )
                        .label(
                            args[0].span,
                            format!(
                                "this has {}",
                                crate::diag::plural(
                                    group.dims.len() as u64,
                                    "dimension",
                                    "dimensions"
                                )
                            ),
                        ));
                    }
                    let box_size = match args.get(1) {
                        Some(b) => match self.eval(b)? {
                            Value::Int(k) if k > 0 => Some(k as usize),
                            // `grid(a, 0)`: the cells alone, no box lines.
                            Value::Int(0) => None,
                            _ => {
                                return Err(Diag::new(
                                    "cspi::output",
                                    "the box size must be a positive integer, or 0 for no box lines",
                                )
                                .label(b.span, "here"));
                            }
                        },
                        None => perfect_square_root(group.dims[0].1 - group.dims[0].0 + 1),
                    };
                    let size = (group.dims[0].1 - group.dims[0].0 + 1).max(0) as usize;
                    let symbols = match args.get(2) {
                        Some(s) => self.grid_symbols(s, size)?,
                        None => None,
                    };
                    OutputItem::Grid {
                        name: self.text(args[0].span).to_string(),
                        group,
                        box_size,
                        symbols,
                    }
                }
                ExprKind::Call(f, args) if f.name == "board" && args.len() == 1 => {
                    let value = self.eval(&args[0])?;
                    if matches!(value, Value::Poison) {
                        return Ok(None);
                    }
                    let group = self.group_of(&value, args[0].span)?;
                    if group.dims.len() != 1 {
                        return Err(Diag::new(
                            "cspi::output",
                            "board(q) draws a one-dimensional array: q[i] is the column of row i",
                        )
                        .label(args[0].span, "not a one-dimensional array"));
                    }
                    OutputItem::Board {
                        name: self.text(args[0].span).to_string(),
                        group,
                    }
                }
                ExprKind::Call(f, args) if f.name == "path" && args.len() == 3 => {
                    let value = self.eval(&args[0])?;
                    if matches!(value, Value::Poison) {
                        return Ok(None);
                    }
                    let group = self.group_of(&value, args[0].span)?;
                    let cells = match self.eval(&args[1])? {
                        Value::Array(a) => a
                            .items
                            .iter()
                            .map(|x| match x {
                                Value::Str(s) => Some(s.to_string()),
                                Value::Int(k) => Some(k.to_string()),
                                _ => None,
                            })
                            .collect::<Option<Vec<_>>>(),
                        _ => None,
                    }
                    .ok_or_else(|| {
                        Diag::new(
                            "cspi::output",
                            "path(cell, cells, cols) needs the board's cells as a list of strings",
                        )
                        .label(args[1].span, "here")
                    })?;
                    let cols = match self.eval(&args[2])? {
                        Value::Int(k) if k > 0 => k as usize,
                        _ => {
                            return Err(Diag::new(
                                "cspi::output",
                                "the number of columns of path(...) must be a positive integer",
                            )
                            .label(args[2].span, "here"));
                        }
                    };
                    OutputItem::Path { group, cells, cols }
                }
                ExprKind::Call(f, args) if f.name == "spell" && (2..=3).contains(&args.len()) => {
                    let value = self.eval(&args[0])?;
                    let group = self.group_of(&value, args[0].span)?;
                    let symbols = match self.eval(&args[1])? {
                        Value::Array(a) => a
                            .items
                            .iter()
                            .map(|x| match x {
                                Value::Str(s) => Some(s.to_string()),
                                _ => None,
                            })
                            .collect::<Option<Vec<_>>>(),
                        _ => None,
                    }
                    .ok_or_else(|| {
                        Diag::new(
                            "cspi::output",
                            "spell(array, symbols) needs a list of strings",
                        )
                        .label(args[1].span, "here")
                    })?;
                    let label = match args.get(2).map(|a| self.eval(a)).transpose()? {
                        Some(Value::Str(s)) => s.to_string(),
                        Some(_) => {
                            return Err(Diag::new(
                                "cspi::output",
                                "the label of spell(...) is a string",
                            )
                            .label(args[2].span, "here"));
                        }
                        None => self.text(args[0].span).to_string(),
                    };
                    OutputItem::Spell {
                        label,
                        group,
                        symbols,
                    }
                }
                ExprKind::Call(f, args) if f.name == "total" && args.len() == 1 => {
                    let term = self.eval(&args[0])?.as_term().ok_or_else(|| {
                        Diag::new("cspi::output", "total(...) sums an integer expression")
                            .label(args[0].span, "here")
                    })?;
                    OutputItem::Total {
                        label: self.text(args[0].span).to_string(),
                        term,
                    }
                }
                ExprKind::Call(f, args) if f.name == "quality" => {
                    // A crossword already reported as broken is not reported again.
                    let broken = matches!(args.first().map(|a| &a.kind),
                        Some(ExprKind::Name(n)) if matches!(self.globals.get(n), Some(Value::Poison)));
                    if broken {
                        return Ok(None);
                    }
                    self.quality_item(args, e.span)?
                }
                ExprKind::Name(n) if self.crosswords.contains_key(n) => OutputItem::Crossword {
                    name: n.clone(),
                    layout: self.crosswords[n].clone(),
                },
                ExprKind::Name(n) if self.model.groups.contains_key(n) => OutputItem::Group {
                    name: n.clone(),
                    group: self.model.groups[n].clone(),
                },
                _ => match self.eval(e)? {
                    Value::Str(s) => OutputItem::Text(s.to_string()),
                    Value::Poison => return Ok(None),
                    Value::Format(pieces) => OutputItem::Format((*pieces).clone()),
                    // A list of texts (`["row \(i)\n" | i in 1..n]`) is written as one.
                    Value::Array(a) if texts(&a.items) => {
                        let mut out = super::format::Pieces::default();
                        for item in a.items.iter() {
                            self.write_value(item, &mut out, e.span, false)?;
                        }
                        OutputItem::Format(out.0)
                    }
                    // Plain integers: `label = value`, also in JSON.
                    v @ (Value::Int(_) | Value::Term(_)) if v.enum_type(&self.model).is_none() => {
                        OutputItem::Value {
                            label: self.text(e.span).to_string(),
                            term: v.as_term().unwrap_or(Term::Const(0)),
                        }
                    }
                    // Anything else is written as the language writes it.
                    v => {
                        let mut out = super::format::Pieces::default();
                        out.0.push(crate::model::FormatPiece::Text(format!(
                            "{} = ",
                            self.text(e.span)
                        )));
                        self.write_value(&v, &mut out, e.span, true)
                            .map_err(|d| d.help("output takes variables, arrays, integer expressions, strings and grid(array)"))?;
                        OutputItem::Format(out.0)
                    }
                },
            };
            Ok(Some(item))
        }
    }

    fn objective(&mut self, maximize: bool, e: &Expr, span: Span) -> Result<(), Diag> {
        if self.model.objective.is_some() {
            return Err(Diag::new(
                "cspi::objective::duplicate",
                "a model has at most one objective",
            )
            .label(span, "a second objective"));
        }
        if let ExprKind::Call(name, args) = &e.kind
            && name.name == "lex"
            && !self.functions.contains_key("lex")
        {
            return self.lex_objective(maximize, args, e.span);
        }
        let term = self.objective_term(e)?;
        self.model.objective = Some(Objective {
            maximize,
            term,
            lex: Vec::new(),
        });
        Ok(())
    }

    /// An integer expression to optimise, within 64 bits.
    fn objective_term(&mut self, e: &Expr) -> Result<Term, Diag> {
        let v = self.eval(e)?;
        let term = v.as_term().ok_or_else(|| {
            Diag::new(
                "cspi::type",
                format!(
                    "an objective must be an integer expression, not {}",
                    v.type_name()
                ),
            )
            .label(e.span, "here")
        })?;
        super::range::bounds(&term, &self.model).map_err(|w| too_wide(w, e.span))?;
        Ok(term)
    }

    /// `minimize lex(a, b, ...)`: the components combined in mixed radix
    /// (see [`Objective::lex`]), the first weighing most.
    fn lex_objective(&mut self, maximize: bool, args: &[Expr], span: Span) -> Result<(), Diag> {
        if args.is_empty() {
            return Err(Diag::new(
                "cspi::objective::lex",
                "a lexicographic objective needs at least one component",
            )
            .label(span, "no components")
            .help("write `minimize lex(a, b, ...)`: `a` first, then `b` among the best `a`"));
        }
        let mut parts = Vec::with_capacity(args.len());
        for a in args {
            let term = self.objective_term(a)?;
            let (lo, hi) =
                super::range::bounds(&term, &self.model).map_err(|w| too_wide(w, a.span))?;
            parts.push((term, lo, hi, a.span));
        }
        // Weights from the last component back: each the product of the
        // spans after it; the whole must fit the engine's 64 bits.
        const MAX_COMBINED: i128 = 1 << 62;
        let mut weight: i128 = 1;
        let mut lex = Vec::with_capacity(parts.len());
        for (term, lo, hi, at) in parts.into_iter().rev() {
            let span_of = hi - lo + 1;
            let total = weight.checked_mul(span_of).filter(|&t| t <= MAX_COMBINED);
            let Some(total) = total else {
                return Err(Diag::new(
                    "cspi::objective::lex",
                    "the components of this lexicographic objective have too many values to \
                     combine in 64 bits",
                )
                .label(at, format!("this component ranges over {lo}..{hi}"))
                .help(
                    "the product of the components' ranges must stay below 2^62: narrow the \
                     domains of the variables they read",
                ));
            };
            lex.push(LexPart {
                term,
                low: lo as i64,
                weight: weight as i64,
                span: span_of as i64,
            });
            weight = total;
        }
        lex.reverse();
        let low: i128 = lex.iter().map(|p| p.weight as i128 * p.low as i128).sum();
        let Ok(low) = i64::try_from(-low) else {
            return Err(Diag::new(
                "cspi::objective::lex",
                "the components of this lexicographic objective lie too far from 0 to combine \
                 in 64 bits",
            )
            .label(span, "this objective")
            .help("shift the components nearer 0 (`lex(a - 1000000, b)`)"));
        };
        let sum = lex.iter().map(|p| (p.weight, p.term.clone())).collect();
        let term = Term::Linear(sum, low);
        self.model.objective = Some(Objective {
            maximize,
            term,
            lex,
        });
        Ok(())
    }

    fn project(&mut self, exprs: &[Expr]) -> Result<(), Diag> {
        for e in exprs {
            let v = self.eval(e)?;
            let vars = self.vars_of(&v, e.span)?;
            for var in vars {
                if !self.model.projection.contains(&var) {
                    self.model.projection.push(var);
                }
            }
        }
        Ok(())
    }

    /// The variables a value names: a variable, or an array of them.
    pub(super) fn vars_of(&self, v: &Value, span: Span) -> Result<Vec<usize>, Diag> {
        let not_vars = || {
            Diag::new("cspi::type", "expected variables")
                .label(span, "this is not a variable or an array of variables")
        };
        match v {
            // Already reported where it was defined; the model will not be built.
            Value::Poison => Ok(Vec::new()),
            Value::Term(t) | Value::BoolTerm(t) => match **t {
                Term::Var(x) => Ok(vec![x]),
                _ => Err(not_vars()),
            },
            // A set variable: its membership variables.
            Value::SetVar(s) => {
                let mut out = Vec::new();
                for m in &s.members {
                    out.extend(self.vars_of(m, span)?);
                }
                Ok(out)
            }
            Value::Array(a) => {
                let mut out = Vec::new();
                for item in &a.items {
                    out.extend(self.vars_of(item, span)?);
                }
                Ok(out)
            }
            _ => Err(not_vars()),
        }
    }

    fn group_of(&self, v: &Value, span: Span) -> Result<VarGroup, Diag> {
        match v {
            Value::Array(a) if !super::sets::mentions_set_var(v) => Ok(VarGroup {
                dims: a.dims.clone(),
                vars: self.vars_of(v, span)?,
                index_enums: a.index_enums.clone(),
                set: None,
            }),
            _ => Err(Diag::new("cspi::type", "expected an array of variables").label(span, "here")),
        }
    }
}

/// The domain of a set of integers; `None` when it is empty.
fn int_domain(s: &IntSet) -> Option<Domain> {
    match s {
        IntSet::Range(lo, hi) if lo <= hi => Some(Domain::Range(*lo, *hi)),
        IntSet::Range(..) => None,
        IntSet::Values(v) => Domain::of_values(v.to_vec()),
    }
}

/// Whether every item is text (a string or a formatted string), nested lists included.
fn texts(items: &[Value]) -> bool {
    !items.is_empty()
        && items.iter().all(|i| match i {
            Value::Str(_) | Value::Format(_) => true,
            Value::Array(a) => texts(&a.items),
            _ => false,
        })
}

/// A declared domain: its values, the kind of variable, the span to blame.
type DomainOf = (Domain, VarKind, Span);

fn strategy<T: Named>(value: &Ident) -> Result<T, Diag> {
    T::from_name(&value.name).ok_or_else(|| match T::synonym(&value.name) {
        Some(ours) => unknown_name(value, T::WHAT, &T::names())
            .help(format!("cspi calls `{}` `{ours}`", value.name)),
        None => unknown_name(value, T::WHAT, &T::names()),
    })
}

impl Checker<'_> {
    /// The symbols of `output grid(a, box, symbols)`: the same alphabet as
    /// `grid(text, N, symbols)` reads, so a puzzle prints as it was typed
    /// (`""` is the default: digits up to 9, then letters). `None` when the
    /// values 1..=size are drawn as their own digits anyway.
    fn grid_symbols(&mut self, arg: &Expr, size: usize) -> Result<Option<Vec<char>>, Diag> {
        let Value::Str(s) = self.eval(arg)? else {
            return Err(Diag::new(
                "cspi::output",
                "the symbols of grid(array, box, symbols) are a string",
            )
            .label(arg.span, "not a string")
            .help("one character per value, as in \"ABCDEFGHI\"; \"\" for digits"));
        };
        let symbols: Vec<char> = if s.is_empty() {
            super::data::DEFAULT_SYMBOLS
                .chars()
                .take(size.max(9))
                .collect()
        } else {
            s.chars().collect()
        };
        let digits = size <= 9
            && symbols
                .iter()
                .take(size)
                .copied()
                .eq("123456789".chars().take(size));
        Ok((!digits).then_some(symbols))
    }
}

fn unknown_name(name: &Ident, what: &str, valid: &[&str]) -> Diag {
    let d = Diag::new(
        "cspi::search::unknown",
        format!("unknown {what} `{}`", name.name),
    )
    .label(name.span, "not known");
    let list = format!("valid names: {}", valid.join(", "));
    match did_you_mean(&name.name, valid.iter().copied()) {
        Some(s) => d.help(format!("did you mean `{s}`? {list}")),
        None => d.help(list),
    }
}

fn perfect_square_root(n: i64) -> Option<usize> {
    let r = (n as f64).sqrt().round() as i64;
    (r > 1 && r * r == n).then_some(r as usize)
}

/// The diagnostic for an expression whose values may not fit in 64 bits.
pub(super) fn too_wide(w: super::range::TooWide, span: Span) -> Diag {
    Diag::new(
        "cspi::arith::range",
        "this expression can take values that do not fit in 64 bits",
    )
    .label(
        span,
        format!("{} in it can reach {}", w.what, super::range::shown(w.reaches)),
    )
    .help("cspi computes with exact integers, and every value must lie in -2^63..2^63-1; narrow the domains or scale the values down")
}

/// The name of one element of a declared array, as diagnostics and output
/// show it: `x` when `index` is empty, else `x[2,red]` (enum indices by
/// member name).
pub(super) fn element_label(
    name: &str,
    index: &[i64],
    index_enums: &[Option<Arc<EnumType>>],
) -> String {
    if index.is_empty() {
        return name.to_string();
    }
    let parts: Vec<String> = index
        .iter()
        .zip(index_enums)
        .map(|(&i, e)| match e {
            Some(e) => e.member(i),
            None => i.to_string(),
        })
        .collect();
    format!("{name}[{}]", parts.join(","))
}
