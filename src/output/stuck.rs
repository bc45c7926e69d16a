//! Where the search of a crossword it could not fill failed (`solve`, when
//! a limit stops it before a fill): each cell's share of the failures of its
//! entries, from [`crate::engine::stats::Stats::blame`], and the entries
//! blamed most. It tells a constructor which corner to open up. The map's
//! data, [`crate::run::FailedMap`], lives with the runs (`cspi merge` merges
//! maps without drawing them); here it is built, drawn and written.

use crate::model::{CrosswordLayout, CrosswordSlot, Model};
use crate::run::{FailedEntry as Entry, FailedMap as Map};

impl Map {
    /// The map of crossword `name` from a run's blame (per variable); `None`
    /// when no failure touched its entries.
    pub(crate) fn of(
        model: &Model,
        name: &str,
        layout: &CrosswordLayout,
        blame: &[f64],
    ) -> Option<Map> {
        let of = |v: usize| blame.get(v).copied().unwrap_or(0.0);
        let total: f64 = blame.iter().sum();
        // Per cell, row-major: the blame of the entries through it.
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
        if total <= 0.0 || entries.is_empty() {
            return None;
        }
        entries.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.var.cmp(&b.0.var)));
        Some(Map {
            grid: name.to_string(),
            cells: cells
                .chunks(layout.width)
                .zip(layout.open.chunks(layout.width))
                .map(|(row, open)| {
                    row.iter()
                        .zip(open)
                        .map(|(&x, &open)| open.then_some(x / total))
                        .collect()
                })
                .collect(),
            entries: entries
                .iter()
                .map(|&(s, x)| Entry {
                    name: model.vars[s.var].name.clone(),
                    row: s.y + 1,
                    column: s.x + 1,
                    length: s.len,
                    across: s.across,
                    share: x / total,
                })
                .collect(),
            failures: Some(total),
        })
    }

    /// Each cell's share against the most blamed cell's, 0 to 1, a row
    /// each (`None` for a block).
    fn heat(&self) -> Vec<Vec<Option<f64>>> {
        let top = self
            .cells
            .iter()
            .flatten()
            .flatten()
            .copied()
            .fold(0.0, f64::max);
        let scale = |x: f64| {
            if top > 0.0 {
                (x / top).clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        self.cells
            .iter()
            .map(|row| row.iter().map(|c| c.map(scale)).collect())
            .collect()
    }

    /// The map as people read it: a digit per open cell (its share against
    /// the most blamed cell's, 0 to 9), then the `worst` entries blamed most.
    pub(crate) fn text(&self, worst: usize) -> String {
        let mut out = String::from(
            "where the search failed: each cell shows its entries' share of the failures, 0 to 9 (9: the most)\n",
        );
        for row in self.heat() {
            let row: Vec<String> = row
                .iter()
                .map(|c| c.map_or('#', digit).to_string())
                .collect();
            out += &row.join(" ");
            out.push('\n');
        }
        let items: Vec<String> = self.entries[..worst.min(self.entries.len())]
            .iter()
            .map(|e| {
                // The entry's place as every grid text names it.
                let slot = CrosswordSlot {
                    var: 0,
                    x: e.column.saturating_sub(1),
                    y: e.row.saturating_sub(1),
                    len: e.length,
                    across: e.across,
                };
                format!("{} ({}) {:.0}%", e.name, slot.place(), 100.0 * e.share)
            })
            .collect();
        if !items.is_empty() {
            out += &format!("failed most: {}\n", items.join("; "));
        }
        out
    }

    /// The map as an SVG picture of `layout` (its grid): each open cell
    /// from white (no blame) to red (the most), with its digit of the text.
    pub(crate) fn svg(&self, layout: &CrosswordLayout) -> String {
        let heat: Vec<Option<f64>> = self.heat().concat();
        let colour = |c: usize| {
            // White to #d73027 (the fillability map's red).
            let t = heat[c].unwrap_or(0.0);
            let mix = |to: f64| (255.0 - (255.0 - to) * t).round() as u8;
            format!("#{:02x}{:02x}{:02x}", mix(215.0), mix(48.0), mix(39.0))
        };
        let label = |c: usize| heat[c].map(digit).unwrap_or_default().to_string();
        super::grid_text::picture(layout, "failed", colour, label)
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
            picture: true,
        };
        (model, layout)
    }

    #[test]
    fn cells_show_their_entries_share_and_the_most_blamed_come_first() {
        let (model, layout) = corner();
        // The down entry failed three times as often as the across one; a
        // third variable outside the grid took the rest of the blame.
        let map = |blame: &[f64]| Map::of(&model, "xw", &layout, blame);
        let shown = map(&[3.0, 1.0, 4.0]).unwrap().text(5);
        let lines: Vec<&str> = shown.lines().collect();
        // The crossing cell has both (4 of 4: 9), the down one 3 of 4, the
        // across ones 1 of 4.
        assert_eq!(lines[1], "7 # #");
        assert_eq!(lines[2], "9 2 2");
        assert_eq!(
            lines[3],
            "failed most: xw[1] (2 down, row 1, column 1) 38%; xw[2] (3 across, row 2, column 1) 12%"
        );
        assert!(map(&[0.0, 0.0, 2.0]).is_none());
        assert_eq!(
            map(&[3.0, 1.0, 4.0]).unwrap().json(),
            "{\"type\":\"failed\",\"grid\":\"xw\",\"cells\":[[0.375,null,null],[0.5,0.125,0.125]],\
             \"entries\":[{\"name\":\"xw[1]\",\"row\":1,\"column\":1,\"length\":2,\"across\":false,\"share\":0.375},\
             {\"name\":\"xw[2]\",\"row\":2,\"column\":1,\"length\":3,\"across\":true,\"share\":0.125}],\"failures\":8.0}\n"
        );
        assert!(map(&[]).is_none());
        // The picture: the most blamed cell red, the least a light red, the
        // digits of the text map.
        let picture = map(&[3.0, 1.0, 4.0]).unwrap().svg(&layout);
        assert!(picture.contains("class=\"failed\""));
        assert!(picture.contains("fill=\"#d73027\""), "{picture}");
        assert!(picture.contains("fill=\"#f5cbc9\""), "{picture}");
        for d in ["9", "7", "2"] {
            assert!(picture.contains(&format!(">{d}</text>")), "{picture}");
        }
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
