//! `cumulative(s, p, h, c)`: tasks starting at `s[i]` with durations `p[i]`
//! and heights `h[i]` (integers known at load time, not negative) use at
//! most `c` (an integer expression) together at any time. Propagated by
//! `engine/props/cumulative.rs` (time-tabling).

use super::{Lowering, consts};
use crate::engine::props::cumulative::Cumulative as Prop;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub(super) struct Cumulative;

impl Lowering for Cumulative {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let starts = l.vars_of(&args[0])?;
        let cap = l.vars_of(&args[3])?[0];
        let (p, h) = (consts(&args[1]), consts(&args[2]));
        let tasks: Vec<_> = (0..starts.len()).map(|i| (starts[i], p[i], h[i])).collect();
        l.engine.add_prop(Box::new(Prop::new(&tasks, cap)));
        Some(())
    }
}
