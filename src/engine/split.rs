//! Splitting a search into independent sub-problems, for parallel and
//! distributed solving: embarrassingly parallel search (Régin, Rezgui and
//! Malapert, "Embarrassingly Parallel Search", CP 2013; "Improvement of the
//! embarrassingly parallel search for data centers", CP 2014; Malapert,
//! Régin and Rezgui, JAIR 2016).
//!
//! The first decisions are enumerated with propagation, with the search's
//! own variable selection (in its branching order, the scope first) and
//! decision rule (`search/decide.rs`): a node is split by assigning one
//! variable each of its values in turn (`x = v1`, then `x != v1, x = v2`,
//! ...), each consistent child becoming a sub-problem; a domain held by its
//! bounds is bisected instead (`x <= v`, `x > v`). As in the search, the
//! variable is chosen again after each `x != v`: when the heuristic turns
//! to another one, the node left is one more child. A count by components
//! branches on every value of the variable at once, with no `x != v`
//! ([`Branching::AllValues`]), and so does its split. Rounds split the
//! sub-problems in order, one level each, until there are at least `target`
//! (EPS asks for 30 or more per worker, so that their uneven sizes even
//! out): the last round stops splitting once the target is reached, so the
//! count overshoots by at most one node's children. A node stops taking
//! values at the target, its rest one more child, only when at most 8 or
//! more than 8 times the target values are left: a rest of hundreds of
//! values would hold most of the tree in one sub-problem. Left children are not
//! propagated when they are made, only right branches are (the variable is
//! chosen again after them): a child that fails is dropped when the next
//! round reaches it, or fails at once where it is replayed.
//!
//! A sub-problem is the path of [`Decision`]s from the root; replaying it
//! (`Search::replay`) on an engine lowered from the same model reaches the
//! same node, since lowering, propagation and the heuristics are
//! deterministic. Sub-problems are disjoint (two paths differ at the first
//! decision where one takes `x = v` and the other `x != v`) and cover every
//! solution (a node's value loop tries each value until the domain is empty),
//! so counts add up and solution sets are unions. While the split is made,
//! the paths share their common decisions ([`SubProblems`]); a part takes
//! its own as whole paths.
//!
//! The split is search work: its decisions count in the engine's statistics
//! as the search's do (nodes, backtracks, failures), and only once: a node
//! when its decision is first taken, a failure where it is first
//! propagated (in the split, or in the replay of an unpropagated left
//! child); a sub-problem's replay is not counted again.

use super::Engine;
use super::budget::Budget;
use super::search::{Strategy, apply, decide};
use super::select::val::ValSelector;
use super::select::var::{Open, Order, VarSelector};
use super::select::{Branch, Decision, Rng};
use super::trail::Checkpoint;
use crate::model::VarId;
use rand::SeedableRng;

/// The decisions leading from the root to a sub-problem.
pub(crate) type Path = Vec<Decision>;

/// A sub-problem's path as a node of [`SubProblems`]' tree.
type NodeId = usize;

/// The parent of the first decision of a path: the node the split began at.
const ROOT: NodeId = NodeId::MAX;

/// The sub-problems of a split, in order: each the last decision of its
/// path in a tree of decisions that the paths share, since a node's
/// children all extend its path. Holding each path whole took four times
/// the memory (n-queens 30 in 2^20 parts: a peak of 3.3 GB, 813 MB so).
pub(crate) struct SubProblems {
    /// Each decision taken, with the node it follows.
    nodes: Vec<(NodeId, Decision)>,
    /// The sub-problems: the node of each path's last decision.
    ids: Vec<NodeId>,
}

impl SubProblems {
    /// The sub-problems of `paths`, each a path from the current node.
    pub(crate) fn from_paths(paths: Vec<Path>) -> SubProblems {
        let mut tree = SubProblems {
            nodes: Vec::new(),
            ids: Vec::with_capacity(paths.len()),
        };
        for path in paths {
            let id = path.into_iter().fold(ROOT, |at, dec| tree.extend(at, dec));
            tree.ids.push(id);
        }
        tree
    }

    pub(crate) fn len(&self) -> usize {
        self.ids.len()
    }

    /// A new node: the path of `at` and then `dec`.
    fn extend(&mut self, at: NodeId, dec: Decision) -> NodeId {
        self.nodes.push((at, dec));
        self.nodes.len() - 1
    }

