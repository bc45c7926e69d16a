//! Depth-first search with binary branching: at each node the variable
//! selector picks a variable `x` and the value selector a decision — `x = v`
//! (then `x != v`) or `x <= v` (then `x > v`). The decision stack is
//! explicit; each frame remembers the trail checkpoint to return to.
//!
//! Solutions are counted over the *primary* variables (the projection, or the
//! declared variables). The others are auxiliary variables that lowering
//! introduced, each defined by its propagator as a function of the primary
//! ones: once the primary variables are assigned, the search propagates
//! those definitions (at every propagation level — this is evaluation, not
//! search) and branches on an auxiliary variable only if one is still open.
//! Having found the completion, it backs out to where the completion began,
//! so a solution is never counted twice.
//!
//! Under `none` and `fc` a primary variable counts as assigned only once it
//! has been decided, even if pruning left it one value, so that every
//! constraint is checked (or forward-checked) from each of its variables, as
//! in the textbook algorithms. Under `ac` a fixed variable is assigned: the
//! fixpoint has checked every constraint on it.
//!
//! In count-only mode no values are copied per solution, and under `ac` the
//! solutions are counted by components where that is sound
//! (`components.rs`, documented in docs/crossword.md).
//!
//! The rest has a file each: the decision rule the split shares
//! (`decide.rs`), branch and bound (`objective.rs`), large-neighbourhood
//! search (`lns.rs` its neighbourhoods, `lns_driver.rs` its iterations);
//! the variable selector owns its fast paths (`select/var/`).

mod by_components;
mod decide;
pub(crate) mod lns;
mod lns_driver;
mod objective;
mod refuted;

pub(crate) use decide::{apply, decide};

use super::Engine;
use super::budget::Budget;
use super::components::{Components, Counted, Ctx};
use super::crossings::Crossings;
use super::learn::Cause;
use super::learn::exchange::{Exchange, Port};
use super::props::restart_nogoods::DecLit;
use super::restart::Restarter;
use super::select::val::ValSelector;
use super::select::var::{Open, Order, VarSelector};
use super::select::{Branch, Decision, Rng};
use super::stats::Stats;
use super::trail::Checkpoint;
use super::tree::{TreeEvent, TreeLog};
use crate::model::{Propagation, Restarts, VarId};
use lns::{End, Lns, Plan};
use lns_driver::LnsDriver;
use objective::Objective;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// When to stop early, and whom to tell how it goes.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub solutions: Option<u64>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Set from outside (a signal handler, another thread) to stop the search
    /// as a limit does.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called about twice a second with the statistics so far.
    pub progress: Option<fn(&Stats, Duration)>,
    /// The most heap bytes the process may hold while the model is lowered
    /// and searched (`--memory-limit`; `crate::memory` counts them): past
    /// it the run stops as a limit stops it.
    pub memory: Option<MemoryLimit>,
}

/// A heap limit, and whether it stopped the run: the clones the threads of
/// one run hold share that latch, so the caller can say which limit ended
/// the run rather than guess it.
#[derive(Clone, Debug)]
pub struct MemoryLimit {
    pub bytes: u64,
    reached: Arc<AtomicBool>,
}

