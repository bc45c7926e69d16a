//! `mdd(x, diagram)`: the values of `x` spell a path of a multi-valued
//! decision diagram (`model/mdd.rs`): a word of a dictionary compiled into a
//! DAWG, a row of a table. Domain consistency, by the MDD filtering of
//! Cheng & Yap ("An MDD-based generalized arc consistency algorithm for
//! positive and negative table constraints", Constraints 15, 2010), the
//! layered-graph reasoning of Pesant's `regular` (CP 2004) on a DAG.
//!
//! One depth-first pass from the root follows only the edges whose label is
//! in the domain of their layer's variable, and remembers for each node,
//! once, whether it reaches the terminal: a shared suffix (a DAWG's) is
//! explored once per pass, so a pass costs at most the edges of the part of
//! the diagram the domains allow. An edge on a path to the terminal supports
//! its value; values of no such edge are removed. With the earlier
//! positions fixed this is exactly the prefix pruning of a trie: only the
//! letters that continue some word remain for the next position.
//!
//! As in Cheng & Yap, the nodes a pass finds dead are kept in a reversible
//! sparse set and never explored again below that search node, and below a
//! layer whose values are all supported one path is enough.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::engine::trail::RevInt;
use crate::model::VarId;
use crate::model::mdd::{Mdd, TERMINAL};
use std::sync::Arc;

pub(crate) struct MddProp {
    vars: Vec<VarId>,
    /// How many nodes are known dead (the first of `scratch.dense`): a node
    /// with no path to the terminal under some domains has none under
    /// smaller ones, so below this search node it is never explored again.
    dead: RevInt,
    mdd: Arc<Mdd>,
    /// The diagram's edges as `(label, target)` pairs, node by node, for
    /// locality; node `n`'s are `mdd.first[n]..mdd.first[n + 1]`.
    edges: Vec<(u32, u32)>,
    scratch: Scratch,
}

/// Per-pass state (nothing here outlives a pass, so nothing is trailed).
struct Scratch {
    /// `mark[n] >> 1 == stamp`: node `n` was explored in this pass; bit 0
    /// then says whether it reaches the terminal.
    mark: Vec<u32>,
    stamp: u32,
    /// Bitset words per layer.
    words: usize,
    /// Per layer, a bitset over value codes: in the domain.
    allowed: Vec<u64>,
    /// Per layer, a bitset over value codes: on a path to the terminal.
    supported: Vec<u64>,
    /// Every layer from this one on has all its allowed values supported:
    /// below it, one path to the terminal is enough (Cheng & Yap's cut).
    complete_from: usize,
    /// The dead nodes, as a sparse set: `dense[..dead_count]` are dead and
    /// `pos` is `dense`'s inverse. Only the count is reversible: undoing it
    /// revives the nodes past it, whatever the order they are in.
    dense: Vec<u32>,
    pos: Vec<u32>,
    dead_count: u32,
    /// The nodes this pass found dead.
    newly_dead: Vec<u32>,
}

impl Scratch {
    /// Where a layer's bitset words lie in `allowed` and `supported`.
    fn layer(&self, layer: usize) -> std::ops::Range<usize> {
        layer * self.words..(layer + 1) * self.words
    }

    fn allows(&self, layer: usize, c: u32) -> bool {
        self.allowed[layer * self.words + c as usize / 64] >> (c % 64) & 1 != 0
    }

    fn support(&mut self, layer: usize, c: u32) {
        let w = &mut self.supported[layer * self.words + c as usize / 64];
        let bit = 1 << (c % 64);
        if *w & bit != 0 {
            return;
        }
        *w |= bit;
        while self.complete_from > 0 {
            let r = self.layer(self.complete_from - 1);
            if self.supported[r.clone()] != self.allowed[r] {
                break;
            }
            self.complete_from -= 1;
        }
    }
}

fn has(bits: &[u64], c: u32) -> bool {
    bits[c as usize / 64] >> (c % 64) & 1 != 0
}

