//! The registry of global constraints: each one's definition, one file
//! here per global: its name and parameters (which the front end checks
//! calls against), its meaning on fixed values (which the independent
//! checker and the formula propagator evaluate) and the checks of its
//! arguments' shapes. How each is posted to the engine is lowering's
//! business (`lower/globals/`), reached through [`Global::kind`]: the model
//! holds the definition, lowering turns it into propagators.
//!
//! # Adding a global constraint
//!
//! 1. Write its propagator in `engine/props/<name>.rs` (see the guide in
//!    `engine/propagator.rs`), with unit tests against brute force.
//! 2. Write `model/globals/<name>.rs`: a unit struct implementing [`Global`].
//!    `holds` states the meaning on fixed values, independently of the
//!    propagator; `check` refuses argument shapes that make no sense (arrays
//!    of different lengths, negative durations) with a message that the
//!    front end turns into a diagnostic on the argument. Add one entry to
//!    [`REGISTRY`] and one variant to [`Kind`].
//! 3. Write its lowering in `lower/globals/` (a unit struct implementing
//!    `Lowering`) and add its arm to `lower::globals::lowering`, which the
//!    compiler then asks for.
//!
//! The front end then accepts `constraint <name>(...)` with the declared
//! parameters, `--check-solutions` checks it, reification works through
//! evaluation, and the differential tests can compare it with a decomposition.

mod among;
mod bin_packing;
mod circuit;
mod cumulative;
mod disjunctive;
mod gcc;
mod increasing;
mod inverse;
mod lex;
mod mdd;
mod nvalue;
mod regular;
pub(crate) mod sets;
mod shared_substring;

pub use among::{AT_LEAST, AT_MOST, Among, Bound, CountBound, EXACTLY, Sequence};
pub use bin_packing::BinPacking;
pub use circuit::{Circuit, Subcircuit};
pub use cumulative::Cumulative;
pub use disjunctive::Disjunctive;
pub use gcc::GlobalCardinality;
pub use increasing::Increasing;
pub use inverse::Inverse;
pub use lex::{LEX_LESS, LEX_LESSEQ, Lex};
pub use mdd::MddGlobal;
pub use nvalue::NValue;
pub use regular::{Regular, RegularRegex};
pub use shared_substring::MaxSharedSubstring;

/// The meanings on fixed values, which the propagators' tests and the
/// differential tests use as their oracle.
pub mod holds {
    pub use super::among::holds as among;
    pub use super::among::sequence_holds as sequence;
    pub use super::bin_packing::holds as bin_packing;
    pub use super::circuit::holds as circuit;
    pub use super::gcc::holds as global_cardinality;
    pub use super::inverse::holds as inverse;
    pub use super::lex::holds as lex;
    pub use super::nvalue::holds as nvalue;
    // Only the propagators' unit tests use these.
    #[cfg(test)]
    pub(crate) use super::cumulative::holds as cumulative;
    #[cfg(test)]
    pub(crate) use super::disjunctive::holds as disjunctive;
    #[cfg(test)]
    pub(crate) use super::regular::accepts as regular;
    #[cfg(test)]
    pub(crate) use super::shared_substring::holds as max_shared_substring;
}

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
    /// A set of integers known at load time (`{1, 3}`, `2..5`, an enum's
    /// members, or an array of them), held as its sorted distinct members.
    Set,
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
    pub(crate) fn int(&self) -> i64 {
        match self {
            ArgValue::Int(k) => *k,
            ArgValue::Ints(v) => v.first().copied().unwrap_or(0),
            ArgValue::Mdd(_) | ArgValue::Regex(_) => 0,
        }
    }
    pub(crate) fn ints(&self) -> &[i64] {
        match self {
            ArgValue::Int(k) => std::slice::from_ref(k),
            ArgValue::Ints(v) => v,
            ArgValue::Mdd(_) | ArgValue::Regex(_) => &[],
        }
    }
}

/// Which global a definition is. Lowering matches on it
/// (`lower::globals::lowering`), so a global without a lowering does not
/// compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Increasing,
    Disjunctive,
    Cumulative,
    Circuit,
    Subcircuit,
    Inverse,
    GlobalCardinality,
    NValue,
    BinPacking,
    LexLess,
    LexLessEq,
    Mdd,
    Regular,
    RegularRegex,
    Among,
    AtMost,
    AtLeast,
    Exactly,
    Sequence,
    MaxSharedSubstring,
    SetUnion,
    SetIntersect,
    SetDiff,
    SetSubset,
    SetEq,
    SetDisjoint,
    SetIn,
}

/// The definition of a global constraint: what a call looks like and what
/// it means, with nothing of how it is propagated.
pub trait Global: Send + Sync {
    /// Which one it is, for lowering.
    fn kind(&self) -> Kind;
    /// The name a model calls it by.
    fn name(&self) -> &'static str;
    /// Its parameters, in order.
    fn params(&self) -> &'static [Param];
    /// Whether it holds for these argument values (shaped as [`Self::params`]).
    fn holds(&self, args: &[ArgValue]) -> bool;
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
    pub(crate) fn new(arg: usize, message: impl Into<String>, help: impl Into<String>) -> Self {
        ArgProblem {
            arg,
            message: message.into(),
            help: help.into(),
        }
    }
}

/// The integers of an argument known at load time (`Int` and `Ints`
/// parameters always are).
pub(crate) fn consts(arg: &GlobalArg) -> Vec<i64> {
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
pub(crate) fn len(arg: &GlobalArg) -> usize {
    match arg {
        GlobalArg::Term(_) | GlobalArg::Regex(_) => 1,
        GlobalArg::Terms(ts) => ts.len(),
        GlobalArg::Mdd(m) => m.arity,
    }
}

/// Arrays `a` and `b` (argument positions) must have the same length.
pub(crate) fn same_length(
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
pub(crate) fn at_least(
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
    &Increasing,
    &Disjunctive,
    &Cumulative,
    &Circuit,
    &Subcircuit,
    &Inverse,
    &GlobalCardinality,
    &NValue,
    &BinPacking,
    &LEX_LESS,
    &LEX_LESSEQ,
    &MddGlobal,
    &Regular,
    &RegularRegex,
    &Among,
    &AT_MOST,
    &AT_LEAST,
    &EXACTLY,
    &Sequence,
    &MaxSharedSubstring,
];

/// The global constraint called `name` that takes `args` arguments, or
/// failing that its first form (whose call is then refused).
pub(crate) fn find(name: &str, args: usize) -> Option<&'static dyn Global> {
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
pub(crate) fn forms(name: &str) -> impl Iterator<Item = &'static dyn Global> + '_ {
    REGISTRY.iter().copied().filter(move |g| g.name() == name)
}

/// The names of every global, for "did you mean".
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|g| g.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_one_definition_and_forms_differ_in_arity() {
        let mut kinds: Vec<Kind> = REGISTRY.iter().map(|g| g.kind()).collect();
        kinds.sort_by_key(|k| *k as u8);
        kinds.dedup();
        assert_eq!(kinds.len(), REGISTRY.len());
        assert_eq!(kinds.len(), Kind::MaxSharedSubstring as usize + 1);
        for g in REGISTRY {
            let same = forms(g.name()).filter(|h| h.params().len() == g.params().len());
            assert_eq!(same.count(), 1, "{}", g.name());
            assert_eq!(
                find(g.name(), g.params().len()).map(|h| h.kind()),
                Some(g.kind())
            );
        }
    }
}
