//! The trail: every piece of reversible state is a 64-bit slot in one store,
//! and every write saves the old value once per world, so backtracking is a
//! matter of popping the trail back to a checkpoint.
//!
//! A "world" is the stretch of search between two checkpoints or restores.
//! Each gets a fresh id; a slot whose stamp equals the current world id was
//! already saved in it and is written without saving again.

#[derive(Debug, Default)]
pub struct Trail {
    slots: Vec<u64>,
    stamps: Vec<u64>,
    saved: Vec<(u32, u64)>,
    world: u64,
    next_world: u64,
}

/// A point to come back to: the length of the trail when it was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint(usize);

impl Trail {
    /// Allocates `n` slots holding `value`, returning the index of the first.
    pub fn alloc(&mut self, n: usize, value: u64) -> usize {
        let first = self.slots.len();
        self.slots.resize(first + n, value);
        self.stamps.resize(first + n, u64::MAX);
        first
    }

    /// Gives a slot allocated just now its first value, with no undo record:
    /// there is nothing to go back to.
    pub fn init(&mut self, slot: usize, value: u64) {
        self.slots[slot] = value;
    }

    #[inline]
    pub fn get(&self, slot: usize) -> u64 {
        self.slots[slot]
    }

    #[inline]
    pub fn set(&mut self, slot: usize, value: u64) {
        if self.stamps[slot] != self.world {
            self.stamps[slot] = self.world;
            self.saved.push((slot as u32, self.slots[slot]));
        }
        self.slots[slot] = value;
    }

    /// Read access to a run of slots (bitset words).
    #[inline]
    pub fn slice(&self, first: usize, len: usize) -> &[u64] {
        &self.slots[first..first + len]
    }

    pub fn checkpoint(&mut self) -> Checkpoint {
        self.new_world();
        Checkpoint(self.saved.len())
    }

    /// Undoes every write made since the checkpoint.
    pub fn restore(&mut self, cp: Checkpoint) {
        while self.saved.len() > cp.0 {
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

    /// Number of saved entries, a measure of the trail's size.
    pub fn len(&self) -> usize {
        self.saved.len()
    }

    pub fn is_empty(&self) -> bool {
        self.saved.is_empty()
    }

    /// Bytes held by the store and the trail.
    pub fn memory_bytes(&self) -> usize {
        self.slots.capacity() * 8 + self.stamps.capacity() * 8 + self.saved.capacity() * 16
    }
}