    /// The decisions of the path to node `id`, from the first.
    fn path_to(&self, mut id: NodeId) -> Path {
        let mut path = Vec::new();
        while id != ROOT {
            let (parent, dec) = self.nodes[id];
            path.push(dec);
            id = parent;
        }
        path.reverse();
        path
    }

    /// Sub-problems `k-1, k-1+n, k-1+2n, ...` (round robin: neighbours, often
    /// alike in size, go to different parts), as paths.
    pub(crate) fn every_nth(&self, k: usize, n: usize) -> Vec<Path> {
        self.ids
            .iter()
            .skip(k - 1)
            .step_by(n)
            .map(|&id| self.path_to(id))
            .collect()
    }

    /// Every sub-problem, as paths.
    pub(crate) fn into_paths(self) -> Vec<Path> {
        self.every_nth(1, 1)
    }
}

/// Which split this is: the same model and search split differently under
/// another version, so parts made by builds of different versions must not
/// merge (`part.rs` puts it in their fingerprint). 2: the value loop went on
/// past the target when at most 8 times the target values were left; 3:
/// when more than 8 as well ([`Splitter::enumerates`]).
pub(crate) const VERSION: u32 = 3;

/// A node whose variable has more than this many values left, and at most
/// this many times the target, when the target is reached gives each of
/// them a child ([`Splitter::enumerates`]); a narrower or a wider one keeps
/// them in one rest child.
const ENUMERATED_PER_TARGET: usize = 8;

/// How the split branches: as the search that solves the sub-problems will.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branching {
    /// The search's: `x = v`, then `x != v` and the variable chosen again.
    Binary,
    /// Counting by components' (`components.rs`): `x = v` for every value of
    /// a bitset domain in increasing order, with no right branches to
    /// propagate, so the split costs only the nodes it splits.
    AllValues,
}

/// How a split of several sub-problems together ([`split_from`]) shares the
/// children the target asks for among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spread {
    /// In order: the first sub-problems take all the children the target
    /// wants, the others are kept whole (the split of `K/N:J/M`, and of
    /// version 3's parts: kept as it is, so that their pieces still merge).
    First,
    /// Each sub-problem of a round gets its share, `target / paths` children
    /// (at least two), whatever comes before it (`K/N:J/Me`). A piece taken up
    /// from its log and stopped in a long sub-problem has that one among its
    /// last, unsearched ones: split `First`, it can stay whole, level after
    /// level, behind the first ones, already searched, that take the split.
    /// A node still takes all its values when at most 8 times the target are
    /// left ([`Splitter::enumerates`]), so a piece of P sub-problems can make
    /// up to 8 × target × P.
    Even,
}

/// The split was stopped by the time or node limit or the stop flag
/// (`budget`) before it was done.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Stopped;

/// Splits the search below the current node (propagated, consistent) into
/// at least `target` sub-problems where the tree allows, each a path of
/// decisions from this node. `strategy` makes a fresh strategy for each
/// round, so that the split depends only on the model and the strategy.
/// The domains are as before when it returns. A node gives the children
/// the target still needs and one more, the rest of it, however wide its
/// variable's domain, or a child for each value when few are left
/// ([`Splitter::enumerates`]); the budget is read at every child.
pub(crate) fn split(
    engine: &mut Engine,
    strategy: &dyn Fn() -> Strategy,
    primary: &[VarId],
    branching: Branching,
    target: usize,
    budget: &mut Budget,
) -> Result<SubProblems, Stopped> {
    split_from(
        engine,
        strategy,
        primary,
        branching,
        vec![Vec::new()],
        target,
        Spread::First,
        budget,
    )
}

