//! Learning (lazy clause generation, docs/learning.md): every domain change
//! is an atomic literal (`[x >= v]`, `[x <= v]`, `[x = v]`, `[x != v]`) on a
//! literal trail beside the slot trail, with its decision level and its
//! cause; conflict analysis (`analysis.rs`) explains literals lazily and
//! learns nogoods, which `nogoods.rs` propagates.
//!
//! The literal trail is kept only when learning is on (`Domains::learn`), so
//! a search without learning pays one test of an `Option` per domain change.
//!
//! Each change records what became true, with the *actual* new bound: a
//! propagator asking `x >= 3` of `{1, 2, 5}` records `[x >= 5]`, its cause
//! and the literal it asked, so that the explanation is the propagator's
//! explanation of what it asked plus the holes between (`bridge`). Values
//! removed by a bitset operation (`intersect`) are each an `[x != v]` entry
//! (cause: the propagator), and the bounds they move follow as entries whose
//! cause is `Implied` by the older bound and those removals.

pub(crate) mod analysis;
pub(crate) mod exchange;
pub(crate) mod nogoods;

use crate::model::VarId;

/// The kind of an atomic literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Ge,
    Le,
    Eq,
    Ne,
}

/// An atomic literal about one variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Lit {
    pub(crate) var: VarId,
    pub(crate) kind: Kind,
    pub(crate) val: i64,
}

impl Lit {
    pub(crate) fn ge(var: VarId, val: i64) -> Lit {
        Lit {
            var,
            kind: Kind::Ge,
            val,
        }
    }
    pub(crate) fn le(var: VarId, val: i64) -> Lit {
        Lit {
            var,
            kind: Kind::Le,
            val,
        }
    }
    pub(crate) fn eq(var: VarId, val: i64) -> Lit {
        Lit {
            var,
            kind: Kind::Eq,
            val,
        }
    }
    pub(crate) fn ne(var: VarId, val: i64) -> Lit {
        Lit {
            var,
            kind: Kind::Ne,
            val,
        }
    }

    /// The literal that holds exactly when this one does not.
    pub(crate) fn negate(self) -> Lit {
        match self.kind {
            Kind::Ge => Lit::le(self.var, self.val.saturating_sub(1)),
            Kind::Le => Lit::ge(self.var, self.val.saturating_add(1)),
            Kind::Eq => Lit::ne(self.var, self.val),
            Kind::Ne => Lit::eq(self.var, self.val),
        }
    }

    /// Whether the literal holds for the value `x` of its variable.
    pub(crate) fn holds(self, x: i64) -> bool {
        match self.kind {
            Kind::Ge => x >= self.val,
            Kind::Le => x <= self.val,
            Kind::Eq => x == self.val,
            Kind::Ne => x != self.val,
        }
    }

    /// Whether this literal alone implies `other` (same variable).
    pub(crate) fn implies(self, other: Lit) -> bool {
        if self.var != other.var {
            return false;
        }
        use Kind::*;
        match (self.kind, other.kind) {
            (Eq, _) => other.holds(self.val),
            (Ge, Ge) => self.val >= other.val,
            (Le, Le) => self.val <= other.val,
            (Ge, Ne) => self.val > other.val,
            (Le, Ne) => self.val < other.val,
            (Ne, Ne) => self.val == other.val,
            _ => false,
        }
    }
}

impl std::fmt::Display for Lit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let op = match self.kind {
            Kind::Ge => ">=",
            Kind::Le => "<=",
            Kind::Eq => "=",
            Kind::Ne => "!=",
        };
        write!(f, "[x{} {} {}]", self.var, op, self.val)
    }
}

/// Why a literal became true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Cause {
    /// A search decision (or an LNS fixing): no explanation.
    #[default]
    Decision,
    /// The branch-and-bound bound on the objective: a fact for the rest of
    /// the search (bounds only tighten), so recorded at level 0.
    Bound,
    /// A propagator, explained lazily by `Propagator::explain`.
    Prop(u32),
    /// A learned nogood (its index in the database).
    Nogood(u32),
    /// Implied by the previous bound and the removals between (a bound that
    /// moved because a bitset operation removed the old one).
    Implied,
}

