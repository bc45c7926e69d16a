//! `cspi bench`: solve one model under every combination of search
//! strategies, check that all runs agree (on the number of solutions, or on
//! the optimum of an optimisation model), and tabulate the statistics — the
//! original report's table, for any model.

use crate::engine::search::{Limits, MemoryLimit, Next};
use crate::model::Model;
pub(crate) use crate::run::{BenchRow as Row, BenchRun as Run, Combo};
use crate::solve::{self, Options, Status};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(crate) struct Plan {
    pub combos: Vec<Combo>,
    pub runs: u32,
    pub seed: u64,
    /// Stop each run at the first solution instead of counting them all.
    pub first_only: bool,
    pub time_limit: Option<Duration>,
    /// Count completions by product where sound (under `ac`), as `solve --count` does.
    pub product_count: bool,
    /// Set from outside (Ctrl-C) to stop the run in progress and the rest.
    pub stop: Option<Arc<AtomicBool>>,
    /// A given `--memory-limit`, which each run holds as `solve` does.
    pub memory: Option<MemoryLimit>,
}

/// Runs every combination `plan.runs` times; random ones get seeds seed,
/// seed+1, ... `on_start` hears of each run before it starts (for a progress
/// line); each finished row goes to `on_row` at once, so long benches show
/// their table as it grows. A stop request ends the bench after the run in
/// progress, which stops as at a limit.
pub(crate) fn run(
    model: &Arc<Model>,
    plan: &Plan,
    mut on_start: impl FnMut(&Combo, u32),
    mut on_row: impl FnMut(&Row),
) -> Vec<Row> {
    let stopped = || {
        plan.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    };
    let mut rows = Vec::new();
    // An optimisation model compares its optimum, found by branch and bound.
    let optimising = model.objective.is_some();
    for &combo in &plan.combos {
        let mut runs = Vec::new();
        for k in 0..plan.runs {
            if stopped() {
                break;
            }
            on_start(&combo, k);
            let mut search = model.search.clone();
            search.var = combo.var;
            search.val = combo.val;
            search.propagation = combo.propagation;
            search.seed = plan.seed.wrapping_add(u64::from(k));
            let options = Options {
                search,
                limits: Limits {
                    solutions: plan.first_only.then_some(1),
                    time: plan.time_limit,
                    stop: plan.stop.clone(),
                    memory: plan.memory.clone(),
                    ..Limits::default()
                },
                check: false,
                count_only: !plan.first_only && !optimising,
                no_product_count: !plan.product_count,
                ..Options::default()
            };
            let summary = solve::solve(model, &options, |_| Next::Continue);
            let s = &summary.stats;
            runs.push(Run {
                status: summary.status,
                objective: summary.objective,
                solutions: s.solutions,
                nodes: s.nodes,
                failures: s.failures,
                max_depth: s.max_depth,
                propagations: s.propagations,
                time_ms: s.time.as_secs_f64() * 1000.0,
            });
        }
        if runs.is_empty() {
            break;
        }
        let row = Row { combo, runs };
        on_row(&row);
        rows.push(row);
    }
    rows
}

/// What the complete runs disagree on, when they do (a bug): the solution
/// counts, the existence of a solution (`first_only`), or the optimum of an
/// optimisation model (only runs that proved it count).
pub(crate) fn disagreement(rows: &[Row], first_only: bool, optimising: bool) -> Option<String> {
    let runs = rows.iter().flat_map(|r| &r.runs);
    let mut seen: Vec<String> = if optimising {
        runs.filter_map(|r| match r.status {
            Status::Optimal => r.objective.map(|o| format!("optimum {o}")),
            Status::Unsatisfiable => Some("unsatisfiable".to_string()),
            _ => None,
        })
        .collect()
    } else {
        runs.filter(|r| r.status != Status::Unknown)
            .map(|r| {
                let c = if first_only {
                    r.solutions.min(1)
                } else {
                    r.solutions
                };
                crate::output::plural(c, "solution", "solutions")
            })
            .collect()
    };
    seen.sort_unstable();
    seen.dedup();
    (seen.len() > 1).then(|| seen.join(" vs "))
}
