//! The solving engine, in the style of Choco-solver: trailed domains,
//! propagators woken by domain events and run to a fixpoint from a queue
//! ordered by priority, and a depth-first brancher.
//!
//! The engine knows no concrete constraint: lowering (`src/lower/`) turns the
//! model into variables and propagators; search is in `search.rs`.

pub(crate) mod budget;
pub(crate) mod components;
pub(crate) mod count;
pub(crate) mod crossings;
pub(crate) mod domains;
#[cfg(test)]
pub(crate) mod harness;
pub(crate) mod learn;
pub(crate) mod propagator;
pub(crate) mod props;
pub(crate) mod queue;
pub(crate) mod restart;
pub(crate) mod search;
pub(crate) mod select;
pub(crate) mod split;
pub(crate) mod stats;
pub(crate) mod trail;
pub(crate) mod tree;

use domains::{Domains, Fail, PResult};
use learn::analysis::{Analyser, Learned};
use learn::nogoods::Nogoods;
use learn::{Cause, Conflict};
use propagator::{Priority, Propagator, Subscriptions};
use queue::Queue;
use stats::Stats;

use crate::model::{Propagation, VarId};

/// How many propagator runs pass between the questions of
/// [`Engine::propagate_root_until`] whether to go on.
const ASK_EVERY: u32 = 1024;

/// Index of a propagator in [`Engine::props`].
pub(crate) type PropId = usize;

pub(crate) struct Engine {
    pub(crate) doms: Domains,
    pub(crate) props: Vec<Box<dyn Propagator>>,
    /// Each propagator's priority, read once when posted (the queue asks
    /// for it at every wake-up).
    priority: Vec<Priority>,
    /// For each variable, the propagators watching it and the events they want.
    pub(crate) watchers: Vec<Vec<(PropId, u8)>>,
    /// For each variable, the propagators to notify of its changes: the
    /// propagator, the position it gave, the events.
    notified: Vec<Vec<(PropId, u32, u8)>>,
    /// Whether any propagator asked for notifications (most models: none).
    any_notified: bool,
    /// Per propagator: some variable occurs in it twice (see
    /// [`Engine::add_prop`]), so its own changes wake it again.
    repeats: Vec<bool>,
    queue: Queue,
    pub(crate) level: Propagation,
    pub(crate) stats: Stats,
    /// The propagator whose failure ended the last propagation, for the
    /// heuristics that learn from failures (dom/wdeg).
    pub(crate) failed: Option<PropId>,
    /// Learned nogoods and the analysis that makes them, when learning is
    /// on (`learn/`).
    pub(crate) nogoods: Option<Box<Nogoods>>,
    analyser: Analyser,
    /// The store of restart nogoods (`search/refuted.rs`), once a search
    /// posted it: its inbox, id and the variables it hears. The searches
    /// run one after another on this engine (a split's sub-problems) share
    /// it, each starting it empty.
    pub(crate) refuted_store: Option<RefutedStore>,
}

/// See [`Engine::refuted_store`].
pub(crate) struct RefutedStore {
    pub(crate) inbox: props::restart_nogoods::Inbox,
    pub(crate) prop: PropId,
    pub(crate) vars: Vec<VarId>,
}

/// The size of an engine under construction, to roll back to when a
/// constraint's lowering gives up half-way (see [`Engine::rollback`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    vars: usize,
    slots: usize,
    props: usize,
}

impl Engine {
    pub(crate) fn new(level: Propagation) -> Self {
        Engine {
            doms: Domains::default(),
            props: Vec::new(),
            priority: Vec::new(),
            watchers: Vec::new(),
            notified: Vec::new(),
            any_notified: false,
            repeats: Vec::new(),
            queue: Queue::default(),
            level,
            stats: Stats::default(),
            failed: None,
            nogoods: None,
            analyser: Analyser::default(),
            refuted_store: None,
        }
    }

    /// Turns learning on: from now on every domain change is recorded as a
    /// literal with its cause, failures are analysed ([`Self::analyse`]) and
    /// the nogoods learned are propagated.
    pub(crate) fn start_learning(&mut self) {
        if self.nogoods.is_none() {
            self.doms.start_learning();
            self.nogoods = Some(Box::new(Nogoods::new(self.doms.num_vars())));
        }
    }