/// [`split`] of the sub-problems `start` (paths from the current node, in
/// order) together: rounds split them further, in order, until there are at
/// least `target`, the children shared among them as `spread` says. The
/// sub-problems of one part split again for its sub-parts (`--part
/// K/N:J/M`): the whole of what it returns is what `start` covered, in the
/// same order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn split_from(
    engine: &mut Engine,
    strategy: &dyn Fn() -> Strategy,
    primary: &[VarId],
    branching: Branching,
    start: Vec<Path>,
    target: usize,
    spread: Spread,
    budget: &mut Budget,
) -> Result<SubProblems, Stopped> {
    let root = engine.doms.checkpoint();
    let order = Order::new(&strategy().scope, primary, engine.doms.num_vars());
    let mut tree = SubProblems::from_paths(start);
    while tree.ids.len() < target {
        let s = strategy();
        let paths = std::mem::take(&mut tree.ids);
        let mut splitter = Splitter {
            engine: &mut *engine,
            var: s.var,
            val: s.val,
            rng: Rng::seed_from_u64(s.seed),
            order: &order,
            branching,
            tree: &mut tree,
            target,
            later: 0,
            share: match spread {
                Spread::First => None,
                Spread::Even => Some(target.div_ceil(paths.len().max(1)).max(2)),
            },
            node_start: 0,
            budget: &mut *budget,
        };
        let mut grew = false;
        let mut at = Reached::default();
        for (i, &id) in paths.iter().enumerate() {
            if spread == Spread::First && splitter.tree.ids.len() + (paths.len() - i) >= target {
                splitter.tree.ids.push(id);
                continue;
            }
            let path = splitter.tree.path_to(id);
            if !at.reach(splitter.engine, &path) {
                continue;
            }
            splitter.later = paths.len() - i - 1;
            splitter.node_start = splitter.tree.ids.len();
            let node = splitter.engine.doms.checkpoint();
            let before = splitter.tree.ids.len();
            let done = splitter.children(id, path.len());
            splitter.engine.doms.restore(node);
            if done.is_err() {
                splitter.engine.doms.restore(root);
                return Err(Stopped);
            }
            let out = &splitter.tree.ids;
            grew |= out.len() != before + 1 || out[before] != id;
        }
        splitter.engine.doms.restore(root);
        if !grew {
            break;
        }
    }
    Ok(tree)
}

/// The node a round of the split is at: the decisions applied from the
/// root, each with the checkpoint before it. A round's paths come in
/// depth-first order, so the next one shares all but its last decisions or
/// so with this one: going there undoes and applies only the difference,
/// not the whole path from the root (which made the split cost a quarter of
/// a part's work in a 64-part split of n-queens 13).
#[derive(Default)]
struct Reached {
    applied: Vec<(Decision, Checkpoint)>,
}

impl Reached {
    /// Goes to the node of `path`; false (at some ancestor) when a decision
    /// fails.
    fn reach(&mut self, engine: &mut Engine, path: &[Decision]) -> bool {
        let common = self
            .applied
            .iter()
            .zip(path)
            .take_while(|((a, _), b)| a == *b)
            .count();
        if let Some(&(_, cp)) = self.applied.get(common) {
            engine.doms.restore(cp);
            self.applied.truncate(common);
        }
        for &dec in &path[common..] {
            let cp = engine.doms.checkpoint();
            if apply(&mut engine.doms, dec).is_err() || engine.propagate_decision(dec.var).is_err()
            {
                // Only a path's last decision can fail, a left child that
                // the split took without propagating it (and counted as a
                // node then).
                engine.stats.failures += 1;
                engine.doms.restore(cp);
                engine.failed = None;
                return false;
            }
            self.applied.push((dec, cp));
        }
        true
    }
}

/// Applies and propagates the decisions of `path` from the current node;
/// false when one fails, counted as a failure: the split took the last
/// decision without propagating it.
pub(crate) fn replay(engine: &mut Engine, path: &[Decision]) -> bool {
    let ok = path.iter().all(|&dec| {
        apply(&mut engine.doms, dec).is_ok() && engine.propagate_decision(dec.var).is_ok()
    });
    if !ok {
        engine.stats.failures += 1;
        engine.failed = None;
    }
    ok
}

struct Splitter<'a> {
    engine: &'a mut Engine,
    var: VarSelector,
    val: Box<dyn ValSelector>,
    rng: Rng,
    order: &'a Order,
    branching: Branching,
    /// The decisions taken, and this round's sub-problems so far (`ids`).
    tree: &'a mut SubProblems,
    /// The sub-problems wanted, and how many of this round's paths come
    /// after the node being split (each one at least).
    target: usize,
    later: usize,
    /// [`Spread::Even`]: the children each node of the round may have, and
    /// where the current node's begin in `tree.ids`.
    share: Option<usize>,
    node_start: usize,
    budget: &'a mut Budget,
}