impl MemoryLimit {
    pub fn new(bytes: u64) -> Self {
        MemoryLimit {
            bytes,
            reached: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the run crossed the limit (and so stopped) at some check.
    pub fn reached(&self) -> bool {
        self.reached.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether the process holds more heap than the limit allows now;
    /// remembered when it does.
    fn exceeded(&self) -> bool {
        let over = crate::memory::live_bytes() > self.bytes;
        if over {
            self.reached
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        over
    }
}

impl Limits {
    /// What the phases before the search (lowering, the root's
    /// propagation) ask now and then: no stop flag raised, time left (the
    /// time limit counted from `start`) and the heap within its limit.
    /// Nodes and solutions do not count there.
    pub(crate) fn go_on_from(&self, start: Instant) -> impl FnMut() -> bool + use<> {
        let deadline = self.time.map(|t| start + t);
        let stop = self.stop.clone();
        let memory = self.memory.clone();
        move || {
            !stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
                && deadline.is_none_or(|d| Instant::now() < d)
                && !over_memory(memory.as_ref())
        }
    }
}

/// Whether the process holds more heap than `limit` allows.
pub(crate) fn over_memory(limit: Option<&MemoryLimit>) -> bool {
    limit.is_some_and(MemoryLimit::exceeded)
}

/// Whether counting by components is sound for a count (`components.rs`):
/// under `ac`, every variable searched (no projection, no auxiliary
/// variable), no objective and no solution limit.
pub(crate) fn counts_by_components(
    level: Propagation,
    every_variable_searched: bool,
    objective: bool,
    solution_limit: bool,
) -> bool {
    level == Propagation::Ac && every_variable_searched && !objective && !solution_limit
}

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The whole search space was explored.
    Exhausted,
    /// The requested number of solutions was reached.
    SolutionLimit,
    /// A node or time limit, or the caller, stopped it.
    Interrupted,
}

/// What the solution callback wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Continue,
    Stop,
}

/// How the search branches: its heuristics and restart policy.
pub(crate) struct Strategy {
    pub(crate) var: VarSelector,
    pub(crate) val: Box<dyn ValSelector>,
    pub(crate) restarts: Restarts,
    pub(crate) seed: u64,
    /// Variables to branch on first, in this order; the other primary
    /// variables follow.
    pub(crate) scope: Vec<VarId>,
    /// Learn nogoods from failures (`learn/`, docs/learning.md); only under
    /// `ac`, and not when counting by components.
    pub(crate) learning: bool,
    /// Phases searched before the rest, in order, each with its own choices
    /// (a sequential search: FlatZinc's `seq_search`).
    pub(crate) phases: Vec<Phase>,
    /// Search by components for a first solution (`by_components.rs`),
    /// where it applies.
    pub(crate) components: bool,
    /// Whether restarts keep the branches they leave as nogoods
    /// (`refuted.rs`), where they can.
    pub(crate) restart_nogoods: bool,
}

/// One phase of a sequential search: its variables, branched on while any
/// is open, before the next phase's, with its own variable and value choice.
pub(crate) struct Phase {
    pub(crate) vars: Vec<VarId>,
    pub(crate) var: VarSelector,
    pub(crate) val: Box<dyn ValSelector>,
}

/// A phase as the search holds it: its variables as a branching order.
struct PhaseState {
    order: Order,
    var: VarSelector,
    val: Box<dyn ValSelector>,
}

struct Frame {
    checkpoint: Checkpoint,
    var: VarId,
    branch: Branch,
    /// False while exploring the decision, true while exploring its negation.
    right: bool,
    /// Whether this frame marked `var` decided.
    decided: bool,
    /// Every primary variable before this position is assigned below this
    /// frame: input order resumes its scan here instead of at the start.
    scan: usize,
    /// The fixings of a large neighbourhood, below every decision: popping
    /// it means the neighbourhood is exhausted.
    floor: bool,
}

/// What to do at the current node.
enum Step {
    Decide(VarId),
    Solution,
    /// The definitions of the auxiliary variables failed: no completion.
    Fail,
    /// This completion breaks a constraint: try the next one.
    Reject,
}

pub(crate) struct Search<'e> {
    pub(crate) engine: &'e mut Engine,
    var_select: VarSelector,
    val_select: Box<dyn ValSelector>,
    /// Counted variables, in branching order (the scope first).
    order: Order,
    /// The phases of a sequential search, searched before `order`.
    phases: Vec<PhaseState>,
    /// The phase whose selection chose the variable being decided (`None`:
    /// the main one), whose value choice then decides it.
    picked_phase: Option<usize>,
    /// The others: functionally defined, found once per primary assignment.
    secondary: Vec<VarId>,
    decided: Vec<bool>,
    stack: Vec<Frame>,
    /// Stack depth at which the completion of a primary assignment began.
    completing: Option<usize>,
    rng: Rng,
    budget: Budget,
    restarter: Restarter,
    /// Where the last variable selection found its variable (see [`Frame::scan`]).
    scan: usize,
    /// Branch and bound, when minimising.
    objective: Option<Objective>,
    /// Frames below this depth belong to a replayed sub-problem (see
    /// [`Self::replay`]): never undone, never restarted.
    replayed: usize,
    /// The root (or the replayed node) is propagated already.
    propagated: bool,
    /// Nothing is printed: solutions are only counted, values not copied.
    count_only: bool,
    /// Count by components where sound (see `components.rs`).
    product_count: bool,
    /// The component counter, made when first needed (or handed over by
    /// the caller, to keep its cache across searches).
    components: Option<Box<Components>>,
    crossings: Arc<Crossings>,
    /// The first decisions, when asked for (golden tests, `--trace`).
    trace: Option<(usize, Vec<Decision>)>,
    /// The search tree, when asked for (`--tree`).
    tree: Option<TreeLog>,
    /// Large-neighbourhood search, once branch and bound has a solution.
    lns: Option<LnsDriver>,
    /// Learning asked for (see [`Strategy::learning`]).
    learning: bool,
    /// The level the last nogood learned asserts at: where a backjump goes.
    jump: Option<usize>,
    /// Short nogoods traded with the other searches of a portfolio.
    exchange: Option<(Arc<Exchange>, Port)>,
    /// Search by components asked for (see [`Strategy::components`]).
    components_on: bool,
    /// Its state, made when first needed.
    parts: Option<Box<by_components::Parts>>,
    /// Restart nogoods asked for (see [`Strategy::restart_nogoods`]).
    refuted_wanted: bool,
    /// Whether this search has handed nogoods to the engine's store
    /// (`refuted.rs`), which then drops them when the search ends.
    refuted_on: bool,
    /// The literals of the nogoods handed over so far.
    refuted_lits: usize,
    /// The most it hands over; past it, restart budgets double
    /// (`refuted::MAX_LITS`; smaller in tests).
    refuted_cap: usize,
    /// Told each restart's nogoods as they are handed over (a part log
    /// keeping a long sub-problem's progress, `refuted.rs`).
    refuted_sink: Option<RefutedSink<'e>>,
}

/// What is told a restart's nogoods ([`Search::tell_refuted`]).
pub(crate) type RefutedSink<'a> = Box<dyn FnMut(&[Vec<DecLit>]) + 'a>;

impl<'e> Search<'e> {
    /// `primary` are the variables that tell solutions apart; the strategy's
    /// scope, if any, comes first in branching order.
    pub(crate) fn new(
        engine: &'e mut Engine,
        strategy: Strategy,
        primary: &[VarId],
        crossings: Arc<Crossings>,
        limits: Limits,
    ) -> Self {
        let n = engine.doms.num_vars();
        let order = Order::new(&strategy.scope, primary, n);
        let secondary = order.others(n);
        let mut counted = vec![false; n];
        order.vars().iter().for_each(|&v| counted[v] = true);
        let phases: Vec<PhaseState> = strategy
            .phases
            .into_iter()
            .map(|p| {
                // Only counted variables are branched on; the others follow.
                let vars: Vec<VarId> = p
                    .vars
                    .into_iter()
                    .filter(|&v| v < n && counted[v])
                    .collect();
                PhaseState {
                    order: Order::new(&[], &vars, n),
                    var: p.var,
                    val: p.val,
                }
            })
            .filter(|p| !p.order.vars().is_empty())
            .collect();
        // Restarts only help a search that can differ from one run to the next.
        let varies = strategy.var.varies()
            || strategy.val.varies()
            || phases.iter().any(|p| p.var.varies() || p.val.varies());
        let restarts = if varies {
            strategy.restarts
        } else {
            Restarts::None
        };
        let mut val_select = strategy.val;
        val_select.attach(&crossings);
        let mut phases = phases;
        phases.iter_mut().for_each(|p| p.val.attach(&crossings));
        Search {
            engine,
            var_select: strategy.var,
            val_select,
            order,
            phases,
            picked_phase: None,
            secondary,
            decided: vec![false; n],
            stack: Vec::new(),
            completing: None,
            rng: Rng::seed_from_u64(strategy.seed),
            budget: Budget::new(limits),
            restarter: Restarter::new(restarts),
            scan: 0,
            objective: None,
            replayed: 0,
            propagated: false,
            count_only: false,
            product_count: false,
            components: None,
            crossings,
            trace: None,
            tree: None,
            lns: None,
            learning: strategy.learning,
            jump: None,
            exchange: None,
            components_on: strategy.components,
            refuted_wanted: strategy.restart_nogoods,
            parts: None,
            refuted_on: false,
            refuted_lits: 0,
            refuted_cap: refuted::MAX_LITS,
            refuted_sink: None,
        }
    }

