//! Where the search of a crossword it could not fill failed (`solve`, when
//! a limit stops it before a fill): each cell's share of the failures of its
//! entries, from [`crate::engine::stats::Stats::blame`], and the entries
//! blamed most. It tells a constructor which corner to open up.

use crate::model::{CrosswordLayout, CrosswordSlot, Model};
use serde::Serialize;

/// The blame of a crossword's cells and entries, as shares of all failures.
struct Blame<'a> {
    /// Per cell, row-major: the blame of the entries through it.
    cells: Vec<f64>,
    /// The entries blamed at all, most first, with their blame.
    entries: Vec<(&'a CrosswordSlot, f64)>,
    total: f64,
    /// The blame of the most blamed cell.
    top: f64,
}

impl<'a> Blame<'a> {
    /// `None` when no failure touched the grid's entries.
    fn of(layout: &'a CrosswordLayout, blame: &[f64]) -> Option<Self> {
        let of = |v: usize| blame.get(v).copied().unwrap_or(0.0);
        let total: f64 = blame.iter().sum();
        let mut cells = vec![0.0f64; layout.width * layout.height];
        for s in &layout.slots {
            for i in 0..s.len {
                cells[s.cell(i, layout.width)] += of(s.var);
            }
        }
        let mut entries: Vec<_> = layout
            .slots
            .iter()
            .map(|s| (s, of(s.var)))
            .filter(|e| e.1 > 0.0)
            .collect();
        entries.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.var.cmp(&b.0.var)));
        let top = cells.iter().copied().fold(0.0, f64::max);
        (total > 0.0 && !entries.is_empty()).then_some(Blame {
            cells,
            entries,
            total,
            top,
        })
    }

    /// The `worst` entries blamed most.
    fn most(&self, worst: usize) -> &[(&'a CrosswordSlot, f64)] {
        &self.entries[..worst.min(self.entries.len())]
    }

    /// Cell `c`'s blame against the most blamed cell's, 0 to 1.
    fn heat(&self, c: usize) -> f64 {
        (self.cells[c] / self.top).clamp(0.0, 1.0)
    }
}

/// The map and the `worst` entries blamed most; `None` when no failure
/// touched the grid's entries.
pub(crate) fn text(
    model: &Model,
    layout: &CrosswordLayout,
    blame: &[f64],
    worst: usize,
) -> Option<String> {
    let b = Blame::of(layout, blame)?;
    let mut out = String::from(
        "where the search failed: each cell shows its entries' share of the failures, 0 to 9 (9: the most)\n",
    );
    out += &super::grid_text::draw(layout, |c| digit(b.heat(c)));
    let list: Vec<_> = b
        .most(worst)
        .iter()
        .map(|&(s, x)| (s, format!("{:.0}%", 100.0 * x / b.total)))
        .collect();
    out += &super::grid_text::entries(model, "failed most", &list);
    Some(out)
}

/// The map as an SVG picture: each open cell from white (no blame) to red
/// (the most), with its digit of the text map; `None` as for [`text`].
pub(crate) fn svg(layout: &CrosswordLayout, blame: &[f64]) -> Option<String> {
    let b = Blame::of(layout, blame)?;
    let heat = |c: usize| {
        // White to #d73027 (the fillability map's red).
        let t = b.heat(c);
        let mix = |to: f64| (255.0 - (255.0 - to) * t).round() as u8;
        format!("#{:02x}{:02x}{:02x}", mix(215.0), mix(48.0), mix(39.0))
    };
    let label = |c: usize| digit(b.heat(c)).to_string();
    Some(super::grid_text::picture(layout, "failed", heat, label))
}

/// `{"type":"failed",...}`: the grid's name, each cell's share of the
/// failures (`null` for a block) and the `worst` entries blamed most.
#[derive(Serialize)]
struct Json<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    grid: &'a str,
    cells: Vec<Vec<Option<f64>>>,
    entries: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    row: usize,
    column: usize,
    length: usize,
    across: bool,
    share: f64,
}

