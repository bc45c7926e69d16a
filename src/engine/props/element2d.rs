//! `z = m[i, j]`: two-dimensional element over a matrix `m` of variables
//! (constants are fixed variables), rows from `row_low`, columns from
//! `col_low`. Lowered from a variable index into a 2-D array
//! (`lower/element2d.rs`).
//!
//! Supports are computed over the pairs `(a, b)` of the index domains: a
//! row `a` stays in `i` while some column `b` of `j` has a cell whose domain
//! meets `z`'s, and so for columns; `z` keeps the values some supported cell
//! can take; once `i` and `j` are fixed the selected cell and `z` share one
//! domain. Domain consistency when the cells are constants (the common case:
//! a data matrix) and `i`, `j`, `z` are distinct variables; with variable
//! cells, as the one-dimensional element, correct and checking. O(|D(i)| ·
//! |D(j)| · cell size) per round; cells or `z` held as intervals are
//! compared by bounds.

use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

/// Cells and `z` larger than this are compared by bounds.
const MAX_SCANNED: u64 = 4096;

/// A cell of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    Value(i64),
    Var(VarId),
}

pub(crate) struct Element2d {
    /// `i`, `j`, `z`, then the variable cells.
    vars: Vec<VarId>,
    /// The cells row by row.
    cells: Vec<Cell>,
    rows: usize,
    cols: usize,
    row_low: i64,
    col_low: i64,
    /// Scratch.
    row_ok: Vec<bool>,
    col_ok: Vec<bool>,
    z_ok: Vec<i64>,
}

impl Element2d {
    pub(crate) fn new(
        i: VarId,
        j: VarId,
        z: VarId,
        cells: Vec<Cell>,
        cols: usize,
        row_low: i64,
        col_low: i64,
    ) -> Self {
        debug_assert!(cols > 0 && cells.len().is_multiple_of(cols));
        let mut vars = vec![i, j, z];
        vars.extend(cells.iter().filter_map(|c| match c {
            Cell::Var(v) => Some(*v),
            Cell::Value(_) => None,
        }));
        Element2d {
            vars,
            rows: cells.len() / cols,
            cells,
            cols,
            row_low,
            col_low,
            row_ok: Vec::new(),
            col_ok: Vec::new(),
            z_ok: Vec::new(),
        }
    }

    fn cell(&self, a: i64, b: i64) -> Cell {
        let r = (a - self.row_low) as usize;
        let c = (b - self.col_low) as usize;
        self.cells[r * self.cols + c]
    }

    /// The bounds of a cell.
    fn bounds(d: &Domains, c: Cell) -> (i64, i64) {
        match c {
            Cell::Value(v) => (v, v),
            Cell::Var(x) => (d.min(x), d.max(x)),
        }
    }

    /// Whether cell `c` and `z` can be equal; adds the common values of
    /// small bitset domains to `z_ok`, and says whether it compared exactly.
    fn meet(d: &Domains, c: Cell, z: VarId, z_ok: &mut Vec<i64>) -> (bool, bool) {
        let c = match c {
            Cell::Value(v) => {
                let ok = d.contains(z, v);
                if ok {
                    z_ok.push(v);
                }
                return (ok, true);
            }
            Cell::Var(c) => c,
        };
        let (lo, hi) = (d.min(c).max(d.min(z)), d.max(c).min(d.max(z)));
        if lo > hi {
            return (false, true);
        }
        let exact = d.is_bitset(c) && d.is_bitset(z) && d.size(c).min(d.size(z)) <= MAX_SCANNED;
        if !exact {
            return (true, false);
        }
        let (small, other) = if d.size(c) <= d.size(z) {
            (c, z)
        } else {
            (z, c)
        };
        let before = z_ok.len();
        z_ok.extend(
            d.values(small)
                .filter(|&v| v >= lo && v <= hi && d.contains(other, v)),
        );
        (z_ok.len() > before, true)
    }
}

