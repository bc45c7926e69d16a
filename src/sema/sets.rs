//! Set variables, as MiniZinc's `nosets` library lowers them: a set over
//! variables is one truth value per value it may hold (its upper bound),
//! and every set operation and constraint is stated over those truth values
//! (`card` a sum, `subset` implications, `all_disjoint` sums at most 1). So
//! the engine sees only 0/1 variables, the default search branches on them,
//! and one solution is one vector of them: counts stay exact.
//!
//! Constant sets (`{1, 3}`, `1..5`) take part in the same operations,
//! enumerated (at most [`MAX_DOMAIN`] values); between two constants the
//! result folds back to a constant.

use super::items::element_label;
use super::value::{Array, IntSet, Value};
use super::{Checker, MAX_DOMAIN};
use crate::diag::Diag;
use crate::model::globals::Global;
use crate::model::globals::sets::{
    SET_DIFF, SET_EQ, SET_IN, SET_INTERSECT, SET_SUBSET, SET_UNION, SetDisjointDef,
};
use crate::model::{
    CmpOp, Domain, EnumType, Formula, GlobalArg, GlobalCall, SetLayout, Term, VarGroup, VarKind,
    Variable,
};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Span};
use std::rc::Rc;
use std::sync::Arc;

/// A set whose members depend on variables: for each value it may hold,
/// whether it holds it (a constant `Bool`, a `BoolTerm` or a `Formula`).
#[derive(Clone, Debug)]
pub(crate) struct SetVar {
    /// The values the set may hold, increasing.
    pub elems: Vec<i64>,
    /// `members[i]`: whether `elems[i]` is in the set.
    pub members: Vec<Value>,
    /// The enum whose members the values are, if any.
    pub of_enum: Option<Arc<EnumType>>,
    /// Indices the set was chosen by (`c[i]` with a variable `i` that may
    /// leave the array): the set exists only when each is in range, and
    /// anything said of it is undefined otherwise (as `a[i]` of integers).
    pub defined: Vec<Rc<InRange>>,
    /// How the set was built, when it is `y op z` (`union`, `intersect`,
    /// `diff`) of two sets that always exist: `x == y union z` is then one
    /// set constraint on the three rather than a formula per value.
    pub built: Option<Rc<(BinOp, SetVar, SetVar)>>,
}

/// A variable index and the range it must lie in, `low .. low + len - 1`.
#[derive(Debug)]
pub(crate) struct InRange {
    pub index: Term,
    pub low: i64,
    pub len: usize,
}

impl InRange {
    /// 0 when the index is in range, undefined otherwise.
    pub(super) fn zero(&self) -> Term {
        Term::Element {
            items: vec![Term::Const(0); self.len],
            index: Box::new(self.index.clone()),
            low: self.low,
        }
    }
}

impl SetVar {
    /// Whether `e` is in the set, as a truth value.
    pub(crate) fn has(&self, e: i64) -> Value {
        match self.elems.binary_search(&e) {
            Ok(i) => self.members[i].clone(),
            Err(_) => Value::Bool(false),
        }
    }

    /// The constant set this is, when no member depends on variables.
    fn constant(&self) -> Option<Value> {
        if !self.defined.is_empty() {
            return None;
        }
        let mut vals = Vec::new();
        for (e, m) in self.elems.iter().zip(&self.members) {
            match m {
                Value::Bool(true) => vals.push(*e),
                Value::Bool(false) => {}
                _ => return None,
            }
        }
        let set = IntSet::from_values(vals);
        Some(match &self.of_enum {
            Some(en) => Value::EnumSet(en.clone(), set),
            None => Value::Set(set),
        })
    }

    /// The value: a constant set when it folded to one.
    pub(crate) fn into_value(self) -> Value {
        self.constant()
            .unwrap_or_else(|| Value::SetVar(Rc::new(self)))
    }
}

/// Whether a value is a set over variables (or an array holding one).
pub(super) fn mentions_set_var(v: &Value) -> bool {
    match v {
        Value::SetVar(_) => true,
        Value::Array(a) => a.items.iter().any(mentions_set_var),
        _ => false,
    }
}

/// The sorted union of two sorted lists.
fn merged(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out.sort_unstable();
    out.dedup();
    out
}

