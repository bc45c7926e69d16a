//! Expression evaluation: names, indexing and slicing, comprehensions.
//! Operators live in `ops.rs`, built-in functions in `builtins.rs`.

use super::Checker;
use super::logic::reifiable;
use super::value::{Array, IntSet, Record, Value};
use crate::diag::{Diag, did_you_mean};
use crate::model::{Formula, Term, VarKind};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Generators, Span};
use std::rc::Rc;

impl Checker<'_> {
    pub(crate) fn eval(&mut self, e: &Expr) -> Result<Value, Diag> {
        Ok(match &e.kind {
            ExprKind::Int(k) => Value::Int(*k),
            ExprKind::Str(s) => Value::Str(s.as_str().into()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Name(n) => self.lookup(n, e.span)?,
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                self.unary(*op, v, e.span)?
            }
            ExprKind::Binary(BinOp::Add | BinOp::Sub, ..) => self.sum_chain(e)?,
            ExprKind::Binary(BinOp::Mul, ..) => self.product_chain(e)?,
            ExprKind::Binary(op, a, b) => {
                let va = self.eval(a)?;
                // Short-circuit constant logic, so guards like `i > 1 && x[i-1] ...` work.
                match (op, &va) {
                    (BinOp::And, Value::Bool(false)) => {
                        return Ok(Value::Bool(false));
                    }
                    (BinOp::Or, Value::Bool(true)) => {
                        return Ok(Value::Bool(true));
                    }
                    (BinOp::Implies, Value::Bool(false)) => {
                        return Ok(Value::Bool(true));
                    }
                    _ => {}
                }
                let vb = self.eval(b)?;
                self.binary(*op, va, vb, a.span, b.span)?
            }
            ExprKind::Index(base, args) => {
                let b = self.eval(base)?;
                let mut idx = Vec::with_capacity(args.len());
                for a in args {
                    idx.push(match a {
                        Some(a) => Some((self.eval(a)?, a.span)),
                        None => None,
                    });
                }
                self.index(b, &idx, base.span, e.span)?
            }
            ExprKind::Call(name, args) => {
                // `round(sqrt(d))`, `ceil(a / b)`: rounded from the exact value.
                if let Some(r) = self.rounding_call(&name.name, args, e.span) {
                    return r;
                }
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push((self.eval(a)?, a.span));
                }
                if vals.iter().any(|(v, _)| matches!(v, Value::Poison)) {
                    return Ok(Value::Poison);
                }
                if self.failed_functions.contains(&name.name) {
                    return Ok(Value::Poison);
                }
                if let Some(f) = self.functions.get(&name.name).cloned() {
                    return self.call_user(&f, vals, e.span);
                }
                self.call(name, vals, e.span)?
            }
            ExprKind::Record(fields) => {
                let mut out: Vec<(String, Value)> = Vec::with_capacity(fields.len());
                for (name, value) in fields {
                    if out.iter().any(|(n, _)| *n == name.name) {
                        return Err(Diag::new(
                            "cspi::name::duplicate",
                            format!("the record has two fields `{}`", name.name),
                        )
                        .label(name.span, "a second time here"));
                    }
                    out.push((name.name.clone(), self.eval(value)?));
                }
                Value::Record(Rc::new(Record { fields: out }))
            }
            ExprKind::Field(base, name) => {
                let b = self.eval(base)?;
                self.field(b, name, base.span)?
            }
            ExprKind::Format(parts) => self.format(parts)?,
            ExprKind::Let { binds, body, .. } => {
                // Each name sees the ones before it; all go out of scope after the body.
                let depth = self.locals.len();
                let mut result = Ok(Value::Poison);
                for (name, value) in binds {
                    match self.eval(value) {
                        Ok(v) => self.locals.push((name.name.clone(), v)),
                        Err(d) => {
                            result = Err(d);
                            break;
                        }
                    }
                }
                if self.locals.len() == depth + binds.len() {
                    result = self.eval(body);
                }
                self.locals.truncate(depth);
                result?
            }
            ExprKind::Aggregate(name, gens, body) => {
                let skip = match name.name.as_str() {
                    "sum" => Skip::Zero,
                    "product" => Skip::One,
                    "count" => Skip::False,
                    _ => Skip::Refuse,
                };
                let items = self.skipping_comprehension(gens, body, skip)?;
                let list = Value::Array(Rc::new(Array::list(items)));
                self.call(name, vec![(list, body.span)], e.span)?
            }
            ExprKind::Forall(gens, body) => {
                let items = self.skipping_comprehension(gens, body, Skip::True)?;
                self.conjunction(items, body.span, true)?
            }
            ExprKind::Exists(gens, body) => {
                let items = self.skipping_comprehension(gens, body, Skip::False)?;
                self.conjunction(items, body.span, false)?
            }
            ExprKind::If(c, a, b) => match self.eval(c)? {
                Value::Bool(true) => self.eval(a)?,
                Value::Bool(false) => self.eval(b)?,
                Value::Poison => Value::Poison,
                cond @ (Value::Formula(_) | Value::BoolTerm(_)) => {
                    let f = reifiable(cond.into_formula().unwrap_or(Formula::Const(false)));
                    let (va, vb) = (self.eval(a)?, self.eval(b)?);
                    let both_truths = va.is_formula() && vb.is_formula();
                    // Moved, not cloned: nested conditionals cost linear time.
                    match (va.into_term(), vb.into_term()) {
                        // A choice between truth values is a truth value.
                        (Some(x), Some(y)) if both_truths => Value::from_formula(Formula::Cmp(
                            crate::model::CmpOp::Eq,
                            Term::Ite(Box::new(f), Box::new(x), Box::new(y)),
                            Term::Const(1),
                        )),
                        (Some(x), Some(y)) => {
                            Value::from_term(Term::Ite(Box::new(f), Box::new(x), Box::new(y)))
                        }
                        _ => {
                            return Err(Diag::new(
                                "cspi::type",
                                "a condition over variables chooses between two integers or two truth values",
                            )
                            .label(e.span, "here"));
                        }
                    }
                }
                other => {
                    return Err(Diag::new(
                        "cspi::type",
                        format!(
                            "a condition must be true or false, not {}",
                            other.type_name()
                        ),
                    )
                    .label(c.span, "here"));
                }
            },
            ExprKind::List(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for i in items {
                    vals.push(self.eval(i)?);
                }
                Value::Array(Rc::new(Array::list(vals)))
            }
            ExprKind::ListComp(body, gens) => {
                let items = self.comprehension(gens, body)?;
                Value::Array(Rc::new(Array::list(items)))
            }
            ExprKind::Set(items) => {
                let mut vals = Vec::with_capacity(items.len());
                // The enum of the members, when they are enum values.
                let mut of: Option<Option<std::sync::Arc<crate::model::EnumType>>> = None;
                for i in items {
                    let (k, e) = match self.eval(i)? {
                        Value::Int(k) => (vec![k], None),
                        Value::Enum(e, k) => (vec![k], Some(e)),
                        Value::Set(s) if s.len() <= super::MAX_DOMAIN => (s.iter().collect(), None),
                        Value::EnumSet(e, s) => (s.iter().collect(), Some(e)),
                        Value::Poison => return Ok(Value::Poison),
                        other => {
                            return Err(Diag::new(
                                "cspi::type",
                                format!(
                                    "a set holds integers or enum values, not {}",
                                    other.type_name()
                                ),
                            )
                            .label(i.span, "here"));
                        }
                    };
                    match &of {
                        Some(prev) if *prev != e => {
                            return Err(Diag::new(
                                "cspi::type",
                                "a set holds integers or members of one enum, not both",
                            )
                            .label(i.span, "this member is of another kind"));
                        }
                        _ => of = Some(e),
                    }
                    vals.extend(k);
                }
                match of.flatten() {
                    Some(e) => Value::EnumSet(e, IntSet::from_values(vals)),
                    None => Value::Set(IntSet::from_values(vals)),
                }
            }
            ExprKind::SetComp(body, gens) => self.set_comprehension(body, gens)?,
            ExprKind::Tuple(items) => {
                let mut vals = Vec::with_capacity(items.len());
                for i in items {
                    vals.push(self.eval(i)?);
                }
                Value::Tuple(Rc::new(vals))
            }
        })
    }

    fn lookup(&self, name: &str, span: Span) -> Result<Value, Diag> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(v.clone());
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        if let Some(d) = self.used_before_declaration(name, span) {
            return Err(d);
        }
        let names = self
            .locals
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(self.globals.keys().map(String::as_str));
        let d = Diag::new("cspi::name::unknown", format!("unknown name `{name}`"))
            .label(span, "not defined");
        Err(match did_you_mean(name, names) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help("names must be declared (param, let or var) before they are used"),
        })
    }

    /// Evaluates `body` for every binding of the generators that passes the
    /// `where`; a binding that only variables decide (over a set variable,
    /// or a `where` over variables) is refused: a list has a fixed length.
    pub(super) fn comprehension(
        &mut self,
        gens: &Generators,
        body: &Expr,
    ) -> Result<Vec<Value>, Diag> {
        self.skipping_comprehension(gens, body, Skip::Refuse)
    }

    /// Evaluates `body` for every binding of the generators that passes the
    /// `where`, each with the condition under which it counts (`None`:
    /// always): the membership of its value in a set variable it iterates
    /// over, a `where` over variables.
    pub(super) fn guarded_comprehension(
        &mut self,
        gens: &Generators,
        body: &Expr,
    ) -> Result<Vec<Guarded>, Diag> {
        let mut out = Vec::new();
        let hits = self.poison_hits;
        let base = self.guards.len();
        self.for_each_binding(gens, body.span, &mut |cx| {
            let guard = cx.guard_since(base)?;
            out.push((guard, cx.eval(body)?));
            Ok(())
        })?;
        // A range or condition whose definition failed: the list is unknown,
        // not empty (an empty one would raise errors of its own).
        if self.poison_hits != hits {
            out.push((None, Value::Poison));
        }
        Ok(out)
    }

    /// [`Checker::guarded_comprehension`] with each guarded item replaced by
    /// what stands for it when it does not count (`skip`).
    fn skipping_comprehension(
        &mut self,
        gens: &Generators,
        body: &Expr,
        skip: Skip,
    ) -> Result<Vec<Value>, Diag> {
        let items = self.guarded_comprehension(gens, body)?;
        let mut out = Vec::with_capacity(items.len());
        for (guard, v) in items {
            out.push(match guard {
                None => v,
                Some(g) => self.skipped(skip, g, v, body.span)?,
            });
        }
        Ok(out)
    }

    /// The conjunction of the guards pushed since `base`, with the span of
    /// the first, or `None` when there is none.
    pub(super) fn guard_since(&self, base: usize) -> Result<Option<(Value, Span)>, Diag> {
        let Some((_, first)) = self.guards.get(base) else {
            return Ok(None);
        };
        let mut acc = Value::Bool(true);
        for (g, span) in &self.guards[base..] {
            acc = super::logic::connective(BinOp::And, acc, g.clone(), *span, self.as_written)?;
        }
        Ok(Some((acc, *first)))
    }

    /// Item `v` of a comprehension that counts only when `guard` holds:
    /// `guard -> v` in a `forall`, `guard && v` in an `exists` or `count`,
    /// `if guard then v else 0` in a `sum` (1 in a `product`).
    pub(super) fn skipped(
        &self,
        skip: Skip,
        (guard, gspan): (Value, Span),
        v: Value,
        span: Span,
    ) -> Result<Value, Diag> {
        if matches!(v, Value::Poison) || matches!(guard, Value::Poison) {
            return Ok(Value::Poison);
        }
        let connect = |op, v| super::logic::connective(op, guard.clone(), v, span, self.as_written);
        match skip {
            Skip::True => connect(BinOp::Implies, v),
            // `count` of something else reports its own error.
            Skip::False if v.is_formula() => connect(BinOp::And, v),
            Skip::False => Ok(v),
            Skip::Zero | Skip::One => {
                let t = self.term(&v, span)?;
                let g = guard.as_term().unwrap_or(Term::Const(0));
                Ok(match (t.as_const(), skip) {
                    (Some(0), Skip::Zero) => Value::Int(0),
                    (Some(k), Skip::Zero) => Value::from_term(self.linear(vec![(k, g)], 0)),
                    (Some(k), _) => Value::from_term(self.linear(vec![(k - 1, g)], 1)),
                    _ => {
                        let f = guard.into_formula().unwrap_or(Formula::Const(false));
                        let other = Term::Const(i64::from(skip == Skip::One));
                        Value::from_term(Term::Ite(
                            Box::new(reifiable(f)),
                            Box::new(t),
                            Box::new(other),
                        ))
                    }
                })
            }
            Skip::Refuse => Err(Diag::new(
                "cspi::type",
                "items chosen by variables, where a list, `min` and `max` need a fixed number of them",
            )
            .label(gspan, "decided only when solving")
            .label(span, "an item")
            .help(
                "forall, exists, sum, product and count read a skipped item as true, false, 0, 1 \
                 and false; a set comprehension `{ e | ... }` is a set over variables",
            )),
        }
    }

    /// Calls `f` once per binding of the generators that passes the `where`,
    /// with the bound names in `self.locals`; `span` is charged for each step.
    pub(super) fn for_each_binding(
        &mut self,
        gens: &Generators,
        span: Span,
        f: &mut dyn FnMut(&mut Self) -> Result<(), Diag>,
    ) -> Result<(), Diag> {
        let saved = self.locals.len();
        let result = self.generate(gens, 0, 0, span, f);
        self.locals.truncate(saved);
        result
    }

    /// Binds generator `g`'s name number `k`, then the rest, recursively.
    fn generate(
        &mut self,
        gens: &Generators,
        g: usize,
        k: usize,
        span: Span,
        f: &mut dyn FnMut(&mut Self) -> Result<(), Diag>,
    ) -> Result<(), Diag> {
        let Some((idents, source)) = gens.gens.get(g) else {
            if let Some(cond) = &gens.condition {
                match self.eval(cond)? {
                    Value::Bool(true) => {}
                    Value::Bool(false) => return Ok(()),
                    // Decided only when solving: the binding counts when it holds.
                    g @ (Value::Formula(_) | Value::BoolTerm(_)) => {
                        self.spend(1, span)?;
                        self.guards.push((g, cond.span));
                        let r = f(self);
                        self.guards.pop();
                        return r;
                    }
                    Value::Poison => {
                        self.poison_hits += 1;
                        return Ok(());
                    }
                    other => {
                        return Err(Diag::new(
                            "cspi::type",
                            format!(
                                "a `where` condition must be true or false, not {}",
                                other.type_name()
                            ),
                        )
                        .label(cond.span, "here"));
                    }
                }
            }
            self.spend(1, span)?;
            return f(self);
        };
        if k == idents.len() {
            return self.generate(gens, g + 1, 0, span, f);
        }
        let items: Vec<Value> = match self.eval(source)? {
            Value::Set(s) => {
                self.spend(s.len(), source.span)?;
                s.iter().map(Value::Int).collect()
            }
            Value::EnumSet(e, s) => {
                self.spend(s.len(), source.span)?;
                s.iter().map(|k| Value::Enum(e.clone(), k)).collect()
            }
            Value::Array(a) => a.items.clone(),
            // Over a set variable: every value it may hold, each counting
            // when it is in the set (and the set exists).
            Value::SetVar(set) => {
                self.spend(set.elems.len() as u64, source.span)?;
                for (&e, m) in set.elems.iter().zip(&set.members) {
                    if matches!(m, Value::Bool(false)) {
                        continue;
                    }
                    let inside = self.where_defined(&[&set], m.clone());
                    if matches!(inside, Value::Bool(false)) {
                        continue;
                    }
                    let item = match &set.of_enum {
                        Some(en) => Value::Enum(en.clone(), e),
                        None => Value::Int(e),
                    };
                    let guarded = !matches!(inside, Value::Bool(true));
                    if guarded {
                        self.guards.push((inside, source.span));
                    }
                    self.locals.push((idents[k].name.clone(), item));
                    let r = self.generate(gens, g, k + 1, span, f);
                    self.locals.pop();
                    if guarded {
                        self.guards.pop();
                    }
                    r?;
                }
                return Ok(());
            }
            Value::Poison => {
                self.poison_hits += 1;
                return Ok(());
            }
            other => {
                return Err(Diag::new(
                    "cspi::type",
                    format!("cannot iterate over {}", other.type_name()),
                )
                .label(source.span, "expected a range, set or array"));
            }
        };
        for item in items {
            self.locals.push((idents[k].name.clone(), item));
            let r = self.generate(gens, g, k + 1, span, f);
            self.locals.pop();
            r?;
        }
        Ok(())
    }

    /// Combines truth values with `&&` (forall) or `||` (exists), folding constants.
    pub(super) fn conjunction(
        &mut self,
        items: Vec<Value>,
        span: Span,
        all: bool,
    ) -> Result<Value, Diag> {
        if !all && let Some(v) = super::logic::exists_of_bools(&items, self.as_written) {
            return Ok(v);
        }
        let mut parts = Vec::new();
        for v in items {
            match v {
                Value::Bool(b) if b == all => {}
                Value::Bool(b) => return Ok(Value::Bool(b)),
                Value::Poison => return Ok(Value::Poison),
                v if !all && v.is_formula() => {
                    parts.push(reifiable(v.into_formula().unwrap_or(Formula::Const(false))))
                }
                v => parts.push(v.as_formula().ok_or_else(|| {
                    Diag::new(
                        "cspi::type",
                        format!("expected a constraint, found {}", v.type_name()),
                    )
                    .label(span, "this must be true or false")
                })?),
            }
        }
        Ok(match parts.len() {
            0 => Value::Bool(all),
            1 => Value::from_formula(parts.pop().unwrap_or(Formula::Const(all))),
            _ if all => Value::Formula(Rc::new(Formula::And(parts))),
            _ => Value::Formula(Rc::new(Formula::Or(parts))),
        })
    }

    /// `base[args]`: element access, slices with ranges or `..`, and letters of words.
    pub(super) fn index(
        &mut self,
        base: Value,
        args: &[Option<(Value, Span)>],
        base_span: Span,
        span: Span,
    ) -> Result<Value, Diag> {
        match base {
            Value::Poison => Ok(Value::Poison),
            Value::Array(a) => {
                if self.model.numbered_entries.is_none() && self.entries_of_a_crossword(&a) {
                    self.model.numbered_entries = Some(span);
                }
                self.index_array(&a, args, base_span, span)
            }
            // A row of a table read by read_table, then its values: `t[i, j]`.
            Value::Table(t) => {
                let Some(Some((Value::Int(i), ispan))) = args.first() else {
                    return Err(Diag::new("cspi::index", "a table takes integer indices")
                        .label(span, "here")
                        .help("t[i] is row i (from 1), t[i, j] its j-th value"));
                };
                let row = usize::try_from(*i - 1)
                    .ok()
                    .and_then(|k| t.get(k))
                    .ok_or_else(|| out_of_range(*i, (1, t.len() as i64), *ispan))?;
                let row = Value::Array(Rc::new(Array::list(
                    row.iter().map(|&v| Value::Int(v)).collect(),
                )));
                match &args[1..] {
                    [] => Ok(row),
                    rest => self.index(row, rest, base_span, span),
                }
            }
            Value::Tuple(t) => {
                let [Some((Value::Int(i), ispan))] = args else {
                    return Err(Diag::new("cspi::index", "a tuple takes one integer index")
                        .label(span, "here")
                        .help("t[1] (or t.1) is the first item of a tuple"));
                };
                usize::try_from(*i - 1)
                    .ok()
                    .and_then(|k| t.get(k))
                    .cloned()
                    .ok_or_else(|| out_of_range(*i, (1, t.len() as i64), *ispan))
            }
            Value::Str(s) => {
                let [Some((Value::Int(i), ispan))] = args else {
                    return Err(Diag::new("cspi::index", "a string takes one integer index")
                        .label(span, "here"));
                };
                let chars: Vec<char> = s.chars().collect();
                let c = usize::try_from(*i - 1)
                    .ok()
                    .and_then(|i| chars.get(i))
                    .ok_or_else(|| out_of_range(*i, (1, chars.len() as i64), *ispan))?;
                Ok(Value::Str(c.to_string().into()))
            }
            Value::Term(t) => match *t {
                Term::Var(v) => {
                    let VarKind::Word(list) = &self.model.vars[v].kind else {
                        return Err(Diag::new(
                            "cspi::index",
                            "only arrays, strings and word variables can be indexed",
                        )
                        .label(base_span, "an integer variable"));
                    };
                    let len = list.words.first().map_or(0, |w| w.chars().count()) as i64;
                    let [Some((Value::Int(i), ispan))] = args else {
                        return Err(Diag::new(
                            "cspi::index",
                            "a word variable takes one integer position",
                        )
                        .label(span, "here"));
                    };
                    if *i < 1 || *i > len {
                        return Err(out_of_range(*i, (1, len), *ispan));
                    }
                    Ok(Value::Term(Rc::new(Term::Letter(v, (*i - 1) as usize))))
                }
                _ => Err(
                    Diag::new("cspi::index", "this expression cannot be indexed")
                        .label(base_span, "here"),
                ),
            },
            other => Err(
                Diag::new("cspi::index", format!("cannot index {}", other.type_name()))
                    .label(base_span, "here"),
            ),
        }
    }

    /// `a[r, c]` with a variable row or column index: nested elements.
    /// (A list of lists of one length is read as such an array: `rectangle`.)
    fn element_2d(
        &mut self,
        a: &Array,
        (r, rs): (Term, Span),
        (c, cs): (Term, Span),
        base_span: Span,
    ) -> Result<Value, Diag> {
        let ((rlo, rhi), (clo, chi)) = (a.dims[0], a.dims[1]);
        let cols = (chi - clo + 1).max(0) as usize;
        let terms = a
            .items
            .iter()
            .map(|x| x.as_term())
            .collect::<Option<Vec<_>>>()
            .filter(|_| !a.items.iter().any(Value::is_formula))
            .ok_or_else(|| {
                Diag::new("cspi::index", "a variable index needs an array of integers")
                    .label(base_span, "here")
            })?;
        let row = |k: i64| -> Result<Term, Diag> {
            let start = (k - rlo) as usize * cols;
            let items = terms[start..start + cols].to_vec();
            Ok(match c.as_const() {
                Some(j) if j < clo || j > chi => return Err(out_of_range(j, (clo, chi), cs)),
                Some(j) => items[(j - clo) as usize].clone(),
                None => Term::Element {
                    items,
                    index: Box::new(c.clone()),
                    low: clo,
                },
            })
        };
        let t = match r.as_const() {
            Some(i) if i < rlo || i > rhi => return Err(out_of_range(i, (rlo, rhi), rs)),
            Some(i) => row(i)?,
            None => Term::Element {
                items: (rlo..=rhi).map(row).collect::<Result<Vec<_>, _>>()?,
                index: Box::new(r),
                low: rlo,
            },
        };
        Ok(Value::Term(Rc::new(t)))
    }

    /// Whether `a` holds a crossword's entries (word variables), which an
    /// index names by number. The first item tells: arrays are of one type.
    fn entries_of_a_crossword(&self, a: &Array) -> bool {
        !self.crosswords.is_empty()
            && matches!(a.items.first(), Some(Value::Term(t))
                if matches!(**t, Term::Var(v) if matches!(self.model.vars[v].kind, VarKind::Word(_))))
    }

    fn index_array(
        &mut self,
        a: &Array,
        args: &[Option<(Value, Span)>],
        base_span: Span,
        span: Span,
    ) -> Result<Value, Diag> {
        // `a[i, j]` on a list of lists (data read as nested lists): `a[i][j]`.
        if args.len() > a.dims.len()
            && args[..a.dims.len()]
                .iter()
                .all(|x| matches!(x, Some((Value::Int(_) | Value::Enum(..), _))))
            && a.items
                .iter()
                .all(|x| matches!(x, Value::Array(_) | Value::Tuple(_)))
        {
            let (here, rest) = args.split_at(a.dims.len());
            let inner = self.index_array(a, here, base_span, span)?;
            return self.index(inner, rest, base_span, span);
        }
        // `m[i, j]` with a variable `i` on a list of lists of one length:
        // indexed as the 2-D array it is.
        if args.len() == 2
            && a.dims.len() == 1
            && let Some(rect) = rectangle(a)
        {
            return self.index_array(&rect, args, base_span, span);
        }
        let args = self.enum_indices(a, args)?;
        let args = args.as_slice();
        if args.len() != a.dims.len() {
            return Err(Diag::new(
                "cspi::index",
                format!(
                    "this array has {} dimension{} but {} ind{} given",
                    a.dims.len(),
                    if a.dims.len() == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "ex is" } else { "ices are" }
                ),
            )
            .label(span, "here")
            .help(format!(
                "give one index per dimension, e.g. [{}]; `..` takes a whole dimension",
                vec!["i"; a.dims.len()].join(", ")
            )));
        }
        // A variable index into a one-dimensional array is an `element` term.
        if let [Some((v, vs))] = args
            && let Some(index) = v.as_term().filter(|t| !matches!(t, Term::Const(_)))
        {
            if let Some(set) = self.set_element(a, &[(index.clone(), *vs)], base_span)? {
                return Ok(set);
            }
            // Items that are truth values give a truth value.
            if a.items.iter().all(Value::is_formula)
                && a.items.iter().all(|i| !matches!(i, Value::Int(_)))
            {
                let items = a.items.iter().filter_map(Value::as_term).collect();
                return Ok(Value::BoolTerm(Rc::new(Term::Element {
                    items,
                    index: Box::new(index),
                    low: a.dims[0].0,
                })));
            }
            let items = a
                .items
                .iter()
                .map(|x| x.as_term())
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    Diag::new("cspi::index", "a variable index needs an array of integers")
                        .label(base_span, "here")
                })?;
            return Ok(Value::Term(Rc::new(Term::Element {
                items,
                index: Box::new(index),
                low: a.dims[0].0,
            })));
        }
        // Variable indices into a two-dimensional array: an element over the
        // rows of elements over the columns (lowering makes it one 2-D
        // element), so that an index out of range stays undefined.
        if let [Some((r, rs)), Some((c, cs))] = args
            && let (Some(ri), Some(ci)) = (r.as_term(), c.as_term())
            && (!matches!(ri, Term::Const(_)) || !matches!(ci, Term::Const(_)))
        {
            let both = [(ri.clone(), *rs), (ci.clone(), *cs)];
            if let Some(set) = self.set_element(a, &both, base_span)? {
                return Ok(set);
            }
            return self.element_2d(a, (ri, *rs), (ci, *cs), base_span);
        }
        // Each argument selects a list of positions; a plain integer drops its dimension.
        let mut picks: Vec<(Vec<i64>, bool)> = Vec::with_capacity(args.len());
        for (d, arg) in args.iter().enumerate() {
            let (lo, hi) = a.dims[d];
            picks.push(match arg {
                None => ((lo..=hi).collect(), true),
                Some((Value::Int(i), s)) => {
                    if *i < lo || *i > hi {
                        return Err(out_of_range(*i, (lo, hi), *s));
                    }
                    (vec![*i], false)
                }
                Some((Value::Set(set), s)) => {
                    let idx: Vec<i64> = if set.len() > (hi - lo + 1).max(0) as u64 {
                        return Err(
                            Diag::new("cspi::index", "the slice is larger than the array")
                                .label(*s, "here"),
                        );
                    } else {
                        set.iter().collect()
                    };
                    if let Some(bad) = idx.iter().find(|&&i| i < lo || i > hi) {
                        return Err(out_of_range(*bad, (lo, hi), *s));
                    }
                    (idx, true)
                }
                Some((Value::Poison, _)) => return Ok(Value::Poison),
                Some((other, s)) => {
                    return Err(Diag::new(
                        "cspi::index",
                        format!(
                            "an index must be an integer or a range, not {}",
                            other.type_name()
                        ),
                    )
                    .label(*s, "here")
                    .help("write an integer such as 3, a range such as 1..3, or `..` for all"));
                }
            });
        }
        let strides: Vec<usize> = (0..a.dims.len())
            .map(|d| {
                a.dims[d + 1..]
                    .iter()
                    .map(|&(lo, hi)| (hi - lo + 1).max(0) as usize)
                    .product()
            })
            .collect();
        if picks.iter().any(|(idx, _)| idx.is_empty()) {
            return Ok(Value::Array(Rc::new(Array::list(Vec::new()))));
        }
        let mut items = Vec::new();
        let mut pos = vec![0usize; picks.len()];
        loop {
            let offset: usize = pos
                .iter()
                .enumerate()
                .map(|(d, &p)| (picks[d].0[p] - a.dims[d].0) as usize * strides[d])
                .sum();
            items.push(a.items[offset].clone());
            let mut d = picks.len();
            loop {
                if d == 0 {
                    let dims: Vec<(i64, i64)> = picks
                        .iter()
                        .filter(|(_, keep)| *keep)
                        .map(|(idx, _)| (1, idx.len() as i64))
                        .collect();
                    if dims.is_empty() {
                        return Ok(items.pop().unwrap_or(Value::Poison));
                    }
                    // Slices are indexed from 1, except a dimension indexed
                    // by an enum and taken whole, which keeps its enum.
                    let kept: Vec<usize> = (0..picks.len()).filter(|&d| picks[d].1).collect();
                    let whole: Vec<bool> = kept
                        .iter()
                        .map(|&d| args[d].is_none() && a.index_enum(d).is_some())
                        .collect();
                    let dims = dims
                        .iter()
                        .zip(&kept)
                        .zip(&whole)
                        .map(|((&r, &d), &w)| if w { a.dims[d] } else { r })
                        .collect();
                    let index_enums = kept
                        .iter()
                        .zip(&whole)
                        .map(|(&d, &w)| if w { a.index_enum(d).cloned() } else { None })
                        .collect();
                    return Ok(Value::Array(Rc::new(Array {
                        dims,
                        items,
                        index_enums,
                    })));
                }
                d -= 1;
                pos[d] += 1;
                if pos[d] < picks[d].0.len() {
                    break;
                }
                pos[d] = 0;
            }
        }
    }
}

