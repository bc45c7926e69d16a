//! `circuit(x)`: the successors `x[i]` (1-based) form one cycle through every
//! node. `subcircuit(x)`: `x[i] = i` leaves node `i` out, and the others
//! form one cycle (or none is in it). Lowered to all-different (Régin's GAC
//! under `ac`) and `engine/props/circuit.rs` (no subtour, reachability and
//! dominator pruning).

use super::{ArgValue, Global, Param, ParamKind};
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::circuit::{Circuit as Prop, holds};
use crate::lower::Lower;
use crate::model::{GlobalArg, Propagation};

pub struct Circuit;
pub struct Subcircuit;

const PARAMS: &[Param] = &[Param {
    name: "x",
    kind: ParamKind::Terms,
}];

fn lower(l: &mut Lower, args: &[GlobalArg], sub: bool) -> Option<()> {
    let vars = l.vars_of(&args[0])?;
    let gac = l.engine.level == Propagation::Ac;
    let alldiff = AllDifferent::new(vars.iter().map(|&v| (v, 0)).collect(), gac, &l.engine.doms);
    l.engine.add_prop(Box::new(alldiff));
    l.engine.add_prop(Box::new(Prop::new(vars, sub)));
    Some(())
}

impl Global for Circuit {
    fn name(&self) -> &'static str {
        "circuit"
    }
    fn params(&self) -> &'static [Param] {
        PARAMS
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), false)
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        lower(l, args, false)
    }
}

impl Global for Subcircuit {
    fn name(&self) -> &'static str {
        "subcircuit"
    }
    fn params(&self) -> &'static [Param] {
        PARAMS
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), true)
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        lower(l, args, true)
    }
}
