//! Large-neighbourhood search (Shaw, CP 1998), as Choco does it: once branch
//! and bound has a solution, each iteration restarts, fixes a part of the
//! variables to their values in the best solution (the neighbourhood is what
//! stays free), and searches the rest for a better solution within a small
//! budget of failures. An improvement, the budget running out or the
//! neighbourhood being exhausted ends the iteration.
//!
//! Two neighbourhoods:
//!
//! - **random**: a random fraction of the variables is fixed;
//! - **propagation-guided** (Perron, Shaw & Furnon, "Propagation guided
//!   large neighborhood search", CP 2004): variables are fixed one at a time
//!   with propagation in between; the next one is the variable whose domain
//!   the last fixing reduced most (it is linked to the fixed ones), or a
//!   random one, until the free variables' search space (Σ log₂ of their
//!   domain sizes) is small enough.
//!
//! `mixed` alternates the two. The size of the neighbourhood adapts: an
//! exhausted neighbourhood was too small, one that ran out of budget too large.
//!
//! LNS alone proves nothing. Between neighbourhoods it gives the same number
//! of failures to slices of complete search (restarts with growing, Luby
//! budgets under the current bound), so a small problem is still proved
//! optimal, and a large one gets both.

use crate::engine::Engine;
use crate::engine::restart::luby;
use crate::engine::select::Rng;
use crate::model::VarId;
use crate::model::search::LnsKind;
use rand::RngExt;

/// Failures allowed in one neighbourhood.
const NEIGHBOURHOOD_FAILURES: u64 = 100;
/// Failures of the first complete slice; later slices follow Luby's sequence.
const SLICE_FAILURES: u64 = 500;

/// What the next iteration does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Fix a neighbourhood and search it with this many failures.
    Neighbourhood(u64),
    /// Search everything (under the bound) with this many failures.
    Complete(u64),
}

/// How an iteration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// It found a better solution.
    Improved,
    /// Its tree was searched to the end without a better solution.
    Exhausted,
    /// Its budget ran out.
    Limit,
}

pub(crate) struct Lns {
    kind: LnsKind,
    iterations: u64,
    /// The share of the variables (random) or of the search space
    /// (propagation-guided) left free.
    free: f64,
    /// Failures spent in neighbourhoods since the last complete slice.
    spent: u64,
    slices: u64,
    /// Whether the iteration under way is a neighbourhood.
    in_neighbourhood: bool,
    /// Scratch for propagation guidance.
    sizes: Vec<f64>,
    fixed: Vec<bool>,
    order: Vec<usize>,
}

impl Lns {
    /// LNS of this kind; `None` for `LnsKind::None`.
    pub(crate) fn new(kind: LnsKind) -> Option<Self> {
        (kind != LnsKind::None).then_some(Lns {
            kind,
            iterations: 0,
            free: 0.3,
            spent: 0,
            slices: 0,
            in_neighbourhood: false,
            sizes: Vec::new(),
            fixed: Vec::new(),
            order: Vec::new(),
        })
    }

    /// Neighbourhoods searched so far.
    pub(crate) fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The next iteration: a neighbourhood, or, once neighbourhoods have
    /// used as many failures as the next complete slice would, that slice.
    pub(crate) fn plan(&mut self) -> Plan {
        let slice = SLICE_FAILURES * luby(self.slices + 1);
        if self.spent >= slice {
            self.spent = 0;
            self.slices += 1;
            self.in_neighbourhood = false;
            return Plan::Complete(slice);
        }
        self.in_neighbourhood = true;
        self.iterations += 1;
        Plan::Neighbourhood(NEIGHBOURHOOD_FAILURES)
    }

    /// The iteration under way ended after `failures` failures.
    pub(crate) fn finished(&mut self, end: End, failures: u64) {
        if !self.in_neighbourhood {
            return;
        }
        self.spent += failures;
        self.free = match end {
            End::Improved => self.free,
            End::Exhausted => (self.free * 1.1).min(0.95),
            End::Limit => (self.free * 0.97).max(0.01),
        };
    }

    /// Fixes a neighbourhood's variables to their values in `best` (one
    /// value per engine variable), propagating after each; a fixing that
    /// fails is undone and skipped. Returns how many were fixed.
    pub(crate) fn fix(
        &mut self,
        engine: &mut Engine,
        primary: &[VarId],
        best: &[i64],
        rng: &mut Rng,
    ) -> usize {
        let guided = match self.kind {
            LnsKind::None | LnsKind::Random => false,
            LnsKind::Propagation => true,
            LnsKind::Mixed => self.iterations.is_multiple_of(2),
        };
        if guided {
            self.fix_guided(engine, primary, best, rng)
        } else {
            self.fix_random(engine, primary, best, rng)
        }
    }

