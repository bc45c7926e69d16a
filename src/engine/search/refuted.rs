//! What a restart keeps of the path it leaves: each right branch on it
//! says its left branch was searched through, so those decisions are
//! recorded as a nogood (`props/restart_nogoods.rs`, reduced nld-nogoods)
//! and a later descent does not search them again.

use super::Search;
use crate::engine::props::restart_nogoods::{DecLit, Inbox, MAX_LITS, RestartNogoods};
use crate::engine::select::Branch;
use crate::model::Propagation;
use std::rc::Rc;

/// The longest nogood recorded: a right branch under more positive
/// decisions than this is left out (its nogood would rarely prune, and the
/// nogoods of one path cost the square of its depth to build).
const MAX_LEN: usize = 512;

impl Search<'_> {
    /// Whether a restart records nogoods: under `ac`, with plain
    /// depth-first search from the root between restarts. Not with
    /// learning (its own nogoods say more), large neighbourhoods (the
    /// fixings are not decisions), a replayed sub-problem (its right
    /// branches were searched elsewhere) or search by components.
    fn records_refuted(&self) -> bool {
        self.engine.level == Propagation::Ac
            && !self.learning
            && self.lns.is_none()
            && self.replayed == 0
            && !self.components_on
            && self.refuted_lits < MAX_LITS
    }

    /// The nogoods of the current path: for each right branch, the
    /// positive decisions above it and its own left branch. The decisions
    /// completing an assignment of the auxiliary variables are left out
    /// (a failed completion is left without its right branches).
    fn refuted(&self) -> Vec<Vec<DecLit>> {
        let end = self
            .completing
            .unwrap_or(self.stack.len())
            .min(self.stack.len());
        let mut positive = Vec::new();
        let mut nogoods = Vec::new();
        for f in &self.stack[..end] {
            let lit = match f.branch {
                Branch::Assign(v) => DecLit::Eq(f.var, v),
                Branch::AtMost(v) => DecLit::Le(f.var, v),
            };
            if f.right && positive.len() < MAX_LEN {
                let mut n = Vec::with_capacity(positive.len() + 1);
                n.extend_from_slice(&positive);
                n.push(lit);
                nogoods.push(n);
            } else if !f.right {
                positive.push(lit);
            }
        }
        nogoods
    }

    /// Before a restart leaves the path: its nogoods, to hand over once
    /// back at the root ([`Self::keep_refuted`]).
    pub(super) fn take_refuted(&self) -> Vec<Vec<DecLit>> {
        if self.records_refuted() {
            self.refuted()
        } else {
            Vec::new()
        }
    }

    /// At the root after a restart: posts the nogood store the first time,
    /// hands it the nogoods and propagates. False when the root fails: the
    /// nogoods cover the whole tree, which is exhausted.
    pub(super) fn keep_refuted(&mut self, nogoods: Vec<Vec<DecLit>>) -> bool {
        if nogoods.is_empty() {
            return true;
        }
        let (inbox, p) = match &self.refuted_store {
            Some((inbox, p)) => (Rc::clone(inbox), *p),
            None => {
                let inbox = Inbox::default();
                let mut vars = self.order.vars().to_vec();
                for phase in &self.phases {
                    vars.extend_from_slice(phase.order.vars());
                }
                vars.sort_unstable();
                vars.dedup();
                let store = RestartNogoods::new(vars, Rc::clone(&inbox));
                let p = self.engine.add_prop(Box::new(store));
                self.refuted_store = Some((Rc::clone(&inbox), p));
                (inbox, p)
            }
        };
        self.engine.stats.restart_nogoods += nogoods.len() as u64;
        self.refuted_lits += nogoods.iter().map(Vec::len).sum::<usize>();
        inbox.borrow_mut().nogoods.extend(nogoods);
        self.engine.wake(p);
        if self.engine.fixpoint().is_err() {
            self.failed();
            return false;
        }
        true
    }

    /// The search ends: its nogoods go with it (see `Mail::retired`).
    pub(super) fn retire_refuted(&mut self) {
        if let Some((inbox, _)) = &self.refuted_store {
            inbox.borrow_mut().retired = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::alldiff::AllDifferent;
    use crate::engine::props::linear::{LinOp, Linear};
    use crate::engine::search::{Limits, Next, Outcome, Strategy};
    use crate::engine::select::{Rng, val, var};
    use crate::model::{Model, Restarts, ValSelect, VarId, VarSelect};
    use rand::{RngExt, SeedableRng};
    use std::sync::Arc;

    /// `a x + b y + k (op) 0` constraints and one all-different over
    /// `x + c` terms (a variable may come twice).
    struct Case {
        n: usize,
        hi: i64,
        sums: Vec<(i64, VarId, i64, VarId, i64, LinOp)>,
        diff: Vec<(VarId, i64)>,
    }

    impl Case {
        fn random(rng: &mut Rng) -> Case {
            let n = rng.random_range(5..=7);
            let hi = rng.random_range(2..=4);
            let sums = (0..rng.random_range(n / 2..=n + 2))
                .map(|_| {
                    let op = match rng.random_range(0..6) {
                        0 => LinOp::Le,
                        1 => LinOp::Eq,
                        _ => LinOp::Ne,
                    };
                    let b = if rng.random_bool(0.5) { 1 } else { -1 };
                    (
                        1,
                        rng.random_range(0..n),
                        b,
                        rng.random_range(0..n),
                        rng.random_range(-4..=2),
                        op,
                    )
                })
                .collect();
            let mut diff: Vec<(VarId, i64)> = Vec::new();
            for v in 0..n {
                if rng.random_bool(0.5) {
                    diff.push((v, rng.random_range(0..=1)));
                }
            }
            if let Some(&(v, c)) = diff.first().filter(|_| rng.random_bool(0.3)) {
                diff.push((v, c + 1));
            }
            Case { n, hi, sums, diff }
        }

        fn holds(&self, x: &[i64]) -> bool {
            let sums = self.sums.iter().all(|&(a, u, b, v, k, op)| {
                let s = a * x[u] + b * x[v] + k;
                match op {
                    LinOp::Le => s <= 0,
                    LinOp::Eq => s == 0,
                    LinOp::Ne => s != 0,
                }
            });
            let mut t: Vec<i64> = self.diff.iter().map(|&(v, c)| x[v] + c).collect();
            t.sort_unstable();
            sums && t.windows(2).all(|w| w[0] != w[1])
        }

        fn solutions(&self) -> Vec<Vec<i64>> {
            let width = (self.hi + 1) as usize;
            (0..width.pow(self.n as u32))
                .map(|mut code| {
                    (0..self.n)
                        .map(|_| {
                            let d = (code % width) as i64;
                            code /= width;
                            d
                        })
                        .collect::<Vec<i64>>()
                })
                .filter(|x| self.holds(x))
                .collect()
        }

        fn build(&self) -> Option<Harness> {
            let mut h = Harness::new();
            (0..self.n).for_each(|_| {
                h.range(0, self.hi);
            });
            for &(a, u, b, v, k, op) in &self.sums {
                h.try_post(Linear::new(vec![(a, u), (b, v)], i128::from(k), op))
                    .ok()?;
            }
            if self.diff.len() > 1 {
                let p = AllDifferent::new(self.diff.clone(), true, &h.engine.doms);
                h.try_post(p).ok()?;
            }
            Some(h)
        }
    }

    /// Searches with a restart after every failure or two (Luby, scale 1),
    /// so that nogoods are recorded all the time: every solution, or the
    /// best when minimising `x0`; and how many nogoods were recorded.
    fn search(h: &mut Harness, n: usize, minimise: bool, seed: u64) -> (Vec<Vec<i64>>, u64) {
        let strategy = Strategy {
            var: var::build(VarSelect::DomWdeg),
            val: val::build(ValSelect::Random, &Model::default()),
            restarts: Restarts::Luby,
            seed,
            scope: Vec::new(),
            learning: false,
            phases: Vec::new(),
            components: false,
        };
        let vars: Vec<VarId> = (0..n).collect();
        let mut search = Search::new(
            &mut h.engine,
            strategy,
            &vars,
            Arc::default(),
            Limits::default(),
        );
        search.restarter = search.restarter.rescaled(1);
        if minimise {
            search.minimize(0);
        }
        let mut found = Vec::new();
        let outcome = search.run(|x| {
            found.push(x[..n].to_vec());
            Next::Continue
        });
        assert!(matches!(outcome, Outcome::Exhausted));
        let recorded = search.engine.stats.restart_nogoods;
        (found, recorded)
    }

    /// Random small models against brute force, with restarts after every
    /// failure or two: the nogoods they record lose no solution (every
    /// solution is listed once, and only solutions), prove
    /// unsatisfiability where there is none, and keep the optimum.
    #[test]
    fn restarts_with_nogoods_agree_with_brute_force() {
        let mut rng = Rng::seed_from_u64(41);
        let (mut recorded, mut unsat, mut cases) = (0, 0, 0);
        for _ in 0..600 {
            let case = Case::random(&mut rng);
            let all = case.solutions();
            let Some(mut h) = case.build() else {
                assert!(all.is_empty());
                continue;
            };
            cases += 1;
            unsat += u32::from(all.is_empty());
            let seed = rng.random_range(0..1000);
            let (mut found, r) = search(&mut h, case.n, false, seed);
            recorded += u32::from(r > 0);
            found.sort();
            let mut all = all;
            all.sort();
            assert!(
                found == all,
                "{} solutions found, {} exist",
                found.len(),
                all.len()
            );
            let mut h = case.build().expect("as before");
            let (found, r) = search(&mut h, case.n, true, seed);
            recorded += u32::from(r > 0);
            let best = all.iter().map(|x| x[0]).min();
            assert_eq!(found.last().map(|x| x[0]), best, "the optimum");
            assert!(found.iter().all(|x| case.holds(x)));
        }
        // Searches record nogoods in most cases; a case in twenty has no
        // solution.
        assert!(
            recorded > cases / 2 && unsat > cases / 20 && unsat < cases,
            "{recorded} {unsat} {cases}"
        );
    }
}
