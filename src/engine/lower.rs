//! Lowering of formulas and terms to propagators, introducing auxiliary
//! engine variables for sub-terms: `x * y`, `|x|`, `a[i]`, `min`, `max`,
//! `/`, `%` each get a variable equal to them, so that the comparison around
//! them becomes linear; sub-formulas of `||`, `->`, `!` and truth values used
//! as numbers (`count`) get a 0/1 variable reified by [`ReifLinear`].
//!
//! Auxiliary variables exist only in the engine (ids after the model's), so
//! they are never counted or printed. Their domains come from interval bounds
//! of the term; a term whose bounds are unknown or too wide is not lowered and
//! its formula falls back to [`FormulaProp`], which is always correct.
//!
//! Undefined terms (an index out of range, a zero divisor) make a formula
//! false. At the top level of a constraint that removes the offending values;
//! inside a reified sub-formula it must not, so there such terms are lowered
//! only when they are always defined.

use super::Engine;
use super::props::arith::{Abs, Element, MinMax, Times};
use super::props::formula::FormulaProp;
use super::props::linear::{LinOp, Linear};
use super::props::reif::ReifLinear;
use super::props::table::CompactTable;
use super::props::wordcross::{IndexCache, LetterIndex, WordCross};
use crate::model::{CmpOp, Formula, Model, Term, VarId, VarKind};
use std::sync::Arc;

/// The widest domain of an auxiliary variable.
const MAX_AUX_SPAN: i128 = 1 << 22;

/// Linear constraints with this many terms keep their bounds incrementally.
const KEEP_SUMS_FROM: usize = 32;

/// The most memory one table propagator's support bitsets may take.
const MAX_TABLE_BYTES: u128 = 1 << 30;

type Lin = (Vec<(i64, VarId)>, i64);

pub struct Lower<'a> {
    pub engine: &'a mut Engine,
    pub model: &'a Arc<Model>,
    /// True while lowering a top-level constraint (undefined terms may prune).
    strict: bool,
    /// Letter-support bitsets, shared by every word variable of a list.
    letters: IndexCache,
}

impl<'a> Lower<'a> {
    pub fn new(engine: &'a mut Engine, model: &'a Arc<Model>) -> Self {
        Lower {
            engine,
            model,
            strict: true,
            letters: IndexCache::new(),
        }
    }

    /// Posts a top-level constraint.
    pub fn post(&mut self, f: &Formula) {
        self.strict = true;
        if self.try_post(f).is_none() {
            self.fallback(f.clone());
        }
    }

    fn fallback(&mut self, f: Formula) {
        self.engine
            .add_prop(Box::new(FormulaProp::new(f, self.model.clone())));
    }

