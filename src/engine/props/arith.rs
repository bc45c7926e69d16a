//! Non-linear arithmetic over auxiliary variables: `z = x * y` (bounds
//! reasoning over the reals: each bound of each variable has a support with
//! real values between the others' bounds) and `z = |x|` (domain consistency
//! on small domains, bounds on large ones), `z = items[i]` and `z = min/max(xs)`. Lowering
//! (`lower/terms.rs`) introduces `z` for such terms.

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::learn::{Kind, Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::engine::props::element_bits::BitElement;
use crate::model::VarId;
use crate::num::{ceil_div, floor_div};

/// Domains larger than this are filtered by bounds only.
const MAX_SCANNED: u64 = 4096;

/// `|x|` filters value by value up to this many values: it runs at every
/// node where `x` changes, so the scan must stay cheap.
const MAX_ABS_SCANNED: u64 = 256;

/// `z = x * y`.
pub(crate) struct Times {
    vars: [VarId; 3],
}

impl Times {
    pub(crate) fn new(x: VarId, y: VarId, z: VarId) -> Self {
        Times { vars: [x, y, z] }
    }
}

fn bounds(d: &Domains, v: VarId) -> (i128, i128) {
    (d.min(v) as i128, d.max(v) as i128)
}

fn clamp(d: &mut Domains, v: VarId, lo: i128, hi: i128) -> Result<bool, Fail> {
    if lo > hi || lo > d.max(v) as i128 || hi < d.min(v) as i128 {
        return Err(Fail);
    }
    let mut changed = false;
    if lo > d.min(v) as i128 {
        changed |= d.set_min(v, lo as i64)?;
    }
    if hi < d.max(v) as i128 {
        changed |= d.set_max(v, hi as i64)?;
    }
    Ok(changed)
}

/// Bounds of `x` from `x * y in [zl, zh]` when `y` does not contain 0.
fn quotient_bounds((zl, zh): (i128, i128), (yl, yh): (i128, i128)) -> (i128, i128) {
    let mut lo = i128::MAX;
    let mut hi = i128::MIN;
    for z in [zl, zh] {
        for y in [yl, yh] {
            lo = lo.min(ceil_div(z, y));
            hi = hi.max(floor_div(z, y));
        }
    }
    (lo, hi)
}

/// `⌊√z⌋` for `z ≥ 0`.
fn isqrt(z: i128) -> i128 {
    (z as u128).isqrt() as i128
}

impl Times {
    /// `z = x * x` (MiniZinc writes a square as `int_times(x, x, z)`): the
    /// bounds of `z` bound `|x|` from both sides, which the product rule
    /// below cannot do when `x` may be 0 (`x * y ≤ 9` says nothing of `x`
    /// while `y` may be 0). Bounds consistent over the integers. Without it
    /// a sum of squares under an objective bound prunes nothing until the
    /// squared terms are fixed (gbac: 80 of them).
    fn narrow_square(&self, d: &mut Domains) -> Result<bool, Fail> {
        let [x, _, z] = self.vars;
        let (xl, xh) = bounds(d, x);
        let (lo, hi) = if xl >= 0 {
            (xl * xl, xh * xh)
        } else if xh <= 0 {
            (xh * xh, xl * xl)
        } else {
            (0, (xl * xl).max(xh * xh))
        };
        let mut changed = clamp(d, z, lo, hi)?;
        let (zl, zh) = bounds(d, z);
        let s = isqrt(zh);
        // z is a square: between the squares of ⌈√zl⌉ and ⌊√zh⌋.
        let r = if zl > 0 { isqrt(zl - 1) + 1 } else { 0 };
        changed |= clamp(d, z, r * r, s * s)?;
        changed |= clamp(d, x, -s, s)?;
        if r > 0 {
            // |x| ≥ r: x leaves (-r, r), by the bound on the side that has no support.
            let (xl, xh) = bounds(d, x);
            if xl > -r {
                changed |= clamp(d, x, r, xh)?;
            } else if xh < r {
                changed |= clamp(d, x, xl, -r)?;
            }
        }
        Ok(changed)
    }

    fn narrow(&self, d: &mut Domains) -> Result<bool, Fail> {
        let [x, y, z] = self.vars;
        if x == y {
            return self.narrow_square(d);
        }
        let (xb, yb) = (bounds(d, x), bounds(d, y));
        let products = [xb.0 * yb.0, xb.0 * yb.1, xb.1 * yb.0, xb.1 * yb.1];
        let lo = products.iter().copied().min().unwrap_or(0);
        let hi = products.iter().copied().max().unwrap_or(0);
        let mut changed = clamp(d, z, lo, hi)?;
        let zb = bounds(d, z);
        for (a, b) in [(x, y), (y, x)] {
            let bb = bounds(d, b);
            if bb.0 > 0 || bb.1 < 0 {
                let (l, h) = quotient_bounds(zb, bb);
                changed |= clamp(d, a, l, h)?;
            } else if !(zb.0 <= 0 && 0 <= zb.1) && d.contains(a, 0) {
                // z cannot be 0, so neither factor can.
                changed |= d.remove(a, 0)?;
            }
        }
        Ok(changed)
    }
}

impl Propagator for Times {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Binary
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(&self.vars, event::BOUNDS);
    }
    /// Learning: every rule reads bounds only (the 0 it removes from a
    /// factor follows from `z`'s bounds), so the three variables' bounds
    /// then explain anything it did, without their holes.
    fn explain(&self, _lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        for &v in &self.vars {
            past.bounds_lits(v, out);
        }
        true
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        while self.narrow(d)? {}
        let [x, y, z] = self.vars;
        if let (Some(a), Some(b), Some(c)) = (d.value(x), d.value(y), d.value(z))
            && a as i128 * b as i128 != c as i128
        {
            return Err(Fail);
        }
        Ok(())
    }
}