    /// Large-neighbourhood search once a first solution is found (with
    /// [`Self::minimize`] only; see `lns.rs`).
    pub(crate) fn lns(&mut self, lns: Option<Lns>) {
        self.lns = lns.map(LnsDriver::new);
    }

    /// Neighbourhoods searched by LNS.
    pub(crate) fn lns_iterations(&self) -> u64 {
        self.lns.as_ref().map_or(0, LnsDriver::iterations)
    }

    /// Turns the search into branch and bound minimising `var`: after each
    /// solution, every later one must have a strictly smaller value. The bound
    /// is imposed again at every node, so it holds in all open branches
    /// without restarting.
    pub(crate) fn minimize(&mut self, var: VarId) {
        self.objective = Some(Objective::new(var));
    }

    /// Shares the objective's bound with other searches (after
    /// [`Self::minimize`]; see [`Objective::share_bound`]).
    pub(crate) fn share_bound(&mut self, bound: Arc<AtomicI64>) {
        if let Some(o) = &mut self.objective {
            o.share_bound(bound);
        }
    }

    /// Shares the best solution too (a portfolio, after [`Self::minimize`]):
    /// each LNS iteration starts from the best one published, so that every
    /// search improves on the best known rather than on its own.
    pub(crate) fn share_best(&mut self, best: Arc<Mutex<Vec<i64>>>) {
        if let Some(o) = &mut self.objective {
            o.share_best(best);
        }
    }

