//! Depth-first search with binary branching: at each node the brancher picks a
//! variable `x` and a value `v`, and tries `x = v` (left), then `x != v` (right).
//! The decision stack is explicit; each frame remembers the trail checkpoint to
//! return to.
//!
//! Solutions are counted over the *primary* variables (the projection, or the
//! declared variables). Once they are all assigned, the search looks for one
//! completion of the rest (variables cspi introduced) and, having found it,
//! backs out to where the completion began: a solution is never counted twice.
//!
//! Under `none` and `fc` a variable counts as assigned only once it has been
//! decided, even if pruning left it one value, so that every constraint is
//! checked (or forward-checked) from each of its variables, as in the textbook
//! algorithms. Under `ac` a fixed variable is assigned: the fixpoint has
//! checked every constraint on it.
//!
//! In count-only mode no values are copied per solution, and under `ac` the
//! completions of a node are counted without branching where that is sound
//! (`count.rs`, documented in docs/crossword.md).

use super::Engine;
use super::count::Counter;
use super::restart::Restarter;
use super::select;
use super::stats::Stats;
use super::trail::Checkpoint;
use crate::model::{Propagation, SearchSpec, VarId};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When to stop early, and whom to tell how it goes.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub solutions: Option<u64>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Called about twice a second with the statistics so far.
    pub progress: Option<fn(&Stats, Duration)>,
    /// Set from outside (a signal handler) to stop the search as a limit does.
    pub stop: Option<Arc<AtomicBool>>,
}

/// How often the progress callback runs.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
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

struct Frame {
    checkpoint: Checkpoint,
    var: VarId,
    value: i64,
    /// False while exploring `var = value`, true while exploring `var != value`.
    right: bool,
    /// Every primary variable before this position is assigned below this
    /// frame: input order resumes its scan here instead of at the start.
    scan: usize,
}

pub struct Search<'e> {
    pub engine: &'e mut Engine,
    spec: SearchSpec,
    /// Counted variables, in branching order.
    primary: Vec<VarId>,
    /// The others: found once per primary assignment.
    secondary: Vec<VarId>,
    decided: Vec<bool>,
    stack: Vec<Frame>,
    /// Stack depth at which the completion of a primary assignment began.
    completing: Option<usize>,
    rng: Xoshiro256PlusPlus,
    val_scratch: select::val::Scratch,
    limits: Limits,
    start: Instant,
    /// Loop iterations, to read the clock only now and then.
    ticks: u64,
    last_progress: Duration,
    restarter: Restarter,
    /// Where the last variable selection found its variable (see [`Frame::scan`]).
    scan: usize,
    /// Branch and bound: the variable to minimise, and the largest value it
    /// may still take (one below the best solution so far).
    objective: Option<VarId>,
    bound: Option<i64>,
    /// Nothing is printed: solutions are only counted, values not copied.
    count_only: bool,
    /// Count completions without branching where sound (see `count.rs`).
    product_count: bool,
    counter: Counter,
}

impl<'e> Search<'e> {
    /// `primary` are the variables that tell solutions apart; the search
    /// block's scope, if any, comes first in branching order.
    pub fn new(
        engine: &'e mut Engine,
        spec: SearchSpec,
        primary: &[VarId],
        limits: Limits,
    ) -> Self {
        let n = engine.doms.num_vars();
        let mut order: Vec<VarId> = spec
            .scope
            .iter()
            .copied()
            .filter(|v| primary.contains(v))
            .collect();
        let mut in_order = vec![false; n];
        order.iter().for_each(|&v| in_order[v] = true);
        for &v in primary {
            if !in_order[v] {
                in_order[v] = true;
                order.push(v);
            }
        }
        let secondary = (0..n).filter(|&v| !in_order[v]).collect();
        let rng = Xoshiro256PlusPlus::seed_from_u64(spec.seed);
        let spec_restarts = spec.restarts;
        Search {
            engine,
            spec,
            primary: order,
            secondary,
            decided: vec![false; n],
            stack: Vec::new(),
            completing: None,
            rng,
            val_scratch: select::val::Scratch::default(),
            limits,
            start: Instant::now(),
            ticks: 0,
            last_progress: Duration::ZERO,
            restarter: Restarter::new(spec_restarts),
            scan: 0,
            objective: None,
            bound: None,
            count_only: false,
            product_count: false,
            counter: Counter::default(),
        }
    }

