//! Output for people: grids drawn as grids, everything else as `name = value`;
//! a separator line per solution when there may be several, and one summary
//! line at the end.

use super::count_text;
use super::{Mode, Reporter, RunEnd, StoppedBy, Tally, plural};
use crate::engine::stats::{SATURATED, Stats};
use crate::model::{CrosswordLayout, FillQuality, Model, OutputItem, VarGroup};
use crate::run::Status;
use std::fmt::Write;

/// The text of one solution.
pub fn solution(model: &Model, values: &[i64]) -> String {
    let mut out = body(model, values);
    if let Some(o) = &model.objective
        && let Some(v) = o.term.eval(model, values)
    {
        let _ = writeln!(out, "objective = {}", o.shown(v));
    }
    out
}

/// The text of one solution's `output` (or its variables), as people see it.
pub(crate) fn text(model: &Model, values: &[i64]) -> String {
    body(model, values)
}

fn body(model: &Model, values: &[i64]) -> String {
    let mut out = String::new();
    if model.output.is_empty() {
        if model.groups.is_empty() {
            // Never silent: the constraints hold, and there is nothing to assign.
            out.push_str("SATISFIABLE (the model has no variables)\n");
        }
        for (name, g) in &model.groups {
            let _ = writeln!(out, "{name} = {}", group_text(model, g, values));
        }
        return out;
    }
    // Items that need the solution's values, written by the model's front end.
    let mut deferred = model
        .output
        .iter()
        .any(|i| matches!(i, OutputItem::Deferred { .. }))
        .then(|| model.deferred_texts(values))
        .map(|r| r.map(Vec::into_iter));
    for item in &model.output {
        match item {
            OutputItem::Deferred { .. } => match &mut deferred {
                Some(Ok(texts)) => {
                    let t = texts.next().unwrap_or_default();
                    out.push_str(&t);
                    if !t.ends_with('\n') {
                        out.push('\n');
                    }
                }
                Some(Err(message)) => {
                    let _ = writeln!(out, "output error: {message}");
                    deferred = None;
                }
                None => {}
            },
            OutputItem::Grid {
                group,
                box_size,
                symbols,
                ..
            } => grid(
                &mut out,
                model,
                group,
                *box_size,
                symbols.as_deref(),
                values,
            ),
            OutputItem::Group { name, group } | OutputItem::Board { name, group } => {
                let _ = writeln!(out, "{name} = {}", group_text(model, group, values));
            }
            OutputItem::Path { .. } => {}
            OutputItem::Value { label, term } => {
                let v = term
                    .eval(model, values)
                    .map_or("undefined".to_string(), |v| v.to_string());
                let _ = writeln!(out, "{label} = {v}");
            }
            OutputItem::Spell {
                label,
                group,
                symbols,
            } => {
                let _ = writeln!(
                    out,
                    "{label} = {}",
                    OutputItem::spell(group, symbols, values)
                );
            }
            OutputItem::Total { .. } => {}
            OutputItem::Crossword { layout, .. } => {
                for row in crossword_rows(model, layout, values) {
                    let _ = writeln!(out, "{row}");
                }
            }
            OutputItem::Quality { layout, below, .. } => {
                match FillQuality::of(model, layout, values, *below) {
                    Some(q) => {
                        let _ = writeln!(out, "{}", quality_line(&q, *below));
                    }
                    None => out.push_str("quality: none to report, the word list has no scores\n"),
                }
            }
            OutputItem::Format(pieces) => {
                let t = model.format_text(pieces, values);
                out.push_str(&t);
                if !t.ends_with('\n') {
                    out.push('\n');
                }
            }
            OutputItem::Text(t) => {
                out.push_str(t);
                if !t.ends_with('\n') {
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// A group as a value, `[..]` per dimension (`[red: 1, ...]` for one indexed by an enum).
fn group_text(model: &Model, g: &VarGroup, values: &[i64]) -> String {
    let mut out = String::new();
    super::nested::nested_named(
        &mut out,
        &g.dims,
        &g.index_enums,
        false,
        ", ",
        &mut |o, k| match &g.set {
            Some(layout) => o.push_str(&g.set_text(layout, k, values)),
            None => o.push_str(&model.format_value(g.vars[k], values[g.vars[k]])),
        },
    );
    out
}

/// Draws a 2-D array, with box separators every `box_size` rows and columns.
fn grid(
    out: &mut String,
    model: &Model,
    g: &VarGroup,
    box_size: Option<usize>,
    symbols: Option<&[char]>,
    values: &[i64],
) {
    let rows = (g.dims[0].1 - g.dims[0].0 + 1).max(0) as usize;
    let cols = (g.dims[1].1 - g.dims[1].0 + 1).max(0) as usize;
    let cells: Vec<String> = g
        .vars
        .iter()
        .map(|&v| OutputItem::grid_cell(model, symbols, v, values[v]))
        .collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let boxed = |i: usize| box_size.is_some_and(|b| i > 0 && i.is_multiple_of(b));
    for r in 0..rows {
        if boxed(r) {
            let mut line = String::new();
            for c in 0..cols {
                if boxed(c) {
                    line.push_str("+-");
                }
                line.push_str(&"-".repeat(width));
                if c + 1 < cols {
                    line.push('-');
                }
            }
            let _ = writeln!(out, "{line}");
        }
        let mut line = String::new();
        for c in 0..cols {
            if boxed(c) {
                line.push_str("| ");
            }
            let _ = write!(line, "{:>width$}", cells[r * cols + c]);
            if c + 1 < cols {
                line.push(' ');
            }
        }
        let _ = writeln!(out, "{line}");
    }
}

/// A filled crossword, one string per row: letters, `#` for blocks, `.` for
/// an open cell no slot covers.
pub(crate) fn crossword_rows(
    model: &Model,
    layout: &CrosswordLayout,
    values: &[i64],
) -> Vec<String> {
    let letters = layout.letters(model, values);
    (0..layout.height)
        .map(|y| {
            (0..layout.width)
                .map(|x| {
                    let c = y * layout.width + x;
                    match (layout.open[c], letters[c]) {
                        (false, _) => '#'.to_string(),
                        (true, Some(l)) => l.to_string(),
                        (true, None) => ".".to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// `quality: lowest 30, mean 47.5, 2 of 76 entries below 50: ab (30), cd (40)`.
pub(crate) fn quality_line(q: &FillQuality, below: i64) -> String {
    let mut line = format!(
        "quality: lowest {}, mean {:.1}, {} of {} entries below {below}",
        q.lowest,
        q.mean,
        q.below.len(),
        q.entries
    );
    for (i, (w, s)) in q.below.iter().enumerate() {
        line.push_str(if i == 0 { ": " } else { ", " });
        let _ = write!(line, "{w} ({s})");
    }
    line
}

/// Statistics for people, one per line; the improvements of a
/// lexicographic objective (`lex`) by their components.
pub(crate) fn stats(stats: &Stats, lex: Option<&crate::model::Objective>) -> String {
    let mut out = String::new();
    for (k, v) in stats.fields() {
        let _ = writeln!(out, "{k:>14}: {v}");
    }
    for i in &stats.improvements {
        let _ = writeln!(
            out,
            "{:>14}: {} at {} ms",
            "improvement",
            lex.map_or_else(|| i.objective.to_string(), |l| l.shown(i.objective)),
            i.time.as_millis()
        );
    }
    out
}

/// One line for the split and one per thread (`--thread-stats`).
pub(crate) fn thread_stats(
    split: Option<&crate::run::ThreadStats>,
    threads: &[crate::run::ThreadStats],
) -> String {
    let mut out = String::new();
    if let Some(s) = split {
        let _ = writeln!(
            out,
            "split: {} sub-problems in {} ms, {} nodes, {} failures",
            s.subproblems,
            s.busy.as_millis(),
            s.stats.nodes,
            s.stats.failures
        );
    }
    for (i, t) in threads.iter().enumerate() {
        let _ = writeln!(
            out,
            "thread {i}: {}, busy {} ms, {}, {}, {}",
            plural(t.subproblems, "sub-problem", "sub-problems"),
            t.busy.as_millis(),
            plural(t.stats.nodes, "node", "nodes"),
            plural(t.stats.failures, "failure", "failures"),
            count_text(t.stats.solutions)
        );
    }
    out
}

/// The human reporter.
#[derive(Default)]
pub(crate) struct Human {
    /// Instances of `--each` seen, to separate them by a blank line.
    instances: u64,
}

impl Reporter for Human {
    fn instance(&mut self, name: &str) -> String {
        self.instances += 1;
        let gap = if self.instances > 1 { "\n" } else { "" };
        format!("{gap}=== {name} ===\n")
    }

    fn solution(&mut self, model: &Model, values: &[i64], mode: Mode) -> String {
        let body = solution(model, values);
        if mode.many {
            format!("--- solution ---\n{body}")
        } else {
            body
        }
    }

    fn end(&mut self, e: &RunEnd, mode: Mode) -> String {
        let n = e.stats.solutions;
        let why = |s: Option<StoppedBy>| match s {
            Some(StoppedBy::Interrupt) => "an interrupt",
            Some(StoppedBy::TimeLimit) => "the time limit",
            Some(StoppedBy::NodeLimit) => "the node limit",
            Some(StoppedBy::MemoryLimit) => "the memory limit",
            Some(StoppedBy::Output) => "the output closing",
            Some(StoppedBy::GridBudget) => "each grid's budget",
            None => "a limit",
        };
        let mut out = match e.status {
            _ if mode.count => match e.stopped_by {
                Some(s) if e.status == Status::Unknown => format!(
                    "{} so far (UNKNOWN: stopped by {})\n",
                    count_text(n),
                    why(Some(s))
                ),
                _ if n == SATURATED => format!(
                    "{} ({}; the count does not fit 64 bits)\n",
                    count_text(n),
                    e.status.name()
                ),
                _ => format!("{} ({})\n", count_text(n), e.status.name()),
            },
            Status::Unsatisfiable => "UNSATISFIABLE\n".to_string(),
            Status::Optimal => format!("OPTIMAL: objective {}\n", e.shown_objective()),
            _ if e.objective.is_some() => format!(
                "{}: best objective {} (optimality not proved)\n",
                e.status.name(),
                e.shown_objective()
            ),
            Status::Unknown if n == 0 => {
                format!(
                    "UNKNOWN: stopped by {} before a solution\n",
                    why(e.stopped_by)
                )
            }
            Status::Unknown => format!(
                "UNKNOWN: stopped by {} after {} (search incomplete)\n",
                why(e.stopped_by),
                plural(n, "solution", "solutions")
            ),
            Status::AllSolutions if mode.many => {
                format!("{}, search complete\n", plural(n, "solution", "solutions"))
            }
            _ => String::new(),
        };
        for (label, v) in e.totals {
            let _ = writeln!(out, "total {label} = {v}");
        }
        if let Some(p) = e.part {
            let resumed = match p.resumed {
                0 => String::new(),
                n => format!(", {n} of them recorded empty by an earlier run"),
            };
            let _ = writeln!(
                out,
                "part {}: {} of {} sub-problems{resumed} (fingerprint {})",
                p.part, p.subproblems, p.total_subproblems, p.fingerprint
            );
        }
        out
    }

    fn instance_error(&mut self, message: &str) -> String {
        format!("ERROR: {message}\n")
    }

    fn tally(&mut self, t: &Tally) -> String {
        format!(
            "\n{}: {} solved, {} unsatisfiable, {} unknown, {} with errors; {:.3} s\n",
            plural(t.instances, "instance", "instances"),
            t.solved,
            t.unsatisfiable,
            t.unknown,
            t.errors,
            t.time.as_secs_f64()
        )
    }
}