/// One literal on the trail.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) lit: Lit,
    pub(crate) level: u32,
    /// The previous entry of the same variable (`NONE` if none).
    prev: u32,
    /// The previous bound entry (`[x >= v]`, `[x <= v]`, `[x = v]`) of the
    /// same variable, so that questions about bounds skip the holes.
    prev_bound: u32,
    pub(crate) cause: Cause,
    /// What the cause asked for (the entry's literal may be stronger).
    pub(crate) asked: Lit,
    /// The bound before the change (bound entries).
    pub(crate) from: i64,
}

const NONE: u32 = u32::MAX;

/// A domain as it was when learning began: the facts true at level 0.
#[derive(Clone, Debug)]
struct Root {
    min: i64,
    max: i64,
    offset: i64,
    bits: Vec<u64>,
}

impl Root {
    fn contains(&self, x: i64) -> bool {
        if x < self.min || x > self.max {
            return false;
        }
        if self.bits.is_empty() {
            return true;
        }
        let i = (x - self.offset) as usize;
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }
}

/// A failure that conflict analysis starts from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Conflict {
    pub(crate) cause: Cause,
    /// The variable and the literal its change would have made true, or
    /// `None` when the cause failed on its own (a propagator's check, or a
    /// bitset operation that emptied a domain).
    pub(crate) asked: Option<Lit>,
}

/// The literal trail.
#[derive(Debug, Default)]
pub(crate) struct LitTrail {
    entries: Vec<Entry>,
    head: Vec<u32>,
    /// Per variable, its latest bound entry (see `Entry::prev_bound`).
    bound_head: Vec<u32>,
    /// Per variable with a bitset domain, per value (from the root's
    /// offset), the entry that removed it (`[x != value]`), or `NONE`: the
    /// reason for a hole is found without walking the variable's changes,
    /// which made conflict analysis quadratic on wide domains. Allocated at
    /// a variable's first removal: many variables never lose an inner value,
    /// and a search (each LNS round, each sub-problem) makes a trail afresh.
    removed_by: Vec<Vec<u32>>,
    root: Vec<Root>,
    /// The cause of the changes being made now.
    pub(crate) cause: Cause,
    /// The failure of the last propagation, if one was recorded.
    pub(crate) conflict: Option<Conflict>,
    /// The current decision level (the nesting of checkpoints).
    pub(crate) level: u32,
    /// How far the nogoods have looked at the entries (`nogoods.rs`).
    pub(crate) processed: usize,
}

impl LitTrail {
    /// A trail over domains as they are now (they become level 0).
    pub(crate) fn new(doms: &super::domains::Domains) -> Self {
        let n = doms.num_vars();
        let root: Vec<Root> = (0..n)
            .map(|v| Root {
                min: doms.min(v),
                max: doms.max(v),
                offset: doms.offset(v),
                bits: doms.bits(v).to_vec(),
            })
            .collect();
        LitTrail {
            entries: Vec::new(),
            head: vec![NONE; n],
            bound_head: vec![NONE; n],
            removed_by: vec![Vec::new(); n],
            root,
            cause: Cause::Decision,
            conflict: None,
            level: 0,
            processed: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn entry(&self, i: usize) -> &Entry {
        &self.entries[i]
    }

    /// Records that `lit` became true, asked as `asked`, from bound `from`.
    pub(crate) fn push(&mut self, lit: Lit, asked: Lit, from: i64, cause: Cause) {
        let level = if cause == Cause::Bound { 0 } else { self.level };
        debug_assert!(
            level > 0 || cause != Cause::Decision,
            "a decision at level 0 would be taken for a fact"
        );
        let v = lit.var;
        let at = self.entries.len() as u32;
        self.entries.push(Entry {
            lit,
            level,
            prev: self.head[v],
            prev_bound: self.bound_head[v],
            cause,
            asked,
            from,
        });
        self.head[v] = at;
        if lit.kind == Kind::Ne {
            if let Some(slot) = self.removed_slot(v, lit.val) {
                *slot = at;
            }
        } else {
            self.bound_head[v] = at;
        }
    }

    /// Where the entry that removed `x` from `v` is kept, for a bitset
    /// domain and a value within its root.
    fn removed_slot(&mut self, v: VarId, x: i64) -> Option<&mut u32> {
        let i = x.checked_sub(self.root[v].offset)?;
        let index = &mut self.removed_by[v];
        if index.is_empty() {
            index.resize(self.root[v].bits.len() * 64, NONE);
        }
        index.get_mut(usize::try_from(i).ok()?)
    }

    /// The entry before `pos` that removed `x` from `v`: `Some(None)` when
    /// none did, `None` when the variable keeps no such index.
    fn removal_before(&self, v: VarId, x: i64, pos: usize) -> Option<Option<usize>> {
        let r = &self.root[v];
        let i = usize::try_from(x.checked_sub(r.offset)?).ok()?;
        if i >= r.bits.len() * 64 {
            return None;
        }
        // Not allocated yet: nothing was removed.
        let e = self.removed_by[v].get(i).copied().unwrap_or(NONE);
        Some((e != NONE && (e as usize) < pos).then_some(e as usize))
    }

    /// Forgets the entries from `len` on (backtracking).
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            if let Some(e) = self.entries.pop() {
                let v = e.lit.var;
                self.head[v] = e.prev;
                if e.lit.kind == Kind::Ne {
                    if let Some(slot) = self.removed_slot(v, e.lit.val) {
                        *slot = NONE;
                    }
                } else {
                    self.bound_head[v] = e.prev_bound;
                }
            }
        }
        self.processed = self.processed.min(len);
    }

