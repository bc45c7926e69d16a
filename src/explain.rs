//! Why a model has no solution: a minimal set of constraint instances that
//! already has none (an irreducible unsatisfiable subset).
//!
//! The search is a deletion filter over the model's constraint instances
//! (Chinneck and Dravnieks 1991), taking chunks of constraints out at once
//! and halving the chunk when that makes the rest satisfiable, in the spirit
//! of QuickXplain's splitting (Junker 2004). Unlike QuickXplain it is an
//! anytime algorithm: the current set is unsatisfiable at every step, so a
//! time limit still leaves the smallest conflict found so far. Every check
//! solves a sub-model through the public [`solve`] API: no engine internals.
//!
//! The set is minimal when every kept constraint was tested alone and taking
//! it out made the rest satisfiable: removing constraints only adds
//! solutions, so that constraint is needed in every subset too. A check that
//! hits its time limit keeps its constraints, and the set is then reported as
//! not proved minimal.

use crate::engine::search::{Limits, Next};
use crate::model::Model;
pub use crate::run::Explanation;
use crate::solve::{self, Options, Status};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest one check may take, unless less time is left.
const CHECK_LIMIT: Duration = Duration::from_secs(10);

/// What a check of a subset found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Sat,
    Unsat,
    Unknown,
}

struct Checker<'a> {
    model: &'a Model,
    options: Options,
    deadline: Instant,
    checks: u64,
}

impl Checker<'_> {
    fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Solves the model restricted to `keep` (indices of constraints).
    fn check(&mut self, keep: &[usize]) -> Verdict {
        self.checks += 1;
        let mut sub = self.model.clone();
        sub.constraints = keep
            .iter()
            .map(|&i| self.model.constraints[i].clone())
            .collect();
        sub.origins = keep
            .iter()
            .filter_map(|&i| self.model.origins.get(i).cloned())
            .collect();
        sub.objective = None;
        sub.projection.clear();
        // The as-written form is of the whole model, not of this subset.
        sub.written = None;
        let mut options = self.options.clone();
        options.limits.time = Some(self.time_left().min(CHECK_LIMIT));
        let summary = solve::solve(&Arc::new(sub), &options, |_| Next::Stop);
        match summary.status {
            Status::Unsatisfiable => Verdict::Unsat,
            _ if summary.stopped_before_a_solution() => Verdict::Unknown,
            _ => Verdict::Sat,
        }
    }
}

/// Finds a minimal set of constraints of `model` that has no solution,
/// within `time` overall; the stop flag of `limits` ends it early (Ctrl-C)
/// with the set so far, and its memory limit bounds each check (its other
/// limits are the checks' own).
pub fn explain(model: &Model, time: Duration, limits: &Limits) -> Explanation {
    let options = Options {
        search: model.search.clone(),
        limits: Limits {
            solutions: Some(1),
            stop: limits.stop.clone(),
            memory: limits.memory.clone(),
            ..Limits::default()
        },
        ..Options::default()
    };
    let mut cx = Checker {
        model,
        options,
        deadline: Instant::now() + time,
        checks: 0,
    };
    let mut conflict: Vec<usize> = (0..model.constraints.len()).collect();
    match cx.check(&conflict) {
        Verdict::Sat => return Explanation::Satisfiable,
        Verdict::Unknown => return Explanation::Unknown,
        Verdict::Unsat => {}
    }
    let mut minimal = true;
    // conflict[..at] are needed; conflict[at..] are still to be tried.
    let mut at = 0;
    let mut chunk = (conflict.len() / 4).max(1);
    while at < conflict.len() {
        let stopped = cx
            .options
            .limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        if cx.time_left().is_zero() || stopped {
            minimal = false;
            break;
        }
        let k = chunk.min(conflict.len() - at);
        let rest: Vec<usize> = conflict[..at]
            .iter()
            .chain(&conflict[at + k..])
            .copied()
            .collect();
        match cx.check(&rest) {
            Verdict::Unsat => {
                // The chunk is not needed: drop it, and try bigger chunks.
                conflict = rest;
                chunk = chunk.saturating_mul(2);
            }
            verdict if k == 1 => {
                // This constraint is needed (or could not be shown otherwise).
                minimal &= verdict == Verdict::Sat;
                at += 1;
                chunk = 2;
            }
            _ => chunk = k / 2,
        }
    }
    Explanation::Conflict {
        constraints: conflict,
        minimal,
        checks: cx.checks,
    }
}
