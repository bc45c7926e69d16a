//! Restart policies: after a budget of failures the search returns to the
//! root and starts again, keeping what it learned in the dom/wdeg weights
//! (and drawing new random choices). Budgets grow, so search stays complete.
//!
//! Restarts stop once a solution is found: a run that enumerates or counts
//! must not meet the same solution twice.

use crate::model::Restarts;

/// Failures allowed before the first restart.
const SCALE: u64 = 100;
/// Growth of the geometric policy.
const GROWTH: f64 = 1.5;

pub(crate) struct Restarter {
    policy: Restarts,
    /// Restarts done so far.
    count: u64,
    /// The failure count at which the next restart happens.
    next_at: u64,
    /// Failures before the first restart ([`SCALE`]; tests make it small).
    scale: u64,
    /// The budget last set.
    last: u64,
    /// Each budget from now on twice the last ([`Self::double_from_now`]).
    doubling: bool,
}

impl Restarter {
    pub(crate) fn new(policy: Restarts) -> Self {
        Self::scaled(policy, SCALE)
    }

    /// A policy whose budgets are `scale` times the sequence's terms.
    pub(crate) fn scaled(policy: Restarts, scale: u64) -> Self {
        let mut r = Restarter {
            policy,
            count: 0,
            next_at: 0,
            scale,
            last: 0,
            doubling: false,
        };
        r.last = r.budget();
        r.next_at = r.last;
        r
    }

    /// The same policy from the start, at another scale (tests).
    #[cfg(test)]
    pub(crate) fn rescaled(&self, scale: u64) -> Self {
        Self::scaled(self.policy, scale)
    }

    /// Whether to restart now, given the failures so far.
    pub(crate) fn due(&self, failures: u64) -> bool {
        self.policy != Restarts::None && failures >= self.next_at
    }

    /// Records a restart made at `failures` and sets the next budget.
    pub(crate) fn restarted(&mut self, failures: u64) {
        self.count += 1;
        self.last = self.budget();
        self.next_at = failures.saturating_add(self.last);
    }

    /// From the next restart on, each budget twice the one before: for a
    /// search whose restarts no longer keep what they refuted
    /// (`search/refuted.rs`, a full store), each of which then searches
    /// again what the runs before it did. Doubling bounds that: all the
    /// runs before the last cost no more than the last.
    pub(crate) fn double_from_now(&mut self) {
        self.doubling = true;
    }

    fn budget(&self) -> u64 {
        if self.doubling {
            return self.last.saturating_mul(2).max(self.scale);
        }
        match self.policy {
            Restarts::None => u64::MAX,
            Restarts::Luby => self.scale.saturating_mul(luby(self.count + 1)),
            Restarts::Geometric => {
                let f = self.scale as f64 * GROWTH.powi(self.count.min(1000) as i32);
                if f >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    f as u64
                }
            }
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... (1-based).
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // Smallest k with 2^k - 1 >= i.
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn budgets_double_once_asked() {
        let mut r = Restarter::scaled(Restarts::Luby, 10);
        let mut failures = 0;
        for _ in 0..6 {
            failures = r.next_at;
            r.restarted(failures);
        }
        // Luby's seventh term is 4.
        assert_eq!(r.next_at - failures, 40);
        r.double_from_now();
        for want in [80, 160, 320] {
            failures = r.next_at;
            r.restarted(failures);
            assert_eq!(r.next_at - failures, want);
        }
    }

    #[test]
    fn budgets_grow() {
        let mut r = Restarter::new(Restarts::Geometric);
        assert!(!r.due(99));
        assert!(r.due(100));
        r.restarted(100);
        assert!(!r.due(249));
        assert!(r.due(250));
        assert!(!Restarter::new(Restarts::None).due(u64::MAX - 1));
    }
}
