//! Multi-valued decision diagrams: a set of equal-length rows of integers
//! (a dictionary's words as symbol codes, a table) as a layered DAG with
//! shared prefixes and shared suffixes, built once and read by the `mdd`
//! global's propagator (`engine/props/mdd.rs`).
//!
//! Every path from the root to the terminal spells one row: the edge leaving
//! a node of layer `i` is labelled with the value of position `i`. Rows are
//! sorted and merged into a trie, and equal subtrees are shared as they are
//! built (hash-consing bottom-up), so the result is the reduced MDD: a
//! dictionary becomes a DAWG, and its words' zero padding one chain of nodes.
//! Building is O(cells · log rows); `sema/trie.rs` caches the result on disk.

use rustc_hash::FxHashMap;

/// A reduced, layered MDD. Node 0 is the terminal, the root is the last node;
/// node `n`'s edges are `first[n]..first[n + 1]` of `label` (an index into
/// `values`) and `target`, sorted by label.
#[derive(Clone, PartialEq, Eq)]
pub struct Mdd {
    /// The number of layers: the length of every row.
    pub arity: usize,
    /// The distinct values on the edges, sorted.
    pub values: Vec<i64>,
    pub first: Vec<u32>,
    pub label: Vec<u32>,
    pub target: Vec<u32>,
    /// How many rows the diagram holds.
    pub rows: u64,
}

impl std::fmt::Debug for Mdd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Mdd({} rows of {}, {} nodes, {} edges)",
            self.rows,
            self.arity,
            self.nodes(),
            self.label.len()
        )
    }
}

pub(crate) const TERMINAL: u32 = 0;

impl Mdd {
    /// The diagram of `rows`, each of `arity` values (duplicates are merged).
    pub(crate) fn from_rows(arity: usize, rows: &[Vec<i64>]) -> Mdd {
        let mut values: Vec<i64> = rows.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        let flat: Vec<u32> = rows
            .iter()
            .flat_map(|r| {
                debug_assert_eq!(r.len(), arity);
                r.iter().map(|v| values.partition_point(|x| x < v) as u32)
            })
            .collect();
        Mdd::from_codes(arity, values, flat, rows.len())
    }

    /// The diagram of the `n` rows of `flat` (each `arity` indices into `values`).
    pub(crate) fn from_codes(arity: usize, values: Vec<i64>, flat: Vec<u32>, n: usize) -> Mdd {
        debug_assert_eq!(flat.len(), n * arity);
        let row = |i: usize| &flat[i * arity..(i + 1) * arity];
        let mut order: Vec<u32> = (0..n as u32).collect();
        if (1..n).any(|i| row(i - 1) > row(i)) {
            order.sort_unstable_by(|&a, &b| row(a as usize).cmp(row(b as usize)));
        }
        order.dedup_by(|a, b| row(*a as usize) == row(*b as usize));
        let mut b = Builder {
            mdd: Mdd {
                arity,
                values,
                first: vec![0],
                label: Vec::new(),
                target: Vec::new(),
                rows: order.len() as u64,
            },
            known: FxHashMap::default(),
            edges: Vec::new(),
        };
        b.mdd.first.push(0); // the terminal has no edges
        if order.is_empty() {
            // No row: a root without edges (node 1).
            b.mdd.first.push(0);
        } else if arity > 0 {
            let sorted: Vec<&[u32]> = order.iter().map(|&i| row(i as usize)).collect();
            b.node(&sorted, 0);
        }
        b.mdd
    }

    pub(crate) fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    pub(crate) fn root(&self) -> u32 {
        (self.nodes() - 1) as u32
    }

    /// The edges of `node`, as (label, target).
    pub(crate) fn edges(&self, node: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (a, b) = (
            self.first[node as usize] as usize,
            self.first[node as usize + 1] as usize,
        );
        self.label[a..b]
            .iter()
            .copied()
            .zip(self.target[a..b].iter().copied())
    }

