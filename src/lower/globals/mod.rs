//! The lowering of global constraints: for each definition in the model's
//! registry (`model/globals/`), how it is posted to the engine, one file
//! per global or family, each posting its propagators from `engine/props/`.
//! [`lowering`] matches on the definition's [`Kind`], so a global added to
//! the registry without a lowering does not compile (see the guide in
//! `model/globals/mod.rs`).

mod among;
mod assignment;
mod circuit;
mod cumulative;
mod disjunctive;
mod increasing;
mod lex;
mod mdd;
mod regular;
mod sets;
mod shared_substring;

use super::Lower;
use crate::engine::propagator::Propagator;
use crate::model::GlobalArg;
pub(crate) use crate::model::globals::consts;
use crate::model::globals::sets::Op;
use crate::model::globals::{Bound, Global, Kind};

/// How a global constraint is posted.
pub(crate) trait Lowering: Sync {
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

    /// A decomposition to reify instead (`b <-> name(...)` as the
    /// reification of this formula), for a constraint whose decomposition
    /// prunes better under a truth value than look-ahead on its propagator;
    /// `None` (the default) uses [`Self::propagator`].
    fn decomposition(&self, _args: &[GlobalArg]) -> Option<crate::model::Formula> {
        None
    }
}

/// The lowering of a global's definition.
pub(crate) fn lowering(def: &dyn Global) -> &'static dyn Lowering {
    match def.kind() {
        Kind::Increasing => &increasing::Increasing,
        Kind::Disjunctive => &disjunctive::Disjunctive,
        Kind::Cumulative => &cumulative::Cumulative,
        Kind::Circuit => &circuit::Circuit,
        Kind::Subcircuit => &circuit::Subcircuit,
        Kind::Inverse => &assignment::Inverse,
        Kind::GlobalCardinality => &assignment::GlobalCardinality,
        Kind::NValue => &assignment::NValue,
        Kind::BinPacking => &assignment::BinPacking,
        Kind::LexLess => &lex::Lex { strict: true },
        Kind::LexLessEq => &lex::Lex { strict: false },
        Kind::Mdd => &mdd::MddGlobal,
        Kind::Regular => &regular::Regular,
        Kind::RegularRegex => &regular::RegularRegex,
        Kind::Among => &among::Among,
        Kind::AtMost => &among::CountBound(Bound::AtMost),
        Kind::AtLeast => &among::CountBound(Bound::AtLeast),
        Kind::Exactly => &among::CountBound(Bound::Exactly),
        Kind::Sequence => &among::Sequence,
        Kind::MaxSharedSubstring => &shared_substring::MaxSharedSubstring,
        Kind::SetUnion => &sets::SetOpLowering(Op::Union),
        Kind::SetIntersect => &sets::SetOpLowering(Op::Intersect),
        Kind::SetDiff => &sets::SetOpLowering(Op::Diff),
        Kind::SetSubset => &sets::SubsetLowering { equal: false },
        Kind::SetEq => &sets::SubsetLowering { equal: true },
        Kind::SetDisjoint => &sets::DisjointLowering,
        Kind::SetIn => &sets::InLowering,
    }
}

impl Lower<'_> {
    /// The engine variables of an argument's terms.
    pub(crate) fn vars_of(&mut self, arg: &GlobalArg) -> Option<Vec<crate::model::VarId>> {
        match arg {
            GlobalArg::Term(t) => Some(vec![self.var_of(t)?]),
            GlobalArg::Terms(ts) => self.term_vars(ts),
            GlobalArg::Mdd(_) | GlobalArg::Regex(_) => None,
        }
    }
}
