//! A crossword's cells and entries as text, as the fillability map, the
//! map of where a search failed and `cspi explain`'s conflict draw them,
//! and the maps as SVG pictures.

use super::svg::{CELL, Canvas, MARGIN, crossword_grid};
use crate::model::{CrosswordLayout, CrosswordSlot, Model};
use std::fmt::Write;

/// The grid, a character a cell separated by spaces, a line a row: `#` for
/// a block, `cell(c)` for open cell `c` (row-major).
pub(crate) fn draw(layout: &CrosswordLayout, cell: impl Fn(usize) -> char) -> String {
    let mut out = String::new();
    for y in 0..layout.height {
        let row: Vec<String> = (0..layout.width)
            .map(|x| {
                let c = y * layout.width + x;
                if layout.open[c] { cell(c) } else { '#' }.to_string()
            })
            .collect();
        let _ = writeln!(out, "{}", row.join(" "));
    }
    out
}

/// `label: xw[2] (5 down, row 1, column 1) 23; ...`, each entry with its
/// place and what is said of it (nothing when empty), then a newline.
pub(crate) fn entries(model: &Model, label: &str, list: &[(&CrosswordSlot, String)]) -> String {
    let items: Vec<String> = list
        .iter()
        .map(|(s, what)| {
            let mut item = format!("{} ({})", model.vars[s.var].name, s.place());
            if !what.is_empty() {
                item = format!("{item} {what}");
            }
            item
        })
        .collect();
    format!("{label}: {}\n", items.join("; "))
}

/// The grid as an SVG picture (`<g class="{class}">`): blocks dark, open
/// cell `c` filled with colour `fill(c)` and labelled `label(c)`.
pub(crate) fn picture(
    layout: &CrosswordLayout,
    class: &str,
    fill: impl Fn(usize) -> String,
    label: impl Fn(usize) -> String,
) -> String {
    let mut c = Canvas::new();
    let (w, h) = crossword_grid(
        &mut c,
        (MARGIN, MARGIN),
        layout,
        class,
        fill,
        |c, k, (px, py)| {
            c.text(
                (px + CELL / 2.0, py + CELL * 0.56),
                CELL * 0.3,
                r##"fill="#111111""##,
                &label(k),
            );
        },
    );
    c.fit(w + 2.0 * MARGIN, h + 2.0 * MARGIN);
    c.finish()
}