impl Propagator for Element2d {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let (i, j, z) = (self.vars[0], self.vars[1], self.vars[2]);
        d.set_min(i, self.row_low)?;
        d.set_max(i, self.row_low + self.rows as i64 - 1)?;
        d.set_min(j, self.col_low)?;
        d.set_max(j, self.col_low + self.cols as i64 - 1)?;
        loop {
            let mut changed = false;
            self.row_ok.clear();
            self.row_ok.resize(self.rows, false);
            self.col_ok.clear();
            self.col_ok.resize(self.cols, false);
            self.z_ok.clear();
            let mut all_exact = true;
            let (mut z_lo, mut z_hi) = (i64::MAX, i64::MIN);
            let rows: Vec<i64> = d.values(i).collect();
            let cols: Vec<i64> = d.values(j).collect();
            for &a in &rows {
                for &b in &cols {
                    let c = self.cell(a, b);
                    let (ok, exact) = Self::meet(d, c, z, &mut self.z_ok);
                    if ok {
                        self.row_ok[(a - self.row_low) as usize] = true;
                        self.col_ok[(b - self.col_low) as usize] = true;
                        all_exact &= exact;
                        let (lo, hi) = Self::bounds(d, c);
                        z_lo = z_lo.min(lo);
                        z_hi = z_hi.max(hi);
                    }
                }
            }
            for &a in &rows {
                if !self.row_ok[(a - self.row_low) as usize] {
                    changed |= d.remove(i, a)?;
                }
            }
            for &b in &cols {
                if !self.col_ok[(b - self.col_low) as usize] {
                    changed |= d.remove(j, b)?;
                }
            }
            changed |= d.set_min(z, z_lo)?;
            changed |= d.set_max(z, z_hi)?;
            if all_exact && d.is_bitset(z) {
                self.z_ok.sort_unstable();
                self.z_ok.dedup();
                let gone: Vec<i64> = d
                    .values(z)
                    .filter(|v| self.z_ok.binary_search(v).is_err())
                    .collect();
                for v in gone {
                    changed |= d.remove(z, v)?;
                }
            }
            if let (Some(a), Some(b)) = (d.value(i), d.value(j)) {
                // The selected cell equals z.
                let c = match self.cell(a, b) {
                    Cell::Value(v) => {
                        changed |= d.fix(z, v)?;
                        if !changed {
                            return Ok(());
                        }
                        continue;
                    }
                    Cell::Var(c) => c,
                };
                changed |= d.set_min(c, d.min(z))? | d.set_max(c, d.max(z))?;
                changed |= d.set_min(z, d.min(c))? | d.set_max(z, d.max(c))?;
                if d.is_bitset(c) && d.is_bitset(z) {
                    for (p, q) in [(c, z), (z, c)] {
                        let gone: Vec<i64> = d.values(p).filter(|&v| !d.contains(q, v)).collect();
                        for v in gone {
                            changed |= d.remove(p, v)?;
                        }
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    const M: [[i64; 3]; 2] = [[3, 1, 4], [1, 5, 9]];

    #[test]
    fn a_data_matrix_prunes_rows_columns_and_values() {
        let mut h = Harness::new();
        let (i, j, z) = (h.range(0, 5), h.range(1, 3), h.range(0, 9));
        let cells: Vec<Cell> = M.iter().flatten().map(|&v| Cell::Value(v)).collect();
        h.post(Element2d::new(i, j, z, cells, 3, 1, 1));
        assert_eq!(h.values(i), vec![1, 2]);
        assert_eq!(h.values(z), vec![1, 3, 4, 5, 9]);
        h.remove(z, 1).unwrap();
        h.remove(z, 3).unwrap();
        h.remove(z, 5).unwrap();
        assert_eq!(h.values(j), vec![3]);
        h.fix(i, 2).unwrap();
        assert_eq!(h.values(z), vec![9]);
    }

    #[test]
    fn domain_consistent_on_constant_cells_against_brute_force() {
        // i, j, z random over -3..4; the matrix is M with rows from 0, columns from 1.
        check_random(
            "element2d",
            Strength::Domain,
            3,
            |_, vars| {
                let cells: Vec<Cell> = M.iter().flatten().map(|&v| Cell::Value(v)).collect();
                Some(Box::new(Element2d::new(
                    vars[0], vars[1], vars[2], cells, 3, 0, 1,
                )))
            },
            |t| {
                (0..2).contains(&t[0])
                    && (1..=3).contains(&t[1])
                    && M[t[0] as usize][(t[1] - 1) as usize] == t[2]
            },
        );
    }

    #[test]
    fn correct_and_checking_with_variable_cells() {
        // i, j, z, then a 2×2 matrix of variables.
        check_random(
            "element2d-vars",
            Strength::Check,
            7,
            |_, vars| {
                let cells = vars[3..].iter().map(|&v| Cell::Var(v)).collect();
                Some(Box::new(Element2d::new(
                    vars[0], vars[1], vars[2], cells, 2, 0, 0,
                )))
            },
            |t| {
                (0..2).contains(&t[0])
                    && (0..2).contains(&t[1])
                    && t[3 + (t[0] * 2 + t[1]) as usize] == t[2]
            },
        );
    }
}