/// The same as one JSON line; `None` when no failure touched the grid.
pub(crate) fn json(
    model: &Model,
    name: &str,
    layout: &CrosswordLayout,
    blame: &[f64],
    worst: usize,
) -> Option<String> {
    let b = Blame::of(layout, blame)?;
    let share = |x: f64| (x / b.total * 1e4).round() / 1e4;
    let record = Json {
        kind: "failed",
        grid: name,
        cells: (0..layout.height)
            .map(|y| {
                (0..layout.width)
                    .map(|x| {
                        let c = y * layout.width + x;
                        layout.open[c].then(|| share(b.cells[c]))
                    })
                    .collect()
            })
            .collect(),
        entries: b
            .most(worst)
            .iter()
            .map(|&(s, x)| Entry {
                name: &model.vars[s.var].name,
                row: s.y + 1,
                column: s.x + 1,
                length: s.len,
                across: s.across,
                share: share(x),
            })
            .collect(),
    };
    Some(super::json::to_json(&record) + "\n")
}

/// `0` to `9` for a share `t` of the most, rounded.
fn digit(t: f64) -> char {
    char::from_digit((t * 9.0).round().clamp(0.0, 9.0) as u32, 10).unwrap_or('9')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CrosswordSlot, Variable};

    /// A 2×3 grid, `.##` over `...`: a 2-letter down entry in column 1 and
    /// a 3-letter across entry in row 2.
    fn corner() -> (Model, CrosswordLayout) {
        let mut model = Model::default();
        for name in ["xw[1]", "xw[2]"] {
            model.add_var(Variable {
                name: name.into(),
                domain: crate::model::Domain::Range(0, 9),
                kind: crate::model::VarKind::Int,
                aux: false,
                span: crate::source::Span::new(0, 0),
            });
        }
        let slot = |var, x, y, len, across| CrosswordSlot {
            var,
            x,
            y,
            len,
            across,
        };
        let layout = CrosswordLayout {
            width: 3,
            height: 2,
            open: vec![true, false, false, true, true, true],
            given: vec![None; 6],
            region: vec![true; 6],
            slots: vec![slot(0, 0, 0, 2, false), slot(1, 0, 1, 3, true)],
        };
        (model, layout)
    }

    #[test]
    fn cells_show_their_entries_share_and_the_most_blamed_come_first() {
        let (model, layout) = corner();
        // The down entry failed three times as often as the across one; a
        // third variable outside the grid took the rest of the blame.
        let shown = text(&model, &layout, &[3.0, 1.0, 4.0], 5).unwrap();
        let lines: Vec<&str> = shown.lines().collect();
        // The crossing cell has both (4 of 4: 9), the down one 3 of 4, the
        // across ones 1 of 4.
        assert_eq!(lines[1], "7 # #");
        assert_eq!(lines[2], "9 2 2");
        assert_eq!(
            lines[3],
            "failed most: xw[1] (2 down, row 1, column 1) 38%; xw[2] (3 across, row 2, column 1) 12%"
        );
        assert!(text(&model, &layout, &[0.0, 0.0, 2.0], 5).is_none());
        assert_eq!(
            json(&model, "xw", &layout, &[3.0, 1.0, 4.0], 1).unwrap(),
            "{\"type\":\"failed\",\"grid\":\"xw\",\"cells\":[[0.375,null,null],[0.5,0.125,0.125]],\
             \"entries\":[{\"name\":\"xw[1]\",\"row\":1,\"column\":1,\"length\":2,\"across\":false,\"share\":0.375}]}\n"
        );
        assert!(json(&model, "xw", &layout, &[], 1).is_none());
        // The picture: the most blamed cell red, the least a light red, the
        // digits of the text map.
        let picture = svg(&layout, &[3.0, 1.0, 4.0]).unwrap();
        assert!(picture.contains("class=\"failed\""));
        assert!(picture.contains("fill=\"#d73027\""), "{picture}");
        assert!(picture.contains("fill=\"#f5cbc9\""), "{picture}");
        for d in ["9", "7", "2"] {
            assert!(picture.contains(&format!(">{d}</text>")), "{picture}");
        }
        assert!(text(&model, &layout, &[], 5).is_none());
    }
}
