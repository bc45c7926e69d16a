//! Top-level constraints, one arm per kind of formula. `None` from any arm
//! means "not lowered": [`Lower::post`] rolls back and falls back.

use super::reify::difference;
use super::{Lower, globals};
use crate::engine::props::alldiff::AllDifferent;
use crate::engine::props::table::CompactTable;
use crate::model::{CmpOp, Formula, Propagation, Term};

impl Lower<'_> {
    pub(super) fn try_post(&mut self, f: &Formula) -> Option<()> {
        match f {
            Formula::Const(true) => Some(()),
            Formula::Const(false) => None,
            Formula::Cmp(CmpOp::Eq, Term::Letter(a, i), Term::Letter(b, j)) if a != b => {
                self.word_crossing(*a, *i, *b, *j)
            }
            Formula::Cmp(CmpOp::Eq, a, b) if self.count_equal(a, b).is_some() => Some(()),
            Formula::Cmp(op, a, b) => {
                let (coefs, k) = self.linear(&difference(a, b))?;
                if let Some(card) = self.set_card_of(&coefs) {
                    return self.post_cmp(vec![card], k, *op);
                }
                self.post_cmp(coefs, k, *op)
            }
            Formula::AllDifferent(terms) => self.all_different(terms),
            Formula::Table {
                terms,
                tuples,
                allowed,
            } => {
                let vars = self.term_vars(terms)?;
                let d = &mut self.engine.doms;
                let p = CompactTable::with_cache(d, vars, tuples, *allowed, &mut self.tables)?;
                self.engine.add_prop(Box::new(p));
                Some(())
            }
            Formula::Global(call) => globals::lowering(call.def).lower(self, &call.args),
            Formula::And(parts) => {
                for p in parts {
                    self.post(p);
                }
                Some(())
            }
            Formula::Or(parts) => {
                self.strict = false;
                let bs = parts
                    .iter()
                    .map(|p| self.reify(p))
                    .collect::<Option<Vec<_>>>()?;
                // sum(b) >= 1
                self.post_cmp(bs.iter().map(|&b| (-1, b)).collect(), 1, CmpOp::Le)
            }
            Formula::Implies(p, q) => {
                self.strict = false;
                let (bp, bq) = (self.reify(p)?, self.reify(q)?);
                self.post_cmp(vec![(1, bp), (-1, bq)], 0, CmpOp::Le)
            }
            Formula::Not(g) => {
                self.strict = false;
                let b = self.reify(g)?;
                self.post_cmp(vec![(1, b)], 0, CmpOp::Eq)
            }
        }
    }

    /// Terms `x + c` as pairs of a variable and its offset.
    pub(super) fn offset_vars(
        &mut self,
        terms: &[Term],
    ) -> Option<Vec<(crate::model::VarId, i64)>> {
        let mut pairs = Vec::with_capacity(terms.len());
        for t in terms {
            let (coefs, k) = self.linear(t)?;
            let v = match coefs.as_slice() {
                [(1, v)] => *v,
                _ => self.var_of_lin((coefs, 0))?,
            };
            pairs.push((v, i64::try_from(k).ok()?));
        }
        Some(pairs)
    }

    /// All-different over terms `x + c`: the variable and its offset each.
    fn all_different(&mut self, terms: &[Term]) -> Option<()> {
        let pairs = self.offset_vars(terms)?;
        // The same `x + c` twice can never differ from itself. (`x + c` and
        // `x + d` with `c != d` never clash: the propagator takes them as two
        // terms and the engine runs it again on its own changes to `x`.)
        let mut sorted = pairs.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            self.fallback(Formula::Const(false));
            return Some(());
        }
        // Under `ac` all-different uses Régin's matching-based GAC.
        let gac = self.engine.level == Propagation::Ac;
        let p = AllDifferent::new(pairs, gac, &mut self.engine.doms);
        self.engine.add_prop(Box::new(p));
        Some(())
    }
}
