//! The set constraints of `model/globals/sets.rs`, posted as the set
//! propagators of `engine/props/sets/`. Each set argument becomes an
//! engine set variable: the engine variables of its membership terms and
//! a cardinality variable, made once per list of booleans
//! ([`Lower::set_var`], which posts its `SetCard`) and shared by every
//! constraint on the same set. Reified (`b <-> x subset y`), a set
//! constraint is its decomposition over the booleans, as before the set
//! propagators existed.

use super::Lowering;
use crate::engine::propagator::Propagator;
use crate::engine::props::sets::SetVar;
use crate::engine::props::sets::card::SetCard;
use crate::engine::props::sets::disjoint::AllDisjoint;
use crate::engine::props::sets::member::SetIn;
use crate::engine::props::sets::ops::SetOpProp;
use crate::engine::props::sets::subset::Subset;
use crate::lower::Lower;
use crate::model::globals::sets::Op;
use crate::model::{CmpOp, Formula, GlobalArg, Term, VarId};

pub(super) struct SetOpLowering(pub Op);
pub(super) struct SubsetLowering {
    pub equal: bool,
}
pub(super) struct DisjointLowering;
pub(super) struct InLowering;

fn terms(arg: &GlobalArg) -> &[Term] {
    match arg {
        GlobalArg::Terms(ts) => ts,
        GlobalArg::Term(t) => std::slice::from_ref(t),
        GlobalArg::Mdd(_) | GlobalArg::Regex(_) => &[],
    }
}

/// `t` is a member (its 0/1 term is 1).
fn is_in(t: &Term) -> Formula {
    match t.as_const() {
        Some(k) => Formula::Const(k != 0),
        None => Formula::Cmp(CmpOp::Eq, t.clone(), Term::Const(1)),
    }
}

fn not(f: Formula) -> Formula {
    Formula::Not(Box::new(f))
}

fn iff(a: Formula, b: Formula) -> Formula {
    Formula::And(vec![
        Formula::Implies(Box::new(a.clone()), Box::new(b.clone())),
        Formula::Implies(Box::new(b), Box::new(a)),
    ])
}

impl Lower<'_> {
    /// The engine set variable of membership terms: their variables and
    /// the cardinality variable shared by every constraint on them.
    pub(crate) fn set_var(&mut self, ts: &[Term]) -> Option<SetVar> {
        let bools = self.term_vars(ts)?;
        let mut key = bools.clone();
        key.sort_unstable();
        if let Some(&card) = self.set_cards.get(&key) {
            return Some(SetVar { bools, card });
        }
        let card = self.aux(0, bools.len() as i128)?;
        let set = SetVar { bools, card };
        self.engine.add_prop(Box::new(SetCard::new(set.clone())));
        let mut key = set.bools.clone();
        key.sort_unstable();
        self.set_cards.insert(key, card);
        Some(set)
    }

    /// `card(s)` in a comparison: when a sum `±(b_1 + ... + b_n)` is over
    /// the booleans of a set the set constraints have already made, the
    /// set's cardinality variable (times the sign) stands for it, so that
    /// what the model says of `card(s)` reaches the set propagators'
    /// cardinality reasoning.
    pub(crate) fn set_card_of(&self, coefs: &[(i64, VarId)]) -> Option<(i64, VarId)> {
        let sign = coefs.first()?.0;
        if coefs.len() < 2 || sign.abs() != 1 || coefs.iter().any(|c| c.0 != sign) {
            return None;
        }
        let mut key: Vec<VarId> = coefs.iter().map(|c| c.1).collect();
        key.sort_unstable();
        self.set_cards.get(&key).map(|&card| (sign, card))
    }
}