    /// Turns learning off and forgets the nogoods.
    pub(crate) fn stop_learning(&mut self) {
        self.nogoods = None;
        self.doms.learn = None;
    }

    pub(crate) fn learning(&self) -> bool {
        self.nogoods.is_some()
    }

    /// Analyses the failure of the last propagation (learning only) and
    /// adds the nogood learned; returns it, or `None` when there is nothing
    /// to learn from (learning off, no conflict recorded, level 0, or a
    /// cause that cannot be explained).
    pub(crate) fn analyse(&mut self) -> Option<Learned> {
        let nogoods = self.nogoods.as_mut()?;
        let trail = self.doms.learn.as_mut()?;
        let conflict = trail.conflict.take()?;
        self.stats.conflicts += 1;
        let start = std::time::Instant::now();
        let learned = self.analyser.analyse(trail, &self.props, nogoods, conflict);
        self.stats.analysis_time += start.elapsed();
        let learned = learned?;
        if nogoods.full() {
            nogoods.reduce(trail);
        }
        self.stats.learned += 1;
        self.stats.learned_literals += learned.clause.len() as u64;
        nogoods.add(learned.clause.clone(), learned.lbd);
        Some(learned)
    }

    /// Adds a nogood learned by another search of the same model (a
    /// portfolio's, `learn/exchange.rs`), watched at the next propagation.
    pub(crate) fn import_nogood(&mut self, clause: Vec<learn::Lit>) {
        if let (Some(nogoods), Some(trail)) = (self.nogoods.as_mut(), self.doms.learn.as_ref()) {
            if nogoods.full() {
                nogoods.reduce(trail);
            }
            self.stats.imported += 1;
            let lbd = clause.len() as u32;
            nogoods.add(clause, lbd);
        }
    }

    /// The variables of the literals the last analysis that learned a
    /// nogood met (for activity-based variable selection).
    pub(crate) fn conflict_vars(&self) -> &[VarId] {
        self.analyser.vars()
    }

    /// Propagates the nogoods over the changes since they last looked.
    fn propagate_nogoods(&mut self) -> PResult {
        match self.nogoods.as_mut() {
            Some(n) => n.propagate(&mut self.doms),
            None => Ok(()),
        }
    }

    /// A variable with the given sorted, distinct, non-empty values.
    pub(crate) fn add_var(&mut self, values: &[i64]) -> VarId {
        let v = self.doms.add_var(values);
        self.grow_vars();
        v
    }

    /// A variable with every value of `lo..=hi` (bounds only when wide).
    pub(crate) fn add_range(&mut self, lo: i64, hi: i64) -> VarId {
        let v = self.doms.add_range(lo, hi);
        self.grow_vars();
        v
    }

    fn grow_vars(&mut self) {
        self.watchers.push(Vec::new());
        self.notified.push(Vec::new());
    }

    pub(crate) fn add_prop(&mut self, p: Box<dyn Propagator>) -> PropId {
        let id = self.props.len();
        let mut subs = Subscriptions::default();
        p.subscribe(&mut subs);
        for (v, events) in subs.wake {
            // One entry per variable: a repeat is the last one (`id` is the newest).
            match self.watchers[v].last_mut() {
                Some((q, mask)) if *q == id => *mask |= events,
                _ => self.watchers[v].push((id, events)),
            }
        }
        for (v, position, events) in subs.notify {
            self.any_notified = true;
            self.notified[v].push((id, position, events));
        }
        self.queue.grow(id + 1);
        self.priority.push(p.priority());
        self.repeats.push(has_repeats(p.vars()));
        self.props.push(p);
        id
    }

    /// Queues `p` to run at the next [`Self::fixpoint`]: a propagator with
    /// news of its own (the nogoods a restart hands over).
    pub(crate) fn wake(&mut self, p: PropId) {
        self.queue.push(p, self.priority[p]);
    }