impl Checker<'_> {
    /// `var s: set of S;` (or an array of them, `count` sets of shape
    /// `dims`): one `bool` variable per value of `S` and set, declared
    /// under the name as one group, printed as sets.
    pub(super) fn set_var(
        &mut self,
        name: &Ident,
        dims: Vec<(i64, i64)>,
        index_enums: Vec<Option<Arc<EnumType>>>,
        count: u64,
        of: &Expr,
    ) -> Result<(), Diag> {
        // `set of int` and friends name a type, not values.
        if let ExprKind::Name(n) = &of.kind
            && !self.globals.contains_key(n)
            && matches!(n.as_str(), "int" | "bool" | "string")
        {
            let d = if n == "int" {
                Diag::new(
                    "cspi::domain::unbounded",
                    format!("set variable `{}` needs the values it may hold", name.name),
                )
                .label(of.span, "int has no bounds")
                .help(format!(
                    "write `var {}: set of 1..10;` with the values the set may hold",
                    name.name
                ))
            } else {
                let what = if n == "bool" {
                    "truth values"
                } else {
                    "strings"
                };
                Diag::new(
                    "cspi::type",
                    format!("a set variable holds integers or enum members, not {what}"),
                )
                .label(of.span, "here")
                .help(format!(
                    "write `var {}: set of 1..10;` or `set of Colour`",
                    name.name
                ))
            };
            return Err(d);
        }
        let (elems, of_enum) = match self.eval(of)? {
            Value::Set(s) => (s, None),
            Value::EnumSet(e, s) => (s, Some(e)),
            Value::Poison => return Ok(()),
            other => {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "a set variable holds integers or enum members, so `set of` takes a set                          of them, not {}",
                        other.type_name()
                    ),
                )
                .label(of.span, "expected a set such as 1..9 or {1, 3, 5}")
                .help(format!("write `var {}: set of 1..10;`", name.name)));
            }
        };
        if elems.len() > MAX_DOMAIN {
            return Err(Diag::new(
                "cspi::domain::too_large",
                format!(
                    "set variable `{}` may hold {} values, one variable each",
                    name.name,
                    elems.len()
                ),
            )
            .label(of.span, "these values")
            .help(format!(
                "a set variable takes one 0/1 variable per value it may hold, at most {MAX_DOMAIN}"
            )));
        }
        let elems: Vec<i64> = elems.iter().collect();
        self.spend(count.saturating_mul(elems.len() as u64), of.span)?;
        let mut vars = Vec::new();
        let mut items = Vec::new();
        let mut index: Vec<i64> = dims.iter().map(|d| d.0).collect();
        let shown = |e: i64| match &of_enum {
            Some(en) => en.member(e),
            None => e.to_string(),
        };
        for _ in 0..count {
            let label = element_label(&name.name, &index, &index_enums);
            let mut members = Vec::with_capacity(elems.len());
            for &e in &elems {
                self.tick(name.span)?;
                let v = self.model.add_var(Variable {
                    name: format!("{} in {label}", shown(e)),
                    domain: Domain::Range(0, 1),
                    kind: VarKind::Bool,
                    aux: false,
                    span: name.span,
                });
                vars.push(v);
                members.push(Value::BoolTerm(Rc::new(Term::Var(v))));
            }
            items.push(Value::SetVar(Rc::new(SetVar {
                elems: elems.clone(),
                members,
                of_enum: of_enum.clone(),
                defined: Vec::new(),
                built: None,
            })));
            for k in (0..dims.len()).rev() {
                index[k] += 1;
                if index[k] <= dims[k].1 {
                    break;
                }
                index[k] = dims[k].0;
            }
        }
        let value = if dims.is_empty() {
            items.pop().unwrap_or(Value::Poison)
        } else {
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
                set: Some(Arc::new(SetLayout { elems, of_enum })),
            },
        );
        self.globals.insert(name.name.clone(), value);
        Ok(())
    }

    /// A set value in explicit form, or `None` when it is not a set.
    pub(super) fn as_set(&self, v: &Value, span: Span) -> Result<Option<SetVar>, Diag> {
        let (set, of_enum) = match v {
            Value::SetVar(s) => return Ok(Some((**s).clone())),
            Value::Set(s) => (s, None),
            Value::EnumSet(e, s) => (s, Some(e.clone())),
            _ => return Ok(None),
        };
        if set.len() > MAX_DOMAIN {
            return Err(Diag::new(
                "cspi::set::too_large",
                format!(
                    "this set has {} values, too many to combine with a set variable",
                    set.len()
                ),
            )
            .label(span, "this set")
            .help(format!(
                "set operations list the values of constant sets, at most {MAX_DOMAIN}"
            )));
        }
        let elems: Vec<i64> = set.iter().collect();
        let members = vec![Value::Bool(true); elems.len()];
        Ok(Some(SetVar {
            elems,
            members,
            of_enum,
            defined: Vec::new(),
            built: None,
        }))
    }

    /// Two sets of one kind: integers, or members of one enum.
    fn set_pair(
        &self,
        op: BinOp,
        a: &Value,
        b: &Value,
        sa: Span,
        sb: Span,
    ) -> Result<(SetVar, SetVar), Diag> {
        let (x, y) = (self.as_set(a, sa)?, self.as_set(b, sb)?);
        let (Some(x), Some(y)) = (x, y) else {
            return Err(Diag::new(
                "cspi::type",
                format!(
                    "`{}` combines two sets, not {} and {}",
                    op.symbol(),
                    a.type_name(),
                    b.type_name()
                ),
            )
            .label(sa.to(sb), "here")
            .help("both sides must be sets: `{1, 3}`, `1..n` or a set variable"));
        };
        if x.of_enum != y.of_enum {
            let kind = |s: &SetVar| match &s.of_enum {
                Some(e) => format!("a set of `{}`", e.name),
                None => "a set of integers".to_string(),
            };
            return Err(Diag::new(
                "cspi::type",
                format!(
                    "`{}` cannot combine {} and {}",
                    op.symbol(),
                    kind(&x),
                    kind(&y)
                ),
            )
            .label(sa, kind(&x))
            .label(sb, kind(&y))
            .help("both sets must hold integers, or members of one enum"));
        }
        Ok((x, y))
    }

    fn connect(&self, op: BinOp, a: Value, b: Value, span: Span) -> Result<Value, Diag> {
        super::logic::connective(op, a, b, span, self.as_written)
    }

    fn negate(&self, v: Value) -> Value {
        super::logic::not(v, self.as_written).unwrap_or(Value::Poison)
    }

    /// The conjunction of truth values.
    fn all(&self, parts: Vec<Value>, span: Span) -> Result<Value, Diag> {
        let mut acc = Value::Bool(true);
        for p in parts {
            acc = self.connect(BinOp::And, acc, p, span)?;
        }
        Ok(acc)
    }

    /// `union`, `intersect`, `diff`, `symdiff`, `subset`, `superset`, and
    /// `==`/`!=` when a side is a set over variables or both are sets.
    pub(super) fn set_binary(
        &mut self,
        op: BinOp,
        a: Value,
        b: Value,
        sa: Span,
        sb: Span,
    ) -> Result<Value, Diag> {
        let span = sa.to(sb);
        let (x, y) = self.set_pair(op, &a, &b, sa, sb)?;
        let combine = |cx: &Self, elems: Vec<i64>, f: BinOp| -> Result<Value, Diag> {
            let mut members = Vec::with_capacity(elems.len());
            for &e in &elems {
                let (p, q) = (x.has(e), y.has(e));
                members.push(match f {
                    BinOp::Diff => {
                        let q = cx.negate(q);
                        cx.connect(BinOp::And, p, q, span)?
                    }
                    f => cx.connect(f, p, q, span)?,
                });
            }
            let built = (x.defined.is_empty() && y.defined.is_empty() && f != BinOp::Xor)
                .then(|| Rc::new((op, x.clone(), y.clone())));
            Ok(SetVar {
                elems,
                members,
                of_enum: x.of_enum.clone(),
                defined: both_defined(&x, &y),
                built,
            }
            .into_value())
        };
        match op {
            BinOp::Union => combine(self, merged(&x.elems, &y.elems), BinOp::Or),
            BinOp::Symdiff => combine(self, merged(&x.elems, &y.elems), BinOp::Xor),
            BinOp::Intersect => {
                let elems = x
                    .elems
                    .iter()
                    .copied()
                    .filter(|e| y.elems.binary_search(e).is_ok())
                    .collect();
                combine(self, elems, BinOp::And)
            }
            BinOp::Diff => combine(self, x.elems.clone(), BinOp::Diff),
            BinOp::Subset | BinOp::Superset => {
                let (small, big) = if op == BinOp::Subset {
                    (&x, &y)
                } else {
                    (&y, &x)
                };
                if let Some(g) = set_constraint(&[small, big]) {
                    let u = g.universe(&[small, big]);
                    return Ok(g.call(&SET_SUBSET, vec![terms(small, &u), terms(big, &u)]));
                }
                let mut parts = Vec::with_capacity(small.elems.len());
                for &e in &small.elems {
                    parts.push(self.connect(BinOp::Implies, small.has(e), big.has(e), span)?);
                }
                let holds = self.all(parts, span)?;
                Ok(self.where_defined(&[&x, &y], holds))
            }
            BinOp::Eq | BinOp::Ne if set_constraint(&[&x, &y]).is_some() => {
                // `r == a op b` (either side), else `x == y`.
                let (r, other) = if y.built.is_some() {
                    (&x, &y)
                } else {
                    (&y, &x)
                };
                let same = match other.built.as_deref() {
                    Some((bop, a, b)) if set_constraint(&[r, a, b]).is_some() => {
                        let def: &'static dyn Global = match bop {
                            BinOp::Union => &SET_UNION,
                            BinOp::Intersect => &SET_INTERSECT,
                            _ => &SET_DIFF,
                        };
                        let u = SetConstraint.universe(&[r, a, b]);
                        SetConstraint.call(def, vec![terms(r, &u), terms(a, &u), terms(b, &u)])
                    }
                    _ => {
                        let u = SetConstraint.universe(&[&x, &y]);
                        SetConstraint.call(&SET_EQ, vec![terms(&x, &u), terms(&y, &u)])
                    }
                };
                Ok(if op == BinOp::Eq {
                    same
                } else {
                    self.negate(same)
                })
            }
            BinOp::Eq | BinOp::Ne => {
                let mut parts = Vec::new();
                for e in merged(&x.elems, &y.elems) {
                    parts.push(self.connect(BinOp::Iff, x.has(e), y.has(e), span)?);
                }
                let same = self.all(parts, span)?;
                let holds = if op == BinOp::Eq {
                    same
                } else {
                    self.negate(same)
                };
                Ok(self.where_defined(&[&x, &y], holds))
            }
            _ => Err(super::ops::type_error(op, &a, &b, span)),
        }
    }

    /// `x in s` (or `not in`) for a set over variables `s`: `x` is one of
    /// its possible values and, whichever it is, that value is in the set.
    pub(super) fn member_of_set_var(
        &mut self,
        x: Value,
        s: &SetVar,
        inside: bool,
        sx: Span,
        ss: Span,
    ) -> Result<Value, Diag> {
        let span = sx.to(ss);
        let xe = x.enum_type(&self.model);
        if xe != s.of_enum || !x.is_term() {
            let kind = match &s.of_enum {
                Some(e) => format!("members of `{}`", e.name),
                None => "integers".to_string(),
            };
            return Err(Diag::new(
                "cspi::type",
                format!("`in` tests {} against a set of {kind}", x.type_name()),
            )
            .label(sx, "this value")
            .label(ss, "this set")
            .help("the value and the set must be of one kind: integers, or members of one enum"));
        }
        let holds = match &x {
            Value::Int(k) | Value::Enum(_, k) => s.has(*k),
            _ if set_constraint(&[s]).is_some() => {
                let t = x.as_term().unwrap_or(Term::Const(0));
                let elems = s.elems.iter().map(|&e| Term::Const(e)).collect();
                SetConstraint.call(
                    &SET_IN,
                    vec![
                        GlobalArg::Term(t),
                        GlobalArg::Terms(elems),
                        terms(s, &s.elems),
                    ],
                )
            }
            _ => {
                let t = x.as_term().unwrap_or(Term::Const(0));
                let mut parts = Vec::with_capacity(s.elems.len() + 1);
                let values = IntSet::from_values(s.elems.clone());
                parts.push(self.member(x.clone(), Value::Set(values), true, sx, ss)?);
                for (&e, m) in s.elems.iter().zip(&s.members) {
                    let is_e =
                        Value::from_formula(Formula::Cmp(CmpOp::Eq, t.clone(), Term::Const(e)));
                    parts.push(self.connect(BinOp::Implies, is_e, m.clone(), span)?);
                }
                self.all(parts, span)?
            }
        };
        let holds = if inside { holds } else { self.negate(holds) };
        Ok(self.where_defined(&[s], holds))
    }

    /// Truth value `v`, said of `sets`: undefined where one of them does
    /// not exist (an index out of range), whatever `v` (`v && defined`
    /// would be false, and its negation true, where `v` is false).
    pub(super) fn where_defined(&self, sets: &[&SetVar], v: Value) -> Value {
        let zeros: Vec<(i64, Term)> = sets
            .iter()
            .flat_map(|s| s.defined.iter())
            .map(|d| (1, d.zero()))
            .collect();
        if zeros.is_empty() || matches!(v, Value::Poison) {
            return v;
        }
        let mut parts = zeros;
        parts.push((1, v.as_term().unwrap_or(Term::Const(0))));
        Value::from_formula(Formula::Cmp(
            CmpOp::Eq,
            self.linear(parts, 0),
            Term::Const(1),
        ))
    }

    /// `card(s)` of a set over variables: the number of its members.
    pub(super) fn card_of(&self, s: &SetVar) -> Value {
        let parts = s
            .members
            .iter()
            .map(|m| (1, m.as_term().unwrap_or(Term::Const(0))))
            .chain(s.defined.iter().map(|d| (1, d.zero())))
            .collect();
        Value::from_term(self.linear(parts, 0))
    }

    /// The sets of an array argument, each in explicit form, all of one kind.
    fn sets_of(&self, v: &Value, span: Span, what: &str) -> Result<Vec<SetVar>, Diag> {
        let items: Vec<Value> = match v {
            Value::Array(a) => a.items.clone(),
            _ => {
                return Err(Diag::new(
                    "cspi::type",
                    format!("{what} takes an array of sets, not {}", v.type_name()),
                )
                .label(span, "here"));
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for it in &items {
            let Some(s) = self.as_set(it, span)? else {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "{what} takes an array of sets, but it holds {}",
                        it.type_name()
                    ),
                )
                .label(span, "here"));
            };
            if let Some(first) = out.first()
                && (first as &SetVar).of_enum != s.of_enum
            {
                return Err(Diag::new(
                    "cspi::type",
                    format!("{what} takes sets of one kind: integers, or members of one enum"),
                )
                .label(span, "here"));
            }
            out.push(s);
        }
        Ok(out)
    }

    /// Every value of `sets` held by at most (`exactly`: exactly) one set,
    /// or for `exactly` with a universe, by one set when in it and none
    /// otherwise.
    fn at_most_one_each(
        &self,
        sets: &[SetVar],
        universe: Option<&SetVar>,
        span: Span,
    ) -> Result<Value, Diag> {
        let mut elems: Vec<i64> = Vec::new();
        for s in sets {
            elems = merged(&elems, &s.elems);
        }
        if let Some(u) = universe {
            elems = merged(&elems, &u.elems);
        }
        let all: Vec<&SetVar> = sets.iter().collect();
        let cover: Option<Vec<Term>> = match universe {
            None => Some(Vec::new()),
            Some(u) => elems.iter().map(|&e| u.has(e).as_term()).collect(),
        };
        if let (Some(g), Some(cover)) = (set_constraint(&all), cover)
            && universe.is_none_or(|u| u.defined.is_empty())
            && cover.iter().all(|t| t.as_const().is_some())
            && !elems.is_empty()
        {
            let mut flat = Vec::with_capacity(sets.len() * elems.len());
            for s in sets {
                if let GlobalArg::Terms(ts) = terms(s, &elems) {
                    flat.extend(ts);
                }
            }
            return Ok(g.call(
                &SetDisjointDef,
                vec![
                    GlobalArg::Terms(flat),
                    GlobalArg::Term(Term::Const(elems.len() as i64)),
                    GlobalArg::Terms(cover),
                ],
            ));
        }
        let mut parts = Vec::with_capacity(elems.len());
        for e in elems {
            let terms: Vec<(i64, Term)> = sets
                .iter()
                .map(|s| (1, s.has(e).as_term().unwrap_or(Term::Const(0))))
                .collect();
            let sum = self.linear(terms, 0);
            parts.push(match universe {
                None => Value::from_formula(fold_cmp(CmpOp::Le, sum, Term::Const(1))),
                Some(u) => {
                    // Exactly one set holds `e` when `e` is in the universe.
                    let inside = u.has(e).as_term().unwrap_or(Term::Const(0));
                    Value::from_formula(fold_cmp(CmpOp::Eq, sum, inside))
                }
            });
        }
        let holds = self.all(parts, span)?;
        let mut all: Vec<&SetVar> = sets.iter().collect();
        all.extend(universe);
        Ok(self.where_defined(&all, holds))
    }

    /// The set built-ins: `all_disjoint(S)`, `disjoint(a, b)`,
    /// `partition_set(S, universe)` (entries of `builtins::BUILTINS`;
    /// `card(s)` of a set variable is `length`'s, through [`Self::card_of`]).
    pub(super) fn set_builtin(
        &mut self,
        name: &str,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let arity = || super::builtins::wrong_count(name, args.len(), span);
        match name {
            "all_disjoint" => match args {
                [(v, s)] => self
                    .sets_of(v, *s, "all_disjoint")
                    .and_then(|sets| self.at_most_one_each(&sets, None, span)),
                _ => Err(arity()),
            },
            "disjoint" => match args {
                [(a, sa), (b, sb)] => self
                    .set_pair(BinOp::Intersect, a, b, *sa, *sb)
                    .and_then(|(x, y)| self.at_most_one_each(&[x, y], None, span)),
                _ => Err(arity()),
            },
            "partition_set" => match args {
                [(v, s), (u, su)] => (|| {
                    let sets = self.sets_of(v, *s, "partition_set")?;
                    let Some(universe) = self.as_set(u, *su)? else {
                        return Err(Diag::new(
                            "cspi::type",
                            format!(
                                "partition_set(S, universe) needs a set, not {}",
                                u.type_name()
                            ),
                        )
                        .label(*su, "here"));
                    };
                    if sets.first().is_some_and(|f| f.of_enum != universe.of_enum) {
                        return Err(Diag::new(
                            "cspi::type",
                            "the sets and the universe of partition_set hold values of different kinds",
                        )
                        .label(*su, "here"));
                    }
                    self.at_most_one_each(&sets, Some(&universe), span)
                })(),
                _ => Err(arity()),
            },
            _ => Err(super::builtins::not_in_table(name, span)),
        }
    }
}

