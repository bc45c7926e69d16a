//! Root domains: each model variable becomes an engine variable, and
//! formulas over a single variable are applied to its domain at once (node
//! consistency, at every propagation level).

use crate::engine::Engine;
use crate::engine::props::member::Member;
use crate::model::term::Assignment;
use crate::model::{Domain, Formula, Model, VarId};
use std::sync::Arc;

/// Domains with more values than this are not filtered value by value: their
/// unary constraints are posted like the others (bounds propagation).
const MAX_FILTERED: u64 = 1 << 20;

/// Adds the model's variables to the engine with their domains filtered by
/// the unary constraints, and returns the constraints left to post; `None`
/// when some domain becomes empty or a constant formula is false.
pub(super) fn root_domains<'m>(model: &'m Model, engine: &mut Engine) -> Option<Vec<&'m Formula>> {
    let mut domains: Vec<Domain> = model.vars.iter().map(|v| v.domain.clone()).collect();
    let mut rest = Vec::new();
    for f in &model.constraints {
        let vars = f.vars();
        match vars.as_slice() {
            [] if f.eval(model, &[] as &[i64]) != Some(true) => return None,
            [] => {}
            [v] if domains[*v].len() <= MAX_FILTERED => {
                let v = *v;
                let kept: Vec<i64> = domains[v]
                    .iter()
                    .filter(|&x| f.eval(model, &One(v, x)) == Some(true))
                    .collect();
                domains[v] = Domain::of_values(kept)?;
            }
            _ => rest.push(f),
        }
    }
    for d in &domains {
        let v = match d {
            Domain::Range(lo, hi) => engine.add_range(*lo, *hi),
            Domain::Values(values) => engine.add_var(values),
        };
        if !engine.doms.is_bitset(v)
            && let Domain::Values(values) = d
        {
            // Held as bounds only: the holes are kept by a constraint.
            engine.add_prop(Box::new(Member::new(v, Arc::clone(values))));
        }
    }
    Some(rest)
}

/// A single variable's trial value.
struct One(VarId, i64);

impl Assignment for One {
    fn value(&self, var: VarId) -> Option<i64> {
        (var == self.0).then_some(self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CmpOp, Term, VarKind, Variable};
    use crate::source::Span;

    fn var(m: &mut Model, domain: Domain) -> VarId {
        m.add_var(Variable {
            name: "x".into(),
            domain,
            kind: VarKind::Int,
            aux: false,
            span: Span::new(0, 0),
        })
    }

    #[test]
    fn unary_constraints_filter_the_root_domain() {
        let mut m = Model::default();
        let x = var(&mut m, Domain::Range(1, 9));
        m.constraints
            .push(Formula::Cmp(CmpOp::Ne, Term::Var(x), Term::Const(4)));
        m.constraints
            .push(Formula::Cmp(CmpOp::Lt, Term::Var(x), Term::Const(6)));
        let mut e = Engine::new(crate::model::Propagation::Ac);
        let rest = root_domains(&m, &mut e).unwrap();
        assert!(rest.is_empty());
        assert_eq!(e.doms.values(x).collect::<Vec<_>>(), vec![1, 2, 3, 5]);
    }

    #[test]
    fn an_impossible_unary_constraint_is_inconsistent() {
        let mut m = Model::default();
        let x = var(&mut m, Domain::Range(1, 3));
        m.constraints
            .push(Formula::Cmp(CmpOp::Gt, Term::Var(x), Term::Const(7)));
        let mut e = Engine::new(crate::model::Propagation::Fc);
        assert!(root_domains(&m, &mut e).is_none());
    }

    #[test]
    fn wide_domains_keep_their_unary_constraints_and_holes() {
        let mut m = Model::default();
        let x = var(&mut m, Domain::Range(0, 1 << 40));
        let y = var(
            &mut m,
            Domain::of_values(vec![0, 1 << 30, 1 << 50]).unwrap(),
        );
        m.constraints
            .push(Formula::Cmp(CmpOp::Ne, Term::Var(x), Term::Const(4)));
        let mut e = Engine::new(crate::model::Propagation::Ac);
        let rest = root_domains(&m, &mut e).unwrap();
        assert_eq!(rest.len(), 1, "x != 4 is left to propagate");
        assert!(!e.doms.is_bitset(x) && !e.doms.is_bitset(y));
        assert_eq!(e.props.len(), 1, "y's holes are a member constraint");
    }
}
