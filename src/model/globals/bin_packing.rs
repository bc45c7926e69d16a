//! `bin_packing(load, bin, w)`: item `i` of weight `w[i]` goes in bin
//! `bin[i]` (1-based), and `load[b]` is the weight in bin `b`.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, at_least, same_length};
use crate::model::GlobalArg;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct BinPacking;

impl Global for BinPacking {
    fn kind(&self) -> Kind {
        Kind::BinPacking
    }
    fn name(&self) -> &'static str {
        "bin_packing"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("load", ParamKind::Terms),
            param("bin", ParamKind::Terms),
            param("w", ParamKind::Ints),
        ];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        let names = ["load", "bin", "w"];
        same_length(args, &names, 1, 2)?;
        at_least(args, &names, 2, 0, "a weight")
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), args[1].ints(), args[2].ints())
    }
}

/// Whether every item is in a bin `1..=load.len()` and each load is the
/// weight in its bin.
pub fn holds(load: &[i64], bin: &[i64], weight: &[i64]) -> bool {
    let m = load.len() as i64;
    if bin.iter().any(|&b| b < 1 || b > m) {
        return false;
    }
    (1..=m).all(|b| {
        let sum: i64 = bin
            .iter()
            .zip(weight)
            .filter(|&(&x, _)| x == b)
            .map(|(_, &w)| w)
            .sum();
        sum == load[(b - 1) as usize]
    })
}