impl MddProp {
    /// `None` when the arity differs from the number of variables.
    pub(crate) fn new(d: &mut Domains, vars: Vec<VarId>, mdd: Arc<Mdd>) -> Option<Self> {
        if vars.len() != mdd.arity {
            return None;
        }
        let words = mdd.values.len().div_ceil(64);
        let layers = vars.len();
        let edges = mdd
            .label
            .iter()
            .copied()
            .zip(mdd.target.iter().copied())
            .collect();
        Some(MddProp {
            scratch: Scratch {
                mark: vec![0; mdd.nodes()],
                stamp: 0,
                words,
                allowed: vec![0; words * layers],
                supported: vec![0; words * layers],
                complete_from: layers,
                dense: (0..mdd.nodes() as u32).collect(),
                pos: (0..mdd.nodes() as u32).collect(),
                dead_count: 0,
                newly_dead: Vec::new(),
            },
            dead: d.trail.new_int(0),
            edges,
            vars,
            mdd,
        })
    }

    /// Fills `allowed` from the domains (every value for an open variable
    /// when `fixed_only`).
    fn load(&mut self, d: &Domains, fixed_only: bool) {
        let values = &self.mdd.values;
        let s = &mut self.scratch;
        // Nodes dead under the domains stay dead; not so when open
        // variables count as unrestricted.
        s.dead_count = if fixed_only {
            0
        } else {
            d.trail.int(self.dead) as u32
        };
        let words = s.words;
        for (i, &v) in self.vars.iter().enumerate() {
            let bits = &mut s.allowed[i * words..(i + 1) * words];
            bits.iter_mut().for_each(|w| *w = 0);
            let open = fixed_only && !d.is_fixed(v);
            if !open && d.is_bitset(v) && (d.size(v) as usize) < values.len() {
                for x in d.values(v) {
                    if let Ok(c) = values.binary_search(&x) {
                        bits[c / 64] |= 1 << (c % 64);
                    }
                }
            } else {
                for (c, &x) in values.iter().enumerate() {
                    if open || d.contains(v, x) {
                        bits[c / 64] |= 1 << (c % 64);
                    }
                }
            }
        }
    }

    /// One pass; false when no path is left.
    fn pass(&mut self) -> bool {
        let s = &mut self.scratch;
        s.stamp += 1;
        if s.stamp >= 1 << 31 {
            s.mark.iter_mut().for_each(|x| *x = 0);
            s.stamp = 1;
        }
        s.supported.iter_mut().for_each(|w| *w = 0);
        s.complete_from = self.vars.len();
        s.newly_dead.clear();
        if self.mdd.rows == 0 {
            return false;
        }
        explore(&self.mdd.first, &self.edges, s, self.mdd.root(), 0)
    }
}

fn explore(first: &[u32], edges: &[(u32, u32)], s: &mut Scratch, node: u32, layer: usize) -> bool {
    if node == TERMINAL {
        return true;
    }
    let n = node as usize;
    if s.mark[n] >> 1 == s.stamp {
        return s.mark[n] & 1 != 0;
    }
    if s.pos[n] < s.dead_count {
        return false;
    }
    let mut alive = false;
    for &(c, t) in &edges[first[n] as usize..first[n + 1] as usize] {
        if s.allows(layer, c) && explore(first, edges, s, t, layer + 1) {
            alive = true;
            s.support(layer, c);
            if layer >= s.complete_from {
                break;
            }
        }
    }
    s.mark[n] = s.stamp << 1 | alive as u32;
    if !alive {
        s.newly_dead.push(node);
    }
    alive
}