    /// The entries of `v` before position `pos`, latest first.
    fn chain(&self, v: VarId, pos: usize) -> Chain<'_> {
        Chain::before(self, self.head[v], false, pos)
    }

    /// The bound entries of `v` before position `pos`, latest first.
    fn bound_chain(&self, v: VarId, pos: usize) -> Chain<'_> {
        Chain::before(self, self.bound_head[v], true, pos)
    }

    /// Whether `x` was in the domain of `v` when learning began.
    pub(crate) fn root_contains(&self, v: VarId, x: i64) -> bool {
        self.root[v].contains(x)
    }

    /// Whether `lit` held in the domains learning began from (a level-0
    /// fact, which explanations may leave out).
    pub(crate) fn holds_at_root(&self, lit: Lit) -> bool {
        let r = &self.root[lit.var];
        match lit.kind {
            Kind::Ge => r.min >= lit.val,
            Kind::Le => r.max <= lit.val,
            Kind::Ne => !r.contains(lit.val),
            Kind::Eq => r.min == lit.val && r.max == lit.val,
        }
    }

    /// The first entry before `pos` from which `lit` holds, or `None` when
    /// it holds at the root. The caller knows it holds at `pos`.
    pub(crate) fn reason_entry(&self, lit: Lit, pos: usize) -> Option<usize> {
        if self.holds_at_root(lit) {
            return None;
        }
        let v = lit.var;
        match lit.kind {
            Kind::Ne => {
                // A value removed by an entry of its own was in the domain
                // until then: no older entry implied its absence.
                match self.removal_before(v, lit.val, pos) {
                    Some(Some(i)) => Some(i),
                    Some(None) => self.first_bound_excluding(v, lit.val, pos),
                    None => {
                        let removed = self
                            .chain(v, pos)
                            .filter(|&i| self.entries[i].lit == lit)
                            .last();
                        removed.or_else(|| self.first_bound_excluding(v, lit.val, pos))
                    }
                }
            }
            _ => {
                // Only bound entries imply a bound (or a fixing), and
                // bounds only tighten: once one is weaker, older ones are too.
                let mut first = None;
                for i in self.bound_chain(v, pos) {
                    let e = &self.entries[i];
                    if e.lit.implies(lit) {
                        first = Some(i);
                    } else if e.lit.kind == lit.kind {
                        break;
                    }
                }
                first
            }
        }
    }

    /// The first bound entry of `v` before `pos` that leaves `x` out.
    fn first_bound_excluding(&self, v: VarId, x: i64, pos: usize) -> Option<usize> {
        let (mut below_done, mut above_done) = (false, false);
        let mut first = None;
        for i in self.bound_chain(v, pos) {
            let e = &self.entries[i];
            if e.lit.holds(x) {
                match e.lit.kind {
                    Kind::Ge => below_done = true,
                    Kind::Le => above_done = true,
                    _ => {}
                }
                if below_done && above_done {
                    break;
                }
            } else {
                first = Some(i);
            }
        }
        first
    }

    /// The bounds of `v` at position `pos` that its changes set (`None`:
    /// the root's), each hole (`x != value`) handed to `hole` when `holes`;
    /// without holes the walk stops once both bounds are known.
    fn walk(
        &self,
        v: VarId,
        pos: usize,
        holes: bool,
        mut hole: impl FnMut(i64),
    ) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi) = (None, None);
        let entries = if holes {
            self.chain(v, pos)
        } else {
            self.bound_chain(v, pos)
        };
        for i in entries {
            let e = &self.entries[i];
            match e.lit.kind {
                Kind::Ge if lo.is_none() => lo = Some(e.lit.val),
                Kind::Le if hi.is_none() => hi = Some(e.lit.val),
                Kind::Eq => {
                    lo.get_or_insert(e.lit.val);
                    hi.get_or_insert(e.lit.val);
                }
                Kind::Ne if holes => hole(e.lit.val),
                _ => {}
            }
            if !holes && lo.is_some() && hi.is_some() {
                break;
            }
        }
        (lo, hi)
    }

    /// The domain of `v` at position `pos`, as literals (those not true at
    /// the root): the bounds and the holes between them.
    pub(crate) fn domain_at(&self, v: VarId, pos: usize, out: &mut Vec<Lit>) {
        let r = &self.root[v];
        let start = out.len();
        let (lo, hi) = self.walk(v, pos, true, |x| out.push(Lit::ne(v, x)));
        let (l, h) = (lo.unwrap_or(r.min), hi.unwrap_or(r.max));
        // Holes outside the bounds are implied by them.
        let mut k = start;
        for j in start..out.len() {
            if out[j].val > l && out[j].val < h {
                out[k] = out[j];
                k += 1;
            }
        }
        out.truncate(k);
        if let Some(l) = lo {
            out.push(Lit::ge(v, l));
        }
        if let Some(h) = hi {
            out.push(Lit::le(v, h));
        }
    }

    /// The values of `v` at position `pos`, in increasing order, onto `out`
    /// (for domains narrow enough to list: the caller checks the bounds).
    pub(crate) fn values_at(&self, v: VarId, pos: usize, out: &mut Vec<i64>) {
        let r = &self.root[v];
        let mut holes = Vec::new();
        let (lo, hi) = self.walk(v, pos, true, |x| holes.push(x));
        holes.sort_unstable();
        let (l, h) = (lo.unwrap_or(r.min), hi.unwrap_or(r.max));
        out.extend((l..=h).filter(|&x| r.contains(x) && holes.binary_search(&x).is_err()));
    }

    /// The bounds of `v` at position `pos`.
    pub(crate) fn bounds_at(&self, v: VarId, pos: usize) -> (i64, i64) {
        let r = &self.root[v];
        let (lo, hi) = self.walk(v, pos, false, |_| {});
        (lo.unwrap_or(r.min), hi.unwrap_or(r.max))
    }

    /// The literals, true before entry `i`, that together with what its
    /// cause asked imply its literal (the holes a bound jumped over).
    pub(crate) fn bridge(&self, i: usize, out: &mut Vec<Lit>) {
        let e = self.entries[i];
        let v = e.lit.var;
        let r = &self.root[v];
        let implied = e.cause == Cause::Implied;
        match e.lit.kind {
            Kind::Ge => {
                let from = if implied { e.from } else { e.asked.val };
                if implied && e.from > r.min {
                    out.push(Lit::ge(v, e.from));
                }
                out.extend(
                    (from..e.lit.val)
                        .filter(|&j| r.contains(j))
                        .map(|j| Lit::ne(v, j)),
                );
            }
            Kind::Le => {
                let from = if implied { e.from } else { e.asked.val };
                if implied && e.from < r.max {
                    out.push(Lit::le(v, e.from));
                }
                out.extend(
                    (e.lit.val + 1..=from)
                        .filter(|&j| r.contains(j))
                        .map(|j| Lit::ne(v, j)),
                );
            }
            Kind::Eq | Kind::Ne => {}
        }
    }
}

