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
pub(crate) const NEG: i64 = i64::MIN / 4;

/// Σp and ECT of the tasks of Θ in a subtree.
#[derive(Clone, Copy, Debug)]
struct Theta {
    sum: i64,
    ect: i64,
}

const NO_THETA: Theta = Theta { sum: 0, ect: NEG };

/// The same with at most one gray task added, and the gray task responsible
/// for each (`NONE` if none).
#[derive(Clone, Copy, Debug)]
struct Lambda {
    sum: i64,
    ect: i64,
    sum_resp: u32,
    ect_resp: u32,
}

const NO_LAMBDA: Lambda = Lambda {
    sum: 0,
    ect: NEG,
    sum_resp: NONE,
    ect_resp: NONE,
};

/// No task responsible.
const NONE: u32 = u32::MAX;

/// A Θ-Λ-tree over tasks given by their earliest start and duration. Node 1
/// is the root, node `k` has children `2k` and `2k + 1`; without gray tasks
/// only the Θ half is kept up, which is what most rules need.
#[derive(Default)]
pub(crate) struct ThetaTree {
    theta: Vec<Theta>,
    lambda: Vec<Lambda>,
    /// First leaf's index (leaves are a power of two).
    base: usize,
    /// For each task, its leaf rank (position in earliest-start order).
    rank: Vec<usize>,
    est: Vec<i64>,
    dur: Vec<i64>,
    /// Whether gray tasks are in use.
    gray: bool,
}

impl ThetaTree {
    /// An empty tree over these tasks (`est[i]`, `dur[i]`); `order` holds
    /// scratch space for the sort by earliest start.
    #[cfg(test)]
    pub(crate) fn reset(&mut self, est: &[i64], dur: &[i64], order: &mut Vec<usize>) {
        order.clear();
        order.extend(0..est.len());
        order.sort_unstable_by_key(|&i| (est[i], i));
        self.reset_sorted(est, dur, order);
    }

    /// An empty tree over these tasks, given in order of earliest start.
    pub(crate) fn reset_sorted(&mut self, est: &[i64], dur: &[i64], order: &[usize]) {
        let n = est.len();
        self.base = n.next_power_of_two().max(1);
        self.theta.clear();
        self.theta.resize(2 * self.base, NO_THETA);
        self.lambda.clear();
        self.lambda.resize(2 * self.base, NO_LAMBDA);
        self.rank.clear();
        self.rank.resize(n, 0);
        for (r, &i) in order.iter().enumerate() {
            self.rank[i] = r;
        }
        self.est.clear();
        self.est.extend_from_slice(est);
        self.dur.clear();
        self.dur.extend_from_slice(dur);
        self.gray = false;
    }

    /// Empties both sets, keeping the tasks; `gray` says whether gray tasks
    /// will be used (keeping them up costs time).
    pub(crate) fn clear(&mut self, gray: bool) {
        self.theta.fill(NO_THETA);
        if gray {
            self.lambda.fill(NO_LAMBDA);
        }
        self.gray = gray;
    }

    /// Puts task `i` in Θ (white).
    pub(crate) fn insert(&mut self, i: usize) {
        let k = self.base + self.rank[i];
        self.set_white(k, i);
        self.update(k);
    }

    /// Puts every task in Θ at once, in O(n).
    pub(crate) fn insert_all(&mut self) {
        for i in 0..self.est.len() {
            self.set_white(self.base + self.rank[i], i);
        }
        for k in (1..self.base).rev() {
            self.combine(k);
        }
    }

    fn set_white(&mut self, k: usize, i: usize) {
        let (sum, ect) = (self.dur[i], self.est[i] + self.dur[i]);
        self.theta[k] = Theta { sum, ect };
        if self.gray {
            self.lambda[k] = Lambda {
                sum,
                ect,
                sum_resp: NONE,
                ect_resp: NONE,
            };
        }
    }

    /// Moves task `i` to Λ (gray); needs `clear(true)`.
    pub(crate) fn gray(&mut self, i: usize) {
        debug_assert!(self.gray, "gray tasks need clear(true)");
        let k = self.base + self.rank[i];
        self.theta[k] = NO_THETA;
        self.lambda[k] = Lambda {
            sum: self.dur[i],
            ect: self.est[i] + self.dur[i],
            sum_resp: i as u32,
            ect_resp: i as u32,
        };
        self.update(k);
    }

    /// Takes task `i` out of both sets.
    pub(crate) fn remove(&mut self, i: usize) {
        let k = self.base + self.rank[i];
        self.theta[k] = NO_THETA;
        if self.gray {
            self.lambda[k] = NO_LAMBDA;
        }
        self.update(k);
    }

    /// ECT(Θ).
    pub(crate) fn ect(&self) -> i64 {
        self.theta[1].ect
    }

    /// ECT̄(Θ, Λ): the largest ECT of Θ plus one gray task.
    pub(crate) fn ect_bar(&self) -> i64 {
        self.lambda[1].ect
    }

    /// The gray task responsible for [`Self::ect_bar`], if any.
    pub(crate) fn responsible(&self) -> Option<usize> {
        let r = self.lambda[1].ect_resp;
        (r != NONE).then_some(r as usize)
    }

    /// Recomputes the ancestors of leaf `k`.
    fn update(&mut self, mut k: usize) {
        while k > 1 {
            k /= 2;
            self.combine(k);
        }
    }

    /// Node `k` from its children (Vilím's recurrences).
    #[inline]
    fn combine(&mut self, k: usize) {
        let [l, r] = [self.theta[2 * k], self.theta[2 * k + 1]];
        self.theta[k] = Theta {
            sum: l.sum + r.sum,
            ect: r.ect.max(l.ect + r.sum),
        };
        if !self.gray {
            return;
        }
        let [lb, rb] = [self.lambda[2 * k], self.lambda[2 * k + 1]];
        let (sum, sum_resp) = if lb.sum + r.sum >= l.sum + rb.sum {
            (lb.sum + r.sum, lb.sum_resp)
        } else {
            (l.sum + rb.sum, rb.sum_resp)
        };
        let (mut ect, mut ect_resp) = (rb.ect, rb.ect_resp);
        if l.ect + rb.sum > ect {
            ect = l.ect + rb.sum;
            ect_resp = rb.sum_resp;
        }
        if lb.ect + r.sum > ect {
            ect = lb.ect + r.sum;
            ect_resp = lb.ect_resp;
        }
        self.lambda[k] = Lambda {
            sum,
            ect,
            sum_resp,
            ect_resp,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ECT by brute force: the best subset is a suffix in est order.
    fn brute_ect(est: &[i64], dur: &[i64], set: &[usize]) -> i64 {
        let mut best = NEG;
        for &a in set {
            let sum: i64 = set
                .iter()
                .filter(|&&b| est[b] >= est[a])
                .map(|&b| dur[b])
                .sum();
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
        t.clear(true);
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
