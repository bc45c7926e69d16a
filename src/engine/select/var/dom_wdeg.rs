//! dom/wdeg (Boussemart, Hemery, Lecoutre, Sais, ECAI 2004): the smallest
//! ratio of domain size to weighted degree, where each constraint's weight
//! starts at 1 and grows by one each time it fails. The weights are this
//! evaluator's own state; they survive restarts, which is what restarts
//! with dom/wdeg are for.
//!
//! A variable's weighted degree counts only the constraints with another
//! open variable, which takes a look at each constraint's variables. So
//! that a selection over tens of thousands of variables does not pay that
//! for each of them at every node, each variable also keeps the weight of
//! all its constraints, open or not (updated when one of them fails or a
//! constraint is added): size over that is a bound no higher than the
//! score, and a candidate whose bound already loses is not scored.

use super::{Evaluator, Node, Rng};
use crate::engine::{Engine, PropId};
use crate::model::VarId;

#[derive(Default)]
pub(super) struct DomWdeg {
    /// Failures of each propagator (its weight is one more).
    failures: Vec<u64>,
    /// Per variable, the weight of all its watchers.
    all: Vec<AllWeight>,
    /// Per propagator, the variables whose [`AllWeight`] counts it, to be
    /// recounted when it fails.
    counted_in: Vec<Vec<VarId>>,
}

/// The sum of the weights of a variable's first `counted` watchers.
#[derive(Clone, Copy, Default)]
struct AllWeight {
    sum: u64,
    counted: usize,
    /// One of them failed since the sum was taken.
    stale: bool,
}

impl DomWdeg {
    fn weight(&self, p: PropId) -> u64 {
        1 + self.failures.get(p).copied().unwrap_or(0)
    }

    /// The weight of all of `v`'s watchers, open or not: at least its
    /// weighted degree. Watchers are only ever added (new nogoods) and a
    /// weight only grows, so the sum is kept until one of them fails or
    /// the list grows.
    fn all_weight(&mut self, e: &Engine, v: VarId) -> u64 {
        if self.all.len() <= v {
            self.all
                .resize(e.watchers.len().max(v + 1), AllWeight::default());
        }
        let watchers = &e.watchers[v];
        let a = self.all[v];
        if !a.stale && a.counted == watchers.len() {
            return a.sum;
        }
        // Fewer watchers than counted: another engine's (never in one
        // search, where lists only grow); count them all again.
        let new = if a.counted <= watchers.len() {
            a.counted
        } else {
            0
        };
        for &(p, _) in &watchers[new..] {
            if self.counted_in.len() <= p {
                self.counted_in.resize(p + 1, Vec::new());
            }
            self.counted_in[p].push(v);
        }
        let sum = watchers.iter().map(|&(p, _)| self.weight(p)).sum();
        self.all[v] = AllWeight {
            sum,
            counted: watchers.len(),
            stale: false,
        };
        sum
    }
}

/// Size over weight as a fixed-point ratio (in 64 bits where it fits: a
/// 128-bit division is a call, and a selection makes one per candidate).
fn ratio(size: u64, weight: u64) -> u128 {
    let weight = weight.max(1);
    if size >> 32 == 0 {
        u128::from((size << 32) / weight)
    } else {
        (u128::from(size) << 32) / u128::from(weight)
    }
}

