//! `disjunctive(s, p)`: tasks with start times `s[i]` and fixed durations
//! `p[i]` on a unary resource — no two tasks of positive duration overlap.
//!
//! Bounds reasoning on the start times with Vilím's Θ-tree algorithms, each
//! O(n log n) ("O(n log n) filtering algorithms for unary resource
//! constraint", CPAIOR 2004; "Filtering algorithms for the unary resource
//! constraint", Archives of Control Sciences 2008), on the earliest starts
//! and, through the mirror image (times negated), on the latest ends:
//!
//! - overload checking: no set of tasks fits between its earliest start and
//!   latest end → fail;
//! - detectable precedences: `j` must precede `i` when `ect_i > lst_j`, so
//!   `i` starts after the earliest completion of all such `j`;
//! - not-first / not-last: a task that cannot come first (last) among a set
//!   starts after the earliest end (ends before the latest start) of one of them;
//! - edge-finding: a task that cannot end before a set Θ does, or lie inside
//!   it, comes after Θ and starts at ECT(Θ) or later.
//!
//! The rules run in turn until none moves a bound (the propagator is
//! idempotent). Strength: each rule's own fixpoint, which is neither bounds
//! nor domain consistency; the unit tests check it is correct and checking
//! against brute force, and reproduces the textbook examples of each rule.
//! Tasks of duration 0 occupy nothing and are ignored.

use super::theta_tree::{NEG, ThetaTree};
use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub struct Disjunctive {
    /// Start variables of the tasks of positive duration.
    starts: Vec<VarId>,
    dur: Vec<i64>,
    rules: Rules,
}

impl Disjunctive {
    /// Tasks `(start, duration)`; durations must not be negative.
    pub fn new(tasks: &[(VarId, i64)]) -> Self {
        let (starts, dur) = tasks.iter().filter(|&&(_, p)| p > 0).copied().unzip();
        Disjunctive {
            starts,
            dur,
            rules: Rules::default(),
        }
    }
}

/// Scratch space for the rules, reused between calls.
#[derive(Default)]
struct Rules {
    tree: ThetaTree,
    order: Vec<usize>,
    by_a: Vec<usize>,
    by_b: Vec<usize>,
    marks: Vec<bool>,
    est: Vec<i64>,
    lct: Vec<i64>,
    /// The mirror image: `-lct` and `-est`.
    m_est: Vec<i64>,
    m_lct: Vec<i64>,
    new_est: Vec<i64>,
    new_lct: Vec<i64>,
    m_out: Vec<i64>,
}

impl Rules {
    /// One round of every rule in both directions; fails on overload. The
    /// new bounds are left in `new_est` and `new_lct`.
    fn round(&mut self, dur: &[i64]) -> PResult {
        let n = dur.len();
        self.m_est.clear();
        self.m_est.extend(self.lct.iter().map(|&t| -t));
        self.m_lct.clear();
        self.m_lct.extend(self.est.iter().map(|&t| -t));
        self.new_est.clone_from(&self.est);
        self.new_lct.clone_from(&self.lct);
        // Earliest starts: edge-finding (with overload checking), detectable
        // precedences, and not-first (the mirror of not-last).
        let (est, lct) = (&self.est, &self.lct);
        edge_finding(est, lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.new_est)?;
        detectable_precedences(est, lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.by_b, &mut self.marks, &mut self.new_est);
        self.m_out.clear();
        self.m_out.resize(n, i64::MAX);
        not_last(&self.m_est, &self.m_lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.by_b, &mut self.marks, &mut self.m_out);
        for i in 0..n {
            self.new_est[i] = self.new_est[i].max(-self.m_out[i]);
        }
        // Latest ends: the same rules on the mirror image, and not-last.
        self.m_out.clone_from(&self.m_est);
        edge_finding(&self.m_est, &self.m_lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.m_out)?;
        detectable_precedences(&self.m_est, &self.m_lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.by_b, &mut self.marks, &mut self.m_out);
        for i in 0..n {
            self.new_lct[i] = self.new_lct[i].min(-self.m_out[i]);
        }
        not_last(&self.est, &self.lct, dur, &mut self.tree, &mut self.order, &mut self.by_a, &mut self.by_b, &mut self.marks, &mut self.new_lct);
        Ok(())
    }
}

