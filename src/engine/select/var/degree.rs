//! The degree heuristic: the variable in most constraints with another open
//! variable first (it constrains the rest the most).

use super::{Evaluator, Node, Rng};
use crate::engine::Engine;
use crate::model::VarId;

pub(super) struct Degree;

impl Evaluator for Degree {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        u128::MAX - u128::from(degree(node.engine, v, node.open))
    }
}

/// Constraints on `v` that involve at least one other open variable, each
/// counted by the number of constraints its propagator stands for.
pub(crate) fn degree(engine: &Engine, v: VarId, open: &dyn Fn(VarId) -> bool) -> u64 {
    engine.watchers[v]
        .iter()
        .filter(|&&(p, _)| engine.props[p].vars().iter().any(|&w| w != v && open(w)))
        .map(|&(p, _)| u64::from(engine.props[p].weight()))
        .sum()
}
