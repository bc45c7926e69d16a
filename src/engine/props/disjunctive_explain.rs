//! Explanations of the disjunctive propagator for learning
//! (docs/learning.md), found lazily from the start bounds the tasks had
//! when it acted, lifted to the weakest bounds that still imply the
//! literal (Vilím's rules, explained as in Schutt's thesis and Pumpkin):
//!
//! - detectable precedences: the tasks `Ω` that end before `i` can
//!   (`s_j <= a + p_i - 1` with `s_i >= a`) precede `i`, and all start at
//!   `e` or later, so `i` starts at `e + p(Ω)` or later;
//! - edge-finding: the tasks `Ω` start at `a` or later and end by `b`, and
//!   `i` starts at `a` or later, with `a + p(Ω) + p_i > b`: `i` cannot end
//!   by `b`, so it comes after every task that ends by `b`, among them a
//!   set `Θ` that starts at `e` or later, and starts at `e + p(Θ)`;
//! - not-first: the tasks `Ω` end by `L`, and `s_i + p_i + p(Ω) > L`: `i`
//!   is not first among them, so it starts after one of them ends;
//! - overload (a failure): tasks that start at `a` or later and end by `b`
//!   need more than `b - a`.
//!
//! Upper bounds are the mirror image (times negated, `s' = -s - p`).
//! A literal no rule explains from those bounds falls back to the default.

use crate::engine::learn::{Kind, Lit, Past};
use crate::model::VarId;

/// A bound on one task's start, in the direction being worked on:
/// `s_k >= x` (`lower`) or `s_k <= x`.
#[derive(Clone, Copy, Debug)]
struct Item {
    task: usize,
    lower: bool,
    x: i64,
}

/// The tasks' start bounds in one direction.
struct View<'a> {
    est: Vec<i64>,
    lst: Vec<i64>,
    dur: &'a [i64],
}

impl View<'_> {
    fn lct(&self, k: usize) -> i64 {
        self.lst[k] + self.dur[k]
    }
}

/// Explains `lit` (or, with `None`, a failure) of the disjunctive over
/// `starts` with durations `dur`; false when no rule does.
pub(crate) fn explain(
    starts: &[VarId],
    dur: &[i64],
    lit: Option<Lit>,
    past: &Past<'_>,
    out: &mut Vec<Lit>,
) -> bool {
    let bounds: Vec<(i64, i64)> = starts.iter().map(|&v| past.bounds(v)).collect();
    let forward = View {
        est: bounds.iter().map(|b| b.0).collect(),
        lst: bounds.iter().map(|b| b.1).collect(),
        dur,
    };
    let mut items = Vec::new();
    let Some(lit) = lit else {
        if !overload(&forward, &mut items) {
            return false;
        }
        emit(starts, dur, &items, false, out);
        return true;
    };
    let mirror = || View {
        est: (0..dur.len()).map(|k| -bounds[k].1 - dur[k]).collect(),
        lst: (0..dur.len()).map(|k| -bounds[k].0 - dur[k]).collect(),
        dur,
    };
    for i in (0..starts.len()).filter(|&i| starts[i] == lit.var) {
        items.clear();
        let found = match lit.kind {
            Kind::Ge => lower(&forward, i, lit.val, &mut items),
            Kind::Le => lower(&mirror(), i, -lit.val - dur[i], &mut items),
            _ => false,
        };
        if found {
            emit(starts, dur, &items, lit.kind == Kind::Le, out);
            return true;
        }
    }
    false
}

/// The items as literals, mapped back from the mirror image if `mirrored`.
fn emit(starts: &[VarId], dur: &[i64], items: &[Item], mirrored: bool, out: &mut Vec<Lit>) {
    for it in items {
        let v = starts[it.task];
        out.push(match (it.lower, mirrored) {
            (true, false) => Lit::ge(v, it.x),
            (false, false) => Lit::le(v, it.x),
            (true, true) => Lit::le(v, -it.x - dur[it.task]),
            (false, true) => Lit::ge(v, -it.x - dur[it.task]),
        });
    }
}

/// Why task `i` starts at `v` or later: some rule's items.
fn lower(w: &View<'_>, i: usize, v: i64, items: &mut Vec<Item>) -> bool {
    detectable_precedences(w, i, v, items)
        || edge_finding(w, i, v, items)
        || not_first(w, i, v, items)
}

/// The largest `e` such that the tasks of `set` starting at `e` or later
/// last `v - e` or more together, with those tasks (a prefix of `set` in
/// order of latest earliest start first); `None` when there is none.
fn enough_after(w: &View<'_>, set: &mut [usize], v: i64) -> Option<(i64, usize)> {
    set.sort_unstable_by_key(|&j| std::cmp::Reverse(w.est[j]));
    let mut work = 0;
    for (k, &j) in set.iter().enumerate() {
        work += w.dur[j];
        if w.est[j] + work >= v {
            return Some((v - work, k + 1));
        }
    }
    None
}