    /// Whether the diagram holds `row`.
    pub(crate) fn contains(&self, row: &[i64]) -> bool {
        if row.len() != self.arity {
            return false;
        }
        if self.rows == 0 {
            return false;
        }
        let mut node = self.root();
        for v in row {
            let Ok(code) = self.values.binary_search(v) else {
                return false;
            };
            match self.edges(node).find(|&(l, _)| l == code as u32) {
                Some((_, t)) => node = t,
                None => return false,
            }
        }
        node == TERMINAL
    }

    /// The rows whose values from position `max` on are all `pad` (words of
    /// at most `max` symbols), without those positions, and without the
    /// trailing positions that are `pad` in every row left: a dictionary
    /// compiled once for any board, then cut to the board's size.
    pub(crate) fn truncated(&self, max: usize, pad: i64) -> Mdd {
        let Ok(pad) = self.values.binary_search(&pad).map(|c| c as u32) else {
            return if max >= self.arity {
                self.clone()
            } else {
                Mdd::from_rows(0, &[])
            };
        };
        let nodes = self.nodes();
        // padding[n]: the all-`pad` path leads from n to the terminal.
        let mut padding = vec![false; nodes];
        padding[TERMINAL as usize] = true;
        for n in 1..nodes as u32 {
            padding[n as usize] = self.edges(n).any(|(l, t)| l == pad && padding[t as usize]);
        }
        if self.rows == 0 {
            return Mdd::from_rows(0, &[]);
        }
        let mut layer = vec![0usize; nodes];
        for n in (1..nodes as u32).rev() {
            for (_, t) in self.edges(n) {
                layer[t as usize] = layer[n as usize] + 1;
            }
        }
        // The new width: the longest row of at most `max` values before its padding.
        let mut width = 0;
        for n in 1..nodes as u32 {
            let l = layer[n as usize];
            if l < max {
                for (c, t) in self.edges(n) {
                    if c != pad && padding[t as usize] {
                        width = width.max(l + 1);
                    }
                }
            }
        }
        let mut out = Mdd {
            arity: width,
            values: self.values.clone(),
            first: vec![0, 0],
            label: Vec::new(),
            target: Vec::new(),
            rows: 0,
        };
        if width == 0 {
            // At most the all-`pad` row, of no value once cut.
            let rows = if padding[self.root() as usize] {
                vec![vec![]]
            } else {
                vec![]
            };
            return Mdd::from_rows(0, &rows);
        }
        // Children come before parents: renumber the nodes that keep a path.
        let mut id = vec![u32::MAX; nodes];
        let mut paths = vec![1u64];
        for n in 1..nodes as u32 {
            let l = layer[n as usize];
            if l >= width {
                continue;
            }
            let mut count = 0u64;
            let before = out.label.len();
            for (c, t) in self.edges(n) {
                let to = if l + 1 == width {
                    if padding[t as usize] {
                        TERMINAL
                    } else {
                        u32::MAX
                    }
                } else {
                    id[t as usize]
                };
                if to != u32::MAX {
                    out.label.push(c);
                    out.target.push(to);
                    count = count.saturating_add(paths[to as usize]);
                }
            }
            if out.label.len() > before {
                id[n as usize] = out.nodes() as u32;
                out.first.push(out.label.len() as u32);
                paths.push(count);
            }
        }
        // The root keeps a path (some row has `width` values), and is the last node.
        debug_assert_eq!(id[self.root() as usize], out.root());
        out.rows = paths[out.root() as usize];
        out
    }

    /// Every row, in increasing order (for tests: tests/it/regex.rs).
    pub fn rows(&self) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        if self.rows > 0 {
            self.walk(self.root(), &mut Vec::new(), &mut out);
        }
        out
    }

    fn walk(&self, node: u32, prefix: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
        if prefix.len() == self.arity {
            out.push(prefix.clone());
            return;
        }
        for (l, t) in self.edges(node) {
            prefix.push(self.values[l as usize]);
            self.walk(t, prefix, out);
            prefix.pop();
        }
    }
}

struct Builder {
    mdd: Mdd,
    /// Nodes by their edges, for sharing equal subtrees.
    known: FxHashMap<Box<[(u32, u32)]>, u32>,
    /// Scratch: the edges of the nodes being built, as a stack.
    edges: Vec<(u32, u32)>,
}