/// `z = |x|`.
pub(crate) struct Abs {
    vars: [VarId; 2],
}

impl Abs {
    pub(crate) fn new(x: VarId, z: VarId) -> Self {
        Abs { vars: [x, z] }
    }
}

impl Propagator for Abs {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Binary
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let [x, z] = self.vars;
        loop {
            let (xl, xh) = bounds(d, x);
            let hi = xl.abs().max(xh.abs());
            let lo = if xl <= 0 && 0 <= xh {
                0
            } else {
                xl.abs().min(xh.abs())
            };
            let mut changed = clamp(d, z, lo, hi)?;
            let zh = d.max(z) as i128;
            changed |= clamp(d, x, -zh, zh)?;
            if !changed {
                break;
            }
        }
        if d.size(x) <= MAX_ABS_SCANNED && d.size(z) <= MAX_ABS_SCANNED {
            let bad_x: Vec<i64> = d
                .values(x)
                .filter(|&a| a.checked_abs().is_none_or(|v| !d.contains(z, v)))
                .collect();
            for a in bad_x {
                d.remove(x, a)?;
            }
            let bad_z: Vec<i64> = d
                .values(z)
                .filter(|&v| !d.contains(x, v) && v.checked_neg().is_none_or(|n| !d.contains(x, n)))
                .collect();
            for v in bad_z {
                d.remove(z, v)?;
            }
        }
        Ok(())
    }
}

/// `z = items[i - low]` over variables: indices whose item cannot equal `z`
/// are removed; `z` keeps the values (or, on large domains, the bounds) that
/// some possible item can take; once `i` is fixed, `z` and that item are equal.
pub(crate) struct Element {
    /// `[i, z, items...]`.
    vars: Vec<VarId>,
    low: i64,
    /// The same filtering on machine words, where the domains allow.
    bits: Option<BitElement>,
    /// Scratch: values to remove, and the items the index can still select;
    /// the union of their values in the layout of `z`'s bitset.
    gone: Vec<i64>,
    live: Vec<VarId>,
    union: Vec<u64>,
}

