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
        if self.stopped() || over_memory(self.limits.memory.as_ref()) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::MemoryLimit;

    /// A budget past its memory limit stops at its next look and raises the
    /// limit's latch, which every clone of the limit (each thread's) sees;
    /// one within it neither stops nor raises it.
    #[test]
    fn the_memory_limit_stops_the_budget_and_says_so() {
        let within = MemoryLimit::new(u64::MAX);
        let mut budget = Budget::new(Limits {
            memory: Some(within.clone()),
            ..Limits::default()
        });
        let stats = Stats::default();
        assert!((0..64).all(|_| !budget.exceeded(&stats)));
        assert!(budget.go_on()());
        assert!(!within.reached());

        let past = MemoryLimit::new(0);
        let shared = past.clone();
        let mut budget = Budget::new(Limits {
            memory: Some(past),
            ..Limits::default()
        });
        assert!(!shared.reached());
        assert!((0..16).any(|_| budget.exceeded(&stats)));
        assert!(shared.reached());
        let before_the_search = MemoryLimit::new(0);
        let limits = Limits {
            memory: Some(before_the_search.clone()),
            ..Limits::default()
        };
        assert!(!limits.go_on_from(Instant::now())());
        assert!(before_the_search.reached());
    }
}
