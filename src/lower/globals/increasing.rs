//! `increasing(x)`: the values of `x` never decrease. Propagated by
//! `engine/props/increasing.rs` (domain consistency).

use super::Lowering;
use crate::engine::propagator::Propagator;
use crate::engine::props::increasing::Increasing as Prop;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub(super) struct Increasing;

impl Lowering for Increasing {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        Some(Box::new(Prop::new(l.vars_of(&args[0])?)))
    }
}
