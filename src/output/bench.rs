//! `cspi bench`'s table: a Markdown row per combination of strategies
//! (mean ± standard deviation over its runs) or a JSON line per run.
//! Written by hand: times keep three decimals (`"time_ms":12.500`).

use crate::model::search::Named;
use crate::run::BenchRow;
use std::fmt::Write;

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
pub(crate) fn markdown_row(row: &BenchRow) -> String {
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
pub(crate) fn json_lines(row: &BenchRow) -> String {
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
