//! A filled crossword as an Across Lite `.puz` file (`solve --puz FILE`):
//! the grid, the solution and an empty clue per entry, with the checksums
//! Across Lite checks (`formats::puz`), for the crossword apps that read
//! no other format.

use crate::model::{Model, OutputItem};

/// The first crossword of the model's output, filled with `values`; `None`
/// when the model draws no crossword, `Some(Err(why))` when the format
/// cannot hold it.
pub(crate) fn solution(model: &Model, values: &[i64]) -> Option<Result<Vec<u8>, String>> {
    let layout = model.output.iter().find_map(|o| match o {
        OutputItem::Crossword { layout, .. } => Some(layout),
        _ => None,
    })?;
    let letters = layout.letters(model, values);
    let cells: Vec<Option<Option<char>>> = layout
        .open
        .iter()
        .zip(letters)
        .map(|(&open, l)| open.then_some(l))
        .collect();
    Some(crate::formats::puz::file(layout.width, &cells))
}
