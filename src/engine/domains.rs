//! Integer domains as bitsets on the trail. Word variables use the same
//! representation: their values are indices into a sorted word list.
//!
//! Each variable owns `nwords` bitset slots (bit `i` stands for `offset + i`)
//! and three metadata slots: size, and min and max as bit positions.
//! Every change records the variable in `changed`, from which the engine
//! wakes the propagators that watch it.

use super::trail::{Checkpoint, Trail};
use crate::model::VarId;

/// A domain became empty: the current node has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fail;

pub type PResult = Result<(), Fail>;

#[derive(Clone, Copy, Debug)]
struct Layout {
    offset: i64,
    first: usize,
    nwords: usize,
    meta: usize,
}

/// What happened to a variable since its watchers last ran.
pub mod event {
    pub const REMOVE: u8 = 1;
    pub const BOUNDS: u8 = 2;
    pub const FIX: u8 = 4;
}

#[derive(Debug, Default)]
pub struct Domains {
    pub trail: Trail,
    layout: Vec<Layout>,
    /// Variables changed since the engine last looked, with their events.
    pub changed: Vec<VarId>,
    pub pending: Vec<u8>,
}

impl Domains {
    /// Adds a variable with the given sorted, distinct, non-empty values.
    pub fn add_var(&mut self, values: &[i64]) -> VarId {
        let offset = values[0];
        let span = (values[values.len() - 1] - offset) as usize + 1;
        let nwords = span.div_ceil(64);
        let first = self.trail.alloc(nwords, 0);
        if values.len() == span {
            // A whole range: full words, then the tail.
            for w in 0..nwords {
                let bits = (span - w * 64).min(64);
                let word = if bits == 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                };
                self.trail.init(first + w, word);
            }
        } else {
            for &v in values {
                let i = (v - offset) as usize;
                let w = self.trail.get(first + i / 64);
                self.trail.init(first + i / 64, w | (1 << (i % 64)));
            }
        }
        let meta = self.trail.alloc(3, 0);
        self.trail.init(meta, values.len() as u64);
        self.trail.init(meta + 1, 0);
        self.trail.init(meta + 2, (span - 1) as u64);
        self.layout.push(Layout {
            offset,
            first,
            nwords,
            meta,
        });
        self.pending.push(0);
        self.layout.len() - 1
    }

    pub fn num_vars(&self) -> usize {
        self.layout.len()
    }

    #[inline]
    pub fn size(&self, v: VarId) -> u64 {
        self.trail.get(self.layout[v].meta)
    }
    #[inline]
    pub fn is_fixed(&self, v: VarId) -> bool {
        self.size(v) == 1
    }
    #[inline]
    pub fn min(&self, v: VarId) -> i64 {
        let l = self.layout[v];
        l.offset + self.trail.get(l.meta + 1) as i64
    }
    #[inline]
    pub fn max(&self, v: VarId) -> i64 {
        let l = self.layout[v];
        l.offset + self.trail.get(l.meta + 2) as i64
    }
    /// The value of a fixed variable.
    #[inline]
    pub fn value(&self, v: VarId) -> Option<i64> {
        self.is_fixed(v).then(|| self.min(v))
    }
    #[inline]
    pub fn contains(&self, v: VarId, x: i64) -> bool {
        let l = self.layout[v];
        let Some(i) = x
            .checked_sub(l.offset)
            .filter(|&i| i >= 0)
            .map(|i| i as usize)
        else {
            return false;
        };
        i / 64 < l.nwords && self.trail.get(l.first + i / 64) & (1 << (i % 64)) != 0
    }

    /// The bitset words of a domain; bit `i` is the value `offset + i`.
    #[inline]
    pub fn bits(&self, v: VarId) -> &[u64] {
        let l = self.layout[v];
        self.trail.slice(l.first, l.nwords)
    }
    pub fn offset(&self, v: VarId) -> i64 {
        self.layout[v].offset
    }

    /// The values in increasing order.
    pub fn values(&self, v: VarId) -> impl Iterator<Item = i64> + '_ {
        let offset = self.layout[v].offset;
        let lo = self.trail.get(self.layout[v].meta + 1) as usize / 64;
        let hi = self.trail.get(self.layout[v].meta + 2) as usize / 64;
        let bits = self.bits(v);
        (lo..=hi).flat_map(move |w| {
            let mut word = bits[w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    offset + (w * 64 + b) as i64
                })
            })
        })
    }

    fn note(&mut self, v: VarId, ev: u8) {
        if self.pending[v] == 0 {
            self.changed.push(v);
        }
        self.pending[v] |= ev;
    }

    /// Removes one value. `Ok(true)` if the domain changed.
    pub fn remove(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if !self.contains(v, x) {
            return Ok(false);
        }
        let l = self.layout[v];
        let i = (x - l.offset) as usize;
        let w = self.trail.get(l.first + i / 64);
        self.trail.set(l.first + i / 64, w & !(1 << (i % 64)));
        let size = self.trail.get(l.meta) - 1;
        if size == 0 {
            self.trail.set(l.meta, 0);
            return Err(Fail);
        }
        self.trail.set(l.meta, size);
        let mut ev = event::REMOVE;
        if i as u64 == self.trail.get(l.meta + 1) {
            let lo = self.next_set(v, i);
            self.trail.set(l.meta + 1, lo as u64);
            ev |= event::BOUNDS;
        } else if i as u64 == self.trail.get(l.meta + 2) {
            let hi = self.prev_set(v, i);
            self.trail.set(l.meta + 2, hi as u64);
            ev |= event::BOUNDS;
        }
        if size == 1 {
            ev |= event::FIX;
        }
        self.note(v, ev);
        Ok(true)
    }

    /// Reduces the domain to one value.
    pub fn fix(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if !self.contains(v, x) {
            self.empty(v);
            return Err(Fail);
        }
        if self.is_fixed(v) {
            return Ok(false);
        }
        let l = self.layout[v];
        let i = (x - l.offset) as usize;
        let lo = self.trail.get(l.meta + 1) as usize / 64;
        let hi = self.trail.get(l.meta + 2) as usize / 64;
        for w in lo..=hi {
            let keep = if w == i / 64 { 1 << (i % 64) } else { 0 };
            if self.trail.get(l.first + w) != keep {
                self.trail.set(l.first + w, keep);
            }
        }
        self.trail.set(l.meta, 1);
        self.trail.set(l.meta + 1, i as u64);
        self.trail.set(l.meta + 2, i as u64);
        self.note(v, event::REMOVE | event::BOUNDS | event::FIX);
        Ok(true)
    }

    /// Removes every value below `x`.
    pub fn set_min(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if x <= self.min(v) {
            return Ok(false);
        }
        if x > self.max(v) {
            self.empty(v);
            return Err(Fail);
        }
        let l = self.layout[v];
        let i = (x - l.offset) as usize;
        let lo = self.trail.get(l.meta + 1) as usize;
        let mut removed = 0u64;
        for w in lo / 64..=i / 64 {
            let old = self.trail.get(l.first + w);
            let keep = if w == i / 64 {
                old & (!0u64 << (i % 64))
            } else {
                0
            };
            if keep != old {
                removed += u64::from((old & !keep).count_ones());
                self.trail.set(l.first + w, keep);
            }
        }
        let new_lo = self.next_set_from(v, i);
        self.after_bounds(v, l, removed, new_lo, None)
    }

    /// Removes every value above `x`.
    pub fn set_max(&mut self, v: VarId, x: i64) -> Result<bool, Fail> {
        if x >= self.max(v) {
            return Ok(false);
        }
        if x < self.min(v) {
            self.empty(v);
            return Err(Fail);
        }
        let l = self.layout[v];
        let i = (x - l.offset) as usize;
        let hi = self.trail.get(l.meta + 2) as usize;
        let mut removed = 0u64;
        for w in i / 64..=hi / 64 {
            let old = self.trail.get(l.first + w);
            let keep = if w == i / 64 {
                old & (!0u64 >> (63 - i % 64))
            } else {
                0
            };
            if keep != old {
                removed += u64::from((old & !keep).count_ones());
                self.trail.set(l.first + w, keep);
            }
        }
        let new_hi = self.prev_set_from(v, i);
        self.after_bounds(v, l, removed, usize::MAX, Some(new_hi))
    }

    fn after_bounds(
        &mut self,
        v: VarId,
        l: Layout,
        removed: u64,
        new_lo: usize,
        new_hi: Option<usize>,
    ) -> Result<bool, Fail> {
        let size = self.trail.get(l.meta) - removed;
        self.trail.set(l.meta, size);
        if size == 0 {
            return Err(Fail);
        }
        if new_lo != usize::MAX {
            self.trail.set(l.meta + 1, new_lo as u64);
        }
        if let Some(h) = new_hi {
            self.trail.set(l.meta + 2, h as u64);
        }
        let mut ev = event::REMOVE | event::BOUNDS;
        if size == 1 {
            ev |= event::FIX;
        }
        self.note(v, ev);
        Ok(true)
    }

    /// Keeps only the values whose bits are set in `mask` (same layout as [`Self::bits`]).
    #[expect(
        clippy::needless_range_loop,
        reason = "indexes the mask and the trail slots alike"
    )]
    pub fn intersect(&mut self, v: VarId, mask: &[u64]) -> Result<bool, Fail> {
        let l = self.layout[v];
        let lo = self.trail.get(l.meta + 1) as usize / 64;
        let hi = self.trail.get(l.meta + 2) as usize / 64;
        let mut removed = 0u64;
        for w in lo..=hi {
            let old = self.trail.get(l.first + w);
            let new = old & mask[w];
            if new != old {
                removed += u64::from((old & !new).count_ones());
                self.trail.set(l.first + w, new);
            }
        }
        if removed == 0 {
            return Ok(false);
        }
        let size = self.trail.get(l.meta) - removed;
        self.trail.set(l.meta, size);
        if size == 0 {
            return Err(Fail);
        }
        let old_lo = self.trail.get(l.meta + 1) as usize;
        let old_hi = self.trail.get(l.meta + 2) as usize;
        let new_lo = self.next_set_from(v, old_lo);
        let new_hi = self.prev_set_from(v, old_hi);
        let mut ev = event::REMOVE;
        if new_lo != old_lo || new_hi != old_hi {
            ev |= event::BOUNDS;
            self.trail.set(l.meta + 1, new_lo as u64);
            self.trail.set(l.meta + 2, new_hi as u64);
        }
        if size == 1 {
            ev |= event::FIX;
        }
        self.note(v, ev);
        Ok(true)
    }

    fn empty(&mut self, v: VarId) {
        let meta = self.layout[v].meta;
        self.trail.set(meta, 0);
    }

    /// The first set bit strictly after `i`.
    fn next_set(&self, v: VarId, i: usize) -> usize {
        self.next_set_from(v, i + 1)
    }

    /// The first set bit at or after `i`.
    fn next_set_from(&self, v: VarId, i: usize) -> usize {
        let bits = self.bits(v);
        let mut w = i / 64;
        if w >= bits.len() {
            return usize::MAX;
        }
        let mut word = bits[w] & (!0u64 << (i % 64));
        loop {
            if word != 0 {
                return w * 64 + word.trailing_zeros() as usize;
            }
            w += 1;
            if w >= bits.len() {
                return usize::MAX;
            }
            word = bits[w];
        }
    }

    /// The last set bit strictly before `i`.
    fn prev_set(&self, v: VarId, i: usize) -> usize {
        self.prev_set_from(v, i - 1)
    }

    /// The last set bit at or before `i`.
    fn prev_set_from(&self, v: VarId, i: usize) -> usize {
        let bits = self.bits(v);
        let mut w = i / 64;
        let mut word = bits[w] & (!0u64 >> (63 - i % 64));
        loop {
            if word != 0 {
                return w * 64 + 63 - word.leading_zeros() as usize;
            }
            if w == 0 {
                return 0;
            }
            w -= 1;
            word = bits[w];
        }
    }

    pub fn checkpoint(&mut self) -> Checkpoint {
        self.trail.checkpoint()
    }

    pub fn restore(&mut self, cp: Checkpoint) {
        self.trail.restore(cp);
        self.clear_changes();
    }

    pub fn clear_changes(&mut self) {
        for v in self.changed.drain(..) {
            self.pending[v] = 0;
        }
    }
}
