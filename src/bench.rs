//! `cspi bench`: solve one model under every combination of search
//! strategies, check that all runs agree (on the number of solutions, or on
//! the optimum of an optimisation model), and tabulate the statistics — the
//! original report's table, for any model.

use crate::engine::search::{Limits, Next};
use crate::model::search::Named;
use crate::model::{Model, Propagation, ValSelect, VarSelect};
use crate::solve::{self, Options, Status};
use std::fmt::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// One combination of strategies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Combo {
    pub var: VarSelect,
    pub val: ValSelect,
    pub propagation: Propagation,
}

/// The measurements of one run.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub status: Status,
    /// The best objective found (the optimum when the status is `OPTIMAL`).
    pub objective: Option<i64>,
    pub solutions: u64,
    pub nodes: u64,
    pub failures: u64,
    pub max_depth: u64,
    pub propagations: u64,
    pub time_ms: f64,
}

/// All runs of one combination.
#[derive(Clone, Debug)]
pub(crate) struct Row {
    pub combo: Combo,
    pub runs: Vec<Run>,
}

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

/// Mean and (population) standard deviation.
fn mean_sd(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let v: Vec<f64> = xs.collect();
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    (mean, var.sqrt())
}

fn cell(xs: impl Iterator<Item = f64>, runs: usize, decimals: usize) -> String {
    let (mean, sd) = mean_sd(xs);
    if runs > 1 && sd > 0.0 {
        format!("{mean:.decimals$} ± {sd:.decimals$}")
    } else {
        format!("{mean:.decimals$}")
    }
}

/// The head of the Markdown table.
pub(crate) const MARKDOWN_HEADER: &str = "| var | val | propagation | runs | status | solutions | objective | nodes | failures | max depth | propagations | time (ms) |\n\
     |---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n";

/// One row of the Markdown table.
pub(crate) fn markdown_row(row: &Row) -> String {
    let n = row.runs.len();
    let mut statuses: Vec<&str> = row.runs.iter().map(|r| r.status.name()).collect();
    statuses.sort_unstable();
    statuses.dedup();
    let mut objectives: Vec<String> = row
        .runs
        .iter()
        .filter_map(|r| r.objective.map(|o| o.to_string()))
        .collect();
    objectives.dedup();
    let objective = if objectives.is_empty() {
        "-".to_string()
    } else {
        objectives.join(", ")
    };
    let c = &row.combo;
    format!(
        "| {} | {} | {} | {n} | {} | {} | {objective} | {} | {} | {} | {} | {} |\n",
        c.var.name(),
        c.val.name(),
        c.propagation.name(),
        statuses.join(", "),
        cell(row.runs.iter().map(|r| r.solutions as f64), n, 0),
        cell(row.runs.iter().map(|r| r.nodes as f64), n, 0),
        cell(row.runs.iter().map(|r| r.failures as f64), n, 0),
        cell(row.runs.iter().map(|r| r.max_depth as f64), n, 0),
        cell(row.runs.iter().map(|r| r.propagations as f64), n, 0),
        cell(row.runs.iter().map(|r| r.time_ms), n, 1),
    )
}

/// One JSON object per run of a row, for machines; `"objective"` when the
/// model has one.
pub(crate) fn json_lines(row: &Row) -> String {
    let mut out = String::new();
    for (k, r) in row.runs.iter().enumerate() {
        let c = &row.combo;
        let _ = write!(
            out,
            "{{\"type\":\"run\",\"var\":\"{}\",\"val\":\"{}\",\"propagation\":\"{}\",\"run\":{k},\"status\":\"{}\",\"solutions\":{}",
            c.var.name(),
            c.val.name(),
            c.propagation.name(),
            r.status.name(),
            r.solutions,
        );
        if let Some(o) = r.objective {
            let _ = write!(out, ",\"objective\":{o}");
        }
        let _ = writeln!(
            out,
            ",\"stats\":{{\"nodes\":{},\"failures\":{},\"max_depth\":{},\"propagations\":{},\"time_ms\":{:.3}}}}}",
            r.nodes, r.failures, r.max_depth, r.propagations, r.time_ms
        );
    }
    out
}
