//! Linear constraints `sum(a[i] * x[i]) + k  (<= | == | !=)  0`, with bounds
//! propagation for `<=` and `==` and value removal for `!=`.
//!
//! A short sum recomputes its bounds at each run. A long one ([`Linear::keep_sums`])
//! keeps them on the trail, updated from change notifications, so a node
//! that moves one bound costs O(1) instead of O(n): with it, `sum(x) == 3`
//! over a million variables solves in linear time. The filtering pass over
//! all terms runs only when some term's span exceeds the slack (`span bound`).

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::engine::trail::{RevInt, RevWide, RevWords};
use crate::model::VarId;
use crate::num::{ceil_div, floor_div};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LinOp {
    Le,
    Eq,
    Ne,
}

pub(crate) struct Linear {
    coefs: Vec<i64>,
    vars: Vec<VarId>,
    /// Wide, so that `k + 1` of a strict comparison never overflows.
    constant: i128,
    op: LinOp,
    /// For long sums, the bookkeeping kept on the trail.
    kept: Option<Kept>,
}

/// The reversible bookkeeping of a long sum.
#[derive(Clone, Copy, Debug)]
struct Kept {
    /// For term `i`, its variable's bounds as last counted, at `2i` and `2i + 1`.
    terms: RevWords,
    /// The smallest and largest sum.
    lo: RevWide,
    hi: RevWide,
    /// An upper bound on the widest term's span.
    span: RevWide,
    /// The number of open (unfixed) terms, and the XOR of their positions
    /// (the last open one, when one is left).
    open: RevInt,
    open_xor: RevInt,
}

/// The smallest and largest value of the sum, and a bound on the widest term.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    lo: i128,
    hi: i128,
    span: i128,
}

impl Linear {
    pub(crate) fn new(terms: Vec<(i64, VarId)>, constant: i128, op: LinOp) -> Self {
        let (coefs, vars) = terms.into_iter().unzip();
        Linear {
            coefs,
            vars,
            constant,
            op,
            kept: None,
        }
    }

    /// Whether no variable occurs twice (needed to keep sums).
    pub(crate) fn has_distinct_vars(&self) -> bool {
        let mut v = self.vars.clone();
        v.sort_unstable();
        v.windows(2).all(|w| w[0] != w[1])
    }

    /// Keeps the sum's bounds on the trail from now on (see the module
    /// doc). Each variable must occur once.
    pub(crate) fn keep_sums(mut self, d: &mut Domains) -> Self {
        let n = self.vars.len();
        let mut b = Bounds {
            lo: self.constant,
            hi: self.constant,
            span: 0,
        };
        let mut seen = Vec::with_capacity(2 * n);
        let (mut open, mut open_xor) = (0i64, 0i64);
        for i in 0..n {
            let x = self.vars[i];
            seen.push(d.min(x) as u64);
            seen.push(d.max(x) as u64);
            let (l, h) = term_bounds(d, self.coefs[i], x);
            b.lo += l;
            b.hi += h;
            b.span = b.span.max(h - l);
            if l != h {
                open += 1;
                open_xor ^= i as i64;
            }
        }
        let t = &mut d.trail;
        self.kept = Some(Kept {
            terms: t.new_words(&seen),
            lo: t.new_wide(b.lo),
            hi: t.new_wide(b.hi),
            span: t.new_wide(b.span),
            open: t.new_int(open),
            open_xor: t.new_int(open_xor),
        });
        self
    }

    pub(crate) fn vars_slice(&self) -> &[VarId] {
        &self.vars
    }

    /// The smallest and largest values of the sum (constant included).
    pub(crate) fn sum_bounds(&self, d: &Domains) -> (i128, i128) {
        let b = self.bounds(d);
        (b.lo, b.hi)
    }

    fn bounds(&self, d: &Domains) -> Bounds {
        if let Some(k) = self.kept {
            return Bounds {
                lo: d.trail.wide(k.lo),
                hi: d.trail.wide(k.hi),
                span: d.trail.wide(k.span),
            };
        }
        let mut b = Bounds {
            lo: self.constant,
            hi: self.constant,
            span: 0,
        };
        for (&a, &x) in self.coefs.iter().zip(&self.vars) {
            let (l, h) = term_bounds(d, a, x);
            b.lo += l;
            b.hi += h;
            b.span = b.span.max(h - l);
        }
        b
    }

