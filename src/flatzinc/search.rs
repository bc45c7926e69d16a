//! The solve item's search annotations: `int_search`, `bool_search` and
//! `seq_search` give the variables to branch on first, in order, each with
//! its variable and value choice mapped to our selectors (a `seq_search` of
//! several becomes a search in phases, [`SearchSpec::phases`]; the first
//! one's choices also take the variables no annotation names);
//! `restart_luby` and `restart_geometric` our restart policies.
//! Choices we have no selector for keep our default; FlatZinc lets a
//! solver ignore search annotations, never change the answers.

use super::ast::{Expr, ExprKind};
use super::build::{Builder, Val};
use crate::diag::Diags;
use crate::model::{Restarts, SearchPhase, SearchSpec, ValSelect, VarSelect};

pub(super) struct Read {
    pub(crate) spec: SearchSpec,
    pub(crate) annotated: bool,
    pub(crate) restarts: bool,
}

/// Our default without annotations: dom/wdeg, smallest value first.
pub fn default_spec() -> SearchSpec {
    SearchSpec {
        var: VarSelect::DomWdeg,
        val: ValSelect::Min,
        ..SearchSpec::default()
    }
}

pub(super) fn read(b: &mut Builder, annotations: &[Expr], diags: &mut Diags) -> Read {
    let mut r = Read {
        spec: default_spec(),
        annotated: false,
        restarts: false,
    };
    let mut first = true;
    for a in annotations {
        walk(b, a, &mut r, &mut first, diags);
    }
    if r.spec.phases.len() < 2 {
        // One annotation: the main choices already are its choices.
        r.spec.phases.clear();
    }
    r
}

fn walk(b: &Builder, a: &Expr, r: &mut Read, first: &mut bool, diags: &mut Diags) {
    let ExprKind::Call(name, args) = &a.kind else {
        return;
    };
    match name.as_str() {
        "seq_search" => {
            if let Some(Expr {
                kind: ExprKind::Array(items),
                ..
            }) = args.first()
            {
                for item in items {
                    walk(b, item, r, first, diags);
                }
            }
        }
        "int_search" | "bool_search" if args.len() >= 3 => {
            let vars = match b.value(&args[0]) {
                Ok(Val::Array(items)) => items,
                Ok(v @ (Val::Var(_) | Val::View(..))) => vec![v],
                Ok(_) => Vec::new(),
                Err(d) => {
                    diags.push(d);
                    return;
                }
            };
            r.annotated = true;
            let mut seen = rustc_hash::FxHashSet::default();
            let vars: Vec<_> = vars
                .iter()
                .filter_map(|v| match v {
                    // A view is searched through its variable.
                    Val::Var(v) | Val::View(_, v, _) => Some(*v),
                    _ => None,
                })
                .filter(|v| seen.insert(*v))
                .collect();
            r.spec.scope.extend(&vars);
            let defaults = default_spec();
            let phase = SearchPhase {
                vars,
                var: ident(&args[1]).and_then(var_choice).unwrap_or(defaults.var),
                val: ident(&args[2]).and_then(val_choice).unwrap_or(defaults.val),
            };
            if std::mem::replace(first, false) {
                r.spec.var = phase.var;
                r.spec.val = phase.val;
            }
            r.spec.phases.push(phase);
        }
        "restart_luby" => {
            r.spec.restarts = Restarts::Luby;
            r.restarts = true;
        }
        "restart_geometric" => {
            r.spec.restarts = Restarts::Geometric;
            r.restarts = true;
        }
        "restart_none" => r.restarts = true,
        _ => {}
    }
}

fn ident(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        _ => None,
    }
}

/// Our selector for a FlatZinc variable choice.
pub(super) fn var_choice(name: &str) -> Option<VarSelect> {
    Some(match name {
        "input_order" => VarSelect::Input,
        "first_fail" => VarSelect::Mrv,
        "smallest" => VarSelect::Smallest,
        "occurrence" => VarSelect::Degree,
        "most_constrained" => VarSelect::MrvDegree,
        "dom_w_deg" => VarSelect::DomWdeg,
        _ => return None,
    })
}

/// Our selector for a FlatZinc value choice.
pub(super) fn val_choice(name: &str) -> Option<ValSelect> {
    Some(match name {
        "indomain_min" | "indomain" => ValSelect::Min,
        "indomain_max" => ValSelect::Max,
        "indomain_split" | "indomain_middle" | "indomain_median" => ValSelect::Split,
        "indomain_random" => ValSelect::Random,
        _ => return None,
    })
}
