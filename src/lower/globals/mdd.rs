//! `mdd(x, diagram)`: `x` spells one row of a decision diagram, a dictionary
//! compiled by `trie(words, symbols, max)` (`sema/trie.rs`) or the rows of a
//! table. Propagated by `engine/props/mdd.rs` (domain consistency).

use super::Lowering;
use crate::engine::propagator::Propagator;
use crate::engine::props::mdd::MddProp;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub(super) struct MddGlobal;

impl Lowering for MddGlobal {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let GlobalArg::Mdd(m) = &args[1] else {
            return None;
        };
        let x = l.vars_of(&args[0])?;
        Some(Box::new(MddProp::new(&mut l.engine.doms, x, m.clone())?))
    }
}
