//! `sequence(x, S, k, low, high)` as one constraint: every window of `k`
//! consecutive `x_i` holds between `low` and `high` values of `S`. With
//! `b_i` = [x_i ∈ S] and the partial sums `s_0 = 0`, `s_i = s_{i-1} + b_i`,
//! the constraint is the system of difference constraints `lb_i <= s_i -
//! s_{i-1} <= ub_i` (the bits the domains still allow) and `low <= s_{j+k}
//! - s_j <= high`: a simple temporal network, integral, feasible exactly
//! when its graph has no negative cycle (Brand, Narodytska, Quimper,
//! Stuckey, Walsh, "Encodings of the SEQUENCE constraint", CP 2007; Maher
//! et al., CP 2008). `b_i` can be 1 exactly when the shortest path from
//! `s_{i-1}` to `s_i` is at least 1, and 0 when the one from `s_i` to
//! `s_{i-1}` is at least 0, so the propagator is domain consistent on the
//! `x_i` across all windows at once (the overlapping `among`s it is posted
//! with are consistent per window only). One run: Bellman-Ford for
//! potentials (or the failure), then Dijkstra over reduced costs from each
//! node next to an open position, stopped when its two neighbours are
//! settled: O(n·m log n) at worst for `m ≈ 4n` edges, little in practice.

use super::among::{meets_and_inside, restrict_to};
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub(crate) struct Sequence {
    vars: Vec<VarId>,
    /// `S`, sorted and distinct.
    set: Vec<i64>,
    k: usize,
    low: i64,
    high: i64,
    /// Scratch: the graph's edges out of each node `(to, weight)`.
    out: Vec<Vec<(usize, i64)>>,
}

impl Sequence {
    /// `None` for windows longer than the sequence or an empty window
    /// (the decomposition says all there is), or an empty count range.
    pub(crate) fn new(
        xs: &[VarId],
        mut set: Vec<i64>,
        k: usize,
        low: i64,
        high: i64,
    ) -> Option<Self> {
        set.sort_unstable();
        set.dedup();
        let (low, high) = (low.max(0), high.min(k as i64));
        if k == 0 || k > xs.len() || low > high {
            return None;
        }
        Some(Sequence {
            vars: xs.to_vec(),
            set,
            k,
            low,
            high,
            out: vec![Vec::new(); xs.len() + 1],
        })
    }

