//! Explanations for learning (docs/learning.md) of `c = #{j : x_j in S}`:
//! `among` (and `sequence`, `at_most`, ... built on it) and `count_eq`
//! (`S = {v}`). Each rule of the propagators is explained by the facts of
//! only as many terms as it needs:
//!
//! - `[c >= k]` by `k` terms whose domains lie inside `S` (their bounds,
//!   widened over values of `S`, and their holes that are not in `S`);
//! - `[c <= k]` by `n - k` terms that cannot take a value of `S` (the
//!   bounds and holes that exclude each value of `S`);
//! - a value of `S` removed from `x` (the count is reached) by `[c <= m]`
//!   and `m` other terms inside `S`, fewer if `x` appears more than once;
//! - `x` restricted to `S` (the count needs every term that can) by
//!   `[c >= m]`, the other terms that cannot be in `S`, as many as make the
//!   count out of reach without `x`, and `x`'s own facts that exclude the
//!   values of `S` the literal excludes (`[x >= 5]` of `x in S = {1, 5}`
//!   needs `x`'s exclusion of 1);
//! - a failure by the count's bound and the terms that contradict it.
//!
//! Terms are counted by position, so a variable appearing twice counts
//! twice; a literal on such a variable counts all its positions. When the
//! count variable is also a term, the default is used.

use crate::engine::learn::{Kind, Lit, Past};
use crate::model::VarId;

/// Domains wider than this are not listed (the default explains them).
const MAX_LISTED: i64 = 1 << 12;

/// Pushes the literals true at `past` that put `x` inside the sorted `set`:
/// its bounds, widened while the values beyond them are in the set, and its
/// holes between them that are not. False (and nothing pushed) when its
/// domain then was not inside the set, or is too wide to list.
pub(crate) fn inside(set: &[i64], x: VarId, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
    let in_set = |v: i64| set.binary_search(&v).is_ok();
    let (lo, hi) = past.bounds(x);
    if hi.saturating_sub(lo) > MAX_LISTED {
        return false;
    }
    let start = out.len();
    for u in lo..=hi {
        if !in_set(u) {
            if past.contains(x, u) {
                out.truncate(start);
                return false;
            }
            push_unless_root(past, out, Lit::ne(x, u));
        }
    }
    let (mut a, mut b) = (lo, hi);
    while a > i64::MIN && in_set(a - 1) {
        a -= 1;
    }
    while b < i64::MAX && in_set(b + 1) {
        b += 1;
    }
    push_unless_root(past, out, Lit::ge(x, a));
    push_unless_root(past, out, Lit::le(x, b));
    true
}

/// Pushes `l` unless it held at the root (a fact the explanation needs not
/// name).
fn push_unless_root(past: &Past<'_>, out: &mut Vec<Lit>, l: Lit) {
    if !past.trail.holds_at_root(l) {
        out.push(l);
    }
}

/// Pushes the literals true at `past` that keep `x` from every value of the
/// sorted `vals`: a lower bound just past the largest value below its
/// domain, an upper bound just before the smallest above, and a hole for
/// each value in between. False (and nothing pushed) when `x` could then
/// take one of them.
fn outside(vals: &[i64], x: VarId, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
    let (lo, hi) = past.bounds(x);
    let start = out.len();
    let below = vals.iter().rev().find(|&&s| s < lo);
    let above = vals.iter().find(|&&s| s > hi);
    for &s in vals.iter().filter(|&&s| lo <= s && s <= hi) {
        if past.contains(x, s) {
            out.truncate(start);
            return false;
        }
        push_unless_root(past, out, Lit::ne(x, s));
    }
    if let Some(&s) = below {
        push_unless_root(past, out, Lit::ge(x, s + 1));
    }
    if let Some(&s) = above {
        push_unless_root(past, out, Lit::le(x, s - 1));
    }
    true
}

/// Explains `lit` (or, with `None`, a failure) of the propagator of
/// `count = #{j : xs[j] in set}` (`set` sorted and distinct) from the domains
/// at `past`, as the module doc says; false leaves it to the default.
pub(crate) fn explain(
    xs: &[VarId],
    count: VarId,
    set: &[i64],
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    if xs.contains(&count) {
        return false;
    }
    let start = out.len();
    let ok = match lit {
        None => failure(xs, count, set, past, out),
        Some(l) if l.var == count => match l.kind {
            Kind::Ge => enough(inside, xs, set, l.val, None, past, out),
            Kind::Le => enough(outside, xs, set, xs.len() as i64 - l.val, None, past, out),
            Kind::Eq => {
                enough(inside, xs, set, l.val, None, past, out)
                    && enough(outside, xs, set, xs.len() as i64 - l.val, None, past, out)
            }
            Kind::Ne => false,
        },
        Some(l) => term(xs, count, set, l, past, out),
    };
    if !ok {
        out.truncate(start);
    }
    ok
}

