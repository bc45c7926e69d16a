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

pub struct FormulaProp {
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

    pub fn new(formula: Formula, model: Arc<Model>) -> Self {
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
    fn name(&self) -> &'static str {
        "formula"
    }
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
