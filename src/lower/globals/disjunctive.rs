//! `disjunctive(s, p)`: tasks starting at `s[i]` with durations `p[i]`
//! (integers known at load time, not negative) never overlap; a task of
//! duration 0 occupies nothing. Propagated by `engine/props/disjunctive.rs`
//! (Vilím's Θ-tree rules: overload, detectable precedences, not-first/
//! not-last, edge-finding).

use super::{Lowering, consts};
use crate::engine::props::disjunctive::Disjunctive as Prop;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub(super) struct Disjunctive;

impl Lowering for Disjunctive {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let starts = l.vars_of(&args[0])?;
        let tasks: Vec<_> = starts.into_iter().zip(consts(&args[1])).collect();
        l.engine.add_prop(Box::new(Prop::new(&tasks)));
        Some(())
    }
}
