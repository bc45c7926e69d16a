//! `cumulative(s, p, h, c)`: tasks with start times `s[i]`, fixed durations
//! `p[i]` and heights `h[i]` on a resource of capacity `c` (a variable): at
//! every time the tasks running use at most `c` together.
//!
//! Time-tabling (Beldiceanu & Carlsson 2002, "A new multi-resource
//! cumulatives constraint with negative heights"; Aggoun & Beldiceanu 1993):
//! the compulsory part of a task, `[lst, ect)` when its latest start comes
//! before its earliest end, certainly runs. The sum of the compulsory parts
//! is the profile: its peak bounds the capacity from below, and a task whose
//! height does not fit on top of a segment of the profile (its own part
//! taken out) cannot overlap that segment, which pushes its earliest start
//! past the segment, and (mirrored) its latest end before it. Repeated until
//! nothing moves: idempotent. O(n · segments) per round.
//!
//! Strength: the time-tabling fixpoint (correct and checking, tested against
//! brute force); neither bounds nor domain consistency. Tasks of duration or
//! height 0 use nothing and are ignored.

use crate::engine::domains::{Domains, PResult, event};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct Cumulative {
    /// The start variables of the tasks that use the resource, then the capacity.
    vars: Vec<VarId>,
    dur: Vec<i64>,
    height: Vec<i64>,
    cap: VarId,
    /// Scratch: profile events and segments.
    events: Vec<(i64, i64)>,
    segments: Vec<Segment>,
}

#[derive(Clone, Copy, Debug)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
}

impl Cumulative {
    /// Tasks `(start, duration, height)` and the capacity; durations and
    /// heights must not be negative.
    pub(crate) fn new(tasks: &[(VarId, i64, i64)], cap: VarId) -> Self {
        let used: Vec<_> = tasks.iter().filter(|t| t.1 > 0 && t.2 > 0).collect();
        let mut vars: Vec<VarId> = used.iter().map(|t| t.0).collect();
        vars.push(cap);
        Cumulative {
            vars,
            dur: used.iter().map(|t| t.1).collect(),
            height: used.iter().map(|t| t.2).collect(),
            cap,
            events: Vec::new(),
            segments: Vec::new(),
        }
    }

    fn tasks(&self) -> usize {
        self.dur.len()
    }

    /// The profile of the compulsory parts, as maximal segments of equal
    /// positive height in time order; returns the peak.
    fn profile(&mut self, d: &Domains) -> i64 {
        self.events.clear();
        for i in 0..self.tasks() {
            let s = self.vars[i];
            let (lst, ect) = (d.max(s), d.min(s) + self.dur[i]);
            if lst < ect {
                self.events.push((lst, self.height[i]));
                self.events.push((ect, -self.height[i]));
            }
        }
        self.events.sort_unstable();
        self.segments.clear();
        let (mut height, mut peak) = (0, 0);
        let mut k = 0;
        while k < self.events.len() {
            let t = self.events[k].0;
            while k < self.events.len() && self.events[k].0 == t {
                height += self.events[k].1;
                k += 1;
            }
            if let Some(last) = self.segments.last_mut()
                && last.end == i64::MAX
            {
                last.end = t;
            }
            if height > 0 && k < self.events.len() {
                self.segments.push(Segment {
                    start: t,
                    end: i64::MAX,
                    height,
                });
                peak = peak.max(height);
            }
        }
        peak
    }

    /// The height of task `i`'s own compulsory part within a segment.
    fn own(&self, d: &Domains, i: usize, seg: &Segment) -> i64 {
        let s = self.vars[i];
        let (lst, ect) = (d.max(s), d.min(s) + self.dur[i]);
        if lst <= seg.start && seg.end <= ect {
            self.height[i]
        } else {
            0
        }
    }

    /// New bounds for task `i`: the earliest start and latest start left
    /// once the segments it cannot overlap are avoided.
    fn bounds(&self, d: &Domains, i: usize, cap: i64) -> (i64, i64) {
        let s = self.vars[i];
        let (p, h) = (self.dur[i], self.height[i]);
        let mut est = d.min(s);
        for seg in &self.segments {
            if seg.end <= est {
                continue;
            }
            if seg.start >= est + p {
                break;
            }
            if seg.height - self.own(d, i, seg) + h > cap {
                est = seg.end;
            }
        }
        let mut lct = d.max(s) + p;
        for seg in self.segments.iter().rev() {
            if seg.start >= lct {
                continue;
            }
            if seg.end <= lct - p {
                break;
            }
            if seg.height - self.own(d, i, seg) + h > cap {
                lct = seg.start;
            }
        }
        (est, lct - p)
    }
}

