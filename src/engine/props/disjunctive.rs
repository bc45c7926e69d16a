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
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;

pub(crate) struct Disjunctive {
    /// Start variables of the tasks of positive duration.
    starts: Vec<VarId>,
    dur: Vec<i64>,
    rules: Rules,
}

impl Disjunctive {
    /// Tasks `(start, duration)`; durations must not be negative.
    pub(crate) fn new(tasks: &[(VarId, i64)]) -> Self {
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
    /// The tasks in order of earliest start, earliest end, latest start and
    /// latest end (of the direction being worked on), and the same orders
    /// of the other direction, kept from call to call: bounds move little,
    /// so re-sorting them by insertion is nearly linear.
    by_est: Vec<usize>,
    by_ect: Vec<usize>,
    by_lst: Vec<usize>,
    by_lct: Vec<usize>,
    other: [Vec<usize>; 4],
    in_theta: Vec<bool>,
    est: Vec<i64>,
    lct: Vec<i64>,
    /// The mirror image: `-lct` and `-est`.
    m_est: Vec<i64>,
    m_lct: Vec<i64>,
    new_est: Vec<i64>,
    new_lct: Vec<i64>,
    /// New earliest starts and latest ends of one direction.
    up: Vec<i64>,
    down: Vec<i64>,
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
        let (est, lct) = (std::mem::take(&mut self.est), std::mem::take(&mut self.lct));
        let r = self.direction(&est, &lct, dur);
        self.est = est;
        self.lct = lct;
        self.swap_orders();
        r?;
        self.new_est.clone_from(&self.up);
        self.new_lct.clone_from(&self.down);
        let (m_est, m_lct) = (
            std::mem::take(&mut self.m_est),
            std::mem::take(&mut self.m_lct),
        );
        let r = self.direction(&m_est, &m_lct, dur);
        self.m_est = m_est;
        self.m_lct = m_lct;
        self.swap_orders();
        r?;
        for i in 0..n {
            self.new_est[i] = self.new_est[i].max(-self.down[i]);
            self.new_lct[i] = self.new_lct[i].min(-self.up[i]);
        }
        Ok(())
    }

    /// Switches to the orders of the other direction.
    fn swap_orders(&mut self) {
        std::mem::swap(&mut self.by_est, &mut self.other[0]);
        std::mem::swap(&mut self.by_ect, &mut self.other[1]);
        std::mem::swap(&mut self.by_lst, &mut self.other[2]);
        std::mem::swap(&mut self.by_lct, &mut self.other[3]);
    }

    /// Every rule in one direction: raised earliest starts in `up` (edge-
    /// finding, detectable precedences), lowered latest ends in `down`
    /// (not-last).
    fn direction(&mut self, est: &[i64], lct: &[i64], dur: &[i64]) -> PResult {
        let n = est.len();
        resort(&mut self.by_est, n, |i| est[i]);
        resort(&mut self.by_ect, n, |i| est[i] + dur[i]);
        resort(&mut self.by_lst, n, |i| lct[i] - dur[i]);
        resort(&mut self.by_lct, n, |i| lct[i]);
        self.tree.reset_sorted(est, dur, &self.by_est);
        self.up.clear();
        self.up.extend_from_slice(est);
        self.down.clear();
        self.down.extend_from_slice(lct);
        self.edge_finding(lct)?;
        self.detectable_precedences(est, lct, dur);
        self.not_last(lct, dur);
        Ok(())
    }

    /// Edge-finding with overload checking (Vilím's Θ-Λ-tree algorithm):
    /// raises `up[i]` to ECT(Θ) for every task `i` found to come after a set Θ.
    fn edge_finding(&mut self, lct: &[i64]) -> PResult {
        let tree = &mut self.tree;
        tree.clear(true);
        tree.insert_all();
        let by_lct = &self.by_lct;
        let n = by_lct.len();
        for k in (0..n).rev() {
            let j = by_lct[k];
            if tree.ect() > lct[j] {
                return Err(Fail);
            }
            if k == 0 {
                break;
            }
            tree.gray(j);
            let next = by_lct[k - 1];
            while tree.ect_bar() > lct[next] {
                let Some(i) = tree.responsible() else {
                    break;
                };
                self.up[i] = self.up[i].max(tree.ect());
                tree.remove(i);
            }
        }
        Ok(())
    }

