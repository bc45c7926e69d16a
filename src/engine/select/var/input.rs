//! Input order: the first open variable in branching order (the search
//! item's scope, then declaration order). Alone, it is a scan that the
//! search resumes where the parent's stopped ([`first_open`]); in a chain
//! with random ties, an evaluator under which every variable scores the same.

use super::{Evaluator, Node, Rng};
use crate::model::VarId;

pub(super) struct Input;

impl Evaluator for Input {
    fn score(&mut self, _: &Node, _: VarId, _: &mut Rng) -> u128 {
        0
    }
}

/// The position of the first open variable of `order` from `from` on.
#[inline]
pub(super) fn first_open(
    order: &[VarId],
    from: usize,
    open: impl Fn(VarId) -> bool,
) -> Option<usize> {
    (from..order.len()).find(|&i| open(order[i]))
}
