//! The fillability map of a crossword (`solve --fillability`): for each
//! open cell, the fewest words its entries keep after propagation, as text
//! (one digit a cell: the number of decimal digits of that count, `0` for
//! none) and as an SVG picture (cells shaded from red, few, to green, many).

use super::report::EntryPlace;
use crate::model::{CrosswordLayout, Model};

/// The fewest values among the slots through each cell (`None`: a block or
/// a cell no slot covers); `sizes` holds every variable's domain size.
pub(crate) fn cell_counts(layout: &CrosswordLayout, sizes: &[u64]) -> Vec<Option<u64>> {
    let mut cells = vec![None; layout.width * layout.height];
    for s in &layout.slots {
        for i in 0..s.len {
            let c = s.cell(i, layout.width);
            let n = sizes[s.var];
            cells[c] = Some(cells[c].map_or(n, |m: u64| m.min(n)));
        }
    }
    cells
}

/// `0` for no word, else the number of decimal digits of `n` (9 at most).
fn digit(n: u64) -> char {
    let d = if n == 0 { 0 } else { n.ilog10() + 1 };
    char::from_digit(d.min(9), 10).unwrap_or('9')
}

/// The map as text, then the `worst` slots with the fewest words.
pub(crate) fn text(model: &Model, layout: &CrosswordLayout, sizes: &[u64], worst: usize) -> String {
    let cells = cell_counts(layout, sizes);
    let mut out = String::from(
        "fillability: each cell shows how many digits the word count of its tightest entry has (0: no word fits)\n",
    );
    out += &super::grid_text::draw(layout, |c| match (layout.given[c], cells[c]) {
        (Some(l), _) => l,
        (None, Some(n)) => digit(n),
        (None, None) => '.',
    });
    let mut slots: Vec<_> = layout.slots.iter().filter(|s| sizes[s.var] > 1).collect();
    slots.sort_by_key(|s| (sizes[s.var], s.var));
    if !slots.is_empty() {
        let list: Vec<_> = slots
            .iter()
            .take(worst)
            .map(|&s| (s, sizes[s.var].to_string()))
            .collect();
        out += &super::grid_text::entries(model, "fewest words", &list);
    }
    out
}

/// `{"type":"fillability",...}`: the map as a record (`--format json`).
#[derive(serde::Serialize)]
#[serde(tag = "type", rename = "fillability")]
struct Record {
    grid: String,
    /// Per cell, row-major: the fewest words of its entries (`null` for a
    /// block or a cell no entry covers).
    cells: Vec<Vec<Option<u64>>>,
    /// Every entry with the words it keeps, fewest first.
    entries: Vec<EntryWords>,
}

#[derive(serde::Serialize)]
struct EntryWords {
    name: String,
    #[serde(flatten)]
    place: EntryPlace,
    words: u64,
}

/// The map as one JSON line (`--format json`), for crossword `grid`.
pub(crate) fn json(model: &Model, grid: &str, layout: &CrosswordLayout, sizes: &[u64]) -> String {
    let cells = cell_counts(layout, sizes);
    let mut slots: Vec<_> = layout.slots.iter().collect();
    slots.sort_by_key(|s| (sizes[s.var], s.var));
    let record = Record {
        grid: grid.to_string(),
        cells: cells
            .chunks(layout.width.max(1))
            .map(<[_]>::to_vec)
            .collect(),
        entries: slots
            .iter()
            .map(|s| EntryWords {
                name: model.vars[s.var].name.clone(),
                place: EntryPlace::of(s),
                words: sizes[s.var],
            })
            .collect(),
    };
    let mut line = serde_json::to_string(&record).unwrap_or_default();
    line.push('\n');
    line
}

/// The map as an SVG picture: each open cell shaded by its count (red for
/// none or few, green for many) with the count written in it.
pub(crate) fn svg(layout: &CrosswordLayout, sizes: &[u64]) -> String {
    let cells = cell_counts(layout, sizes);
    super::grid_text::picture(
        layout,
        "fillability",
        |k| match cells[k] {
            None => "#ffffff".to_string(),
            Some(n) => shade(n),
        },
        |k| match (layout.given[k], cells[k]) {
            (Some(l), _) => l.to_uppercase().to_string(),
            (None, Some(n)) => short(n),
            (None, None) => String::new(),
        },
    )
}

/// Red (no word) through yellow to green (a million words or more).
fn shade(n: u64) -> String {
    if n == 0 {
        return "#d73027".into();
    }
    let t = ((n as f64).log10() / 6.0).clamp(0.0, 1.0);
    let (r, g) = if t < 0.5 {
        (255.0, 120.0 + 270.0 * t)
    } else {
        (255.0 - 300.0 * (t - 0.5), 255.0)
    };
    format!("#{:02x}{:02x}70", r as u8, g.min(255.0) as u8)
}

/// `42`, `3.1k`, `12k`, `1.2M`.
fn short(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => format!("{:.1}k", n as f64 / 1e3),
        10_000..=999_999 => format!("{}k", n / 1_000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_short_counts() {
        assert_eq!(
            (digit(0), digit(1), digit(9), digit(10), digit(123_456)),
            ('0', '1', '1', '2', '6')
        );
        assert_eq!(
            (short(7), short(3_140), short(45_000), short(2_500_000)),
            ("7".into(), "3.1k".into(), "45k".into(), "2.5M".into())
        );
        assert_eq!(shade(0), "#d73027");
    }
}
