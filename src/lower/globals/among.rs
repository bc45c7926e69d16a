//! The counting globals, each posted as [`among::Among`] propagators over a
//! count variable: `among(n, x, S)` directly; `at_most`, `at_least` and
//! `exactly` count the items equal to `v` into a variable bounded by `n`;
//! `sequence(x, S, k, low, high)` one count in `low..high` per window of `k`
//! consecutive items, the decomposition into overlapping `among`s (domain
//! consistent per window). Two propagators domain consistent across all
//! windows were written, measured and removed (docs/globals.md, `sequence`):
//! a shortest-path one recomputed at each call (up to 15 times the CPU) and
//! the windows' bits as an incremental decision diagram (1.65 to 1.8 times
//! the CPU for 40% to 100% of the nodes). Both are in the history (commit
//! 0861fac for the diagram).

use super::{Lowering, consts};
use crate::engine::propagator::Propagator;
use crate::engine::props::among;
use crate::lower::Lower;
use crate::model::globals::Bound;
use crate::model::{CmpOp, GlobalArg};

pub(super) struct Among;

impl Lowering for Among {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let n = l.vars_of(&args[0])?[0];
        let x = l.vars_of(&args[1])?;
        Some(Box::new(among::Among::new(&x, consts(&args[2]), n)))
    }
}

pub(super) struct CountBound(pub Bound);

impl Lowering for CountBound {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[1])?;
        let v = consts(&args[2]);
        let len = x.len() as i128;
        let n = match &args[0] {
            GlobalArg::Term(t) => t.as_const(),
            _ => None,
        };
        let c = match n {
            Some(n) => {
                let n = n as i128;
                match self.0 {
                    Bound::AtMost => l.aux(0, n.min(len))?,
                    Bound::AtLeast => l.aux(n.max(0), len)?,
                    Bound::Exactly => l.aux(n, n)?,
                }
            }
            None => {
                let n = l.vars_of(&args[0])?[0];
                let c = l.aux(0, len)?;
                let op = match self.0 {
                    Bound::AtMost => CmpOp::Le,
                    Bound::AtLeast => CmpOp::Ge,
                    Bound::Exactly => CmpOp::Eq,
                };
                l.post_cmp(vec![(1, c), (-1, n)], 0, op)?;
                c
            }
        };
        l.engine.add_prop(Box::new(among::Among::new(&x, v, c)));
        Some(())
    }
}

pub(super) struct Sequence;

impl Lowering for Sequence {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[0])?;
        let set = consts(&args[1]);
        let k = usize::try_from(consts(&args[2])[0]).ok()?;
        let (low, high) = (consts(&args[3])[0] as i128, consts(&args[4])[0] as i128);
        if k == 0 {
            return None;
        }
        for w in x.windows(k) {
            // An empty range gives no variable: the formula decides (false).
            let c = l.aux(low.max(0), high.min(k as i128))?;
            l.engine
                .add_prop(Box::new(among::Among::new(w, set.clone(), c)));
        }
        Some(())
    }
}