impl Element {
    pub(crate) fn new(d: &Domains, index: VarId, z: VarId, items: Vec<VarId>, low: i64) -> Self {
        let mut e = Self::general(index, z, items, low);
        e.bits = BitElement::new(d, index, z, &e.vars[2..], low);
        e
    }

    /// Without the word form, whatever the domains (tests compare the two).
    pub(crate) fn general(index: VarId, z: VarId, items: Vec<VarId>, low: i64) -> Self {
        let mut vars = vec![index, z];
        vars.extend(items);
        Element {
            vars,
            low,
            bits: None,
            gone: Vec::new(),
            union: Vec::new(),
            live: Vec::new(),
        }
    }

    fn item(&self, j: i64) -> Option<VarId> {
        let k = usize::try_from(j.checked_sub(self.low)?).ok()?;
        self.vars.get(2 + k).copied()
    }

    /// Whether the domains of `a` and `b` share a value.
    fn meet(d: &Domains, a: VarId, b: VarId) -> bool {
        if d.max(a) < d.min(b) || d.max(b) < d.min(a) {
            return false;
        }
        if let Some(v) = d.value(b) {
            return d.contains(a, v);
        }
        if d.size(a) > MAX_SCANNED {
            return true;
        }
        d.values(a).any(|v| d.contains(b, v))
    }

    /// Removes the indices whose item shares no value with `z`.
    fn filter_index(&mut self, d: &mut Domains) -> PResult {
        let (i, z) = (self.vars[0], self.vars[1]);
        let mut gone = std::mem::take(&mut self.gone);
        gone.clear();
        gone.extend(
            d.values(i)
                .filter(|&j| self.item(j).is_none_or(|x| !Self::meet(d, x, z))),
        );
        let r = gone.iter().try_for_each(|&j| d.remove(i, j).map(|_| ()));
        self.gone = gone;
        r
    }

    /// Removes from `a` the values `b` lacks; whether anything changed.
    fn restrict(&mut self, d: &mut Domains, a: VarId, b: VarId) -> Result<bool, Fail> {
        let mut gone = std::mem::take(&mut self.gone);
        gone.clear();
        gone.extend(d.values(a).filter(|&v| !d.contains(b, v)));
        let mut changed = false;
        let r = gone.iter().try_for_each(|&v| {
            changed |= d.remove(a, v)?;
            Ok(())
        });
        self.gone = gone;
        r.map(|()| changed)
    }
}

impl Element {
    /// Why index `j` was removed: its item and `z` share no value.
    fn explain_index(&self, j: i64, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let last = self.low + self.vars.len() as i64 - 3;
        if j < self.low || j > last {
            // No item: the constraint alone excludes it.
            return true;
        }
        let (Some(x), z) = (self.item(j), self.vars[1]) else {
            return false;
        };
        let fixed = |v: VarId| match past.bounds(v) {
            (lo, hi) if lo == hi => Some(lo),
            _ => None,
        };
        match (fixed(z), fixed(x)) {
            (Some(a), _) if !past.contains(x, a) => out.extend([Lit::eq(z, a), Lit::ne(x, a)]),
            (_, Some(a)) if !past.contains(z, a) => out.extend([Lit::eq(x, a), Lit::ne(z, a)]),
            _ => {
                past.domain(x, out);
                past.domain(z, out);
            }
        }
        true
    }
}

impl Element {
    /// Why no index is left: each index of the index's domain then is
    /// removed for the reason [`Self::explain_index`] gives.
    fn explain_failure(&self, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let i = self.vars[0];
        let last = self.low + self.vars.len() as i64 - 3;
        let (lo, hi) = past.bounds(i);
        if hi.saturating_sub(lo) > MAX_SCANNED as i64 {
            return false;
        }
        let start = out.len();
        past.domain(i, out);
        for j in lo.max(self.low)..=hi.min(last) {
            if past.contains(i, j) && !self.explain_index(j, past, out) {
                out.truncate(start);
                return false;
            }
        }
        true
    }
}

