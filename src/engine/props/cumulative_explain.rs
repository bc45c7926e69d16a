//! Explanations of the cumulative propagator's time-tabling for learning
//! (docs/learning.md), pointwise as in Schutt, Feydy, Stuckey and Wallace,
//! "Explaining the cumulative propagator" (Constraints 2011), found lazily
//! from the start bounds the tasks had when it acted:
//!
//! - the capacity is at least the height of the tallest task (no
//!   literal), or the load of the compulsory parts at one time `t`: each
//!   task `j` taken runs at `t` when `t - p_j + 1 <= s_j <= t`;
//! - a start `s_i >= v`: `i` cannot run at a time `t` where the
//!   compulsory parts of other tasks leave less than its height (the
//!   capacity at most their load plus `h_i - 1`), so `s_i` is not in
//!   `t - p_i + 1..=t`; points from `v - 1` down, each as low as the window
//!   allows, until the windows reach the start bound `i` had (one literal
//!   `s_i >= lowest`); `s_i <= v` is the same upwards.
//!
//! At each point only the tallest compulsory parts needed are named.

use crate::engine::learn::{Kind, Lit, Past};
use crate::model::VarId;

/// The tasks' data and their start bounds when the propagator acted.
struct Tasks<'a> {
    starts: &'a [VarId],
    dur: &'a [i64],
    height: &'a [i64],
    cap: VarId,
    est: Vec<i64>,
    lst: Vec<i64>,
}

impl Tasks<'_> {
    /// Whether task `j` has a compulsory part covering time `t`.
    fn covers(&self, j: usize, t: i64) -> bool {
        self.lst[j] <= t && t < self.est[j] + self.dur[j]
    }

    /// Names the tallest tasks other than `skip` covering `t` until their
    /// heights exceed `need`; their load, or `None` if all of them do not.
    fn name_load(&self, t: i64, skip: Option<usize>, need: i64, out: &mut Vec<Lit>) -> Option<i64> {
        let mut on: Vec<usize> = (0..self.dur.len())
            .filter(|&j| Some(j) != skip && self.covers(j, t))
            .collect();
        on.sort_unstable_by_key(|&j| std::cmp::Reverse(self.height[j]));
        let mut load = 0;
        for j in on {
            load += self.height[j];
            out.push(Lit::le(self.starts[j], t));
            out.push(Lit::ge(self.starts[j], t - self.dur[j] + 1));
            if load > need {
                return Some(load);
            }
        }
        None
    }

    /// The maximal intervals `[start, end)` of time where the compulsory
    /// parts of the tasks other than `i` leave less than `h_i` under `cap`.
    fn blocked(&self, i: usize, cap: i64) -> Vec<(i64, i64)> {
        let mut events: Vec<(i64, i64)> = Vec::new();
        for j in (0..self.dur.len()).filter(|&j| j != i) {
            let (lst, ect) = (self.lst[j], self.est[j] + self.dur[j]);
            if lst < ect {
                events.push((lst, self.height[j]));
                events.push((ect, -self.height[j]));
            }
        }
        events.sort_unstable();
        let mut out: Vec<(i64, i64)> = Vec::new();
        let (mut load, mut k, mut open) = (0, 0, None);
        while k < events.len() {
            let t = events[k].0;
            while k < events.len() && events[k].0 == t {
                load += events[k].1;
                k += 1;
            }
            let over = load + self.height[i] > cap;
            match (open, over) {
                (None, true) => open = Some(t),
                (Some(s), false) => {
                    out.push((s, t));
                    open = None;
                }
                _ => {}
            }
        }
        out
    }
}

/// Explains `lit` of the cumulative over tasks `(starts, dur, height)` and
/// capacity `cap`; false when it cannot (the caller falls back to the
/// default).
pub(crate) fn explain(
    starts: &[VarId],
    dur: &[i64],
    height: &[i64],
    cap: VarId,
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let Some(lit) = lit else {
        return false;
    };
    let bounds: Vec<(i64, i64)> = starts.iter().map(|&v| past.bounds(v)).collect();
    let tasks = Tasks {
        starts,
        dur,
        height,
        cap,
        est: bounds.iter().map(|b| b.0).collect(),
        lst: bounds.iter().map(|b| b.1).collect(),
    };
    let start = out.len();
    if lit.var == cap && lit.kind == Kind::Ge {
        if height.iter().any(|&h| h >= lit.val) {
            return true;
        }
        let mut times: Vec<i64> = tasks.lst.clone();
        times.sort_unstable();
        times.dedup();
        for t in times {
            if tasks.name_load(t, None, lit.val - 1, out).is_some() {
                return true;
            }
            out.truncate(start);
        }
    }
    let cap_max = past.max(cap);
    for i in (0..starts.len()).filter(|&i| starts[i] == lit.var) {
        let found = match lit.kind {
            Kind::Ge => walk(&tasks, i, cap_max, lit.val, true, out),
            Kind::Le => walk(&tasks, i, cap_max, lit.val, false, out),
            _ => false,
        };
        if found {
            return true;
        }
        out.truncate(start);
    }
    false
}

/// `s_i >= v` (`up`) or `s_i <= v`: blocked points from `v` towards the
/// bound `i` had, each excluding a window of `p_i` starts.
fn walk(tasks: &Tasks<'_>, i: usize, cap_max: i64, v: i64, up: bool, out: &mut Vec<Lit>) -> bool {
    let (p, h) = (tasks.dur[i], tasks.height[i]);
    let blocked = tasks.blocked(i, cap_max);
    let mut cap_lit = i64::MAX;
    // The next start left to exclude.
    let mut x = if up { v - 1 } else { v + 1 };
    loop {
        // A blocked time in x..x+p (a start at x runs then), as low (up) or
        // as high (down) as possible.
        let (lo, hi) = (x, x + p - 1);
        let t = if up {
            blocked
                .iter()
                .find(|&&(s, e)| e > lo && s <= hi)
                .map(|&(s, _)| s.max(lo))
        } else {
            blocked
                .iter()
                .rev()
                .find(|&&(s, e)| e > lo && s <= hi)
                .map(|&(_, e)| (e - 1).min(hi))
        };
        let Some(t) = t else {
            return false;
        };
        let Some(load) = tasks.name_load(t, Some(i), cap_max - h, out) else {
            return false;
        };
        cap_lit = cap_lit.min(load + h - 1);
        if up {
            let low = t - p + 1;
            if low <= tasks.est[i] {
                out.push(Lit::ge(tasks.starts[i], low));
                break;
            }
            x = low - 1;
        } else {
            if t >= tasks.lst[i] {
                out.push(Lit::le(tasks.starts[i], t));
                break;
            }
            x = t + 1;
        }
    }
    out.push(Lit::le(tasks.cap, cap_lit));
    true
}
