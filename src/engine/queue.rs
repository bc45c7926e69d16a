//! The propagation queue: one FIFO per priority, cheapest first, with an
//! "already queued" flag so a propagator waits in the queue at most once.

use super::PropId;
use super::propagator::Priority;
use std::collections::VecDeque;

#[derive(Default)]
pub(crate) struct Queue {
    /// `pop` tries them in turn: five predictable tests of lengths that
    /// do not depend on one another. A mask of the non-empty levels, tried
    /// before, made each pop wait for a chain of dependent reads (the mask,
    /// the index of its lowest bit, that fifo's length) and cost more.
    fifos: [VecDeque<PropId>; 5],
    queued: Vec<bool>,
}

impl Queue {
    pub(crate) fn grow(&mut self, n: usize) {
        if self.queued.len() < n {
            self.queued.resize(n, false);
        }
    }

    pub(crate) fn push(&mut self, p: PropId, priority: Priority) {
        if !self.queued[p] {
            self.queued[p] = true;
            self.fifos[priority as usize].push_back(p);
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<PropId> {
        for fifo in &mut self.fifos {
            if let Some(p) = fifo.pop_front() {
                self.queued[p] = false;
                return Some(p);
            }
        }
        None
    }

    pub(crate) fn clear(&mut self) {
        for fifo in &mut self.fifos {
            for p in fifo.drain(..) {
                self.queued[p] = false;
            }
        }
    }
}