impl Propagator for Element {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    /// Learning: an index by its item's and `z`'s domains; `z` and the
    /// selected item by each other, with `[i = j]`; `z` before the index is
    /// fixed by the index's domain and the same literal on every item it
    /// can select. A failure (no index left whose item meets `z`) by the
    /// index's domain and, for each index in it, why its item cannot equal
    /// `z`. A literal on a variable repeated in the arguments: the default.
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let Some(l) = lit else {
            return self.explain_failure(past, out);
        };
        if self.vars.iter().filter(|&&v| v == l.var).count() != 1 {
            return false;
        }
        let (i, z) = (self.vars[0], self.vars[1]);
        let last = self.low + self.vars.len() as i64 - 3;
        let start = out.len();
        let ok = if l.var == i {
            match l.kind {
                Kind::Ne => self.explain_index(l.val, past, out),
                // The index's range.
                Kind::Ge => l.val <= self.low,
                Kind::Le => l.val >= last,
                Kind::Eq => false,
            }
        } else {
            let index = match past.bounds(i) {
                (a, b) if a == b => Some(a),
                _ => None,
            };
            let mirror = |x: VarId| Lit { var: x, ..l };
            if l.var == z {
                match index {
                    Some(j) => self.item(j).is_some_and(|x| {
                        out.extend([Lit::eq(i, j), mirror(x)]);
                        past.holds(mirror(x))
                    }),
                    None => {
                        past.domain(i, out);
                        let (lo, hi) = past.bounds(i);
                        (lo.max(self.low)..=hi.min(last))
                            .filter(|&j| past.contains(i, j))
                            .all(|j| {
                                self.item(j).is_some_and(|x| {
                                    out.push(mirror(x));
                                    past.holds(mirror(x))
                                })
                            })
                    }
                }
            } else {
                // An item: it must be the one selected.
                let k = self.vars[2..].iter().position(|&x| x == l.var);
                match (k, index) {
                    (Some(k), Some(j)) if j == self.low + k as i64 => {
                        out.extend([Lit::eq(i, j), mirror(z)]);
                        past.holds(mirror(z))
                    }
                    _ => false,
                }
            }
        };
        if !ok {
            out.truncate(start);
        }
        ok
    }
    fn priority(&self) -> Priority {
        Priority::Last
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        if let Some(bits) = &self.bits {
            return bits.propagate(d, &self.vars);
        }
        let (i, z) = (self.vars[0], self.vars[1]);
        // Indices outside the items are undefined: the constraint is false there.
        let last = self.low + (self.vars.len() as i64 - 3);
        clamp(d, i, self.low as i128, last as i128)?;
        if let Some(v) = d.value(z) {
            // The common `items[i] == constant`: the indices whose item holds
            // the constant, and that item fixed once the index is.
            self.filter_index(d)?;
            if let Some(j) = d.value(i) {
                d.fix(self.item(j).ok_or(Fail)?, v)?;
            }
            return Ok(());
        }
        loop {
            self.filter_index(d)?;
            if let Some(j) = d.value(i) {
                let x = self.item(j).ok_or(Fail)?;
                // z = x: bounds both ways, then values.
                let mut changed = clamp(d, z, d.min(x) as i128, d.max(x) as i128)?;
                changed |= clamp(d, x, d.min(z) as i128, d.max(z) as i128)?;
                if d.size(z) <= MAX_SCANNED && d.size(x) <= MAX_SCANNED {
                    changed |= self.restrict(d, z, x)?;
                    changed |= self.restrict(d, x, z)?;
                }
                if !changed {
                    return Ok(());
                }
                continue;
            }
            let mut live = std::mem::take(&mut self.live);
            live.clear();
            live.extend(d.values(i).filter_map(|j| self.item(j)));
            let lo = live.iter().map(|&x| d.min(x)).min();
            let hi = live.iter().map(|&x| d.max(x)).max();
            let (Some(lo), Some(hi)) = (lo, hi) else {
                self.live = live;
                return Err(Fail);
            };
            let mut r = clamp(d, z, lo as i128, hi as i128);
            let scanned = r.is_ok() && d.size(z) <= MAX_SCANNED && !d.is_fixed(z);
            if scanned && d.is_bitset(z) {
                // The union of the items' values, 64 at a time in `z`'s
                // layout, then `z` cut down to it at once: a value by value
                // search of the items cost 17% of java-routing's time.
                let mut union = std::mem::take(&mut self.union);
                // Only `z`'s range is read and written: words past it meet
                // no value of `z`, whatever they hold from an earlier call.
                union.resize(d.bits(z).len(), 0);
                let oz = d.offset(z);
                let (w0, w1) = ((d.min(z) - oz) / 64, (d.max(z) - oz) / 64);
                union[w0 as usize..=w1 as usize].fill(0);
                for &x in &live {
                    for w in w0..=w1 {
                        union[w as usize] |= d.window_at(x, oz + 64 * w);
                    }
                }
                r = r.and_then(|c| Ok(d.intersect(z, &union)? | c));
                self.union = union;
            } else if scanned {
                let mut gone = std::mem::take(&mut self.gone);
                gone.clear();
                gone.extend(
                    d.values(z)
                        .filter(|&v| !live.iter().any(|&x| d.contains(x, v))),
                );
                for &v in &gone {
                    r = r.and_then(|c| Ok(d.remove(z, v)? | c));
                }
                self.gone = gone;
            }
            self.live = live;
            if !r? {
                return Ok(());
            }
        }
    }
}

