//! What the command line prints about a crossword and about a conflict, for
//! callers other than the command line (the Python package): the same text,
//! JSON and pictures, from the library's answers, so that the two faces of
//! cspi cannot drift apart.

use crate::model::{CrosswordSlot, Model, Shown, VarId};
use crate::run::Suggestions;
use crate::run::{Explanation, FailedMap};
use crate::source::Source;
use std::fmt::Write;

/// A filled crossword as an `.ipuz` file, as `cspi solve --ipuz` writes
/// it; `None` when the model draws no crossword.
pub fn ipuz(model: &Model, values: &[i64]) -> Option<String> {
    super::ipuz::solution(model, values)
}

/// A filled crossword as an Across Lite `.puz` file, as `cspi solve --puz`
/// writes it; `None` when the model draws no crossword, `Some(Err(why))`
/// when the format cannot hold it.
pub fn puz(model: &Model, values: &[i64]) -> Option<Result<Vec<u8>, String>> {
    super::puz::solution(model, values)
}

/// The answer of [`crate::explain::explain`] as `cspi explain` prints it
/// when not on a terminal: the conflict as a diagnostic pointing into
/// `source` (and drawn on a crossword's grid), or the one line of another
/// answer.
pub fn explanation_text(model: &Model, source: &Source, answer: &Explanation) -> String {
    match super::explain::human(model, source, answer) {
        Ok(d) => crate::diag::render_plain(&d) + &super::explain::crossword_pictures(model, answer),
        Err(line) => line.to_string(),
    }
}

/// The same answer as `cspi explain --format json` gives it (one line).
pub fn explanation_json(model: &Model, source: &Source, answer: &Explanation) -> String {
    super::explain::json(model, source, answer)
}

/// A crossword's map of where a search failed, from a run's
/// `Stats::blame` (as `cspi solve` shows it when a limit stops the search
/// before a fill).
pub struct Stuck {
    /// The map and the five entries blamed most, as text.
    pub text: String,
    /// The `failed` JSON record (shares per cell, every entry blamed, most first).
    pub json: String,
    /// The map as an SVG picture.
    pub svg: String,
}

/// The map of the model's first crossword; `None` without a crossword or
/// when no failure touched its entries.
pub fn stuck(model: &Model, blame: &[f64]) -> Option<Stuck> {
    let (name, layout) = model.crosswords.first()?;
    let map = FailedMap::of(model, name, layout, blame)?;
    Some(Stuck {
        text: map.text(5),
        json: map.json(),
        svg: map.svg(layout),
    })
}

/// The fillability map of the model's first crossword from the values
/// each variable keeps after propagation at the root
/// ([`crate::suggest::Suggestions::sizes`]): text and SVG, as `cspi solve
/// --fillability` and `--fillability-svg` give them; `None` without a
/// crossword.
pub fn fillability(model: &Model, sizes: &[u64]) -> Option<(String, String)> {
    let (_, layout) = model.crosswords.first()?;
    Some((
        super::fillability::text(model, layout, sizes, 5),
        super::fillability::svg(layout, sizes),
    ))
}

/// What [`crate::suggest::suggest`] found for variable `var`, as `cspi solve
/// --suggest` prints it: the slot's place on its grid, then each candidate
/// with its score and exact count.
pub fn suggestions_text(model: &Model, var: VarId, s: &Suggestions) -> String {
    let mut out = model.vars[var].name.clone();
    if let Some(slot) = slot_of(model, var) {
        let _ = write!(out, " ({})", slot.place());
    }
    if s.stopped {
        out.push_str(": UNKNOWN, a limit stopped the run before the model was propagated\n");
        return out;
    }
    let _ = writeln!(
        out,
        ": {} left after propagation; {}:",
        super::plural(s.left, "value", "values"),
        if s.candidates.len() as u64 == s.left {
            "each with its exact number of solutions".to_string()
        } else {
            format!(
                "the {} best-scored, each with its exact number of solutions",
                s.candidates.len()
            )
        }
    );
    let words: Vec<String> = s
        .candidates
        .iter()
        .map(|c| model.format_value(var, c.value))
        .collect();
    let width = words.iter().map(|w| w.chars().count()).max().unwrap_or(0);
    for (c, w) in s.candidates.iter().zip(&words) {
        let score = c.score.map_or(String::new(), |s| format!("  score {s:>3}"));
        let count = match c.count {
            Some(0) => "0 (no solution: the rest cannot be filled)".to_string(),
            Some(u64::MAX) => "more than 18446744073709551614".to_string(),
            Some(n) => n.to_string(),
            None => "not counted: a limit stopped the count".to_string(),
        };
        let _ = writeln!(out, "  {w:<width$}{score}  {count}");
    }
    out
}

/// `{"type":"suggestions",...}`: the candidates of one variable as a record
/// (`--format json`).
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "suggestions")]
struct SuggestionsRecord {
    var: String,
    /// The crossword entry the variable fills, if it fills one.
    #[serde(skip_serializing_if = "Option::is_none")]
    entry: Option<EntryPlace>,
    left: u64,
    candidates: Vec<CandidateRecord>,
    /// A limit stopped the run before the model was propagated.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stopped: bool,
}

/// Where a crossword entry is, as the JSON records write it (from 1).
#[derive(serde::Serialize)]
pub(crate) struct EntryPlace {
    row: usize,
    column: usize,
    length: usize,
    across: bool,
}

impl EntryPlace {
    pub(crate) fn of(slot: &CrosswordSlot) -> Self {
        EntryPlace {
            row: slot.y + 1,
            column: slot.x + 1,
            length: slot.len,
            across: slot.across,
        }
    }
}

/// The crossword entry `var` fills, if it fills one.
fn slot_of(model: &Model, var: VarId) -> Option<&CrosswordSlot> {
    model
        .crosswords
        .iter()
        .find_map(|(_, l)| l.slots.iter().find(|s| s.var == var))
}

#[derive(serde::Serialize)]
struct CandidateRecord {
    /// The value as the output writes it: the word, for a word variable.
    value: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i64>,
    /// `null` when a limit stopped the count.
    count: Option<u64>,
    /// The count reached 2^64 - 1, so it is at least that.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    at_least: bool,
}

/// The suggestions as one JSON line (`--format json`).
pub fn suggestions_json(model: &Model, var: VarId, s: &Suggestions) -> String {
    let record = SuggestionsRecord {
        var: model.vars[var].name.clone(),
        entry: slot_of(model, var).map(EntryPlace::of),
        left: s.left,
        candidates: s
            .candidates
            .iter()
            .map(|c| CandidateRecord {
                value: match model.shown(var, c.value) {
                    Shown::Int(k) => k.into(),
                    Shown::Bool(b) => b.into(),
                    Shown::Text(t) => t.into(),
                },
                score: c.score,
                count: c.count,
                at_least: c.count == Some(u64::MAX),
            })
            .collect(),
        stopped: s.stopped,
    };
    let mut line = serde_json::to_string(&record).unwrap_or_default();
    line.push('\n');
    line
}

/// A grid `cspi solve --try-blocks` searched, as it prints it for people
/// (one line: its new blocks, how its search ended).
pub fn tried_line(model: &Model, tried: &crate::run::Tried) -> String {
    super::blocks::line(model, tried)
}

/// The model's first crossword as a picture file writes it (`#` a block,
/// `.` an open cell, a given letter, `*` a cell of a marked region): the
/// grid `--try-blocks` opened, to save.
pub fn grid_picture(model: &Model) -> Option<String> {
    let (_, layout) = model.crosswords.first()?;
    Some(super::blocks::picture(layout))
}
