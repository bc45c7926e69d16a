//! `nvalue(n, x)`: `x` takes `n` distinct values.

use super::{ArgValue, Global, Kind, Param, ParamKind};

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct NValue;

impl Global for NValue {
    fn kind(&self) -> Kind {
        Kind::NValue
    }
    fn name(&self) -> &'static str {
        "nvalue"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[param("n", ParamKind::Term), param("x", ParamKind::Terms)];
        P
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].int(), args[1].ints())
    }
}

/// Whether `n` is the number of distinct values of `x`.
pub fn holds(n: i64, x: &[i64]) -> bool {
    let mut v = x.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len() as i64 == n
}
