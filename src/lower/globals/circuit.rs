//! `circuit(x)`: the successors `x[i]` (1-based) form one cycle through every
//! node. `subcircuit(x)`: `x[i] = i` leaves node `i` out, and the others
//! form one cycle (or none is in it). Lowered to all-different (Régin's GAC
//! under `ac`) and `engine/props/circuit.rs` (no subtour, reachability and
//! dominator pruning).

use super::Lowering;
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::circuit::Circuit as Prop;
use crate::lower::Lower;
use crate::model::{GlobalArg, Propagation};

pub(super) struct Circuit;
pub(super) struct Subcircuit;

fn lower(l: &mut Lower, args: &[GlobalArg], sub: bool) -> Option<()> {
    let vars = l.vars_of(&args[0])?;
    let gac = l.engine.level == Propagation::Ac;
    let alldiff = AllDifferent::new(
        vars.iter().map(|&v| (v, 0)).collect(),
        gac,
        &mut l.engine.doms,
    );
    l.engine.add_prop(Box::new(alldiff));
    l.engine.add_prop(Box::new(Prop::new(vars, sub)));
    Some(())
}

impl Lowering for Circuit {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        lower(l, args, false)
    }
}

impl Lowering for Subcircuit {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        lower(l, args, true)
    }
}