impl Evaluator for DomWdeg {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        let e = node.engine;
        let wdeg: u64 = e.watchers[v]
            .iter()
            .filter(|&&(p, _)| e.props[p].vars().iter().any(|&w| w != v && (node.open)(w)))
            .map(|&(p, _)| self.weight(p))
            .sum();
        ratio(e.doms.size(v), wdeg)
    }

    fn lower_bound(&mut self, e: &Engine, v: VarId) -> Option<u128> {
        let all = self.all_weight(e, v);
        Some(ratio(e.doms.size(v), all))
    }

    fn on_failure(&mut self, _: &Engine, p: PropId) {
        if self.failures.len() <= p {
            self.failures.resize(p + 1, 0);
        }
        self.failures[p] += 1;
        if let Some(vars) = self.counted_in.get(p) {
            for &v in vars {
                self.all[v].stale = true;
            }
        }
    }

    fn varies(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Open, Order, build};
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::linear::{LinOp, Linear};
    use crate::model::VarSelect;
    use rand::{RngExt, SeedableRng};

    /// dom/wdeg by its definition, for the test: size over the weights of
    /// the constraints with another unfixed variable (ties: the first).
    fn brute_pick(h: &Harness, failures: &[u64], vars: &[VarId]) -> Option<VarId> {
        let e = &h.engine;
        let open = |v: VarId| !e.doms.is_fixed(v);
        let score = |v: VarId| {
            let wdeg: u64 = (0..e.props.len())
                .filter(|&p| e.props[p].vars().contains(&v))
                .filter(|&p| e.props[p].vars().iter().any(|&w| w != v && open(w)))
                .map(|p| 1 + failures.get(p).copied().unwrap_or(0))
                .sum();
            (u128::from(e.doms.size(v)) << 32) / u128::from(wdeg.max(1))
        };
        let mut best: Option<(u128, VarId)> = None;
        for &v in vars.iter().filter(|&&v| open(v)) {
            let s = score(v);
            if best.is_none_or(|(b, _)| s < b) {
                best = Some((s, v));
            }
        }
        best.map(|(_, v)| v)
    }

    /// The bound never exceeds the score, and skipping by it picks what
    /// scoring every candidate would: random constraints, failures charged
    /// to them, variables fixed one by one, and constraints added between
    /// picks (as restarts add nogoods).
    #[test]
    fn the_bound_skips_only_losers() {
        let mut rng = Rng::seed_from_u64(7);
        for round in 0..200 {
            let mut h = Harness::new();
            let n = rng.random_range(2..12usize);
            let vars: Vec<VarId> = (0..n).map(|_| h.range(0, rng.random_range(1..6))).collect();
            let post = |h: &mut Harness, rng: &mut Rng| {
                let a = vars[rng.random_range(0..n)];
                let b = vars[rng.random_range(0..n)];
                h.post(Linear::new(vec![(1, a), (1, b)], -100, LinOp::Le));
            };
            for _ in 0..rng.random_range(0..2 * n) {
                post(&mut h, &mut rng);
            }
            let mut failures: Vec<u64> = Vec::new();
            let mut selector = build(VarSelect::DomWdeg);
            let mut evaluator = DomWdeg::default();
            let order = Order::new(&[], &vars, h.engine.doms.num_vars());
            loop {
                for _ in 0..rng.random_range(0..3) {
                    let props = h.engine.props.len();
                    if props == 0 {
                        break;
                    }
                    let p = rng.random_range(0..props);
                    failures.resize(failures.len().max(p + 1), 0);
                    failures[p] += 1;
                    selector.on_failure(&h.engine, p);
                    evaluator.on_failure(&h.engine, p);
                }
                if rng.random_range(0..4) == 0 {
                    post(&mut h, &mut rng);
                }
                let open = |v: VarId| !h.engine.doms.is_fixed(v);
                let node = Node {
                    engine: &h.engine,
                    open: &open,
                };
                for &v in vars.iter().filter(|&&v| open(v)) {
                    let bound = evaluator.lower_bound(&h.engine, v);
                    let score = evaluator.score(&node, v, &mut rng);
                    assert!(bound.is_some_and(|b| b <= score), "round {round}");
                }
                let picked = selector
                    .pick(&h.engine, Open::Unfixed, &order, 0, &mut rng)
                    .map(|p| p.var);
                assert_eq!(picked, brute_pick(&h, &failures, &vars), "round {round}");
                let Some(v) = picked else { break };
                let lo = h.engine.doms.min(v);
                h.fix(v, lo).expect("the constraints have slack");
            }
        }
    }
}