/// The set constraints of `model/globals/sets.rs`, for sets that always
/// exist (no index that may leave its array) and all depend on variables
/// (with a constant side, the formula per value is already a unary
/// constraint per value).
struct SetConstraint;

fn set_constraint(sets: &[&SetVar]) -> Option<SetConstraint> {
    sets.iter()
        .all(|s| s.defined.is_empty() && s.members.iter().any(|m| !matches!(m, Value::Bool(_))))
        .then_some(SetConstraint)
}

impl SetConstraint {
    /// The values of the sets, merged: the positions of the constraint.
    fn universe(&self, sets: &[&SetVar]) -> Vec<i64> {
        sets.iter().fold(Vec::new(), |u, s| merged(&u, &s.elems))
    }

    fn call(&self, def: &'static dyn Global, args: Vec<GlobalArg>) -> Value {
        Value::from_formula(Formula::Global(GlobalCall { def, args }))
    }
}

/// The membership terms of `s` at the values of `universe` (0 where it
/// cannot hold the value).
fn terms(s: &SetVar, universe: &[i64]) -> GlobalArg {
    GlobalArg::Terms(
        universe
            .iter()
            .map(|&e| s.has(e).as_term().unwrap_or(Term::Const(0)))
            .collect(),
    )
}

/// The indices both sets were chosen by.
fn both_defined(x: &SetVar, y: &SetVar) -> Vec<Rc<InRange>> {
    let mut out = x.defined.clone();
    out.extend(y.defined.iter().cloned());
    out
}

/// A comparison, decided at once between constants.
fn fold_cmp(op: CmpOp, a: Term, b: Term) -> Formula {
    match (a.as_const(), b.as_const()) {
        (Some(x), Some(y)) => Formula::Const(op.holds(x, y)),
        _ => Formula::Cmp(op, a, b),
    }
}
