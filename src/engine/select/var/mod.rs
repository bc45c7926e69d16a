//! Variable selection: which open variable to branch on. The branching
//! [`Order`] puts the search item's scope first; a selector picks in the
//! scope while any of it is open, then among the rest. Input order alone
//! and first-fail alone run as the plain loops of their own files
//! (`input.rs`, `first_fail.rs`); every other selection is a chain of
//! [`Evaluator`]s that scores the open candidates: the lowest score wins,
//! ties going to the next evaluator, then to the earliest candidate (input
//! order) or, when asked, to a random one.

mod activity;
mod degree;
mod dom_wdeg;
mod first_fail;
mod input;
mod random;
mod smallest;

use super::Rng;
use crate::engine::{Engine, PropId};
use crate::model::{VarId, VarSelect};

/// What an evaluator sees of the current node.
pub(crate) struct Node<'a> {
    pub(crate) engine: &'a Engine,
    /// Whether a variable is still to be assigned.
    pub(crate) open: &'a dyn Fn(VarId) -> bool,
}

/// One criterion for choosing a variable: smaller scores are better.
pub(crate) trait Evaluator {
    fn score(&mut self, node: &Node, v: VarId, rng: &mut Rng) -> u128;

    /// A cheap bound no higher than [`Self::score`] of `v` at any node:
    /// a candidate whose bound already loses to the best is not scored.
    /// `None` when the evaluator has none.
    fn lower_bound(&mut self, _engine: &Engine, _v: VarId) -> Option<u128> {
        None
    }

    /// A propagator failed (dom/wdeg learns from it).
    fn on_failure(&mut self, _engine: &Engine, _p: PropId) {}

    /// A conflict was analysed and a nogood learned; `vars` are the
    /// variables of the literals the analysis met (activity learns from it).
    fn on_conflict(&mut self, _vars: &[VarId]) {}

    /// Whether it can choose differently in a second run over the same
    /// tree: it learns, or draws at random. Restarts only help then.
    fn varies(&self) -> bool {
        false
    }
}

/// The variables a search branches on, in branching order: the search
/// item's scope first, in its stated order, then the other counted
/// variables in declaration order. Every selection picks in the scope while
/// any of it is open (docs/search.md); the search, the split and the
/// component counter all branch through it, so a split's first decisions
/// are the search's.
pub(crate) struct Order {
    vars: Vec<VarId>,
    /// `vars[..scope]` is the scope (all of `vars` when there is none).
    scope: usize,
    /// Membership of the scope, when it is not all of `vars`.
    in_scope: Option<Vec<bool>>,
}

impl Order {
    /// `primary` are the counted variables (of `num_vars`); the members of
    /// `scope` among them come first. Repeats count once.
    pub(crate) fn new(scope: &[VarId], primary: &[VarId], num_vars: usize) -> Order {
        let mut counted = vec![false; num_vars];
        primary.iter().for_each(|&v| counted[v] = true);
        let mut placed = vec![false; num_vars];
        let mut vars = Vec::with_capacity(primary.len());
        let mut named = 0;
        for (i, &v) in scope.iter().chain(primary).enumerate() {
            if counted[v] && !placed[v] {
                placed[v] = true;
                vars.push(v);
                named += usize::from(i < scope.len());
            }
        }
        let scope = if named == 0 { vars.len() } else { named };
        let in_scope = (scope < vars.len()).then(|| {
            let mut mark = vec![false; num_vars];
            vars[..scope].iter().for_each(|&v| mark[v] = true);
            mark
        });
        Order {
            vars,
            scope,
            in_scope,
        }
    }

    /// Every counted variable, the scope first.
    pub(crate) fn vars(&self) -> &[VarId] {
        &self.vars
    }

    /// The decision variables: the scope, or every counted variable when
    /// the search item names none. LNS fixes these.
    pub(crate) fn scope(&self) -> &[VarId] {
        &self.vars[..self.scope]
    }

    /// The variables of `num_vars` outside the order: the auxiliary ones.
    pub(crate) fn others(&self, num_vars: usize) -> Vec<VarId> {
        let mut inside = vec![false; num_vars];
        self.vars.iter().for_each(|&v| inside[v] = true);
        (0..num_vars).filter(|&v| !inside[v]).collect()
    }

    /// The scope and the rest, in the order a selection looks at them.
    fn tiers(&self) -> [&[VarId]; 2] {
        let (a, b) = self.vars.split_at(self.scope);
        [a, b]
    }
}

