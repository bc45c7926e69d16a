//! `solve -n N --differ K`: N solutions, each differing from every earlier
//! one in at least K primary variables (for a crossword, K entries), so that
//! a constructor sees real alternatives rather than fills one word apart.
//!
//! Each solution is found by a new search of the model with one more
//! constraint per earlier solution: at least K of its variables take another
//! value. Under an objective each search runs to its end (or the limits), so
//! each reported solution is the best that differs enough from the earlier
//! ones.

use crate::engine::search::Next;
use crate::engine::stats::Stats;
use crate::model::{CmpOp, Formula, Model, Origin, Term};
use crate::run::{Options, Status, Summary};
use crate::solve;
use std::sync::Arc;
use std::time::Instant;

/// "At least `k` of `vars` differ from `values`".
pub(super) fn nogood(vars: &[usize], values: &[i64], k: u64) -> Formula {
    let differs = |&v: &usize| Formula::Cmp(CmpOp::Ne, Term::Var(v), Term::Const(values[v]));
    if k == 1 {
        return Formula::Or(vars.iter().map(differs).collect());
    }
    let count = vars
        .iter()
        .map(|v| {
            let one = Term::Ite(
                Box::new(differs(v)),
                Box::new(Term::Const(1)),
                Box::new(Term::Const(0)),
            );
            (1, one)
        })
        .collect();
    Formula::Cmp(
        CmpOp::Ge,
        Term::Linear(count, 0),
        Term::Const(k.min(vars.len() as u64) as i64),
    )
}

/// Up to `n` solutions pairwise differing in at least `k` primary variables,
/// each handed to `on_solution`; the summary adds up the searches.
pub(super) fn solve(
    model: &Arc<Model>,
    options: &Options,
    k: u64,
    n: u64,
    mut on_solution: impl FnMut(&[i64]) -> Next,
) -> Summary {
    let start = Instant::now();
    let vars = crate::setup::primary(model);
    let optimising = model.objective.is_some();
    let mut current = Arc::clone(model);
    let mut o = options.clone();
    o.limits.solutions = if optimising { None } else { Some(1) };
    // One run after another: each frees its engine.
    o.ends_the_process = false;
    let mut stats = Stats::default();
    let mut found = 0u64;
    loop {
        if let Some(t) = options.limits.time {
            o.limits.time = Some(t.saturating_sub(start.elapsed()));
        }
        let mut last: Option<Vec<i64>> = None;
        let mut summary = solve::solve(&current, &o, |values| {
            last = Some(values.to_vec());
            Next::Continue
        });
        add(&mut stats, &summary.stats);
        let complete = !summary.stopped;
        let Some(values) = last else {
            summary.stats = stats;
            summary.stats.solutions = found;
            summary.status = match (found, complete) {
                (0, true) => Status::Unsatisfiable,
                (0, false) => Status::Unknown,
                _ => Status::Satisfiable,
            };
            if found > 0 && complete {
                crate::output::sink::eprint(&format!(
                    "cspi: no further solution differs from the {found} above in at least {k} variables\n"
                ));
            }
            return summary;
        };
        found += 1;
        let stop = on_solution(&values) == Next::Stop;
        if stop || found >= n || (optimising && !complete) {
            summary.stats = stats;
            summary.stats.solutions = found;
            summary.status = if optimising && complete && found == 1 {
                Status::Optimal
            } else {
                Status::Satisfiable
            };
            summary.stopped |= stop;
            return summary;
        }
        let mut m = (*current).clone();
        let f = nogood(&vars, &values, k);
        if let Some(w) = m.written.as_mut() {
            w.push(f.clone());
        }
        m.constraints.push(f);
        m.origins.push(Origin {
            span: crate::source::Span::new(0, 0),
            bindings: vec![("differ".into(), format!("solution {found}"))],
            data: Vec::new(),
            cell: None,
        });
        current = Arc::new(m);
    }
}

/// One search's statistics added to the total (its `solutions` is set
/// from the fills found).
fn add(total: &mut Stats, s: &Stats) {
    crate::parallel::add(total, s);
    total.time += s.time;
}
