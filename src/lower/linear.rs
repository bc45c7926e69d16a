//! Linear expressions over engine variables: building them from terms,
//! merging repeated variables, their bounds, and posting comparisons as
//! [`Linear`] propagators.

use super::Lower;
use crate::engine::props::count_eq::CountEq;
use crate::engine::props::gcc::GlobalCardinality;
use crate::engine::props::linear::{LinOp, Linear};
use crate::model::{CmpOp, Formula, Term, VarId};
use std::collections::HashMap;

/// `sum(coef * var) + constant`, each variable once; the constant is wide,
/// as folded sums of wide values may need (`6 * (t - 1.7e18)`).
pub(super) type Lin = (Vec<(i64, VarId)>, i128);

/// Sums with this many `x == v` terms (one coefficient, one constant `v`)
/// count them with one [`CountEq`] propagator instead of one reified
/// equality each.
const COUNT_FROM: usize = 3;

/// Linear constraints with this many terms keep their bounds incrementally.
const KEEP_SUMS_FROM: usize = 32;

impl Lower<'_> {
    /// Posts the counts gathered while lowering: those over the same terms
    /// (the `count(j in J: x[j] == i)` of a magic sequence, one per `i`)
    /// as one [`GlobalCardinality`] over their values, which keeps each
    /// term's counted values instead of telling every count of every
    /// change; a count alone as a [`CountEq`].
    pub(super) fn post_counts(&mut self) {
        let mut groups: Vec<(Vec<VarId>, Vec<i64>, Vec<VarId>)> = Vec::new();
        let mut index: HashMap<Vec<VarId>, usize> = HashMap::new();
        for (xs, v, c) in std::mem::take(&mut self.counts) {
            let g = match index.get(&xs) {
                Some(&g) if !groups[g].1.contains(&v) => g,
                Some(_) => {
                    // The same value counted twice over the same terms.
                    let p = CountEq::new(xs, v, c, &mut self.engine.doms);
                    self.engine.add_prop(Box::new(p));
                    continue;
                }
                None => {
                    index.insert(xs.clone(), groups.len());
                    groups.push((xs, Vec::new(), Vec::new()));
                    groups.len() - 1
                }
            };
            groups[g].1.push(v);
            groups[g].2.push(c);
        }
        for (xs, values, counts) in groups {
            let d = &mut self.engine.doms;
            if values.len() == 1 {
                let p = CountEq::new(xs, values[0], counts[0], d);
                self.engine.add_prop(Box::new(p));
            } else {
                let p = GlobalCardinality::new(&xs, values, &counts, false, d);
                self.engine.add_prop(Box::new(p));
            }
        }
    }

    /// Posts `count == y` with `y` itself as the count (no auxiliary
    /// variable and equality): a magic sequence's `s[i] == count(...)`, or
    /// FlatZinc's `count_eq(x, v, c)`. `None` when `a` or `b` is no count.
    pub(super) fn count_equal(&mut self, a: &Term, b: &Term) -> Option<()> {
        let ((xs, v), y) = match (pure_count(a), pure_count(b)) {
            (Some(count), _) => (count, b),
            (None, Some(count)) => (count, a),
            (None, None) => return None,
        };
        let mark = self.engine.mark();
        let xs = xs
            .into_iter()
            .map(|x| self.var_of(x))
            .collect::<Option<Vec<_>>>();
        match (xs, self.var_of(y)) {
            (Some(xs), Some(y)) => {
                self.counts.push((xs, v, y));
                Some(())
            }
            _ => {
                // Leaves nothing behind for the general lowering that follows.
                self.engine.rollback(mark);
                None
            }
        }
    }

    /// The term as a linear expression over engine variables (sub-terms that
    /// are not linear get auxiliary variables).
    /// Coefficients and constant are computed exactly (in `i128`) and must
    /// fit `i64` once merged; otherwise the constraint is evaluated instead.
    pub(super) fn linear(&mut self, t: &Term) -> Option<Lin> {
        let mut terms = Vec::new();
        let mut k = 0i128;
        self.add_linear(t, 1, &mut terms, &mut k)?;
        let merged = merge_terms(&terms)?;
        Some((merged, k))
    }

    fn add_linear(
        &mut self,
        t: &Term,
        scale: i128,
        coefs: &mut Vec<(i128, VarId)>,
        k: &mut i128,
    ) -> Option<()> {
        match t {
            Term::Const(c) => *k = k.checked_add(scale.checked_mul(*c as i128)?)?,
            Term::Linear(parts, c) => {
                *k = k.checked_add(scale.checked_mul(*c as i128)?)?;
                // Counts of `x == v` with one coefficient, grouped by (coefficient, v).
                let mut counts: Vec<((i128, i64), Vec<&Term>)> = Vec::new();
                for (a, u) in parts {
                    let a = scale.checked_mul(*a as i128)?;
                    match counted(u) {
                        Some((_, v)) => match counts.iter_mut().find(|g| g.0 == (a, v)) {
                            Some(g) => g.1.push(u),
                            None => counts.push(((a, v), vec![u])),
                        },
                        None => self.add_linear(u, a, coefs, k)?,
                    }
                }
                for ((a, v), us) in counts {
                    if us.len() < COUNT_FROM {
                        for u in us {
                            self.add_linear(u, a, coefs, k)?;
                        }
                        continue;
                    }
                    let xs = us
                        .iter()
                        .map(|u| self.var_of(counted(u)?.0))
                        .collect::<Option<Vec<_>>>()?;
                    let c = self.aux(0, xs.len() as i128)?;
                    self.counts.push((xs, v, c));
                    coefs.push((a, c));
                }
            }
            _ => {
                let v = self.var_of(t)?;
                coefs.push((scale, v));
            }
        }
        Some(())
    }

    /// Posts `sum(coefs) + k  op  0`; `None` when the sum might not fit the
    /// propagator's arithmetic.
    pub(super) fn post_cmp(&mut self, coefs: Vec<(i64, VarId)>, k: i128, op: CmpOp) -> Option<()> {
        if !self.lin_fits(&coefs, k) {
            return None;
        }
        let (t, _) = linear_pair(coefs, k, op);
        self.add_linear_prop(t);
        Some(())
    }

    /// Posts a linear propagator, keeping its sums incrementally when long.
    pub(super) fn add_linear_prop(&mut self, t: Linear) {
        let t = if t.vars_slice().len() >= KEEP_SUMS_FROM && t.has_distinct_vars() {
            t.keep_sums(&mut self.engine.doms)
        } else {
            t
        };
        self.engine.add_prop(Box::new(t));
    }

    /// Whether every partial sum of the expression fits comfortably in an
    /// i128, the width the linear propagators compute in.
    pub(super) fn lin_fits(&self, coefs: &[(i64, VarId)], k: i128) -> bool {
        let d = &self.engine.doms;
        let mut total = k.unsigned_abs();
        for &(a, x) in coefs {
            let m = d.min(x).unsigned_abs().max(d.max(x).unsigned_abs());
            total = total.saturating_add(u128::from(a.unsigned_abs()) * u128::from(m));
        }
        total < 1 << 120
    }

    /// The smallest and largest values of the expression under the domains.
    pub(super) fn lin_bounds(&self, coefs: &[(i64, VarId)], k: i128) -> (i128, i128) {
        let d = &self.engine.doms;
        let (mut lo, mut hi) = (k, k);
        for &(a, x) in coefs {
            let (l, h) = (a as i128 * d.min(x) as i128, a as i128 * d.max(x) as i128);
            lo += l.min(h);
            hi += l.max(h);
        }
        (lo, hi)
    }

    /// A variable equal to the linear expression (the variable itself when
    /// the expression is one).
    pub(super) fn var_of_lin(&mut self, (coefs, k): Lin) -> Option<VarId> {
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
        self.post_cmp(c, k, CmpOp::Eq)?;
        Some(z)
    }
}