/// Which variables are open at a node.
#[derive(Clone, Copy)]
pub(crate) enum Open<'a> {
    /// The unfixed ones (under `ac`, in the split and in the component
    /// counter). The domains must not be empty.
    Unfixed,
    /// The undecided ones (the search under `fc` and `none`, where a
    /// variable fixed by pruning is still to be decided).
    Undecided(&'a [bool]),
}

/// The evaluator chain for a variable-selection name.
pub(crate) fn build(kind: VarSelect) -> VarSelector {
    let chain: Vec<Box<dyn Evaluator>> = match kind {
        VarSelect::Input => vec![Box::new(input::Input)],
        VarSelect::Mrv => vec![Box::new(first_fail::FirstFail)],
        VarSelect::Degree => vec![Box::new(degree::Degree)],
        VarSelect::MrvDegree => vec![Box::new(first_fail::FirstFail), Box::new(degree::Degree)],
        VarSelect::DegreeMrv => vec![Box::new(degree::Degree), Box::new(first_fail::FirstFail)],
        VarSelect::DomWdeg => vec![Box::new(dom_wdeg::DomWdeg::default())],
        VarSelect::Random => vec![Box::new(random::Random)],
        VarSelect::Smallest => vec![
            Box::new(smallest::SmallestMin),
            Box::new(smallest::SmallestMax),
        ],
        // Before any conflict every activity is 0: first-fail decides.
        VarSelect::Activity => vec![
            Box::new(activity::Activity::default()),
            Box::new(first_fail::FirstFail),
        ],
    };
    VarSelector {
        kind,
        chain,
        random_ties: false,
        best: Vec::new(),
        scores: Vec::new(),
    }
}

/// Where a selection found its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pick {
    pub(crate) var: VarId,
    /// Input order's scan stopped at this position of the order: every
    /// variable before it is assigned, so the scan below this node resumes
    /// here. 0 for the other selections.
    pub(crate) resume: usize,
}

pub(crate) struct VarSelector {
    kind: VarSelect,
    chain: Vec<Box<dyn Evaluator>>,
    random_ties: bool,
    /// Scratch: the best candidate's scores, computed as far as ties needed,
    /// and the current candidate's.
    best: Vec<u128>,
    scores: Vec<u128>,
}

impl VarSelector {
    /// Break the last ties at random instead of by input order.
    pub(crate) fn with_random_ties(mut self, on: bool) -> Self {
        self.random_ties = on;
        self
    }

    pub(crate) fn varies(&self) -> bool {
        self.random_ties || self.chain.iter().any(|e| e.varies())
    }

    pub(crate) fn on_failure(&mut self, engine: &Engine, p: PropId) {
        for e in &mut self.chain {
            e.on_failure(engine, p);
        }
    }

    /// See [`Evaluator::on_conflict`].
    pub(crate) fn on_conflict(&mut self, vars: &[VarId]) {
        for e in &mut self.chain {
            e.on_conflict(vars);
        }
    }

    /// The variable to branch on: the best open one of `order`'s scope, else
    /// of the rest; input order scans from `from` (a [`Pick::resume`] of an
    /// ancestor). None when every variable of the order is assigned.
    #[inline]
    pub(crate) fn pick(
        &mut self,
        engine: &Engine,
        open: Open,
        order: &Order,
        from: usize,
        rng: &mut Rng,
    ) -> Option<Pick> {
        if self.kind == VarSelect::Input && !self.random_ties {
            let found = match open {
                Open::Unfixed => input::first_open(&order.vars, from, |v| !engine.doms.is_fixed(v)),
                Open::Undecided(d) => input::first_open(&order.vars, from, |v| !d[v]),
            };
            return found.map(|i| Pick {
                var: order.vars[i],
                resume: i,
            });
        }
        order
            .tiers()
            .into_iter()
            .find_map(|tier| self.best_of(engine, open, tier, rng))
            .map(|var| Pick { var, resume: 0 })
    }

    /// The variable to branch on among `candidates` (a component of the
    /// counter, all of them open or fixed), the members of `order`'s scope
    /// first.
    pub(crate) fn pick_among(
        &mut self,
        engine: &Engine,
        order: &Order,
        candidates: &[VarId],
        rng: &mut Rng,
    ) -> Option<VarId> {
        if let Some(mark) = &order.in_scope {
            let d = &engine.doms;
            let scoped: Vec<VarId> = candidates
                .iter()
                .copied()
                .filter(|&v| mark[v] && !d.is_fixed(v))
                .collect();
            if let Some(v) = self.best_of(engine, Open::Unfixed, &scoped, rng) {
                return Some(v);
            }
        }
        self.best_of(engine, Open::Unfixed, candidates, rng)
    }