    fn fix_random(
        &mut self,
        engine: &mut Engine,
        primary: &[VarId],
        best: &[i64],
        rng: &mut Rng,
    ) -> usize {
        let n = primary.len();
        let target = ((1.0 - self.free) * n as f64).round() as usize;
        self.order.clear();
        self.order.extend(0..n);
        let mut fixed = 0;
        for k in 0..n {
            if fixed >= target {
                break;
            }
            let pick = rng.random_range(k..n);
            self.order.swap(k, pick);
            let v = primary[self.order[k]];
            if try_fix(engine, v, best[v]) {
                fixed += 1;
            }
        }
        fixed
    }

    fn fix_guided(
        &mut self,
        engine: &mut Engine,
        primary: &[VarId],
        best: &[i64],
        rng: &mut Rng,
    ) -> usize {
        let n = primary.len();
        let log = |e: &Engine, v: VarId| (e.doms.size(v).max(1) as f64).log2();
        self.sizes.clear();
        self.sizes.extend(primary.iter().map(|&v| log(engine, v)));
        let total: f64 = self.sizes.iter().sum();
        let target = self.free * total;
        self.fixed.clear();
        self.fixed.resize(n, false);
        let mut space = total;
        let mut fixed = 0;
        let mut next: Option<usize> = None;
        let mut tries = 0;
        while space > target && tries < 2 * n {
            tries += 1;
            let i = match next.take() {
                Some(i) => i,
                None => {
                    let open: Vec<usize> = (0..n)
                        .filter(|&i| !self.fixed[i] && !engine.doms.is_fixed(primary[i]))
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    open[rng.random_range(0..open.len())]
                }
            };
            self.fixed[i] = true;
            let v = primary[i];
            if !try_fix(engine, v, best[v]) {
                continue;
            }
            fixed += 1;
            // The variable whose domain shrank most, relative to its size,
            // is the one most linked to what was just fixed.
            let mut best_drop = 0.0;
            space = 0.0;
            for (j, &w) in primary.iter().enumerate() {
                let now = log(engine, w);
                space += now;
                let before = self.sizes[j];
                if !self.fixed[j] && now > 0.0 && before > now {
                    let drop = (before - now) / before;
                    if drop > best_drop {
                        best_drop = drop;
                        next = Some(j);
                    }
                }
                self.sizes[j] = now;
            }
        }
        fixed
    }
}

/// Fixes `v` to `x` and propagates; undoes it and says false if that fails.
fn try_fix(engine: &mut Engine, v: VarId, x: i64) -> bool {
    if engine.doms.is_fixed(v) || !engine.doms.contains(v, x) {
        return false;
    }
    let cp = engine.doms.checkpoint();
    let ok = engine.doms.fix(v, x).is_ok() && engine.propagate_decision(v).is_ok();
    if !ok {
        engine.doms.restore(cp);
        engine.failed = None;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_slices_get_as_many_failures_as_neighbourhoods() {
        let mut lns = Lns::new(LnsKind::Random).unwrap();
        let mut neighbourhood = 0;
        let mut complete = 0;
        for _ in 0..200 {
            match lns.plan() {
                Plan::Neighbourhood(b) => {
                    neighbourhood += b;
                    lns.finished(End::Limit, b);
                }
                Plan::Complete(b) => {
                    complete += b;
                    lns.finished(End::Limit, b);
                }
            }
        }
        assert!(complete > 0 && neighbourhood > 0);
        let ratio = complete as f64 / neighbourhood as f64;
        assert!((0.5..=1.5).contains(&ratio), "{ratio}");
    }

    #[test]
    fn neighbourhoods_grow_when_exhausted_and_shrink_at_the_limit() {
        let mut lns = Lns::new(LnsKind::Random).unwrap();
        assert!(matches!(lns.plan(), Plan::Neighbourhood(_)));
        let free = lns.free;
        lns.finished(End::Exhausted, 3);
        assert!(lns.free > free);
        lns.plan();
        lns.finished(End::Limit, 100);
        lns.plan();
        lns.finished(End::Limit, 100);
        assert!(lns.free < free * 1.1);
    }
}
