//! The solve item's search annotations: `int_search`, `bool_search` and
//! `seq_search` give the variables to branch on first (in order) and the
//! variable and value choices of the first of them, mapped to our
//! selectors; `restart_luby` and `restart_geometric` our restart policies.
//! Choices we have no selector for keep our default; FlatZinc lets a
//! solver ignore search annotations, never change the answers.

use super::ast::{Expr, ExprKind};
use super::build::{Builder, Val};
use crate::diag::Diags;
use crate::model::{Restarts, SearchSpec, ValSelect, VarSelect};

pub(super) struct Read {
    pub spec: SearchSpec,
    pub annotated: bool,
    pub restarts: bool,
}

/// Our default without annotations: dom/wdeg, smallest value first.
pub(crate) fn default_spec() -> SearchSpec {
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
                Ok(v @ Val::Var(_)) => vec![v],
                Ok(_) => Vec::new(),
                Err(d) => {
                    diags.push(d);
                    return;
                }
            };
            r.annotated = true;
            r.spec.scope.extend(vars.iter().filter_map(|v| match v {
                Val::Var(v) => Some(*v),
                _ => None,
            }));
            if std::mem::replace(first, false) {
                if let Some(v) = ident(&args[1]).and_then(var_choice) {
                    r.spec.var = v;
                }
                if let Some(v) = ident(&args[2]).and_then(val_choice) {
                    r.spec.val = v;
                }
            }
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
