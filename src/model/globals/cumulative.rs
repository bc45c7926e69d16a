//! `cumulative(s, p, h, c)`: tasks starting at `s[i]` with durations `p[i]`
//! and heights `h[i]` (integers known at load time, not negative) use at
//! most `c` (an integer expression) together at any time.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, at_least, same_length};
use crate::model::GlobalArg;

pub struct Cumulative;

const NAMES: [&str; 4] = ["s", "p", "h", "c"];

impl Global for Cumulative {
    fn kind(&self) -> Kind {
        Kind::Cumulative
    }
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
}

/// The load at time `t` of tasks `(start, duration, height)`.
fn load_at(tasks: &[(i64, i64, i64)], t: i64) -> i64 {
    tasks
        .iter()
        .filter(|&&(s, p, _)| s <= t && t < s.saturating_add(p))
        .map(|&(_, _, h)| h)
        .sum()
}

/// Whether tasks `(start, duration, height)` never use more than `cap`
/// together (the load peaks at some task's start).
pub(crate) fn holds(tasks: &[(i64, i64, i64)], cap: i64) -> bool {
    tasks
        .iter()
        .filter(|&&(_, p, h)| p > 0 && h > 0)
        .all(|&(t, _, _)| load_at(tasks, t) <= cap)
}