impl Lowering for SetOpLowering {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let x = l.set_var(terms(&args[0]))?;
        let y = l.set_var(terms(&args[1]))?;
        let z = l.set_var(terms(&args[2]))?;
        Some(Box::new(SetOpProp::new(self.0, x, y, z)?))
    }
    fn decomposition(&self, args: &[GlobalArg]) -> Option<Formula> {
        let (x, y, z) = (terms(&args[0]), terms(&args[1]), terms(&args[2]));
        let parts = (0..x.len())
            .map(|e| {
                let (a, b) = (is_in(&y[e]), is_in(&z[e]));
                let rhs = match self.0 {
                    Op::Union => Formula::Or(vec![a, b]),
                    Op::Intersect => Formula::And(vec![a, b]),
                    Op::Diff => Formula::And(vec![a, not(b)]),
                };
                iff(is_in(&x[e]), rhs)
            })
            .collect();
        Some(Formula::And(parts))
    }
}

impl Lowering for SubsetLowering {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let x = l.set_var(terms(&args[0]))?;
        let y = l.set_var(terms(&args[1]))?;
        Some(Box::new(Subset::new(x, y, self.equal)?))
    }
    fn decomposition(&self, args: &[GlobalArg]) -> Option<Formula> {
        let (x, y) = (terms(&args[0]), terms(&args[1]));
        let parts = x
            .iter()
            .zip(y)
            .map(|(a, b)| {
                if self.equal {
                    iff(is_in(a), is_in(b))
                } else {
                    Formula::Implies(Box::new(is_in(a)), Box::new(is_in(b)))
                }
            })
            .collect();
        Some(Formula::And(parts))
    }
}

/// The sets (each its membership terms) and the values to cover.
type DisjointArgs<'a> = (Vec<&'a [Term]>, Option<Vec<bool>>);

/// The sets of `set_all_disjoint`'s arguments, each as its terms, and the
/// values to cover (a partition) if any.
fn disjoint_args(args: &[GlobalArg]) -> Option<DisjointArgs<'_>> {
    let all = terms(&args[0]);
    let width = usize::try_from(terms(&args[1]).first()?.as_const()?).ok()?;
    let cover: Vec<bool> = terms(&args[2])
        .iter()
        .map(|t| t.as_const().map(|k| k != 0))
        .collect::<Option<_>>()?;
    if width == 0 || !all.len().is_multiple_of(width) || !(cover.is_empty() || cover.len() == width)
    {
        return None;
    }
    let cover = (!cover.is_empty()).then_some(cover);
    Some((all.chunks(width).collect(), cover))
}

impl Lowering for DisjointLowering {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let (sets, cover) = disjoint_args(args)?;
        let sets = sets
            .into_iter()
            .map(|s| l.set_var(s))
            .collect::<Option<Vec<_>>>()?;
        Some(Box::new(AllDisjoint::new(sets, cover)?))
    }
    fn decomposition(&self, args: &[GlobalArg]) -> Option<Formula> {
        let (sets, cover) = disjoint_args(args)?;
        let width = sets.first().map_or(0, |s| s.len());
        let parts = (0..width)
            .map(|e| {
                let sum = Term::Linear(sets.iter().map(|s| (1, s[e].clone())).collect(), 0);
                match &cover {
                    None => Formula::Cmp(CmpOp::Le, sum, Term::Const(1)),
                    Some(c) => Formula::Cmp(CmpOp::Eq, sum, Term::Const(i64::from(c[e]))),
                }
            })
            .collect();
        Some(Formula::And(parts))
    }
}

impl Lowering for InLowering {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let v = l.var_of(terms(&args[0]).first()?)?;
        let elems: Vec<i64> = terms(&args[1])
            .iter()
            .map(Term::as_const)
            .collect::<Option<_>>()?;
        let s = l.set_var(terms(&args[2]))?;
        Some(Box::new(SetIn::new(v, elems, s)?))
    }
    fn decomposition(&self, args: &[GlobalArg]) -> Option<Formula> {
        let v = terms(&args[0]).first()?;
        let elems = terms(&args[1]);
        let s = terms(&args[2]);
        let parts = elems
            .iter()
            .zip(s)
            .map(|(e, m)| {
                Formula::And(vec![
                    Formula::Cmp(CmpOp::Eq, v.clone(), e.clone()),
                    is_in(m),
                ])
            })
            .collect();
        Some(Formula::Or(parts))
    }
}