    /// True when the constraint holds for every value of the domains, false
    /// when for none; `None` when bounds cannot tell.
    pub(crate) fn entailed(&self, d: &Domains) -> Option<bool> {
        let (lo, hi) = self.sum_bounds(d);
        match self.op {
            LinOp::Le if hi <= 0 => Some(true),
            LinOp::Le if lo > 0 => Some(false),
            LinOp::Eq | LinOp::Ne if lo == hi => Some((lo == 0) == (self.op == LinOp::Eq)),
            LinOp::Eq | LinOp::Ne if lo > 0 || hi < 0 => Some(self.op == LinOp::Ne),
            _ => None,
        }
    }

    /// Brings term `i`'s share of the kept sums up to date with its domain.
    fn recount(&self, i: usize, d: &mut Domains) {
        let Some(k) = self.kept else {
            return;
        };
        let (a, x) = (self.coefs[i], self.vars[i]);
        let t = &mut d.trail;
        let (old_min, old_max) = (
            t.word(k.terms, 2 * i) as i64,
            t.word(k.terms, 2 * i + 1) as i64,
        );
        let (new_min, new_max) = (d.min(x), d.max(x));
        if (old_min, old_max) == (new_min, new_max) {
            return;
        }
        let t = &mut d.trail;
        t.set_word(k.terms, 2 * i, new_min as u64);
        t.set_word(k.terms, 2 * i + 1, new_max as u64);
        let (ol, oh) = scaled(a, old_min, old_max);
        let (nl, nh) = scaled(a, new_min, new_max);
        t.set_wide(k.lo, t.wide(k.lo) + nl - ol);
        t.set_wide(k.hi, t.wide(k.hi) + nh - oh);
        if old_min != old_max && new_min == new_max {
            t.set_int(k.open, t.int(k.open) - 1);
            t.set_int(k.open_xor, t.int(k.open_xor) ^ i as i64);
        }
    }

