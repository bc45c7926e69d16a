//! A random open variable (each equally likely, from the seeded generator).

use super::{Evaluator, Node, Rng};
use crate::model::VarId;
use rand::RngExt;

pub(super) struct Random;

impl Evaluator for Random {
    fn score(&mut self, _: &Node, _: VarId, rng: &mut Rng) -> u128 {
        u128::from(rng.random_range(0..u64::MAX))
    }

    fn varies(&self) -> bool {
        true
    }
}
