//! Reification: a 0/1 variable equal to the truth of a sub-formula, for
//! `||`, `->`, `!`, `count` and truth values used as numbers. Comparisons
//! become [`ReifLinear`]; `&&`, `||` and `!` become linear inequalities over
//! the parts' 0/1 variables; anything else is reified by evaluation.
//!
//! Inside a reified formula undefined terms must not prune: a false premise
//! makes an implication true whatever its conclusion. So lowering runs
//! non-strict here, and terms that may be undefined are not lowered.

use super::linear::linear_pair;
use super::{Lower, globals};
use crate::engine::propagator::Propagator;
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::formula::FormulaProp;
use crate::engine::props::reif::ReifLinear;
use crate::engine::props::reified::Reified;
use crate::engine::props::table::CompactTable;
use crate::model::{CmpOp, Formula, Term, VarId};

impl Lower<'_> {
    /// A 0/1 variable equal to the truth of `f`.
    pub(crate) fn reify(&mut self, f: &Formula) -> Option<VarId> {
        let strict = std::mem::replace(&mut self.strict, false);
        let b = self.reify_in(f);
        self.strict = strict;
        b
    }

    fn reify_in(&mut self, f: &Formula) -> Option<VarId> {
        match f {
            Formula::Const(b) => self.aux(i128::from(*b), i128::from(*b)),
            Formula::Cmp(op, a, c) => {
                let (coefs, k) = self.linear(&difference(a, c))?;
                if !self.lin_fits(&coefs, k) {
                    return None;
                }
                let b = self.aux(0, 1)?;
                let (t, e) = linear_pair(coefs, k, *op);
                self.engine.add_prop(Box::new(ReifLinear::new(b, t, e)));
                Some(b)
            }
            Formula::Not(g) => {
                let bg = self.reify(g)?;
                let b = self.aux(0, 1)?;
                self.post_cmp(vec![(1, b), (1, bg)], -1, CmpOp::Eq)?;
                Some(b)
            }
            Formula::And(parts) | Formula::Or(parts) => {
                let and = matches!(f, Formula::And(_));
                let bs = parts
                    .iter()
                    .map(|p| self.reify(p))
                    .collect::<Option<Vec<_>>>()?;
                let b = self.aux(0, 1)?;
                let n = bs.len() as i128;
                let mut sum: Vec<(i64, VarId)> = bs.iter().map(|&x| (1, x)).collect();
                if and {
                    // b <= each; sum - b <= n - 1
                    for &x in &bs {
                        self.post_cmp(vec![(1, b), (-1, x)], 0, CmpOp::Le)?;
                    }
                    sum.push((-1, b));
                    self.post_cmp(sum, -(n - 1), CmpOp::Le)?;
                } else {
                    // each <= b; b <= sum
                    for &x in &bs {
                        self.post_cmp(vec![(1, x), (-1, b)], 0, CmpOp::Le)?;
                    }
                    let mut neg: Vec<(i64, VarId)> = bs.iter().map(|&x| (-1, x)).collect();
                    neg.push((1, b));
                    self.post_cmp(neg, 0, CmpOp::Le)?;
                }
                Some(b)
            }
            Formula::Implies(p, q) => {
                self.reify(&Formula::Or(vec![Formula::Not(p.clone()), (**q).clone()]))
            }
            Formula::Global(call)
                if let Some(d) = globals::lowering(call.def).decomposition(&call.args) =>
            {
                self.reify(&d)
            }
            Formula::AllDifferent(_) | Formula::Table { .. } | Formula::Global(_) => {
                if let Some(b) = self.reify_by_propagators(f) {
                    return Some(b);
                }
                let b = self.aux(0, 1)?;
                let t = Term::Ite(
                    Box::new(f.clone()),
                    Box::new(Term::Const(1)),
                    Box::new(Term::Const(0)),
                );
                self.fallback(Formula::Cmp(CmpOp::Eq, Term::Var(b), t));
                Some(b)
            }
        }
    }
}

impl Lower<'_> {
    /// `b <-> f` for a constraint with a propagator of its own: that
    /// propagator and one for the negation, run by [`Reified`] (look-ahead
    /// while `b` is open). `None` when the constraint has none here.
    fn reify_by_propagators(&mut self, f: &Formula) -> Option<VarId> {
        let (on_true, on_false): (Box<dyn Propagator>, Box<dyn Propagator>) = match f {
            Formula::Table {
                terms,
                tuples,
                allowed,
            } => {
                let vars = self.term_vars(terms)?;
                let d = &mut self.engine.doms;
                let yes = CompactTable::new(d, vars.clone(), tuples, *allowed)?;
                let no = CompactTable::new(d, vars, tuples, !*allowed)?;
                (Box::new(yes), Box::new(no))
            }
            Formula::AllDifferent(terms) => {
                let pairs = self.offset_vars(terms)?;
                let gac = self.engine.level == crate::model::Propagation::Ac;
                let p = AllDifferent::new(pairs, gac, &mut self.engine.doms);
                (Box::new(p), self.negation(f))
            }
            Formula::Global(call) => {
                let p = globals::lowering(call.def).propagator(self, &call.args)?;
                (p, self.negation(f))
            }
            _ => return None,
        };
        let b = self.aux(0, 1)?;
        let p = Reified::new(b, on_true, on_false)?;
        self.engine.add_prop(Box::new(p));
        Some(b)
    }

    /// The formula propagator of `!f`, for the false side of a reification.
    fn negation(&self, f: &Formula) -> Box<dyn Propagator> {
        Box::new(FormulaProp::new(
            Formula::Not(Box::new(f.clone())),
            self.model.clone(),
        ))
    }
}

/// `a - b`.
pub(super) fn difference(a: &Term, b: &Term) -> Term {
    Term::Linear(vec![(1, a.clone()), (-1, b.clone())], 0)
}