    fn try_post(&mut self, f: &Formula) -> Option<()> {
        match f {
            Formula::Const(true) => Some(()),
            Formula::Const(false) => None,
            // Word intersection: `a[i] == b[j]` on two word variables.
            Formula::Cmp(CmpOp::Eq, Term::Letter(a, i), Term::Letter(b, j)) if a != b => {
                let (VarKind::Word(la), VarKind::Word(lb)) =
                    (&self.model.vars[*a].kind, &self.model.vars[*b].kind)
                else {
                    return None;
                };
                let ia = LetterIndex::shared(&mut self.letters, la, *i, &self.engine.doms, *a);
                let ib = LetterIndex::shared(&mut self.letters, lb, *j, &self.engine.doms, *b);
                self.engine
                    .add_prop(Box::new(WordCross::new(*a, ia, *b, ib)));
                Some(())
            }
            Formula::Cmp(op, a, b) => {
                let (coefs, k) = self.linear(&difference(a, b))?;
                if !self.lin_fits(&coefs, k) {
                    return None;
                }
                self.post_linear(coefs, k, *op);
                Some(())
            }
            Formula::AllDifferent(terms) => {
                let mut pairs = Vec::with_capacity(terms.len());
                for t in terms {
                    let (coefs, k) = self.linear(t)?;
                    let v = match coefs.as_slice() {
                        [(1, v)] => *v,
                        _ => self.var_of_lin((coefs, 0))?,
                    };
                    pairs.push((v, k));
                }
                // Under `ac` all-different uses Régin's matching-based GAC.
                let gac = self.engine.level == crate::model::Propagation::Ac;
                self.engine
                    .add_prop(Box::new(super::props::alldiff::AllDifferent::new(
                        pairs, gac,
                    )));
                Some(())
            }
            Formula::Table {
                terms,
                tuples,
                allowed,
            } => {
                let vars = terms
                    .iter()
                    .map(|t| self.var_of(t))
                    .collect::<Option<Vec<_>>>()?;
                // Compact-Table's support bitsets take (domain span) × rows bits per
                // variable: beyond the budget the table is checked by evaluation.
                let words = tuples.len().div_ceil(64) as u128;
                let bytes: u128 = vars
                    .iter()
                    .map(|&v| self.engine.doms.bits(v).len() as u128 * 64 * words * 8)
                    .sum();
                if bytes > MAX_TABLE_BYTES {
                    return None;
                }
                let p = CompactTable::new(&mut self.engine.doms, vars, tuples, *allowed);
                self.engine.add_prop(Box::new(p));
                Some(())
            }
            Formula::And(parts) => {
                for p in parts {
                    self.post(p);
                }
                Some(())
            }
            Formula::Or(parts) => {
                self.strict = false;
                let bs = parts
                    .iter()
                    .map(|p| self.reify(p))
                    .collect::<Option<Vec<_>>>()?;
                // sum(b) >= 1
                self.post_linear(bs.iter().map(|&b| (-1, b)).collect(), 1, CmpOp::Le);
                Some(())
            }
            Formula::Implies(p, q) => {
                self.strict = false;
                let (bp, bq) = (self.reify(p)?, self.reify(q)?);
                self.post_linear(vec![(1, bp), (-1, bq)], 0, CmpOp::Le);
                Some(())
            }
            Formula::Not(g) => {
                self.strict = false;
                let b = self.reify(g)?;
                self.post_linear(vec![(1, b)], 0, CmpOp::Eq);
                Some(())
            }
        }
    }

    /// Posts `sum(coefs) + k  op  0`.
    pub fn post_linear(&mut self, coefs: Vec<(i64, VarId)>, k: i64, op: CmpOp) {
        // Keeping sums needs each variable once: merged terms have that.
        let merged = (coefs.len() >= KEEP_SUMS_FROM)
            .then(|| merge_terms(&coefs))
            .flatten();
        let keep = merged.is_some();
        let (t, _) = linear_pair(merged.unwrap_or(coefs), k, op);
        let t = if keep {
            t.keep_sums(&mut self.engine.doms)
        } else {
            t
        };
        self.engine.add_prop(Box::new(t));
    }

    /// The term as a linear expression over engine variables.
    fn linear(&mut self, t: &Term) -> Option<Lin> {
        let mut terms = Vec::new();
        let mut k = 0i64;
        self.add_linear(t, 1, &mut terms, &mut k)?;
        Some((merge_terms(&terms)?, k))
    }

    fn add_linear(
        &mut self,
        t: &Term,
        scale: i64,
        coefs: &mut Vec<(i64, VarId)>,
        k: &mut i64,
    ) -> Option<()> {
        match t {
            Term::Const(c) => *k = k.checked_add(scale.checked_mul(*c)?)?,
            Term::Linear(parts, c) => {
                *k = k.checked_add(scale.checked_mul(*c)?)?;
                for (a, u) in parts {
                    self.add_linear(u, scale.checked_mul(*a)?, coefs, k)?;
                }
            }
            _ => {
                let v = self.var_of(t)?;
                coefs.push((scale, v));
            }
        }
        Some(())
    }

    /// A fresh engine variable with the values `lo..=hi`.
    fn aux(&mut self, lo: i128, hi: i128) -> Option<VarId> {
        if lo > hi
            || hi - lo >= MAX_AUX_SPAN
            || lo < i64::MIN as i128 / 4
            || hi > i64::MAX as i128 / 4
        {
            return None;
        }
        let values: Vec<i64> = (lo as i64..=hi as i64).collect();
        Some(self.engine.add_var(&values))
    }

