//! `disjunctive(s, p)`: tasks starting at `s[i]` with durations `p[i]`
//! (integers known at load time, not negative) never overlap; a task of
//! duration 0 occupies nothing. Propagated by `engine/props/disjunctive.rs`
//! (Vilím's Θ-tree rules: overload, detectable precedences, not-first/
//! not-last, edge-finding).

use super::{ArgProblem, ArgValue, Global, Param, ParamKind, at_least, consts, same_length};
use crate::engine::props::disjunctive::{Disjunctive as Prop, holds};
use crate::lower::Lower;
use crate::model::GlobalArg;

pub struct Disjunctive;

const NAMES: [&str; 2] = ["s", "p"];

impl Global for Disjunctive {
    fn name(&self) -> &'static str {
        "disjunctive"
    }
    fn params(&self) -> &'static [Param] {
        &[
            Param {
                name: "s",
                kind: ParamKind::Terms,
            },
            Param {
                name: "p",
                kind: ParamKind::Ints,
            },
        ]
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &NAMES, 0, 1)?;
        at_least(args, &NAMES, 1, 0, "a duration")
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let tasks: Vec<(i64, i64)> = args[0]
            .ints()
            .iter()
            .copied()
            .zip(args[1].ints().iter().copied())
            .collect();
        holds(&tasks)
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let starts = l.vars_of(&args[0])?;
        let tasks: Vec<_> = starts.into_iter().zip(consts(&args[1])).collect();
        l.engine.add_prop(Box::new(Prop::new(&tasks)));
        Some(())
    }
}
