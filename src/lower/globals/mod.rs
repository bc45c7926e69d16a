//! The registry of global constraints. Each global is one file here that
//! gives its parameters (which the front end checks calls against), its
//! meaning (which the independent checker and the formula propagator
//! evaluate) and its lowering (which posts its propagator, from
//! `engine/props/`).
//!
//! # Adding a global constraint
//!
//! 1. Write its propagator in `engine/props/<name>.rs` (see the guide in
//!    `engine/propagator.rs`), with unit tests against brute force.
//! 2. Write `lower/globals/<name>.rs`: a unit struct implementing [`Global`].
//!    `holds` states the meaning on fixed values, independently of the
//!    propagator; `lower` turns the arguments into engine variables and
//!    posts the propagator (returning `None` falls back to evaluation).
//! 3. Add one entry to [`REGISTRY`].
//!
//! The front end then accepts `constraint <name>(...)` with the declared
//! parameters, `--check-solutions` checks it, reification works through
//! evaluation, and the differential tests can compare it with a decomposition.

mod increasing;

use super::Lower;
use crate::model::GlobalArg;

/// What a parameter of a global constraint takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// One integer expression (variables allowed).
    Term,
    /// An array of integer expressions.
    Terms,
    /// One integer known at load time.
    Int,
    /// An array of integers known at load time.
    Ints,
}

#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub kind: ParamKind,
}

/// The value of an argument under a complete assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    Int(i64),
    Ints(Vec<i64>),
}

impl ArgValue {
    pub fn int(&self) -> i64 {
        match self {
            ArgValue::Int(k) => *k,
            ArgValue::Ints(v) => v.first().copied().unwrap_or(0),
        }
    }
    pub fn ints(&self) -> &[i64] {
        match self {
            ArgValue::Int(k) => std::slice::from_ref(k),
            ArgValue::Ints(v) => v,
        }
    }
}

pub trait Global: Send + Sync {
    /// The name a model calls it by.
    fn name(&self) -> &'static str;
    /// Its parameters, in order.
    fn params(&self) -> &'static [Param];
    /// Whether it holds for these argument values (shaped as [`Self::params`]).
    fn holds(&self, args: &[ArgValue]) -> bool;
    /// Posts its propagators; `None` when it cannot (the engine is rolled
    /// back and the constraint is evaluated instead).
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()>;
}

/// Every global constraint, by name.
pub static REGISTRY: &[&dyn Global] = &[&increasing::Increasing];

/// The global constraint called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Global> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// The names of every global, for "did you mean".
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|g| g.name())
}

impl Lower<'_> {
    /// The engine variables of an argument's terms.
    pub fn vars_of(&mut self, arg: &GlobalArg) -> Option<Vec<crate::model::VarId>> {
        match arg {
            GlobalArg::Term(t) => Some(vec![self.var_of(t)?]),
            GlobalArg::Terms(ts) => ts.iter().map(|t| self.var_of(t)).collect(),
        }
    }
}