    /// Turns the search into branch and bound minimising `var`: after each
    /// solution, every later one must have a strictly smaller value. The bound
    /// is imposed again at every node, so it holds in all open branches
    /// without restarting.
    pub fn minimize(&mut self, var: VarId) {
        self.objective = Some(var);
    }

    /// Imposes the current bound on the objective (part of the node's propagation).
    fn enforce_bound(&mut self) -> bool {
        match (self.objective, self.bound) {
            (Some(o), Some(b)) => self.engine.doms.set_max(o, b).is_ok(),
            _ => true,
        }
    }

    /// Only count solutions: `on_solution` is never called. With `product`,
    /// the completions of a node are counted without branching where sound:
    /// under `ac`, when every variable is counted (no projection, no
    /// auxiliary variables) and no solution limit applies (see `count.rs`).
    pub fn count_only(&mut self, product: bool) {
        self.count_only = true;
        self.product_count = product;
    }

    fn open(&self, v: VarId) -> bool {
        match self.engine.level {
            Propagation::Ac => !self.engine.doms.is_fixed(v),
            _ => !self.decided[v],
        }
    }

    /// The next variable to branch on; sets `self.scan` for its frame.
    fn pick_var(&mut self) -> Option<VarId> {
        let (kind, ties) = (self.spec.var, self.spec.random_ties);
        let decided = &self.decided;
        let doms = &self.engine.doms;
        let ac = self.engine.level == Propagation::Ac;
        let open = |v: VarId| if ac { !doms.is_fixed(v) } else { !decided[v] };
        let start = self.stack.last().map_or(0, |f| f.scan);
        if kind == crate::model::VarSelect::Input && !ties {
            // Input order: resume where the parent's scan stopped (amortised O(1)).
            if let Some(i) = (start..self.primary.len()).find(|&i| open(self.primary[i])) {
                self.scan = i;
                return Some(self.primary[i]);
            }
        } else if let Some(v) =
            select::var::select(kind, self.engine, &self.primary, open, ties, &mut self.rng)
        {
            self.scan = 0;
            return Some(v);
        }
        self.scan = self.primary.len();
        if self.completing.is_none() && self.secondary.iter().any(|&v| self.open(v)) {
            self.completing = Some(self.stack.len());
        }
        // The rest only need some value: take them in order, smallest domain first.
        let doms = &self.engine.doms;
        let open = |v: VarId| if ac { !doms.is_fixed(v) } else { !decided[v] };
        select::var::select(
            crate::model::VarSelect::Mrv,
            self.engine,
            &self.secondary,
            open,
            false,
            &mut self.rng,
        )
    }

