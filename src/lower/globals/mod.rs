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
//!    posts the propagator (returning `None` falls back to evaluation);
//!    `check` refuses argument shapes that make no sense (arrays of
//!    different lengths, negative durations) with a message that the front
//!    end turns into a diagnostic on the argument.
//! 3. Add one entry to [`REGISTRY`].
//!
//! The front end then accepts `constraint <name>(...)` with the declared
//! parameters, `--check-solutions` checks it, reification works through
//! evaluation, and the differential tests can compare it with a decomposition.

mod assignment;
mod circuit;
mod cumulative;
mod disjunctive;
mod increasing;
mod lex;
mod mdd;
mod regular;

use super::Lower;
use crate::engine::propagator::Propagator;
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
    /// A decision diagram: a `trie(...)` of words or a table.
    Mdd,
    /// A regular expression: a string known at load time, compiled.
    Regex,
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
    Mdd(std::sync::Arc<crate::model::mdd::Mdd>),
    Regex(std::sync::Arc<crate::model::regex::Regex>),
}

impl ArgValue {
    pub fn int(&self) -> i64 {
        match self {
            ArgValue::Int(k) => *k,
            ArgValue::Ints(v) => v.first().copied().unwrap_or(0),
            ArgValue::Mdd(_) | ArgValue::Regex(_) => 0,
        }
    }
    pub fn ints(&self) -> &[i64] {
        match self {
            ArgValue::Int(k) => std::slice::from_ref(k),
            ArgValue::Ints(v) => v,
            ArgValue::Mdd(_) | ArgValue::Regex(_) => &[],
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
    /// back and the constraint is evaluated instead). By default, the one
    /// propagator of [`Self::propagator`].
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let p = self.propagator(l, args)?;
        l.engine.add_prop(p);
        Some(())
    }

    /// One propagator for the constraint, not posted, for reification
    /// (`b <-> name(...)`, see `engine/props/reified.rs`); `None` (the
    /// default) reifies it by evaluation. It may not ask for notifications.
    fn propagator(&self, _l: &mut Lower, _args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        None
    }

    /// Checks the arguments' shapes and load-time values, before solving.
    fn check(&self, _args: &[GlobalArg]) -> Result<(), ArgProblem> {
        Ok(())
    }
}

/// Why the arguments of a call make no sense: the front end reports it as a
/// diagnostic on argument `arg` (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgProblem {
    pub arg: usize,
    pub message: String,
    pub help: String,
}

impl ArgProblem {
    pub fn new(arg: usize, message: impl Into<String>, help: impl Into<String>) -> Self {
        ArgProblem {
            arg,
            message: message.into(),
            help: help.into(),
        }
    }
}

/// The integers of an argument known at load time (`Int` and `Ints`
/// parameters always are).
pub fn consts(arg: &GlobalArg) -> Vec<i64> {
    let terms = match arg {
        GlobalArg::Term(t) => std::slice::from_ref(t),
        GlobalArg::Terms(ts) => ts.as_slice(),
        GlobalArg::Mdd(_) | GlobalArg::Regex(_) => &[],
    };
    terms
        .iter()
        .filter_map(crate::model::Term::as_const)
        .collect()
}

/// The number of items of an array argument (1 for a single term).
pub fn len(arg: &GlobalArg) -> usize {
    match arg {
        GlobalArg::Term(_) | GlobalArg::Regex(_) => 1,
        GlobalArg::Terms(ts) => ts.len(),
        GlobalArg::Mdd(m) => m.arity,
    }
}

/// Arrays `a` and `b` (argument positions) must have the same length.
pub fn same_length(
    args: &[GlobalArg],
    names: &[&str],
    a: usize,
    b: usize,
) -> Result<(), ArgProblem> {
    let (la, lb) = (len(&args[a]), len(&args[b]));
    if la == lb {
        return Ok(());
    }
    Err(ArgProblem::new(
        b,
        format!(
            "`{}` has {lb} item{} but `{}` has {la}",
            names[b],
            if lb == 1 { "" } else { "s" },
            names[a]
        ),
        format!("give one item of `{}` per item of `{}`", names[b], names[a]),
    ))
}

/// The constants of argument `arg` must all be at least `min`.
pub fn at_least(
    args: &[GlobalArg],
    names: &[&str],
    arg: usize,
    min: i64,
    what: &str,
) -> Result<(), ArgProblem> {
    match consts(&args[arg]).iter().position(|&k| k < min) {
        None => Ok(()),
        Some(i) => Err(ArgProblem::new(
            arg,
            format!(
                "item {} of `{}` is {}, but {what} cannot be below {min}",
                i + 1,
                names[arg],
                consts(&args[arg])[i]
            ),
            format!("every item of `{}` must be at least {min}", names[arg]),
        )),
    }
}

/// Every global constraint, by name.
pub static REGISTRY: &[&dyn Global] = &[
    &increasing::Increasing,
    &disjunctive::Disjunctive,
    &cumulative::Cumulative,
    &circuit::Circuit,
    &circuit::Subcircuit,
    &assignment::Inverse,
    &assignment::GlobalCardinality,
    &assignment::NValue,
    &assignment::BinPacking,
    &lex::LEX_LESS,
    &lex::LEX_LESSEQ,
    &mdd::MddGlobal,
    &regular::Regular,
    &regular::RegularRegex,
];

/// The global constraint called `name` that takes `args` arguments, or
/// failing that its first form (whose call is then refused).
pub fn find(name: &str, args: usize) -> Option<&'static dyn Global> {
    let mut forms = REGISTRY.iter().copied().filter(|g| g.name() == name);
    let first = forms.next()?;
    Some(
        std::iter::once(first)
            .chain(forms)
            .find(|g| g.params().len() == args)
            .unwrap_or(first),
    )
}

/// Every form of the global constraint called `name` (one for most).
pub fn forms(name: &str) -> impl Iterator<Item = &'static dyn Global> + '_ {
    REGISTRY.iter().copied().filter(move |g| g.name() == name)
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
            GlobalArg::Terms(ts) => self.term_vars(ts),
            GlobalArg::Mdd(_) | GlobalArg::Regex(_) => None,
        }
    }
}
