//! Explanations for learning (docs/learning.md) of all-different over terms
//! `x_i + c_i`, whichever rule acted (value elimination, hidden singles,
//! pigeonhole, Régin's matching, in either representation):
//!
//! - a value `w` removed from a term because another term is fixed to it:
//!   that term's `[x = w - c]`;
//! - any other removal of `w` from term `j`: the other terms cannot all
//!   take distinct values without `w`, so by Hall's theorem some set `H` of
//!   them has fewer than `|H|` values besides `w`. `H` is found from a
//!   maximum matching of the other terms on their values then, `w` left
//!   out: the terms an unmatched term reaches by alternating paths (the
//!   classic Hall witness). The explanation says that each term of `H` lies
//!   inside those values and `w` (bounds, widened over them, and holes), so
//!   that `H` uses them all, `w` included; no term outside `H` appears;
//! - a term fixed to `v` (a hidden single) as the removal of each other
//!   value of its domain, with its own domain;
//! - a failure: two fixed terms with one value, or a Hall witness among all
//!   terms (fewer values than terms).
//!
//! A literal on a variable at two positions, and domains too wide to list,
//! fall back on the domains of all the other terms (for a removal) or the
//! default.

use super::among_explain::inside;
use crate::engine::learn::{Kind, Lit, Past};
use crate::model::VarId;

/// Domains wider than this are not listed: the matching is not built.
const MAX_SPAN: i64 = 1 << 12;

const NONE: u32 = u32::MAX;

/// Explains `lit` (or, with `None`, a failure) of all-different over
/// `vars[i] + offsets[i]` from the domains at `past`; false leaves it to the
/// default.
pub(crate) fn explain(
    vars: &[VarId],
    offsets: &[i64],
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let n = vars.len();
    let fixed = |i: usize| match past.bounds(vars[i]) {
        (lo, hi) if lo == hi => Some(lo),
        _ => None,
    };
    let Some(lit) = lit else {
        // Two fixed terms with one value.
        let mut seen: Vec<(i64, usize)> = (0..n)
            .filter_map(|i| fixed(i).map(|a| (a + offsets[i], i)))
            .collect();
        seen.sort_unstable();
        if let Some(w) = seen.windows(2).find(|w| w[0].0 == w[1].0) {
            for &(_, i) in w {
                out.push(Lit::eq(vars[i], fixed(i).unwrap_or(0)));
            }
            return true;
        }
        let all: Vec<usize> = (0..n).collect();
        return hall(vars, offsets, &all, None, past, out);
    };
    let mut at = (0..n).filter(|&i| vars[i] == lit.var);
    let (Some(j), None) = (at.next(), at.next()) else {
        return false;
    };
    let others: Vec<usize> = (0..n).filter(|&i| i != j).collect();
    match lit.kind {
        Kind::Ne => {
            let w = lit.val + offsets[j];
            if let Some(&i) = others
                .iter()
                .find(|&&i| fixed(i).is_some_and(|a| a + offsets[i] == w))
            {
                out.push(Lit::eq(vars[i], w - offsets[i]));
                return true;
            }
            if hall(vars, offsets, &others, Some(w), past, out) {
                return true;
            }
            for &i in &others {
                past.domain(vars[i], out);
            }
            true
        }
        Kind::Eq => {
            // Every other value of the term's domain is removed.
            let (lo, hi) = past.bounds(lit.var);
            if hi.saturating_sub(lo) > MAX_SPAN {
                return false;
            }
            let start = out.len();
            let mut values = Vec::new();
            past.values(lit.var, &mut values);
            past.domain(lit.var, out);
            for u in values.into_iter().filter(|&u| u != lit.val) {
                if !hall(vars, offsets, &others, Some(u + offsets[j]), past, out) {
                    out.truncate(start);
                    return false;
                }
            }
            true
        }
        Kind::Ge | Kind::Le => false,
    }
}