    /// Runs the search, calling `on_solution` with every variable's value.
    pub fn run(&mut self, mut on_solution: impl FnMut(&[i64]) -> Next) -> Outcome {
        if self.engine.propagate_root().is_err() {
            self.engine.stats.failures += 1;
            return Outcome::Exhausted;
        }
        let mut values = vec![0i64; self.engine.doms.num_vars()];
        let by_product = self.count_only
            && self.product_count
            && self.engine.level == Propagation::Ac
            && self.secondary.is_empty()
            && self.objective.is_none()
            && self.limits.solutions.is_none();
        loop {
            if self.out_of_budget() {
                return Outcome::Interrupted;
            }
            if self.engine.stats.solutions == 0 && self.restarter.due(self.engine.stats.failures) {
                self.restart();
            }
            if by_product && let Some(n) = self.counter.count(self.engine, &self.primary) {
                self.engine.stats.solutions = self.engine.stats.solutions.saturating_add(n);
                if !self.backtrack() {
                    return Outcome::Exhausted;
                }
                continue;
            }
            match self.pick_var() {
                Some(var) => {
                    let value = select::val::select(
                        self.spec.val,
                        self.engine,
                        var,
                        &mut self.rng,
                        &mut self.val_scratch,
                    );
                    let checkpoint = self.engine.doms.checkpoint();
                    self.stack.push(Frame {
                        checkpoint,
                        var,
                        value,
                        right: false,
                        scan: self.scan,
                    });
                    self.engine.stats.max_depth =
                        self.engine.stats.max_depth.max(self.stack.len() as u64);
                    self.decided[var] = true;
                    self.engine.stats.nodes += 1;
                    let ok = self.engine.doms.fix(var, value).is_ok()
                        && self.enforce_bound()
                        && self.engine.propagate_decision(var).is_ok();
                    if !ok {
                        self.engine.stats.failures += 1;
                        if !self.backtrack() {
                            return Outcome::Exhausted;
                        }
                    }
                }
                None => {
                    self.engine.stats.solutions += 1;
                    // Values are copied only when someone reads them.
                    if !self.count_only || self.objective.is_some() {
                        for (v, slot) in values.iter_mut().enumerate() {
                            *slot = self.engine.doms.min(v);
                        }
                        if let Some(o) = self.objective {
                            self.bound = Some(values[o].saturating_sub(1));
                        }
                        if !self.count_only && on_solution(&values) == Next::Stop {
                            return Outcome::Interrupted;
                        }
                    }
                    if self
                        .limits
                        .solutions
                        .is_some_and(|n| self.engine.stats.solutions >= n)
                    {
                        return Outcome::SolutionLimit;
                    }
                    // Leave the completion: the primary assignment is counted.
                    if let Some(depth) = self.completing.take() {
                        while self.stack.len() > depth {
                            self.pop_frame();
                        }
                    }
                    if !self.backtrack() {
                        return Outcome::Exhausted;
                    }
                }
            }
        }
    }

    /// Back to the root, to search again with what the weights learned.
    fn restart(&mut self) {
        while self.pop_frame().is_some() {}
        self.completing = None;
        self.engine.stats.restarts += 1;
        self.restarter.restarted(self.engine.stats.failures);
    }

    fn pop_frame(&mut self) -> Option<Frame> {
        let f = self.stack.pop()?;
        self.engine.doms.restore(f.checkpoint);
        if !f.right {
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
            let Some(f) = self.pop_frame() else {
                return false;
            };
            if f.right {
                continue;
            }
            self.engine.stats.backtracks += 1;
            self.engine.stats.nodes += 1;
            let (var, value) = (f.var, f.value);
            self.stack.push(Frame {
                checkpoint: f.checkpoint,
                var,
                value,
                right: true,
                scan: f.scan,
            });
            let ok = self.engine.doms.remove(var, value).is_ok()
                && self.enforce_bound()
                && self.engine.propagate_decision(var).is_ok();
            if ok {
                return true;
            }
            self.engine.stats.failures += 1;
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self
            .limits
            .nodes
            .is_some_and(|n| self.engine.stats.nodes >= n)
        {
            return true;
        }
        // Reading the clock is cheap next to a node, but not free: every 16 steps.
        self.ticks += 1;
        if !self.ticks.is_multiple_of(16) {
            return false;
        }
        let elapsed = self.start.elapsed();
        if let Some(report) = self.limits.progress
            && elapsed >= self.last_progress + PROGRESS_EVERY
        {
            self.last_progress = elapsed;
            report(&self.engine.stats, elapsed);
        }
        self.limits.time.is_some_and(|t| elapsed >= t)
            || self
                .limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
