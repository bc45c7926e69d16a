//! `disjunctive(s, p)`: tasks starting at `s[i]` with durations `p[i]`
//! (integers known at load time, not negative) never overlap; a task of
//! duration 0 occupies nothing.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, at_least, same_length};
use crate::model::GlobalArg;

pub struct Disjunctive;

const NAMES: [&str; 2] = ["s", "p"];

impl Global for Disjunctive {
    fn kind(&self) -> Kind {
        Kind::Disjunctive
    }
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
}

/// Whether tasks `(start, duration)` overlap nowhere (duration 0 occupies nothing).
pub(crate) fn holds(tasks: &[(i64, i64)]) -> bool {
    let mut busy: Vec<(i64, i64)> = tasks
        .iter()
        .filter(|&&(_, p)| p > 0)
        .map(|&(s, p)| (s, s.saturating_add(p)))
        .collect();
    busy.sort_unstable();
    busy.windows(2).all(|w| w[0].1 <= w[1].0)
}
