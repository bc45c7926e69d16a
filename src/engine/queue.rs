//! The propagation queue: one FIFO per priority, cheapest first, with an
//! "already queued" flag so a propagator waits in the queue at most once.

use super::PropId;
use super::propagator::Priority;
use std::collections::VecDeque;

#[derive(Default)]
pub struct Queue {
    fifos: [VecDeque<PropId>; 5],
    /// Bit `i` set when `fifos[i]` may hold propagators: `pop` goes to the
    /// first such level at once instead of trying every fifo.
    levels: u8,
    queued: Vec<bool>,
}

impl Queue {
    pub fn grow(&mut self, n: usize) {
        if self.queued.len() < n {
            self.queued.resize(n, false);
        }
    }

    pub fn push(&mut self, p: PropId, priority: Priority) {
        if !self.queued[p] {
            self.queued[p] = true;
            self.fifos[priority as usize].push_back(p);
            self.levels |= 1 << priority as u8;
        }
    }

    pub fn pop(&mut self) -> Option<PropId> {
        while self.levels != 0 {
            let level = self.levels.trailing_zeros() as usize;
            if let Some(p) = self.fifos[level].pop_front() {
                self.queued[p] = false;
                return Some(p);
            }
            self.levels &= !(1 << level);
        }
        None
    }

    pub fn clear(&mut self) {
        for fifo in &mut self.fifos {
            for p in fifo.drain(..) {
                self.queued[p] = false;
            }
        }
        self.levels = 0;
    }
}