    /// The current size, to [`Self::rollback`] to.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            vars: self.doms.num_vars(),
            slots: self.doms.trail.allocated(),
            props: self.props.len(),
        }
    }

    /// Removes every variable and propagator added since `mark`, before
    /// search: a constraint whose lowering failed half-way leaves nothing
    /// behind.
    pub(crate) fn rollback(&mut self, mark: Mark) {
        for p in self.props.drain(mark.props..) {
            for &v in p.vars() {
                if v < mark.vars {
                    self.watchers[v].retain(|&(q, _)| q < mark.props);
                    self.notified[v].retain(|&(q, _, _)| q < mark.props);
                }
            }
        }
        self.priority.truncate(mark.props);
        self.repeats.truncate(mark.props);
        self.watchers.truncate(mark.vars);
        self.notified.truncate(mark.vars);
        self.doms.truncate(mark.vars, mark.slots);
    }

    /// The propagator whose failure ended the last propagation, taken once
    /// per failure; its variables share the blame for it ([`Stats::blame`]).
    pub(crate) fn take_failed(&mut self) -> Option<PropId> {
        let p = self.failed.take()?;
        let vars = self.props[p].vars();
        if !vars.is_empty() {
            let blame = &mut self.stats.blame;
            if blame.len() < self.doms.num_vars() {
                blame.resize(self.doms.num_vars(), 0.0);
            }
            let share = 1.0 / vars.len() as f64;
            for &v in vars {
                blame[v] += share;
            }
        }
        Some(p)
    }

    fn run(&mut self, p: PropId) -> PResult {
        self.stats.propagations += 1;
        if self.doms.learn.is_some() {
            return self.run_learning(p);
        }
        let r = self.props[p].propagate(&mut self.doms);
        if r.is_err() {
            self.failed = Some(p);
        }
        r
    }

    /// [`Self::run`] with the propagator recorded as the cause of its
    /// changes, and as the conflict when it fails on its own.
    #[inline(never)]
    fn run_learning(&mut self, p: PropId) -> PResult {
        let cause = Cause::Prop(p as u32);
        if let Some(l) = &mut self.doms.learn {
            l.cause = cause;
            l.conflict = None;
        }
        let r = self.props[p].propagate(&mut self.doms);
        if let Some(l) = &mut self.doms.learn {
            l.cause = Cause::Decision;
            if r.is_err() && l.conflict.is_none() {
                l.conflict = Some(Conflict { cause, asked: None });
            }
        }
        if r.is_err() {
            self.failed = Some(p);
        }
        r
    }

    /// The first propagation at the root. Under `ac` every propagator runs to a
    /// fixpoint; under `fc` and `none` only constraints whose variables are
    /// all fixed already are checked, and the unary ones (a domain's holes,
    /// see `domain_holes`) run. Tests only: every run asks its limits
    /// ([`Self::propagate_root_until`]).
    #[cfg(test)]
    pub(crate) fn propagate_root(&mut self) -> PResult {
        self.propagate_root_until(&mut || true).unwrap_or(Ok(()))
    }

    /// [`Self::propagate_root`], asking `go_on` every [`ASK_EVERY`]
    /// propagator runs whether to go on: on a model of a million
    /// constraints this one fixpoint takes seconds, and the limits must hold
    /// there too. `None` when `go_on` said no; the engine is then left
    /// short of its fixpoint, fit only to be dropped.
    pub(crate) fn propagate_root_until(
        &mut self,
        go_on: &mut impl FnMut() -> bool,
    ) -> Option<PResult> {
        self.flush();
        if self.level == Propagation::Ac {
            for p in 0..self.props.len() {
                self.queue.push(p, self.priority[p]);
            }
            return self.fixpoint_until(go_on);
        }
        for p in 0..self.props.len() {
            if (p as u32 + 1).is_multiple_of(ASK_EVERY) && !go_on() {
                return None;
            }
            if self.priority[p] == Priority::Unary || self.props[p].all_fixed(&self.doms) {
                if let Err(Fail) = self.run(p) {
                    return Some(Err(Fail));
                }
                self.flush();
            }
        }
        Some(Ok(()))
    }

    /// Under `fc` and `none`, the unary propagators on `var` (`member`: the
    /// holes of a domain held by its bounds) run after every decision on it,
    /// fixed or not: they are part of the domain, as a bitset's holes are,
    /// and without them `x != min` walks one integer at a time through a
    /// hole as wide as 2^62.
    fn domain_holes(&mut self, var: VarId) -> PResult {
        if self.doms.is_fixed(var) {
            return Ok(());
        }
        for i in 0..self.watchers[var].len() {
            let p = self.watchers[var][i].0;
            if self.priority[p] == Priority::Unary {
                self.run(p)?;
                self.flush();
            }
        }
        Ok(())
    }

    /// Propagation after a decision on `var`, at the engine's level.
    pub(crate) fn propagate_decision(&mut self, var: VarId) -> PResult {
        match self.level {
            Propagation::Ac => self.fixpoint(),
            Propagation::Fc => {
                self.flush();
                self.domain_holes(var)?;
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
                self.domain_holes(var)?;
                if self.doms.is_fixed(var) {
                    for i in 0..self.watchers[var].len() {
                        let p = self.watchers[var][i].0;
                        if self.props[p].all_fixed(&self.doms) {
                            self.run(p)?;
                            self.flush();
                        } else if self.props[p].violated(&self.doms) {
                            self.stats.propagations += 1;
                            self.failed = Some(p);
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
    pub(crate) fn fixpoint(&mut self) -> PResult {
        self.fixpoint_until(&mut || true).unwrap_or(Ok(()))
    }

    /// [`Self::fixpoint`], asking `go_on` every [`ASK_EVERY`] propagator
    /// runs whether to go on (`None`: it said no). Inlined, so that the
    /// search's fixpoint, which never asks, pays nothing for the question.
    #[inline(always)]
    fn fixpoint_until(&mut self, go_on: &mut impl FnMut() -> bool) -> Option<PResult> {
        let mut runs: u32 = 0;
        loop {
            self.schedule(None);
            if self.nogoods.is_some() {
                if let Err(Fail) = self.propagate_nogoods() {
                    self.queue.clear();
                    self.doms.clear_changes();
                    return Some(Err(Fail));
                }
                if !self.doms.changed.is_empty() {
                    continue;
                }
            }
            let Some(p) = self.queue.pop() else {
                return Some(Ok(()));
            };
            runs = runs.wrapping_add(1);
            if runs.is_multiple_of(ASK_EVERY) && !go_on() {
                self.queue.clear();
                self.doms.clear_changes();
                return None;
            }
            if let Err(Fail) = self.run(p) {
                self.queue.clear();
                self.doms.clear_changes();
                return Some(Err(Fail));
            }
            self.schedule(Some(p));
        }
    }

    /// Propagates, whatever the level, every propagator on `vars` to a
    /// fixpoint: once the primary variables are assigned, this evaluates the
    /// definitions of the auxiliary ones and checks the constraints on them.
    pub(crate) fn settle(&mut self, vars: &[VarId]) -> PResult {
        self.flush();
        for &v in vars {
            for &(p, _) in &self.watchers[v] {
                self.queue.push(p, self.priority[p]);
            }
        }
        self.fixpoint()
    }

    /// Runs one propagator alone, outside the fixpoint (for look-ahead such
    /// as LCV); the caller restores the domains afterwards.
    pub(crate) fn propagate_alone(&mut self, p: PropId) -> PResult {
        self.flush();
        self.doms.set_cause(Cause::Prop(p as u32));
        let r = self.props[p].propagate(&mut self.doms);
        self.doms.set_cause(Cause::Decision);
        r
    }

    /// Tells the propagators that asked of the changes since the last look,
    /// without queueing anyone. Every path that goes on searching from the
    /// current domains passes through here or `schedule`: a missed
    /// notification would leave incremental state wrong.
    fn flush(&mut self) {
        while let Some(v) = self.doms.changed.pop() {
            let ev = std::mem::take(&mut self.doms.pending[v]);
            self.notify(v, ev, None);
        }
    }

    /// Notifies the propagators that asked of `ev` on `v`; with `queue`
    /// (the propagator that made the change, if any), queues those whose
    /// notification asks to run.
    #[inline]
    fn notify(&mut self, v: VarId, ev: u8, queue: Option<Option<PropId>>) {
        if !self.any_notified {
            return;
        }
        for &(p, position, mask) in &self.notified[v] {
            if mask & ev != 0
                && self.props[p].notify(position as usize, &mut self.doms)
                && let Some(current) = queue
                && (Some(p) != current || self.repeats[p])
            {
                self.queue.push(p, self.priority[p]);
            }
        }
    }

    /// Notifies of every change and queues the watchers of each changed
    /// variable (but not `current`, the propagator that made the change: ours
    /// run to their own fixpoint, unless a variable occurs in it twice).
    fn schedule(&mut self, current: Option<PropId>) {
        while let Some(v) = self.doms.changed.pop() {
            let ev = std::mem::take(&mut self.doms.pending[v]);
            self.notify(v, ev, Some(current));
            for &(p, mask) in &self.watchers[v] {
                if mask & ev != 0 && (Some(p) != current || self.repeats[p]) {
                    self.queue.push(p, self.priority[p]);
                }
            }
        }
    }
}

/// Whether some variable occurs twice in `vars`. A propagator reads each
/// occurrence as its own position: a value it removes from one occurrence
/// (`x`) also leaves the other (`x` again, or `x + 1` in an all-different),
/// which its reasoning in that run did not see, so it is not at its own
/// fixpoint and must run again on its own changes, or a fixed twin would go
/// unchecked (Langford's problem as all-different over `p[i]` and
/// `p[i] + i + 1` counted solutions that put two numbers in one place).
fn has_repeats(vars: &[VarId]) -> bool {
    if vars.len() <= 16 {
        return (1..vars.len()).any(|i| vars[..i].contains(&vars[i]));
    }
    let mut sorted = vars.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w[0] == w[1])
}

#[cfg(test)]
mod tests {
    use super::harness::Harness;
    use super::props::arith::{Abs, Times};

    /// A chain `x[i+1] = |x[i]|` of `n` links from `x[0]` in -5..=5, each
    /// link posted but not yet propagated.
    fn chain(n: usize) -> (Harness, Vec<crate::model::VarId>) {
        let mut h = Harness::new();
        let mut xs = vec![h.range(-5, 5)];
        for _ in 0..n {
            xs.push(h.range(-1000, 1000));
        }
        for w in xs.windows(2) {
            h.engine.add_prop(Box::new(Abs::new(w[0], w[1])));
        }
        (h, xs)
    }

    #[test]
    fn the_roots_propagation_asks_whether_to_go_on() {
        // Allowed to go on: the fixpoint, as propagate_root reaches it.
        let (mut h, xs) = chain(5000);
        let mut asked = 0;
        let r = h.engine.propagate_root_until(&mut || {
            asked += 1;
            true
        });
        assert_eq!(r, Some(Ok(())));
        assert!(asked >= 4, "asked {asked} times over 5000 links");
        assert_eq!(h.values(xs[5000]), vec![0, 1, 2, 3, 4, 5]);
        // Told to stop at the first question: stopped within ASK_EVERY
        // runs, the end of the chain untouched.
        let (mut h, xs) = chain(5000);
        assert_eq!(h.engine.propagate_root_until(&mut || false), None);
        assert!(h.engine.stats.propagations <= u64::from(super::ASK_EVERY));
        assert_eq!(h.values(xs[5000]).len(), 2001);
        // The same under forward checking, where the root runs each
        // propagator once.
        let (mut h, _) = chain(5000);
        h.engine.level = crate::model::Propagation::Fc;
        assert_eq!(h.engine.propagate_root_until(&mut || false), None);
    }

    #[test]
    fn a_failure_is_blamed_on_its_propagators_variables_in_equal_shares() {
        // x * y = z over x, y in 2..=3, z in 0..=9: fixing z to 5 fails the
        // product (no product is 5), and each of its three variables takes a
        // third; a fourth variable outside it takes none.
        let mut h = Harness::new();
        let (x, y, z) = (h.range(2, 3), h.range(2, 3), h.range(0, 9));
        let other = h.range(0, 1);
        h.post(Times::new(x, y, z));
        assert!(h.engine.stats.blame.is_empty());
        h.engine.doms.checkpoint();
        assert!(h.fix(z, 5).is_err());
        assert!(h.engine.take_failed().is_some());
        assert!(h.engine.take_failed().is_none(), "taken once per failure");
        let b = h.engine.stats.blame.clone();
        for v in [x, y, z] {
            assert!((b[v] - 1.0 / 3.0).abs() < 1e-12, "{b:?}");
        }
        assert_eq!(b.get(other).copied().unwrap_or(0.0), 0.0);
        // x * x = z: a variable twice takes both shares.
        let mut h = Harness::new();
        let (x, z) = (h.range(2, 3), h.range(0, 9));
        h.post(Times::new(x, x, z));
        h.engine.doms.checkpoint();
        assert!(h.fix(z, 5).is_err());
        h.engine.take_failed();
        let total: f64 = h.engine.stats.blame.iter().sum();
        assert!(
            (total - 1.0).abs() < 1e-12,
            "one failure, one unit of blame"
        );
    }
}
