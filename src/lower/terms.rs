//! Auxiliary variables for sub-terms: `x * y`, `|x|`, `a[i]`, `min`, `max`,
//! `/`, `%`, `if`, each get an engine variable equal to them with the
//! propagator of that definition, so that the comparison around them becomes
//! linear. Their domains come from interval bounds of the term; wide ones are
//! held as bounds only, so no term is too wide to lower. An auxiliary
//! variable is functionally defined by its propagator: search never branches
//! on it value by value (see `engine/search.rs`).

use super::Lower;
use crate::engine::props::arith::{Abs, Element, MinMax, Times};
use crate::engine::props::ite::IfThenElse;
use crate::engine::props::table::CompactTable;
use crate::model::{CmpOp, Formula, Term, VarId};
use crate::num::product_bounds;

impl Lower<'_> {
    /// A fresh engine variable with the values `lo..=hi`. At the top level,
    /// values beyond `i64` are cut off (an overflowing term is undefined, and
    /// an undefined term makes its constraint false); inside a reified
    /// formula they must not be, so such a term is not lowered there.
    pub(super) fn aux(&mut self, lo: i128, hi: i128) -> Option<VarId> {
        let (min, max) = (i64::MIN as i128, i64::MAX as i128);
        if !self.strict && (lo < min || hi > max) {
            return None;
        }
        let (lo, hi) = (lo.max(min), hi.min(max));
        if lo > hi {
            return None;
        }
        Some(self.engine.add_range(lo as i64, hi as i64))
    }

    fn aux_values(&mut self, mut values: Vec<i64>) -> Option<VarId> {
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            return None;
        }
        Some(self.engine.add_var(&values))
    }

    /// An engine variable equal to the term.
    pub(crate) fn var_of(&mut self, t: &Term) -> Option<VarId> {
        match t {
            Term::Var(v) => Some(*v),
            Term::Const(k) => self.aux(*k as i128, *k as i128),
            Term::Linear(..) => {
                let lin = self.linear(t)?;
                self.var_of_lin(lin)
            }
            Term::Mul(a, b) => {
                let (x, y) = (self.var_of(a)?, self.var_of(b)?);
                let (lo, hi) = product_bounds(self.var_bounds(x), self.var_bounds(y));
                let z = self.aux(lo, hi)?;
                self.engine.add_prop(Box::new(Times::new(x, y, z)));
                Some(z)
            }
            Term::Abs(a) => {
                let x = self.var_of(a)?;
                let (l, h) = self.var_bounds(x);
                let z = self.aux(0, l.abs().max(h.abs()))?;
                self.engine.add_prop(Box::new(Abs::new(x, z)));
                Some(z)
            }
            Term::Element { items, index, low } => self.element(items, index, *low),
            Term::Score(v) => self.word_score(*v),
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
                let max = matches!(t, Term::Max(_));
                let xs = self.term_vars(ts)?;
                let bs: Vec<(i128, i128)> = xs.iter().map(|&x| self.var_bounds(x)).collect();
                let pick = |f: fn(i128, i128) -> i128, side: fn(&(i128, i128)) -> i128| {
                    bs.iter().map(side).reduce(f)
                };
                let (lo, hi) = if max {
                    (pick(i128::max, |b| b.0)?, pick(i128::max, |b| b.1)?)
                } else {
                    (pick(i128::min, |b| b.0)?, pick(i128::min, |b| b.1)?)
                };
                let z = self.aux(lo, hi)?;
                self.engine.add_prop(Box::new(MinMax::new(z, xs, max)));
                Some(z)
            }
            Term::Ite(f, a, e) if a.is_total() && e.is_total() => {
                // Only the chosen branch must be defined; total branches are.
                let b = self.reify(f)?;
                let (x, y) = (self.var_of(a)?, self.var_of(e)?);
                let (xl, xh) = self.var_bounds(x);
                let (yl, yh) = self.var_bounds(y);
                let z = self.aux(xl.min(yl), xh.max(yh))?;
                self.engine.add_prop(Box::new(IfThenElse::new(b, x, y, z)));
                Some(z)
            }
            Term::Ite(..) => self.generic(t),
            Term::Pow(..) | Term::Letter(..) => None,
        }
    }

    /// An engine variable for each term; `None` if one has none.
    pub(super) fn term_vars(&mut self, ts: &[Term]) -> Option<Vec<VarId>> {
        ts.iter().map(|t| self.var_of(t)).collect()
    }

    fn var_bounds(&self, x: VarId) -> (i128, i128) {
        let d = &self.engine.doms;
        (d.min(x) as i128, d.max(x) as i128)
    }

    /// `z = t`, propagated by evaluation (forward checking). Inside a reified
    /// formula only for terms that are defined everywhere.
    fn generic(&mut self, t: &Term) -> Option<VarId> {
        if !self.strict && !t.is_total() {
            return None;
        }
        let (lo, hi) = self.bounds(t)?;
        let z = self.aux(lo, hi)?;
        self.fallback(Formula::Cmp(CmpOp::Eq, Term::Var(z), t.clone()));
        Some(z)
    }

    /// `items[index]`: a binary table `(index, z)` when the items are
    /// constants, the element propagator when they are variables.
    fn element(&mut self, items: &[Term], index: &Term, low: i64) -> Option<VarId> {
        if let Some(z) = self.element_2d(items, index, low) {
            return z;
        }
        // An index `x + c` is `x` into the items shifted by `c`: no variable for the sum.
        let (i, low) = match self.linear(index)? {
            (coefs, c) if matches!(coefs.as_slice(), [(1, _)]) => {
                (coefs[0].1, low.checked_sub(i64::try_from(c).ok()?)?)
            }
            lin => (self.var_of_lin(lin)?, low),
        };
        let high = low.checked_add(items.len() as i64 - 1)?;
        let d = &self.engine.doms;
        // Out-of-range indices are undefined: at the top level the
        // propagators remove them (the constraint is false there).
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
            let vars = self.term_vars(items)?;
            let d = &self.engine.doms;
            let lo = vars.iter().map(|&x| d.min(x)).min()?;
            let hi = vars.iter().map(|&x| d.max(x)).max()?;
            let z = self.aux(lo as i128, hi as i128)?;
            let e = Element::new(&self.engine.doms, i, z, vars, low);
            self.engine.add_prop(Box::new(e));
            return Some(z);
        };
        let d = &self.engine.doms;
        let tuples: Vec<Vec<i64>> = (low.max(d.min(i))..=high.min(d.max(i)))
            .filter(|&v| d.contains(i, v))
            .map(|v| vec![v, consts[(v - low) as usize]])
            .collect();
        let z = self.aux_values(tuples.iter().map(|t| t[1]).collect())?;
        let p = CompactTable::new(&mut self.engine.doms, vec![i, z], &tuples, true)?;
        self.engine.add_prop(Box::new(p));
        Some(z)
    }

    /// Interval bounds of a term under the current domains.
    pub(super) fn bounds(&self, t: &Term) -> Option<(i128, i128)> {
        let hull = |ts: &[Term]| -> Option<Vec<(i128, i128)>> {
            ts.iter().map(|u| self.bounds(u)).collect()
        };
        Some(match t {
            Term::Const(k) => (*k as i128, *k as i128),
            Term::Var(v) => self.var_bounds(*v),
            Term::Linear(parts, k) => {
                let (mut lo, mut hi) = (*k as i128, *k as i128);
                for (a, u) in parts {
                    let (l, h) = self.bounds(u)?;
                    let (l, h) = (l.checked_mul(*a as i128)?, h.checked_mul(*a as i128)?);
                    lo = lo.checked_add(l.min(h))?;
                    hi = hi.checked_add(l.max(h))?;
                }
                (lo, hi)
            }
            Term::Mul(a, b) => {
                let ((al, ah), (bl, bh)) = (self.bounds(a)?, self.bounds(b)?);
                let p = [
                    al.checked_mul(bl)?,
                    al.checked_mul(bh)?,
                    ah.checked_mul(bl)?,
                    ah.checked_mul(bh)?,
                ];
                (*p.iter().min()?, *p.iter().max()?)
            }
            Term::Div(a, b) => {
                let (l, h) = self.bounds(a)?;
                match self.bounds(b) {
                    // Rounding toward zero is monotone in each argument while
                    // the divisor keeps its sign: the corners bound it.
                    Some((bl, bh)) if bl > 0 || bh < 0 => {
                        let q = [l / bl, l / bh, h / bl, h / bh];
                        (*q.iter().min()?, *q.iter().max()?)
                    }
                    _ => {
                        let m = l.abs().max(h.abs());
                        (-m, m)
                    }
                }
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
            Term::Score(v) => {
                let crate::model::VarKind::Word(list) = &self.model.vars[*v].kind else {
                    return None;
                };
                let (l, h) =
                    list.score_range(self.engine.doms.min(*v), self.engine.doms.max(*v))?;
                (l as i128, h as i128)
            }
            Term::Pow(..) | Term::Letter(..) => return None,
        })
    }
}