fn detectable_precedences(w: &View<'_>, i: usize, v: i64, items: &mut Vec<Item>) -> bool {
    let ect_i = w.est[i] + w.dur[i];
    let mut before: Vec<usize> = (0..w.est.len())
        .filter(|&j| j != i && w.lst[j] < ect_i)
        .collect();
    let Some((e, k)) = enough_after(w, &mut before, v) else {
        return false;
    };
    let omega = &before[..k];
    // The weakest `s_i >= a` with every `s_j <= a + p_i - 1` still true.
    let a = omega.iter().map(|&j| w.lst[j]).max().unwrap_or(0) - w.dur[i] + 1;
    items.push(Item {
        task: i,
        lower: true,
        x: a,
    });
    for &j in omega {
        items.push(Item {
            task: j,
            lower: false,
            x: a + w.dur[i] - 1,
        });
        items.push(Item {
            task: j,
            lower: true,
            x: e,
        });
    }
    true
}

fn edge_finding(w: &View<'_>, i: usize, v: i64, items: &mut Vec<Item>) -> bool {
    let n = w.est.len();
    let mut ends: Vec<i64> = (0..n).filter(|&j| j != i).map(|j| w.lct(j)).collect();
    ends.sort_unstable();
    ends.dedup();
    for &b in &ends {
        let mut theta: Vec<usize> = (0..n).filter(|&j| j != i && w.lct(j) <= b).collect();
        // Detection: the tasks of Θ starting at `a` or later, and `i`, do
        // not fit between `a` and `b`.
        theta.sort_unstable_by_key(|&j| std::cmp::Reverse(w.est[j]));
        let mut work = w.dur[i];
        let mut omega = None;
        if w.est[i] + work > b {
            omega = Some(0);
        }
        for (k, &j) in theta.iter().enumerate() {
            if omega.is_some() {
                break;
            }
            work += w.dur[j];
            if w.est[j].min(w.est[i]) + work > b {
                omega = Some(k + 1);
            }
        }
        let Some(k) = omega else { continue };
        let work_omega: i64 = theta[..k].iter().map(|&j| w.dur[j]).sum();
        let mut rest = theta.clone();
        let Some((e, m)) = enough_after(w, &mut rest, v) else {
            continue;
        };
        // The weakest `a` with `a + p(Ω) + p_i > b`.
        let a = b - work_omega - w.dur[i] + 1;
        items.push(Item {
            task: i,
            lower: true,
            x: a,
        });
        for &j in &theta[..k] {
            items.push(Item {
                task: j,
                lower: true,
                x: a,
            });
            items.push(Item {
                task: j,
                lower: false,
                x: b - w.dur[j],
            });
        }
        for &j in &rest[..m] {
            items.push(Item {
                task: j,
                lower: true,
                x: e,
            });
            items.push(Item {
                task: j,
                lower: false,
                x: b - w.dur[j],
            });
        }
        return true;
    }
    false
}

fn not_first(w: &View<'_>, i: usize, v: i64, items: &mut Vec<Item>) -> bool {
    // The tasks that end at `v` or later, by latest end: the first of them
    // that lets `i` not be first among those before it.
    let mut later: Vec<usize> = (0..w.est.len())
        .filter(|&j| j != i && w.est[j] + w.dur[j] >= v)
        .collect();
    later.sort_unstable_by_key(|&j| w.lct(j));
    let mut work = w.dur[i];
    for (k, &j) in later.iter().enumerate() {
        work += w.dur[j];
        let l = w.lct(j);
        if w.est[i] + work > l {
            items.push(Item {
                task: i,
                lower: true,
                x: l - work + 1,
            });
            for &q in &later[..=k] {
                items.push(Item {
                    task: q,
                    lower: false,
                    x: l - w.dur[q],
                });
                items.push(Item {
                    task: q,
                    lower: true,
                    x: v - w.dur[q],
                });
            }
            return true;
        }
    }
    false
}

/// Tasks that do not fit between their earliest start and latest end.
fn overload(w: &View<'_>, items: &mut Vec<Item>) -> bool {
    let n = w.est.len();
    let mut ends: Vec<i64> = (0..n).map(|j| w.lct(j)).collect();
    ends.sort_unstable();
    ends.dedup();
    for &b in &ends {
        let mut theta: Vec<usize> = (0..n).filter(|&j| w.lct(j) <= b).collect();
        theta.sort_unstable_by_key(|&j| std::cmp::Reverse(w.est[j]));
        let mut work = 0;
        for (k, &j) in theta.iter().enumerate() {
            work += w.dur[j];
            if w.est[j] + work > b {
                let a = b - work + 1;
                for &q in &theta[..=k] {
                    items.push(Item {
                        task: q,
                        lower: true,
                        x: a,
                    });
                    items.push(Item {
                        task: q,
                        lower: false,
                        x: b - w.dur[q],
                    });
                }
                return true;
            }
        }
    }
    false
}