struct Chain<'a> {
    trail: &'a LitTrail,
    i: u32,
    /// Whether it follows `prev_bound` rather than `prev`.
    bounds: bool,
}

impl<'a> Chain<'a> {
    /// The chain from entry `i` on (`bounds`: through `prev_bound`),
    /// skipping the entries from `pos` on.
    fn before(trail: &'a LitTrail, i: u32, bounds: bool, pos: usize) -> Self {
        let mut c = Chain { trail, i, bounds };
        while c.i != NONE && c.i as usize >= pos {
            c.next();
        }
        c
    }
}

impl Iterator for Chain<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.i == NONE {
            return None;
        }
        let i = self.i as usize;
        let e = &self.trail.entries[i];
        self.i = if self.bounds { e.prev_bound } else { e.prev };
        Some(i)
    }
}

/// The domains as they were at one position of the literal trail: what a
/// propagator's lazy explanation reads (never the current domains, which
/// have moved on since it propagated).
pub(crate) struct Past<'a> {
    pub(crate) trail: &'a LitTrail,
    pub(crate) pos: usize,
}

impl Past<'_> {
    pub(crate) fn max(&self, v: VarId) -> i64 {
        self.trail.bounds_at(v, self.pos).1
    }
    pub(crate) fn bounds(&self, v: VarId) -> (i64, i64) {
        self.trail.bounds_at(v, self.pos)
    }
    /// The literals of the bounds of `v` then, those not true at the root:
    /// the explanation of a propagator that reads bounds only.
    pub(crate) fn bounds_lits(&self, v: VarId, out: &mut Vec<Lit>) {
        let (lo, hi) = self.bounds(v);
        for lit in [Lit::ge(v, lo), Lit::le(v, hi)] {
            if !self.trail.holds_at_root(lit) {
                out.push(lit);
            }
        }
    }
    /// The literals describing the domain of `v` then (bounds and holes).
    pub(crate) fn domain(&self, v: VarId, out: &mut Vec<Lit>) {
        self.trail.domain_at(v, self.pos, out);
    }
    /// The values of `v` then, in increasing order, onto `out` (for domains
    /// narrow enough to list: check [`Self::bounds`] first).
    pub(crate) fn values(&self, v: VarId, out: &mut Vec<i64>) {
        self.trail.values_at(v, self.pos, out);
    }
    /// Whether `x` was in the domain of `v` then.
    pub(crate) fn contains(&self, v: VarId, x: i64) -> bool {
        if !self.trail.root_contains(v, x) {
            return false;
        }
        match self.trail.removal_before(v, x, self.pos) {
            Some(removed) => {
                let (lo, hi) = self.bounds(v);
                removed.is_none() && lo <= x && x <= hi
            }
            None => self
                .trail
                .chain(v, self.pos)
                .all(|i| self.trail.entries[i].lit.holds(x)),
        }
    }
    /// Whether `lit` held then.
    pub(crate) fn holds(&self, lit: Lit) -> bool {
        let (lo, hi) = self.bounds(lit.var);
        match lit.kind {
            Kind::Ge => lo >= lit.val,
            Kind::Le => hi <= lit.val,
            Kind::Eq => lo == lit.val && hi == lit.val,
            Kind::Ne => lit.val < lo || lit.val > hi || !self.contains(lit.var, lit.val),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::domains::Domains;

    fn lits(d: &Domains) -> Vec<Lit> {
        let l = d.learn.as_ref().unwrap();
        (0..l.len()).map(|i| l.entry(i).lit).collect()
    }

    /// The values of `v` just after the first `pos` entries, by replaying
    /// them from the root: the definition the indexed queries must meet.
    fn replayed(l: &LitTrail, v: VarId, pos: usize) -> Vec<i64> {
        let r = &l.root[v];
        (r.min..=r.max)
            .filter(|&x| r.contains(x))
            .filter(|&x| (0..pos).all(|i| l.entries[i].lit.var != v || l.entries[i].lit.holds(x)))
            .collect()
    }

    #[test]
    fn indexed_reasons_and_past_domains_agree_with_a_replay_of_the_trail() {
        use rand::rngs::Xoshiro256PlusPlus;
        use rand::{RngExt, SeedableRng};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
        for _ in 0..200 {
            let mut d = Domains::default();
            // One bitset variable with holes, one wide interval.
            let a = d.add_var(&[0, 1, 2, 4, 5, 6, 8, 9]);
            let b = d.add_var(&(0..=1000).collect::<Vec<_>>());
            d.start_learning();
            let mut cps = Vec::new();
            // Positions between two operations: an explanation is asked at
            // such a position, never between a removal and the bound it moved.
            let mut between = vec![0];
            for _ in 0..12 {
                let v = if rng.random_range(0..3) == 0 { b } else { a };
                let vals: Vec<i64> = d.values(v).collect();
                let x = vals[rng.random_range(0..vals.len())];
                // Each change on a level of its own, as decisions are; a
                // failure is undone, and some levels are backtracked.
                let cp = d.checkpoint();
                let done = match rng.random_range(0..5) {
                    0 => d.set_min(v, x),
                    1 => d.set_max(v, x),
                    2 if vals.len() > 3 => d.fix(v, x),
                    _ => d.remove(v, x),
                };
                if done.is_err() {
                    d.restore(cp);
                } else {
                    cps.push(cp);
                }
                if rng.random_range(0..6) == 0
                    && let Some(cp) = cps.pop()
                {
                    d.restore(cp);
                }
                let len = d.learn.as_ref().unwrap().len();
                between.retain(|&p| p < len);
                between.push(len);
            }
            let l = d.learn.as_ref().unwrap();
            for &pos in &between {
                for v in [a, b] {
                    let now = replayed(l, v, pos);
                    let past = Past { trail: l, pos };
                    let (r_min, r_max) = (l.root[v].min, l.root[v].max);
                    for x in r_min - 1..=r_max.min(12) + 1 {
                        assert_eq!(past.contains(v, x), now.contains(&x), "{v} {x} at {pos}");
                        let lits = [Lit::ne(v, x), Lit::ge(v, x), Lit::le(v, x)];
                        for lit in lits.into_iter().filter(|q| now.iter().all(|&y| q.holds(y))) {
                            let got = l.reason_entry(lit, pos);
                            if l.holds_at_root(lit) {
                                assert_eq!(got, None, "{lit} at {pos}");
                                continue;
                            }
                            // The operation after which it first held: the
                            // reason is one of its entries, and implies it.
                            let k = between
                                .iter()
                                .position(|&b| replayed(l, v, b).iter().all(|&y| lit.holds(y)));
                            let k = k.expect("it holds at pos");
                            let i = got.unwrap_or_else(|| panic!("{lit} at {pos}: no reason"));
                            assert!(
                                between[k - 1] <= i && i < between[k],
                                "{lit} at {pos}: entry {i}, operation {}..{}",
                                between[k - 1],
                                between[k]
                            );
                            assert!(replayed(l, v, i + 1).iter().all(|&y| lit.holds(y)));
                        }
                    }
                    assert_eq!(l.bounds_at(v, pos), (now[0], now[now.len() - 1]));
                }
            }
        }
    }

    #[test]
    fn changes_are_recorded_as_literals_with_bridges() {
        let mut d = Domains::default();
        let x = d.add_var(&(1..=10).collect::<Vec<_>>());
        d.start_learning();
        let cp = d.checkpoint();
        d.remove(x, 3).unwrap();
        d.remove(x, 4).unwrap();
        d.set_min(x, 3).unwrap();
        assert_eq!(lits(&d), vec![Lit::ne(x, 3), Lit::ne(x, 4), Lit::ge(x, 5)]);
        let l = d.learn.as_ref().unwrap();
        let mut out = Vec::new();
        l.bridge(2, &mut out);
        assert_eq!(out, vec![Lit::ne(x, 3), Lit::ne(x, 4)]);
        assert_eq!(l.reason_entry(Lit::ne(x, 2), 3), Some(2));
        assert_eq!(l.reason_entry(Lit::ne(x, 4), 3), Some(1));
        // A bitset operation: each removal, then the bound it moved.
        let mut mask = vec![0u64; 1];
        for v in [5, 9] {
            mask[0] |= 1 << (v - 1);
        }
        d.intersect(x, &mask).unwrap();
        let got = lits(&d);
        assert_eq!(
            got[3..],
            [
                Lit::ne(x, 6),
                Lit::ne(x, 7),
                Lit::ne(x, 8),
                Lit::ne(x, 10),
                Lit::le(x, 9)
            ]
        );
        let l = d.learn.as_ref().unwrap();
        let mut out = Vec::new();
        l.bridge(7, &mut out);
        assert_eq!(out, vec![Lit::ne(x, 10)]);
        let mut dom = Vec::new();
        l.domain_at(x, l.len(), &mut dom);
        dom[..3].sort();
        assert_eq!(
            dom,
            vec![
                Lit::ne(x, 6),
                Lit::ne(x, 7),
                Lit::ne(x, 8),
                Lit::ge(x, 5),
                Lit::le(x, 9)
            ]
        );
        d.set_max(x, 8).unwrap();
        let l = d.learn.as_ref().unwrap();
        let mut out = Vec::new();
        l.bridge(l.len() - 1, &mut out);
        assert_eq!(l.entry(l.len() - 1).lit, Lit::le(x, 5));
        assert_eq!(out, vec![Lit::ne(x, 6), Lit::ne(x, 7), Lit::ne(x, 8)]);
        d.restore(cp);
        assert!(d.learn.as_ref().unwrap().is_empty());
    }
}
