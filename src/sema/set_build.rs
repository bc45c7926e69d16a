//! Sets built from other values: set comprehensions `{ e | i in S where c }`
//! and an array of sets indexed by a variable, `c[i]`. Both give a set over
//! variables in the 0/1 form of `sets.rs` (one truth value per value it may
//! hold), or a constant set when nothing depends on variables.

use super::sets::{InRange, SetVar};
use super::value::{Array, IntSet, Value};
use super::{Checker, MAX_DOMAIN};
use crate::diag::Diag;
use crate::model::{CmpOp, EnumType, Formula, Term};
use crate::syntax::ast::{BinOp, Expr, Generators, Span};
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;

/// An item of a set comprehension: a constant, or an integer term with its bounds.
enum Item {
    Const(i64),
    Term(Term, i64, i64),
}

impl Checker<'_> {
    /// `{ e | generators }`: the values of `e` over the bindings that count.
    /// With a set variable among the generators, a `where` over variables,
    /// or `e` over variables, value `v` is in the set when some binding
    /// that counts has `e == v`.
    pub(super) fn set_comprehension(
        &mut self,
        body: &Expr,
        gens: &Generators,
    ) -> Result<Value, Diag> {
        let items = self.guarded_comprehension(gens, body)?;
        let mut of: Option<Option<Arc<EnumType>>> = None;
        let mut parts: Vec<(Value, Item)> = Vec::with_capacity(items.len());
        for (guard, v) in items {
            let en = match &v {
                Value::Poison => return Ok(Value::Poison),
                Value::Int(_) | Value::Term(_) => v.enum_type(&self.model),
                Value::Enum(e, _) => Some(e.clone()),
                other => {
                    return Err(Diag::new(
                        "cspi::type",
                        format!(
                            "a set holds integers or enum values, not {}",
                            other.type_name()
                        ),
                    )
                    .label(body.span, "each item of this set")
                    .help("a set comprehension `{ e | ... }` collects integers or enum members; sets of sets are not supported"));
                }
            };
            match &of {
                Some(prev) if *prev != en => {
                    return Err(Diag::new(
                        "cspi::type",
                        "a set holds integers or members of one enum, not both",
                    )
                    .label(body.span, "items of two kinds"));
                }
                _ => of = Some(en),
            }
            let item = match v {
                Value::Int(k) | Value::Enum(_, k) => Item::Const(k),
                v => {
                    let t = v.as_term().unwrap_or(Term::Const(0));
                    let (lo, hi) = super::range::bounds(&t, &self.model).map_err(|_| {
                        Diag::new("cspi::set::too_large", "this item's values are unbounded")
                            .label(body.span, "here")
                    })?;
                    if hi - lo >= MAX_DOMAIN as i128 {
                        return Err(too_many(hi - lo + 1, body.span));
                    }
                    Item::Term(t, lo as i64, hi as i64)
                }
            };
            parts.push((guard.map_or(Value::Bool(true), |g| g.0), item));
        }
        let of_enum = of.flatten();
        // Nothing over variables: a constant set.
        if parts
            .iter()
            .all(|(g, i)| matches!(g, Value::Bool(true)) && matches!(i, Item::Const(_)))
        {
            let vals = parts
                .iter()
                .filter_map(|(_, i)| match i {
                    Item::Const(k) => Some(*k),
                    Item::Term(..) => None,
                })
                .collect();
            let set = IntSet::from_values(vals);
            return Ok(match of_enum {
                Some(e) => Value::EnumSet(e, set),
                None => Value::Set(set),
            });
        }
        let mut universe = BTreeSet::new();
        for (g, item) in &parts {
            if matches!(g, Value::Bool(false)) {
                continue;
            }
            match item {
                Item::Const(k) => {
                    universe.insert(*k);
                }
                Item::Term(_, lo, hi) => universe.extend(*lo..=*hi),
            }
            if universe.len() as u64 > MAX_DOMAIN {
                return Err(too_many(universe.len() as i128, body.span));
            }
        }
        let elems: Vec<i64> = universe.into_iter().collect();
        self.spend(
            (elems.len() as u64).saturating_mul(parts.len() as u64),
            body.span,
        )?;
        let mut members = Vec::with_capacity(elems.len());
        for &e in &elems {
            let mut member = Value::Bool(false);
            for (g, item) in &parts {
                let is_e = match item {
                    Item::Const(k) => Value::Bool(*k == e),
                    Item::Term(_, lo, hi) if e < *lo || e > *hi => Value::Bool(false),
                    Item::Term(t, ..) => {
                        Value::from_formula(Formula::Cmp(CmpOp::Eq, t.clone(), Term::Const(e)))
                    }
                };
                let span = body.span;
                let here =
                    super::logic::connective(BinOp::And, g.clone(), is_e, span, self.as_written)?;
                member = super::logic::connective(BinOp::Or, member, here, span, self.as_written)?;
            }
            members.push(member);
        }
        Ok(SetVar {
            elems,
            members,
            of_enum,
            defined: Vec::new(),
            built: None,
        }
        .into_value())
    }

    /// `c[i]` or `c[r, k]` of an array of sets (constant or over variables)
    /// with variable indices: value `v` is in it when it is in the set the
    /// indices choose, an element over the memberships of `v` in each set
    /// (MiniZinc's `array_var_set_element` in its `nosets` form). An index
    /// that may leave the array makes the set undefined there (`InRange`).
    /// `None` when the array does not hold sets.
    pub(super) fn set_element(
        &mut self,
        a: &Array,
        indices: &[(Term, Span)],
        span: Span,
    ) -> Result<Option<Value>, Diag> {
        if a.items.is_empty()
            || !a
                .items
                .iter()
                .any(|v| matches!(v, Value::SetVar(_) | Value::Set(_) | Value::EnumSet(..)))
        {
            return Ok(None);
        }
        let mut sets = Vec::with_capacity(a.items.len());
        for it in &a.items {
            let Some(s) = self.as_set(it, span)? else {
                return Ok(None);
            };
            if let Some(first) = sets.first()
                && (first as &SetVar).of_enum != s.of_enum
            {
                return Err(Diag::new(
                    "cspi::type",
                    "the sets of this array hold values of different kinds",
                )
                .label(span, "here")
                .help("indexing with a variable chooses among sets of one kind: integers, or members of one enum"));
            }
            sets.push(s);
        }
        // The position in the flattened array, from 0, and the ranges the
        // indices must lie in.
        let mut defined: Vec<Rc<InRange>> = Vec::new();
        let mut flat: Vec<(i64, Term)> = Vec::new();
        let mut offset = 0i64;
        let mut stride = 1i64;
        for (d, (index, _)) in indices.iter().enumerate().rev() {
            let (lo, hi) = a.dims[d];
            let len = (hi - lo + 1).max(0);
            let (blo, bhi) = super::range::bounds(index, &self.model).unwrap_or((i128::MIN, 0));
            if blo < lo as i128 || bhi > hi as i128 {
                defined.push(Rc::new(InRange {
                    index: index.clone(),
                    low: lo,
                    len: len as usize,
                }));
            }
            flat.push((stride, index.clone()));
            offset -= stride * lo;
            stride *= len;
        }
        let position = self.linear(flat, offset);
        for s in &sets {
            defined.extend(s.defined.iter().cloned());
        }
        let mut universe = BTreeSet::new();
        for s in &sets {
            universe.extend(s.elems.iter().copied());
        }
        if universe.len() as u64 > MAX_DOMAIN {
            return Err(too_many(universe.len() as i128, span));
        }
        let elems: Vec<i64> = universe.into_iter().collect();
        self.spend((elems.len() as u64).saturating_mul(sets.len() as u64), span)?;
        let members = elems
            .iter()
            .map(|&e| {
                let items: Vec<Term> = sets
                    .iter()
                    .map(|s| s.has(e).as_term().unwrap_or(Term::Const(0)))
                    .collect();
                // The same in every set: no choice to make (the index's
                // range is kept by `defined`).
                match items.first().and_then(Term::as_const) {
                    Some(k) if items.iter().all(|t| t.as_const() == Some(k)) => Value::Bool(k == 1),
                    _ => Value::BoolTerm(Rc::new(Term::Element {
                        items,
                        index: Box::new(position.clone()),
                        low: 0,
                    })),
                }
            })
            .collect();
        Ok(Some(
            SetVar {
                elems,
                members,
                of_enum: sets[0].of_enum.clone(),
                defined,
                built: None,
            }
            .into_value(),
        ))
    }
}

fn too_many(n: i128, span: Span) -> Diag {
    Diag::new(
        "cspi::set::too_large",
        format!("this set may hold {n} values, one variable each"),
    )
    .label(span, "here")
    .help(format!(
        "a set over variables takes one 0/1 variable per value it may hold, at most {MAX_DOMAIN}"
    ))
}