/// `(x, v)` when the term is `x == v` as 0 or 1 (what `count` builds).
fn counted(t: &Term) -> Option<(&Term, i64)> {
    let Term::Ite(f, yes, no) = t else {
        return None;
    };
    if **yes != Term::Const(1) || **no != Term::Const(0) {
        return None;
    }
    match &**f {
        Formula::Cmp(CmpOp::Eq, x, Term::Const(v)) | Formula::Cmp(CmpOp::Eq, Term::Const(v), x) => {
            Some((x, *v))
        }
        _ => None,
    }
}

/// The counted terms and value when `t` is a count and nothing else:
/// `x_1 == v` plus `x_2 == v` ... (at least [`COUNT_FROM`] of them).
pub(super) fn pure_count(t: &Term) -> Option<(Vec<&Term>, i64)> {
    let Term::Linear(parts, 0) = t else {
        return None;
    };
    if parts.len() < COUNT_FROM {
        return None;
    }
    let value = counted(&parts[0].1)?.1;
    let xs = parts
        .iter()
        .map(|(a, u)| match counted(u) {
            Some((x, v)) if *a == 1 && v == value => Some(x),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some((xs, value))
}

/// Adds up the coefficients of repeated variables (first occurrence order)
/// and drops the zeros; `None` when a merged coefficient leaves `i64`.
/// Linear in the number of terms, so a sum over a million variables costs no
/// more than reading it.
pub(super) fn merge_terms(terms: &[(i128, VarId)]) -> Option<Vec<(i64, VarId)>> {
    let narrow = |&(c, v): &(i128, VarId)| Some((i64::try_from(c).ok()?, v));
    // Sums over an array list its variables in increasing order: distinct
    // already, no hashing needed.
    if terms.windows(2).all(|w| w[0].1 < w[1].1) {
        return terms.iter().filter(|t| t.0 != 0).map(narrow).collect();
    }
    let mut at: HashMap<VarId, usize> = Default::default();
    let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
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
    merged.iter().filter(|t| t.0 != 0).map(narrow).collect()
}

/// `sum + k op 0` and its negation, as linear propagators.
pub(super) fn linear_pair(coefs: Vec<(i64, VarId)>, k: i128, op: CmpOp) -> (Linear, Linear) {
    let neg: Vec<(i64, VarId)> = coefs.iter().map(|&(c, v)| (-c, v)).collect();
    let le = |c: Vec<(i64, VarId)>, k: i128| Linear::new(c, k, LinOp::Le);
    match op {
        CmpOp::Le => (le(coefs, k), le(neg, -k + 1)),
        CmpOp::Lt => (le(coefs, k + 1), le(neg, -k)),
        CmpOp::Ge => (le(neg, -k), le(coefs, k + 1)),
        CmpOp::Gt => (le(neg, -k + 1), le(coefs, k)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_repeats_and_drops_zeros() {
        assert_eq!(
            merge_terms(&[(2, 3), (1, 1), (-2, 3), (4, 1)]),
            Some(vec![(5, 1)])
        );
        assert_eq!(
            merge_terms(&[(1, 0), (0, 1), (3, 2)]),
            Some(vec![(1, 0), (3, 2)])
        );
        assert_eq!(merge_terms(&[(i64::MAX as i128, 0), (1, 0)]), None);
        let wide = i64::MAX as i128 + 5;
        assert_eq!(
            merge_terms(&[(wide, 0), (1, 1), (-wide, 0)]),
            Some(vec![(1, 1)])
        );
    }
}
