//! Branch and bound: the variable to minimise, the bound every node
//! imposes, and, on several threads, the bound and best solution shared
//! with the other searches (a split's, or a portfolio's).

use crate::engine::domains::Domains;
use crate::model::VarId;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

pub(super) struct Objective {
    var: VarId,
    /// The largest value the objective may still take: one below the best
    /// solution so far.
    bound: Option<i64>,
    /// The bound shared with searches on other threads (`i64::MAX`: none yet).
    shared_bound: Option<Arc<AtomicI64>>,
    /// The best solution of all the searches sharing it (a portfolio), which
    /// LNS takes as its own when it is better.
    shared_best: Option<Arc<Mutex<Vec<i64>>>>,
    /// The best solution so far, one value per variable (empty before the first).
    best: Vec<i64>,
}

impl Objective {
    /// Minimises `var`: after each solution, every later one must have a
    /// strictly smaller value.
    pub(super) fn new(var: VarId) -> Self {
        Objective {
            var,
            bound: None,
            shared_bound: None,
            shared_best: None,
            best: Vec::new(),
        }
    }

    /// Shares the bound with other searches (parallel branch and bound):
    /// each solution lowers it for all, and each node imposes the lowest.
    pub(super) fn share_bound(&mut self, bound: Arc<AtomicI64>) {
        self.shared_bound = Some(bound);
    }

    /// Shares the best solution too (searches of the whole problem side by
    /// side, a portfolio): each better solution is published, and
    /// [`Self::adopt_best`] takes the best one published.
    pub(super) fn share_best(&mut self, best: Arc<Mutex<Vec<i64>>>) {
        self.shared_best = Some(best);
    }

    /// The best solution so far, empty before the first.
    pub(super) fn best(&self) -> &[i64] {
        &self.best
    }

    /// Imposes the current bound, this search's or a shared lower one (part
    /// of every node's propagation, so that it holds in all open branches
    /// without restarting); false when that empties the domain.
    #[inline]
    pub(super) fn enforce(&self, doms: &mut Domains) -> bool {
        let shared = self
            .shared_bound
            .as_ref()
            .map(|b| b.load(Ordering::Relaxed))
            .filter(|&b| b != i64::MAX);
        let bound = match (self.bound, shared) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        bound.is_none_or(|b| doms.set_max(self.var, b).is_ok())
    }

    /// A solution (every variable's value), better than any before under
    /// the bound: it becomes the best, the bound drops below it, and the
    /// searches sharing them hear of both.
    pub(super) fn found(&mut self, values: &[i64]) {
        let bound = values[self.var].saturating_sub(1);
        self.bound = Some(bound);
        if let Some(shared) = &self.shared_bound {
            shared.fetch_min(bound, Ordering::Relaxed);
        }
        self.best.clear();
        self.best.extend_from_slice(values);
        let o = self.var;
        if let Some(shared) = &self.shared_best
            && let Ok(mut theirs) = shared.lock()
            && theirs.get(o).is_none_or(|&t| self.best[o] < t)
        {
            theirs.clone_from(&self.best);
        }
    }

    /// Takes the published best solution when it is better than this
    /// search's own (the shared bound says so without taking the lock);
    /// true when it did.
    pub(super) fn adopt_best(&mut self) -> bool {
        let (Some(shared), Some(bound)) = (&self.shared_best, &self.shared_bound) else {
            return false;
        };
        if self
            .bound
            .is_some_and(|own| bound.load(Ordering::Relaxed) >= own)
        {
            return false;
        }
        let o = self.var;
        let Ok(theirs) = shared.lock() else {
            return false;
        };
        let better = theirs
            .get(o)
            .is_some_and(|&t| self.best.get(o).is_none_or(|&m| t < m));
        if better {
            self.best.clone_from(&theirs);
        }
        better
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;

    #[test]
    fn each_solution_lowers_the_bound_for_every_search_sharing_it() {
        let mut h = Harness::new();
        let x = h.range(0, 9);
        let shared = Arc::new(AtomicI64::new(i64::MAX));
        let best = Arc::new(Mutex::new(Vec::new()));
        let mut a = Objective::new(x);
        let mut b = Objective::new(x);
        for o in [&mut a, &mut b] {
            o.share_bound(Arc::clone(&shared));
            o.share_best(Arc::clone(&best));
        }
        assert!(a.enforce(&mut h.engine.doms));
        assert_eq!(h.bounds(x), (0, 9), "no bound before a solution");
        a.found(&[6]);
        assert_eq!(shared.load(Ordering::Relaxed), 5);
        assert!(b.enforce(&mut h.engine.doms));
        assert_eq!(h.bounds(x), (0, 5), "b imposes a's bound");
        assert!(b.adopt_best(), "b takes a's solution");
        assert_eq!(b.best(), &[6]);
        assert!(!a.adopt_best(), "a has nothing better to take");
        b.found(&[2]);
        assert_eq!(*best.lock().unwrap(), vec![2]);
        a.found(&[4]);
        assert_eq!(
            *best.lock().unwrap(),
            vec![2],
            "a worse solution is not published"
        );
        assert!(a.adopt_best());
        assert!(a.enforce(&mut h.engine.doms));
        assert_eq!(h.bounds(x), (0, 1));
        h.engine.doms.fix(x, 0).unwrap();
        let mut c = Objective::new(x);
        c.found(&[0]);
        assert!(!c.enforce(&mut h.engine.doms), "nothing is below 0");
    }
}