    /// Trades short nogoods with the other searches of a portfolio, each of
    /// the whole problem, as search `me` (with learning; see
    /// `learn/exchange.rs`): published as learned, read at each restart.
    pub(crate) fn share_nogoods(&mut self, exchange: Arc<Exchange>, me: usize) {
        self.exchange = Some((exchange, Port::new(me)));
    }

    /// Publishes the nogoods kept for the exchange and adds the others'
    /// (at the root, before its propagation).
    fn trade_nogoods(&mut self) {
        if let Some((exchange, port)) = &mut self.exchange {
            for clause in port.trade(exchange) {
                self.engine.import_nogood(clause);
            }
        }
    }

    /// Starts below the node that `path` leads to from the current one, a
    /// sub-problem of a split (`split.rs`), whose root is propagated: the
    /// decisions are applied and propagated, and the search never goes back
    /// above them. False when the node fails, counted as a failure: the
    /// split took its last decision without propagating it.
    pub(crate) fn replay(&mut self, path: &[Decision]) -> bool {
        self.propagated = true;
        for &Decision { var, branch, right } in path {
            let checkpoint = self.engine.doms.checkpoint();
            let dec = Decision { var, branch, right };
            let ok = apply(&mut self.engine.doms, dec).is_ok()
                && self.engine.propagate_decision(var).is_ok();
            let decided = !self.decided[var] && self.engine.doms.is_fixed(var);
            if decided {
                self.decided[var] = true;
            }
            self.stack.push(Frame {
                checkpoint,
                var,
                branch,
                right: true,
                decided,
                scan: 0,
                floor: false,
            });
            self.replayed = self.stack.len();
            if !ok {
                self.engine.stats.failures += 1;
                self.engine.failed = None;
                return false;
            }
        }
        true
    }

    /// Records the first `n` decisions (see [`Self::decisions`]).
    pub(crate) fn trace(&mut self, n: usize) {
        self.trace = Some((n, Vec::new()));
    }

    /// Records the search tree, `cap` events at most ([`TreeLog`]).
    pub(crate) fn record_tree(&mut self, cap: usize) {
        self.tree = Some(TreeLog::new(cap));
    }

    /// The tree recorded by [`Self::record_tree`].
    pub(crate) fn take_tree(&mut self) -> Option<TreeLog> {
        self.tree.take()
    }

    /// The values left in the domains of the searched variables (for the
    /// tree's pruning counts; only computed while recording it).
    fn open_values(&self) -> u64 {
        self.order
            .vars()
            .iter()
            .map(|&v| self.engine.doms.size(v))
            .sum()
    }