/// `z = max(xs)` (or `min`, with `max` false): bounds consistency.
pub(crate) struct MinMax {
    /// `[z, xs...]`.
    vars: Vec<VarId>,
    max: bool,
}

impl MinMax {
    pub(crate) fn new(z: VarId, xs: Vec<VarId>, max: bool) -> Self {
        let mut vars = vec![z];
        vars.extend(xs);
        MinMax { vars, max }
    }

    /// One pass for `max`, on bounds negated for `min`; true if something changed.
    fn narrow(&self, d: &mut Domains) -> Result<bool, Fail> {
        let s: i128 = if self.max { 1 } else { -1 };
        // Bounds of s * v: (low, high).
        let b = |d: &Domains, v: VarId| {
            let (l, h) = (s * d.min(v) as i128, s * d.max(v) as i128);
            (l.min(h), l.max(h))
        };
        // Sets s * v within [lo, hi].
        let set = |d: &mut Domains, v: VarId, lo: i128, hi: i128| {
            if s == 1 {
                clamp(d, v, lo, hi)
            } else {
                clamp(d, v, -hi, -lo)
            }
        };
        let (z, xs) = (self.vars[0], &self.vars[1..]);
        let lo = xs.iter().map(|&x| b(d, x).0).max().ok_or(Fail)?;
        let hi = xs.iter().map(|&x| b(d, x).1).max().ok_or(Fail)?;
        let mut changed = set(d, z, lo, hi)?;
        let (zl, zh) = b(d, z);
        for &x in xs {
            changed |= set(d, x, i128::MIN / 4, zh)?;
        }
        let mut reach = xs.iter().filter(|&&x| b(d, x).1 >= zl);
        if let (Some(&x), None) = (reach.next(), reach.next()) {
            changed |= set(d, x, zl, i128::MAX / 4)?;
        }
        Ok(changed)
    }
}

