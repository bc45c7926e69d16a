//! Domain splitting: `x <= mid`, then `x > mid`, with `mid` the middle of
//! the bounds (rounded down). Suited to wide domains, where trying values one
//! by one is hopeless.

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::VarId;

pub(super) struct Split;

impl ValSelector for Split {
    fn select(&mut self, engine: &mut Engine, v: VarId, _: &mut Rng) -> Branch {
        let (lo, hi) = (engine.doms.min(v) as i128, engine.doms.max(v) as i128);
        Branch::AtMost(crate::num::floor_div(lo + hi, 2) as i64)
    }
}
