//! Suggestions with exact counts (`solve --suggest VAR`, `--fillability`):
//! for one variable (a crossword slot), its candidate values ranked by score,
//! each with the exact number of solutions it leaves (zero: the grid is no
//! longer fillable); and the number of values each variable keeps after
//! propagation at the root, which the fillability map draws.
//!
//! The model is lowered once. Each candidate is counted below the root as a
//! sub-problem of a split is (`Search::replay` of `var = value`), by
//! components, with one component cache for all candidates: the parts of the
//! grid a candidate does not touch are counted once.

use crate::engine::search::{Limits, Next, Outcome, Search};
use crate::engine::select::{Branch, Decision};
use crate::lower::{Root, lower_and_propagate};
use crate::model::{Model, Propagation, VarId, VarKind};
use crate::setup::{primary, strategy};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

pub use crate::run::{Candidate, Suggestions};

/// The `top` best-scored values of `var` with their exact counts (none with
/// `var` = `None`: the map only), under `limits` for the whole run, the
/// values counted on `threads` threads at once (each lowers the model and
/// keeps its own cache of parts).
pub fn suggest(
    model: &Arc<Model>,
    var: Option<VarId>,
    top: usize,
    limits: &Limits,
    threads: usize,
) -> Suggestions {
    let start = Instant::now();
    let mut counter = match Counter::new(model, limits, start) {
        Ok(c) => c,
        Err(Root::Stopped) => {
            return Suggestions {
                stopped: true,
                ..Suggestions::default()
            };
        }
        // The root failed: no solution at all (`new` never gives Propagated as an error).
        Err(Root::Failed | Root::Propagated) => {
            return Suggestions {
                sizes: vec![0; model.vars.len()],
                ..Suggestions::default()
            };
        }
    };
    let engine = &counter.engine;
    let sizes: Vec<u64> = (0..model.vars.len()).map(|v| engine.doms.size(v)).collect();
    let Some(var) = var else {
        return Suggestions {
            sizes,
            ..Suggestions::default()
        };
    };
    let scores = match &model.vars[var].kind {
        VarKind::Word(list) if !list.scores.is_empty() => Some(list.scores.clone()),
        _ => None,
    };
    let score_of = |value: i64| {
        scores
            .as_ref()
            .and_then(|s| s.get(usize::try_from(value).ok()?).copied())
    };
    // A wide interval domain is not listed value by value.
    let left = engine.doms.size(var);
    let mut values: Vec<i64> = if engine.doms.is_bitset(var) || left <= 1 << 20 {
        engine.doms.values(var).collect()
    } else {
        Vec::new()
    };
    values.sort_by_key(|&v| (std::cmp::Reverse(score_of(v)), v));
    values.truncate(top);
    let counts = counter.count_all(var, &values, threads);
    let candidates = values
        .into_iter()
        .zip(counts)
        .map(|(value, count)| Candidate {
            value,
            score: score_of(value),
            count,
        })
        .collect();
    Suggestions {
        sizes,
        candidates,
        left,
        stopped: false,
    }
}

/// The model lowered and propagated at its root, counting the solutions
/// below `var = value` for one value after another.
struct Counter<'a> {
    model: &'a Arc<Model>,
    limits: &'a Limits,
    /// When the run began: the time limit is for all the values.
    start: Instant,
    engine: crate::engine::Engine,
    root: crate::engine::trail::Checkpoint,
    crossings: Arc<crate::engine::crossings::Crossings>,
    /// The variables searched, and how (the model's order, `ac`).
    vars: Vec<VarId>,
    spec: crate::model::SearchSpec,
    /// Kept from one value to the next: parts a value does not touch are
    /// counted once.
    cache: Option<Box<crate::engine::components::Components>>,
}

impl<'a> Counter<'a> {
    /// The model lowered and propagated at its root, both hearing the
    /// limits; else why not ([`Root::Failed`] or [`Root::Stopped`]).
    fn new(model: &'a Arc<Model>, limits: &'a Limits, start: Instant) -> Result<Self, Root> {
        let (posted, root) =
            lower_and_propagate(model, Propagation::Ac, false, &mut limits.go_on_from(start));
        if root != Root::Propagated {
            return Err(root);
        }
        let mut engine = posted.engine;
        let root = engine.doms.checkpoint();
        let mut spec = model.search.clone();
        spec.propagation = Propagation::Ac;
        Ok(Counter {
            model,
            limits,
            start,
            engine,
            root,
            crossings: Arc::new(posted.crossings),
            vars: primary(model),
            spec,
            cache: None,
        })
    }

    /// The count of each of `values`, in order, on `threads` threads: this
    /// one and others, each with the model lowered again, taking the next
    /// value left. A value no thread counted (one that died) is `None`, as
    /// a limit leaves it.
    fn count_all(&mut self, var: VarId, values: &[i64], threads: usize) -> Vec<Option<u64>> {
        let threads = threads.clamp(1, values.len().max(1));
        if threads == 1 {
            return values.iter().map(|&v| self.count(var, v)).collect();
        }
        let next = AtomicUsize::new(0);
        let take = |counter: &mut Counter| {
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&v) = values.get(i) else {
                    return out;
                };
                out.push((i, counter.count(var, v)));
            }
        };
        let (model, limits, start) = (self.model, self.limits, self.start);
        let counted: Vec<(usize, Option<u64>)> = std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads)
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .stack_size(crate::run::WORKER_STACK)
                        .spawn_scoped(scope, || {
                            Counter::new(model, limits, start)
                                .ok()
                                .map(|mut c| take(&mut c))
                        })
                        .ok()
                })
                .collect();
            let mut counted = take(self);
            for other in others {
                counted.extend(other.join().ok().flatten().unwrap_or_default());
            }
            counted
        });
        let mut counts = vec![None; values.len()];
        for (i, c) in counted {
            counts[i] = c;
        }
        counts
    }

    /// The number of solutions with `var = value`; `None` when a limit
    /// stopped the count.
    fn count(&mut self, var: VarId, value: i64) -> Option<u64> {
        let model = self.model;
        let mut l = self.limits.clone();
        l.solutions = None;
        l.time = self
            .limits
            .time
            .map(|t| t.saturating_sub(self.start.elapsed()));
        self.engine.doms.restore(self.root);
        let before = self.engine.stats.solutions;
        let mut search = Search::new(
            &mut self.engine,
            strategy(model, &self.spec, false),
            &self.vars,
            Arc::clone(&self.crossings),
            l,
        );
        search.count_only(true);
        if let Some(c) = self.cache.take() {
            search.set_components(c);
        }
        let path = [Decision {
            var,
            branch: Branch::Assign(value),
            right: false,
        }];
        let outcome = if search.replay(&path) {
            search.run(|_| Next::Continue)
        } else {
            Outcome::Exhausted
        };
        self.cache = search.take_components();
        drop(search);
        (outcome == Outcome::Exhausted).then(|| self.engine.stats.solutions - before)
    }
}
