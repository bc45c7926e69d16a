//! The objective: an engine variable equal to the term to minimise (its
//! negation when the model maximises), so that branch and bound can bound it
//! and propagation carries the bound to the decision variables. Objectives
//! of any range lower: wide ones become variables held by their bounds.

use super::Lower;
use crate::model::{Objective, Term, VarId};

impl Lower<'_> {
    /// A variable equal to the objective to minimise, if it can be lowered.
    pub(crate) fn objective_var(&mut self, o: &Objective) -> Option<VarId> {
        self.strict = true;
        let t = if o.maximize {
            Term::Linear(vec![(-1, o.term.clone())], 0)
        } else {
            o.term.clone()
        };
        let (mark, counts) = (self.engine.mark(), self.counts.len());
        let v = self.var_of(&t);
        if v.is_none() {
            self.engine.rollback(mark);
            self.counts.truncate(counts);
        }
        v
    }
}
