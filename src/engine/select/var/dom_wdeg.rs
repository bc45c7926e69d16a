//! dom/wdeg (Boussemart, Hemery, Lecoutre, Sais, ECAI 2004): the smallest
//! ratio of domain size to weighted degree, where each constraint's weight
//! starts at 1 and grows by one each time it fails. The weights are this
//! evaluator's own state; they survive restarts, which is what restarts
//! with dom/wdeg are for.

use super::{Evaluator, Node, Rng};
use crate::engine::{Engine, PropId};
use crate::model::VarId;

#[derive(Default)]
pub(super) struct DomWdeg {
    /// Failures of each propagator (its weight is one more).
    failures: Vec<u64>,
}

impl DomWdeg {
    fn weight(&self, p: PropId) -> u64 {
        1 + self.failures.get(p).copied().unwrap_or(0)
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
        // size / wdeg as a fixed-point ratio.
        (u128::from(e.doms.size(v)) << 32) / u128::from(wdeg.max(1))
    }

    fn on_failure(&mut self, _: &Engine, p: PropId) {
        if self.failures.len() <= p {
            self.failures.resize(p + 1, 0);
        }
        self.failures[p] += 1;
    }

    fn varies(&self) -> bool {
        true
    }
}
