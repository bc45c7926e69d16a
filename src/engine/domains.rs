//! Integer domains on the trail, in one of two representations:
//!
//! - **bitset**: `nwords` words where bit `i` stands for `offset + i`, for
//!   domains whose span is small enough to hold every value (word variables
//!   too: their values are indices into a sorted word list);
//! - **interval**: only the bounds, for domains too wide for a bitset (any
//!   range of `i64`). Removing a value strictly inside the bounds is a no-op,
//!   as in Choco's bounded variables: propagators stay correct, they only
//!   prune less, and a fixed variable is still exact. Value selection picks a
//!   bound of an interval domain, so `x != v` always removes `v`.
//!
//! Both keep their size, min and max in reversible integers. Every change
//! records the variable in `changed`, from which the engine wakes the
//! propagators that subscribed to the event.

use super::learn::{Cause, Conflict, Kind, Lit, LitTrail};
use super::trail::{Checkpoint, RevInt, RevWords, Trail};
use crate::model::VarId;

/// A domain became empty: the current node has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fail;

pub(crate) type PResult = Result<(), Fail>;

pub(crate) use crate::model::domain::{MAX_BITSET_SPAN, RANGE_BITSET_SPAN};

#[derive(Clone, Copy, Debug)]
struct Layout {
    /// The value of bit 0 (bitset domains).
    offset: i64,
    /// The bitset; empty for an interval domain.
    words: RevWords,
    /// Number of values, saturating at `u64::MAX` (stored as its bits); kept
    /// for intervals too, so that reading it needs no test of the kind.
    size: RevInt,
    min: RevInt,
    max: RevInt,
}

/// What happened to a variable: a set of these bits.
pub(crate) mod event {
    /// Some value was removed.
    pub(crate) const REMOVE: u8 = 1;
    /// The minimum or the maximum changed.
    pub(crate) const BOUNDS: u8 = 2;
    /// The domain became a single value.
    pub(crate) const FIX: u8 = 4;
}

#[derive(Debug, Default)]
pub(crate) struct Domains {
    pub(crate) trail: Trail,
    layout: Vec<Layout>,
    /// Variables changed since the engine last looked, with their events.
    pub(crate) changed: Vec<VarId>,
    pub(crate) pending: Vec<u8>,
    /// Hold every integer range by its bounds only, however narrow (tests
    /// use it to check that interval domains lose no answers).
    pub(crate) bounds_only: bool,
    /// The literal trail, when learning is on (`learn/mod.rs`): every change
    /// below is recorded there as atomic literals with its cause.
    pub(crate) learn: Option<Box<LitTrail>>,
}

