//! First-fail (minimum remaining values, `mrv`): the smallest domain first,
//! where a wrong choice is found out soonest.

use super::{Evaluator, Node, Rng};
use crate::model::VarId;

pub struct FirstFail;

impl Evaluator for FirstFail {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        u128::from(node.engine.doms.size(v))
    }
}
