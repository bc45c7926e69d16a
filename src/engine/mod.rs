//! The solving engine, in the style of Choco-solver: trailed domains,
//! propagators woken by domain events and run to a fixpoint from a queue
//! ordered by priority, and a depth-first brancher.
//!
//! Lowering from the model happens in `post.rs`; search in `search.rs`.

pub mod count;
pub mod domains;
pub mod lower;
pub mod post;
pub mod propagator;
pub mod props;
pub mod queue;
pub mod restart;
pub mod search;
pub mod select;
pub mod stats;
pub mod trail;

use domains::{Domains, Fail, PResult};
use propagator::Propagator;
use queue::Queue;
use stats::Stats;

use crate::model::{Propagation, VarId};

/// Index of a propagator in [`Engine::props`].
pub type PropId = usize;

pub struct Engine {
    pub doms: Domains,
    pub props: Vec<Box<dyn Propagator>>,
    /// For each variable, the propagators watching it and the events they want.
    pub watchers: Vec<Vec<(PropId, u8)>>,
    /// For each variable, the propagators to notify of its changes: the
    /// propagator, the variable's position in its `vars()`, the events.
    notified: Vec<Vec<(PropId, u32, u8)>>,
    /// Whether any propagator asked for notifications (most models: none).
    any_notified: bool,
    queue: Queue,
    pub level: Propagation,
    pub stats: Stats,
    /// Weighted degree of each propagator (dom/wdeg): bumped when it fails.
    pub prop_weight: Vec<u64>,
    /// The propagator that failed last, if any.
    pub last_failed: Option<PropId>,
    /// For each word variable whose dictionary has scores, its word list
    /// (value `i` scores `scores[i]`), for value selection by score.
    pub word_scores: Vec<Option<std::sync::Arc<crate::model::WordList>>>,
}

impl Engine {
    pub fn new(level: Propagation) -> Self {
        Engine {
            doms: Domains::default(),
            props: Vec::new(),
            watchers: Vec::new(),
            notified: Vec::new(),
            any_notified: false,
            queue: Queue::default(),
            level,
            stats: Stats::default(),
            prop_weight: Vec::new(),
            last_failed: None,
            word_scores: Vec::new(),
        }
    }

    pub fn add_var(&mut self, values: &[i64]) -> VarId {
        self.watchers.push(Vec::new());
        self.notified.push(Vec::new());
        self.doms.add_var(values)
    }

    pub fn add_prop(&mut self, p: Box<dyn Propagator>) -> PropId {
        let id = self.props.len();
        let mask = p.wake_on();
        let notify = p.notify_on();
        for (position, &v) in p.vars().iter().enumerate() {
            if notify != 0 {
                self.any_notified = true;
                self.notified[v].push((id, position as u32, notify));
            }
            // Watch each variable once; `id` is the newest, so a repeat is last.
            if self.watchers[v].last().is_none_or(|&(q, _)| q != id) {
                self.watchers[v].push((id, mask));
            }
        }
        self.queue.grow(id + 1);
        self.prop_weight.push(1);
        self.props.push(p);
        id
    }

    fn run(&mut self, p: PropId) -> PResult {
        self.stats.propagations += 1;
        let r = self.props[p].propagate(&mut self.doms);
        if r.is_err() {
            self.prop_weight[p] += 1;
            self.last_failed = Some(p);
        }
        r
    }

    /// The first propagation at the root. Under `ac` every propagator runs to a
    /// fixpoint; under `fc` and `none` only constraints whose variables are
    /// all fixed already are checked.
    pub fn propagate_root(&mut self) -> PResult {
        self.flush();
        if self.level == Propagation::Ac {
            for p in 0..self.props.len() {
                self.queue.push(p, self.props[p].priority());
            }
            return self.fixpoint();
        }
        for p in 0..self.props.len() {
            if self.props[p].all_fixed(&self.doms) {
                self.run(p)?;
                self.flush();
            }
        }
        Ok(())
    }

    /// Propagation after a decision on `var`, at the engine's level.
    pub fn propagate_decision(&mut self, var: VarId) -> PResult {
        match self.level {
            Propagation::Ac => self.fixpoint(),
            Propagation::Fc => {
                self.flush();
                if self.doms.is_fixed(var) {
                    for i in 0..self.watchers[var].len() {
                        let p = self.watchers[var][i].0;
                        self.run(p)?;
                        self.flush();
                    }
                }
                Ok(())
            }
            Propagation::None => {
                self.flush();
                if self.doms.is_fixed(var) {
                    for i in 0..self.watchers[var].len() {
                        let p = self.watchers[var][i].0;
                        if self.props[p].all_fixed(&self.doms) {
                            self.run(p)?;
                            self.flush();
                        } else if self.props[p].violated(&self.doms) {
                            self.stats.propagations += 1;
                            self.prop_weight[p] += 1;
                            return Err(Fail);
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Runs queued propagators, waking watchers of changed variables, until
    /// nothing changes or something fails.
    pub fn fixpoint(&mut self) -> PResult {
        loop {
            self.schedule(None);
            let Some(p) = self.queue.pop() else {
                return Ok(());
            };
            if let Err(Fail) = self.run(p) {
                self.queue.clear();
                self.doms.clear_changes();
                return Err(Fail);
            }
            self.schedule(Some(p));
        }
    }

    /// Runs one propagator alone, outside the fixpoint (for look-ahead such
    /// as LCV); the caller restores the domains afterwards.
    pub fn propagate_alone(&mut self, p: PropId) -> PResult {
        self.flush();
        self.props[p].propagate(&mut self.doms)
    }

    /// Tells the propagators that asked of the changes since the last look,
    /// without queueing anyone. Every path that goes on searching from the
    /// current domains passes through here or `schedule`: a missed
    /// notification would leave incremental state wrong.
    fn flush(&mut self) {
        while let Some(v) = self.doms.changed.pop() {
            let ev = std::mem::take(&mut self.doms.pending[v]);
            self.notify(v, ev);
        }
    }

    #[inline]
    fn notify(&mut self, v: VarId, ev: u8) {
        if !self.any_notified {
            return;
        }
        for &(p, position, mask) in &self.notified[v] {
            if mask & ev != 0 {
                self.props[p].notify(position as usize, &mut self.doms);
            }
        }
    }

    /// Notifies of every change and queues the watchers of each changed
    /// variable (but not `current`, the propagator that made the change: ours
    /// run to their own fixpoint).
    fn schedule(&mut self, current: Option<PropId>) {
        while let Some(v) = self.doms.changed.pop() {
            let ev = std::mem::take(&mut self.doms.pending[v]);
            self.notify(v, ev);
            for &(p, mask) in &self.watchers[v] {
                if mask & ev != 0 && Some(p) != current {
                    self.queue.push(p, self.props[p].priority());
                }
            }
        }
    }
}
