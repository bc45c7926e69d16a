//! Assignment globals: `inverse(f, g)`, `global_cardinality(x, v, c)`,
//! `nvalue(n, x)`, `bin_packing(load, bin, w)`. Each is propagated by its
//! file in `engine/props/` (the strength is stated there); `inverse` also
//! gets all-different on `f` and on `g` (Régin's matching under `ac`).

use super::{ArgProblem, ArgValue, Global, Param, ParamKind, at_least, consts, same_length};
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::{bin_packing, gcc, inverse, nvalue};
use crate::lower::Lower;
use crate::model::{GlobalArg, Propagation};

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct Inverse;

impl Global for Inverse {
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
        inverse::holds(args[0].ints(), args[1].ints())
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let f = l.vars_of(&args[0])?;
        let g = l.vars_of(&args[1])?;
        let gac = l.engine.level == Propagation::Ac;
        for side in [&f, &g] {
            let p = AllDifferent::new(side.iter().map(|&v| (v, 0)).collect(), gac, &l.engine.doms);
            l.engine.add_prop(Box::new(p));
        }
        l.engine.add_prop(Box::new(inverse::Inverse::new(&f, &g)));
        Some(())
    }
}

pub struct GlobalCardinality;

impl Global for GlobalCardinality {
    fn name(&self) -> &'static str {
        "global_cardinality"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("x", ParamKind::Terms),
            param("v", ParamKind::Ints),
            param("c", ParamKind::Terms),
        ];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &["x", "v", "c"], 1, 2)?;
        let v = consts(&args[1]);
        for (i, a) in v.iter().enumerate() {
            if let Some(j) = v[..i].iter().position(|b| b == a) {
                return Err(ArgProblem::new(
                    1,
                    format!(
                        "value {a} is listed twice in `v` (items {} and {})",
                        j + 1,
                        i + 1
                    ),
                    "list each value once: `c[k]` counts the variables equal to `v[k]`",
                ));
            }
        }
        Ok(())
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        gcc::holds(args[0].ints(), args[1].ints(), args[2].ints())
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[0])?;
        let c = l.vars_of(&args[2])?;
        let p = gcc::GlobalCardinality::new(&x, consts(&args[1]), &c);
        l.engine.add_prop(Box::new(p));
        Some(())
    }
}

pub struct NValue;

impl Global for NValue {
    fn name(&self) -> &'static str {
        "nvalue"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[param("n", ParamKind::Term), param("x", ParamKind::Terms)];
        P
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        nvalue::holds(args[0].int(), args[1].ints())
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let n = l.vars_of(&args[0])?[0];
        let x = l.vars_of(&args[1])?;
        l.engine.add_prop(Box::new(nvalue::NValue::new(n, &x)));
        Some(())
    }
}

pub struct BinPacking;

impl Global for BinPacking {
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
        bin_packing::holds(args[0].ints(), args[1].ints(), args[2].ints())
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let load = l.vars_of(&args[0])?;
        let bin = l.vars_of(&args[1])?;
        let p = bin_packing::BinPacking::new(&load, &bin, consts(&args[2]));
        l.engine.add_prop(Box::new(p));
        Some(())
    }
}
