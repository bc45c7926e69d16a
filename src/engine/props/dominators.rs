//! Dominators in a directed graph from a root: node `a` dominates node `b`
//! when every path from the root to `b` passes through `a`. Computed by the
//! iterative algorithm of Cooper, Harvey & Kennedy ("A simple, fast
//! dominance algorithm", 2001) over a reverse postorder, then numbered by a
//! walk of the dominator tree so that a dominance query is O(1). Used by
//! `circuit.rs` for reachability pruning.

const UNDEF: usize = usize::MAX;

#[derive(Default)]
pub(crate) struct Dominators {
    /// Immediate dominator of each node (`UNDEF` when unreachable).
    idom: Vec<usize>,
    /// Postorder number of each reachable node.
    po: Vec<usize>,
    /// Reachable nodes in reverse postorder.
    rpo: Vec<usize>,
    /// Entry and exit numbers in the dominator tree.
    pre: Vec<usize>,
    post: Vec<usize>,
    /// Scratch.
    stack: Vec<(usize, usize)>,
    children: Vec<Vec<usize>>,
}

impl Dominators {
    /// Dominators from `root` in the graph with arcs `succ` (and `pred`, the
    /// same arcs reversed).
    pub(crate) fn compute(&mut self, succ: &[Vec<usize>], pred: &[Vec<usize>], root: usize) {
        let n = succ.len();
        self.idom.clear();
        self.idom.resize(n, UNDEF);
        self.po.clear();
        self.po.resize(n, UNDEF);
        self.rpo.clear();
        // Depth-first search for a postorder (iterative: graphs may be deep).
        let mut visited = vec![false; n];
        let mut count = 0;
        self.stack.clear();
        self.stack.push((root, 0));
        visited[root] = true;
        while let Some(&mut (v, ref mut next)) = self.stack.last_mut() {
            if let Some(&w) = succ[v].get(*next) {
                *next += 1;
                if !visited[w] {
                    visited[w] = true;
                    self.stack.push((w, 0));
                }
            } else {
                self.po[v] = count;
                count += 1;
                self.rpo.push(v);
                self.stack.pop();
            }
        }
        self.rpo.reverse();
        self.idom[root] = root;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in self.rpo.iter().skip(1) {
                let mut new = UNDEF;
                for &p in &pred[b] {
                    if self.idom[p] == UNDEF {
                        continue;
                    }
                    new = if new == UNDEF {
                        p
                    } else {
                        self.intersect(p, new)
                    };
                }
                if new != UNDEF && self.idom[b] != new {
                    self.idom[b] = new;
                    changed = true;
                }
            }
        }
        self.number(root);
    }

    fn intersect(&self, mut a: usize, mut b: usize) -> usize {
        while a != b {
            while self.po[a] < self.po[b] {
                a = self.idom[a];
            }
            while self.po[b] < self.po[a] {
                b = self.idom[b];
            }
        }
        a
    }

    /// Entry and exit numbers of a walk of the dominator tree.
    fn number(&mut self, root: usize) {
        let n = self.idom.len();
        self.children.resize(n, Vec::new());
        for c in &mut self.children {
            c.clear();
        }
        for v in 0..n {
            let d = self.idom[v];
            if d != UNDEF && v != root {
                self.children[d].push(v);
            }
        }
        self.pre.clear();
        self.pre.resize(n, UNDEF);
        self.post.clear();
        self.post.resize(n, UNDEF);
        let mut clock = 0;
        self.stack.clear();
        self.stack.push((root, 0));
        self.pre[root] = clock;
        clock += 1;
        while let Some(&mut (v, ref mut next)) = self.stack.last_mut() {
            if let Some(&c) = self.children[v].get(*next) {
                *next += 1;
                self.pre[c] = clock;
                clock += 1;
                self.stack.push((c, 0));
            } else {
                self.post[v] = clock;
                clock += 1;
                self.stack.pop();
            }
        }
    }

    /// Whether `v` is reachable from the root.
    pub(crate) fn reached(&self, v: usize) -> bool {
        self.idom[v] != UNDEF
    }

    /// Whether `a` dominates `b` (both reachable; a node dominates itself).
    pub(crate) fn dominates(&self, a: usize, b: usize) -> bool {
        self.reached(a)
            && self.reached(b)
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, arcs: &[(usize, usize)]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let mut succ = vec![Vec::new(); n];
        let mut pred = vec![Vec::new(); n];
        for &(a, b) in arcs {
            succ[a].push(b);
            pred[b].push(a);
        }
        (succ, pred)
    }

    /// Brute force: `a` dominates `b` if `b` is unreachable once `a` is removed.
    fn brute(succ: &[Vec<usize>], root: usize, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        if a == root {
            return true;
        }
        let mut seen = vec![false; succ.len()];
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(v) = stack.pop() {
            for &w in &succ[v] {
                if w != a && !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        !seen[b]
    }

    #[test]
    fn dominance_matches_brute_force_on_random_graphs() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut d = Dominators::default();
        for _ in 0..300 {
            let n = rng.random_range(1..8);
            let arcs: Vec<(usize, usize)> = (0..rng.random_range(0..16))
                .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
                .collect();
            let (succ, pred) = graph(n, &arcs);
            d.compute(&succ, &pred, 0);
            // Reachability by brute force too.
            for b in 0..n {
                let reach = !brute(&succ, 0, usize::MAX, b) || b == 0;
                assert_eq!(d.reached(b), reach || b == 0, "{arcs:?} reach {b}");
                for a in 0..n {
                    if d.reached(a) && d.reached(b) {
                        assert_eq!(
                            d.dominates(a, b),
                            brute(&succ, 0, a, b),
                            "{arcs:?}: {a} dom {b}"
                        );
                    }
                }
            }
        }
    }
}