impl Splitter<'_> {
    /// Adds the children of the current node, reached by the path of node
    /// `at` (`depth` decisions), to the sub-problems: the node itself when
    /// no variable is open. The decisions are the search's own: after each
    /// right branch the variable is chosen again, and while it is the same
    /// one the value loop goes on; another one makes the node one child,
    /// split in the next round (so the split takes the decisions the search
    /// would, and the work adds up to a one-thread run's where the
    /// heuristics keep no state).
    fn children(&mut self, at: NodeId, depth: usize) -> Result<(), Stopped> {
        let Some(x) = self.select() else {
            self.tree.ids.push(at);
            return Ok(());
        };
        if self.branching == Branching::AllValues && self.engine.doms.is_bitset(x) {
            // Counted as the component counter counts its branches: a node
            // each, a backtrack for each value after the first. Only the
            // values the target needs, unless few enough are left to take
            // them all: the others are one more child, `x > v` after the
            // last value taken.
            let size = self.engine.doms.size(x);
            let mut room = self.room();
            if self.enumerates(size.saturating_sub(room as u64)) {
                room = size as usize;
            }
            let values: Vec<i64> = self.engine.doms.values(x).take(room + 1).collect();
            let cut = values.len() > room;
            for (i, &v) in values.iter().take(room.max(1)).enumerate() {
                self.check()?;
                let dec = Decision {
                    var: x,
                    branch: Branch::Assign(v),
                    right: false,
                };
                self.engine.stats.backtracks += u64::from(i > 0);
                let child = self.tree.extend(at, dec);
                self.left_child(child, depth + 1);
                if cut && i + 1 == room.max(1) {
                    let rest = Decision {
                        var: x,
                        branch: Branch::AtMost(v),
                        right: true,
                    };
                    let rest = self.tree.extend(at, rest);
                    self.tree.ids.push(rest);
                }
            }
            return Ok(());
        }
        // The node after the right branches taken so far, and its depth.
        let (mut now, mut now_depth) = (at, depth);
        // Whether the loop goes on to the last value: decided once, as the
        // target is reached.
        let mut to_the_end = false;
        loop {
            let branch = decide(self.val.as_mut(), self.engine, x, &mut self.rng);
            let dec = Decision {
                var: x,
                branch,
                right: false,
            };
            // The left child is left unpropagated: the next round propagates
            // it if it splits it, else the thread or part that replays it
            // does so anyway. Propagating every child here doubled the
            // split's cost (a quarter of a crossword part's overhead) only
            // to drop the few that fail. Its node counts here, as the search
            // counts its decision; its failure, if it fails, where it is
            // propagated (`Reached::reach`, `Search::replay`).
            // `x = v` says all that the decisions on `x` before it said:
            // the replay skips them (else sub-problem k replays k removals).
            let child = match branch {
                Branch::Assign(_) => self.tree.extend(at, dec),
                Branch::AtMost(_) => self.tree.extend(now, dec),
            };
            self.left_child(child, now_depth + 1);
            self.check()?;
            let right = Decision { right: true, ..dec };
            if !self.take(right) {
                break;
            }
            now = self.tree.extend(now, right);
            now_depth += 1;
            let stats = &mut self.engine.stats;
            stats.max_depth = stats.max_depth.max(now_depth as u64);
            // The rest of the node is one child when the heuristic turns
            // to another variable, or when the target is reached and the
            // values left are not to be enumerated (a domain of 10^8 values
            // once made 10^8 children).
            let full = self.room() == 0;
            if full && !to_the_end {
                to_the_end = self.enumerates(self.engine.doms.size(x));
            }
            if self.select() != Some(x) || (full && !to_the_end) {
                let rest = match self.engine.doms.value(x) {
                    Some(v) => {
                        let last = Decision {
                            var: x,
                            branch: Branch::Assign(v),
                            right: false,
                        };
                        self.tree.extend(at, last)
                    }
                    None => now,
                };
                self.tree.ids.push(rest);
                break;
            }
        }
        Ok(())
    }

    /// How many more children the target wants from this node: the rest of
    /// the target, or of the node's share under [`Spread::Even`].
    fn room(&self) -> usize {
        match self.share {
            Some(share) => share.saturating_sub(self.tree.ids.len() - self.node_start),
            None => self.target.saturating_sub(self.tree.ids.len() + self.later),
        }
    }

    /// Whether a node's value loop goes on to its last value although the
    /// target is reached with `left` values still to take: when more than
    /// [`ENUMERATED_PER_TARGET`] are, and at most that many times the
    /// target. Cut short, the rest of the node is one child holding all
    /// those values, often most of the tree: a crossword proof's first slot
    /// kept all but 2,048 of its words in one of 2,049 sub-problems, and
    /// splitting that part again peeled off a few more words at each level,
    /// never spreading it. A rest of a few values weighs no more than a few
    /// children, and enumerating it cost magic-square counts 3 %.
    fn enumerates(&self, left: u64) -> bool {
        let most = ENUMERATED_PER_TARGET as u64;
        left > most && left <= most * self.target as u64
    }

    /// Stopped by the time or node limit or the stop flag.
    fn check(&mut self) -> Result<(), Stopped> {
        if self.budget.exceeded(&self.engine.stats) {
            Err(Stopped)
        } else {
            Ok(())
        }
    }

    /// Adds a left child, unpropagated, made at depth `depth` (the node's
    /// decisions, right branches included, plus its own): counted as the
    /// search counts a decision, a node.
    fn left_child(&mut self, child: NodeId, depth: usize) {
        let stats = &mut self.engine.stats;
        stats.nodes += 1;
        stats.max_depth = stats.max_depth.max(depth as u64);
        self.tree.ids.push(child);
    }

    /// The variable the search would branch on at this node, if any is open.
    fn select(&mut self) -> Option<VarId> {
        let order = self.order;
        let pick = self
            .var
            .pick(self.engine, Open::Unfixed, order, 0, &mut self.rng);
        pick.map(|p| p.var)
    }

    /// Applies and propagates a right branch; false when it fails. Counted
    /// as the search counts its own decisions (a node each, a backtrack
    /// too), so that the split's work shows in the statistics.
    fn take(&mut self, dec: Decision) -> bool {
        let ok = apply(&mut self.engine.doms, dec).is_ok()
            && self.engine.propagate_decision(dec.var).is_ok();
        let stats = &mut self.engine.stats;
        stats.nodes += 1;
        stats.backtracks += u64::from(dec.right);
        if !ok {
            stats.failures += 1;
            if let Some(p) = self.engine.take_failed() {
                self.var.on_failure(self.engine, p);
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::linear::{LinOp, Linear};
    use crate::engine::search::{Limits, Next, Search};
    use crate::engine::select::{val, var};
    use crate::model::{Model, Restarts, ValSelect, VarSelect};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    /// Two booleans declared first, then x and y in 1..6, and z, an
    /// interval held by its bounds (0..100,000) within 2 of 1,000 × x:
    /// `b1 + b2 + x + y <= 9`.
    fn model() -> (Harness, Vec<VarId>) {
        model_of(6)
    }

    /// [`model`] with x and y in 1..n and `b1 + b2 + x + y <= n + 3`.
    fn model_of(n: i64) -> (Harness, Vec<VarId>) {
        let mut h = Harness::new();
        let (b1, b2) = (h.range(0, 1), h.range(0, 1));
        let (x, y, z) = (h.range(1, n), h.range(1, n), h.range(0, 100_000));
        assert!(!h.engine.doms.is_bitset(z));
        let sum = vec![(1, b1), (1, b2), (1, x), (1, y)];
        h.post(Linear::new(sum, -i128::from(n + 3), LinOp::Le));
        h.post(Linear::new(vec![(1000, x), (-1, z)], 0, LinOp::Le));
        h.post(Linear::new(vec![(-1000, x), (1, z)], -2, LinOp::Le));
        (h, vec![b1, b2, x, y, z])
    }

    fn strategy(var: VarSelect, val: ValSelect, scope: &[VarId]) -> Strategy {
        Strategy {
            var: var::build(var),
            val: val::build(val, &Model::default()),
            restarts: Restarts::None,
            seed: 3,
            scope: scope.to_vec(),
            learning: false,
            phases: Vec::new(),
            components: false,
            restart_nogoods: true,
        }
    }

    /// The solutions below the current node, each as the values of `vars`.
    fn solutions(
        engine: &mut Engine,
        s: Strategy,
        vars: &[VarId],
        path: &[Decision],
    ) -> Vec<Vec<i64>> {
        let mut found = Vec::new();
        let crossings = Arc::new(Default::default());
        let mut search = Search::new(engine, s, vars, crossings, Limits::default());
        if search.replay(path) {
            search.run(|values| {
                found.push(vars.iter().map(|&v| values[v]).collect());
                Next::Continue
            });
        }
        found
    }

    /// The split's sub-problems are disjoint and cover every solution, under
    /// every value selection (bounds of the interval `z` included) and
    /// variable selection, with and without a scope: the split takes its
    /// decisions through the search's own rule (`decide`, `apply`).
    #[test]
    fn sub_problems_partition_the_solutions() {
        for &var in &[
            VarSelect::Input,
            VarSelect::Mrv,
            VarSelect::DomWdeg,
            VarSelect::Smallest,
        ] {
            for &val in &[
                ValSelect::Min,
                ValSelect::Max,
                ValSelect::Split,
                ValSelect::Random,
            ] {
                for (n, target) in [(6, 12), (30, 8)] {
                    for scoped in [false, true] {
                        let (mut h, vars) = model_of(n);
                        let scope = if scoped {
                            vec![vars[4], vars[3]]
                        } else {
                            vec![]
                        };
                        let whole: Vec<_> =
                            solutions(&mut h.engine, strategy(var, val, &scope), &vars, &[]);
                        let all: BTreeSet<_> = whole.iter().cloned().collect();
                        assert_eq!(
                            all.len(),
                            whole.len(),
                            "{var:?} {val:?}: one search, no repeats"
                        );
                        assert!(all.len() > 100);
                        let make = || strategy(var, val, &scope);
                        let root = h.engine.doms.checkpoint();
                        let paths = split(
                            &mut h.engine,
                            &make,
                            &vars,
                            Branching::Binary,
                            target,
                            &mut Budget::new(Default::default()),
                        )
                        .unwrap()
                        .into_paths();
                        assert!(
                            paths.len() >= target,
                            "{var:?} {val:?}: {} sub-problems",
                            paths.len()
                        );
                        let stays = var != VarSelect::Smallest && val != ValSelect::Split;
                        if n == 30 && !scoped && stays {
                            // The first of x or y reached the target with 25
                            // values left: each is a child (`enumerates`;
                            // `smallest` turns to the other one at once, a
                            // bisection takes ranges).
                            assert!(paths.len() >= 30, "{var:?} {val:?}: {paths:?}");
                        }
                        let mut union = BTreeSet::new();
                        for path in &paths {
                            h.engine.doms.restore(root);
                            for s in solutions(&mut h.engine, make(), &vars, path) {
                                assert!(
                                    union.insert(s),
                                    "{var:?} {val:?}: two sub-problems share a solution"
                                );
                            }
                        }
                        assert_eq!(
                            union, all,
                            "{var:?} {val:?} scoped {scoped}, n = {n}: the sub-problems cover the solutions"
                        );
                    }
                }
            }
        }
    }

    /// Sub-parts split a part's sub-problems again (`split_from`). Spread
    /// `First`, the first ones take the children and the last is kept whole;
    /// spread `Even`, every one with two values or more is split, the last
    /// included. Either way the pieces are disjoint and cover the solutions.
    #[test]
    fn an_even_split_splits_every_sub_problem() {
        for &var in &[VarSelect::Input, VarSelect::Mrv, VarSelect::DomWdeg] {
            for spread in [Spread::First, Spread::Even] {
                let (mut h, vars) = model_of(12);
                let make = || strategy(var, ValSelect::Min, &[]);
                let all: BTreeSet<_> = solutions(&mut h.engine, make(), &vars, &[])
                    .into_iter()
                    .collect();
                let root = h.engine.doms.checkpoint();
                let budget = &mut Budget::new(Default::default());
                let start = split(&mut h.engine, &make, &vars, Branching::Binary, 4, budget)
                    .unwrap()
                    .into_paths();
                let what = format!("{var:?} {spread:?}: {} to start", start.len());
                assert!(start.len() >= 4, "{what}");
                let paths = split_from(
                    &mut h.engine,
                    &make,
                    &vars,
                    Branching::Binary,
                    start.clone(),
                    16,
                    spread,
                    budget,
                )
                .unwrap()
                .into_paths();
                assert!(paths.len() >= 16, "{what}: {} pieces", paths.len());
                let last = start.last().unwrap();
                let below_last = paths.iter().filter(|p| p.starts_with(last)).count();
                match spread {
                    Spread::First => assert_eq!(below_last, 1, "{what}: kept whole"),
                    Spread::Even => assert!(below_last >= 2, "{what}: {below_last} below the last"),
                }
                let mut union = BTreeSet::new();
                for path in &paths {
                    h.engine.doms.restore(root);
                    assert!(start.iter().any(|s| path.starts_with(s)), "{what}");
                    for s in solutions(&mut h.engine, make(), &vars, path) {
                        assert!(union.insert(s), "{what}: two pieces share a solution");
                    }
                }
                assert_eq!(union, all, "{what}: the pieces cover the solutions");
                // A piece with no sub-problem (a part of a small tree) has
                // none to split.
                h.engine.doms.restore(root);
                let none = split_from(
                    &mut h.engine,
                    &make,
                    &vars,
                    Branching::Binary,
                    Vec::new(),
                    16,
                    spread,
                    budget,
                )
                .unwrap();
                assert_eq!(none.len(), 0, "{what}");
            }
        }
    }

    /// The tree gives back each path as it was made, parts taking every
    /// N-th, and a split's paths share their decisions in it: a node's
    /// children store only their own.
    #[test]
    fn sub_problems_share_their_paths_decisions() {
        let (mut h, vars) = model_of(30);
        let make = || strategy(VarSelect::Input, ValSelect::Min, &[]);
        let budget = &mut Budget::new(Default::default());
        let tree = split(&mut h.engine, &make, &vars, Branching::Binary, 200, budget).unwrap();
        let paths = SubProblems::from_paths(tree.every_nth(1, 1)).into_paths();
        assert_eq!(paths, tree.every_nth(1, 1), "a round trip");
        assert_eq!(paths.len(), tree.len());
        assert!(tree.len() >= 200);
        let decisions: usize = paths.iter().map(Vec::len).sum();
        assert!(
            tree.nodes.len() < decisions,
            "{} nodes for {decisions} decisions",
            tree.nodes.len()
        );
        let third: Vec<Path> = paths.iter().skip(2).step_by(3).cloned().collect();
        assert_eq!(tree.every_nth(3, 3), third);
    }

    /// Past the target, a node's value loop goes on to the last value when
    /// more than 8 and at most 8 times the target values are left, so that
    /// no child holds the rest of a domain of hundreds of values; a rest of
    /// a few values, or of a far wider domain, stays one child.
    #[test]
    fn a_narrow_node_gives_every_value_a_child() {
        for (size, target, children) in
            [(6, 2, 3), (12, 2, 12), (36, 4, 36), (37, 4, 5), (100, 4, 5)]
        {
            for branching in [Branching::Binary, Branching::AllValues] {
                let mut h = Harness::new();
                let x = h.range(1, size);
                let make = || strategy(VarSelect::Input, ValSelect::Min, &[]);
                let budget = &mut Budget::new(Default::default());
                let paths = split(&mut h.engine, &make, &[x], branching, target, budget)
                    .unwrap()
                    .into_paths();
                let what = format!("{size} values, target {target}, {branching:?}: {paths:?}");
                assert_eq!(paths.len(), children, "{what}");
                let assigned = |p: &Path| matches!(p.last(), Some(d) if !d.right && matches!(d.branch, Branch::Assign(_)));
                let singles = paths.iter().filter(|p| assigned(p)).count();
                if children == size as usize {
                    assert_eq!(singles, children, "{what}");
                } else {
                    assert_eq!(singles, children - 1, "{what}: one rest child");
                }
            }
        }
    }

    /// The split branches on the search item's scope first, in its stated
    /// order, as the search does (issue 25: it took the declared booleans
    /// first, whose domains are smaller, so that threads searched where one
    /// thread never goes).
    #[test]
    fn the_first_decisions_follow_the_scope() {
        for &(name, var) in <VarSelect as crate::model::search::Named>::ALL {
            let (mut h, vars) = model();
            let (x, y) = (vars[2], vars[3]);
            let make = || strategy(var, ValSelect::Min, &[y, x]);
            let paths = split(
                &mut h.engine,
                &make,
                &vars,
                Branching::Binary,
                4,
                &mut Budget::new(Default::default()),
            )
            .unwrap()
            .into_paths();
            assert!(paths.len() >= 4);
            for path in &paths {
                assert!([x, y].contains(&path[0].var), "{name}: {path:?}");
                if var == VarSelect::Input {
                    assert_eq!(path[0].var, y, "input follows the scope's order");
                }
            }
            let all = split(
                &mut h.engine,
                &make,
                &vars,
                Branching::AllValues,
                4,
                &mut Budget::new(Default::default()),
            )
            .unwrap()
            .into_paths();
            assert!(
                all.iter().all(|p| [x, y].contains(&p[0].var)),
                "{name}: {all:?}"
            );
        }
    }
}
