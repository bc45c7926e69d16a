//! The propagator interface, and a short guide to adding one.
//!
//! A propagator filters the domains of the variables of one constraint. It
//! must be *correct* (never remove a value that belongs to a solution of its
//! constraint) and *checking* (fail when all its variables are fixed and the
//! constraint does not hold). How much it prunes beyond that is its own
//! business, stated in its module doc and tested.
//!
//! # Adding a propagator
//!
//! 1. Write a struct in `engine/props/<name>.rs` and implement this trait:
//!    `name`, `vars` and `propagate` are required; the rest have defaults.
//!    Reversible state goes in typed trail values ([`RevInt`], [`RevWide`],
//!    [`RevWords`], allocated from `d.trail` in the constructor), never in
//!    fields that backtracking would not undo. Scratch buffers are fine.
//! 2. Say what wakes it in [`Propagator::subscribe`]: per variable, the
//!    events it needs ([`event::FIX`], [`event::BOUNDS`], [`event::REMOVE`]).
//!    The default wakes it on any removal from any of its variables. A
//!    propagator that keeps incremental state asks for [`Subscriptions::notify`]
//!    and updates it in [`Propagator::notify`].
//! 3. If the constructor can refuse (too much memory, a domain kind it cannot
//!    handle), return `None`: lowering then posts the always-correct formula
//!    propagator instead.
//! 4. Unit-test it beside its code with the harness (`engine::harness`):
//!    make variables, post, assert domains, and compare with the brute-force
//!    filter on random small domains for the strength the module doc claims.
//! 5. Post it from the lowering layer (`src/lower/`); a global constraint
//!    gets one file in `src/lower/globals/` and one registry entry.
//!
//! [`RevInt`]: super::trail::RevInt
//! [`RevWide`]: super::trail::RevWide
//! [`RevWords`]: super::trail::RevWords

use super::domains::{Domains, PResult, event};
use super::learn::{Lit, Past};
use crate::model::VarId;

/// Cheap propagators run before expensive ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Priority {
    Unary = 0,
    Binary = 1,
    Linear = 2,
    Slow = 3,
    /// Runs once everything else is quiet: propagators that rarely prune the
    /// variables others watch and are woken by many of them (an element over
    /// variable items wakes on every item), so that one run sees the whole
    /// wave of changes.
    Last = 4,
}

pub(crate) trait Propagator {
    /// The variables of the constraint (for degree heuristics, counting and
    /// the default subscriptions).
    fn vars(&self) -> &[VarId];

    /// Filters the domains; fails when the constraint cannot hold.
    fn propagate(&mut self, d: &mut Domains) -> PResult;

    /// Registers, once when posted, which events of which variables wake the
    /// propagator, and which changes it wants to hear of through
    /// [`Self::notify`]. By default any removal from any variable wakes it.
    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(self.vars(), event::REMOVE);
    }

    fn priority(&self) -> Priority {
        Priority::Linear
    }

    /// The variable at `position` (as given to [`Subscriptions::notify`])
    /// changed. Called for every such change, before the propagator next
    /// runs, also for the changes the propagator made itself; a propagator
    /// keeping incremental state on the trail updates it here. Returning
    /// true asks to run, as a wake-up does, for changes that only the
    /// propagator can tell matter (a counted value removed).
    fn notify(&mut self, _position: usize, _d: &mut Domains) -> bool {
        false
    }

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
    /// last open variable). Counting by product relies on it; the safe
    /// default is false.
    fn consistent_on_last_open(&self) -> bool {
        false
    }

    /// True when, after it has run, its constraint restricted to its open
    /// variables (bitset domains) depends on their domains only, not on the
    /// values of its fixed variables: all-different, whose fixed values are
    /// gone from the open domains. Counting by components then keys its
    /// cache on domains alone (`components.rs`); the safe default is false.
    fn residual_in_domains(&self) -> bool {
        false
    }

    /// `Some((vars, offsets))` when the constraint is exactly "the terms
    /// `vars[i] + offsets[i]` are pairwise distinct" (all-different). The
    /// search by components (`search/by_components.rs`) relaxes it: it does
    /// not link components, and inside one it is checked among that
    /// component's terms only; counting by components links two open terms
    /// without offsets only when their domains can share a value
    /// (`components.rs`, which needs the filtering to remove a fixed term's
    /// value from the others, as all-different's does). The default, `None`,
    /// keeps a propagator whole.
    fn distinct_terms(&self) -> Option<(&[VarId], &[i64])> {
        None
    }

    /// Learning (docs/learning.md): pushes onto `out` literals that held at
    /// `past` (the domains when the propagator acted, not the current ones)
    /// and imply `lit`, which the propagator made true then, or, with
    /// `None`, from which it failed. Called lazily, only by conflict
    /// analysis. Returning false (the default) stands for the domains of all
    /// its variables at `past`, which is always correct; a tighter
    /// explanation makes shorter nogoods. Checked by `harness::check_explanations`.
    fn explain(&self, _lit: Option<Lit>, _past: &Past<'_>, _out: &mut Vec<Lit>) -> bool {
        false
    }

    /// How many constraints the propagator stands for, for the degree heuristics.
    fn weight(&self) -> u32 {
        1
    }
}

/// What a propagator asks for when it is posted; the engine turns it into
/// per-variable watch lists.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    /// `(variable, events)`: run the propagator when one of them happens.
    pub(super) wake: Vec<(VarId, u8)>,
    /// `(variable, position, events)`: call `notify(position)` on each.
    pub(super) notify: Vec<(VarId, u32, u8)>,
}

impl Subscriptions {
    /// Wake the propagator on these events of `v`.
    pub(crate) fn wake(&mut self, v: VarId, events: u8) {
        self.wake.push((v, events));
    }

    /// Wake the propagator on these events of each of `vars`.
    pub(crate) fn wake_all(&mut self, vars: &[VarId], events: u8) {
        self.wake.extend(vars.iter().map(|&v| (v, events)));
    }

    /// Call [`Propagator::notify`] with `position` on these events of `v`.
    pub(crate) fn notify(&mut self, v: VarId, position: usize, events: u8) {
        self.notify.push((v, position as u32, events));
    }
}
