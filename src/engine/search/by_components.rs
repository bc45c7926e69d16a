//! First-solution search by components (`search ..., components on`;
//! docs/crossword-measured.md, "Search by components").
//!
//! At a node (propagated to a fixpoint under `ac`), two open variables are
//! linked when a propagator has both open, all-different excepted (a
//! propagator whose [`distinct_terms`](crate::engine::propagator::Propagator::distinct_terms)
//! says so): it is relaxed, not linking. When the open variables fall
//! apart into several components, each is searched on its own to a first
//! solution, the others left open, and the search comes back to the node
//! between them. A component searched alone is a relaxation of the node
//! (all-different is checked among its own terms only, below), so a
//! component with no solution proves the node has none, without undoing the
//! words of the others: a depth-first search that fails in one corner of a
//! crossword undoes the other corner's words first, and thrashes through
//! their product where this search pays their sum. With every component
//! solved, their solutions are applied together and propagated with every
//! constraint: if they hold, that is a solution; if not (a word used in two
//! components), the node is branched on as usual (its children split
//! again), so the search stays complete.
//!
//! While components are searched, the relaxed propagators are silenced (no
//! event wakes them; their notifications still flow, and everything is
//! restored with the node's domains), and inside a component the search
//! itself keeps its terms pairwise distinct: a fixed term's value leaves
//! the component's other terms (forward checking). So what a component's
//! search finds depends only on its variables, their domains and the
//! values of the fixed variables of its other propagators, the key of a
//! cache (as the counter's, `components.rs`): a component proved to have no
//! solution fails at once wherever it is met again (a sibling, after a
//! restart), and one solved gives its solution again. Restarts (the
//! search's policy, counting every failure) go back to the root from any
//! depth; the cache stays.
//!
//! Used only where one solution is wanted from every variable searched: under
//! `ac`, no objective, no auxiliary variables, no learning, no phases, no
//! trace or tree; the search checks these (`Search::run`).

use super::{Next, Outcome, Search, apply, decide};
use crate::engine::components::PropFacts;
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::select::{Branch, Decision};
use crate::engine::trail::Checkpoint;
use crate::engine::{Engine, PropId};
use crate::model::VarId;
use rustc_hash::FxHashMap;

/// The most memory the cache may hold; it is emptied when full.
const CACHE_BYTES: usize = 64 << 20;

/// Splits nest at most this deep; below, a component is searched whole.
const MAX_NEST: usize = 64;

/// How the search of a node or a component ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    /// Every variable of it is fixed (the domains hold the solution).
    Found,
    /// No solution: the domains are as they were.
    None,
    /// The components' solutions clash: branch at this node instead.
    Clash,
    /// A restart is due, or a limit stopped it: the domains are as they were.
    Restart,
    Stopped,
}

/// The component search's static facts about the propagators, its cache and
/// scratch space; kept by the search across restarts.
pub(crate) struct Parts {
    facts: PropFacts,
    /// Per propagator: all-different, relaxed.
    relaxed: Vec<bool>,
    /// Per variable: the relaxed propagators it is a term of, with its offset
    /// there (a variable may be a term twice).
    terms_of: Vec<Vec<(PropId, i64)>>,
    /// A component's key: `None` it has no solution, else its variables'
    /// values in one.
    cache: FxHashMap<Box<[u64]>, Option<Box<[i64]>>>,
    cache_bytes: usize,
    /// Components found in the cache.
    pub(crate) hits: u64,
    /// Nodes split into components, and those whose solutions clashed.
    pub(crate) splits: u64,
    pub(crate) clashes: u64,
    var_stamp: Vec<u32>,
    prop_stamp: Vec<u32>,
    stamp: u32,
    key: Vec<u64>,
    /// The masks of the watchers silenced (variable, index, mask).
    silenced: Vec<(VarId, usize, u8)>,
}

/// A decision of a component's search.
struct Frame {
    checkpoint: Checkpoint,
    var: VarId,
    branch: Branch,
    right: bool,
}

/// The relaxed propagators' terms among a component's variables, per
/// propagator: (variable, offset).
type Groups = Vec<Vec<(VarId, i64)>>;