impl MinMax {
    /// The tight explanation of `lit` for `max` (`min` by the mirror image:
    /// `up` is the direction in which `z` follows its largest term), or
    /// `false` for the default (a failure, a hole, a variable given twice):
    /// `z` no higher than every term's upper bound, no lower than one term's
    /// lower bound; a term no higher than `z`; the only term that can reach
    /// `z`'s lower bound at least that bound.
    fn explain_bound(&self, lit: Lit, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let (z, xs) = (self.vars[0], &self.vars[1..]);
        let distinct = {
            let mut v = self.vars.clone();
            v.sort_unstable();
            v.windows(2).all(|w| w[0] != w[1])
        };
        if !distinct {
            return false;
        }
        // In the direction of max: `toward` is [v >= k] for max, [v <= k] for min.
        let toward = |v: VarId, k: i64| {
            if self.max {
                Lit::ge(v, k)
            } else {
                Lit::le(v, k)
            }
        };
        let away = |v: VarId, k: i64| {
            if self.max {
                Lit::le(v, k)
            } else {
                Lit::ge(v, k)
            }
        };
        let is_toward = match lit.kind {
            Kind::Ge => self.max,
            Kind::Le => !self.max,
            _ => return false,
        };
        let k = lit.val;
        let beyond = |k: i64| if self.max { k - 1 } else { k + 1 };
        if lit.var == z {
            if is_toward {
                // One term already at least k.
                let Some(&x) = xs.iter().find(|&&x| past.holds(toward(x, k))) else {
                    return false;
                };
                out.push(toward(x, k));
            } else {
                // Every term at most k.
                if !xs.iter().all(|&x| past.holds(away(x, k))) {
                    return false;
                }
                out.extend(xs.iter().map(|&x| away(x, k)));
            }
            return true;
        }
        if !is_toward {
            // A term no higher than z's upper bound.
            if !past.holds(away(z, k)) {
                return false;
            }
            out.push(away(z, k));
            return true;
        }
        // The only term that can reach z's lower bound k: z at least k and
        // every other term below it.
        let others = xs.iter().filter(|&&x| x != lit.var);
        if !past.holds(toward(z, k)) || !others.clone().all(|&x| past.holds(away(x, beyond(k)))) {
            return false;
        }
        out.push(toward(z, k));
        out.extend(others.map(|&x| away(x, beyond(k))));
        true
    }
}

