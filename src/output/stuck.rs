//! Where the search of a crossword it could not fill failed (`solve`, when
//! a limit stops it before a fill): each cell's share of the failures of its
//! entries, from [`crate::engine::stats::Stats::blame`], and the entries
//! blamed most. It tells a constructor which corner to open up.

use crate::model::{CrosswordLayout, CrosswordSlot, Model};
use crate::run::{FailedEntry as Entry, FailedMap as Map};

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
    Some(Map::of(model, "", layout, blame)?.text(worst))
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

impl Map {
    /// The map of crossword `name` from a run's blame; `None` when no
    /// failure touched its entries.
    fn of(model: &Model, name: &str, layout: &CrosswordLayout, blame: &[f64]) -> Option<Map> {
        let b = Blame::of(layout, blame)?;
        Some(Map {
            grid: name.to_string(),
            cells: (0..layout.height)
                .map(|y| {
                    (0..layout.width)
                        .map(|x| {
                            let c = y * layout.width + x;
                            layout.open[c].then(|| b.cells[c] / b.total)
                        })
                        .collect()
                })
                .collect(),
            entries: b
                .entries
                .iter()
                .map(|&(s, x)| Entry {
                    name: model.vars[s.var].name.clone(),
                    row: s.y + 1,
                    column: s.x + 1,
                    length: s.len,
                    across: s.across,
                    share: x / b.total,
                })
                .collect(),
            failures: Some(b.total),
        })
    }

    /// The map as people read it: a digit per open cell (its share against
    /// the most blamed cell's, 0 to 9), then the `worst` entries blamed most.
    pub(crate) fn text(&self, worst: usize) -> String {
        let top = self
            .cells
            .iter()
            .flatten()
            .flatten()
            .copied()
            .fold(0.0, f64::max);
        let mut out = String::from(
            "where the search failed: each cell shows its entries' share of the failures, 0 to 9 (9: the most)\n",
        );
        for row in &self.cells {
            let row: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Some(x) if top > 0.0 => digit((x / top).clamp(0.0, 1.0)),
                    Some(_) => '0',
                    None => '#',
                })
                .map(String::from)
                .collect();
            out += &row.join(" ");
            out.push('\n');
        }
        let items: Vec<String> = self.entries[..worst.min(self.entries.len())]
            .iter()
            .map(|e| {
                format!(
                    "{} ({} {}, row {}, column {}) {:.0}%",
                    e.name,
                    e.length,
                    if e.across { "across" } else { "down" },
                    e.row,
                    e.column,
                    100.0 * e.share
                )
            })
            .collect();
        if !items.is_empty() {
            out += &format!("failed most: {}\n", items.join("; "));
        }
        out
    }

    /// The record as one JSON line, its numbers to four decimals.
    pub(crate) fn json(&self) -> String {
        let round = |x: f64| (x * 1e4).round() / 1e4;
        let mut m = self.clone();
        for c in m.cells.iter_mut().flatten().flatten() {
            *c = round(*c);
        }
        for e in &mut m.entries {
            e.share = round(e.share);
        }
        m.failures = m.failures.map(|f| (f * 1e3).round() / 1e3);
        super::json::to_json(&m) + "\n"
    }
}

/// The same as one JSON line; `None` when no failure touched the grid.
pub(crate) fn json(
    model: &Model,
    name: &str,
    layout: &CrosswordLayout,
    blame: &[f64],
) -> Option<String> {
    Some(Map::of(model, name, layout, blame)?.json())
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
            json(&model, "xw", &layout, &[3.0, 1.0, 4.0]).unwrap(),
            "{\"type\":\"failed\",\"grid\":\"xw\",\"cells\":[[0.375,null,null],[0.5,0.125,0.125]],\
             \"entries\":[{\"name\":\"xw[1]\",\"row\":1,\"column\":1,\"length\":2,\"across\":false,\"share\":0.375},\
             {\"name\":\"xw[2]\",\"row\":2,\"column\":1,\"length\":3,\"across\":true,\"share\":0.125}],\"failures\":8.0}\n"
        );
        assert!(json(&model, "xw", &layout, &[]).is_none());
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

    /// Merging the maps of runs gives the map of their summed blame: each
    /// share weighed by the failures its run blamed.
    #[test]
    fn maps_merge_as_their_summed_blame() {
        let (model, layout) = corner();
        let (a, b) = ([3.0, 1.0, 4.0], [0.5, 6.0, 0.0]);
        let sum: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        let of = |blame: &[f64]| Map::of(&model, "xw", &layout, blame).unwrap();
        let merged = Map::merge(&[of(&a), of(&b)]).unwrap();
        let want = of(&sum);
        assert_eq!(merged.failures, want.failures);
        for (got, want) in merged
            .cells
            .iter()
            .flatten()
            .zip(want.cells.iter().flatten())
        {
            match (got, want) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{g} {w}"),
                (g, w) => assert_eq!(g, w),
            }
        }
        let names = |m: &Map| m.entries.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&merged), names(&want));
        assert_eq!(names(&merged), ["xw[2]", "xw[1]"]);
        for (g, w) in merged.entries.iter().zip(&want.entries) {
            assert!((g.share - w.share).abs() < 1e-12);
        }
        assert_eq!(merged.text(5), want.text(5));
        // A record read back from JSON merges as well (rounded), and a map
        // of another grid does not merge.
        let read: Map = serde_json::from_str(&of(&a).json()).unwrap();
        assert_eq!(read.entries.len(), 2);
        assert!(Map::merge(&[read.clone(), of(&b)]).is_some());
        let mut other = read;
        other.cells.pop();
        assert!(Map::merge(&[other, of(&b)]).is_none());
        assert!(Map::merge(&[]).is_none());
    }
}