impl Domains {
    /// Adds a variable with the given sorted, distinct, non-empty values, as a
    /// bitset when they fit one, else as the interval from first to last.
    pub(crate) fn add_var(&mut self, values: &[i64]) -> VarId {
        let (lo, hi) = (values[0], values[values.len() - 1]);
        let span = span(lo, hi);
        let whole = span == values.len() as u64;
        if (whole && (span > RANGE_BITSET_SPAN || self.bounds_only)) || span > MAX_BITSET_SPAN {
            return self.add_interval(lo, hi);
        }
        let nwords = (span as usize).div_ceil(64);
        let mut words = vec![0u64; nwords];
        if whole {
            for (w, word) in words.iter_mut().enumerate() {
                let bits = (span as usize - w * 64).min(64);
                *word = if bits == 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                };
            }
        } else {
            for &v in values {
                let i = (v - lo) as usize;
                words[i / 64] |= 1 << (i % 64);
            }
        }
        let layout = Layout {
            offset: lo,
            words: self.trail.new_words(&words),
            size: self.trail.new_int(values.len() as i64),
            min: self.trail.new_int(lo),
            max: self.trail.new_int(hi),
        };
        self.push(layout)
    }

    /// Adds a variable with every value of `lo..=hi`, held as bounds only
    /// when the range is wide.
    pub(crate) fn add_range(&mut self, lo: i64, hi: i64) -> VarId {
        if span(lo, hi) > RANGE_BITSET_SPAN || self.bounds_only {
            self.add_interval(lo, hi)
        } else {
            let values: Vec<i64> = (lo..=hi).collect();
            self.add_var(&values)
        }
    }

    /// Adds a variable held as bounds only, whatever its width.
    pub(crate) fn add_interval(&mut self, lo: i64, hi: i64) -> VarId {
        let layout = Layout {
            offset: lo,
            words: self.trail.new_words(&[]),
            size: self.trail.new_int(span(lo, hi) as i64),
            min: self.trail.new_int(lo),
            max: self.trail.new_int(hi),
        };
        self.push(layout)
    }

    fn push(&mut self, layout: Layout) -> VarId {
        self.layout.push(layout);
        self.pending.push(0);
        self.layout.len() - 1
    }

    pub(crate) fn num_vars(&self) -> usize {
        self.layout.len()
    }

    /// Forgets the variables from `vars` on and the trail slots from
    /// `slots` on (a lowering that gave up; only before search).
    pub(crate) fn truncate(&mut self, vars: usize, slots: usize) {
        self.layout.truncate(vars);
        self.pending.truncate(vars);
        self.changed.retain(|&v| v < vars);
        self.trail.truncate(slots);
    }

    /// Whether the domain is a bitset (every value is represented), as
    /// opposed to an interval (bounds only).
    #[inline]
    pub(crate) fn is_bitset(&self, v: VarId) -> bool {
        !self.layout[v].words.is_empty()
    }

    /// The number of values (saturating at `u64::MAX` for the widest intervals).
    #[inline]
    pub(crate) fn size(&self, v: VarId) -> u64 {
        self.trail.int(self.layout[v].size) as u64
    }
    /// One read, as the size is kept for both kinds of domain: the search
    /// and the propagators ask this at every turn.
    #[inline]
    pub(crate) fn is_fixed(&self, v: VarId) -> bool {
        self.size(v) == 1
    }
    #[inline]
    pub(crate) fn min(&self, v: VarId) -> i64 {
        self.trail.int(self.layout[v].min)
    }
    #[inline]
    pub(crate) fn max(&self, v: VarId) -> i64 {
        self.trail.int(self.layout[v].max)
    }
    /// The value of a fixed variable.
    #[inline]
    pub(crate) fn value(&self, v: VarId) -> Option<i64> {
        self.is_fixed(v).then(|| self.min(v))
    }
    #[inline]
    pub(crate) fn contains(&self, v: VarId, x: i64) -> bool {
        let l = &self.layout[v];
        if x < self.trail.int(l.min) || x > self.trail.int(l.max) {
            return false;
        }
        if l.words.is_empty() {
            return true;
        }
        let i = (x - l.offset) as usize;
        self.trail.word(l.words, i / 64) & (1 << (i % 64)) != 0
    }

    /// The bitset words of a bitset domain (empty for an interval); bit `i`
    /// is the value `offset + i`.
    #[inline]
    pub(crate) fn bits(&self, v: VarId) -> &[u64] {
        self.trail.words(self.layout[v].words)
    }
    /// Copies the bitset of `v` into `to` (as many words), through the
    /// trail: a propagator's record of the domain it last saw.
    #[inline]
    pub(crate) fn copy_bits(&mut self, v: VarId, to: RevWords) {
        let from = self.layout[v].words;
        for k in 0..to.len().min(from.len()) {
            let c = self.trail.word(from, k);
            self.trail.set_word(to, k, c);
        }
    }

    /// The value of bit 0 of a bitset domain.
    pub(crate) fn offset(&self, v: VarId) -> i64 {
        self.layout[v].offset
    }

    /// The values in increasing order. For an interval that is every value
    /// between the bounds: callers bound the size first.
    pub(crate) fn values(&self, v: VarId) -> Values<'_> {
        let l = &self.layout[v];
        let (min, max) = (self.trail.int(l.min), self.trail.int(l.max));
        if l.words.is_empty() || max < min {
            return Values::Range(min..=max);
        }
        let lo = (min - l.offset) as usize / 64;
        let hi = (max - l.offset) as usize / 64;
        Values::Bits {
            bits: self.bits(v),
            offset: l.offset,
            w: lo,
            hi,
            word: self.bits(v)[lo],
        }
    }

    fn note(&mut self, v: VarId, ev: u8) {
        if self.pending[v] == 0 {
            self.changed.push(v);
        }
        self.pending[v] |= ev;
    }

    /// Removes one value. `Ok(true)` if the domain changed; removing a value
    /// inside the bounds of an interval domain changes nothing.
    fn remove_raw(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if !self.contains(v, x) {
            return Ok(false);
        }
        let l = self.layout[v];
        let (min, max) = (self.trail.int(l.min), self.trail.int(l.max));
        if l.words.is_empty() {
            return if x == min {
                self.set_min_raw(v, x + 1)
            } else if x == max {
                self.set_max_raw(v, x - 1)
            } else {
                Ok(false)
            };
        }
        if min == max {
            self.empty(v);
            return Err(Fail);
        }
        let i = (x - l.offset) as usize;
        let w = self.trail.word(l.words, i / 64);
        self.trail.set_word(l.words, i / 64, w & !(1 << (i % 64)));
        let size = self.trail.int(l.size) - 1;
        self.trail.set_int(l.size, size);
        let mut ev = event::REMOVE;
        if x == min {
            let lo = self.next_set_from(l.words, i + 1);
            self.trail.set_int(l.min, l.offset + lo as i64);
            ev |= event::BOUNDS;
        } else if x == max {
            let hi = self.prev_set_from(l.words, i - 1);
            self.trail.set_int(l.max, l.offset + hi as i64);
            ev |= event::BOUNDS;
        }
        if size == 1 {
            ev |= event::FIX;
        }
        self.note(v, ev);
        Ok(true)
    }

    /// Reduces the domain to one value.
    fn fix_raw(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if !self.contains(v, x) {
            self.empty(v);
            return Err(Fail);
        }
        if self.is_fixed(v) {
            return Ok(false);
        }
        let l = self.layout[v];
        if !l.words.is_empty() {
            let i = (x - l.offset) as usize;
            let lo = (self.trail.int(l.min) - l.offset) as usize / 64;
            let hi = (self.trail.int(l.max) - l.offset) as usize / 64;
            for w in lo..=hi {
                let keep = if w == i / 64 { 1 << (i % 64) } else { 0 };
                self.trail.set_word(l.words, w, keep);
            }
        }
        self.trail.set_int(l.size, 1);
        self.trail.set_int(l.min, x);
        self.trail.set_int(l.max, x);
        self.note(v, event::REMOVE | event::BOUNDS | event::FIX);
        Ok(true)
    }

    /// Removes every value below `x`.
    fn set_min_raw(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if x <= self.min(v) {
            return Ok(false);
        }
        if x > self.max(v) {
            self.empty(v);
            return Err(Fail);
        }
        let l = self.layout[v];
        if l.words.is_empty() {
            self.trail.set_int(l.min, x);
            self.trail.set_int(l.size, span(x, self.max(v)) as i64);
            return Ok(self.after_bounds(v, x == self.max(v)));
        }
        let i = (x - l.offset) as usize;
        let lo = (self.trail.int(l.min) - l.offset) as usize;
        let mut removed = 0i64;
        for w in lo / 64..=i / 64 {
            let old = self.trail.word(l.words, w);
            let keep = if w == i / 64 {
                old & (!0u64 << (i % 64))
            } else {
                0
            };
            if keep != old {
                removed += i64::from((old & !keep).count_ones());
                self.trail.set_word(l.words, w, keep);
            }
        }
        let new_lo = self.next_set_from(l.words, i);
        self.trail.set_int(l.min, l.offset + new_lo as i64);
        let size = self.trail.int(l.size) - removed;
        self.trail.set_int(l.size, size);
        Ok(self.after_bounds(v, size == 1))
    }

    /// Removes every value above `x`.
    fn set_max_raw(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if x >= self.max(v) {
            return Ok(false);
        }
        if x < self.min(v) {
            self.empty(v);
            return Err(Fail);
        }
        let l = self.layout[v];
        if l.words.is_empty() {
            self.trail.set_int(l.max, x);
            self.trail.set_int(l.size, span(self.min(v), x) as i64);
            return Ok(self.after_bounds(v, x == self.min(v)));
        }
        let i = (x - l.offset) as usize;
        let hi = (self.trail.int(l.max) - l.offset) as usize;
        let mut removed = 0i64;
        for w in i / 64..=hi / 64 {
            let old = self.trail.word(l.words, w);
            let keep = if w == i / 64 {
                old & (!0u64 >> (63 - i % 64))
            } else {
                0
            };
            if keep != old {
                removed += i64::from((old & !keep).count_ones());
                self.trail.set_word(l.words, w, keep);
            }
        }
        let new_hi = self.prev_set_from(l.words, i);
        self.trail.set_int(l.max, l.offset + new_hi as i64);
        let size = self.trail.int(l.size) - removed;
        self.trail.set_int(l.size, size);
        Ok(self.after_bounds(v, size == 1))
    }

    fn after_bounds(&mut self, v: VarId, fixed: bool) -> bool {
        let mut ev = event::REMOVE | event::BOUNDS;
        if fixed {
            ev |= event::FIX;
        }
        self.note(v, ev);
        true
    }

    /// Keeps only the values whose bits are set in `mask` (a bitset domain,
    /// same layout as [`Self::bits`]).
    fn intersect_raw(&mut self, v: VarId, mask: &[u64]) -> Result<bool, Fail> {
        let l = self.layout[v];
        debug_assert!(!l.words.is_empty(), "intersect needs a bitset domain");
        let old_lo = (self.trail.int(l.min) - l.offset) as usize;
        let old_hi = (self.trail.int(l.max) - l.offset) as usize;
        let mut removed = 0i64;
        for w in old_lo / 64..=old_hi / 64 {
            let old = self.trail.word(l.words, w);
            let new = old & mask.get(w).copied().unwrap_or(0);
            if new != old {
                removed += i64::from((old & !new).count_ones());
                self.trail.set_word(l.words, w, new);
            }
        }
        // Most revisions remove nothing: no call then (a read-only pass
        // before the writes, to tell it sooner, measured no faster).
        if removed == 0 {
            return Ok(false);
        }
        self.after_words(v, removed, old_lo, old_hi)
    }

    /// The 64 bits of a bitset domain from bit position `pos` on: bit `i` of
    /// the answer is the value `offset + pos + i`. Positions outside the
    /// bitset (`pos` may be negative) read as absent. Small-range propagators
    /// (all-different) read a domain in one word this way.
    #[inline]
    pub(crate) fn window(&self, v: VarId, pos: i64) -> u64 {
        let bits = self.bits(v);
        // The common case first: a one-word domain read from its bit 0 or
        // a little below or above it.
        if let [w] = bits {
            return match pos {
                0..=63 => w >> pos,
                -63..=-1 => w << -pos,
                _ => 0,
            };
        }
        if pos < 0 {
            return match bits.first() {
                Some(&w) if pos > -64 => w << -pos,
                _ => 0,
            };
        }
        let (w, sh) = ((pos / 64) as usize, (pos % 64) as u32);
        let lo = bits.get(w).map_or(0, |&x| x >> sh);
        if sh == 0 {
            return lo;
        }
        lo | bits.get(w + 1).map_or(0, |&x| x << (64 - sh))
    }

    /// The 64 values from `x0` on, of any domain: bit `i` of the answer is
    /// set when `x0 + i` is in it (an interval's values are its range).
    #[inline]
    pub(crate) fn window_at(&self, v: VarId, x0: i64) -> u64 {
        if self.is_bitset(v) {
            return self.window(v, x0.saturating_sub(self.offset(v)));
        }
        let (a, b) = (self.min(v).max(x0), self.max(v).min(x0.saturating_add(63)));
        if a > b {
            0
        } else {
            (!0u64 >> (63 - (b - a))) << (a - x0)
        }
    }

    /// Removes the values whose bits are set in `mask`, read as a
    /// [`Self::window`] from bit position `pos` (a bitset domain), in one
    /// update of size, bounds and events.
    fn remove_window_raw(&mut self, v: VarId, pos: i64, mask: u64) -> Result<bool, Fail> {
        let l = self.layout[v];
        debug_assert!(!l.words.is_empty(), "remove_window needs a bitset domain");
        let old_lo = (self.trail.int(l.min) - l.offset) as usize;
        let old_hi = (self.trail.int(l.max) - l.offset) as usize;
        // The mask split over the (at most two) words it covers.
        let parts: [(i64, u64); 2] = if pos < 0 {
            let m = if pos > -64 { mask >> -pos } else { 0 };
            [(0, m), (-1, 0)]
        } else {
            let (w, sh) = (pos / 64, (pos % 64) as u32);
            let high = if sh == 0 { 0 } else { mask >> (64 - sh) };
            [(w, mask << sh), (w + 1, high)]
        };
        let mut removed = 0i64;
        for (w, m) in parts {
            if m == 0 || w < 0 || w as usize >= l.words.len() {
                continue;
            }
            let old = self.trail.word(l.words, w as usize);
            let new = old & !m;
            if new != old {
                removed += i64::from((old & m).count_ones());
                self.trail.set_word(l.words, w as usize, new);
            }
        }
        self.after_words(v, removed, old_lo, old_hi)
    }

    /// Size, bounds and events after `removed` values left the bitset of a
    /// domain whose bounds were `old_lo..=old_hi` (bit positions). It reads
    /// the layout again rather than taking the caller's copy by reference:
    /// a reference would make the caller keep its copy on the stack and read
    /// the fields back from there, a stall at the top of every intersect.
    fn after_words(
        &mut self,
        v: VarId,
        removed: i64,
        old_lo: usize,
        old_hi: usize,
    ) -> Result<bool, Fail> {
        if removed == 0 {
            return Ok(false);
        }
        let l = self.layout[v];
        let size = self.trail.int(l.size) - removed;
        if size == 0 {
            self.empty(v);
            return Err(Fail);
        }
        self.trail.set_int(l.size, size);
        let new_lo = self.next_set_from(l.words, old_lo);
        let new_hi = self.prev_set_from(l.words, old_hi);
        let mut ev = event::REMOVE;
        if new_lo != old_lo || new_hi != old_hi {
            ev |= event::BOUNDS;
            self.trail.set_int(l.min, l.offset + new_lo as i64);
            self.trail.set_int(l.max, l.offset + new_hi as i64);
        }
        if size == 1 {
            ev |= event::FIX;
        }
        self.note(v, ev);
        Ok(true)
    }

    /// Marks a failed domain empty (min above max), so that nothing reads a
    /// stale value from it before the engine backtracks.
    fn empty(&mut self, v: VarId) {
        let l = self.layout[v];
        let min = self.trail.int(l.min);
        if min > i64::MIN {
            self.trail.set_int(l.max, min - 1);
        } else {
            self.trail.set_int(l.min, min + 1);
            self.trail.set_int(l.max, min);
        }
        self.trail.set_int(l.size, 0);
    }

    /// The first set bit at or after `i` (there is one: the domain is not empty).
    fn next_set_from(&self, words: RevWords, i: usize) -> usize {
        let bits = self.trail.words(words);
        let mut w = i / 64;
        let mut word = bits[w] & (!0u64 << (i % 64));
        loop {
            if word != 0 {
                return w * 64 + word.trailing_zeros() as usize;
            }
            w += 1;
            if w >= bits.len() {
                return i;
            }
            word = bits[w];
        }
    }

    /// The last set bit at or before `i` (there is one: the domain is not empty).
    fn prev_set_from(&self, words: RevWords, i: usize) -> usize {
        let bits = self.trail.words(words);
        let mut w = i / 64;
        let mut word = bits[w] & (!0u64 >> (63 - i % 64));
        loop {
            if word != 0 {
                return w * 64 + 63 - word.leading_zeros() as usize;
            }
            if w == 0 {
                return i;
            }
            w -= 1;
            word = bits[w];
        }
    }

    pub(crate) fn checkpoint(&mut self) -> Checkpoint {
        let mut cp = self.trail.checkpoint();
        if let Some(l) = &mut self.learn {
            cp.lits = l.len() as u32;
            cp.level = l.level;
            l.level += 1;
        }
        cp
    }

    pub(crate) fn restore(&mut self, cp: Checkpoint) {
        self.trail.restore(cp);
        if let Some(l) = &mut self.learn {
            l.truncate(cp.lits as usize);
            l.level = cp.level;
        }
        self.clear_changes();
    }

    /// Starts recording every change as literals (learning): the domains as
    /// they are now become the root.
    pub(crate) fn start_learning(&mut self) {
        if self.learn.is_none() {
            self.learn = Some(Box::new(LitTrail::new(self)));
        }
    }

    /// Sets the cause of the changes to come (learning only).
    #[inline]
    pub(crate) fn set_cause(&mut self, cause: Cause) {
        if let Some(l) = &mut self.learn {
            l.cause = cause;
        }
    }

    /// Removes one value. `Ok(true)` if the domain changed; removing a value
    /// inside the bounds of an interval domain changes nothing.
    #[inline]
    pub(crate) fn remove(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.remove_raw(v, x);
        }
        self.logged(v, Lit::ne(v, x), |d| d.remove_raw(v, x))
    }

    /// Fixes the variable to `x`; fails if `x` is not in the domain.
    #[inline]
    pub(crate) fn fix(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.fix_raw(v, x);
        }
        self.logged(v, Lit::eq(v, x), |d| d.fix_raw(v, x))
    }

    /// Removes every value below `x`.
    #[inline]
    pub(crate) fn set_min(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.set_min_raw(v, x);
        }
        self.logged(v, Lit::ge(v, x), |d| d.set_min_raw(v, x))
    }

    /// Removes every value above `x`.
    #[inline]
    pub(crate) fn set_max(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.set_max_raw(v, x);
        }
        self.logged(v, Lit::le(v, x), |d| d.set_max_raw(v, x))
    }

    /// Keeps only the values whose bits are set in `mask` (a bitset domain,
    /// same layout as [`Self::bits`]).
    #[inline]
    pub(crate) fn intersect(&mut self, v: VarId, mask: &[u64]) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.intersect_raw(v, mask);
        }
        self.logged_set(v, |d| d.intersect_raw(v, mask))
    }

    /// Removes the values whose bits are set in `mask`, read as a
    /// [`Self::window`] from bit position `pos` (a bitset domain), in one
    /// update of size, bounds and events.
    #[inline]
    pub(crate) fn remove_window(&mut self, v: VarId, pos: i64, mask: u64) -> Result<bool, Fail> {
        if self.learn.is_none() {
            return self.remove_window_raw(v, pos, mask);
        }
        self.logged_set(v, |d| d.remove_window_raw(v, pos, mask))
    }

    /// Runs a change asked as `asked` and records what became true.
    fn logged(
        &mut self,
        v: VarId,
        asked: Lit,
        op: impl FnOnce(&mut Self) -> Result<bool, Fail>,
    ) -> Result<bool, Fail> {
        let (lo, hi) = (self.min(v), self.max(v));
        let r = op(self);
        let (nlo, nhi) = (self.min(v), self.max(v));
        let Some(l) = &mut self.learn else {
            return r;
        };
        let cause = l.cause;
        match r {
            Ok(true) => match asked.kind {
                Kind::Eq => l.push(asked, asked, lo, cause),
                Kind::Ge => l.push(Lit::ge(v, nlo), asked, lo, cause),
                Kind::Le => l.push(Lit::le(v, nhi), asked, hi, cause),
                Kind::Ne => {
                    // The removal, then the bounds it moved, implied by it.
                    l.push(asked, asked, 0, cause);
                    if nlo > lo {
                        l.push(Lit::ge(v, nlo), asked, lo, Cause::Implied);
                    }
                    if nhi < hi {
                        l.push(Lit::le(v, nhi), asked, hi, Cause::Implied);
                    }
                }
            },
            Err(Fail) => {
                l.conflict = Some(Conflict {
                    cause,
                    asked: Some(asked),
                });
            }
            Ok(false) => {}
        }
        r
    }

    /// Runs a bitset operation and records each removed value, then the
    /// bounds it moved (implied by those removals).
    fn logged_set(
        &mut self,
        v: VarId,
        op: impl FnOnce(&mut Self) -> Result<bool, Fail>,
    ) -> Result<bool, Fail> {
        let (lo, hi) = (self.min(v), self.max(v));
        let before: Vec<i64> = self.values(v).collect();
        let r = op(self);
        match r {
            Ok(true) => {
                let (nlo, nhi) = (self.min(v), self.max(v));
                let gone: Vec<i64> = before
                    .into_iter()
                    .filter(|&x| !self.contains(v, x))
                    .collect();
                let Some(l) = &mut self.learn else {
                    return r;
                };
                let cause = l.cause;
                for x in gone {
                    l.push(Lit::ne(v, x), Lit::ne(v, x), 0, cause);
                }
                if nlo > lo {
                    l.push(Lit::ge(v, nlo), Lit::ge(v, nlo), lo, Cause::Implied);
                }
                if nhi < hi {
                    l.push(Lit::le(v, nhi), Lit::le(v, nhi), hi, Cause::Implied);
                }
            }
            Err(Fail) => {
                if let Some(l) = &mut self.learn {
                    l.conflict = Some(Conflict {
                        cause: l.cause,
                        asked: None,
                    });
                }
            }
            Ok(false) => {}
        }
        r
    }

    pub(crate) fn clear_changes(&mut self) {
        for v in self.changed.drain(..) {
            self.pending[v] = 0;
        }
    }
}

