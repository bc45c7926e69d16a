//! What a restart keeps of the path it leaves: each right branch on it
//! says its left branch was searched through, so those decisions are
//! recorded as a nogood (`props/restart_nogoods.rs`, reduced nld-nogoods)
//! and a later descent does not search them again.

use super::{RefutedSink, Search};
use crate::engine::RefutedStore;
use crate::engine::props::restart_nogoods::{DecLit, Inbox, RestartNogoods};
use crate::engine::select::Branch;
use crate::model::{Propagation, VarId};
use std::rc::Rc;

/// The most literals one search hands over (24 bytes each in the store,
/// and a watch for two of each nogood's): past it, each restart budget is
/// twice the last, since a restart that records nothing searches again
/// what the runs before it refuted. A sub-problem of the themeless15 proof
/// (docs/crossword-measured.md) handed over 2^20 in some 15 minutes of
/// search, short of the hours it takes; 2^22 keeps the store within some
/// 150 MB.
pub(super) const MAX_LITS: usize = 1 << 22;

/// The longest nogood recorded: a right branch under more positive
/// decisions than this is left out (its nogood would rarely prune, and the
/// nogoods of one path cost the square of its depth to build).
const MAX_LEN: usize = 512;

impl<'e> Search<'e> {
    /// Whether a restart records nogoods: under `ac`, with plain
    /// depth-first search between restarts, from the root or from a
    /// replayed sub-problem's node. Not with learning (its own nogoods say
    /// more), large neighbourhoods (the fixings are not decisions) or
    /// search by components; nor when the strategy says not to.
    fn records_refuted(&self) -> bool {
        self.refuted_apply() && self.refuted_lits < self.refuted_cap
    }

    /// Whether this search's restarts are the kind that record nogoods.
    fn refuted_apply(&self) -> bool {
        self.refuted_wanted
            && self.engine.level == Propagation::Ac
            && !self.learning
            && self.lns.is_none()
            && !self.components_on
    }

    /// Whether the store has taken all this search may hand it
    /// ([`MAX_LITS`]): its restart budgets then double, so the runs that
    /// search again what was refuted cost no more than the last (in the
    /// themeless15 sub-problem that first reached 2^20, not restarting at
    /// all took as long as restarting with the store unbounded: 2,163 s
    /// against 2,124 s).
    pub(super) fn refuted_full(&self) -> bool {
        self.refuted_apply() && self.refuted_lits >= self.refuted_cap
    }

