//! The smallest value first (lexicographic order for words).

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::VarId;

pub(super) struct Min;

impl ValSelector for Min {
    fn select(&mut self, engine: &mut Engine, v: VarId, _: &mut Rng) -> Branch {
        Branch::Assign(engine.doms.min(v))
    }
}