/// The signature of [`inside`] and [`outside`]: pushes the facts that put
/// a term in (or out of) the set, false (nothing pushed) when they do not hold.
type Side = fn(&[i64], VarId, &Past<'_>, &mut Vec<Lit>) -> bool;

/// Pushes the facts of `k` terms (not on `skip`) on `side` of the set;
/// false if there were fewer.
fn enough(
    side: Side,
    xs: &[VarId],
    set: &[i64],
    k: i64,
    skip: Option<VarId>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let mut got = 0;
    for &x in xs {
        if got >= k {
            break;
        }
        if Some(x) != skip && side(set, x, past, out) {
            got += 1;
        }
    }
    got >= k
}

/// The count's bound against the terms inside the set (too many) or
/// outside it (too few).
fn failure(xs: &[VarId], c: VarId, set: &[i64], past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
    let (lo, hi) = past.bounds(c);
    let start = out.len();
    if enough(inside, xs, set, hi + 1, None, past, out) {
        out.push(Lit::le(c, hi));
        return true;
    }
    out.truncate(start);
    if enough(outside, xs, set, xs.len() as i64 - lo + 1, None, past, out) {
        out.push(Lit::ge(c, lo));
        return true;
    }
    false
}

/// A literal on a term `x` (at `m` positions).
fn term(xs: &[VarId], c: VarId, set: &[i64], l: Lit, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
    let x = l.var;
    let m = xs.iter().filter(|&&v| v == x).count() as i64;
    let (lo, hi) = past.bounds(c);
    if l.kind == Kind::Ne && set.binary_search(&l.val).is_ok() {
        // The count is reached without `x`: `x` in the set would pass it.
        out.push(Lit::le(c, hi));
        return enough(inside, xs, set, hi - m + 1, Some(x), past, out);
    }
    // The count needs `x` in the set: without it, it stays below `lo`.
    let n = xs.len() as i64;
    out.push(Lit::ge(c, lo));
    if !enough(outside, xs, set, n - m - lo + 1, Some(x), past, out) {
        return false;
    }
    // `x` in the set implies `l` given `x`'s own exclusions.
    let against: Vec<i64> = set.iter().copied().filter(|&s| !l.holds(s)).collect();
    outside(&against, x, past, out)
}

#[cfg(test)]
mod tests {
    use crate::engine::harness::{Harness, check_explanations_random};
    use crate::engine::learn::Lit;
    use crate::engine::props::among::Among;
    use crate::engine::props::count_eq::CountEq;

    #[test]
    fn among_explanations_are_implied() {
        for set in [vec![1], vec![0, 2], vec![-1, 0, 3]] {
            for arity in [3, 5, 6] {
                let s = set.clone();
                check_explanations_random(
                    "among explained",
                    arity,
                    -1..=3,
                    60,
                    |_, vs| {
                        let (c, xs) = vs.split_last().unwrap();
                        Some(Box::new(Among::new(xs, set.clone(), *c)))
                    },
                    |vals| {
                        let (c, xs) = vals.split_last().unwrap();
                        crate::model::globals::holds::among(*c, xs, &s)
                    },
                );
            }
        }
    }

    #[test]
    fn count_eq_explanations_are_implied() {
        for v in [0, 2] {
            for arity in [3, 5, 6] {
                check_explanations_random(
                    "count_eq explained",
                    arity,
                    0..=3,
                    60,
                    |d, vs| {
                        let (c, xs) = vs.split_last().unwrap();
                        Some(Box::new(CountEq::new(xs.to_vec(), v, *c, d)))
                    },
                    |vals| {
                        let (c, xs) = vals.split_last().unwrap();
                        xs.iter().filter(|&&x| x == v).count() as i64 == *c
                    },
                );
            }
        }
    }

    /// Two terms fixed in the set, the count at most 2: the third term
    /// loses the set's values because of those two and the bound only, not
    /// the fourth term's domain.
    #[test]
    fn a_reached_count_is_explained_by_the_terms_inside() {
        let mut h = Harness::new();
        let x = [h.range(0, 5), h.range(0, 5), h.range(0, 5), h.range(0, 5)];
        let c = h.range(0, 2);
        h.engine.start_learning();
        h.post(Among::new(&x, vec![1, 2], c));
        h.engine.doms.checkpoint();
        h.set_max(x[3], 4).unwrap();
        h.fix(x[0], 1).unwrap();
        h.set_max(x[1], 2).unwrap();
        h.set_min(x[1], 1).unwrap();
        assert_eq!(h.values(x[2]), vec![0, 3, 4, 5]);
        assert_eq!(
            h.explanation(Lit::ne(x[2], 1)),
            vec![
                Lit::ge(x[0], 1),
                Lit::le(x[0], 2),
                Lit::ge(x[1], 1),
                Lit::le(x[1], 2),
                Lit::le(c, 2)
            ]
        );
    }

    /// A count that needs every term that can: `x2` restricted to `{3}` by
    /// `[c >= 2]` and the term that cannot be 3, not by the other open term.
    #[test]
    fn a_needed_count_is_explained_by_the_terms_outside() {
        let mut h = Harness::new();
        let x = [h.range(0, 5), h.range(0, 5), h.range(0, 5)];
        let c = h.range(0, 3);
        h.engine.start_learning();
        let p = CountEq::new(x.to_vec(), 3, c, &mut h.engine.doms);
        h.post(p);
        h.engine.doms.checkpoint();
        h.set_max(x[0], 2).unwrap();
        h.set_min(c, 2).unwrap();
        assert_eq!(h.values(x[2]), vec![3]);
        assert_eq!(
            h.explanation(Lit::eq(x[2], 3)),
            vec![Lit::le(x[0], 2), Lit::ge(c, 2)]
        );
    }
}
