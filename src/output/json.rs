//! JSON Lines output: one `{"type":"solution",...}` object per solution and
//! one `{"type":"summary",...}` at the end of each run; with `--each`, every
//! record carries `"instance"`, a failed instance gives `{"type":"error",...}`
//! and the last line is `{"type":"total",...}`. The solution and summary
//! records are written by hand: the hot path (a record per solution) stays a
//! single string. The records off the hot path are plain structs written by
//! serde ([`to_json`]: `--each`'s error and total here, `explain.rs`,
//! `merge.rs`, `bench.rs`), with the same escapes.

use super::{Mode, Reporter, RunEnd, Tally};
use crate::engine::stats::Stats;
use crate::model::{Model, OutputItem, Shown, VarGroup};
use std::fmt::Write;

/// `value` as one line of compact JSON (serde), strings escaped as
/// [`string`] escapes them (a backspace or form feed as `\u0008`, `\u000c`),
/// so that records written by serde and by hand read alike.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Escapes);
    // Writing into a Vec cannot fail, and the records have string keys only.
    if value.serialize(&mut ser).is_err() {
        return String::new();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's compact format with [`string`]'s escapes.
struct Escapes;

impl serde_json::ser::Formatter for Escapes {
    fn write_char_escape<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> std::io::Result<()> {
        use serde_json::ser::{CharEscape, CompactFormatter};
        match escape {
            CharEscape::Backspace => w.write_all(b"\\u0008"),
            CharEscape::FormFeed => w.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(w, other),
        }
    }
}

/// Appends `s` as a JSON string literal.
pub(crate) fn string(out: &mut String, s: &str) {
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
    super::nested::nested_named(out, &g.dims, &g.index_enums, true, ",", &mut |o, k| {
        match &g.set {
            // A set: its values as a sorted array.
            Some(layout) => {
                o.push('[');
                for (i, e) in layout
                    .members(g.item_vars(k), values)
                    .into_iter()
                    .enumerate()
                {
                    if i > 0 {
                        o.push(',');
                    }
                    match layout.shown(e) {
                        Shown::Text(t) => string(o, &t),
                        shown => {
                            let _ = write!(o, "{shown}");
                        }
                    }
                }
                o.push(']');
            }
            None => value(o, model, g.vars[k], values),
        }
    });
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
pub fn solution(model: &Model, values: &[i64], instance: Option<&str>) -> String {
    let mut out = String::from("{\"type\":\"solution\"");
    tag(&mut out, instance);
    out.push_str(",\"values\":{");
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
            OutputItem::Quality {
                name,
                layout,
                below,
            } => {
                key(&mut out, &mut first, &format!("{name}_quality"));
                if let Some(q) = crate::model::FillQuality::of(model, layout, values, *below) {
                    let _ = write!(
                        out,
                        "{{\"lowest\":{},\"mean\":{:.3},\"below\":[",
                        q.lowest, q.mean
                    );
                    for (i, (w, s)) in q.below.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push('[');
                        string(&mut out, w);
                        let _ = write!(out, ",{s}]");
                    }
                    out.push_str("]}");
                } else {
                    // The word list has no scores.
                    out.push_str("null");
                }
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
            OutputItem::Grid {
                name,
                group,
                symbols: Some(symbols),
                ..
            } => {
                // The values are the group `name`; the rows as typed come too.
                key(&mut out, &mut first, &format!("{name}_grid"));
                out.push('[');
                let cols = (group.dims[1].1 - group.dims[1].0 + 1).max(1) as usize;
                for (i, row) in group.vars.chunks(cols).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let text: String = row
                        .iter()
                        .map(|&v| OutputItem::grid_cell(model, Some(symbols), v, values[v]))
                        .collect();
                    string(&mut out, &text);
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
        let _ = write!(out, ",\"objective\":{v}{}", o.json_components(v));
    }
    out.push('}');
    out
}

/// The summary of a run (status, solution count, objective, totals, why
/// an incomplete search stopped, statistics) after `records` solution records: a part's summary says how
/// many it wrote (`"records"`), so that `cspi merge` can tell a part file
/// that lost or gained solution lines.
pub(crate) fn summary_of_records(e: &RunEnd, instance: Option<&str>, records: u64) -> String {
    let mut out = String::from("{\"type\":\"summary\"");
    tag(&mut out, instance);
    out.push_str(",\"status\":");
    string(&mut out, e.status.name());
    let _ = write!(out, ",\"solutions\":{}", e.stats.solutions);
    if e.stats.solutions == crate::engine::stats::SATURATED {
        // "solutions" is a lower bound: the count does not fit 64 bits.
        out.push_str(",\"solutions_at_least\":true");
    }
    if let Some(o) = e.objective {
        let lex = e.lex.map(|l| l.json_components(o)).unwrap_or_default();
        let _ = write!(out, ",\"objective\":{o}{lex}");
    }
    if let Some(s) = e.stopped_by {
        out.push_str(",\"stopped_by\":");
        string(&mut out, s.name());
    }
    if !e.totals.is_empty() {
        out.push_str(",\"totals\":{");
        for (i, (label, v)) in e.totals.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            string(&mut out, label);
            let _ = write!(out, ":{v}");
        }
        out.push('}');
    }
    if let Some(p) = e.part {
        let _ = write!(out, ",\"part\":{{\"k\":{},\"n\":{}", p.part.k, p.part.n);
        // Sub-parts nest as objects: `"sub":{"k":J,"n":M,"sub":{...}}`.
        let subs = p.part.subs();
        for sub in subs {
            let _ = write!(out, ",\"sub\":{{\"k\":{},\"n\":{}", sub.k, sub.n);
            if sub.even {
                out.push_str(",\"even\":true");
            }
        }
        out.push_str(&"}".repeat(subs.len()));
        let _ = write!(
            out,
            ",\"fingerprint\":\"{}\",\"subproblems\":{},\"of\":{}",
            p.fingerprint, p.subproblems, p.total_subproblems
        );
        if let Some(sense) = p.sense {
            let _ = write!(out, ",\"sense\":\"{sense}\"");
        }
        if p.resumed > 0 {
            let _ = write!(out, ",\"resumed\":{}", p.resumed);
        }
        let _ = write!(out, ",\"records\":{records}");
        out.push('}');
    }
    out.push_str(",\"stats\":");
    stats(&mut out, e.stats, e.lex);
    if let Some(s) = e.split {
        let _ = write!(
            out,
            ",\"split\":{{\"subproblems\":{},\"busy_ms\":{},\"stats\":",
            s.subproblems,
            s.busy.as_millis()
        );
        stats(&mut out, &s.stats, e.lex);
        out.push('}');
    }
    if !e.threads.is_empty() {
        out.push_str(",\"threads\":[");
        for (i, t) in e.threads.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"thread\":{i},\"subproblems\":{},\"busy_ms\":{},\"stats\":",
                t.subproblems,
                t.busy.as_millis()
            );
            stats(&mut out, &t.stats, e.lex);
            out.push('}');
        }
        out.push(']');
    }
    out.push('}');
    out
}

