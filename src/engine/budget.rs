//! The limits of a search as it runs: node and time limits, the caller's stop
//! flag, and the progress callback. Shared by the depth-first search and the
//! component counter (`components.rs`), so that both stop alike.

use super::search::{Limits, over_memory};
use super::stats::Stats;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the progress callback runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// Steps between two looks at the clock while steps are quick: reading it
/// is cheap next to a node, but not free.
const LOOK_EVERY: u64 = 16;

/// Steps slower than this, on average since the last look, make the next
/// look come at the next step: a node of a huge model (375,000 slots,
/// dom/wdeg scanning them all) took 50 ms, and 16 of them overran a time
/// limit by 0.8 s. Quicker ones leave at most 16 × this unseen.
const SLOW_STEP: Duration = Duration::from_micros(300);

pub(crate) struct Budget {
    pub(crate) limits: Limits,
    start: Instant,
    /// Calls so far, and the call of the next look at the clock.
    ticks: u64,
    next_look: u64,
    /// The call and the clock at the last look.
    looked_at: (u64, Duration),
    last_progress: Duration,
}

impl Budget {
    pub(crate) fn new(limits: Limits) -> Self {
        Budget {
            limits,
            start: Instant::now(),
            ticks: 0,
            // The first step looks: what came before it may have been slow.
            next_look: 1,
            looked_at: (0, Duration::ZERO),
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
        self.ticks += 1;
        if self.ticks < self.next_look {
            return false;
        }
        self.look(stats)
    }

    /// The checks of every 16th step, or of every step while steps are
    /// slow: the stop flag, the clock, progress.
    #[inline(never)]
    fn look(&mut self, stats: &Stats) -> bool {
        self.next_look = self.ticks + LOOK_EVERY;
        if self.stopped() || over_memory(self.limits.memory.as_ref()) {
            return true;
        }
        if self.limits.time.is_none() && self.limits.progress.is_none() {
            return false;
        }
        let elapsed = self.start.elapsed();
        let (tick, clock) = self.looked_at;
        let steps = u32::try_from(self.ticks - tick).unwrap_or(u32::MAX);
        if elapsed.saturating_sub(clock) > SLOW_STEP.saturating_mul(steps) {
            self.next_look = self.ticks + 1;
        }
        self.looked_at = (self.ticks, elapsed);
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

    /// Slow steps read the clock at every step (quick ones every 16th), so
    /// that a time limit is overrun by one slow step, not 16.
    #[test]
    fn slow_steps_look_at_the_clock_each_time() {
        let stats = Stats::default();
        let limited = |ms| {
            Budget::new(Limits {
                time: Some(Duration::from_millis(ms)),
                ..Limits::default()
            })
        };
        let mut budget = limited(40);
        let mut steps = 0;
        loop {
            std::thread::sleep(Duration::from_millis(10));
            steps += 1;
            if budget.exceeded(&stats) {
                break;
            }
        }
        assert!(steps < 8, "the limit went {steps} slow steps unseen");
    }

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
