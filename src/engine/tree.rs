//! The search tree of a small search, recorded for pictures
//! (`cspi solve --tree`): every branch the search takes, in the order it
//! takes them, with its depth, the values propagation removed after it and
//! whether it failed, and the solutions found. Recording stops at a cap;
//! the search itself goes on.

use super::select::Branch;
use crate::model::VarId;

/// One step of the search, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TreeEvent {
    /// A branch: `var = v` (or, `right`, its negation) at `depth` (1 for a
    /// child of the root). `pruned`: values of the searched variables that
    /// propagation removed after the branch itself; `failed`: propagation
    /// failed (a dead end).
    Branch {
        var: VarId,
        branch: Branch,
        right: bool,
        depth: usize,
        pruned: u64,
        failed: bool,
    },
    /// Everything assigned below the last branch: a solution.
    Solution,
    /// The completion of the auxiliary variables below the last branch failed.
    Fail,
}

/// The events recorded, at most `cap` of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct TreeLog {
    pub(crate) cap: usize,
    pub(crate) events: Vec<TreeEvent>,
    /// Some event did not fit under the cap.
    pub(crate) truncated: bool,
}

impl TreeLog {
    pub(crate) fn new(cap: usize) -> Self {
        TreeLog {
            cap,
            events: Vec::new(),
            truncated: false,
        }
    }

    pub(crate) fn push(&mut self, e: TreeEvent) {
        if self.events.len() < self.cap {
            self.events.push(e);
        } else {
            self.truncated = true;
        }
    }
}
