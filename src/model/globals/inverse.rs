//! `inverse(f, g)`: `f` and `g` (1-based) are inverse permutations.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, same_length};
use crate::model::GlobalArg;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct Inverse;

impl Global for Inverse {
    fn kind(&self) -> Kind {
        Kind::Inverse
    }
    fn name(&self) -> &'static str {
        "inverse"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[param("f", ParamKind::Terms), param("g", ParamKind::Terms)];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &["f", "g"], 0, 1)
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), args[1].ints())
    }
}

/// Whether `f` and `g` (1-based) are inverse permutations.
pub fn holds(f: &[i64], g: &[i64]) -> bool {
    let n = f.len() as i64;
    f.len() == g.len()
        && f.iter().chain(g).all(|&v| (1..=n).contains(&v))
        && f.iter()
            .enumerate()
            .all(|(i, &j)| g[(j - 1) as usize] == i as i64 + 1)
        && g.iter()
            .enumerate()
            .all(|(j, &i)| f[(i - 1) as usize] == j as i64 + 1)
}
