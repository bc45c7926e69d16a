//! `circuit(x)`: the successors `x[i]` (1-based) form one cycle through every
//! node. `subcircuit(x)`: `x[i] = i` leaves node `i` out, and the others
//! form one cycle (or none is in it).

use super::{ArgValue, Global, Kind, Param, ParamKind};

pub struct Circuit;
pub struct Subcircuit;

const PARAMS: &[Param] = &[Param {
    name: "x",
    kind: ParamKind::Terms,
}];

impl Global for Circuit {
    fn kind(&self) -> Kind {
        Kind::Circuit
    }
    fn name(&self) -> &'static str {
        "circuit"
    }
    fn params(&self) -> &'static [Param] {
        PARAMS
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), false)
    }
}

impl Global for Subcircuit {
    fn kind(&self) -> Kind {
        Kind::Subcircuit
    }
    fn name(&self) -> &'static str {
        "subcircuit"
    }
    fn params(&self) -> &'static [Param] {
        PARAMS
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), true)
    }
}

/// Whether `x` (1-based successors) is a circuit (`sub`: a subcircuit).
pub fn holds(x: &[i64], sub: bool) -> bool {
    let n = x.len();
    if x.iter().any(|&v| v < 1 || v > n as i64) {
        return false;
    }
    let succ: Vec<usize> = x.iter().map(|&v| (v - 1) as usize).collect();
    let mut sorted = succ.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let inside: Vec<usize> = (0..n).filter(|&k| succ[k] != k).collect();
    if !sub && n > 1 && inside.len() != n {
        return false;
    }
    let Some(&start) = inside.first() else {
        return true;
    };
    let (mut k, mut len) = (succ[start], 1);
    while k != start {
        k = succ[k];
        len += 1;
    }
    len == inside.len()
}
