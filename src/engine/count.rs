//! Counting the completions of a node without branching, for `--count`.
//!
//! Under `ac`, at a node where every propagator either has at most one open
//! variable (and then guarantees its domain is consistent with the fixed ones:
//! [`Propagator::consistent_on_last_open`]) or is a word intersection between
//! two open variables, the open variables form a graph whose edges are word
//! intersections. If that graph is a forest, the number of solutions below the
//! node is the product over its trees of each tree's count, and a tree's count
//! is a sum-product over letters (dynamic programming from the leaves):
//! a leaf sends, for each letter of its parent's crossing position, how many
//! of its words carry that letter there (popcounts of support bitsets); an
//! inner variable weighs each of its words by the product of its children's
//! messages at that word's letters. A lone open variable counts its domain
//! size. Any other shape (a cycle, a non-binary constraint over two open
//! variables) returns `None` and the search branches on.
//!
//! Which propagators are word intersections, and their letter indexes, come
//! from the table that lowering fills ([`Crossings`]).
//!
//! [`Propagator::consistent_on_last_open`]: super::propagator::Propagator::consistent_on_last_open

use super::Engine;
use super::props::wordcross::Crossing;
use crate::lower::words::Crossings;
use crate::model::VarId;

/// Scratch space kept between calls.
#[derive(Default)]
pub struct Counter {
    /// Local id of each engine variable, `usize::MAX` when not open.
    local: Vec<usize>,
    open: Vec<VarId>,
    /// Per local id: the adjacent (propagator, other local id) edges.
    adj: Vec<Vec<(usize, usize)>>,
    parent: Vec<usize>,
}

impl Counter {
    /// The number of solutions below the current node, if the open part has
    /// a shape this counts; `None` otherwise (also when nothing is open).
    pub fn count(&mut self, engine: &Engine, crossings: &Crossings, vars: &[VarId]) -> Option<u64> {
        let d = &engine.doms;
        // A quick pass first: most nodes of most models fail it at once.
        for (p, prop) in engine.props.iter().enumerate() {
            let open = prop.vars().iter().filter(|&&v| !d.is_fixed(v)).count();
            let fine = match open {
                0 => true,
                1 => prop.consistent_on_last_open(),
                2 => crossings.get(p).is_some(),
                _ => false,
            };
            if !fine {
                return None;
            }
        }
        self.local.clear();
        self.local.resize(d.num_vars(), usize::MAX);
        self.open.clear();
        for &v in vars {
            if !d.is_fixed(v) {
                // Sizes of domains held by bounds only are not exact counts.
                if !d.is_bitset(v) {
                    return None;
                }
                self.local[v] = self.open.len();
                self.open.push(v);
            }
        }
        if self.open.is_empty() {
            return None;
        }
        let n = self.open.len();
        self.adj.iter_mut().for_each(Vec::clear);
        self.adj.resize(n, Vec::new());
        // Union-find to detect cycles while adding edges.
        self.parent.clear();
        self.parent.extend(0..n);
        for (p, prop) in engine.props.iter().enumerate() {
            let mut open = [usize::MAX; 2];
            let mut k = 0;
            for &v in prop.vars() {
                if !d.is_fixed(v) {
                    if k == 2 || self.local[v] == usize::MAX {
                        return None;
                    }
                    open[k] = self.local[v];
                    k += 1;
                }
            }
            match k {
                0 => {}
                1 if prop.consistent_on_last_open() => {}
                2 if crossings.get(p).is_some() && open[0] != open[1] => {
                    let (ra, rb) = (
                        find(&mut self.parent, open[0]),
                        find(&mut self.parent, open[1]),
                    );
                    if ra == rb {
                        return None;
                    }
                    self.parent[ra] = rb;
                    self.adj[open[0]].push((p, open[1]));
                    self.adj[open[1]].push((p, open[0]));
                }
                _ => return None,
            }
        }
        let mut total: u128 = 1;
        let mut done = vec![false; n];
        for x in 0..n {
            if done[x] || total == 0 {
                continue;
            }
            let c = if self.adj[x].is_empty() {
                done[x] = true;
                u128::from(d.size(self.open[x]))
            } else {
                // Root the tree at a leaf, so the root's sum groups by letter.
                let root = self.leaf_of(x);
                self.tree(engine, crossings, root, &mut done)
            };
            total = total.saturating_mul(c);
        }
        Some(u64::try_from(total).unwrap_or(u64::MAX))
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
    fn tree(&self, engine: &Engine, cs: &Crossings, root: usize, done: &mut [bool]) -> u128 {
        done[root] = true;
        let (p, child) = self.adj[root][0];
        let wc = cross(cs, p);
        let rv = self.open[root];
        let s = wc.side(rv);
        let msg = self.message(engine, cs, child, p, root, done);
        let idx = wc.letters_on(s);
        let bits = engine.doms.bits(rv);
        (0..idx.num_letters())
            .map(|k| u128::from(idx.count(k, bits)).saturating_mul(msg[k]))
            .fold(0u128, u128::saturating_add)
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
    ) -> Vec<u128> {
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
        // Weight of each of x's letters (at the crossing with the parent).
        let mut weight = vec![0u128; xidx.num_letters()];
        if children.is_empty() {
            let bits = d.bits(xv);
            for (k, w) in weight.iter_mut().enumerate() {
                *w = u128::from(xidx.count(k, bits));
            }
        } else {
            let subs: Vec<(&Crossing, usize, Vec<u128>)> = children
                .iter()
                .map(|&(p, y)| {
                    let c = cross(cs, p);
                    (c, c.side(xv), self.message(engine, cs, y, p, x, done))
                })
                .collect();
            for w in d.values(xv) {
                let Some(kx) = xidx.letter_of(w) else {
                    continue;
                };
                let mut prod: u128 = 1;
                for (c, s, m) in &subs {
                    prod = match c.letters_on(*s).letter_of(w) {
                        Some(k) => prod.saturating_mul(m[k]),
                        None => 0,
                    };
                    if prod == 0 {
                        break;
                    }
                }
                weight[kx] = weight[kx].saturating_add(prod);
            }
        }
        (0..pidx.num_letters())
            .map(|k| wc.map(sp, k).map_or(0, |kx| weight[kx]))
            .collect()
    }
}

#[expect(
    clippy::expect_used,
    reason = "edges are only built from propagators that are crossings"
)]
fn cross(cs: &Crossings, p: usize) -> &Crossing {
    cs.get(p).expect("edges are word intersections")
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}