/// Edge-finding with overload checking (Vilím's Θ-Λ-tree algorithm):
/// raises `out[i]` to ECT(Θ) for every task `i` found to come after a set Θ.
fn edge_finding(
    est: &[i64],
    lct: &[i64],
    dur: &[i64],
    tree: &mut ThetaTree,
    order: &mut Vec<usize>,
    by_lct: &mut Vec<usize>,
    out: &mut [i64],
) -> PResult {
    let n = est.len();
    tree.reset(est, dur, order);
    tree.insert_all();
    by_lct.clear();
    by_lct.extend(0..n);
    by_lct.sort_unstable_by_key(|&i| std::cmp::Reverse((lct[i], i)));
    for k in 0..n {
        let j = by_lct[k];
        if tree.ect() > lct[j] {
            return Err(Fail);
        }
        tree.gray(j);
        let Some(&next) = by_lct.get(k + 1) else {
            break;
        };
        while tree.ect_bar() > lct[next] {
            let Some(i) = tree.responsible() else {
                break;
            };
            out[i] = out[i].max(tree.ect());
            tree.remove(i);
        }
    }
    Ok(())
}

/// Detectable precedences: every `j` with `lst_j < ect_i` precedes `i`.
#[expect(clippy::too_many_arguments, reason = "scratch buffers passed down")]
fn detectable_precedences(
    est: &[i64],
    lct: &[i64],
    dur: &[i64],
    tree: &mut ThetaTree,
    order: &mut Vec<usize>,
    by_ect: &mut Vec<usize>,
    by_lst: &mut Vec<usize>,
    in_theta: &mut Vec<bool>,
    out: &mut [i64],
) {
    let n = est.len();
    tree.reset(est, dur, order);
    by_ect.clear();
    by_ect.extend(0..n);
    by_ect.sort_unstable_by_key(|&i| (est[i] + dur[i], i));
    by_lst.clear();
    by_lst.extend(0..n);
    by_lst.sort_unstable_by_key(|&j| (lct[j] - dur[j], j));
    in_theta.clear();
    in_theta.resize(n, false);
    let mut q = 0;
    for &i in by_ect.iter() {
        let ect_i = est[i] + dur[i];
        while q < n && ect_i > lct[by_lst[q]] - dur[by_lst[q]] {
            tree.insert(by_lst[q]);
            in_theta[by_lst[q]] = true;
            q += 1;
        }
        if in_theta[i] {
            tree.remove(i);
        }
        let ect = tree.ect();
        if ect > NEG {
            out[i] = out[i].max(ect);
        }
        if in_theta[i] {
            tree.insert(i);
        }
    }
}

/// Not-last: a task `i` that cannot be last among the tasks `j` with
/// `lst_j < lct_i` ends by the latest start of one of them. Lowers `out[i]`
/// (a latest end).
#[expect(clippy::too_many_arguments, reason = "scratch buffers passed down")]
fn not_last(
    est: &[i64],
    lct: &[i64],
    dur: &[i64],
    tree: &mut ThetaTree,
    order: &mut Vec<usize>,
    by_lct: &mut Vec<usize>,
    by_lst: &mut Vec<usize>,
    in_theta: &mut Vec<bool>,
    out: &mut [i64],
) {
    let n = est.len();
    tree.reset(est, dur, order);
    by_lct.clear();
    by_lct.extend(0..n);
    by_lct.sort_unstable_by_key(|&i| (lct[i], i));
    by_lst.clear();
    by_lst.extend(0..n);
    by_lst.sort_unstable_by_key(|&j| (lct[j] - dur[j], j));
    in_theta.clear();
    in_theta.resize(n, false);
    let mut q = 0;
    let mut last = None;
    for &i in by_lct.iter() {
        while q < n && lct[i] > lct[by_lst[q]] - dur[by_lst[q]] {
            let j = by_lst[q];
            tree.insert(j);
            in_theta[j] = true;
            last = Some(j);
            q += 1;
        }
        let Some(j) = last else { continue };
        if in_theta[i] {
            tree.remove(i);
        }
        let lst_i = lct[i] - dur[i];
        if tree.ect() > lst_i {
            out[i] = out[i].min(lct[j] - dur[j]);
        }
        if in_theta[i] {
            tree.insert(i);
        }
    }
}

impl Propagator for Disjunctive {
    fn name(&self) -> &'static str {
        "disjunctive"
    }
    fn vars(&self) -> &[VarId] {
        &self.starts
    }
    fn priority(&self) -> Priority {
        Priority::Slow
    }
    fn subscribe(&self, s: &mut Subscriptions) {
        for &v in &self.starts {
            s.wake(v, event::BOUNDS);
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        if self.starts.len() < 2 {
            return Ok(());
        }
        loop {
            let r = &mut self.rules;
            r.est.clear();
            r.est.extend(self.starts.iter().map(|&v| d.min(v)));
            r.lct.clear();
            r.lct
                .extend(self.starts.iter().zip(&self.dur).map(|(&v, &p)| d.max(v) + p));
            r.round(&self.dur)?;
            let mut changed = false;
            for (i, &v) in self.starts.iter().enumerate() {
                changed |= d.set_min(v, r.new_est[i])?;
                changed |= d.set_max(v, r.new_lct[i] - self.dur[i])?;
            }
            if !changed {
                return Ok(());
            }
        }
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let mut fixed: Vec<(i64, i64)> = self
            .starts
            .iter()
            .zip(&self.dur)
            .filter_map(|(&v, &p)| d.value(v).map(|s| (s, s + p)))
            .collect();
        fixed.sort_unstable();
        fixed.windows(2).any(|w| w[0].1 > w[1].0)
    }
}

