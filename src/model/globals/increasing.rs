//! `increasing(x)`: the values of `x` never decrease.

use super::{ArgValue, Global, Kind, Param, ParamKind};

pub struct Increasing;

impl Global for Increasing {
    fn kind(&self) -> Kind {
        Kind::Increasing
    }
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
}
