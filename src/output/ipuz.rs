//! A filled crossword as an `.ipuz` file (the open JSON crossword format,
//! ipuz.org): the grid with its clue numbers, the solution, and one empty
//! clue per entry, ready for a constructor's editor (`solve --ipuz FILE`).

use crate::formats::grid::numbered;
use crate::model::{CrosswordLayout, Model, OutputItem};
use serde_json::{Value, json};

/// The first crossword of the model's output, filled with `values`; `None`
/// when the model draws no crossword.
pub(crate) fn solution(model: &Model, values: &[i64]) -> Option<String> {
    let layout = model.output.iter().find_map(|o| match o {
        OutputItem::Crossword { layout, .. } => Some(layout),
        _ => None,
    })?;
    let text = serde_json::to_string(&document(model, layout, values)).ok()?;
    Some(text + "\n")
}

/// Whether the model draws a crossword.
pub(crate) fn drawable(model: &Model) -> bool {
    model
        .output
        .iter()
        .any(|o| matches!(o, OutputItem::Crossword { .. }))
}

fn document(model: &Model, layout: &CrosswordLayout, values: &[i64]) -> Value {
    let (w, h) = (layout.width, layout.height);
    let letters = layout.letters(model, values);
    // Clue numbers in reading order at every cell that starts an entry.
    let mut numbers = vec![0usize; w * h];
    let (mut across, mut down) = (Vec::new(), Vec::new());
    for (n, (cell, a, d)) in numbered(w, &layout.open).into_iter().enumerate() {
        numbers[cell] = n + 1;
        if a {
            across.push(json!([n + 1, ""]));
        }
        if d {
            down.push(json!([n + 1, ""]));
        }
    }
    let rows = |cell: &dyn Fn(usize) -> Value| -> Value {
        Value::Array(
            (0..h)
                .map(|y| Value::Array((0..w).map(|x| cell(y * w + x)).collect()))
                .collect(),
        )
    };
    let puzzle = rows(&|c| {
        if !layout.open[c] {
            json!("#")
        } else {
            json!(numbers[c])
        }
    });
    let solution = rows(&|c| match (layout.open[c], letters[c]) {
        (false, _) => json!("#"),
        (true, Some(l)) => json!(l.to_uppercase().to_string()),
        (true, None) => Value::Null,
    });
    json!({
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "origin": "cspi",
        "dimensions": {"width": w, "height": h},
        "block": "#",
        "empty": 0,
        "puzzle": puzzle,
        "solution": solution,
        "clues": {"Across": across, "Down": down},
    })
}