/// Whether tasks `(start, duration)` overlap nowhere (duration 0 occupies nothing).
pub fn holds(tasks: &[(i64, i64)]) -> bool {
    let mut busy: Vec<(i64, i64)> = tasks
        .iter()
        .filter(|&&(_, p)| p > 0)
        .map(|&(s, p)| (s, s.saturating_add(p)))
        .collect();
    busy.sort_unstable();
    busy.windows(2).all(|w| w[0].1 <= w[1].0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    fn post(h: &mut Harness, tasks: &[(VarId, i64)]) -> PResult {
        h.try_post(Disjunctive::new(tasks))
    }

    #[test]
    fn overload_fails() {
        let mut h = Harness::new();
        let a = h.range(0, 4);
        let b = h.range(0, 4);
        let c = h.range(0, 4);
        // 3 tasks of 3 in [0, 7): 9 > 7.
        assert!(post(&mut h, &[(a, 3), (b, 3), (c, 3)]).is_err());
    }

    #[test]
    fn detectable_precedence_pushes_a_start() {
        // Vilím's example: A in [0, 25) p 11, B in [1, 27) p 10, C in [14, 35) p 5.
        // ect_C = 19 > lst_A = 14 and > lst_B = 17, so A and B precede C:
        // C starts at ECT({A, B}) = 21 or later.
        let mut h = Harness::new();
        let a = h.range(0, 14);
        let b = h.range(1, 17);
        let c = h.range(14, 30);
        post(&mut h, &[(a, 11), (b, 10), (c, 5)]).unwrap();
        assert_eq!(h.bounds(c).0, 21);
    }

    #[test]
    fn edge_finding_pushes_a_start() {
        // A in [4, 30) p 4, B in [5, 13) p 3, C in [5, 13) p 3: A cannot be
        // done before {B, C} end (4 + 4 + 6 > 13), nor inside, so it starts
        // at ECT({B, C}) = 11 or later.
        let mut h = Harness::new();
        let a = h.range(4, 26);
        let b = h.range(5, 10);
        let c = h.range(5, 10);
        post(&mut h, &[(a, 4), (b, 3), (c, 3)]).unwrap();
        assert_eq!(h.bounds(a).0, 11);
        assert_eq!(h.bounds(b), (5, 10), "B may still end at 13 if A starts then");
    }

    #[test]
    fn not_last_lowers_an_end() {
        // A and B (p 5) in [0, 11), C (p 1) in [0, 10): the earliest end of
        // {A, B} is 10 > lst_C = 9, so C is not last and ends by the latest
        // start of A or B, 6.
        let mut h = Harness::new();
        let a = h.range(0, 6);
        let b = h.range(0, 6);
        let c = h.range(0, 9);
        post(&mut h, &[(a, 5), (b, 5), (c, 1)]).unwrap();
        assert!(h.bounds(c).1 <= 5, "{:?}", h.bounds(c));
        h.fix(c, 0).unwrap();
        h.fix(a, 1).unwrap();
        assert_eq!(h.values(b), vec![6]);
    }

    #[test]
    fn zero_durations_occupy_nothing() {
        let mut h = Harness::new();
        let a = h.range(0, 0);
        let b = h.range(0, 0);
        let c = h.range(0, 3);
        post(&mut h, &[(a, 0), (b, 0), (c, 2)]).unwrap();
        assert_eq!(h.bounds(c), (0, 3));
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        for n in 1..=4 {
            for durs in [[1, 2, 3, 1], [2, 2, 0, 3], [3, 1, 1, 2]] {
                let durs = durs[..n].to_vec();
                let d2 = durs.clone();
                check_random(
                    "disjunctive",
                    Strength::Check,
                    n,
                    move |_, vars| {
                        let tasks: Vec<_> = vars.iter().copied().zip(durs.iter().copied()).collect();
                        Some(Box::new(Disjunctive::new(&tasks)))
                    },
                    move |t| {
                        let tasks: Vec<_> = t.iter().copied().zip(d2.iter().copied()).collect();
                        holds(&tasks)
                    },
                );
            }
        }
    }
}