    fn aux_values(&mut self, mut values: Vec<i64>) -> Option<VarId> {
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            return None;
        }
        Some(self.engine.add_var(&values))
    }

    /// A variable equal to the linear expression.
    fn var_of_lin(&mut self, (coefs, k): Lin) -> Option<VarId> {
        if let [(1, v)] = coefs.as_slice()
            && k == 0
        {
            return Some(*v);
        }
        if !self.lin_fits(&coefs, k) {
            return None;
        }
        let (lo, hi) = self.lin_bounds(&coefs, k);
        let z = self.aux(lo, hi)?;
        let mut c = coefs;
        c.push((-1, z));
        self.post_linear(c, k, CmpOp::Eq);
        Some(z)
    }

    /// Whether every partial sum of the expression fits comfortably in an
    /// i128, the width the linear propagators compute in; a sum that might
    /// not is left to the generic propagator, which checks every operation.
    fn lin_fits(&self, coefs: &[(i64, VarId)], k: i64) -> bool {
        let d = &self.engine.doms;
        let mut total = u128::from(k.unsigned_abs());
        for &(a, x) in coefs {
            let m = d.min(x).unsigned_abs().max(d.max(x).unsigned_abs());
            total = total.saturating_add(u128::from(a.unsigned_abs()) * u128::from(m));
        }
        total < 1 << 120
    }

    fn lin_bounds(&self, coefs: &[(i64, VarId)], k: i64) -> (i128, i128) {
        let d = &self.engine.doms;
        let (mut lo, mut hi) = (k as i128, k as i128);
        for &(a, x) in coefs {
            let (l, h) = (a as i128 * d.min(x) as i128, a as i128 * d.max(x) as i128);
            lo += l.min(h);
            hi += l.max(h);
        }
        (lo, hi)
    }

    /// An engine variable equal to the term.
    pub fn var_of(&mut self, t: &Term) -> Option<VarId> {
        match t {
            Term::Var(v) => Some(*v),
            Term::Const(k) => self.aux(*k as i128, *k as i128),
            Term::Linear(..) => {
                let lin = self.linear(t)?;
                self.var_of_lin(lin)
            }
            Term::Mul(a, b) => {
                let (x, y) = (self.var_of(a)?, self.var_of(b)?);
                let d = &self.engine.doms;
                let p = [
                    d.min(x) as i128 * d.min(y) as i128,
                    d.min(x) as i128 * d.max(y) as i128,
                    d.max(x) as i128 * d.min(y) as i128,
                    d.max(x) as i128 * d.max(y) as i128,
                ];
                let z = self.aux(*p.iter().min()?, *p.iter().max()?)?;
                self.engine.add_prop(Box::new(Times::new(x, y, z)));
                Some(z)
            }
            Term::Abs(a) => {
                let x = self.var_of(a)?;
                let d = &self.engine.doms;
                let m = (d.min(x) as i128).abs().max((d.max(x) as i128).abs());
                let z = self.aux(0, m)?;
                self.engine.add_prop(Box::new(Abs::new(x, z)));
                Some(z)
            }
            Term::Element { items, index, low } => self.element(items, index, *low),
            Term::Ite(f, a, b) if **a == Term::Const(1) && **b == Term::Const(0) => self.reify(f),
            Term::Div(_, y) | Term::Mod(_, y) => {
                if !self.strict {
                    let (l, h) = self.bounds(y)?;
                    if l <= 0 && 0 <= h {
                        return None;
                    }
                }
                self.generic(t)
            }
            Term::Min(ts) | Term::Max(ts) => {
                let xs = ts
                    .iter()
                    .map(|u| self.var_of(u))
                    .collect::<Option<Vec<_>>>()?;
                let d = &self.engine.doms;
                let (lo, hi) = if matches!(t, Term::Max(_)) {
                    (
                        xs.iter().map(|&x| d.min(x)).max()?,
                        xs.iter().map(|&x| d.max(x)).max()?,
                    )
                } else {
                    (
                        xs.iter().map(|&x| d.min(x)).min()?,
                        xs.iter().map(|&x| d.max(x)).min()?,
                    )
                };
                let z = self.aux(lo as i128, hi as i128)?;
                self.engine
                    .add_prop(Box::new(MinMax::new(z, xs, matches!(t, Term::Max(_)))));
                Some(z)
            }
            Term::Ite(..) => self.generic(t),
            Term::Pow(..) | Term::Letter(..) => None,
        }
    }

    /// `z = t`, propagated by evaluation (forward checking). Inside a reified
    /// formula only for terms that are defined everywhere.
    fn generic(&mut self, t: &Term) -> Option<VarId> {
        if !self.strict && !total(t) {
            return None;
        }
        let (lo, hi) = self.bounds(t)?;
        let z = self.aux(lo, hi)?;
        self.fallback(Formula::Cmp(CmpOp::Eq, Term::Var(z), t.clone()));
        Some(z)
    }

    /// `items[index]`: a binary table `(index, z)` when the items are constants.
    fn element(&mut self, items: &[Term], index: &Term, low: i64) -> Option<VarId> {
        // An index `x + c` is `x` into the items shifted by `c`: no variable for the sum.
        let (i, low) = match self.linear(index)? {
            (coefs, c) if matches!(coefs.as_slice(), [(1, _)]) => (coefs[0].1, low.checked_sub(c)?),
            lin => (self.var_of_lin(lin)?, low),
        };
        let high = low.checked_add(items.len() as i64 - 1)?;
        let d = &self.engine.doms;
        if !self.strict && (d.min(i) < low || d.max(i) > high) {
            return None;
        }
        let consts: Option<Vec<i64>> = items.iter().map(Term::as_const).collect();
        let Some(consts) = consts else {
            // Each item lowered strictly would prune its own undefined values,
            // though only the selected item has to be defined.
            if !items.iter().all(Term::is_total) {
                return None;
            }
            let vars = items
                .iter()
                .map(|t| self.var_of(t))
                .collect::<Option<Vec<_>>>()?;
            let d = &self.engine.doms;
            let lo = vars.iter().map(|&x| d.min(x)).min()?;
            let hi = vars.iter().map(|&x| d.max(x)).max()?;
            let z = self.aux(lo as i128, hi as i128)?;
            self.engine
                .add_prop(Box::new(Element::new(i, z, vars, low)));
            return Some(z);
        };
        let tuples: Vec<Vec<i64>> = self
            .engine
            .doms
            .values(i)
            .filter(|&v| v >= low && v <= high)
            .map(|v| vec![v, consts[(v - low) as usize]])
            .collect();
        let z = self.aux_values(tuples.iter().map(|t| t[1]).collect())?;
        let p = CompactTable::new(&mut self.engine.doms, vec![i, z], &tuples, true);
        self.engine.add_prop(Box::new(p));
        Some(z)
    }

    /// A 0/1 variable equal to the truth of `f`. Inside it undefined terms
    /// must not prune: a false premise makes an implication true whatever
    /// its conclusion.
    pub fn reify(&mut self, f: &Formula) -> Option<VarId> {
        let strict = std::mem::replace(&mut self.strict, false);
        let b = self.reify_in(f);
        self.strict = strict;
        b
    }

    fn reify_in(&mut self, f: &Formula) -> Option<VarId> {
        match f {
            Formula::Const(b) => self.aux(i128::from(*b), i128::from(*b)),
            Formula::Cmp(op, a, c) => {
                let (coefs, k) = self.linear(&difference(a, c))?;
                if !self.lin_fits(&coefs, k) {
                    return None;
                }
                let b = self.aux(0, 1)?;
                let (t, e) = linear_pair(coefs, k, *op);
                self.engine.add_prop(Box::new(ReifLinear::new(b, t, e)));
                Some(b)
            }
            Formula::Not(g) => {
                let bg = self.reify(g)?;
                let b = self.aux(0, 1)?;
                self.post_linear(vec![(1, b), (1, bg)], -1, CmpOp::Eq);
                Some(b)
            }
            Formula::And(parts) | Formula::Or(parts) => {
                let and = matches!(f, Formula::And(_));
                let bs = parts
                    .iter()
                    .map(|p| self.reify(p))
                    .collect::<Option<Vec<_>>>()?;
                let b = self.aux(0, 1)?;
                let n = bs.len() as i64;
                let mut sum: Vec<(i64, VarId)> = bs.iter().map(|&x| (1, x)).collect();
                if and {
                    // b <= each; sum - b <= n - 1
                    for &x in &bs {
                        self.post_linear(vec![(1, b), (-1, x)], 0, CmpOp::Le);
                    }
                    sum.push((-1, b));
                    self.post_linear(sum, -(n - 1), CmpOp::Le);
                } else {
                    // each <= b; b <= sum
                    for &x in &bs {
                        self.post_linear(vec![(1, x), (-1, b)], 0, CmpOp::Le);
                    }
                    let mut neg: Vec<(i64, VarId)> = bs.iter().map(|&x| (-1, x)).collect();
                    neg.push((1, b));
                    self.post_linear(neg, 0, CmpOp::Le);
                }
                Some(b)
            }
            Formula::Implies(p, q) => {
                self.reify(&Formula::Or(vec![Formula::Not(p.clone()), (**q).clone()]))
            }
            Formula::AllDifferent(_) | Formula::Table { .. } => {
                let b = self.aux(0, 1)?;
                let t = Term::Ite(
                    Box::new(f.clone()),
                    Box::new(Term::Const(1)),
                    Box::new(Term::Const(0)),
                );
                self.fallback(Formula::Cmp(CmpOp::Eq, Term::Var(b), t));
                Some(b)
            }
        }
    }

    /// A variable equal to the objective term, if it can be lowered.
    pub fn objective_var(&mut self, t: &Term) -> Option<VarId> {
        self.strict = true;
        self.var_of(t)
    }

    /// Interval bounds of a term under the current domains.
    fn bounds(&self, t: &Term) -> Option<(i128, i128)> {
        let d = &self.engine.doms;
        let hull = |ts: &[Term]| -> Option<Vec<(i128, i128)>> {
            ts.iter().map(|u| self.bounds(u)).collect()
        };
        Some(match t {
            Term::Const(k) => (*k as i128, *k as i128),
            Term::Var(v) => (d.min(*v) as i128, d.max(*v) as i128),
            Term::Linear(parts, k) => {
                let (mut lo, mut hi) = (*k as i128, *k as i128);
                for (a, u) in parts {
                    let (l, h) = self.bounds(u)?;
                    let (l, h) = (l * *a as i128, h * *a as i128);
                    lo += l.min(h);
                    hi += l.max(h);
                }
                (lo, hi)
            }
            Term::Mul(a, b) => {
                let ((al, ah), (bl, bh)) = (self.bounds(a)?, self.bounds(b)?);
                let p = [al * bl, al * bh, ah * bl, ah * bh];
                (*p.iter().min()?, *p.iter().max()?)
            }
            Term::Div(a, _) => {
                let (l, h) = self.bounds(a)?;
                let m = l.abs().max(h.abs());
                (-m, m)
            }
            Term::Mod(a, b) => {
                let ((al, ah), (bl, bh)) = (self.bounds(a)?, self.bounds(b)?);
                let m = (bl.abs().max(bh.abs()) - 1).max(0);
                (if al >= 0 { 0 } else { -m }, if ah <= 0 { 0 } else { m })
            }
            Term::Abs(a) => {
                let (l, h) = self.bounds(a)?;
                let lo = if l <= 0 && 0 <= h {
                    0
                } else {
                    l.abs().min(h.abs())
                };
                (lo, l.abs().max(h.abs()))
            }
            Term::Min(ts) => {
                let bs = hull(ts)?;
                (bs.iter().map(|b| b.0).min()?, bs.iter().map(|b| b.1).min()?)
            }
            Term::Max(ts) => {
                let bs = hull(ts)?;
                (bs.iter().map(|b| b.0).max()?, bs.iter().map(|b| b.1).max()?)
            }
            Term::Element { items, .. } => {
                let bs = hull(items)?;
                (bs.iter().map(|b| b.0).min()?, bs.iter().map(|b| b.1).max()?)
            }
            Term::Ite(_, a, b) => {
                let ((al, ah), (bl, bh)) = (self.bounds(a)?, self.bounds(b)?);
                (al.min(bl), ah.max(bh))
            }
            Term::Pow(..) | Term::Letter(..) => return None,
        })
    }
}

