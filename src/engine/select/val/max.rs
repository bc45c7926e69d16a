//! The largest value first.

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::VarId;

pub(super) struct Max;

impl ValSelector for Max {
    fn select(&mut self, engine: &mut Engine, v: VarId, _: &mut Rng) -> Branch {
        Branch::Assign(engine.doms.max(v))
    }
}