    /// Records a branch just applied (`applied`: the values left after the
    /// branch itself, before propagation); `ok`: propagation succeeded.
    fn tree_branch(&mut self, var: VarId, branch: Branch, right: bool, applied: u64, ok: bool) {
        if self.tree.is_none() {
            return;
        }
        let pruned = if ok {
            applied.saturating_sub(self.open_values())
        } else {
            0
        };
        let depth = self.stack.len();
        if let Some(t) = &mut self.tree {
            t.push(TreeEvent::Branch {
                var,
                branch,
                right,
                depth,
                pruned,
                failed: !ok,
            });
        }
    }

    fn tree_event(&mut self, e: TreeEvent) {
        if let Some(t) = &mut self.tree {
            t.push(e);
        }
    }

    /// The decisions recorded by [`Self::trace`].
    pub(crate) fn decisions(&self) -> &[Decision] {
        self.trace.as_ref().map_or(&[], |t| &t.1)
    }

    /// Imposes the objective's bound (part of every node's propagation);
    /// for learning, a fact that holds for the rest of the search.
    #[inline]
    fn enforce_bound(&mut self) -> bool {
        let doms = &mut self.engine.doms;
        let Some(o) = self.objective.as_ref() else {
            return true;
        };
        doms.set_cause(Cause::Bound);
        let ok = o.enforce(doms);
        doms.set_cause(Cause::Decision);
        ok
    }

    /// Only count solutions: `on_solution` is never called. With `product`,
    /// solutions are counted by components where sound: under `ac`, when
    /// every variable is counted (no projection, no auxiliary variables) and
    /// no solution limit applies (see `components.rs`).
    pub(crate) fn count_only(&mut self, product: bool) {
        self.count_only = true;
        self.product_count = product;
    }

    /// What to do next: branch on a variable, report a solution (everything
    /// assigned), or fail (the completion's propagation failed).
    fn step(&mut self) -> Step {
        let ac = self.engine.level == Propagation::Ac;
        let from = self.stack.last().map_or(0, |f| f.scan);
        let open = if ac {
            Open::Unfixed
        } else {
            Open::Undecided(&self.decided)
        };
        self.picked_phase = None;
        for (i, phase) in self.phases.iter_mut().enumerate() {
            if let Some(pick) = phase
                .var
                .pick(self.engine, open, &phase.order, 0, &mut self.rng)
            {
                // The main order's scan resumes from the start below.
                self.scan = 0;
                self.picked_phase = Some(i);
                return Step::Decide(pick.var);
            }
        }
        let picked = self
            .var_select
            .pick(self.engine, open, &self.order, from, &mut self.rng);
        if let Some(pick) = picked {
            self.scan = pick.resume;
            return Step::Decide(pick.var);
        }
        self.scan = self.order.vars().len();
        if self.completing.is_none() && !self.secondary.is_empty() {
            self.completing = Some(self.stack.len());
            // The auxiliary variables follow from the primary ones: under
            // `fc` and `none` nothing has checked the constraints on them yet.
            if !ac && self.engine.settle(&self.secondary).is_err() {
                return Step::Fail;
            }
        }
        // Whatever is left open only needs some value: smallest domain first.
        let doms = &self.engine.doms;
        match self
            .secondary
            .iter()
            .copied()
            .filter(|&v| !doms.is_fixed(v))
            .min_by_key(|&v| doms.size(v))
        {
            Some(v) => Step::Decide(v),
            // Under `fc` and `none`, a secondary variable fixed by pruning
            // (not by a decision) had its constraints with other secondary
            // variables checked by no one: check them all now.
            None if !ac && !self.secondary.is_empty() => {
                match self.engine.settle(&self.secondary) {
                    Ok(()) => Step::Solution,
                    Err(_) => Step::Reject,
                }
            }
            None => Step::Solution,
        }
    }

    fn record(&mut self, var: VarId, branch: Branch, right: bool) {
        if let Some((n, log)) = &mut self.trace
            && log.len() < *n
        {
            log.push(Decision { var, branch, right });
        }
    }

