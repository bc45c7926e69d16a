//! From FlatZinc items to a [`Model`]: declarations become variables (or
//! constants), each constraint call a formula (`builtins.rs`), the solve
//! item the objective and the search specification (`search.rs`), and the
//! output annotations what `cspi fzn` prints.

use super::ast::*;
use super::views::{self, Definition};
use super::{FznModel, OutValue, Output};
use crate::diag::{Diag, Diags};
use crate::model::{Domain, Formula, Model, Objective, Origin, Term, VarId, VarKind, Variable};
use crate::source::Span;
use rustc_hash::{FxHashMap, FxHashSet};

/// The bounds of `var int` without a domain: Gecode's integer limits, so
/// that both read the same FlatZinc the same way.
pub(crate) const INT_BOUND: i64 = 2_147_483_646;

/// The value a name stands for.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Val {
    Int(i64),
    Bool(bool),
    Float,
    /// Sorted, distinct.
    Set(Vec<i64>),
    Var(VarId),
    /// `a * x + b` (`a` not zero, and not `x` itself): a variable that a
    /// linear equality defines (`views.rs`).
    View(i64, VarId, i64),
    Array(Vec<Val>),
    Str,
}

/// Builds the model from the parsed items; every error of every item.
pub(super) fn build(ast: &FznAst) -> Result<FznModel, Diags> {
    let mut b = Builder::default();
    let mut diags = Diags::default();
    let definitions = views::definitions(ast);
    let mut repeats = Repeats::default();
    let defined: std::collections::HashSet<&str> = ast
        .constraints
        .iter()
        .flat_map(|c| c.annotations.iter())
        .filter_map(|a| match &a.kind {
            ExprKind::Call(n, args) if n == "defines_var" => match args.first().map(|e| &e.kind) {
                Some(ExprKind::Ident(v)) => Some(v.as_str()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for d in &ast.decls {
        let def = definitions.get(d.name.as_str());
        if let Err(e) = b.decl(d, defined.contains(d.name.as_str()), def) {
            diags.push(e);
        }
    }
    for (i, c) in ast.constraints.iter().enumerate() {
        if b.viewed.contains(&i) {
            // It holds by construction: its variable is a view.
            continue;
        }
        match b.constraint(c) {
            Ok(f) => b.post(f, c.span),
            Err(e) => repeats.push(e),
        }
    }
    repeats.finish(&mut diags);
    if diags.is_empty() {
        for (f, span) in super::detect::disjunctives(&b, ast) {
            b.post(f, span);
        }
    }
    match &ast.solve.goal {
        Goal::Satisfy => {}
        Goal::Minimize(e) | Goal::Maximize(e) => match b.term(e) {
            Ok(term) => {
                b.model.objective = Some(Objective {
                    maximize: matches!(ast.solve.goal, Goal::Maximize(_)),
                    term,
                    lex: Vec::new(),
                })
            }
            Err(e) => diags.push(e),
        },
    }
    let search = super::search::read(&mut b, &ast.solve.annotations, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    b.model.search = search.spec;
    Ok(FznModel {
        model: b.model,
        outputs: b.outputs,
        annotated_search: search.annotated,
        restarts_annotated: search.restarts,
    })
}

/// The constraints' diagnostics, each repeated one once: a FlatZinc file
/// may call an unknown constraint thousands of times, and one diagnostic
/// (the first call's, with the count) says it all.
#[derive(Default)]
struct Repeats {
    diags: Vec<Diag>,
    /// How many times each diagnostic's code and message came, by its index.
    count: Vec<u64>,
    seen: FxHashMap<(&'static str, String), usize>,
}

impl Repeats {
    fn push(&mut self, d: Diag) {
        let key = (d.code, d.message.clone());
        if let Some(&i) = self.seen.get(&key) {
            self.count[i] += 1;
            return;
        }
        self.seen.insert(key, self.diags.len());
        self.diags.push(d);
        self.count.push(1);
    }

    fn finish(self, diags: &mut Diags) {
        for (mut d, n) in self.diags.into_iter().zip(self.count) {
            if n > 1 {
                d.message = format!(
                    "{} ({}; the first is shown)",
                    d.message,
                    crate::diag::plural(n, "time", "times")
                );
            }
            diags.push(d);
        }
    }
}

#[derive(Default)]
pub(super) struct Builder {
    pub(crate) model: Model,
    names: FxHashMap<String, Val>,
    outputs: Vec<Output>,
    /// The defining equalities whose variable became a view.
    viewed: FxHashSet<usize>,
    /// Variables made for arrays declared without a value, and the bitset
    /// words of their domains, against [`MAX_UNLISTED`] and
    /// [`MAX_UNLISTED_WORDS`].
    unlisted: (u64, u64),
}

/// The most variables all arrays declared without a value may make
/// together. FlatZinc lists every variable of an array (MiniZinc never
/// leaves the value out); cspi accepts the short form, but a file of a few
/// bytes must not make 10^15 variables: the memory of a listed variable is
/// bounded by its text, an unlisted one's only here.
const MAX_UNLISTED: u64 = 1 << 20;
/// The most bitset words the domains of those variables may take (128 MiB,
/// the budget of a whole `.csp` model).
const MAX_UNLISTED_WORDS: u64 = 1 << 24;

impl Builder {
    fn post(&mut self, f: Formula, span: Span) {
        match f {
            Formula::Const(true) => {}
            Formula::And(parts) => parts.into_iter().for_each(|p| self.post(p, span)),
            f => {
                self.model.constraints.push(f);
                self.model.origins.push(Origin {
                    span,
                    bindings: Vec::new(),
                    data: Vec::new(),
                    cell: None,
                });
            }
        }
    }

    fn new_var(
        &mut self,
        name: String,
        domain: Domain,
        bool: bool,
        aux: bool,
        span: Span,
    ) -> VarId {
        self.model.add_var(Variable {
            name,
            domain,
            kind: if bool { VarKind::Bool } else { VarKind::Int },
            aux,
            span,
        })
    }

    /// The domain of a variable of this type, `None` when it is empty.
    fn domain(&self, base: &BaseType) -> Option<Domain> {
        match base {
            BaseType::Bool => Some(Domain::Range(0, 1)),
            BaseType::Int => Some(Domain::Range(-INT_BOUND, INT_BOUND)),
            BaseType::IntRange(lo, hi) => (lo <= hi).then_some(Domain::Range(*lo, *hi)),
            BaseType::IntSet(v) => Domain::of_values(v.clone()),
            _ => None,
        }
    }

    fn decl(&mut self, d: &Decl, defined: bool, def: Option<&Definition>) -> Result<(), Diag> {
        if self.names.contains_key(&d.name) {
            return Err(Diag::new(
                "cspi::fzn::duplicate",
                format!("`{}` is declared twice", d.name),
            )
            .label(d.span, "second declaration"));
        }
        let val = if d.var {
            self.var_decl(d, defined, def)?
        } else {
            let e = d.value.as_ref().ok_or_else(|| {
                Diag::new(
                    "cspi::fzn::no_value",
                    format!("the parameter `{}` has no value", d.name),
                )
                .label(d.span, "declared here")
            })?;
            let v = self.value(e)?;
            if let (Some(n), Val::Array(items)) = (d.array, &v)
                && n != usize::MAX
                && items.len() != n
            {
                return Err(length_error(d, items.len(), n));
            }
            v
        };
        self.output_annotations(d, &val)?;
        self.names.insert(d.name.clone(), val);
        Ok(())
    }

    fn var_decl(&mut self, d: &Decl, defined: bool, def: Option<&Definition>) -> Result<Val, Diag> {
        match d.base {
            BaseType::Float | BaseType::FloatRange => {
                return Err(unsupported(
                    d.type_span,
                    format!("`{}` is a float variable", d.name),
                ));
            }
            BaseType::SetOf => {
                return Err(unsupported(
                    d.type_span,
                    format!("`{}` is a set variable", d.name),
                ));
            }
            _ => {}
        }
        let bool = d.base == BaseType::Bool;
        let domain = self.domain(&d.base);
        if let Some(n) = d.array {
            if let Some(e) = &d.value {
                let v = self.value(e)?;
                let Val::Array(items) = &v else {
                    return Err(Diag::new(
                        "cspi::fzn::type",
                        format!("`{}` is an array but its value is not", d.name),
                    )
                    .label(e.span, "not an array"));
                };
                if n != usize::MAX && items.len() != n {
                    return Err(length_error(d, items.len(), n));
                }
                for item in items {
                    self.restrict(item, domain.as_ref(), d.span);
                }
                return Ok(v);
            }
            if n == usize::MAX {
                return Err(Diag::new(
                    "cspi::fzn::no_value",
                    format!("the array `{}` has neither a length nor a value", d.name),
                )
                .label(d.span, "declared here"));
            }
            self.spend_unlisted(d, domain.as_ref(), n)?;
            let mut items = Vec::with_capacity(n);
            for i in 1..=n {
                let dom = domain.clone();
                items.push(self.fresh(format!("{}[{i}]", d.name), dom, bool, false, d.span));
            }
            return Ok(Val::Array(items));
        }
        if let Some(e) = &d.value {
            let v = self.value(e)?;
            match v {
                Val::Var(_) | Val::View(..) | Val::Int(_) | Val::Bool(_) => {
                    self.restrict(&v, domain.as_ref(), d.span);
                    return Ok(v);
                }
                _ => {
                    return Err(Diag::new(
                        "cspi::fzn::type",
                        format!(
                            "the variable `{}` is given a value of the wrong type",
                            d.name
                        ),
                    )
                    .label(e.span, "not an integer, a truth value or a variable"));
                }
            }
        }
        if let Some(def) = def
            && !bool
            && let Some(view) = self.view(def, domain.as_ref(), d.span)
        {
            return Ok(view);
        }
        // A variable a constraint defines is a function of the others: the
        // search need not branch on it (it is auxiliary, found once the
        // others are fixed).
        Ok(self.fresh(d.name.clone(), domain, bool, defined, d.span))
    }

    /// Counts the `n` variables of an array declared without a value, and
    /// their domains' bitsets, against the file's budget.
    fn spend_unlisted(&mut self, d: &Decl, domain: Option<&Domain>, n: usize) -> Result<(), Diag> {
        let words = domain.map_or(0, Domain::bitset_words);
        let (count, bits) = &mut self.unlisted;
        *count = count.saturating_add(n as u64);
        *bits = bits.saturating_add(words.saturating_mul(n as u64));
        if *count <= MAX_UNLISTED && *bits <= MAX_UNLISTED_WORDS {
            return Ok(());
        }
        Err(Diag::new(
            "cspi::fzn::too_large",
            format!("the array `{}` of {n} variables has no value", d.name),
        )
        .label(d.span, "declared here")
        .help(format!(
            "list its variables (`= [x1, x2, ...]`), as FlatZinc does: arrays without a value make at most \
             {MAX_UNLISTED} variables in all, and {} MiB of domains",
            (MAX_UNLISTED_WORDS * 8) >> 20
        )))
    }

    /// The variable `def` defines as a view `a * x + b` of the variable
    /// `x` (or a constant), its declared `domain` then a domain of `x`;
    /// `None` (a variable of its own) when the division is not exact or `x`
    /// is not declared yet.
    fn view(&mut self, def: &Definition, domain: Option<&Domain>, span: Span) -> Option<Val> {
        let (a, b) = match &def.equation {
            Some(e) => views::solve_for_y(
                self.int(e.coef_y).ok()?,
                self.int(e.coef_x).ok()?,
                self.int(e.k).ok()?,
            )?,
            None => (1, 0),
        };
        // `int_lin_eq` relates integers; `bool2int` a truth value (0/1 in
        // the model) to its number.
        let linear = def.equation.is_some();
        let affine = |(a, b): (i64, i64), z: VarId| {
            if (a, b) == (1, 0) {
                Val::Var(z)
            } else {
                Val::View(a, z, b)
            }
        };
        let val = match self.value(def.x).ok()? {
            Val::Int(v) => Val::Int(a.checked_mul(v)?.checked_add(b)?),
            Val::Var(z) => match self.model.vars[z].kind {
                VarKind::Int if linear => affine((a, b), z),
                VarKind::Bool if !linear => Val::Var(z),
                _ => return None,
            },
            Val::View(a2, z, b2) if linear => affine(views::compose((a, b), (a2, b2))?, z),
            _ => return None,
        };
        self.restrict(&val, domain, span);
        self.viewed.insert(def.constraint);
        Some(val)
    }

    /// A new variable; an empty domain makes the model unsatisfiable.
    fn fresh(
        &mut self,
        name: String,
        domain: Option<Domain>,
        bool: bool,
        aux: bool,
        span: Span,
    ) -> Val {
        let dom = domain.clone().unwrap_or(Domain::Range(0, 0));
        let v = self.new_var(name, dom, bool, aux, span);
        if domain.is_none() {
            self.post(Formula::Const(false), span);
        }
        Val::Var(v)
    }

    /// Restricts what `val` (a variable or a constant) may be to `domain`.
    fn restrict(&mut self, val: &Val, domain: Option<&Domain>, span: Span) {
        let Some(domain) = domain else {
            self.post(Formula::Const(false), span);
            return;
        };
        match val {
            Val::Var(v) => self.intersect(*v, domain, span),
            Val::View(a, x, b) => match views::preimage(domain, *a, *b) {
                Some(d) => self.intersect(*x, &d, span),
                None => self.post(Formula::Const(false), span),
            },
            Val::Int(k) if !domain.contains(*k) => self.post(Formula::Const(false), span),
            _ => {}
        }
    }

    /// Narrows the initial domain of `v` to the values also in `domain`.
    pub(super) fn intersect(&mut self, v: VarId, domain: &Domain, span: Span) {
        let current = &self.model.vars[v].domain;
        let next = match (current, domain) {
            (Domain::Range(a, b), Domain::Range(c, d)) => {
                let (lo, hi) = ((*a).max(*c), (*b).min(*d));
                (lo <= hi).then_some(Domain::Range(lo, hi))
            }
            (cur, other) => {
                let (small, big) = if cur.len() <= other.len() {
                    (cur, other)
                } else {
                    (other, cur)
                };
                if small.len() > 1 << 24 {
                    // Two huge domains with holes: keep the current one and
                    // state the other as a constraint.
                    let f =
                        super::builtins::member(Term::Var(v), &domain.iter().collect::<Vec<_>>());
                    self.post(f, span);
                    return;
                }
                Domain::of_values(small.iter().filter(|&x| big.contains(x)).collect())
            }
        };
        match next {
            Some(d) => self.model.vars[v].domain = d,
            None => self.post(Formula::Const(false), span),
        }
    }

    fn output_annotations(&mut self, d: &Decl, val: &Val) -> Result<(), Diag> {
        let bool = d.base == BaseType::Bool;
        for a in &d.annotations {
            match &a.kind {
                ExprKind::Ident(n) if n == "output_var" => self.outputs.push(Output {
                    name: d.name.clone(),
                    bool,
                    dims: None,
                    items: vec![out_value(val, a.span)?],
                }),
                ExprKind::Call(n, args) if n == "output_array" => {
                    let dims = match args.first().map(|e| &e.kind) {
                        Some(ExprKind::Array(ranges)) => ranges
                            .iter()
                            .map(|r| match r.kind {
                                ExprKind::Range(lo, hi) => Ok((lo, hi)),
                                _ => Err(Diag::new(
                                    "cspi::fzn::output",
                                    "output_array takes a list of index ranges",
                                )
                                .label(r.span, "not a range")),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                        _ => {
                            return Err(Diag::new(
                                "cspi::fzn::output",
                                "output_array takes a list of index ranges",
                            )
                            .label(a.span, "here"));
                        }
                    };
                    if dims.is_empty() || dims.len() > 6 {
                        return Err(Diag::new(
                            "cspi::fzn::output",
                            format!(
                                "output_array has {} dimensions; FlatZinc allows 1 to 6",
                                dims.len()
                            ),
                        )
                        .label(a.span, "here"));
                    }
                    let Val::Array(items) = val else {
                        return Err(Diag::new(
                            "cspi::fzn::output",
                            format!("output_array on `{}`, which is not an array", d.name),
                        )
                        .label(a.span, "here"));
                    };
                    let cells: i128 = dims
                        .iter()
                        .map(|&(lo, hi)| (hi as i128 - lo as i128 + 1).max(0))
                        .product();
                    if cells != items.len() as i128 {
                        return Err(Diag::new(
                            "cspi::fzn::output",
                            format!(
                                "output_array's index ranges hold {cells} items, but `{}` has {}",
                                d.name,
                                items.len()
                            ),
                        )
                        .label(a.span, "here"));
                    }
                    self.outputs.push(Output {
                        name: d.name.clone(),
                        bool,
                        dims: Some(dims),
                        items: items
                            .iter()
                            .map(|v| out_value(v, a.span))
                            .collect::<Result<_, _>>()?,
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The value of an expression in a constraint or declaration.
    pub(super) fn value(&self, e: &Expr) -> Result<Val, Diag> {
        Ok(match &e.kind {
            ExprKind::Bool(b) => Val::Bool(*b),
            ExprKind::Int(k) => Val::Int(*k),
            ExprKind::Float(_) | ExprKind::FloatRange => Val::Float,
            ExprKind::Range(lo, hi) => Val::Set(if lo <= hi {
                if hi - lo > 1 << 24 {
                    return Err(Diag::new(
                        "cspi::fzn::set_size",
                        format!("the set {lo}..{hi} is too large to list"),
                    )
                    .label(e.span, "here"));
                }
                (*lo..=*hi).collect()
            } else {
                Vec::new()
            }),
            ExprKind::Set(v) => {
                let mut v = v.clone();
                v.sort_unstable();
                v.dedup();
                Val::Set(v)
            }
            ExprKind::Array(items) => Val::Array(
                items
                    .iter()
                    .map(|i| self.value(i))
                    .collect::<Result<_, _>>()?,
            ),
            ExprKind::Ident(n) => self.lookup(n, e.span)?.clone(),
            ExprKind::Access(n, i) => {
                let Val::Array(items) = self.lookup(n, e.span)? else {
                    return Err(
                        Diag::new("cspi::fzn::type", format!("`{n}` is not an array"))
                            .label(e.span, "indexed here"),
                    );
                };
                usize::try_from(*i - 1)
                    .ok()
                    .and_then(|k| items.get(k))
                    .cloned()
                    .ok_or_else(|| {
                        Diag::new(
                            "cspi::fzn::index",
                            format!(
                                "index {i} is outside `{n}`, which has {} items",
                                items.len()
                            ),
                        )
                        .label(e.span, "out of range")
                    })?
            }
            ExprKind::Call(n, _) => {
                return Err(Diag::new(
                    "cspi::fzn::type",
                    format!("`{n}(...)` is an annotation, not a value"),
                )
                .label(e.span, "here"));
            }
            ExprKind::Str(_) => Val::Str,
        })
    }

    fn lookup(&self, name: &str, span: Span) -> Result<&Val, Diag> {
        self.names.get(name).ok_or_else(|| {
            Diag::new("cspi::fzn::unknown", format!("`{name}` is not declared"))
                .label(span, "unknown name")
                .help("FlatZinc declares every name before its first use")
        })
    }

    /// An integer or truth-valued term: a constant or a variable.
    pub(super) fn term(&self, e: &Expr) -> Result<Term, Diag> {
        match self.value(e)? {
            Val::Int(k) => Ok(Term::Const(k)),
            Val::Bool(b) => Ok(Term::Const(i64::from(b))),
            Val::Var(v) => Ok(Term::Var(v)),
            Val::View(a, x, b) => Ok(view_term(a, x, b)),
            other => Err(self.type_error(e, &other, "an integer or a truth value")),
        }
    }

    /// An array of terms.
    pub(super) fn terms(&self, e: &Expr) -> Result<Vec<Term>, Diag> {
        match self.value(e)? {
            Val::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    Val::Int(k) => Ok(Term::Const(k)),
                    Val::Bool(b) => Ok(Term::Const(i64::from(b))),
                    Val::Var(v) => Ok(Term::Var(v)),
                    Val::View(a, x, b) => Ok(view_term(a, x, b)),
                    other => {
                        Err(self.type_error(e, &other, "an array of integers or truth values"))
                    }
                })
                .collect(),
            other => Err(self.type_error(e, &other, "an array")),
        }
    }

    /// An integer known at load time.
    pub(super) fn int(&self, e: &Expr) -> Result<i64, Diag> {
        match self.term(e)? {
            Term::Const(k) => Ok(k),
            _ => Err(
                Diag::new("cspi::fzn::type", "expected a constant, found a variable")
                    .label(e.span, "a variable"),
            ),
        }
    }

    /// An array of integers known at load time.
    pub(super) fn ints(&self, e: &Expr) -> Result<Vec<i64>, Diag> {
        self.terms(e)?
            .into_iter()
            .map(|t| {
                t.as_const().ok_or_else(|| {
                    Diag::new(
                        "cspi::fzn::type",
                        "expected an array of constants, found a variable in it",
                    )
                    .label(e.span, "holds a variable")
                })
            })
            .collect()
    }

    /// A set of integers known at load time.
    pub(super) fn set(&self, e: &Expr) -> Result<Vec<i64>, Diag> {
        match self.value(e)? {
            Val::Set(v) => Ok(v),
            other => Err(self.type_error(e, &other, "a constant set of integers")),
        }
    }

    fn type_error(&self, e: &Expr, found: &Val, expected: &str) -> Diag {
        if *found == Val::Float {
            return unsupported(e.span, "a float value reaches the solver".to_string());
        }
        let what = match found {
            Val::Int(_) => "an integer",
            Val::Bool(_) => "a truth value",
            Val::Float => "a float",
            Val::Set(_) => "a set",
            Val::Var(_) | Val::View(..) => "a variable",
            Val::Array(_) => "an array",
            Val::Str => "a string",
        };
        Diag::new(
            "cspi::fzn::type",
            format!("expected {expected}, found {what}"),
        )
        .label(e.span, "here")
    }
}

/// `a * x + b` as a term.
fn view_term(a: i64, x: VarId, b: i64) -> Term {
    Term::Linear(vec![(a, Term::Var(x))], b)
}

fn out_value(v: &Val, span: Span) -> Result<OutValue, Diag> {
    match v {
        Val::Var(v) => Ok(OutValue::Var(*v)),
        Val::View(a, x, b) => Ok(OutValue::View(*a, *x, *b)),
        Val::Int(k) => Ok(OutValue::Const(*k)),
        Val::Bool(b) => Ok(OutValue::Const(i64::from(*b))),
        _ => Err(Diag::new(
            "cspi::fzn::output",
            "only integer and boolean values can be output",
        )
        .label(span, "here")),
    }
}

fn length_error(d: &Decl, found: usize, declared: usize) -> Diag {
    Diag::new(
        "cspi::fzn::length",
        format!(
            "`{}` is declared with {declared} items but given {found}",
            d.name
        ),
    )
    .label(d.span, "here")
}

/// A FlatZinc construct cspi does not solve (floats, set variables).
pub(super) fn unsupported(span: Span, what: String) -> Diag {
    Diag::new("cspi::fzn::unsupported", format!("{what}: cspi solves integer and boolean models only"))
        .label(span, "not supported")
        .help("floats and set variables are not supported; MiniZinc's nosets library (share/minizinc/cspi/redefinitions.mzn) removes set variables where it can")
}
