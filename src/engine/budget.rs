//! The limits of a search as it runs: node and time limits, the caller's stop
//! flag, and the progress callback. Shared by the depth-first search and the
//! component counter (`components.rs`), so that both stop alike.

use super::search::{Limits, over_memory};
use super::stats::Stats;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the progress callback runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

pub(crate) struct Budget {
    pub(crate) limits: Limits,
    start: Instant,
    /// Calls so far, to read the clock only now and then.
    ticks: u64,
    last_progress: Duration,
}

impl Budget {
    pub(crate) fn new(limits: Limits) -> Self {
        Budget {
            limits,
            start: Instant::now(),
            ticks: 0,
            last_progress: Duration::ZERO,
        }
    }

    /// Whether to stop now; called once per step of the search. The test
    /// of every step is inlined into the search loop, the rest is not.
    #[inline]
    pub(crate) fn exceeded(&mut self, stats: &Stats) -> bool {
        if self.limits.nodes.is_some_and(|n| stats.nodes >= n) {
            return true;
        }
        // Reading the clock is cheap next to a node, but not free: every 16 steps.
        self.ticks += 1;
        if !self.ticks.is_multiple_of(16) {
            return false;
        }
        self.look(stats)
    }

    /// The checks of every 16th step: the stop flag, the clock, progress.
    #[inline(never)]
    fn look(&mut self, stats: &Stats) -> bool {
        if self.stopped() || over_memory(self.limits.memory) {
            return true;
        }
        if self.limits.time.is_none() && self.limits.progress.is_none() {
            return false;
        }
        let elapsed = self.start.elapsed();
        if let Some(report) = self.limits.progress
            && elapsed >= self.last_progress + PROGRESS_EVERY
        {
            self.last_progress = elapsed;
            report(stats, elapsed);
        }
        self.limits.time.is_some_and(|t| elapsed >= t) || self.stopped()
    }

    /// Whether to go on, for the phases before the first node (the root's
    /// propagation): the stop flag, the clock from this budget's start, and
    /// the heap.
    pub(crate) fn go_on(&self) -> impl FnMut() -> bool + use<> {
        self.limits.go_on_from(self.start)
    }

    fn stopped(&self) -> bool {
        self.limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