    /// Runs the search, calling `on_solution` with every variable's value.
    pub(crate) fn run(&mut self, mut on_solution: impl FnMut(&[i64]) -> Next) -> Outcome {
        let by_product = self.count_only
            && self.product_count
            && counts_by_components(
                self.engine.level,
                self.secondary.is_empty(),
                self.objective.is_some(),
                self.budget.limits.solutions.is_some(),
            );
        // Learning starts afresh at the node the search starts from (the
        // root, or a replayed sub-problem): its nogoods hold below it.
        if self.learning && !by_product && self.engine.level == Propagation::Ac {
            self.engine.stop_learning();
            self.engine.start_learning();
        }
        if !self.propagated {
            let mut go_on = self.budget.go_on();
            match self.engine.propagate_root_until(&mut go_on) {
                None => return Outcome::Interrupted,
                Some(Err(_)) => {
                    self.failed();
                    return Outcome::Exhausted;
                }
                Some(Ok(())) => {}
            }
        }
        if self.by_components() {
            return self.run_by_components(on_solution);
        }
        let mut values = vec![0i64; self.engine.doms.num_vars()];
        if by_product {
            return self.count_by_components();
        }
        loop {
            if self.out_of_budget() {
                return Outcome::Interrupted;
            }
            if let Some(lns) = self.lns.as_ref().filter(|l| l.under_way()) {
                if lns.spent(self.engine.stats.failures) && !self.next_iteration(End::Limit) {
                    return Outcome::Exhausted;
                }
            } else if (self.objective.is_some() || self.engine.stats.solutions == 0)
                && self.restarter.due(self.engine.stats.failures)
                && !self.restart()
            {
                return Outcome::Exhausted;
            }
            match self.step() {
                Step::Decide(var) => {
                    let val = match self.picked_phase {
                        Some(i) => self.phases[i].val.as_mut(),
                        None => self.val_select.as_mut(),
                    };
                    let branch = decide(val, self.engine, var, &mut self.rng);
                    let checkpoint = self.engine.doms.checkpoint();
                    self.record(var, branch, false);
                    self.engine.stats.nodes += 1;
                    let dec = Decision {
                        var,
                        branch,
                        right: false,
                    };
                    let ok = apply(&mut self.engine.doms, dec).is_ok();
                    let applied = if self.tree.is_some() {
                        self.open_values()
                    } else {
                        0
                    };
                    let decided = !self.decided[var] && self.engine.doms.is_fixed(var);
                    if decided {
                        self.decided[var] = true;
                    }
                    self.stack.push(Frame {
                        checkpoint,
                        var,
                        branch,
                        right: false,
                        decided,
                        scan: self.scan,
                        floor: false,
                    });
                    self.engine.stats.max_depth =
                        self.engine.stats.max_depth.max(self.stack.len() as u64);
                    let ok =
                        ok && self.enforce_bound() && self.engine.propagate_decision(var).is_ok();
                    self.tree_branch(var, branch, false, applied, ok);
                    if !ok {
                        self.failed();
                        if !self.backtrack() {
                            return Outcome::Exhausted;
                        }
                    }
                }
                Step::Fail => {
                    self.tree_event(TreeEvent::Fail);
                    self.failed();
                    if !self.leave_completion() {
                        return Outcome::Exhausted;
                    }
                }
                Step::Reject => {
                    self.tree_event(TreeEvent::Fail);
                    self.failed();
                    if !self.backtrack() {
                        return Outcome::Exhausted;
                    }
                }
                Step::Solution => {
                    self.tree_event(TreeEvent::Solution);
                    self.engine.stats.solutions += 1;
                    // Values are copied only when someone reads them.
                    if !self.count_only || self.objective.is_some() {
                        for (v, slot) in values.iter_mut().enumerate() {
                            *slot = self.engine.doms.min(v);
                        }
                        if let Some(o) = &mut self.objective {
                            o.found(&values);
                            self.val_select.on_solution(&values);
                            for p in &mut self.phases {
                                p.val.on_solution(&values);
                            }
                        }
                        if !self.count_only && on_solution(&values) == Next::Stop {
                            return Outcome::Interrupted;
                        }
                    }
                    if self
                        .budget
                        .limits
                        .solutions
                        .is_some_and(|n| self.engine.stats.solutions >= n)
                    {
                        return Outcome::SolutionLimit;
                    }
                    // The first solution starts LNS; later ones tighten the
                    // bound and the iteration goes on (branch and bound in
                    // the neighbourhood).
                    let next = match &mut self.lns {
                        Some(lns) if !lns.under_way() => self.next_iteration(End::Improved),
                        Some(lns) => {
                            lns.improved();
                            self.leave_completion()
                        }
                        None => self.leave_completion(),
                    };
                    if !next {
                        return Outcome::Exhausted;
                    }
                }
            }
        }
    }