    /// The best open variable of `candidates`.
    #[inline]
    fn best_of(
        &mut self,
        engine: &Engine,
        open: Open,
        candidates: &[VarId],
        rng: &mut Rng,
    ) -> Option<VarId> {
        let d = &engine.doms;
        match (self.kind, self.random_ties, open) {
            (VarSelect::Input, false, Open::Unfixed) => {
                candidates.iter().copied().find(|&v| !d.is_fixed(v))
            }
            (VarSelect::Input, false, Open::Undecided(u)) => {
                candidates.iter().copied().find(|&v| !u[v])
            }
            (VarSelect::Mrv, false, Open::Unfixed) => first_fail::smallest_unfixed(d, candidates),
            (VarSelect::Mrv, false, Open::Undecided(u)) => {
                first_fail::smallest(engine, candidates, |v| !u[v])
            }
            (_, _, Open::Unfixed) => {
                let open = |v: VarId| !d.is_fixed(v);
                self.chain_best(
                    &Node {
                        engine,
                        open: &open,
                    },
                    candidates,
                    rng,
                )
            }
            (_, _, Open::Undecided(u)) => {
                let open = |v: VarId| !u[v];
                self.chain_best(
                    &Node {
                        engine,
                        open: &open,
                    },
                    candidates,
                    rng,
                )
            }
        }
    }

    /// Whether candidate `v` cannot displace the best so far, `b`, by the
    /// first evaluator's bound alone: the bound is above `b`'s score, or
    /// equal to it where a tie keeps `b` (one evaluator, ties by input
    /// order). Skipping such a candidate picks what scoring it would.
    fn loses_by_bound(&mut self, node: &Node, b: VarId, v: VarId, rng: &mut Rng) -> bool {
        let one_level = self.chain.len() == 1 && !self.random_ties;
        let Some(first) = self.chain.first_mut() else {
            return false;
        };
        let Some(bound) = first.lower_bound(node.engine, v) else {
            return false;
        };
        if self.best.is_empty() {
            let s = first.score(node, b, rng);
            self.best.push(s);
        }
        let best = self.best[0];
        bound > best || (bound == best && one_level)
    }

