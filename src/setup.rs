//! How every run sets up a search over a model, on one thread
//! (`solve.rs`) or on many (`parallel.rs`): the variables it branches on,
//! its strategy, and the reception of the solutions it hands over.

use crate::engine::search::{Phase, Strategy};
use crate::engine::select;
use crate::engine::stats::Improvement;
use crate::model::check::violations;
use crate::model::globals::Kind;
use crate::model::{Formula, Guide, LnsKind, Model, Restarts, SearchSpec, VarId, VarSelect};
use std::time::Instant;

/// The variables the search branches on: the solution variables, or with an
/// objective every declared variable (a projection must not hide better
/// completions).
pub(crate) fn primary(model: &Model) -> Vec<VarId> {
    if model.objective.is_some() {
        (0..model.vars.len())
            .filter(|&v| !model.vars[v].aux)
            .collect()
    } else {
        model.solution_vars()
    }
}

/// The branching strategy of a search specification; `optimising` when
/// the objective was lowered to a variable (branch and bound runs).
pub(crate) fn strategy(model: &Model, spec: &SearchSpec, optimising: bool) -> Strategy {
    let guide = match spec.guide {
        Guide::Auto
            if optimising && (spec.restarts != Restarts::None || spec.lns != LnsKind::None) =>
        {
            Guide::Solution
        }
        // Activity goes with phase saving, as in SAT solvers.
        Guide::Auto if spec.var == VarSelect::Activity => Guide::Phase,
        Guide::Auto => Guide::None,
        g => g,
    };
    Strategy {
        var: select::var::build(spec.var).with_random_ties(spec.random_ties),
        val: select::val::guided(select::val::build(spec.val, model), guide),
        restarts: spec.restarts,
        seed: spec.seed,
        scope: spec.scope.clone(),
        learning: learning(model, spec, optimising),
        components: spec.components,
        restart_nogoods: spec.restart_nogoods.unwrap_or(true),
        phases: spec
            .phases
            .iter()
            .map(|p| Phase {
                vars: p.vars.clone(),
                var: select::var::build(p.var).with_random_ties(spec.random_ties),
                val: select::val::guided(select::val::build(p.val, model), guide),
            })
            .collect(),
    }
}

/// Whether the search learns: as the search specification says, else by
/// default only when optimising a schedule (a `disjunctive` or a
/// `cumulative`, written or found in a FlatZinc job shop), where the
/// measurements of docs/learning.md show it proving optima that branch and
/// bound alone does not reach, for a small cost on the easy ones. Counting,
/// enumerating and first solutions never learn by default.
pub(crate) fn learning(model: &Model, spec: &SearchSpec, optimising: bool) -> bool {
    spec.learning
        .unwrap_or_else(|| optimising && schedules(model))
}

/// Whether the model has a `disjunctive` or a `cumulative` among its
/// top-level constraints (or their conjunctions).
fn schedules(model: &Model) -> bool {
    fn has(f: &Formula) -> bool {
        match f {
            Formula::Global(g) => matches!(g.def.kind(), Kind::Disjunctive | Kind::Cumulative),
            Formula::And(fs) => fs.iter().any(has),
            _ => false,
        }
    }
    model.constraints.iter().any(has)
}

/// The solutions a search hands over, kept or skipped before the caller
/// sees them: with an objective only strictly better ones pass; with
/// `check` each is checked by the independent checker.
pub(crate) struct Reception<'m> {
    model: &'m Model,
    check: bool,
    start: Instant,
    pub best: Option<i64>,
    /// Each better solution's objective and when it came.
    pub improvements: Vec<Improvement>,
    /// Solutions passed on.
    pub reported: u64,
    pub rejected: Vec<String>,
}

impl<'m> Reception<'m> {
    /// `start`: when the run began, for the improvements' times.
    pub(crate) fn new(model: &'m Model, check: bool, start: Instant) -> Self {
        Reception {
            model,
            check,
            start,
            best: None,
            improvements: Vec::new(),
            reported: 0,
            rejected: Vec::new(),
        }
    }

    /// Whether to pass `values` on to the caller.
    pub(crate) fn take(&mut self, values: &[i64]) -> bool {
        if let Some(g) = &self.model.objective {
            // The objective's value; when it was not lowered to a variable,
            // solutions that do not improve are skipped here.
            let Some(v) = g.term.eval(self.model, values) else {
                return false;
            };
            let better = match self.best {
                None => true,
                Some(b) if g.maximize => v > b,
                Some(b) => v < b,
            };
            if !better {
                return false;
            }
            self.best = Some(v);
            self.improvements.push(Improvement {
                objective: v,
                time: self.start.elapsed(),
            });
        }
        self.reported += 1;
        if self.check {
            let v = violations(self.model, values);
            if !v.is_empty() {
                self.rejected.push(
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                );
            }
        }
        true
    }
}