impl Propagator for Cumulative {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Slow
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        for &v in &self.vars {
            s.wake(v, event::BOUNDS);
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        if self.tasks() == 0 {
            return Ok(());
        }
        // Every task runs at some time, so the capacity is at least the
        // tallest one's height.
        let tallest = self.height.iter().copied().max().unwrap_or(0);
        d.set_min(self.cap, tallest)?;
        loop {
            let peak = self.profile(d);
            let mut changed = d.set_min(self.cap, peak)?;
            let cap = d.max(self.cap);
            for i in 0..self.tasks() {
                let (lo, hi) = self.bounds(d, i, cap);
                let s = self.vars[i];
                changed |= d.set_min(s, lo)?;
                changed |= d.set_max(s, hi)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let starts = &self.vars[..self.tasks()];
        super::cumulative_explain::explain(
            starts,
            &self.dur,
            &self.height,
            self.cap,
            lit,
            past,
            out,
        )
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let fixed: Vec<(i64, i64, i64)> = (0..self.tasks())
            .filter_map(|i| {
                d.value(self.vars[i])
                    .map(|s| (s, self.dur[i], self.height[i]))
            })
            .collect();
        let cap = d.max(self.cap);
        fixed.iter().any(|&(t, _, _)| load_at(&fixed, t) > cap)
    }
}

/// The load at time `t` of tasks `(start, duration, height)`.
fn load_at(tasks: &[(i64, i64, i64)], t: i64) -> i64 {
    tasks
        .iter()
        .filter(|&&(s, p, _)| s <= t && t < s.saturating_add(p))
        .map(|&(_, _, h)| h)
        .sum()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};
    use crate::model::globals::holds::cumulative as holds;

    #[test]
    fn profile_pushes_a_task_past_a_peak() {
        // A fixed at [2, 6) height 2 on capacity 3: B (height 2, p 2) in
        // [0, 10) cannot overlap [2, 6): it starts at 0 or from 6.
        let mut h = Harness::new();
        let a = h.range(2, 2);
        let b = h.range(1, 8);
        let c = h.range(3, 3);
        h.post(Cumulative::new(&[(a, 4, 2), (b, 2, 2)], c));
        assert_eq!(h.bounds(b), (6, 8));
    }

    #[test]
    fn explanations_are_pointwise() {
        // B (p 2) pushed past A's compulsory part [2, 6) under capacity 3:
        // B cannot run at 5 (so does not start at 4 or 5), nor at 3 (2 or
        // 3), nor at 2 (1 or 2), and started from 1.
        let mut h = Harness::new();
        let a = h.range(2, 2);
        let b = h.range(1, 8);
        let c = h.range(3, 3);
        h.engine.start_learning();
        h.post(Cumulative::new(&[(a, 4, 2), (b, 2, 2)], c));
        let got = h.explanation(Lit::ge(b, 6));
        assert_eq!(
            got,
            vec![
                Lit::ge(a, -1),
                Lit::ge(a, 0),
                Lit::ge(a, 2),
                Lit::le(a, 2),
                Lit::le(a, 3),
                Lit::le(a, 5),
                Lit::ge(b, 1),
                Lit::le(c, 3)
            ]
        );
        // The capacity from the load at one time.
        let mut h = Harness::new();
        let a = h.range(0, 1);
        let b = h.range(0, 1);
        let x = h.range(0, 9);
        let c = h.range(0, 10);
        h.engine.start_learning();
        h.post(Cumulative::new(&[(a, 3, 2), (b, 3, 4), (x, 1, 1)], c));
        let got = h.explanation(Lit::ge(c, 6));
        assert!(!got.iter().any(|l| l.var == x), "{got:?}");
        assert!(
            got.contains(&Lit::le(a, 1)) && got.contains(&Lit::le(b, 1)),
            "{got:?}"
        );
    }

    #[test]
    fn explanations_are_implied_on_many_tasks() {
        for (durs, heights) in [
            (vec![1, 2, 3, 2], vec![1, 2, 1, 2]),
            (vec![3, 2, 4, 1], vec![2, 1, 2, 3]),
        ] {
            let n = durs.len() + 1;
            let (d2, h2) = (durs.clone(), heights.clone());
            check_explanations_random(
                "cumulative explained",
                n,
                0..=6,
                60,
                move |_, vars| {
                    let tasks: Vec<_> =
                        (0..n - 1).map(|i| (vars[i], durs[i], heights[i])).collect();
                    Some(Box::new(Cumulative::new(&tasks, vars[n - 1])))
                },
                move |t| {
                    let tasks: Vec<_> = (0..n - 1).map(|i| (t[i], d2[i], h2[i])).collect();
                    holds(&tasks, t[n - 1])
                },
            );
        }
    }

    #[test]
    fn capacity_rises_to_the_peak() {
        let mut h = Harness::new();
        let a = h.range(0, 1);
        let b = h.range(0, 1);
        let c = h.range(0, 10);
        h.post(Cumulative::new(&[(a, 3, 2), (b, 3, 4)], c));
        assert_eq!(h.bounds(c), (6, 10));
        assert!(h.set_max(c, 5).is_err());
    }

    #[test]
    fn a_task_taller_than_the_capacity_fails() {
        let mut h = Harness::new();
        let a = h.range(0, 5);
        let c = h.range(0, 2);
        assert!(h.try_post(Cumulative::new(&[(a, 1, 3)], c)).is_err());
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        // The last variable is the capacity.
        for n in 2..=4 {
            for (durs, heights) in [
                ([1, 2, 3], [1, 2, 1]),
                ([2, 2, 1], [2, 1, 3]),
                ([3, 0, 2], [1, 2, 2]),
            ] {
                let (durs, heights) = (durs[..n - 1].to_vec(), heights[..n - 1].to_vec());
                let (d2, h2) = (durs.clone(), heights.clone());
                check_random(
                    "cumulative",
                    Strength::Check,
                    n,
                    move |_, vars| {
                        let tasks: Vec<_> =
                            (0..n - 1).map(|i| (vars[i], durs[i], heights[i])).collect();
                        Some(Box::new(Cumulative::new(&tasks, vars[n - 1])))
                    },
                    move |t| {
                        let tasks: Vec<_> = (0..n - 1).map(|i| (t[i], d2[i], h2[i])).collect();
                        holds(&tasks, t[n - 1])
                    },
                );
            }
        }
    }
}