    /// The best of the open `candidates` by the evaluator chain.
    fn chain_best(&mut self, node: &Node, candidates: &[VarId], rng: &mut Rng) -> Option<VarId> {
        use rand::RngExt;
        let mut best: Option<VarId> = None;
        let mut ties = 0u32;
        let mut scores = std::mem::take(&mut self.scores);
        for &v in candidates {
            if !(node.open)(v) {
                continue;
            }
            let Some(b) = best else {
                self.best.clear();
                best = Some(v);
                ties = 0;
                continue;
            };
            if self.loses_by_bound(node, b, v, rng) {
                continue;
            }
            // Compare level by level, computing scores only as far as needed.
            scores.clear();
            let mut order = std::cmp::Ordering::Equal;
            for (level, e) in self.chain.iter_mut().enumerate() {
                if self.best.len() <= level {
                    let s = e.score(node, b, rng);
                    self.best.push(s);
                }
                let s = e.score(node, v, rng);
                scores.push(s);
                order = s.cmp(&self.best[level]);
                if order != std::cmp::Ordering::Equal {
                    break;
                }
            }
            match order {
                std::cmp::Ordering::Less => {
                    best = Some(v);
                    self.best.clear();
                    self.best.extend_from_slice(&scores);
                    ties = 0;
                }
                std::cmp::Ordering::Equal => {
                    ties += 1;
                    if self.random_ties && rng.random_range(0..=ties) == 0 {
                        best = Some(v);
                    }
                }
                std::cmp::Ordering::Greater => {}
            }
        }
        self.scores = scores;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::linear::{LinOp, Linear};
    use crate::model::search::Named;
    use rand::SeedableRng;

    /// Three variables: x in 1..5 (two constraints), y in 1..3 (one), z in
    /// 1..3 (two).
    fn setup() -> (Harness, [VarId; 3]) {
        let mut h = Harness::new();
        let (x, y, z) = (h.range(1, 5), h.range(1, 3), h.range(1, 3));
        for pair in [[x, y], [x, z]] {
            h.post(Linear::new(
                vec![(1, pair[0]), (1, pair[1])],
                -100,
                LinOp::Le,
            ));
        }
        h.post(Linear::new(vec![(1, z), (-1, x)], -100, LinOp::Le));
        (h, [x, y, z])
    }

    fn pick(kind: VarSelect, h: &Harness, vars: &[VarId]) -> VarId {
        let mut rng = Rng::seed_from_u64(0);
        let order = Order::new(&[], vars, h.engine.doms.num_vars());
        build(kind)
            .pick(&h.engine, Open::Unfixed, &order, 0, &mut rng)
            .unwrap()
            .var
    }

    #[test]
    fn chains_break_ties_with_the_next_evaluator() {
        let (h, [x, y, z]) = setup();
        let all = [x, y, z];
        assert_eq!(pick(VarSelect::Input, &h, &all), x);
        assert_eq!(pick(VarSelect::Mrv, &h, &all), y, "first of the smallest");
        assert_eq!(
            pick(VarSelect::MrvDegree, &h, &all),
            z,
            "smallest, then most constrained"
        );
        assert_eq!(pick(VarSelect::Degree, &h, &all), x, "three constraints");
        assert_eq!(pick(VarSelect::DegreeMrv, &h, &[y, z, x]), x);
    }

    #[test]
    fn closed_variables_are_skipped() {
        let (h, [x, y, z]) = setup();
        let mut rng = Rng::seed_from_u64(0);
        let order = Order::new(&[], &[x, y, z], 3);
        let mut decided = vec![false; 3];
        decided[y] = true;
        let mut mrv = build(VarSelect::Mrv);
        let open = Open::Undecided(&decided);
        assert_eq!(
            mrv.pick(&h.engine, open, &order, 0, &mut rng)
                .map(|p| p.var),
            Some(z)
        );
        let all = vec![true; 3];
        let open = Open::Undecided(&all);
        assert_eq!(mrv.pick(&h.engine, open, &order, 0, &mut rng), None);
    }

    /// Every selection picks in the scope while any of it is open, however
    /// small the domains outside it (issue 25: `mrv` took `y`, of three
    /// values, before the scope's `x`, of five); input order follows the
    /// scope's stated order, not declaration order.
    #[test]
    fn the_scope_comes_first_under_every_selection() {
        let (h, [x, y, z]) = setup();
        let order = Order::new(&[z, x, z], &[x, y, z], 3);
        assert_eq!(order.vars(), &[z, x, y]);
        assert_eq!(order.scope(), &[z, x]);
        assert_eq!(order.others(4), vec![3]);
        let only_x = Order::new(&[x], &[x, y, z], 3);
        for &(name, kind) in VarSelect::ALL {
            let mut rng = Rng::seed_from_u64(0);
            let mut s = build(kind);
            let p = s.pick(&h.engine, Open::Unfixed, &only_x, 0, &mut rng);
            assert_eq!(p.map(|p| p.var), Some(x), "{name}");
            let q = s.pick_among(&h.engine, &only_x, &[y, z, x], &mut rng);
            assert_eq!(q, Some(x), "{name} in a component");
            let mut s = build(kind).with_random_ties(true);
            let p = s.pick(&h.engine, Open::Unfixed, &only_x, 0, &mut rng);
            assert_eq!(p.map(|p| p.var), Some(x), "{name}, random ties");
        }
        let p = build(VarSelect::Input).pick(
            &h.engine,
            Open::Unfixed,
            &order,
            0,
            &mut Rng::seed_from_u64(0),
        );
        assert_eq!(p, Some(Pick { var: z, resume: 0 }), "the scope's own order");
        let mut decided = vec![false; 3];
        decided[z] = true;
        decided[x] = true;
        let open = Open::Undecided(&decided);
        let p = build(VarSelect::Mrv).pick(&h.engine, open, &order, 0, &mut Rng::seed_from_u64(0));
        assert_eq!(p.map(|p| p.var), Some(y), "then the rest");
    }

    /// What a selector with state (weights, activities) picks now.
    fn pick_now(s: &mut VarSelector, h: &Harness, order: &Order, open: Open) -> VarId {
        let mut rng = Rng::seed_from_u64(0);
        s.pick(&h.engine, open, order, 0, &mut rng).unwrap().var
    }

    /// Activity: first-fail until a conflict, then the variables of the
    /// latest conflicts (with learning) or failing constraints (without).
    #[test]
    fn activity_follows_the_conflicts() {
        let (h, [x, y, z]) = setup();
        let order = Order::new(&[], &[x, y, z], 3);
        let mut s = build(VarSelect::Activity);
        let pick = |s: &mut VarSelector| pick_now(s, &h, &order, Open::Unfixed);
        assert_eq!(pick(&mut s), y, "no conflict yet: first-fail");
        s.on_conflict(&[z]);
        assert_eq!(pick(&mut s), z);
        s.on_conflict(&[x, y]);
        s.on_conflict(&[x]);
        assert_eq!(pick(&mut s), x, "bumped twice, the later bumps weigh more");
        // Without learning, the failing constraint's variables (the
        // linears are x + y, x + z and z - x).
        let mut s = build(VarSelect::Activity);
        s.on_failure(&h.engine, 0);
        s.on_failure(&h.engine, 0);
        s.on_failure(&h.engine, 2);
        assert_eq!(pick(&mut s), x, "in every failing constraint");
    }

    /// dom/wdeg: size over the summed weights of the constraints that
    /// still link another open variable, each weight one more than its
    /// failures (the linears are 0: x + y, 1: x + z, 2: z - x).
    #[test]
    fn dom_wdeg_weighs_the_failing_constraints() {
        let (h, [x, y, z]) = setup();
        let order = Order::new(&[], &[x, y, z], 3);
        let mut s = build(VarSelect::DomWdeg);
        let pick = |s: &mut VarSelector, open: Open| pick_now(s, &h, &order, open);
        // x 5/3, y 3/1, z 3/2.
        assert_eq!(pick(&mut s, Open::Unfixed), z, "no failure yet: dom/deg");
        for _ in 0..4 {
            s.on_failure(&h.engine, 0);
        }
        // x 5/7, y 3/5, z 3/2.
        assert_eq!(pick(&mut s, Open::Unfixed), y);
        // With y decided, x + y links no other open variable: x 5/2, z 3/2.
        let mut decided = vec![false; 3];
        decided[y] = true;
        assert_eq!(pick(&mut s, Open::Undecided(&decided)), z);
        for _ in 0..10 {
            s.on_failure(&h.engine, 1);
        }
        // x 5/17, y 3/5, z 3/12.
        assert_eq!(pick(&mut s, Open::Unfixed), z);
        s.on_failure(&h.engine, 2);
        s.on_failure(&h.engine, 2);
        // x 5/19, y 3/5, z 3/14: the weights add up on z too.
        assert_eq!(pick(&mut s, Open::Unfixed), z);
        for _ in 0..10 {
            s.on_failure(&h.engine, 0);
        }
        // x 5/29, y 3/15, z 3/14: x at last.
        assert_eq!(pick(&mut s, Open::Unfixed), x);
    }

    /// Smallest minimum first, ties to the smallest maximum.
    #[test]
    fn smallest_takes_the_earliest_start_then_the_earliest_latest_start() {
        let mut h = Harness::new();
        let (a, b, c) = (h.range(3, 9), h.range(2, 8), h.range(2, 4));
        assert_eq!(pick(VarSelect::Smallest, &h, &[a, b, c]), c);
        assert_eq!(pick(VarSelect::Smallest, &h, &[a, b]), b);
        let d = h.range(-7, 100);
        assert_eq!(
            pick(VarSelect::Smallest, &h, &[a, b, c, d]),
            d,
            "negative minimum"
        );
    }

    /// Random: only open variables, the same one for the same seed, and
    /// each of them for some seed.
    #[test]
    fn random_picks_any_open_variable_by_its_seed() {
        let (h, [x, y, z]) = setup();
        let order = Order::new(&[], &[x, y, z], 3);
        let mut decided = vec![false; 3];
        decided[x] = true;
        let mut seen = [false; 3];
        for seed in 0..64 {
            let draw = || {
                build(VarSelect::Random)
                    .pick(
                        &h.engine,
                        Open::Undecided(&decided),
                        &order,
                        0,
                        &mut Rng::seed_from_u64(seed),
                    )
                    .unwrap()
                    .var
            };
            let v = draw();
            assert_ne!(v, x, "seed {seed} picked a decided variable");
            assert_eq!(draw(), v, "seed {seed} is not reproducible");
            seen[v] = true;
        }
        assert_eq!(seen, [false, true, true]);
    }

    #[test]
    fn only_learning_or_random_selectors_vary() {
        assert!(!build(VarSelect::MrvDegree).varies());
        assert!(build(VarSelect::DomWdeg).varies());
        assert!(build(VarSelect::Activity).varies());
        assert!(build(VarSelect::Random).varies());
        assert!(build(VarSelect::Mrv).with_random_ties(true).varies());
    }
}
