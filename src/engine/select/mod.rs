//! Branching heuristics: which variable to branch on ([`var`]), and which
//! decision to take on it ([`val`]).
//!
//! A variable selector is a chain of evaluators, each in its own file,
//! compared lexicographically (the first evaluator decides, the next breaks
//! its ties, and remaining ties go to input order or, on request, to
//! chance): `mrv-degree` is first-fail with degree as its tie-breaker. A
//! value selector, also one per file, turns the chosen variable into a
//! [`Branch`]. Each heuristic owns its state (dom/wdeg's weights live in its
//! evaluator) and says whether it [`varies`](var::Evaluator::varies) between
//! runs — learns or draws at random — which is when restarts can help.
//!
//! The names users write (`mrv`, `dom-wdeg`, `lcv`, ...) are listed once, in
//! `model/search.rs`; [`var::build`] and [`val::build`] map each to its chain
//! or selector. A new heuristic is one new file and one match arm.

pub(crate) mod val;
pub(crate) mod var;

use crate::model::VarId;
use rand::rngs::Xoshiro256PlusPlus;

/// The search's one seeded random generator.
pub(crate) type Rng = Xoshiro256PlusPlus;

/// A binary decision on a variable: the left branch and, on backtracking,
/// its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// `x = v`, then `x != v`.
    Assign(i64),
    /// `x <= v`, then `x > v` (domain splitting).
    AtMost(i64),
}

/// A decision taken by the search, for traces and golden tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub var: VarId,
    pub branch: Branch,
    /// False for the left branch, true for its negation.
    pub right: bool,
}