    /// Bounds propagation for `<=` (and `==`, both ways) to a fixpoint: each
    /// term may exceed its minimum by at most `-lo` and fall below its maximum
    /// by at most `hi`.
    fn tighten(&mut self, d: &mut Domains) -> PResult {
        let both = self.op == LinOp::Eq;
        loop {
            let b = self.bounds(d);
            if b.lo > 0 || (both && b.hi < 0) {
                return Err(Fail);
            }
            let up = -b.lo;
            let down = if both { b.hi } else { i128::MAX };
            if b.span <= up.min(down) {
                return Ok(());
            }
            let mut changed = false;
            let mut span = 0;
            for i in 0..self.vars.len() {
                let (a, x) = (self.coefs[i], self.vars[i]);
                let (l, h) = term_bounds(d, a, x);
                if h - l > up {
                    changed |= limit_term(d, a, x, None, Some(l + up))?;
                }
                let (l, h) = term_bounds(d, a, x);
                if h - l > down {
                    changed |= limit_term(d, a, x, Some(h - down), None)?;
                }
                self.recount(i, d);
                let (l, h) = term_bounds(d, a, x);
                span = span.max(h - l);
            }
            if let Some(k) = self.kept {
                d.trail.set_wide(k.span, span);
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn not_equal(&self, d: &mut Domains) -> PResult {
        let (free, rest) = match self.kept {
            Some(k) => match d.trail.int(k.open) {
                0 => (None, d.trail.wide(k.lo)),
                1 => {
                    let i = d.trail.int(k.open_xor) as usize;
                    let (l, _) = term_bounds(d, self.coefs[i], self.vars[i]);
                    (Some(i), d.trail.wide(k.lo) - l)
                }
                _ => return Ok(()),
            },
            None => {
                let mut free = None;
                let mut sum: i128 = self.constant;
                for i in 0..self.vars.len() {
                    match d.value(self.vars[i]) {
                        Some(v) => sum += self.coefs[i] as i128 * v as i128,
                        None if free.is_some() => return Ok(()),
                        None => free = Some(i),
                    }
                }
                (free, sum)
            }
        };
        match free {
            None if rest == 0 => Err(Fail),
            None => Ok(()),
            Some(i) => {
                let a = self.coefs[i] as i128;
                // a * x + rest != 0: remove x = -rest / a when it divides.
                if (-rest) % a == 0
                    && let Ok(x) = i64::try_from(-rest / a)
                {
                    d.remove(self.vars[i], x)?;
                }
                Ok(())
            }
        }
    }
}

/// Restricts `a * x` to `lo..=hi` (either side optional); true if `x` changed.
fn limit_term(
    d: &mut Domains,
    a: i64,
    x: VarId,
    lo: Option<i128>,
    hi: Option<i128>,
) -> Result<bool, Fail> {
    let a128 = a as i128;
    // For a > 0: lo <= a*x <=> x >= ceil(lo/a); for a < 0 the sides swap.
    let (min, max) = if a > 0 {
        (
            lo.map(|l| ceil_div(l, a128)),
            hi.map(|h| floor_div(h, a128)),
        )
    } else {
        (
            hi.map(|h| ceil_div(h, a128)),
            lo.map(|l| floor_div(l, a128)),
        )
    };
    let mut changed = false;
    if let Some(m) = max {
        if m < d.min(x) as i128 {
            return Err(Fail);
        }
        if m < d.max(x) as i128 {
            changed |= d.set_max(x, m as i64)?;
        }
    }
    if let Some(m) = min {
        if m > d.max(x) as i128 {
            return Err(Fail);
        }
        if m > d.min(x) as i128 {
            changed |= d.set_min(x, m as i64)?;
        }
    }
    Ok(changed)
}

/// The smallest and largest values of `a * x`.
fn term_bounds(d: &Domains, a: i64, x: VarId) -> (i128, i128) {
    scaled(a, d.min(x), d.max(x))
}

/// The smallest and largest values of `a * x` for `x` in `min..=max`.
fn scaled(a: i64, min: i64, max: i64) -> (i128, i128) {
    let (lo, hi) = (a as i128 * min as i128, a as i128 * max as i128);
    if a >= 0 { (lo, hi) } else { (hi, lo) }
}

impl Propagator for Linear {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        if self.vars.len() <= 2 {
            Priority::Binary
        } else {
            Priority::Linear
        }
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        let wake = match self.op {
            LinOp::Ne => event::FIX,
            _ => event::BOUNDS,
        };
        for (i, &x) in self.vars.iter().enumerate() {
            s.wake(x, wake);
            if self.kept.is_some() {
                s.notify(x, i, event::BOUNDS);
            }
        }
    }
    fn notify(&mut self, position: usize, d: &mut Domains) -> bool {
        self.recount(position, d);
        false
    }
    fn all_fixed(&self, d: &Domains) -> bool {
        match self.kept {
            Some(k) => d.trail.int(k.open) == 0,
            None => self.vars.iter().all(|&x| d.is_fixed(x)),
        }
    }
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let constant = self.constant;
        super::linear_explain::explain(&self.coefs, &self.vars, constant, self.op, lit, past, out)
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        match self.op {
            LinOp::Ne => self.not_equal(d),
            LinOp::Le | LinOp::Eq => self.tighten(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(d: &mut Domains, n: usize, lo: i64, hi: i64) -> Vec<VarId> {
        let values: Vec<i64> = (lo..=hi).collect();
        (0..n).map(|_| d.add_var(&values)).collect()
    }

    /// Kept sums must equal sums recomputed from the domains after any
    /// sequence of changes, notifications and backtracks.
    #[test]
    fn kept_sums_follow_changes_and_backtracking() {
        let mut d = Domains::default();
        let xs = vars(&mut d, 40, -3, 5);
        let terms: Vec<(i64, VarId)> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| (i as i64 % 5 - 2, x))
            .collect();
        let terms: Vec<(i64, VarId)> = terms.into_iter().filter(|t| t.0 != 0).collect();
        let mut kept = Linear::new(terms.clone(), 7, LinOp::Le).keep_sums(&mut d);
        let fresh = Linear::new(terms.clone(), 7, LinOp::Le);
        let notify_all = |kept: &mut Linear, d: &mut Domains| {
            for i in 0..kept.vars.len() {
                kept.notify(i, d);
            }
            d.clear_changes();
        };
        let cp = d.checkpoint();
        for (step, &(_, x)) in terms.iter().enumerate() {
            match step % 3 {
                0 => drop(d.set_min(x, 0)),
                1 => drop(d.set_max(x, 1)),
                _ => drop(d.fix(x, 2)),
            }
            notify_all(&mut kept, &mut d);
            assert_eq!(kept.sum_bounds(&d), fresh.sum_bounds(&d), "step {step}");
            assert_eq!(kept.all_fixed(&d), fresh.all_fixed(&d));
        }
        d.restore(cp);
        assert_eq!(kept.sum_bounds(&d), fresh.sum_bounds(&d));
        assert!(!kept.all_fixed(&d));
    }

    /// Bounds(R) consistency of `sum(c x) + k (<= | ==) 0`: with any
    /// variable at either bound, the others can make the sum (over the reals,
    /// between their bounds) satisfy the constraint.
    fn bounds_r(c: &[i64], k: i64, op: LinOp, doms: &[Vec<i64>]) -> Option<String> {
        let hull: Vec<(i64, i64)> = doms.iter().map(|d| (d[0], d[d.len() - 1])).collect();
        for (i, &(lo, hi)) in hull.iter().enumerate() {
            for v in [lo, hi] {
                let (mut smin, mut smax) = (k + c[i] * v, k + c[i] * v);
                for (j, &(l, h)) in hull.iter().enumerate() {
                    if j != i {
                        smin += (c[j] * l).min(c[j] * h);
                        smax += (c[j] * l).max(c[j] * h);
                    }
                }
                let ok = if op == LinOp::Le {
                    smin <= 0
                } else {
                    smin <= 0 && 0 <= smax
                };
                if !ok {
                    return Some(format!(
                        "bound {v} of variable {i} has no real support in {doms:?}"
                    ));
                }
            }
        }
        None
    }

    #[test]
    fn inequalities_and_equations_are_bounds_consistent() {
        use crate::engine::harness::{Strength, check_random, check_random_with};
        let coefs: [&[i64]; 4] = [&[1, 1], &[2, -3, 1], &[1, 1, 1, 1], &[-1, 4]];
        for c in coefs {
            for k in [-2i64, 0, 3] {
                // `<=` reaches bounds(Z): the extreme sums lie at domain bounds.
                // `==` reaches bounds(R), as bounds propagation of equations does.
                for (op, strength) in [(LinOp::Le, Strength::Bounds), (LinOp::Eq, Strength::Check)]
                {
                    check_random_with(
                        "linear",
                        strength,
                        c.len(),
                        |_, v| {
                            let terms = c.iter().copied().zip(v.iter().copied()).collect();
                            Some(Box::new(Linear::new(terms, k as i128, op)))
                        },
                        |t| {
                            let s: i64 = c.iter().zip(t).map(|(a, x)| a * x).sum::<i64>() + k;
                            if op == LinOp::Le { s <= 0 } else { s == 0 }
                        },
                        |doms| bounds_r(c, k, op, doms),
                    );
                }
                check_random(
                    "linear !=",
                    Strength::Check,
                    c.len(),
                    |_, v| {
                        let terms = c.iter().copied().zip(v.iter().copied()).collect();
                        Some(Box::new(Linear::new(terms, k as i128, LinOp::Ne)))
                    },
                    |t| c.iter().zip(t).map(|(a, x)| a * x).sum::<i64>() + k != 0,
                );
            }
        }
    }

    #[test]
    fn not_equal_finds_the_last_open_term() {
        let mut d = Domains::default();
        let xs = vars(&mut d, 40, 0, 3);
        let terms: Vec<(i64, VarId)> = xs.iter().map(|&x| (1, x)).collect();
        // sum(x) != 5 with every x but the last fixed to 0 and one to 2.
        let mut p = Linear::new(terms, -5, LinOp::Ne).keep_sums(&mut d);
        for (i, &x) in xs.iter().enumerate().take(39) {
            d.fix(x, if i == 7 { 2 } else { 0 }).unwrap();
            p.notify(i, &mut d);
        }
        p.propagate(&mut d).unwrap();
        assert_eq!(d.values(xs[39]).collect::<Vec<_>>(), vec![0, 1, 2]);
    }
}
