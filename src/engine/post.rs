//! Lowering: the one place where model formulas become propagators.
//!
//! Each formula goes to the most specific propagator that handles it; any
//! formula without one goes to the generic [`FormulaProp`], which is always
//! correct. Formulas over a single variable are applied to its domain at once
//! (node consistency), at every propagation level.

use super::Engine;
use super::lower::Lower;
use crate::model::term::Assignment;
use crate::model::{Model, Propagation, VarId, VarKind};
use std::sync::Arc;

/// An engine for the model; `consistent` is false when the constraints fail
/// already before search (an empty domain at the root).
pub struct Posted {
    pub engine: Engine,
    pub consistent: bool,
    /// The engine variable equal to the objective, to minimise (negated when
    /// the model maximises); `None` without an objective or when it could not
    /// be lowered (then solutions are compared by evaluation only).
    pub objective: Option<VarId>,
}

pub fn post(model: &Arc<Model>, level: Propagation) -> Posted {
    let mut domains: Vec<Arc<[i64]>> = model.vars.iter().map(|v| v.domain.clone()).collect();
    let mut rest = Vec::new();
    let mut consistent = true;
    for f in &model.constraints {
        let vars = f.vars();
        match vars.as_slice() {
            [] => consistent &= f.eval(model, &[] as &[i64]) == Some(true),
            [v] => {
                let v = *v;
                let kept: Arc<[i64]> = domains[v]
                    .iter()
                    .copied()
                    .filter(|&x| f.eval(model, &One(v, x)) == Some(true))
                    .collect();
                domains[v] = kept;
                consistent &= !domains[v].is_empty();
            }
            _ => rest.push(f),
        }
    }
    let mut engine = Engine::new(level);
    if !consistent {
        return Posted {
            engine,
            consistent,
            objective: None,
        };
    }
    for values in &domains {
        engine.add_var(values);
    }
    // Word lists with scores, for `val score`.
    engine.word_scores = model
        .vars
        .iter()
        .map(|v| match &v.kind {
            VarKind::Word(list) if list.scores.len() == list.words.len() => Some(list.clone()),
            _ => None,
        })
        .collect();
    let mut lower = Lower::new(&mut engine, model);
    for f in rest {
        lower.post(f);
    }
    let objective = model.objective.as_ref().and_then(|o| {
        let t = if o.maximize {
            crate::model::Term::Linear(vec![(-1, o.term.clone())], 0)
        } else {
            o.term.clone()
        };
        lower.objective_var(&t)
    });
    Posted {
        engine,
        consistent,
        objective,
    }
}

/// A single variable's trial value, for node consistency.
struct One(VarId, i64);

impl Assignment for One {
    fn value(&self, var: VarId) -> Option<i64> {
        (var == self.0).then_some(self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CmpOp, Formula, Term};
    use crate::model::{VarKind, Variable};
    use crate::syntax::ast::Span;

    fn var(m: &mut Model, name: &str, lo: i64, hi: i64) -> VarId {
        m.add_var(Variable {
            name: name.into(),
            domain: (lo..=hi).collect::<Vec<_>>().into(),
            kind: VarKind::Int,
            aux: false,
            span: Span::new(0, 0),
        })
    }

    #[test]
    fn unary_constraints_filter_the_root_domain() {
        let mut m = Model::default();
        let x = var(&mut m, "x", 1, 9);
        m.constraints
            .push(Formula::Cmp(CmpOp::Ne, Term::Var(x), Term::Const(4)));
        m.constraints
            .push(Formula::Cmp(CmpOp::Lt, Term::Var(x), Term::Const(6)));
        let p = post(&Arc::new(m), Propagation::Ac);
        assert!(p.consistent);
        assert_eq!(
            p.engine.doms.values(x).collect::<Vec<_>>(),
            vec![1, 2, 3, 5]
        );
    }

    #[test]
    fn an_impossible_unary_constraint_is_inconsistent() {
        let mut m = Model::default();
        let x = var(&mut m, "x", 1, 3);
        m.constraints
            .push(Formula::Cmp(CmpOp::Gt, Term::Var(x), Term::Const(7)));
        assert!(!post(&Arc::new(m), Propagation::Fc).consistent);
    }
}
