//! Counting the solutions of a tree of word crossings without branching, for
//! counting by components (`components.rs`).
//!
//! When the open variables of a component are linked only by word
//! intersections between two open variables, and those form a tree (every
//! other propagator on them has one open variable and guarantees its domain
//! is consistent with the fixed ones:
//! [`Propagator::consistent_on_last_open`]), the number of its solutions is a
//! sum-product over letters (dynamic programming from the leaves): a leaf
//! sends, for each letter of its parent's crossing position, how many of its
//! words carry that letter there (popcounts of support bitsets); an inner
//! variable weighs each of its words by the product of its children's
//! messages at that word's letters.
//!
//! Which propagators are word intersections, and their letter indexes, come
//! from the table that lowering fills ([`Crossings`]).
//!
//! [`Propagator::consistent_on_last_open`]: super::propagator::Propagator::consistent_on_last_open

use super::crossings::Crossings;
use super::props::wordcross::Crossing;
use super::{Engine, PropId};
use crate::model::VarId;
use std::collections::HashMap;

/// Scratch space kept between calls.
#[derive(Default)]
pub(crate) struct Counter {
    open: Vec<VarId>,
    /// Per local id: the adjacent (propagator, other local id) edges.
    adj: Vec<Vec<(usize, usize)>>,
}

impl Counter {
    /// The number of solutions of the tree whose vertices are `vars` (open,
    /// bitset domains) and whose edges are the crossings `edges`
    /// (propagator, endpoints): `vars.len() - 1` of them, connected.
    pub(crate) fn tree(
        &mut self,
        engine: &Engine,
        crossings: &Crossings,
        vars: &[VarId],
        edges: &[(PropId, VarId, VarId)],
    ) -> u128 {
        if vars.len() == 1 {
            return u128::from(engine.doms.size(vars[0]));
        }
        self.open.clear();
        self.open.extend_from_slice(vars);
        let n = vars.len();
        self.adj.iter_mut().for_each(Vec::clear);
        if self.adj.len() < n {
            self.adj.resize(n, Vec::new());
        }
        let local = |v: VarId| vars.iter().position(|&w| w == v).unwrap_or(0);
        for &(p, a, b) in edges {
            let (la, lb) = (local(a), local(b));
            self.adj[la].push((p, lb));
            self.adj[lb].push((p, la));
        }
        let mut done = vec![false; n];
        // Root the tree at a leaf, so the root's sum groups by letter.
        let root = self.leaf_of(0);
        self.root_count(engine, crossings, root, &mut done)
    }

    /// A vertex of degree one in `x`'s tree (of two or more vertices): a
    /// walk that never turns back ends at one.
    fn leaf_of(&self, x: usize) -> usize {
        let (mut prev, mut cur) = (usize::MAX, x);
        while self.adj[cur].len() != 1 {
            let Some(&(_, y)) = self.adj[cur].iter().find(|&&(_, y)| y != prev) else {
                break;
            };
            prev = cur;
            cur = y;
        }
        cur
    }

    /// The count of the tree rooted at leaf `root`.
    fn root_count(&self, engine: &Engine, cs: &Crossings, root: usize, done: &mut [bool]) -> u128 {
        done[root] = true;
        let (p, child) = self.adj[root][0];
        let wc = cross(cs, p);
        let rv = self.open[root];
        let s = wc.side(rv);
        let msg = self.message(engine, cs, child, p, root, done);
        let idx = wc.letters_on(s);
        match msg {
            Message::Dense(msg) => idx
                .counts(engine.doms.bits(rv))
                .iter()
                .zip(&msg)
                .map(|(&c, &m)| u128::from(c).saturating_mul(m))
                .fold(0u128, u128::saturating_add),
            // A huge alphabet: one pass over the root's words.
            Message::Sparse(msg) => engine
                .doms
                .values(rv)
                .filter_map(|w| msg.get(&idx.letter_of(w)?).copied())
                .fold(0u128, u128::saturating_add),
        }
    }

    /// For each letter of `parent`'s crossing position on propagator `via`:
    /// the number of assignments of `x`'s subtree whose `x` word carries it.
    fn message(
        &self,
        engine: &Engine,
        cs: &Crossings,
        x: usize,
        via: usize,
        parent: usize,
        done: &mut [bool],
    ) -> Message {
        done[x] = true;
        let d = &engine.doms;
        let xv = self.open[x];
        let wc = cross(cs, via);
        let (sp, sx) = (wc.side(self.open[parent]), wc.side(xv));
        let pidx = wc.letters_on(sp);
        let xidx = wc.letters_on(sx);
        let children: Vec<(usize, usize)> = self.adj[x]
            .iter()
            .copied()
            .filter(|&(p, y)| !(p == via && y == parent))
            .collect();
        let subs: Vec<(&Crossing, usize, Message)> = children
            .iter()
            .map(|&(p, y)| {
                let c = cross(cs, p);
                (c, c.side(xv), self.message(engine, cs, y, p, x, done))
            })
            .collect();
        // The product of the children's messages at word `w`'s letters.
        let product = |w: i64| {
            let mut prod: u128 = 1;
            for (c, s, m) in &subs {
                prod = match c.letters_on(*s).letter_of(w) {
                    Some(k) => prod.saturating_mul(m.get(k)),
                    None => 0,
                };
                if prod == 0 {
                    break;
                }
            }
            prod
        };
        if !(pidx.dense() && xidx.dense()) {
            // A huge alphabet: only the letters x's words carry, one pass
            // over its domain, never a pass over the alphabet.
            let mut msg = HashMap::new();
            for w in d.values(xv) {
                let Some(kp) = xidx.letter_of(w).and_then(|kx| wc.map(sx, kx)) else {
                    continue;
                };
                let prod = product(w);
                if prod > 0 {
                    let e: &mut u128 = msg.entry(kp).or_default();
                    *e = e.saturating_add(prod);
                }
            }
            return Message::Sparse(msg);
        }
        // Weight of each of x's letters (at the crossing with the parent).
        let mut weight = vec![0u128; xidx.num_letters()];
        if subs.is_empty() {
            let counts = xidx.counts(d.bits(xv));
            for (w, c) in weight.iter_mut().zip(counts) {
                *w = u128::from(c);
            }
        } else {
            for w in d.values(xv) {
                let Some(kx) = xidx.letter_of(w) else {
                    continue;
                };
                weight[kx] = weight[kx].saturating_add(product(w));
            }
        }
        Message::Dense(
            (0..pidx.num_letters())
                .map(|k| wc.map(sp, k).map_or(0, |kx| weight[kx]))
                .collect(),
        )
    }
}

/// What a subtree sends its parent: a count per letter of the parent's
/// crossing position, for every letter, or (a huge alphabet) for the
/// letters with a non-zero count only.
enum Message {
    Dense(Vec<u128>),
    Sparse(HashMap<usize, u128>),
}

impl Message {
    fn get(&self, k: usize) -> u128 {
        match self {
            Message::Dense(m) => m.get(k).copied().unwrap_or(0),
            Message::Sparse(m) => m.get(&k).copied().unwrap_or(0),
        }
    }
}

#[expect(
    clippy::expect_used,
    reason = "edges are only built from propagators that are crossings"
)]
fn cross(cs: &Crossings, p: usize) -> &Crossing {
    cs.get(p).expect("edges are word intersections")
}