/// True when the term is defined for every assignment (conservatively: no
/// element, division, remainder or power anywhere in it).
fn total(t: &Term) -> bool {
    match t {
        Term::Const(_) | Term::Var(_) => true,
        Term::Linear(parts, _) => parts.iter().all(|(_, u)| total(u)),
        Term::Mul(a, b) => total(a) && total(b),
        Term::Abs(a) => total(a),
        Term::Min(ts) | Term::Max(ts) => ts.iter().all(total),
        Term::Ite(f, a, b) => total_formula(f) && total(a) && total(b),
        Term::Element { .. } | Term::Div(..) | Term::Mod(..) | Term::Pow(..) | Term::Letter(..) => {
            false
        }
    }
}

fn total_formula(f: &Formula) -> bool {
    match f {
        Formula::Const(_) => true,
        Formula::Cmp(_, a, b) => total(a) && total(b),
        Formula::AllDifferent(ts) | Formula::Table { terms: ts, .. } => ts.iter().all(total),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().all(total_formula),
        Formula::Not(g) => total_formula(g),
        Formula::Implies(p, q) => total_formula(p) && total_formula(q),
    }
}

/// `a - b`.
fn difference(a: &Term, b: &Term) -> Term {
    Term::Linear(vec![(1, a.clone()), (-1, b.clone())], 0)
}

