//! Lowering: the one place where model formulas become propagators.
//!
//! Each formula goes to the most specific propagator that handles it; any
//! formula without one goes to the generic [`FormulaProp`], which is always
//! correct. Formulas over a single variable are applied to its domain at once
//! (node consistency), at every propagation level.

use super::Engine;
use super::props::alldiff::AllDifferent;
use super::props::formula::FormulaProp;
use super::props::linear::{LinOp, Linear};
use super::props::wordcross::{IndexCache, LetterIndex, WordCross};
use crate::model::term::Assignment;
use crate::model::{CmpOp, Formula, Model, Propagation, Term, VarId, VarKind};
use std::sync::Arc;

/// An engine for the model; `consistent` is false when the constraints fail
/// already before search (an empty domain at the root).
pub struct Posted {
    pub engine: Engine,
    pub consistent: bool,
}

pub fn post(model: &Arc<Model>, level: Propagation) -> Posted {
    let mut domains: Vec<Vec<i64>> = model.vars.iter().map(|v| v.domain.clone()).collect();
    let mut rest = Vec::new();
    let mut consistent = true;
    for f in &model.constraints {
        let vars = f.vars();
        match vars.as_slice() {
            [] => consistent &= f.eval(model, &[] as &[i64]) == Some(true),
            [v] => {
                let v = *v;
                domains[v].retain(|&x| f.eval(model, &One(v, x)) == Some(true));
                consistent &= !domains[v].is_empty();
            }
            _ => rest.push(f),
        }
    }
    let mut engine = Engine::new(level);
    if !consistent {
        return Posted { engine, consistent };
    }
    for values in &domains {
        engine.add_var(values);
    }
    engine.word_scores = model
        .vars
        .iter()
        .map(|v| match &v.kind {
            VarKind::Word(list) if list.scores.len() == list.words.len() => Some(list.clone()),
            _ => None,
        })
        .collect();
    let mut cache = IndexCache::new();
    for f in rest {
        post_formula(&mut engine, model, f, &mut cache);
    }
    Posted { engine, consistent }
}

/// A single variable's trial value, for node consistency.
struct One(VarId, i64);

impl Assignment for One {
    fn value(&self, var: VarId) -> Option<i64> {
        (var == self.0).then_some(self.1)
    }
}

fn post_formula(engine: &mut Engine, model: &Arc<Model>, f: &Formula, cache: &mut IndexCache) {
    match f {
        Formula::Cmp(CmpOp::Eq, Term::Letter(a, i), Term::Letter(b, j)) if a != b => {
            if let (VarKind::Word(la), VarKind::Word(lb)) =
                (&model.vars[*a].kind, &model.vars[*b].kind)
            {
                let ia = LetterIndex::shared(cache, la, *i, &engine.doms, *a);
                let ib = LetterIndex::shared(cache, lb, *j, &engine.doms, *b);
                engine.add_prop(Box::new(WordCross::new(*a, ia, *b, ib)));
                return;
            }
        }
        Formula::Cmp(op, a, b) => {
            let lhs = Term::Linear(vec![(1, a.clone()), (-1, b.clone())], 0);
            if let Some((coefs, k)) = lhs.as_linear() {
                post_linear(engine, coefs, k, *op);
                return;
            }
        }
        Formula::AllDifferent(terms) => {
            if let Some(pairs) = terms.iter().map(offset_var).collect::<Option<Vec<_>>>() {
                engine.add_prop(Box::new(AllDifferent::new(pairs)));
                return;
            }
        }
        Formula::And(parts) => {
            for p in parts {
                post_formula(engine, model, p, cache);
            }
            return;
        }
        _ => {}
    }
    engine.add_prop(Box::new(FormulaProp::new(f.clone(), model.clone())));
}

/// `x + c` as `(x, c)`.
fn offset_var(t: &Term) -> Option<(VarId, i64)> {
    match t.as_linear()?.0.as_slice() {
        [(1, v)] => Some((*v, t.as_linear()?.1)),
        _ => None,
    }
}

/// Posts `sum(coefs) + k  op  0`.
fn post_linear(engine: &mut Engine, coefs: Vec<(i64, VarId)>, k: i64, op: CmpOp) {
    let negated = || coefs.iter().map(|&(c, v)| (-c, v)).collect::<Vec<_>>();
    let p = match op {
        CmpOp::Le => Linear::new(coefs, k, LinOp::Le),
        CmpOp::Lt => Linear::new(coefs, k.saturating_add(1), LinOp::Le),
        CmpOp::Ge => Linear::new(negated(), -k, LinOp::Le),
        CmpOp::Gt => Linear::new(negated(), (-k).saturating_add(1), LinOp::Le),
        CmpOp::Eq => Linear::new(coefs, k, LinOp::Eq),
        CmpOp::Ne => Linear::new(coefs, k, LinOp::Ne),
    };
    engine.add_prop(Box::new(p));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Variable;
    use crate::syntax::ast::Span;

    fn var(m: &mut Model, name: &str, lo: i64, hi: i64) -> VarId {
        m.add_var(Variable {
            name: name.into(),
            domain: (lo..=hi).collect(),
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
