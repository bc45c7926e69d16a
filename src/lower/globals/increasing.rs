//! `increasing(x)`: the values of `x` never decrease. Propagated by
//! `engine/props/increasing.rs` (domain consistency).

use super::{ArgValue, Global, Param, ParamKind};
use crate::engine::propagator::Propagator;
use crate::engine::props::increasing::Increasing as Prop;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub struct Increasing;

impl Global for Increasing {
    fn name(&self) -> &'static str {
        "increasing"
    }
    fn params(&self) -> &'static [Param] {
        &[Param {
            name: "x",
            kind: ParamKind::Terms,
        }]
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        args[0].ints().windows(2).all(|w| w[0] <= w[1])
    }
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        Some(Box::new(Prop::new(l.vars_of(&args[0])?)))
    }
}