/// The number of values in `lo..=hi`, saturating.
#[inline]
pub(crate) fn span(lo: i64, hi: i64) -> u64 {
    if hi < lo {
        return 0;
    }
    u64::try_from(hi as i128 - lo as i128 + 1).unwrap_or(u64::MAX)
}

/// The values of a domain, in increasing order.
pub(crate) enum Values<'a> {
    Range(std::ops::RangeInclusive<i64>),
    Bits {
        bits: &'a [u64],
        offset: i64,
        w: usize,
        hi: usize,
        word: u64,
    },
}

impl Iterator for Values<'_> {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        match self {
            Values::Range(r) => r.next(),
            Values::Bits {
                bits,
                offset,
                w,
                hi,
                word,
            } => loop {
                if *word != 0 {
                    let b = word.trailing_zeros() as usize;
                    *word &= *word - 1;
                    return Some(*offset + (*w * 64 + b) as i64);
                }
                if *w >= *hi {
                    return None;
                }
                *w += 1;
                *word = bits[*w];
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals(d: &Domains, v: VarId) -> Vec<i64> {
        d.values(v).collect()
    }

    #[test]
    fn bitset_operations_keep_size_and_bounds() {
        let mut d = Domains::default();
        let x = d.add_var(&[-3, -1, 0, 5, 64, 70, 200]);
        assert!(d.is_bitset(x));
        assert_eq!((d.size(x), d.min(x), d.max(x)), (7, -3, 200));
        let cp = d.checkpoint();
        assert!(d.remove(x, -3).unwrap());
        assert_eq!(d.min(x), -1);
        assert!(!d.remove(x, 4).unwrap());
        assert!(d.set_max(x, 69).unwrap());
        assert_eq!(vals(&d, x), vec![-1, 0, 5, 64]);
        assert!(d.set_min(x, 1).unwrap());
        assert_eq!((d.size(x), d.min(x), d.max(x)), (2, 5, 64));
        assert!(d.fix(x, 64).unwrap());
        assert_eq!(d.value(x), Some(64));
        assert!(d.remove(x, 64).is_err());
        d.restore(cp);
        assert_eq!(vals(&d, x), vec![-3, -1, 0, 5, 64, 70, 200]);
    }

    /// `intersect` keeps the values whose bits the mask sets, reads a mask
    /// shorter than the domain as clear beyond its end, and says whether
    /// anything went.
    #[test]
    fn intersect_keeps_the_masked_values() {
        let mut d = Domains::default();
        let all: Vec<i64> = (10..210).collect();
        let x = d.add_var(&all);
        let cp = d.checkpoint();
        assert!(d.set_min(x, 70).unwrap());
        let superset = [!0u64; 4];
        assert!(!d.intersect(x, &superset).unwrap(), "nothing to remove");
        assert_eq!((d.size(x), d.min(x), d.max(x)), (140, 70, 209));
        // Bits are values from 10 on: bit 70 is 80; a two-word mask clears
        // every value from 138 on.
        let mut mask = [!0u64; 2];
        mask[1] &= !(1 << (70 - 64));
        assert!(d.intersect(x, &mask).unwrap());
        let left: Vec<i64> = (70..138).filter(|&v| v != 80).collect();
        assert_eq!(vals(&d, x), left);
        assert_eq!((d.size(x), d.min(x), d.max(x)), (67, 70, 137));
        assert!(!d.intersect(x, &mask).unwrap(), "the same mask again");
        assert!(d.intersect(x, &[!0u64]).unwrap(), "values from 74 on go");
        assert_eq!(vals(&d, x), vec![70, 71, 72, 73]);
        assert!(
            d.intersect(x, &[]).is_err(),
            "an empty mask empties the domain"
        );
        d.restore(cp);
        assert_eq!(vals(&d, x), all);
    }

    #[test]
    fn interval_domains_hold_any_i64_range() {
        let mut d = Domains::default();
        let x = d.add_range(i64::MIN, i64::MAX);
        assert!(!d.is_bitset(x));
        assert_eq!(d.size(x), u64::MAX);
        let cp = d.checkpoint();
        assert!(!d.remove(x, 0).unwrap(), "inside the bounds: nothing to do");
        assert!(d.remove(x, i64::MIN).unwrap());
        assert_eq!(d.min(x), i64::MIN + 1);
        assert!(d.set_max(x, 1 << 40).unwrap());
        assert!(d.set_min(x, (1 << 40) - 2).unwrap());
        assert_eq!(vals(&d, x), vec![(1 << 40) - 2, (1 << 40) - 1, 1 << 40]);
        assert!(d.remove(x, 1 << 40).unwrap());
        assert!(d.remove(x, (1 << 40) - 2).unwrap());
        assert!(d.is_fixed(x));
        assert!(d.fix(x, 5).is_err());
        d.restore(cp);
        assert_eq!((d.min(x), d.max(x)), (i64::MIN, i64::MAX));
    }

    #[test]
    fn wide_ranges_become_intervals_and_narrow_ones_bitsets() {
        let mut d = Domains::default();
        let narrow = d.add_range(0, 1000);
        let wide = d.add_range(0, 10_000_000);
        let holes = d.add_var(&[0, 5_000_000]);
        let far = d.add_var(&[0, 1 << 40]);
        assert!(d.is_bitset(narrow) && !d.is_bitset(wide));
        assert!(d.is_bitset(holes) && !d.is_bitset(far));
        assert_eq!(d.size(holes), 2);
    }

    #[test]
    fn events_are_recorded_once_per_variable() {
        let mut d = Domains::default();
        let x = d.add_var(&[1, 2, 3]);
        d.remove(x, 2).unwrap();
        assert_eq!(d.pending[x], event::REMOVE);
        d.remove(x, 1).unwrap();
        assert_eq!(d.pending[x], event::REMOVE | event::BOUNDS | event::FIX);
        assert_eq!(d.changed, vec![x]);
    }

    /// `window_at` reads values, not bit positions, of either kind of
    /// domain: each bit against `contains`.
    #[test]
    fn windows_at_values_agree_with_contains() {
        let mut d = Domains::default();
        let bits = d.add_var(&[-5, 10, 11, 70, 73, 140]);
        let interval = d.add_range(0, 10_000_000);
        d.set_min(interval, 3).unwrap();
        d.set_max(interval, 9_000_000).unwrap();
        assert!(d.is_bitset(bits) && !d.is_bitset(interval));
        for v in [bits, interval] {
            for x0 in [
                -200,
                -70,
                -5,
                0,
                3,
                7,
                60,
                77,
                140,
                8_999_990,
                9_000_000,
                i64::MAX - 63,
            ] {
                let w = d.window_at(v, x0);
                for i in 0..64 {
                    let x = x0.saturating_add(i);
                    assert_eq!(w >> i & 1 == 1, d.contains(v, x), "{v} at {x0} + {i}");
                }
            }
        }
    }

    #[test]
    fn windows_read_and_remove_64_values_at_any_position() {
        let mut d = Domains::default();
        let x = d.add_var(&[10, 11, 70, 73, 140]);
        // Bit positions from offset 10: 0, 1, 60, 63, 130.
        assert_eq!(d.window(x, 0), 1 | 2 | 1 << 60 | 1 << 63);
        assert_eq!(d.window(x, -3), 1 << 3 | 1 << 4 | 1 << 63);
        assert_eq!(d.window(x, 60), 1 | 1 << 3);
        assert_eq!(d.window(x, 100), 1 << 30);
        assert_eq!(d.window(x, 200), 0);
        assert_eq!(d.window(x, -70), 0);
        let cp = d.checkpoint();
        assert!(!d.remove_window(x, 2, u64::MAX >> 10).unwrap());
        assert!(d.remove_window(x, -3, 1 << 3).unwrap());
        assert_eq!((d.min(x), d.size(x)), (11, 4));
        assert!(d.remove_window(x, 62, 1 << 1 | 1 << 2).unwrap());
        assert_eq!(vals(&d, x), vec![11, 70, 140]);
        d.clear_changes();
        assert!(d.remove_window(x, 100, 1 << 30).unwrap());
        assert_eq!(vals(&d, x), vec![11, 70]);
        assert_eq!(d.pending[x], event::REMOVE | event::BOUNDS);
        assert!(d.remove_window(x, 1, 1).unwrap());
        assert_eq!(d.value(x), Some(70));
        assert!(d.pending[x] & event::FIX != 0);
        assert!(d.remove_window(x, 60, 1).is_err());
        d.restore(cp);
        assert_eq!(vals(&d, x), vec![10, 11, 70, 73, 140]);
    }

    #[test]
    fn truncate_forgets_later_variables() {
        let mut d = Domains::default();
        let x = d.add_var(&[1, 2]);
        let (vars, slots) = (d.num_vars(), d.trail.allocated());
        d.add_var(&[7, 8]);
        d.truncate(vars, slots);
        assert_eq!(d.num_vars(), 1);
        assert_eq!(vals(&d, x), vec![1, 2]);
        assert_eq!(d.trail.allocated(), slots);
    }
}