impl Propagator for MddProp {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Slow
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        self.load(d, false);
        if !self.pass() {
            return Err(Fail);
        }
        let s = &mut self.scratch;
        if !s.newly_dead.is_empty() {
            for &n in &s.newly_dead {
                // Swap n to the end of the dead prefix.
                let (at, to) = (s.pos[n as usize], s.dead_count);
                let other = s.dense[to as usize];
                s.dense.swap(at as usize, to as usize);
                s.pos[n as usize] = to;
                s.pos[other as usize] = at;
                s.dead_count += 1;
            }
            d.trail.set_int(self.dead, s.dead_count as i64);
        }
        let values = &self.mdd.values;
        for (i, &v) in self.vars.iter().enumerate() {
            let w = self.scratch.words;
            let sup = &self.scratch.supported[i * w..(i + 1) * w];
            let count: u32 = sup.iter().map(|w| w.count_ones()).sum();
            if d.size(v) == count as u64 {
                continue; // the domain is exactly its supported values
            }
            let lo = (0..values.len() as u32).find(|&c| has(sup, c));
            let hi = (0..values.len() as u32).rev().find(|&c| has(sup, c));
            let (Some(lo), Some(hi)) = (lo, hi) else {
                return Err(Fail);
            };
            d.set_min(v, values[lo as usize])?;
            d.set_max(v, values[hi as usize])?;
            if d.is_bitset(v) {
                let gone: Vec<i64> = d
                    .values(v)
                    .filter(|x| !values.binary_search(x).is_ok_and(|c| has(sup, c as u32)))
                    .collect();
                for x in gone {
                    d.remove(v, x)?;
                }
            }
        }
        Ok(())
    }
    fn violated(&mut self, d: &Domains) -> bool {
        self.load(d, true);
        !self.pass()
    }
    fn consistent_on_last_open(&self) -> bool {
        true
    }
    fn weight(&self) -> u32 {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    fn diagram(rows: &[&[i64]]) -> Arc<Mdd> {
        let rows: Vec<Vec<i64>> = rows.iter().map(|r| r.to_vec()).collect();
        Arc::new(Mdd::from_rows(rows.first().map_or(0, Vec::len), &rows))
    }

    #[test]
    fn prefix_pruning_as_in_a_trie() {
        // cab, can, cat, dog (c=3, a=1, b=2, n=14, t=20, d=4, o=15, g=7).
        let m = diagram(&[&[3, 1, 2], &[3, 1, 14], &[3, 1, 20], &[4, 15, 7]]);
        let mut h = Harness::new();
        let x = [h.range(0, 26), h.range(0, 26), h.range(0, 26)];
        let p = MddProp::new(&mut h.engine.doms, x.to_vec(), m).unwrap();
        h.post(p);
        assert_eq!(h.values(x[0]), vec![3, 4]);
        assert_eq!(h.values(x[1]), vec![1, 15]);
        assert_eq!(h.values(x[2]), vec![2, 7, 14, 20]);
        h.fix(x[0], 3).unwrap();
        assert_eq!(h.values(x[1]), vec![1]);
        assert_eq!(h.values(x[2]), vec![2, 14, 20]);
        h.remove(x[2], 2).unwrap();
        h.remove(x[2], 14).unwrap();
        assert_eq!(h.values(x[2]), vec![20]);
        assert!(h.remove(x[2], 20).is_err());
    }

    #[test]
    fn empty_diagram_fails() {
        let mut h = Harness::new();
        let x = [h.range(0, 3), h.range(0, 3)];
        let m = Arc::new(Mdd::from_rows(2, &[]));
        let p = MddProp::new(&mut h.engine.doms, x.to_vec(), m).unwrap();
        assert!(h.try_post(p).is_err());
    }

    /// A fixed random table over -3..=4, the same for `make` and `holds`.
    fn random_rows(arity: usize, seed: u64) -> Vec<Vec<i64>> {
        let mut s = seed;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..(3 * arity + 4))
            .map(|_| (0..arity).map(|_| (next() % 8) as i64 - 3).collect())
            .collect()
    }

    #[test]
    fn domain_consistent_against_brute_force() {
        for arity in 1..=4 {
            let rows = random_rows(arity, 0x9e37_79b9 + arity as u64);
            let m = Arc::new(Mdd::from_rows(arity, &rows));
            check_random(
                "mdd",
                Strength::Domain,
                arity,
                |d, vars| Some(Box::new(MddProp::new(d, vars.to_vec(), m.clone())?)),
                |t| rows.iter().any(|r| r == t),
            );
        }
    }
}