    /// The nogoods of the current path: for each right branch, the
    /// positive decisions above it and its own left branch. The decisions
    /// of a replayed sub-problem's path are left out (its right branches
    /// were searched elsewhere; the nogoods hold below its node, where the
    /// search stays), and so are those completing an assignment of the
    /// auxiliary variables (a failed completion is left without its right
    /// branches).
    fn refuted(&self) -> Vec<Vec<DecLit>> {
        let end = self
            .completing
            .unwrap_or(self.stack.len())
            .min(self.stack.len());
        let mut positive = Vec::new();
        let mut nogoods = Vec::new();
        let start = self.replayed.min(end);
        for f in &self.stack[start..end] {
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

    /// At the root after a restart: hands the engine's nogood store the
    /// nogoods (posting it the first time) and propagates. False when the
    /// root fails: the nogoods cover the whole tree, which is exhausted.
    pub(super) fn keep_refuted(&mut self, nogoods: Vec<Vec<DecLit>>) -> bool {
        if nogoods.is_empty() {
            return true;
        }
        if let Some(sink) = self.refuted_sink.as_mut() {
            sink(&nogoods);
        }
        self.engine.stats.restart_nogoods += nogoods.len() as u64;
        self.hand_over(nogoods)
    }

    /// Has `sink` told each restart's nogoods from now on: a part log
    /// keeps them, so that a run cut off inside a long sub-problem gives
    /// the next run what it had refuted there ([`Self::resume_refuted`]).
    pub(crate) fn tell_refuted(&mut self, sink: RefutedSink<'e>) {
        self.refuted_sink = Some(sink);
    }

    /// Before the search of a replayed sub-problem: takes in the nogoods
    /// an earlier search of the same sub-problem (the same model, split and
    /// path) recorded at its restarts, as if restarted from there. They
    /// hold below the sub-problem's node, where this search stays. False
    /// when they fail that node: nothing is left to search. Ignored by a
    /// search that records no nogoods (it could not tell them to the next),
    /// and when one names a variable this search does not decide on (a file
    /// damaged, or edited by hand: they are not what it records).
    pub(crate) fn resume_refuted(&mut self, nogoods: Vec<Vec<DecLit>>) -> bool {
        if nogoods.is_empty() || !self.records_refuted() {
            return true;
        }
        let vars = self.decision_vars();
        if nogoods
            .iter()
            .flatten()
            .any(|l| vars.binary_search(&l.var()).is_err())
        {
            return true;
        }
        self.hand_over(nogoods)
    }

    /// Gives the engine's store `nogoods` and propagates them.
    fn hand_over(&mut self, nogoods: Vec<Vec<DecLit>>) -> bool {
        self.refuted_lits += nogoods.iter().map(Vec::len).sum::<usize>();
        let store = self.fitted_refuted_store();
        store.inbox.borrow_mut().nogoods.extend(nogoods);
        let p = store.prop;
        self.engine.wake(p);
        if self.engine.fixpoint().is_err() {
            self.failed();
            return false;
        }
        true
    }

    /// The engine's store, which this search uses from its first nogood
    /// on: the one there, unless it hears other variables than this search
    /// decides on, then a new one.
    fn fitted_refuted_store(&mut self) -> &RefutedStore {
        let store = match self.engine.refuted_store.take() {
            Some(s) if self.refuted_on || s.vars == self.decision_vars() => s,
            _ => {
                let vars = self.decision_vars();
                let inbox = Inbox::default();
                let store = RestartNogoods::new(vars.clone(), Rc::clone(&inbox));
                let prop = self.engine.add_prop(Box::new(store));
                RefutedStore { inbox, prop, vars }
            }
        };
        self.refuted_on = true;
        self.engine.refuted_store.insert(store)
    }

    /// The variables this search branches on, sorted.
    fn decision_vars(&self) -> Vec<VarId> {
        let mut vars = self.order.vars().to_vec();
        for phase in &self.phases {
            vars.extend_from_slice(phase.order.vars());
        }
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// The search ends: its nogoods go with it (see `Mail::ended`).
    pub(super) fn retire_refuted(&mut self) {
        if let Some(store) = self
            .engine
            .refuted_store
            .as_ref()
            .filter(|_| self.refuted_on)
        {
            store.inbox.borrow_mut().ended += 1;
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
    use crate::engine::select::{Decision, Rng, val, var};
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
                let p = AllDifferent::new(self.diff.clone(), true, &mut h.engine.doms);
                h.try_post(p).ok()?;
            }
            Some(h)
        }
    }

    /// dom/wdeg, random values, Luby restarts with their nogoods.
    fn restarting(seed: u64) -> Strategy {
        Strategy {
            var: var::build(VarSelect::DomWdeg),
            val: val::build(ValSelect::Random, &Model::default()),
            restarts: Restarts::Luby,
            seed,
            scope: Vec::new(),
            learning: false,
            phases: Vec::new(),
            components: false,
            restart_nogoods: true,
        }
    }

    /// Searches with a restart after every failure or two (Luby, scale 1),
    /// so that nogoods are recorded all the time: every solution, or the
    /// best when minimising `x0`; and how many nogoods were recorded.
    fn search(h: &mut Harness, n: usize, minimise: bool, seed: u64) -> (Vec<Vec<i64>>, u64) {
        below(h, n, minimise, seed, &[], 1)
    }

    /// [`search`] below the node `path` leads to (a split's sub-problem),
    /// restarts at `scale` times the Luby sequence.
    fn below(
        h: &mut Harness,
        n: usize,
        minimise: bool,
        seed: u64,
        path: &[Decision],
        scale: u64,
    ) -> (Vec<Vec<i64>>, u64) {
        let strategy = restarting(seed);
        let vars: Vec<VarId> = (0..n).collect();
        let mut search = Search::new(
            &mut h.engine,
            strategy,
            &vars,
            Arc::default(),
            Limits::default(),
        );
        search.restarter = search.restarter.rescaled(scale);
        if minimise {
            search.minimize(0);
        }
        let before = search.engine.stats.restart_nogoods;
        if !search.replay(path) {
            return (Vec::new(), 0);
        }
        let mut found = Vec::new();
        let outcome = search.run(|x| {
            found.push(x[..n].to_vec());
            Next::Continue
        });
        assert!(matches!(outcome, Outcome::Exhausted));
        let recorded = search.engine.stats.restart_nogoods - before;
        (found, recorded)
    }

    /// A search of `case` with restarts after every failure or two, for at
    /// most `nodes` nodes, given `resumed` first and telling its nogoods to
    /// `told`: the solutions it lists, and whether it ended.
    fn cut(
        case: &Case,
        seed: u64,
        nodes: Option<u64>,
        resumed: Vec<Vec<DecLit>>,
        told: &mut Vec<Vec<DecLit>>,
    ) -> (Vec<Vec<i64>>, bool) {
        let Some(mut h) = case.build() else {
            return (Vec::new(), true);
        };
        let strategy = restarting(seed);
        let vars: Vec<VarId> = (0..case.n).collect();
        let limits = Limits {
            nodes,
            ..Limits::default()
        };
        let mut search = Search::new(&mut h.engine, strategy, &vars, Arc::default(), limits);
        search.restarter = search.restarter.rescaled(1);
        let mut found = Vec::new();
        if !search.resume_refuted(resumed) {
            return (found, true);
        }
        search.tell_refuted(Box::new(|nogoods| told.extend_from_slice(nogoods)));
        let outcome = search.run(|x| {
            found.push(x[..case.n].to_vec());
            Next::Continue
        });
        (found, matches!(outcome, Outcome::Exhausted))
    }

    /// A search of `case` restarting after every failure or two, whose
    /// store takes at most `cap` literals: every solution it lists, and
    /// how many times it restarted.
    fn capped(h: &mut Harness, n: usize, seed: u64, cap: usize) -> (Vec<Vec<i64>>, u64) {
        let vars: Vec<VarId> = (0..n).collect();
        let limits = Limits::default();
        let mut search = Search::new(
            &mut h.engine,
            restarting(seed),
            &vars,
            Arc::default(),
            limits,
        );
        search.restarter = search.restarter.rescaled(1);
        search.refuted_cap = cap;
        let mut found = Vec::new();
        let outcome = search.run(|x| {
            found.push(x[..n].to_vec());
            Next::Continue
        });
        assert!(matches!(outcome, Outcome::Exhausted));
        (found, search.engine.stats.restarts)
    }

    /// Seven pigeons, six holes (pairwise `!=`, which search alone
    /// refutes): once the store is full the restarts grow apart (each
    /// budget twice the last), where restarts at Luby's pace recording
    /// nothing would search the refuted again and again.
    #[test]
    fn restarts_grow_apart_once_the_store_is_full() {
        let pigeons = || {
            let mut h = Harness::new();
            let xs: Vec<VarId> = (0..7).map(|_| h.range(0, 5)).collect();
            for i in 0..xs.len() {
                for j in i + 1..xs.len() {
                    h.post(Linear::new(vec![(1, xs[i]), (-1, xs[j])], 0, LinOp::Ne));
                }
            }
            h
        };
        for seed in 0..5 {
            let (found, unbounded) = capped(&mut pigeons(), 7, seed, usize::MAX);
            assert!(found.is_empty());
            let (found, full) = capped(&mut pigeons(), 7, seed, 50);
            assert!(found.is_empty());
            assert!(
                full * 4 < unbounded,
                "seed {seed}: {full} restarts with a full store, {unbounded} without"
            );
        }
    }

    /// Random small models against brute force, their stores full after a
    /// few literals: the search with restarts recording nothing that follows
    /// loses no solution and lists none twice.
    #[test]
    fn a_full_store_loses_no_solution() {
        let mut rng = Rng::seed_from_u64(53);
        for _ in 0..400 {
            let case = Case::random(&mut rng);
            let mut all = case.solutions();
            all.sort();
            let Some(mut h) = case.build() else {
                continue;
            };
            let (seed, cap) = (rng.random_range(0..1000), rng.random_range(1..=30));
            let (mut found, _) = capped(&mut h, case.n, seed, cap);
            found.sort();
            assert_eq!(found, all, "cap {cap}, seed {seed}");
        }
    }

    /// A search cut off by a node limit, then one that takes in the nogoods
    /// the first told (as a part log keeps them for the next run), and so
    /// on: the last, run to its end, lists every solution of random small
    /// models (brute force), so a nogood carried over never cuts one.
    #[test]
    fn nogoods_told_and_taken_up_again_lose_no_solution() {
        let mut rng = Rng::seed_from_u64(47);
        let (mut carried, mut cases) = (0, 0);
        for _ in 0..300 {
            let case = Case::random(&mut rng);
            let mut all = case.solutions();
            all.sort();
            let seed = rng.random_range(0..1000);
            let mut kept: Vec<Vec<DecLit>> = Vec::new();
            for _ in 0..rng.random_range(1..=4) {
                let mut told = Vec::new();
                let nodes = rng.random_range(4..=40);
                let (_, ended) = cut(&case, seed, Some(nodes), kept.clone(), &mut told);
                kept.extend(told);
                if ended {
                    break;
                }
            }
            carried += usize::from(!kept.is_empty());
            cases += 1;
            let (mut found, ended) = cut(&case, seed, None, kept, &mut Vec::new());
            assert!(ended);
            found.sort();
            assert_eq!(
                found,
                all,
                "{} solutions found, {} exist",
                found.len(),
                all.len()
            );
        }
        // Most cases end within the first cut, or find a solution before
        // a restart (after which none records anything); one in thirteen
        // carries nogoods over.
        assert!(
            carried > cases / 20,
            "{carried} of {cases} carried nogoods over"
        );
    }

    /// Nogoods taken up from a damaged file, one naming a variable the
    /// model does not have (one past its last, or far out): none is used,
    /// and the search lists every solution (brute force).
    #[test]
    fn nogoods_over_other_variables_are_not_taken_up() {
        let mut rng = Rng::seed_from_u64(59);
        for _ in 0..100 {
            let case = Case::random(&mut rng);
            let mut all = case.solutions();
            all.sort();
            let seed = rng.random_range(0..1000);
            for stranger in [case.n, 999_999] {
                // With the stranger, a nogood that alone would cut every
                // solution with `x0 = 0`.
                let resumed = vec![vec![DecLit::Eq(0, 0)], vec![DecLit::Eq(stranger, 1)]];
                let (mut found, ended) = cut(&case, seed, None, resumed, &mut Vec::new());
                assert!(ended);
                found.sort();
                assert_eq!(found, all, "stranger {stranger}");
            }
        }
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

    /// Under `x0 = 0`, five `y` and `w` in 0..=4 must differ (no way, as
    /// search, not propagation, finds out: pairwise `!=`); under `x0 = 1`,
    /// `w` is in 5..=9 and the `y` are any of the 120 orders of 0..=4 (`w`
    /// is not branched on: it only has to have some value). The nogoods the first sub-problem records over the `y` would
    /// cut solutions of the second, were they kept.
    #[test]
    fn a_sub_problems_nogoods_go_with_it() {
        for seed in 0..20 {
            let mut h = Harness::new();
            let x0 = h.range(0, 1);
            let ys: Vec<VarId> = (0..5).map(|_| h.range(0, 4)).collect();
            let w = h.range(0, 9);
            h.post(Linear::new(vec![(1, w), (-5, x0)], -4, LinOp::Le));
            h.post(Linear::new(vec![(5, x0), (-1, w)], 0, LinOp::Le));
            let mut all: Vec<VarId> = ys.clone();
            all.push(w);
            for i in 0..all.len() {
                for j in i + 1..all.len() {
                    h.post(Linear::new(vec![(1, all[i]), (-1, all[j])], 0, LinOp::Ne));
                }
            }
            let root = h.engine.doms.checkpoint();
            let mut counts = Vec::new();
            for v in 0..=1 {
                h.engine.doms.restore(root);
                let path = [Decision {
                    var: x0,
                    branch: Branch::Assign(v),
                    right: false,
                }];
                // `w` follows from the others: the nogoods are over the `y`.
                // Restarts after a few failures: nogoods of two decisions.
                let (sols, recorded) = below(&mut h, 6, false, seed, &path, 3);
                counts.push((sols.len(), recorded > 0));
            }
            assert_eq!(counts[0], (0, true), "seed {seed}");
            assert_eq!(counts[1].0, 120, "seed {seed}");
        }
    }

    /// A split's sub-problems searched one after another on one engine,
    /// as a worker thread does (`x0 = v` for each value `v`), each with
    /// restarts: the nogoods of one hold only below its node, and the next
    /// must not see them. Their solutions together are every solution.
    #[test]
    fn sub_problems_on_one_engine_do_not_share_nogoods() {
        let mut rng = Rng::seed_from_u64(43);
        let mut recorded = 0;
        for _ in 0..1500 {
            let case = Case::random(&mut rng);
            let mut all = case.solutions();
            all.sort();
            let Some(mut h) = case.build() else {
                continue;
            };
            let root = h.engine.doms.checkpoint();
            let seed = rng.random_range(0..1000);
            let mut found = Vec::new();
            for v in 0..=case.hi {
                h.engine.doms.restore(root);
                let path = [Decision {
                    var: 0,
                    branch: Branch::Assign(v),
                    right: false,
                }];
                let (sols, r) = below(&mut h, case.n, false, seed, &path, 2);
                recorded += u32::from(r > 0);
                found.extend(sols);
            }
            found.sort();
            assert!(
                found == all,
                "{} solutions found, {} exist",
                found.len(),
                all.len()
            );
        }
        assert!(recorded > 20, "{recorded}");
    }
}
