//! The Θ-Λ-tree of Vilím ("O(n log n) filtering algorithms for unary
//! resource constraint", CPAIOR 2004; "Max energy filtering algorithm for
//! discrete cumulative resources" and his thesis, 2007): a balanced binary
//! tree whose leaves are the tasks in order of earliest start, computing in
//! O(log n) per change the earliest completion time of a set Θ of tasks,
//!
//! ```text
//! ECT(Θ) = max over Θ' ⊆ Θ of ( min est(Θ') + Σ p(Θ') ),
//! ```
//!
//! and, with a second set Λ of "gray" tasks, the largest ECT obtainable by
//! adding at most one gray task to Θ, with the gray task responsible for it.
//! The disjunctive propagator (`disjunctive.rs`) runs overload checking,
//! detectable precedences, not-first/not-last and edge-finding on it.

/// Stands for −∞ in completion times; far from overflow when added to.
pub const NEG: i64 = i64::MIN / 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Σ p over Θ in the subtree.
    sum: i64,
    /// ECT of Θ in the subtree.
    ect: i64,
    /// Largest Σ p with at most one gray task added, and that task.
    sum_bar: i64,
    sum_resp: Option<u32>,
    /// Largest ECT with at most one gray task added, and that task.
    ect_bar: i64,
    ect_resp: Option<u32>,
}

const EMPTY: Node = Node {
    sum: 0,
    ect: NEG,
    sum_bar: 0,
    sum_resp: None,
    ect_bar: NEG,
    ect_resp: None,
};

/// A Θ-Λ-tree over tasks given by their earliest start and duration.
pub struct ThetaTree {
    nodes: Vec<Node>,
    /// First leaf's index in `nodes` (leaves are a power of two).
    base: usize,
    /// For each task, its leaf rank (position in earliest-start order).
    rank: Vec<usize>,
    est: Vec<i64>,
    dur: Vec<i64>,
}

impl Default for ThetaTree {
    fn default() -> Self {
        ThetaTree {
            nodes: Vec::new(),
            base: 1,
            rank: Vec::new(),
            est: Vec::new(),
            dur: Vec::new(),
        }
    }
}

impl ThetaTree {
    /// An empty tree over these tasks (`est[i]`, `dur[i]`); `order` holds
    /// scratch space for the sort by earliest start.
    pub fn reset(&mut self, est: &[i64], dur: &[i64], order: &mut Vec<usize>) {
        let n = est.len();
        self.base = n.next_power_of_two().max(1);
        self.nodes.clear();
        self.nodes.resize(2 * self.base, EMPTY);
        order.clear();
        order.extend(0..n);
        order.sort_unstable_by_key(|&i| (est[i], i));
        self.rank.clear();
        self.rank.resize(n, 0);
        for (r, &i) in order.iter().enumerate() {
            self.rank[i] = r;
        }
        self.est.clear();
        self.est.extend_from_slice(est);
        self.dur.clear();
        self.dur.extend_from_slice(dur);
    }

    /// Puts task `i` in Θ (white).
    pub fn insert(&mut self, i: usize) {
        self.set_leaf(i, self.white(i));
    }

    /// Puts every task in Θ at once, in O(n).
    pub fn insert_all(&mut self) {
        for i in 0..self.est.len() {
            self.nodes[self.base + self.rank[i]] = self.white(i);
        }
        for k in (1..self.base).rev() {
            self.nodes[k] = combine(&self.nodes[2 * k], &self.nodes[2 * k + 1]);
        }
    }

    fn white(&self, i: usize) -> Node {
        let ect = self.est[i] + self.dur[i];
        Node {
            sum: self.dur[i],
            ect,
            sum_bar: self.dur[i],
            sum_resp: None,
            ect_bar: ect,
            ect_resp: None,
        }
    }

    /// Moves task `i` to Λ (gray).
    pub fn gray(&mut self, i: usize) {
        self.set_leaf(
            i,
            Node {
                sum: 0,
                ect: NEG,
                sum_bar: self.dur[i],
                sum_resp: Some(i as u32),
                ect_bar: self.est[i] + self.dur[i],
                ect_resp: Some(i as u32),
            },
        );
    }

    /// Takes task `i` out of both sets.
    pub fn remove(&mut self, i: usize) {
        self.set_leaf(i, EMPTY);
    }

    /// ECT(Θ).
    pub fn ect(&self) -> i64 {
        self.nodes[1].ect
    }

    /// ECT̄(Θ, Λ): the largest ECT of Θ plus one gray task.
    pub fn ect_bar(&self) -> i64 {
        self.nodes[1].ect_bar
    }

    /// The gray task responsible for [`Self::ect_bar`], if any.
    pub fn responsible(&self) -> Option<usize> {
        self.nodes[1].ect_resp.map(|i| i as usize)
    }

    fn set_leaf(&mut self, i: usize, leaf: Node) {
        let mut k = self.base + self.rank[i];
        self.nodes[k] = leaf;
        while k > 1 {
            k /= 2;
            self.nodes[k] = combine(&self.nodes[2 * k], &self.nodes[2 * k + 1]);
        }
    }
}

fn combine(l: &Node, r: &Node) -> Node {
    let (sum_bar, sum_resp) = if l.sum_bar + r.sum >= l.sum + r.sum_bar {
        (l.sum_bar + r.sum, l.sum_resp)
    } else {
        (l.sum + r.sum_bar, r.sum_resp)
    };
    let mut ect_bar = r.ect_bar;
    let mut ect_resp = r.ect_resp;
    if l.ect + r.sum_bar > ect_bar {
        ect_bar = l.ect + r.sum_bar;
        ect_resp = r.sum_resp;
    }
    if l.ect_bar + r.sum > ect_bar {
        ect_bar = l.ect_bar + r.sum;
        ect_resp = l.ect_resp;
    }
    Node {
        sum: l.sum + r.sum,
        ect: r.ect.max(l.ect + r.sum),
        sum_bar,
        sum_resp,
        ect_bar,
        ect_resp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ECT by brute force: the best subset is a suffix in est order.
    fn brute_ect(est: &[i64], dur: &[i64], set: &[usize]) -> i64 {
        let mut best = NEG;
        for &a in set {
            let sum: i64 = set.iter().filter(|&&b| est[b] >= est[a]).map(|&b| dur[b]).sum();
            best = best.max(est[a] + sum);
        }
        best
    }

    #[test]
    fn ect_matches_brute_force_with_and_without_a_gray_task() {
        let est = [0, 25, 30, 32, 1, 14];
        let dur = [5, 9, 5, 10, 3, 6];
        let mut t = ThetaTree::default();
        t.reset(&est, &dur, &mut Vec::new());
        let white = [0, 1, 2, 4];
        for &i in &white {
            t.insert(i);
        }
        assert_eq!(t.ect(), brute_ect(&est, &dur, &white));
        t.gray(3);
        t.gray(5);
        let with = |g: usize| {
            let mut s = white.to_vec();
            s.push(g);
            brute_ect(&est, &dur, &s)
        };
        let best = with(3).max(with(5));
        assert_eq!(t.ect_bar(), best);
        let r = t.responsible().unwrap();
        assert_eq!(with(r), best);
        t.remove(r);
        t.remove(0);
        assert_eq!(t.ect(), brute_ect(&est, &dur, &[1, 2, 4]));
    }
}
