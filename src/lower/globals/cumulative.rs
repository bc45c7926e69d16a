//! `cumulative(s, p, h, c)`: tasks starting at `s[i]` with durations `p[i]`
//! and heights `h[i]` (integers known at load time, not negative) use at
//! most `c` (an integer expression) together at any time. Propagated by
//! `engine/props/cumulative.rs` (time-tabling).

use super::{ArgProblem, ArgValue, Global, Param, ParamKind, at_least, consts, same_length};
use crate::engine::props::cumulative::{Cumulative as Prop, holds};
use crate::lower::Lower;
use crate::model::GlobalArg;

pub struct Cumulative;

const NAMES: [&str; 4] = ["s", "p", "h", "c"];

impl Global for Cumulative {
    fn name(&self) -> &'static str {
        "cumulative"
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
            Param {
                name: "h",
                kind: ParamKind::Ints,
            },
            Param {
                name: "c",
                kind: ParamKind::Term,
            },
        ]
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &NAMES, 0, 1)?;
        same_length(args, &NAMES, 0, 2)?;
        at_least(args, &NAMES, 1, 0, "a duration")?;
        at_least(args, &NAMES, 2, 0, "a height")
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let (s, p, h) = (args[0].ints(), args[1].ints(), args[2].ints());
        let tasks: Vec<(i64, i64, i64)> = (0..s.len()).map(|i| (s[i], p[i], h[i])).collect();
        holds(&tasks, args[3].int())
    }
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let starts = l.vars_of(&args[0])?;
        let cap = l.vars_of(&args[3])?[0];
        let (p, h) = (consts(&args[1]), consts(&args[2]));
        let tasks: Vec<_> = (0..starts.len()).map(|i| (starts[i], p[i], h[i])).collect();
        l.engine.add_prop(Box::new(Prop::new(&tasks, cap)));
        Some(())
    }
}
