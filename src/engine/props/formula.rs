//! The fallback propagator for any formula the engine has no special
//! propagator for (disjunctions, implications, products, ...). It evaluates
//! the formula directly: it fails once every variable is fixed and the formula
//! is false, and when one variable is left with a small domain it removes the
//! values that make the formula false (forward checking).

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::term::Assignment;
use crate::model::{CmpOp, Formula, Model, Term, VarId};
use std::sync::Arc;

/// Larger domains are not scanned value by value.
const MAX_SCANNED: u64 = 4096;

pub(crate) struct FormulaProp {
    formula: Formula,
    vars: Vec<VarId>,
    model: Arc<Model>,
}

impl FormulaProp {
    /// Whether the formula is `Var(v) == t` with `t` not mentioning `v`.
    fn defines(&self, v: VarId) -> bool {
        match &self.formula {
            Formula::Cmp(CmpOp::Eq, Term::Var(z), t) if *z == v => {
                let mut vs = Vec::new();
                t.collect_vars(&mut vs);
                !vs.contains(&v)
            }
            _ => false,
        }
    }

    pub(crate) fn new(formula: Formula, model: Arc<Model>) -> Self {
        let vars = formula.vars();
        FormulaProp {
            formula,
            vars,
            model,
        }
    }
}

/// The fixed variables' values, with one variable given a trial value.
struct Partial<'a> {
    d: &'a Domains,
    trial: Option<(VarId, i64)>,
}

impl Assignment for Partial<'_> {
    fn value(&self, var: VarId) -> Option<i64> {
        match self.trial {
            Some((v, x)) if v == var => Some(x),
            _ => self.d.value(var),
        }
    }
}

impl Propagator for FormulaProp {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Slow
    }
    fn violated(&mut self, d: &Domains) -> bool {
        self.formula.eval(&self.model, &Partial { d, trial: None }) == Some(false)
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let mut free = self.vars.iter().copied().filter(|&v| !d.is_fixed(v));
        let (first, second) = (free.next(), free.next());
        match (first, second) {
            (None, _) => {
                if self.formula.eval(&self.model, &Partial { d, trial: None }) == Some(true) {
                    Ok(())
                } else {
                    Err(Fail)
                }
            }
            // `z == t` with only `z` open: `z` is defined by `t` (an
            // auxiliary variable of lowering), whatever its domain's size.
            (Some(v), None) if self.defines(v) => {
                let t = match &self.formula {
                    Formula::Cmp(CmpOp::Eq, _, t) => t,
                    _ => return Ok(()),
                };
                match t.eval(&self.model, &Partial { d, trial: None }) {
                    Some(x) => d.fix(v, x).map(|_| ()),
                    None => Err(Fail),
                }
            }
            (Some(v), None) if d.size(v) <= MAX_SCANNED => {
                let bad: Vec<i64> = d
                    .values(v)
                    .filter(|&x| {
                        self.formula.eval(
                            &self.model,
                            &Partial {
                                d,
                                trial: Some((v, x)),
                            },
                        ) != Some(true)
                    })
                    .collect();
                for x in bad {
                    d.remove(v, x)?;
                }
                Ok(())
            }
            _ => {
                // Several unknowns: fail early if the formula is already decided false.
                if self.formula.eval(&self.model, &Partial { d, trial: None }) == Some(false) {
                    Err(Fail)
                } else {
                    Ok(())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Strength, check_random};
    use crate::model::{Domain, VarKind, Variable};
    use crate::source::Span;

    /// A model with three variables over -3..4 (the harness's range), so that
    /// formulas can name them.
    fn model() -> Arc<Model> {
        let mut m = Model::default();
        for name in ["x", "y", "z"] {
            m.add_var(Variable {
                name: name.into(),
                domain: Domain::Range(-3, 4),
                kind: VarKind::Int,
                aux: false,
                span: Span::new(0, 0),
            });
        }
        Arc::new(m)
    }

    #[test]
    fn evaluation_checks_and_forward_checks() {
        // x * y != z || x == 0, over the harness's variables (repeated in
        // its second half: x * x != x || x == 0).
        let f = |v: &[VarId]| {
            Formula::Or(vec![
                Formula::Cmp(
                    CmpOp::Ne,
                    Term::Mul(Box::new(Term::Var(v[0])), Box::new(Term::Var(v[1]))),
                    Term::Var(v[2]),
                ),
                Formula::Cmp(CmpOp::Eq, Term::Var(v[0]), Term::Const(0)),
            ])
        };
        let m = model();
        check_random(
            "formula",
            Strength::Check,
            3,
            |_, v| Some(Box::new(FormulaProp::new(f(v), m.clone()))),
            |t| t[0] * t[1] != t[2] || t[0] == 0,
        );
    }

    #[test]
    fn a_defining_equation_fixes_its_variable() {
        // z == x - y, with z's domain left wide.
        let f = Formula::Cmp(
            CmpOp::Eq,
            Term::Var(2),
            Term::Linear(vec![(1, Term::Var(0)), (-1, Term::Var(1))], 0),
        );
        let mut h = crate::engine::harness::Harness::new();
        let (x, y, z) = (h.range(-3, 4), h.range(-3, 4), h.range(-(1 << 40), 1 << 40));
        h.post(FormulaProp::new(f, model()));
        h.fix(x, 4).unwrap();
        h.fix(y, -3).unwrap();
        assert_eq!(h.engine.doms.value(z), Some(7));
    }
}
