//! Where the search of a crossword it could not fill failed (`solve`, when
//! a limit stops it before a fill): each cell's share of the failures of its
//! entries, from [`crate::engine::stats::Stats::blame`], and the entries
//! blamed most. It tells a constructor which corner to open up.

use crate::model::{CrosswordLayout, Model};

/// The map and the `worst` entries blamed most; `None` when no failure
/// touched the grid's entries.
pub(crate) fn text(
    model: &Model,
    layout: &CrosswordLayout,
    blame: &[f64],
    worst: usize,
) -> Option<String> {
    let of = |v: usize| blame.get(v).copied().unwrap_or(0.0);
    let total: f64 = blame.iter().sum();
    let mut cells = vec![0.0f64; layout.width * layout.height];
    for s in &layout.slots {
        for i in 0..s.len {
            cells[s.cell(i, layout.width)] += of(s.var);
        }
    }
    let top = cells.iter().copied().fold(0.0, f64::max);
    if top <= 0.0 || total <= 0.0 {
        return None;
    }
    let mut out = String::from(
        "where the search failed: each cell shows its entries' share of the failures, 0 to 9 (9: the most)\n",
    );
    out += &super::grid_text::draw(layout, |c| digit(cells[c] / top));
    let mut slots: Vec<_> = layout.slots.iter().filter(|s| of(s.var) > 0.0).collect();
    slots.sort_by(|a, b| of(b.var).total_cmp(&of(a.var)).then(a.var.cmp(&b.var)));
    let list: Vec<_> = slots
        .iter()
        .take(worst)
        .map(|&s| (s, format!("{:.0}%", 100.0 * of(s.var) / total)))
        .collect();
    out += &super::grid_text::entries(model, "failed most", &list);
    Some(out)
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
        assert!(text(&model, &layout, &[], 5).is_none());
    }
}