/// Finds among the terms `terms` a set `H` with fewer than `|H|` values
/// besides `w` (all of their values when `w` is `None`) and pushes the
/// literals that keep each term of `H` inside those values and `w`; false
/// (nothing pushed) when the terms can all take distinct values other than
/// `w`, or their domains are too wide.
fn hall(
    vars: &[VarId],
    offsets: &[i64],
    terms: &[usize],
    w: Option<i64>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    // The terms' values then, shifted by their offsets.
    let mut values: Vec<Vec<i64>> = Vec::with_capacity(terms.len());
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for &i in terms {
        let (a, b) = past.bounds(vars[i]);
        if b.saturating_sub(a) > MAX_SPAN {
            return false;
        }
        let mut v = Vec::new();
        past.values(vars[i], &mut v);
        for x in &mut v {
            *x += offsets[i];
        }
        v.retain(|&x| Some(x) != w);
        if let (Some(&f), Some(&l)) = (v.first(), v.last()) {
            lo = lo.min(f);
            hi = hi.max(l);
        }
        values.push(v);
    }
    let span = if lo <= hi { hi - lo + 1 } else { 0 };
    if span > 4 * MAX_SPAN {
        return false;
    }
    // A maximum matching, term by term (Kuhn's augmenting paths).
    let mut owner = vec![NONE; span as usize];
    let mut seen = vec![0u32; span as usize];
    let mut unmatched = None;
    for t in 0..terms.len() {
        let stamp = t as u32 + 1;
        if !augment(t, &values, lo, &mut owner, &mut seen, stamp) {
            unmatched = Some(t);
            break;
        }
    }
    let Some(u) = unmatched else {
        return false;
    };
    // The terms reached from `u` by alternating paths, and their values.
    let mut in_h = vec![false; terms.len()];
    let mut reached = vec![false; span as usize];
    let mut stack = vec![u];
    in_h[u] = true;
    while let Some(t) = stack.pop() {
        for &x in &values[t] {
            let k = (x - lo) as usize;
            if reached[k] {
                continue;
            }
            reached[k] = true;
            let o = owner[k];
            if o != NONE && !in_h[o as usize] {
                in_h[o as usize] = true;
                stack.push(o as usize);
            }
        }
    }
    let mut set: Vec<i64> = (0..span)
        .filter(|&k| reached[k as usize])
        .map(|k| lo + k)
        .collect();
    set.extend(w);
    set.sort_unstable();
    let start = out.len();
    for (t, &i) in terms.iter().enumerate() {
        if !in_h[t] {
            continue;
        }
        let shifted: Vec<i64> = set.iter().map(|&x| x - offsets[i]).collect();
        if !inside(&shifted, vars[i], past, out) {
            out.truncate(start);
            return false;
        }
    }
    true
}

/// Kuhn's step: finds a value for term `t`, moving other terms along an
/// augmenting path; `seen` marks the values visited in this search.
fn augment(
    t: usize,
    values: &[Vec<i64>],
    lo: i64,
    owner: &mut [u32],
    seen: &mut [u32],
    stamp: u32,
) -> bool {
    for &x in &values[t] {
        let k = (x - lo) as usize;
        if seen[k] == stamp {
            continue;
        }
        seen[k] = stamp;
        if owner[k] == NONE || augment(owner[k] as usize, values, lo, owner, seen, stamp) {
            owner[k] = t as u32;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::engine::harness::Harness;
    use crate::engine::learn::Lit;
    use crate::engine::props::alldiff::AllDifferent;

    /// A Hall set `{x0, x1}` on `{1, 2}` (with `x2`'s domain `{3, 4}`):
    /// under GAC, 2 leaves `x3` because of `x0` and `x1` only: each lies
    /// within 1..2. Without the Hall witness, `x2`'s domain was in it too.
    #[test]
    fn a_removal_is_explained_by_a_hall_set_only() {
        for general in [false, true] {
            let mut h = Harness::new();
            let x = [h.range(1, 4), h.range(1, 4), h.range(1, 4), h.range(1, 4)];
            h.engine.start_learning();
            let terms: Vec<_> = x.iter().map(|&v| (v, 0)).collect();
            let mut p = AllDifferent::new(terms, true, &mut h.engine.doms);
            if general {
                p = p.without_bits();
            }
            h.post(p);
            h.engine.doms.checkpoint();
            h.set_min(x[2], 3).unwrap();
            h.set_max(x[0], 2).unwrap();
            h.set_max(x[1], 2).unwrap();
            assert_eq!(h.values(x[3]), vec![3, 4]);
            assert_eq!(
                h.explanation(Lit::ne(x[3], 2)),
                vec![Lit::le(x[0], 2), Lit::le(x[1], 2)]
            );
        }
    }

    /// Pigeonhole: three terms within 1..2 fail, explained by those three,
    /// not the fourth term. (The domains change before the constraint is
    /// posted: after each single change it would have kept its consistency.)
    #[test]
    fn a_failure_is_explained_by_a_hall_witness() {
        for general in [false, true] {
            let mut h = Harness::new();
            let x = [h.range(1, 4), h.range(1, 4), h.range(1, 4), h.range(0, 9)];
            h.engine.start_learning();
            let d = &mut h.engine.doms;
            d.checkpoint();
            for &v in &x[..3] {
                d.set_max(v, 2).unwrap();
            }
            let terms: Vec<_> = x.iter().map(|&v| (v, 0)).collect();
            let mut p = AllDifferent::new(terms, true, &mut h.engine.doms);
            if general {
                p = p.without_bits();
            }
            assert!(h.try_post(p).is_err());
            let got = h.failure_explanation().expect("all-different failed");
            assert!(got.iter().all(|l| l.var != x[3]), "{got:?}");
            for v in &x[..3] {
                assert!(got.contains(&Lit::le(*v, 2)), "{got:?}");
            }
        }
    }
}
