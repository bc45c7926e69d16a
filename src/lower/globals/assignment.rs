//! Assignment globals: `inverse(f, g)`, `global_cardinality(x, v, c)`,
//! `nvalue(n, x)`, `bin_packing(load, bin, w)`. Each is propagated by its
//! file in `engine/props/` (the strength is stated there); `inverse` also
//! gets all-different on `f` and on `g` (Régin's matching under `ac`).

use super::{Lowering, consts};
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::{bin_packing, gcc, inverse, nvalue};
use crate::lower::Lower;
use crate::model::{CmpOp, GlobalArg, Propagation};

pub(super) struct Inverse;

impl Lowering for Inverse {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let f = l.vars_of(&args[0])?;
        let g = l.vars_of(&args[1])?;
        let gac = l.engine.level == Propagation::Ac;
        for side in [&f, &g] {
            let p = AllDifferent::new(
                side.iter().map(|&v| (v, 0)).collect(),
                gac,
                &mut l.engine.doms,
            );
            l.engine.add_prop(Box::new(p));
        }
        l.engine.add_prop(Box::new(inverse::Inverse::new(&f, &g)));
        Some(())
    }
}

pub(super) struct GlobalCardinality;

impl Lowering for GlobalCardinality {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[0])?;
        let all = l.vars_of(&args[2])?;
        // The propagator counts each value once: a value given again has
        // the count of its first place.
        let (mut values, mut counts) = (Vec::new(), Vec::new());
        for (v, c) in consts(&args[1]).into_iter().zip(all) {
            match values.iter().position(|&u| u == v) {
                Some(k) => l.post_cmp(vec![(1, counts[k]), (-1, c)], 0, CmpOp::Eq)?,
                None => {
                    values.push(v);
                    counts.push(c);
                }
            }
        }
        let p = gcc::GlobalCardinality::new(&x, values, &counts, true, &mut l.engine.doms);
        l.engine.add_prop(Box::new(p));
        Some(())
    }
}

pub(super) struct NValue;

impl Lowering for NValue {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let n = l.vars_of(&args[0])?[0];
        let x = l.vars_of(&args[1])?;
        l.engine.add_prop(Box::new(nvalue::NValue::new(n, &x)));
        Some(())
    }
}

pub(super) struct BinPacking;

impl Lowering for BinPacking {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let load = l.vars_of(&args[0])?;
        let bin = l.vars_of(&args[1])?;
        let p = bin_packing::BinPacking::new(&load, &bin, consts(&args[2]));
        l.engine.add_prop(Box::new(p));
        Some(())
    }
}
