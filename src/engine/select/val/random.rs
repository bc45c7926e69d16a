//! A random value of the domain (a random bound of an interval domain).

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::VarId;
use rand::RngExt;

pub(super) struct Random;

impl ValSelector for Random {
    fn select(&mut self, engine: &mut Engine, v: VarId, rng: &mut Rng) -> Branch {
        let d = &engine.doms;
        if !d.is_bitset(v) {
            let up = rng.random_range(0..2) == 1;
            return Branch::Assign(if up { d.max(v) } else { d.min(v) });
        }
        let k = rng.random_range(0..d.size(v));
        Branch::Assign(d.values(v).nth(k as usize).unwrap_or_else(|| d.min(v)))
    }

    fn varies(&self) -> bool {
        true
    }
}