/// The statistics as an object, names from `Stats::fields`; the
/// improvements of a lexicographic objective (`lex`) with their components.
pub(crate) fn stats(out: &mut String, stats: &Stats, lex: Option<&crate::model::Objective>) {
    out.push('{');
    for (i, (k, v)) in stats.fields().into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{k}\":{v}");
    }
    if !stats.improvements.is_empty() {
        out.push_str(",\"improvements\":[");
        for (i, imp) in stats.improvements.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"objective\":{}{},\"time_ms\":{}}}",
                imp.objective,
                lex.map(|l| l.json_components(imp.objective))
                    .unwrap_or_default(),
                imp.time.as_millis()
            );
        }
        out.push(']');
    }
    out.push('}');
}

/// `,"instance":"name"` when the record belongs to an instance of `--each`.
fn tag(out: &mut String, instance: Option<&str>) {
    if let Some(name) = instance {
        out.push_str(",\"instance\":");
        string(out, name);
    }
}

/// The JSON Lines reporter.
#[derive(Default)]
pub(crate) struct JsonLines {
    /// The instance of `--each` being reported, if any.
    instance: Option<String>,
    /// Solution records written since the last summary.
    records: u64,
}

impl Reporter for JsonLines {
    fn instance(&mut self, name: &str) -> String {
        self.instance = Some(name.to_string());
        String::new()
    }

    fn solution(&mut self, model: &Model, values: &[i64], mode: Mode) -> String {
        self.records += 1;
        let mut record = solution(model, values, self.instance.as_deref());
        if mode.text {
            // The values stay as they are; the printed text is one more member.
            record.pop();
            record.push_str(",\"text\":");
            string(&mut record, &super::human::text(model, values));
            record.push('}');
        }
        record + "\n"
    }

    fn end(&mut self, e: &RunEnd, _mode: Mode) -> String {
        let records = std::mem::take(&mut self.records);
        summary_of_records(e, self.instance.as_deref(), records) + "\n"
    }

    fn instance_error(&mut self, message: &str) -> String {
        to_json(&ErrorRecord {
            kind: "error",
            instance: self.instance.as_deref(),
            message,
        }) + "\n"
    }

    fn tally(&mut self, t: &Tally) -> String {
        to_json(&TotalRecord {
            kind: "total",
            instances: t.instances,
            solved: t.solved,
            unsatisfiable: t.unsatisfiable,
            unknown: t.unknown,
            errors: t.errors,
            time_ms: t.time.as_millis(),
        }) + "\n"
    }
}

/// `{"type":"error",...}`: an instance of `--each` whose data or model was wrong.
#[derive(serde::Serialize)]
struct ErrorRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance: Option<&'a str>,
    message: &'a str,
}

/// `{"type":"total",...}`: the last line of `--each`, the instances counted by status.
#[derive(serde::Serialize)]
struct TotalRecord {
    #[serde(rename = "type")]
    kind: &'static str,
    instances: u64,
    solved: u64,
    unsatisfiable: u64,
    unknown: u64,
    errors: u64,
    /// Whole milliseconds, as the summaries' `time_ms` of `--each` always were.
    time_ms: u128,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_escapes_strings_as_string_does() {
        let text: String = (0u8..0x30)
            .map(char::from)
            .chain("é\u{2028}\"\\".chars())
            .collect();
        let mut by_hand = String::new();
        string(&mut by_hand, &text);
        assert_eq!(to_json(&text), by_hand);
    }

    #[test]
    fn each_s_error_and_total_records_byte_for_byte() {
        let mut r = JsonLines::default();
        assert_eq!(
            r.instance_error("bad \"x\"\n"),
            "{\"type\":\"error\",\"message\":\"bad \\\"x\\\"\\n\"}\n"
        );
        r.instance("a\\b.json");
        assert_eq!(
            r.instance_error("no"),
            "{\"type\":\"error\",\"instance\":\"a\\\\b.json\",\"message\":\"no\"}\n"
        );
        let t = Tally {
            instances: 5,
            solved: 2,
            unsatisfiable: 1,
            unknown: 1,
            errors: 1,
            time: std::time::Duration::from_micros(12_345_678),
        };
        assert_eq!(
            r.tally(&t),
            "{\"type\":\"total\",\"instances\":5,\"solved\":2,\"unsatisfiable\":1,\"unknown\":1,\"errors\":1,\"time_ms\":12345}\n"
        );
    }
}