    /// Leaves the completion of the current primary assignment (it has been
    /// counted, or its definitions failed) and backtracks.
    fn leave_completion(&mut self) -> bool {
        if let Some(depth) = self.completing.take() {
            while self.stack.len() > depth {
                self.pop_frame();
            }
        }
        self.backtrack()
    }

    /// Counts a failure and tells the heuristics which propagator failed;
    /// with learning, analyses it.
    fn failed(&mut self) {
        self.engine.stats.failures += 1;
        if let Some(p) = self.engine.take_failed() {
            self.var_select.on_failure(self.engine, p);
            for phase in &mut self.phases {
                phase.var.on_failure(self.engine, p);
            }
        }
        self.jump = None;
        if self.engine.learning() {
            let learned = self.engine.analyse();
            if let (Some(l), Some((_, port))) = (&learned, &mut self.exchange) {
                port.offer(&l.clause, l.lbd);
            }
            if learned.is_some() {
                let vars = self.engine.conflict_vars();
                self.var_select.on_conflict(vars);
                for phase in &mut self.phases {
                    phase.var.on_conflict(vars);
                }
            }
            if self.may_backjump() {
                self.jump = learned.map(|l| l.assert_level as usize);
            }
        }
    }

    /// Whether a failure may jump back over several levels, skipping the
    /// right branches of the decisions between: not when enumerating
    /// solutions, where a right branch says its left one was explored (a
    /// jump over it would find those solutions again), only when one
    /// solution is wanted or a better one (branch and bound excludes the
    /// solutions found).
    fn may_backjump(&self) -> bool {
        self.objective.is_some() || self.budget.limits.solutions == Some(1)
    }

    /// Jumps back to `level` after a failure whose nogood asserts there, and
    /// propagates (the nogood asserts its literal). `None` when a jump
    /// cannot be made (a replayed or neighbourhood frame in the way);
    /// `Some(false)` when the propagation failed again.
    fn backjump(&mut self, level: usize) -> Option<bool> {
        // The frames that opened a level above `level`, down to (not
        // past) a replayed or neighbourhood frame: the fixings of a
        // neighbourhood each open a level of their own without a frame, so
        // levels are read from the checkpoints, not from the stack's depth.
        let depth = self.stack.len();
        let mut keep = depth;
        while keep > self.replayed {
            let f = &self.stack[keep - 1];
            if f.floor || (f.checkpoint.level as usize) < level {
                break;
            }
            keep -= 1;
        }
        if keep == depth {
            return None;
        }
        while self.stack.len() > keep {
            self.pop_frame();
        }
        if depth - keep > 1 {
            self.engine.stats.backjumps += 1;
        }
        self.engine.stats.backtracks += 1;
        let ok = self.enforce_bound() && self.engine.fixpoint().is_ok();
        if !ok {
            self.failed();
        }
        Some(ok)
    }

    /// Back to the root, to search again with what the heuristics learned
    /// and the nogoods of the path left (`refuted.rs`). False when those
    /// fail the root: nothing is left to search.
    fn restart(&mut self) -> bool {
        if self.refuted_full() {
            self.restarter.double_from_now();
        }
        let refuted = self.take_refuted();
        while self.pop_frame().is_some() {}
        self.completing = None;
        self.engine.stats.restarts += 1;
        self.restarter.restarted(self.engine.stats.failures);
        self.keep_refuted(refuted)
    }