/// `sum + k op 0` and its negation, as linear propagators.
/// Adds up the coefficients of repeated variables (first occurrence order)
/// and drops the zeros; `None` on overflow. Linear in the number of terms,
/// so a sum over a million variables costs no more than reading it.
fn merge_terms(terms: &[(i64, VarId)]) -> Option<Vec<(i64, VarId)>> {
    // Sums over an array list its variables in increasing order: distinct
    // already, no hashing needed (and merged sums come back here when posted).
    if terms.windows(2).all(|w| w[0].1 < w[1].1) {
        return Some(terms.iter().copied().filter(|&(c, _)| c != 0).collect());
    }
    let mut at: std::collections::HashMap<VarId, usize> = Default::default();
    let mut merged: Vec<(i64, VarId)> = Vec::with_capacity(terms.len());
    for &(a, v) in terms {
        match at.entry(v) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let c = &mut merged[*e.get()].0;
                *c = c.checked_add(a)?;
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(merged.len());
                merged.push((a, v));
            }
        }
    }
    merged.retain(|&(c, _)| c != 0);
    Some(merged)
}

fn linear_pair(coefs: Vec<(i64, VarId)>, k: i64, op: CmpOp) -> (Linear, Linear) {
    let neg: Vec<(i64, VarId)> = coefs.iter().map(|&(c, v)| (-c, v)).collect();
    let le = |c: Vec<(i64, VarId)>, k: i64| Linear::new(c, k, LinOp::Le);
    match op {
        CmpOp::Le => (le(coefs, k), le(neg, (-k).saturating_add(1))),
        CmpOp::Lt => (le(coefs, k.saturating_add(1)), le(neg, -k)),
        CmpOp::Ge => (le(neg, -k), le(coefs, k.saturating_add(1))),
        CmpOp::Gt => (le(neg, (-k).saturating_add(1)), le(coefs, k)),
        CmpOp::Eq => (
            Linear::new(coefs.clone(), k, LinOp::Eq),
            Linear::new(coefs, k, LinOp::Ne),
        ),
        CmpOp::Ne => (
            Linear::new(coefs.clone(), k, LinOp::Ne),
            Linear::new(coefs, k, LinOp::Eq),
        ),
    }
}
