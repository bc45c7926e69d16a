//! A variable index into a two-dimensional array, `m[i, j]`: the front end
//! writes it as an element over rows whose items are elements over columns
//! (so out-of-range indices stay undefined exactly as the model says);
//! lowering recognises that shape and posts one `Element2d` propagator
//! (`engine/props/element2d.rs`) instead of an auxiliary variable per row.

use super::Lower;
use crate::engine::props::element2d::{Cell, Element2d};
use crate::model::{Term, VarId};

impl Lower<'_> {
    /// `items[index]` when every item is `row[col_index]` with one column
    /// index and one shape: `Some` with the result (`None` inside when it
    /// cannot be lowered), or `None` when the term has another shape.
    pub(super) fn element_2d(
        &mut self,
        items: &[Term],
        index: &Term,
        low: i64,
    ) -> Option<Option<VarId>> {
        let Some(Term::Element {
            items: first,
            index: col_index,
            low: col_low,
        }) = items.first()
        else {
            return None;
        };
        let cols = first.len();
        let mut cells = Vec::with_capacity(items.len() * cols);
        for t in items {
            match t {
                Term::Element {
                    items: row,
                    index: ci,
                    low: cl,
                } if ci == col_index && cl == col_low && row.len() == cols && cols > 0 => {
                    cells.extend(row.iter().cloned());
                }
                _ => return None,
            }
        }
        Some(self.post_element_2d(&cells, cols, index, low, col_index, *col_low))
    }

    fn post_element_2d(
        &mut self,
        cells: &[Term],
        cols: usize,
        row_index: &Term,
        row_low: i64,
        col_index: &Term,
        col_low: i64,
    ) -> Option<VarId> {
        // Only the selected cell must be defined: every cell is lowered only
        // when all of them always are.
        if !cells.iter().all(Term::is_total) {
            return None;
        }
        let i = self.var_of(row_index)?;
        let j = self.var_of(col_index)?;
        let rows = (cells.len() / cols) as i64;
        let d = &self.engine.doms;
        let out_of_range = d.min(i) < row_low
            || d.max(i) > row_low + rows - 1
            || d.min(j) < col_low
            || d.max(j) > col_low + cols as i64 - 1;
        // Inside a reified formula an out-of-range index makes the formula
        // false, not the model: it must not be pruned.
        if !self.strict() && out_of_range {
            return None;
        }
        let mut lowered = Vec::with_capacity(cells.len());
        for t in cells {
            lowered.push(match t.as_const() {
                Some(v) => Cell::Value(v),
                None => Cell::Var(self.var_of(t)?),
            });
        }
        let d = &self.engine.doms;
        let bounds = |c: &Cell| match *c {
            Cell::Value(v) => (v, v),
            Cell::Var(x) => (d.min(x), d.max(x)),
        };
        let lo = lowered.iter().map(|c| bounds(c).0).min()?;
        let hi = lowered.iter().map(|c| bounds(c).1).max()?;
        let z = self.aux(lo as i128, hi as i128)?;
        let p = Element2d::new(i, j, z, lowered, cols, row_low, col_low);
        self.engine.add_prop(Box::new(p));
        Some(z)
    }
}
