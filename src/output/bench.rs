//! `cspi bench`'s table: a Markdown row per combination of strategies
//! (mean ± standard deviation over its runs) or a JSON line per run.
//! The JSON lines are written by serde; times keep three decimals
//! (`"time_ms":12.500`).

use super::json::to_json;
use crate::model::search::Named;
use crate::run::BenchRow;
use serde::Serialize;

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

/// One run of `cspi bench` as a JSON record (`"type":"run"`).
#[derive(Serialize)]
struct RunRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    var: &'a str,
    val: &'a str,
    propagation: &'a str,
    run: usize,
    status: &'a str,
    solutions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<i64>,
    stats: RunStats,
}

/// The statistics of a run record.
#[derive(Serialize)]
struct RunStats {
    nodes: u64,
    failures: u64,
    max_depth: u64,
    propagations: u64,
    #[serde(serialize_with = "three_decimals")]
    time_ms: f64,
}

/// A time in milliseconds with three decimals (`12.500`), as a JSON number:
/// microseconds, and the same width from run to run.
fn three_decimals<S: serde::Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    let text = if ms.is_finite() {
        format!("{ms:.3}")
    } else {
        "null".to_string()
    };
    serde_json::value::RawValue::from_string(text)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

/// One JSON object per run of a row, for machines; `"objective"` when the
/// model has one.
pub(crate) fn json_lines(row: &BenchRow) -> String {
    let c = &row.combo;
    let mut out = String::new();
    for (k, r) in row.runs.iter().enumerate() {
        out.push_str(&to_json(&RunRecord {
            kind: "run",
            var: c.var.name(),
            val: c.val.name(),
            propagation: c.propagation.name(),
            run: k,
            status: r.status.name(),
            solutions: r.solutions,
            objective: r.objective,
            stats: RunStats {
                nodes: r.nodes,
                failures: r.failures,
                max_depth: r.max_depth,
                propagations: r.propagations,
                time_ms: r.time_ms,
            },
        }));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Propagation, ValSelect, VarSelect};
    use crate::run::{BenchRun, Combo, Status};

    #[test]
    fn a_json_line_per_run_with_times_to_the_microsecond() {
        let run = |objective, time_ms| BenchRun {
            status: Status::AllSolutions,
            objective,
            solutions: 2,
            nodes: 10,
            failures: 3,
            max_depth: 4,
            propagations: 55,
            time_ms,
        };
        let row = BenchRow {
            combo: Combo {
                var: VarSelect::Mrv,
                val: ValSelect::Min,
                propagation: Propagation::Ac,
            },
            runs: vec![run(None, 12.5), run(Some(-7), 0.0004)],
        };
        assert_eq!(
            json_lines(&row),
            "{\"type\":\"run\",\"var\":\"mrv\",\"val\":\"min\",\"propagation\":\"ac\",\"run\":0,\"status\":\"ALL_SOLUTIONS\",\"solutions\":2,\"stats\":{\"nodes\":10,\"failures\":3,\"max_depth\":4,\"propagations\":55,\"time_ms\":12.500}}\n\
             {\"type\":\"run\",\"var\":\"mrv\",\"val\":\"min\",\"propagation\":\"ac\",\"run\":1,\"status\":\"ALL_SOLUTIONS\",\"solutions\":2,\"objective\":-7,\"stats\":{\"nodes\":10,\"failures\":3,\"max_depth\":4,\"propagations\":55,\"time_ms\":0.000}}\n"
        );
    }
}