impl Parts {
    pub(crate) fn new(engine: &Engine) -> Self {
        let n = engine.doms.num_vars();
        let mut terms_of = vec![Vec::new(); n];
        let mut relaxed = vec![false; engine.props.len()];
        for (p, prop) in engine.props.iter().enumerate() {
            if let Some((vars, offsets)) = prop.distinct_terms() {
                relaxed[p] = true;
                for (&v, &c) in vars.iter().zip(offsets) {
                    terms_of[v].push((p, c));
                }
            }
        }
        Parts {
            facts: PropFacts::new(engine),
            relaxed,
            terms_of,
            cache: FxHashMap::default(),
            cache_bytes: 0,
            hits: 0,
            splits: 0,
            clashes: 0,
            var_stamp: vec![0; n],
            prop_stamp: vec![0; engine.props.len()],
            stamp: 0,
            key: Vec::new(),
            silenced: Vec::new(),
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.var_stamp.fill(0);
            self.prop_stamp.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// The components of the open variables among `vars` (each sorted),
    /// linked by the propagators that are not relaxed.
    fn split(&mut self, engine: &Engine, vars: &[VarId]) -> Vec<Vec<VarId>> {
        let d = &engine.doms;
        let stamp = self.next_stamp();
        let mut comps = Vec::new();
        let mut queue = Vec::new();
        for &start in vars {
            if d.is_fixed(start) || self.var_stamp[start] == stamp {
                continue;
            }
            self.var_stamp[start] = stamp;
            queue.push(start);
            let mut members = Vec::new();
            while let Some(x) = queue.pop() {
                members.push(x);
                for &p in &self.facts.props_of[x] {
                    if self.relaxed[p] || self.prop_stamp[p] == stamp {
                        continue;
                    }
                    self.prop_stamp[p] = stamp;
                    for &v in engine.props[p].vars() {
                        if !d.is_fixed(v) && self.var_stamp[v] != stamp {
                            self.var_stamp[v] = stamp;
                            queue.push(v);
                        }
                    }
                }
            }
            members.sort_unstable();
            comps.push(members);
        }
        comps
    }

    /// The relaxed propagators' terms among `vars`, for those with two or more.
    fn groups(&self, vars: &[VarId]) -> Groups {
        let mut by_prop: FxHashMap<PropId, Vec<(VarId, i64)>> = FxHashMap::default();
        for &v in vars {
            for &(p, c) in &self.terms_of[v] {
                by_prop.entry(p).or_default().push((v, c));
            }
        }
        let mut groups: Groups = by_prop.into_values().filter(|g| g.len() > 1).collect();
        groups.sort_unstable();
        groups
    }

    /// Silences the relaxed propagators: no event wakes them until
    /// [`Self::unsilence`]. The queue is empty (the node is at a fixpoint).
    fn silence(&mut self, engine: &mut Engine) {
        for (p, relaxed) in self.relaxed.iter().enumerate() {
            if !relaxed {
                continue;
            }
            for &v in engine.props[p].vars() {
                for (i, w) in engine.watchers[v].iter_mut().enumerate() {
                    if w.0 == p && w.1 != 0 {
                        self.silenced.push((v, i, w.1));
                        w.1 = 0;
                    }
                }
            }
        }
    }

    fn unsilence(&mut self, engine: &mut Engine) {
        for (v, i, mask) in self.silenced.drain(..) {
            engine.watchers[v][i].1 = mask;
        }
    }

    /// Makes `self.key` the key of component `vars` (sorted) at the current
    /// node: its variables, their domains, and the values of the fixed
    /// variables of its propagators where the domains do not already say
    /// all they tell (as the counter's key; the relaxed propagators are
    /// checked among the component's own terms, so their fixed terms do not
    /// count, and their values are gone from the domains).
    fn make_key(&mut self, engine: &Engine, vars: &[VarId]) {
        let mut key = std::mem::take(&mut self.key);
        let stamp = self.next_stamp();
        let relaxed = &self.relaxed;
        self.facts
            .build(&mut key, engine, vars, &mut self.prop_stamp, stamp, |p| {
                relaxed[p]
            });
        self.key = key;
    }

    fn store(&mut self, key: Box<[u64]>, found: Option<Box<[i64]>>) {
        let bytes = key.len() * 8 + found.as_ref().map_or(0, |f| f.len() * 8) + 64;
        if self.cache_bytes + bytes > CACHE_BYTES {
            self.cache.clear();
            self.cache_bytes = 0;
        }
        self.cache_bytes += bytes;
        self.cache.insert(key, found);
    }
}

/// Keeps the terms of each group pairwise distinct: a fixed term's value
/// leaves the others (a clash of two fixed ones fails). `Ok(true)` when a
/// domain changed.
fn distinct(d: &mut Domains, groups: &Groups, taken: &mut Vec<i64>) -> Result<bool, Fail> {
    let mut changed = false;
    for g in groups {
        taken.clear();
        taken.extend(g.iter().filter_map(|&(v, c)| d.value(v)?.checked_add(c)));
        if taken.is_empty() {
            continue;
        }
        taken.sort_unstable();
        if taken.windows(2).any(|w| w[0] == w[1]) {
            return Err(Fail);
        }
        for &(v, c) in g {
            if d.is_fixed(v) {
                continue;
            }
            for &t in taken.iter() {
                if let Some(x) = t.checked_sub(c) {
                    changed |= d.remove(v, x)?;
                }
            }
        }
    }
    Ok(changed)
}

impl Search<'_> {
    /// Whether this search may run by components: asked for, and one
    /// solution wanted from every variable searched (see the module doc).
    pub(super) fn by_components(&self) -> bool {
        self.components_on
            && self.engine.level == crate::model::Propagation::Ac
            && self.secondary.is_empty()
            && self.objective.is_none()
            && self.lns.is_none()
            && self.phases.is_empty()
            && !self.learning
            && !self.count_only
            && self.budget.limits.solutions == Some(1)
            && self.trace.is_none()
            && self.tree.is_none()
    }

    /// Searches the propagated node for one solution by components.
    pub(super) fn run_by_components(
        &mut self,
        mut on_solution: impl FnMut(&[i64]) -> Next,
    ) -> Outcome {
        let mut parts = self
            .parts
            .take()
            .unwrap_or_else(|| Box::new(Parts::new(self.engine)));
        let vars = self.order.vars().to_vec();
        let depth = self.stack.len() as u64;
        let outcome = loop {
            match self.component(&mut parts, &vars, false, 0, depth) {
                Res::Found => {
                    self.engine.stats.solutions += 1;
                    let values: Vec<i64> = (0..self.engine.doms.num_vars())
                        .map(|v| self.engine.doms.min(v))
                        .collect();
                    break match on_solution(&values) {
                        Next::Stop => Outcome::Interrupted,
                        Next::Continue => Outcome::SolutionLimit,
                    };
                }
                Res::None | Res::Clash => break Outcome::Exhausted,
                Res::Stopped => break Outcome::Interrupted,
                Res::Restart => {
                    self.engine.stats.restarts += 1;
                    self.restarter.restarted(self.engine.stats.failures);
                }
            }
        };
        self.parts = Some(parts);
        outcome
    }

    /// Propagation after a decision in a component: the engine's, then,
    /// with the relaxed propagators silenced, distinct terms among the
    /// component's own (`groups`).
    fn settle_component(&mut self, var: VarId, groups: &Groups, taken: &mut Vec<i64>) -> PResult {
        self.engine.propagate_decision(var)?;
        while distinct(&mut self.engine.doms, groups, taken)? {
            self.engine.fixpoint()?;
        }
        Ok(())
    }

    /// A failure in a component's search: counted, and heard by the
    /// variable selection.
    fn component_failed(&mut self) {
        self.engine.stats.failures += 1;
        if let Some(p) = self.engine.take_failed() {
            self.var_select.on_failure(self.engine, p);
        }
    }

    /// Depth-first search of the open variables among `vars` from the
    /// current node (propagated), splitting every node whose open variables
    /// fall apart. `silenced`: inside a split (the relaxed propagators are
    /// silent, their terms kept distinct here). Leaves the domains as they
    /// were unless it returns `Found`.
    fn component(
        &mut self,
        parts: &mut Parts,
        vars: &[VarId],
        silenced: bool,
        nest: usize,
        depth: u64,
    ) -> Res {
        let entry = self.engine.doms.checkpoint();
        let groups = if silenced {
            parts.groups(vars)
        } else {
            Vec::new()
        };
        let mut taken = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        // A clash at this node: branch here rather than split again.
        let mut branch_here = false;
        loop {
            if self.budget.exceeded(&self.engine.stats) {
                self.engine.doms.restore(entry);
                return Res::Stopped;
            }
            if self.restarter.due(self.engine.stats.failures) {
                self.engine.doms.restore(entry);
                return Res::Restart;
            }
            let comps = parts.split(self.engine, vars);
            if comps.is_empty() {
                return Res::Found;
            }
            let node_ok = if comps.len() > 1 && !branch_here && nest < MAX_NEST {
                let at = depth + stack.len() as u64;
                match self.split_node(parts, comps, silenced, nest, at) {
                    Res::Found => return Res::Found,
                    Res::Clash => {
                        branch_here = true;
                        continue;
                    }
                    Res::None => false,
                    r => {
                        self.engine.doms.restore(entry);
                        return r;
                    }
                }
            } else {
                branch_here = false;
                let open: Vec<VarId> = comps.into_iter().flatten().collect();
                let var = self
                    .var_select
                    .pick_among(self.engine, &self.order, &open, &mut self.rng)
                    .unwrap_or(open[0]);
                let branch = decide(self.val_select.as_mut(), self.engine, var, &mut self.rng);
                let checkpoint = self.engine.doms.checkpoint();
                stack.push(Frame {
                    checkpoint,
                    var,
                    branch,
                    right: false,
                });
                self.engine.stats.nodes += 1;
                let at = depth + stack.len() as u64;
                self.engine.stats.max_depth = self.engine.stats.max_depth.max(at);
                let dec = Decision {
                    var,
                    branch,
                    right: false,
                };
                apply(&mut self.engine.doms, dec).is_ok()
                    && self.settle_component(var, &groups, &mut taken).is_ok()
            };
            if node_ok {
                continue;
            }
            self.component_failed();
            // Back to the last decision whose other branch is left.
            loop {
                let Some(f) = stack.pop() else {
                    self.engine.doms.restore(entry);
                    return Res::None;
                };
                self.engine.doms.restore(f.checkpoint);
                if f.right {
                    continue;
                }
                self.engine.stats.backtracks += 1;
                self.engine.stats.nodes += 1;
                let checkpoint = self.engine.doms.checkpoint();
                stack.push(Frame {
                    checkpoint,
                    right: true,
                    ..f
                });
                let dec = Decision {
                    var: f.var,
                    branch: f.branch,
                    right: true,
                };
                let ok = apply(&mut self.engine.doms, dec).is_ok()
                    && self.settle_component(f.var, &groups, &mut taken).is_ok();
                if ok {
                    break;
                }
                self.component_failed();
            }
        }
    }

    /// A node whose open variables fall apart into `comps`: each searched on
    /// its own (the one holding the variable the selection prefers first),
    /// then their solutions together. Leaves the domains as they were
    /// unless it returns `Found`.
    fn split_node(
        &mut self,
        parts: &mut Parts,
        mut comps: Vec<Vec<VarId>>,
        silenced: bool,
        nest: usize,
        depth: u64,
    ) -> Res {
        parts.splits += 1;
        let node = self.engine.doms.checkpoint();
        if !silenced {
            parts.silence(self.engine);
        }
        let mut solution: Vec<(VarId, i64)> = Vec::new();
        let failed = loop {
            if comps.is_empty() {
                break None;
            }
            let i = if comps.len() == 1 {
                0
            } else {
                let all: Vec<VarId> = comps.iter().flatten().copied().collect();
                let best =
                    self.var_select
                        .pick_among(self.engine, &self.order, &all, &mut self.rng);
                best.and_then(|v| comps.iter().position(|c| c.binary_search(&v).is_ok()))
                    .unwrap_or(0)
            };
            let comp = comps.swap_remove(i);
            // A single variable is cheaper searched than keyed.
            let key: Option<Box<[u64]>> = if comp.len() > 1 {
                parts.make_key(self.engine, &comp);
                match parts.cache.get(&parts.key[..]) {
                    Some(None) => {
                        parts.hits += 1;
                        break Some(Res::None);
                    }
                    Some(Some(values)) => {
                        parts.hits += 1;
                        solution.extend(comp.iter().copied().zip(values.iter().copied()));
                        continue;
                    }
                    None => Some(parts.key[..].into()),
                }
            } else {
                None
            };
            match self.component(parts, &comp, true, nest + 1, depth) {
                Res::Found => {
                    let d = &self.engine.doms;
                    let values: Box<[i64]> = comp.iter().map(|&v| d.min(v)).collect();
                    solution.extend(comp.iter().copied().zip(values.iter().copied()));
                    if let Some(key) = key {
                        parts.store(key, Some(values));
                    }
                    self.engine.doms.restore(node);
                }
                Res::None => {
                    if let Some(key) = key {
                        parts.store(key, None);
                    }
                    break Some(Res::None);
                }
                r => break Some(r),
            }
        };
        self.engine.doms.restore(node);
        if !silenced {
            parts.unsilence(self.engine);
        }
        if let Some(r) = failed {
            return r;
        }
        // Every component solved: their solutions together, every
        // constraint propagated (inside a split, the silenced ones among
        // this node's terms).
        let mut ok = solution
            .iter()
            .all(|&(v, x)| self.engine.doms.fix(v, x).is_ok())
            && self.engine.fixpoint().is_ok();
        if ok && silenced {
            let vars: Vec<VarId> = solution.iter().map(|&(v, _)| v).collect();
            let groups = parts.groups(&vars);
            let mut taken = Vec::new();
            ok = distinct(&mut self.engine.doms, &groups, &mut taken).is_ok();
        }
        if ok {
            return Res::Found;
        }
        parts.clashes += 1;
        self.engine.failed = None;
        self.engine.doms.restore(node);
        Res::Clash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::alldiff::AllDifferent;
    use crate::engine::props::linear::{LinOp, Linear};
    use crate::engine::search::{Limits, Strategy};
    use crate::engine::select::{Rng, val, var};
    use crate::model::{Model, Restarts, ValSelect, VarSelect};
    use rand::{RngExt, SeedableRng};
    use std::sync::Arc;

    /// A constraint of the test models, posted and evaluated.
    #[derive(Clone, Debug)]
    enum C {
        /// `sum(a * x) + k (op) 0`.
        Lin(Vec<(i64, VarId)>, i64, LinOp),
        /// The terms `x + c` pairwise distinct.
        Diff(Vec<(VarId, i64)>),
    }

    fn holds(c: &C, x: &[i64]) -> bool {
        match c {
            C::Lin(terms, k, op) => {
                let s: i64 = terms.iter().map(|&(a, v)| a * x[v]).sum::<i64>() + k;
                match op {
                    LinOp::Le => s <= 0,
                    LinOp::Eq => s == 0,
                    LinOp::Ne => s != 0,
                }
            }
            C::Diff(terms) => {
                let mut t: Vec<i64> = terms.iter().map(|&(v, c)| x[v] + c).collect();
                t.sort_unstable();
                t.windows(2).all(|w| w[0] != w[1])
            }
        }
    }

    /// Variables `0..n` over `lo..=hi` with the constraints posted; `None`
    /// when the root propagation fails.
    fn build(n: usize, lo: i64, hi: i64, cs: &[C]) -> Option<Harness> {
        let mut h = Harness::new();
        (0..n).for_each(|_| {
            h.range(lo, hi);
        });
        for c in cs {
            let r = match c {
                C::Lin(terms, k, op) => h.try_post(Linear::new(
                    terms.clone(),
                    i128::from(*k),
                    match op {
                        LinOp::Le => LinOp::Le,
                        LinOp::Eq => LinOp::Eq,
                        LinOp::Ne => LinOp::Ne,
                    },
                )),
                C::Diff(terms) => {
                    let p = AllDifferent::new(terms.clone(), true, &mut h.engine.doms);
                    h.try_post(p)
                }
            };
            r.ok()?;
        }
        Some(h)
    }

    struct Run {
        solution: Option<Vec<i64>>,
        splits: u64,
        clashes: u64,
        hits: u64,
    }

    /// One first-solution search of the harness's problem.
    fn first(h: &mut Harness, on: bool, var: VarSelect, val: ValSelect, seed: u64) -> Run {
        let n = h.engine.doms.num_vars();
        let vars: Vec<VarId> = (0..n).collect();
        let strategy = Strategy {
            var: var::build(var),
            val: val::build(val, &Model::default()),
            restarts: Restarts::Luby,
            seed,
            scope: Vec::new(),
            learning: false,
            phases: Vec::new(),
            components: on,
            restart_nogoods: true,
        };
        let limits = Limits {
            solutions: Some(1),
            ..Limits::default()
        };
        let mut search = Search::new(&mut h.engine, strategy, &vars, Arc::default(), limits);
        let mut solution = None;
        search.run(|x| {
            solution = Some(x[..n].to_vec());
            Next::Continue
        });
        let (splits, clashes, hits) = search
            .parts
            .as_ref()
            .map_or((0, 0, 0), |p| (p.splits, p.clashes, p.hits));
        Run {
            solution,
            splits,
            clashes,
            hits,
        }
    }

    fn check(cs: &[C], x: &[i64]) {
        for c in cs {
            assert!(holds(c, x), "{c:?} broken by {x:?}");
        }
    }

    /// Two sums apart, all-different over everything: `a0 + a1 == 5` and
    /// `b0 + b1 == 5` over 1..4 fill to {1, 4} and {2, 3}. Searched alone,
    /// each part takes 1 and 4 (smallest value first): their solutions clash
    /// on the all-different, and the node is branched on instead.
    #[test]
    fn clashing_parts_fall_back_to_branching() {
        let cs = vec![
            C::Lin(vec![(1, 0), (1, 1)], -5, LinOp::Eq),
            C::Lin(vec![(1, 2), (1, 3)], -5, LinOp::Eq),
            C::Diff(vec![(0, 0), (1, 0), (2, 0), (3, 0)]),
        ];
        let mut h = build(4, 1, 4, &cs).expect("consistent");
        let r = first(&mut h, true, VarSelect::Input, ValSelect::Min, 1);
        check(&cs, r.solution.as_ref().expect("a solution"));
        assert!(r.splits >= 1 && r.clashes >= 1, "split and clashed");
    }

    /// A part with no solution (an odd cycle of `x + y == 1` over 0..1,
    /// which propagation alone does not see) fails the node, whatever the
    /// other part holds; with it, the same answer as the search without
    /// components.
    #[test]
    fn a_part_with_no_solution_fails_the_node() {
        let mut cs = vec![
            C::Lin(vec![(1, 0), (1, 1)], -1, LinOp::Eq),
            C::Lin(vec![(1, 1), (1, 2)], -1, LinOp::Eq),
            C::Lin(vec![(1, 0), (1, 2)], -1, LinOp::Eq),
        ];
        // The other part: free but for a sum.
        cs.push(C::Lin(vec![(1, 3), (1, 4), (1, 5)], -1, LinOp::Le));
        for on in [true, false] {
            let mut h = build(6, 0, 1, &cs).expect("consistent at the root");
            let r = first(&mut h, on, VarSelect::DomWdeg, ValSelect::Min, 1);
            assert_eq!(r.solution, None, "components {on}");
            assert_eq!(r.splits > 0, on);
        }
    }

    /// Independent parts each solved once, apart, and put together; a
    /// variable twice in the all-different (`y` and `y + 1`) is kept
    /// distinct inside its part.
    #[test]
    fn independent_parts_and_a_variable_twice_in_all_different() {
        let cs = vec![
            C::Lin(vec![(1, 0), (-1, 1)], 1, LinOp::Le), // x0 < x1
            C::Lin(vec![(1, 1), (1, 2)], -4, LinOp::Eq), // x1 + x2 == 4
            C::Lin(vec![(1, 3), (1, 4)], -3, LinOp::Eq), // x3 + x4 == 3
            C::Diff(vec![(3, 0), (3, 1), (4, 0), (0, 0), (2, 5)]),
        ];
        for val in [ValSelect::Min, ValSelect::Max, ValSelect::Random] {
            let mut h = build(5, 0, 3, &cs).expect("consistent");
            let r = first(&mut h, true, VarSelect::Mrv, val, 7);
            check(&cs, r.solution.as_ref().expect("a solution"));
            assert!(r.splits >= 1);
        }
    }

    /// The cache: a part proved to have no solution fails again without
    /// search when met with the same domains and the same values around
    /// it. x0 and x1 are decided first (input order); below x1 the odd
    /// cycle x2, x3, x4 and x5 are apart. Under x0 = 0 the cycle is proved
    /// unsolvable next to x1 = 0 and x1 = 1; under x0 = 1, x1 = 0 it is a hit.
    #[test]
    fn a_part_with_no_solution_is_found_in_the_cache() {
        let cs = vec![
            C::Lin(vec![(1, 0), (1, 1)], -5, LinOp::Le),
            C::Lin(vec![(1, 1), (-1, 2)], -5, LinOp::Le),
            C::Lin(vec![(1, 1), (1, 5)], -5, LinOp::Le),
            C::Lin(vec![(1, 2), (1, 3)], -1, LinOp::Eq),
            C::Lin(vec![(1, 3), (1, 4)], -1, LinOp::Eq),
            C::Lin(vec![(1, 2), (1, 4)], -1, LinOp::Eq),
        ];
        for on in [true, false] {
            let mut h = build(6, 0, 1, &cs).expect("consistent");
            let r = first(&mut h, on, VarSelect::Input, ValSelect::Min, 1);
            assert_eq!(r.solution, None);
            assert_eq!(r.hits >= 1, on, "the cycle met again is a hit");
        }
    }

    /// Random small models of a few clusters of sums and one all-different
    /// (offsets, a variable twice): with components, a solution exactly when
    /// brute force finds one, and every solution satisfies every constraint,
    /// under several selections and seeds.
    #[test]
    fn random_models_agree_with_brute_force() {
        let mut rng = Rng::seed_from_u64(23);
        let mut cases = 0;
        let mut split = 0;
        let mut unsat = 0;
        for _ in 0..400 {
            let n = rng.random_range(4..=7);
            let (lo, hi) = (0, rng.random_range(1..=3));
            let clusters = rng.random_range(1..=3);
            let cluster = |v: usize| v % clusters;
            let mut cs = Vec::new();
            for _ in 0..rng.random_range(1..=2 * n) {
                let a = rng.random_range(0..n);
                let same: Vec<usize> = (0..n).filter(|&b| cluster(b) == cluster(a)).collect();
                let b = same[rng.random_range(0..same.len())];
                let k = rng.random_range(-5..=2);
                let op = match rng.random_range(0..3) {
                    0 => LinOp::Le,
                    1 => LinOp::Eq,
                    _ => LinOp::Ne,
                };
                let sign = if rng.random_bool(0.5) { 1 } else { -1 };
                cs.push(C::Lin(vec![(1, a), (sign, b)], k, op));
            }
            let mut terms: Vec<(VarId, i64)> = Vec::new();
            for v in 0..n {
                if rng.random_bool(0.6) {
                    terms.push((v, rng.random_range(0..=1)));
                }
            }
            if rng.random_bool(0.2) && !terms.is_empty() {
                let (v, c) = terms[0];
                terms.push((v, c + 1 + rng.random_range(0..=1)));
            }
            if terms.len() > 1 {
                cs.push(C::Diff(terms));
            }
            // Brute force.
            let width = (hi - lo + 1) as usize;
            let total = width.pow(n as u32);
            let any = (0..total).any(|mut code| {
                let x: Vec<i64> = (0..n)
                    .map(|_| {
                        let d = (code % width) as i64;
                        code /= width;
                        lo + d
                    })
                    .collect();
                cs.iter().all(|c| holds(c, &x))
            });
            let Some(base) = build(n, lo, hi, &cs) else {
                assert!(!any, "root failed on a model with solutions: {cs:?}");
                continue;
            };
            drop(base);
            for (var, val) in [
                (VarSelect::DomWdeg, ValSelect::Min),
                (VarSelect::Input, ValSelect::Max),
                (VarSelect::Mrv, ValSelect::Random),
            ] {
                let seed = rng.random_range(0..1000);
                let mut h = build(n, lo, hi, &cs).expect("as before");
                let r = first(&mut h, true, var, val, seed);
                cases += 1;
                split += u32::from(r.splits > 0);
                unsat += u32::from(!any);
                match &r.solution {
                    Some(x) => check(&cs, x),
                    None => assert!(!any, "no solution found for {cs:?} ({var:?} {val:?})"),
                }
                assert_eq!(r.solution.is_some(), any, "{cs:?}");
            }
        }
        // The generator reaches both answers and splits.
        assert!(
            split > cases / 10 && unsat > cases / 20 && unsat < cases,
            "{split} {unsat} {cases}"
        );
    }
}
