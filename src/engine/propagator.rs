//! The propagator interface.
//!
//! A propagator filters the domains of the variables of one constraint. It
//! must be *correct* (never remove a value that belongs to a solution of its
//! constraint) and *checking* (fail when all its variables are fixed and the
//! constraint does not hold). How much it prunes beyond that is its own
//! business; `propagate` is the whole interface, the rest has defaults.
//!
//! To add a propagator: write a struct in `engine/props/`, implement this
//! trait, and post it from `engine/post.rs` for the formulas it handles.

use super::domains::{Domains, PResult, event};
use crate::model::VarId;

/// Cheap propagators run before expensive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Unary = 0,
    Binary = 1,
    Linear = 2,
    Slow = 3,
}

pub trait Propagator {
    fn name(&self) -> &'static str;

    /// The variables whose changes wake the propagator.
    fn vars(&self) -> &[VarId];

    /// Filters the domains; fails when the constraint cannot hold.
    fn propagate(&mut self, d: &mut Domains) -> PResult;

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// Which events wake it (see [`event`]); by default any removal.
    fn wake_on(&self) -> u8 {
        event::REMOVE
    }

    /// Which events of its variables the propagator wants to hear of through
    /// [`Self::notify`] as they happen (see [`event`]); none by default.
    fn notify_on(&self) -> u8 {
        0
    }

    /// The variable at `position` in [`Self::vars`] changed. Called for every
    /// such change, before the propagator next runs, also for the changes the
    /// propagator made itself; a propagator keeping incremental state on the
    /// trail updates it here.
    fn notify(&mut self, _position: usize, _d: &mut Domains) {}

    /// Whether all its variables are fixed.
    fn all_fixed(&self, d: &Domains) -> bool {
        self.vars().iter().all(|&v| d.is_fixed(v))
    }

    /// Whether the fixed variables alone already violate the constraint, for
    /// `propagation none`, which checks without pruning. The default waits
    /// until every variable is fixed; a global constraint should answer for
    /// partial assignments as its decomposition into small constraints would.
    fn violated(&mut self, _d: &Domains) -> bool {
        false
    }

    /// True when, after it has run with exactly one of its variables not
    /// fixed, every value left in that variable's domain satisfies the
    /// constraint together with the fixed values (domain consistency on the
    /// last open variable). Counting by product (`search.rs`) relies on it;
    /// the safe default is false.
    fn consistent_on_last_open(&self) -> bool {
        false
    }

    /// The propagator as a word intersection, which counting (`count.rs`)
    /// can sum over by letters; `None` for every other kind.
    fn as_word_cross(&self) -> Option<&super::props::wordcross::WordCross> {
        None
    }

    /// How many constraints the propagator stands for, for the degree heuristics.
    fn weight(&self) -> u32 {
        1
    }
}
