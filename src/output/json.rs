//! JSON Lines output: one `{"type":"solution",...}` object per solution and
//! one `{"type":"summary",...}` at the end. Written by hand: the shapes are
//! small and fixed.

use crate::engine::stats::Stats;
use crate::model::{Model, OutputItem, Shown, VarGroup};
use crate::solve::Status;
use std::fmt::Write;

/// Appends `s` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn value(out: &mut String, model: &Model, var: usize, values: &[i64]) {
    match model.shown(var, values[var]) {
        Shown::Int(k) => {
            let _ = write!(out, "{k}");
        }
        Shown::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Shown::Text(t) => string(out, &t),
    }
}

/// A group's values as a number, a string, or nested arrays by dimension
/// (an object keyed by name for a dimension indexed by an enum).
fn group(out: &mut String, model: &Model, g: &VarGroup, values: &[i64]) {
    fn nest(
        out: &mut String,
        model: &Model,
        g: &VarGroup,
        values: &[i64],
        dim: usize,
        at: &mut usize,
    ) {
        if dim == g.dims.len() {
            value(out, model, g.vars[*at], values);
            *at += 1;
            return;
        }
        let (lo, hi) = g.dims[dim];
        let names = g.index_enum(dim);
        out.push(if names.is_some() { '{' } else { '[' });
        for i in lo..=hi {
            if i > lo {
                out.push(',');
            }
            if let Some(e) = names {
                string(out, &e.member(i));
                out.push(':');
            }
            nest(out, model, g, values, dim + 1, at);
        }
        out.push(if names.is_some() { '}' } else { ']' });
    }
    nest(out, model, g, values, 0, &mut 0);
}

/// Starts the next `"key":` of an object whose first member is pending in `first`.
fn key(out: &mut String, first: &mut bool, name: &str) {
    if !std::mem::take(first) {
        out.push(',');
    }
    string(out, name);
    out.push(':');
}

/// `{"type":"solution","values":{...}}`: every declared variable by name, and
/// the model's named output expressions; with an objective, `"objective"`.
pub fn solution(model: &Model, values: &[i64]) -> String {
    let mut out = String::from("{\"type\":\"solution\",\"values\":{");
    let mut first = true;
    for (name, g) in &model.groups {
        key(&mut out, &mut first, name);
        group(&mut out, model, g, values);
    }
    for item in &model.output {
        match item {
            OutputItem::Spell {
                label,
                group,
                symbols,
            } if !model.groups.contains_key(label) => {
                key(&mut out, &mut first, label);
                string(&mut out, &OutputItem::spell(group, symbols, values));
            }
            OutputItem::Crossword { name, layout } => {
                // The slots' words are the group `name`; the drawn grid comes too.
                key(&mut out, &mut first, &format!("{name}_grid"));
                out.push('[');
                for (i, row) in super::human::crossword_rows(model, layout, values)
                    .iter()
                    .enumerate()
                {
                    if i > 0 {
                        out.push(',');
                    }
                    string(&mut out, &row.replace(' ', ""));
                }
                out.push(']');
            }
            OutputItem::Value { label, term } if !model.groups.contains_key(label) => {
                key(&mut out, &mut first, label);
                match term.eval(model, values) {
                    Some(v) => {
                        let _ = write!(out, "{v}");
                    }
                    None => out.push_str("null"),
                }
            }
            _ => {}
        }
    }
    out.push('}');
    if let Some(o) = &model.objective
        && let Some(v) = o.term.eval(model, values)
    {
        let _ = write!(out, ",\"objective\":{v}");
    }
    out.push('}');
    out
}

pub fn summary(status: Status, stats: &Stats, objective: Option<i64>) -> String {
    summary_with_totals(status, stats, objective, &[])
}

/// The summary with the model's `total(...)` outputs: `"totals":{"label":sum}`.
pub fn summary_with_totals(
    status: Status,
    stats: &Stats,
    objective: Option<i64>,
    totals: &[(String, i64)],
) -> String {
    let mut out = String::from("{\"type\":\"summary\",\"status\":");
    string(&mut out, status.name());
    let _ = write!(out, ",\"solutions\":{}", stats.solutions);
    if let Some(o) = objective {
        let _ = write!(out, ",\"objective\":{o}");
    }
    if !totals.is_empty() {
        out.push_str(",\"totals\":{");
        for (i, (label, v)) in totals.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(&mut out, label);
            let _ = write!(out, ":{v}");
        }
        out.push('}');
    }
    out.push_str(",\"stats\":{");
    for (i, (k, v)) in stats.fields().into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{k}\":{v}");
    }
    out.push_str("}}");
    out
}