    /// Shortest distances from `src` over reduced costs `w + p[u] - p[v]`,
    /// until `targets` are settled; the true distances to them, `None` where
    /// unreachable.
    fn distances(&self, p: &[i64], src: usize, targets: [usize; 2]) -> [Option<i64>; 2] {
        let n = self.out.len();
        let mut dist = vec![i64::MAX; n];
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        dist[src] = 0;
        heap.push(Reverse((0i64, src)));
        let mut left = targets.iter().filter(|&&t| t < n).count();
        while let Some(Reverse((du, u))) = heap.pop() {
            if done[u] || du > dist[u] {
                continue;
            }
            done[u] = true;
            if targets.contains(&u) {
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            for &(v, w) in &self.out[u] {
                let reduced = w + p[u] - p[v];
                let dv = du + reduced;
                if dv < dist[v] {
                    dist[v] = dv;
                    heap.push(Reverse((dv, v)));
                }
            }
        }
        targets.map(|t| (t < n && done[t]).then(|| dist[t] - p[src] + p[t]))
    }
}

impl Propagator for Sequence {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.vars.len();
        // The bits each position still allows.
        let mut lb = vec![0i64; n];
        let mut ub = vec![0i64; n];
        for i in 0..n {
            let (meets, inside) = meets_and_inside(&self.set, d, self.vars[i]);
            lb[i] = inside as i64;
            ub[i] = meets as i64;
        }
        // Edge u -> v of weight w: s_v - s_u <= w. Node i is s_i.
        for e in &mut self.out {
            e.clear();
        }
        for i in 1..=n {
            self.out[i - 1].push((i, ub[i - 1]));
            self.out[i].push((i - 1, -lb[i - 1]));
        }
        for j in 0..=n - self.k {
            self.out[j].push((j + self.k, self.high));
            self.out[j + self.k].push((j, -self.low));
        }
        // Potentials by Bellman-Ford from a virtual source at distance 0 to
        // every node; still relaxing after n + 1 rounds: a negative cycle.
        let mut p = vec![0i64; n + 1];
        let mut settled = false;
        for _ in 0..=n + 1 {
            let mut changed = false;
            for u in 0..=n {
                for &(v, w) in &self.out[u] {
                    if p[u] + w < p[v] {
                        p[v] = p[u] + w;
                        changed = true;
                    }
                }
            }
            if !changed {
                settled = true;
                break;
            }
        }
        if !settled {
            return Err(Fail);
        }
        // Each open position: can its bit be 1 (d(i-1 -> i) >= 1), 0
        // (d(i -> i-1) >= 0)? From node i-1 toward i, and node i toward i-1.
        let mut forced = Vec::new();
        for i in 1..=n {
            if lb[i - 1] == ub[i - 1] {
                continue;
            }
            let [to_next, _] = self.distances(&p, i - 1, [i, usize::MAX]);
            let [to_prev, _] = self.distances(&p, i, [i - 1, usize::MAX]);
            let one = to_next.is_none_or(|dist| dist >= 1);
            let zero = to_prev.is_none_or(|dist| dist >= 0);
            match (zero, one) {
                (true, true) => {}
                (false, false) => return Err(Fail),
                (false, true) => forced.push((i - 1, true)),
                (true, false) => forced.push((i - 1, false)),
            }
        }
        for (i, bit) in forced {
            let x = self.vars[i];
            if bit {
                restrict_to(&self.set, d, x)?;
            } else {
                for &s in &self.set {
                    d.remove(x, s)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::model::globals::holds::sequence as sequence_holds;

    #[test]
    fn windows_together_force_what_each_alone_does_not() {
        // Windows of 2 holding exactly one 1 over 0/1: alternating. The first
        // bit fixed to 1 fixes every other, which no single window sees.
        let mut h = Harness::new();
        let xs: Vec<VarId> = (0..5).map(|_| h.range(0, 1)).collect();
        h.post(Sequence::new(&xs, vec![1], 2, 1, 1).unwrap());
        h.fix(xs[0], 1).unwrap();
        let got: Vec<(i64, i64)> = xs.iter().map(|&x| h.bounds(x)).collect();
        assert_eq!(got, vec![(1, 1), (0, 0), (1, 1), (0, 0), (1, 1)]);
    }

    #[test]
    fn overlapping_windows_tie_their_ends() {
        // Exactly 2 of every 3 over 4 positions: x0 = x3, which neither
        // window alone says (each allows x3 = 0 with x1 = x2 = 1).
        let mut h = Harness::new();
        let xs: Vec<VarId> = (0..4).map(|_| h.range(0, 1)).collect();
        h.post(Sequence::new(&xs, vec![1], 3, 2, 2).unwrap());
        h.fix(xs[0], 1).unwrap();
        assert_eq!(h.bounds(xs[3]), (1, 1));
        assert_eq!(h.bounds(xs[1]), (0, 1));
    }

    #[test]
    fn agrees_with_brute_force() {
        for (set, k, low, high) in [
            (vec![1], 2, 1, 1),
            (vec![0, 2], 3, 1, 2),
            (vec![-1, 3, 4], 2, 0, 1),
            (vec![2], 3, 2, 3),
            (vec![1, 2], 4, 1, 3),
        ] {
            for arity in [3, 4, 5] {
                let s = set.clone();
                check_random(
                    "sequence",
                    Strength::Domain,
                    arity,
                    |_, xs| {
                        Sequence::new(xs, set.clone(), k, low, high)
                            .map(|p| Box::new(p) as Box<dyn Propagator>)
                    },
                    |vals| sequence_holds(vals, &s, k as i64, low, high),
                );
            }
        }
    }
}