impl Checker<'_> {
    /// Index arguments with enum members replaced by their positions, after
    /// checking that each dimension is indexed by values of its own kind.
    fn enum_indices(
        &self,
        a: &Array,
        args: &[Option<(Value, Span)>],
    ) -> Result<Vec<Option<(Value, Span)>>, Diag> {
        let mut out = Vec::with_capacity(args.len());
        for (d, arg) in args.iter().enumerate() {
            let want = a.index_enum(d);
            let Some((v, s)) = arg else {
                out.push(None);
                continue;
            };
            let have = v.enum_type(&self.model);
            let wrong = |what: &str| {
                let d = Diag::new(
                    "cspi::index",
                    format!("this dimension is indexed by {what}"),
                )
                .label(*s, format!("{} here", v.type_name()));
                match want {
                    Some(e) => d.help(format!(
                        "index it by members of `{}`, such as {}",
                        e.name,
                        e.members.first().map_or("", String::as_str)
                    )),
                    None => d.help("index it by integers"),
                }
            };
            match (want, &have, v) {
                (_, _, Value::Poison) => out.push(Some((Value::Poison, *s))),
                (Some(e), Some(h), _) if e != h => {
                    return Err(wrong(&format!("members of `{}`", e.name)));
                }
                (Some(e), None, Value::Int(_) | Value::Set(_)) => {
                    return Err(wrong(&format!("members of `{}`", e.name)));
                }
                (None, Some(_), Value::Enum(..) | Value::EnumSet(..)) if d < a.dims.len() => {
                    return Err(wrong("integers"));
                }
                (_, _, Value::Enum(_, k)) => out.push(Some((Value::Int(*k), *s))),
                (_, _, Value::EnumSet(_, set)) => out.push(Some((Value::Set(set.clone()), *s))),
                _ => out.push(Some((v.clone(), *s))),
            }
        }
        Ok(out)
    }
}