impl Propagator for MinMax {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(&self.vars, event::BOUNDS);
    }
    /// Learning: the bound rules above ([`MinMax::explain_bound`]); a
    /// failure reads bounds only, so the bounds of all the variables then.
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        match lit {
            Some(lit) => self.explain_bound(lit, past, out),
            None => {
                for &v in &self.vars {
                    past.bounds_lits(v, out);
                }
                true
            }
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        while self.narrow(d)? {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};

    #[test]
    fn times_against_brute_force() {
        // Bounds reasoning over the reals: a bound of x may need a fractional y.
        check_random(
            "times",
            Strength::Check,
            3,
            |_, v| Some(Box::new(Times::new(v[0], v[1], v[2]))),
            |t| t[0] * t[1] == t[2],
        );
    }

    #[test]
    fn square_is_bounds_consistent() {
        // `z = x * x`, the same variable twice.
        check_random(
            "square",
            Strength::Bounds,
            2,
            |_, v| Some(Box::new(Times::new(v[0], v[0], v[1]))),
            |t| t[0] * t[0] == t[1],
        );
    }

    #[test]
    fn a_bound_on_a_square_bounds_its_root() {
        let mut h = Harness::new();
        let x = h.range(0, 10);
        let z = h.range(0, 100);
        h.post(Times::new(x, x, z));
        h.set_max(z, 50).unwrap();
        assert_eq!(h.bounds(x), (0, 7));
        h.set_min(z, 10).unwrap();
        assert_eq!(h.bounds(x), (4, 7));
        assert_eq!(h.bounds(z), (16, 49));
        let y = h.range(-5, 3);
        let w = h.range(-100, 100);
        h.post(Times::new(y, y, w));
        assert_eq!(h.bounds(w), (0, 25));
        h.set_min(w, 10).unwrap();
        // Only -5 and -4 have squares of 10 or more.
        assert_eq!(h.bounds(y), (-5, -4));
    }

    #[test]
    fn abs_is_domain_consistent_on_small_domains() {
        check_random(
            "abs",
            Strength::Domain,
            2,
            |_, v| Some(Box::new(Abs::new(v[0], v[1]))),
            |t| t[0].abs() == t[1],
        );
    }

    #[test]
    fn element_over_variables_against_brute_force() {
        // z = [a, b, c][i] with the index from 1.
        check_random(
            "element",
            Strength::Check,
            5,
            |d, v| Some(Box::new(Element::new(d, v[0], v[1], v[2..].to_vec(), 1))),
            |t| (1..=3).contains(&t[0]) && t[1] == t[1 + t[0] as usize],
        );
        // The same without the word form, where `z` keeps only values some
        // selectable item holds (their union, read 64 values at a time).
        crate::engine::harness::check_random_with(
            "element, general",
            Strength::Check,
            5,
            |_, v| Some(Box::new(Element::general(v[0], v[1], v[2..].to_vec(), 1))),
            |t| (1..=3).contains(&t[0]) && t[1] == t[1 + t[0] as usize],
            |doms| {
                let held = |z: &i64| {
                    doms[0]
                        .iter()
                        .filter(|j| (1..=3).contains(*j))
                        .any(|&j| doms[1 + j as usize].contains(z))
                };
                (!doms[1].iter().all(held))
                    .then(|| format!("z has a value no item holds: {doms:?}"))
            },
        );
    }

    #[test]
    fn element_explanations_are_implied() {
        for bits in [true, false] {
            check_explanations_random(
                "element explained",
                5,
                -1..=4,
                100,
                move |d, v| {
                    Some(Box::new(if bits {
                        Element::new(d, v[0], v[1], v[2..].to_vec(), 1)
                    } else {
                        Element::general(v[0], v[1], v[2..].to_vec(), 1)
                    }))
                },
                |t| (1..=3).contains(&t[0]) && t[1] == t[1 + t[0] as usize],
            );
        }
    }

    /// No index left: the failure is the index's domain and, per index,
    /// the item's fact that excludes `z`'s value, not the other items.
    /// (The domains change before the element is posted: after each single
    /// change it would have kept its consistency, and a failure would have
    /// been the change's own.)
    #[test]
    fn element_explains_its_failure_by_the_selectable_items() {
        for bits in [true, false] {
            let mut h = Harness::new();
            let (i, z) = (h.range(1, 3), h.range(0, 9));
            let items = [h.range(0, 9), h.range(0, 9), h.range(0, 9)];
            h.engine.start_learning();
            let d = &mut h.engine.doms;
            d.checkpoint();
            for v in [5, 6] {
                d.remove(items[0], v).unwrap();
                d.remove(items[1], v).unwrap();
            }
            d.set_max(i, 2).unwrap();
            d.set_min(z, 5).unwrap();
            d.set_max(z, 6).unwrap();
            let p = if bits {
                Element::new(&h.engine.doms, i, z, items.to_vec(), 1)
            } else {
                Element::general(i, z, items.to_vec(), 1)
            };
            assert!(h.try_post(p).is_err());
            let got = h.failure_explanation().expect("the element failed");
            // The word form fails on its own (every index at once); the
            // general form when it removes the last index, whose literal
            // `[i != 2]` meets `[i >= 2]`, which explains index 1's removal.
            let wanted: &[Lit] = if bits {
                &[Lit::le(i, 2), Lit::ne(items[0], 5), Lit::ne(items[1], 6)]
            } else {
                &[Lit::eq(i, 2), Lit::ne(items[1], 5), Lit::ge(z, 5)]
            };
            for l in wanted {
                assert!(got.contains(l), "{l} not in {got:?}");
            }
            assert!(got.iter().all(|l| l.var != items[2]), "{got:?}");
        }
    }

    /// With the index fixed, `z` and the item by each other; before, `z`
    /// by the index's domain and the items it can select.
    #[test]
    fn element_explains_through_the_selected_items() {
        let mut h = Harness::new();
        let (i, z) = (h.range(1, 3), h.range(0, 9));
        let items = [h.range(0, 9), h.range(0, 9), h.range(0, 9)];
        h.engine.start_learning();
        // The general form moves bounds (the word form removes values).
        h.post(Element::general(i, z, items.to_vec(), 1));
        h.engine.doms.checkpoint();
        h.remove(i, 2).unwrap();
        h.set_min(items[0], 4).unwrap();
        h.set_min(items[2], 5).unwrap();
        assert_eq!(h.bounds(z), (4, 9));
        let mut want = vec![Lit::ne(i, 2), Lit::ge(items[0], 4), Lit::ge(items[2], 4)];
        want.sort();
        assert_eq!(h.explanation(Lit::ge(z, 4)), want);
        h.fix(i, 3).unwrap();
        assert_eq!(h.bounds(z), (5, 9));
        assert_eq!(
            h.explanation(Lit::ge(z, 5)),
            vec![Lit::eq(i, 3), Lit::ge(items[2], 5)]
        );
    }

    /// `t[0]` is the min (max) of `t[1..]`.
    fn min_max_holds(max: bool, t: &[i64]) -> bool {
        let m = if max {
            t[1..].iter().max()
        } else {
            t[1..].iter().min()
        };
        m == Some(&t[0])
    }

    #[test]
    fn min_and_max_are_bounds_consistent() {
        for max in [false, true] {
            check_random(
                if max { "max" } else { "min" },
                Strength::Bounds,
                4,
                move |_, v| Some(Box::new(MinMax::new(v[0], v[1..].to_vec(), max))),
                move |t| min_max_holds(max, t),
            );
        }
    }

    #[test]
    fn min_max_and_times_explanations_are_implied() {
        for max in [false, true] {
            check_explanations_random(
                if max {
                    "max explained"
                } else {
                    "min explained"
                },
                4,
                -3..=4,
                200,
                move |_, v| Some(Box::new(MinMax::new(v[0], v[1..].to_vec(), max))),
                move |t| min_max_holds(max, t),
            );
        }
        check_explanations_random(
            "times explained",
            3,
            -3..=4,
            200,
            |_, v| Some(Box::new(Times::new(v[0], v[1], v[2]))),
            |t| t[0] * t[1] == t[2],
        );
    }

    #[test]
    fn max_explains_by_the_terms_bounds() {
        let mut h = Harness::new();
        let z = h.range(0, 9);
        let xs = [h.range(0, 9), h.range(0, 9), h.range(0, 9)];
        h.engine.start_learning();
        h.post(MinMax::new(z, xs.to_vec(), true));
        h.engine.doms.checkpoint();
        h.set_min(xs[1], 4).unwrap();
        assert_eq!(h.bounds(z), (4, 9));
        assert_eq!(h.explanation(Lit::ge(z, 4)), vec![Lit::ge(xs[1], 4)]);
        for &x in &xs {
            h.set_max(x, 6).unwrap();
        }
        assert_eq!(h.bounds(z), (4, 6));
        let mut want: Vec<Lit> = xs.iter().map(|&x| Lit::le(x, 6)).collect();
        want.sort();
        assert_eq!(h.explanation(Lit::le(z, 6)), want);
        // xs[1] is the only term that can reach z >= 5 once the others stay below.
        h.set_max(xs[0], 3).unwrap();
        h.set_max(xs[2], 3).unwrap();
        h.set_min(z, 5).unwrap();
        assert_eq!(h.bounds(xs[1]), (5, 6));
        let mut want = vec![Lit::ge(z, 5), Lit::le(xs[0], 4), Lit::le(xs[2], 4)];
        want.sort();
        assert_eq!(h.explanation(Lit::ge(xs[1], 5)), want);
    }

    #[test]
    fn a_fixed_index_equates_the_item() {
        let mut h = Harness::new();
        let i = h.range(0, 5);
        let z = h.range(0, 9);
        let items = [h.var(&[1, 2]), h.var(&[7, 8, 9])];
        h.post(Element::new(&h.engine.doms, i, z, items.to_vec(), 1));
        assert_eq!(h.bounds(i), (1, 2), "indices outside the items go");
        h.fix(i, 2).unwrap();
        assert_eq!(h.values(z), vec![7, 8, 9]);
        h.remove(z, 8).unwrap();
        assert_eq!(h.values(items[1]), vec![7, 9]);
    }
}
