//! Smallest minimum first (MiniZinc's `smallest`), ties to the smallest
//! maximum: on start-time variables, the task that can start earliest,
//! then the one with the earliest latest start. With `val min` this is the
//! schedule-generation branching of scheduling solvers (Choco's
//! `minDomLBSearch`): tasks are set at their earliest start in time order,
//! and the right branch (`s != est`) postpones the task.

use super::{Evaluator, Node, Rng};
use crate::model::VarId;

/// Orders `i64` as `u128` (smaller stays smaller).
fn ordered(x: i64) -> u128 {
    (x as i128 - i64::MIN as i128) as u128
}

pub(super) struct SmallestMin;

impl Evaluator for SmallestMin {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        ordered(node.engine.doms.min(v))
    }
}

pub(super) struct SmallestMax;

impl Evaluator for SmallestMax {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        ordered(node.engine.doms.max(v))
    }
}