pub(super) fn out_of_range(i: i64, (lo, hi): (i64, i64), span: Span) -> Diag {
    Diag::new(
        "cspi::index::range",
        format!("index {i} is out of range {lo}..{hi}"),
    )
    .label(span, "this index")
    .help(format!("valid indices of this dimension are {lo} to {hi}"))
}

/// A list of lists that all have the same one-dimensional index set, as the
/// two-dimensional array it stands for; `None` for anything else.
fn rectangle(a: &Array) -> Option<Array> {
    let mut rows = a.items.iter().map(|x| match x {
        Value::Array(r) if r.dims.len() == 1 => Some(r),
        _ => None,
    });
    let first = rows.next()??;
    let mut items = first.items.clone();
    for r in rows {
        let r = r?;
        if r.dims != first.dims || r.index_enum(0) != first.index_enum(0) {
            return None;
        }
        items.extend(r.items.iter().cloned());
    }
    Some(Array {
        dims: vec![a.dims[0], first.dims[0]],
        items,
        index_enums: vec![a.index_enum(0).cloned(), first.index_enum(0).cloned()],
    })
}

/// An item of a comprehension and the condition under which it counts
/// (with the span of its source), `None` when always.
pub(super) type Guarded = (Option<(Value, Span)>, Value);

/// What an item of a comprehension stands for when the condition it counts
/// under (`i in s` of a set variable, a `where` over variables) is false.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Skip {
    /// `forall`: the item holds.
    True,
    /// `exists`, `count`: the item does not hold.
    False,
    /// `sum`: 0.
    Zero,
    /// `product`: 1.
    One,
    /// A list (or `min`, `max`): refused, its length would depend on variables.
    Refuse,
}