    /// Detectable precedences: every `j` with `lst_j < ect_i` precedes `i`.
    fn detectable_precedences(&mut self, est: &[i64], lct: &[i64], dur: &[i64]) {
        let n = est.len();
        let tree = &mut self.tree;
        tree.clear(false);
        self.in_theta.clear();
        self.in_theta.resize(n, false);
        let mut q = 0;
        for &i in &self.by_ect {
            let ect_i = est[i] + dur[i];
            while q < n {
                let j = self.by_lst[q];
                if ect_i <= lct[j] - dur[j] {
                    break;
                }
                tree.insert(j);
                self.in_theta[j] = true;
                q += 1;
            }
            if self.in_theta[i] {
                tree.remove(i);
            }
            let ect = tree.ect();
            if ect > NEG {
                self.up[i] = self.up[i].max(ect);
            }
            if self.in_theta[i] {
                tree.insert(i);
            }
        }
    }

    /// Not-last: a task `i` that cannot be last among the tasks `j` with
    /// `lst_j < lct_i` ends by the latest start of one of them.
    fn not_last(&mut self, lct: &[i64], dur: &[i64]) {
        let n = lct.len();
        let tree = &mut self.tree;
        tree.clear(false);
        self.in_theta.clear();
        self.in_theta.resize(n, false);
        let mut q = 0;
        let mut last = None;
        for &i in &self.by_lct {
            while q < n {
                let j = self.by_lst[q];
                if lct[i] <= lct[j] - dur[j] {
                    break;
                }
                tree.insert(j);
                self.in_theta[j] = true;
                last = Some(j);
                q += 1;
            }
            let Some(j) = last else { continue };
            if self.in_theta[i] {
                tree.remove(i);
            }
            if tree.ect() > lct[i] - dur[i] {
                self.down[i] = self.down[i].min(lct[j] - dur[j]);
            }
            if self.in_theta[i] {
                tree.insert(i);
            }
        }
    }
}

/// Sorts `order`, a permutation of the `n` tasks (or anything else the
/// first time), by `(key, task)`, by insertion: the order of the previous
/// call is nearly right, so this is nearly linear.
fn resort(order: &mut Vec<usize>, n: usize, key: impl Fn(usize) -> i64) {
    if order.len() != n {
        order.clear();
        order.extend(0..n);
    }
    for k in 1..n {
        let x = order[k];
        let kx = (key(x), x);
        let mut j = k;
        while j > 0 && (key(order[j - 1]), order[j - 1]) > kx {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = x;
    }
}

impl Propagator for Disjunctive {
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
            r.lct.extend(
                self.starts
                    .iter()
                    .zip(&self.dur)
                    .map(|(&v, &p)| d.max(v) + p),
            );
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
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        super::disjunctive_explain::explain(&self.starts, &self.dur, lit, past, out)
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_explanations_random, check_random};
    use crate::engine::learn::Kind;
    use crate::model::globals::holds::disjunctive as holds;

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
        assert_eq!(
            h.bounds(b),
            (5, 10),
            "B may still end at 13 if A starts then"
        );
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
    fn explanations_name_the_tasks_of_the_rule() {
        // The detectable precedence above: C >= 21 because A and B end
        // before C can (lst 14 and 17 < ect_C) and start at 0 or later.
        let mut h = Harness::new();
        let a = h.range(0, 14);
        let b = h.range(1, 17);
        let c = h.range(14, 30);
        h.engine.start_learning();
        post(&mut h, &[(a, 11), (b, 10), (c, 5)]).unwrap();
        let got = h.explanation(Lit::ge(c, 21));
        assert_eq!(
            got,
            vec![
                Lit::ge(a, 0),
                Lit::le(a, 17),
                Lit::ge(b, 0),
                Lit::le(b, 17),
                Lit::ge(c, 13)
            ]
        );
        // Edge-finding: A >= 11 from B and C in [5, 13), A from 4 on.
        let mut h = Harness::new();
        let a = h.range(4, 26);
        let b = h.range(5, 10);
        let c = h.range(5, 10);
        h.engine.start_learning();
        post(&mut h, &[(a, 4), (b, 3), (c, 3)]).unwrap();
        let got = h.explanation(Lit::ge(a, 11));
        assert!(
            got.contains(&Lit::le(b, 10)) && got.contains(&Lit::ge(b, 5)),
            "{got:?}"
        );
        assert!(
            !got.iter().any(|l| l.var == a && l.kind == Kind::Le),
            "{got:?}"
        );
    }

    #[test]
    fn explanations_are_implied_on_many_tasks() {
        for durs in [vec![1, 2, 3, 2, 1], vec![3, 3, 2, 1], vec![2, 4, 1, 1, 2]] {
            let n = durs.len();
            let d2 = durs.clone();
            check_explanations_random(
                "disjunctive explained",
                n,
                0..=7,
                60,
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
                        let tasks: Vec<_> =
                            vars.iter().copied().zip(durs.iter().copied()).collect();
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