impl Builder {
    /// The node for `rows` (sorted, distinct, non-empty) from position `depth`.
    fn node(&mut self, rows: &[&[u32]], depth: usize) -> u32 {
        if depth == self.mdd.arity {
            return TERMINAL;
        }
        let base = self.edges.len();
        let mut i = 0;
        while i < rows.len() {
            let v = rows[i][depth];
            let mut j = i + 1;
            while j < rows.len() && rows[j][depth] == v {
                j += 1;
            }
            let child = self.node(&rows[i..j], depth + 1);
            self.edges.push((v, child));
            i = j;
        }
        let key = &self.edges[base..];
        let id = match self.known.get(key) {
            Some(&id) => id,
            None => {
                let id = self.mdd.nodes() as u32;
                for &(l, t) in key {
                    self.mdd.label.push(l);
                    self.mdd.target.push(t);
                }
                self.mdd.first.push(self.mdd.label.len() as u32);
                self.known.insert(key.into(), id);
                id
            }
        };
        self.edges.truncate(base);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_sorted_and_distinct() {
        let rows = vec![vec![2, 1, 0], vec![1, 1, 0], vec![2, 1, 0], vec![1, 2, 3]];
        let m = Mdd::from_rows(3, &rows);
        assert_eq!(m.rows(), vec![vec![1, 1, 0], vec![1, 2, 3], vec![2, 1, 0]]);
        assert_eq!(m.rows, 3);
        assert!(m.contains(&[1, 2, 3]));
        assert!(!m.contains(&[1, 2, 0]));
        assert!(!m.contains(&[1, 2]));
        assert!(!m.contains(&[7, 2, 3]));
    }

    #[test]
    fn equal_suffixes_are_shared() {
        // cat, bat, rat padded to 5: the suffix `at00` is one chain.
        let rows: Vec<Vec<i64>> = [[3, 1, 20, 0, 0], [2, 1, 20, 0, 0], [18, 1, 20, 0, 0]]
            .iter()
            .map(|r| r.to_vec())
            .collect();
        let m = Mdd::from_rows(5, &rows);
        // terminal, 0→T, 0→·, t→·, a→·, root
        assert_eq!(m.nodes(), 6);
        assert_eq!(m.rows().len(), 3);
    }

    #[test]
    fn truncation_keeps_the_short_rows() {
        // Words padded with 0 to 4: a, ab, abc, abcd, bcd, c.
        let words: [&[i64]; 6] = [&[1], &[1, 2], &[1, 2, 3], &[1, 2, 3, 4], &[2, 3, 4], &[3]];
        let rows: Vec<Vec<i64>> = words
            .iter()
            .map(|w| {
                let mut r = w.to_vec();
                r.resize(4, 0);
                r
            })
            .collect();
        let m = Mdd::from_rows(4, &rows);
        for max in 0..=5 {
            let t = m.truncated(max, 0);
            let mut expected: Vec<Vec<i64>> = words
                .iter()
                .filter(|w| w.len() <= max)
                .map(|w| w.to_vec())
                .collect();
            let width = expected.iter().map(Vec::len).max().unwrap_or(0);
            for r in &mut expected {
                r.resize(width, 0);
            }
            expected.sort();
            assert_eq!(t.arity, width, "max {max}");
            assert_eq!(t.rows(), expected, "max {max}");
            assert_eq!(t.rows as usize, expected.len(), "max {max}");
        }
        // Rows longer than 2 that only pad past 2 are gone: width 2 suffices.
        let t = Mdd::from_rows(3, &[vec![1, 0, 0], vec![1, 2, 0], vec![2, 2, 2]]).truncated(2, 0);
        assert_eq!(t.rows(), vec![vec![1, 0], vec![1, 2]]);
    }

    #[test]
    fn empty_and_zero_arity() {
        let m = Mdd::from_rows(2, &[]);
        assert!(m.rows().is_empty());
        assert!(!m.contains(&[0, 0]));
        let m = Mdd::from_rows(0, &[vec![]]);
        assert!(m.contains(&[]));
    }
}