    /// Ends the current LNS iteration and starts the next from the root: a
    /// neighbourhood of the best solution, or a slice of complete search.
    /// False when the bound alone fails at the root: nothing better exists.
    fn next_iteration(&mut self, end: End) -> bool {
        let (Some(lns), Some(objective)) = (self.lns.as_mut(), self.objective.as_mut()) else {
            return false;
        };
        let plan = lns.next(end, self.engine.stats.failures);
        if objective.adopt_best() {
            self.val_select.on_solution(objective.best());
            for p in &mut self.phases {
                p.val.on_solution(objective.best());
            }
        }
        // LNS records no nogoods at its restarts (`refuted.rs`).
        self.restart();
        self.trade_nogoods();
        let checkpoint = self.engine.doms.checkpoint();
        if !self.enforce_bound() || self.engine.fixpoint().is_err() {
            self.failed();
            return false;
        }
        if let (Plan::Neighbourhood(_), Some(lns), Some(objective)) =
            (plan, self.lns.as_mut(), self.objective.as_ref())
        {
            let (scope, best) = (self.order.scope(), objective.best());
            lns.lns().fix(self.engine, scope, best, &mut self.rng);
            self.stack.push(Frame {
                checkpoint,
                var: 0,
                branch: Branch::Assign(0),
                right: true,
                decided: false,
                scan: 0,
                floor: true,
            });
        }
        true
    }

    fn pop_frame(&mut self) -> Option<Frame> {
        if self.stack.len() <= self.replayed {
            return None;
        }
        let f = self.stack.pop()?;
        self.engine.doms.restore(f.checkpoint);
        if f.decided {
            self.decided[f.var] = false;
        }
        if self.completing.is_some_and(|d| self.stack.len() < d) {
            self.completing = None;
        }
        Some(f)
    }

    /// Undoes decisions until a right branch can be taken and propagates;
    /// false when the whole tree is explored.
    fn backtrack(&mut self) -> bool {
        loop {
            if let Some(level) = self.jump.take() {
                match self.backjump(level) {
                    Some(true) => return true,
                    Some(false) => continue,
                    None => {}
                }
            }
            let Some(f) = self.pop_frame() else {
                return false;
            };
            if f.floor {
                return self.next_iteration(End::Exhausted);
            }
            if f.right {
                continue;
            }
            self.engine.stats.backtracks += 1;
            self.engine.stats.nodes += 1;
            let (var, branch) = (f.var, f.branch);
            self.record(var, branch, true);
            // A checkpoint of its own (the same trail position), so that the
            // right branch is a decision level of its own for learning.
            let checkpoint = self.engine.doms.checkpoint();
            self.stack.push(Frame {
                checkpoint,
                var,
                branch,
                right: true,
                decided: false,
                scan: f.scan,
                floor: false,
            });
            let applied_ok = apply(
                &mut self.engine.doms,
                Decision {
                    var,
                    branch,
                    right: true,
                },
            )
            .is_ok();
            let applied = if self.tree.is_some() {
                self.open_values()
            } else {
                0
            };
            let ok =
                applied_ok && self.enforce_bound() && self.engine.propagate_decision(var).is_ok();
            self.tree_branch(var, branch, true, applied, ok);
            if ok {
                return true;
            }
            self.failed();
        }
    }

    fn out_of_budget(&mut self) -> bool {
        self.budget.exceeded(&self.engine.stats)
    }

    /// Counts every solution below the current node by components.
    fn count_by_components(&mut self) -> Outcome {
        let mut counter = self
            .components
            .take()
            .unwrap_or_else(|| Box::new(Components::new(self.engine)));
        let ctx = Ctx {
            engine: self.engine,
            var_select: &mut self.var_select,
            rng: &mut self.rng,
            crossings: &self.crossings,
            order: &self.order,
            budget: &mut self.budget,
            depth: self.stack.len() as u64,
        };
        let counted = counter.count(ctx, self.order.vars());
        self.components = Some(counter);
        let (n, outcome) = match counted {
            Counted::Exact(n) => (n, Outcome::Exhausted),
            Counted::Stopped(n) => (n, Outcome::Interrupted),
        };
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        self.engine.stats.solutions = self.engine.stats.solutions.saturating_add(n);
        outcome
    }

    /// Hands over a component counter (with its cache) for this search to use.
    pub(crate) fn set_components(&mut self, counter: Box<Components>) {
        self.components = Some(counter);
    }

    /// The component counter, if one was made, to use again.
    pub(crate) fn take_components(&mut self) -> Option<Box<Components>> {
        self.components.take()
    }
}

impl Drop for Search<'_> {
    /// The nogoods hold below the node the search started from: they go
    /// with it, so that a later search on the same engine starts clean.
    fn drop(&mut self) {
        self.retire_refuted();
        if self.learning {
            self.engine.stop_learning();
        }
    }
}
