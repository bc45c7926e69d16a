//! The trail: every piece of reversible state lives in one store of 64-bit
//! slots, and every write saves the old value once per world, so backtracking
//! is a matter of popping the trail back to a checkpoint.
//!
//! A "world" is the stretch of search between two checkpoints or restores.
//! Each gets a fresh id; a slot whose stamp equals the current world id was
//! already saved in it and is written without saving again.
//!
//! Propagators do not touch slots: they allocate typed reversible values —
//! [`RevInt`], [`RevWide`] (an `i128`) and [`RevWords`] (a run of bitset
//! words) — and read and write them through the trail. Whatever they write is
//! undone on backtracking without any code of theirs.

#[derive(Debug, Default)]
pub(crate) struct Trail {
    slots: Vec<u64>,
    stamps: Vec<u64>,
    saved: Vec<(u32, u64)>,
    world: u64,
    next_world: u64,
}

/// A point to come back to: the length of the trail when it was taken (and,
/// filled in by the domains, the length of the literal trail and the decision
/// level then, for learning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    saved: usize,
    pub(super) lits: u32,
    pub(super) level: u32,
}

/// A reversible `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RevInt(u32);

/// A reversible `i128` (two slots), for sums that must not overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RevWide(u32);

/// A reversible run of `u64` words: a bitset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RevWords {
    first: u32,
    len: u32,
}

impl RevWords {
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }
    pub(crate) fn is_empty(self) -> bool {
        self.len == 0
    }
}

impl Trail {
    /// Allocates `n` slots holding `value`, returning the index of the first.
    /// Allocation happens while posting, before search: no undo record.
    fn alloc(&mut self, n: usize, value: u64) -> u32 {
        let first = self.slots.len();
        self.slots.resize(first + n, value);
        self.stamps.resize(first + n, u64::MAX);
        u32::try_from(first).unwrap_or(u32::MAX)
    }

    #[inline]
    fn get(&self, slot: u32) -> u64 {
        self.slots[slot as usize]
    }

    #[inline]
    fn set(&mut self, slot: u32, value: u64) {
        let s = slot as usize;
        if self.slots[s] == value {
            return;
        }
        if self.stamps[s] != self.world {
            self.stamps[s] = self.world;
            self.saved.push((slot, self.slots[s]));
        }
        self.slots[s] = value;
    }

    pub(crate) fn new_int(&mut self, value: i64) -> RevInt {
        RevInt(self.alloc(1, value as u64))
    }
    #[inline]
    pub(crate) fn int(&self, r: RevInt) -> i64 {
        self.get(r.0) as i64
    }
    #[inline]
    pub(crate) fn set_int(&mut self, r: RevInt, value: i64) {
        self.set(r.0, value as u64);
    }

    pub(crate) fn new_wide(&mut self, value: i128) -> RevWide {
        let first = self.alloc(2, 0);
        self.slots[first as usize] = value as u128 as u64;
        self.slots[first as usize + 1] = ((value as u128) >> 64) as u64;
        RevWide(first)
    }
    #[inline]
    pub(crate) fn wide(&self, r: RevWide) -> i128 {
        ((self.get(r.0) as u128) | ((self.get(r.0 + 1) as u128) << 64)) as i128
    }
    #[inline]
    pub(crate) fn set_wide(&mut self, r: RevWide, value: i128) {
        self.set(r.0, value as u128 as u64);
        self.set(r.0 + 1, ((value as u128) >> 64) as u64);
    }

    /// A run of words holding `init` (copied).
    pub(crate) fn new_words(&mut self, init: &[u64]) -> RevWords {
        let first = self.alloc(init.len(), 0);
        self.slots[first as usize..first as usize + init.len()].copy_from_slice(init);
        RevWords {
            first,
            len: init.len() as u32,
        }
    }
    #[inline]
    pub(crate) fn words(&self, r: RevWords) -> &[u64] {
        &self.slots[r.first as usize..(r.first + r.len) as usize]
    }
    #[inline]
    pub(crate) fn word(&self, r: RevWords, i: usize) -> u64 {
        debug_assert!(i < r.len as usize);
        self.get(r.first + i as u32)
    }
    #[inline]
    pub(crate) fn set_word(&mut self, r: RevWords, i: usize, value: u64) {
        debug_assert!(i < r.len as usize);
        self.set(r.first + i as u32, value);
    }

    pub(crate) fn checkpoint(&mut self) -> Checkpoint {
        self.new_world();
        Checkpoint {
            saved: self.saved.len(),
            lits: 0,
            level: 0,
        }
    }

    /// Undoes every write made since the checkpoint.
    pub(crate) fn restore(&mut self, cp: Checkpoint) {
        while self.saved.len() > cp.saved {
            if let Some((slot, old)) = self.saved.pop() {
                self.slots[slot as usize] = old;
            }
        }
        self.new_world();
    }

    fn new_world(&mut self) {
        self.next_world += 1;
        self.world = self.next_world;
    }

    /// How many slots are allocated: a mark to truncate back to.
    pub(crate) fn allocated(&self) -> usize {
        self.slots.len()
    }

    /// Forgets the slots allocated after `mark` (a lowering that gave up).
    /// Only before search: no undo record may point past the mark.
    pub(crate) fn truncate(&mut self, mark: usize) {
        debug_assert!(self.saved.iter().all(|&(s, _)| (s as usize) < mark));
        self.slots.truncate(mark);
        self.stamps.truncate(mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_are_undone_on_restore() {
        let mut t = Trail::default();
        let i = t.new_int(-5);
        let w = t.new_wide(i128::MIN + 3);
        let b = t.new_words(&[1, 2, 3]);
        let cp = t.checkpoint();
        t.set_int(i, 7);
        t.set_wide(w, 1 << 100);
        t.set_word(b, 1, 9);
        t.set_word(b, 1, 10);
        assert_eq!(
            (t.int(i), t.wide(w), t.words(b)),
            (7, 1 << 100, &[1, 10, 3][..])
        );
        t.restore(cp);
        assert_eq!(
            (t.int(i), t.wide(w), t.words(b)),
            (-5, i128::MIN + 3, &[1, 2, 3][..])
        );
    }

    #[test]
    fn nested_checkpoints_restore_in_order() {
        let mut t = Trail::default();
        let i = t.new_int(0);
        let outer = t.checkpoint();
        t.set_int(i, 1);
        let inner = t.checkpoint();
        t.set_int(i, 2);
        t.restore(inner);
        assert_eq!(t.int(i), 1);
        t.restore(outer);
        assert_eq!(t.int(i), 0);
    }
}
