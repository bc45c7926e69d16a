//! Lowering: the layer between the model and the engine, and the one place
//! where model formulas become engine variables and propagators.
//!
//! ```text
//! Model ──► unary (root domains) ──► constraints ──► objective ──► Posted
//!                                      │   ├─ linear   sums and comparisons
//!                                      │   ├─ terms    auxiliary variables for sub-terms
//!                                      │   ├─ reify    0/1 variables for sub-formulas
//!                                      │   ├─ words    word intersections (and their counting table)
//!                                      │   └─ globals  one file per global constraint
//!                                      └─ fallback: FormulaProp (always correct)
//! ```
//!
//! Each constraint goes to the most specific propagator that handles it.
//! Lowering a constraint is all-or-nothing: if any part of it cannot be
//! lowered (a term too wide, a propagator that refuses to be built), the
//! engine is rolled back to where the constraint began — no stray auxiliary
//! variable or propagator remains — and the constraint goes to the generic
//! [`FormulaProp`], which evaluates the formula directly. A missing
//! propagator costs speed, never answers.
//!
//! Auxiliary variables exist only in the engine (ids after the model's), so
//! they are never counted or printed.

mod constraints;
mod element2d;
pub(crate) mod globals;
mod linear;
mod objective;
mod reify;
#[cfg(test)]
mod table_gac;
mod terms;
mod unary;
pub(crate) mod words;

use crate::engine::Engine;
use crate::engine::crossings::Crossings;
use crate::engine::props::formula::FormulaProp;
use crate::model::{Formula, Model, Propagation, VarId};
use std::sync::Arc;

/// An engine for the model.
pub(crate) struct Posted {
    pub(crate) engine: Engine,
    /// False when the constraints fail already before search (an empty
    /// domain at the root): the model is unsatisfiable.
    pub(crate) consistent: bool,
    /// The engine variable equal to the objective, to minimise (negated when
    /// the model maximises); `None` without an objective or when it could not
    /// be lowered (then solutions are compared by evaluation only).
    pub(crate) objective: Option<VarId>,
    /// The word intersections among the propagators, for counting by product.
    pub(crate) crossings: Crossings,
    /// The caller's check said to stop before every constraint was posted
    /// ([`lower_until`]): the engine is incomplete and must not be searched.
    pub(crate) stopped: bool,
}

/// Lowers the model for search at the given propagation level.
pub(crate) fn lower(model: &Arc<Model>, level: Propagation) -> Posted {
    lower_with(model, level, false)
}

/// [`lower`], optionally holding every range domain by its bounds only
/// (`bounds_only`: for tests of interval domains).
pub(crate) fn lower_with(model: &Arc<Model>, level: Propagation, bounds_only: bool) -> Posted {
    lower_until(model, level, bounds_only, &mut || true)
}

/// What lowering and the root's propagation came to ([`lower_and_propagate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Root {
    /// Every constraint posted and propagated to a fixpoint at the root.
    Propagated,
    /// The root has no solution.
    Failed,
    /// `go_on` said to stop, while lowering or propagating.
    Stopped,
}

/// [`lower_until`], then the root's propagation under the same question,
/// as the split, its workers and the suggestions need them.
pub(crate) fn lower_and_propagate(
    model: &Arc<Model>,
    level: Propagation,
    bounds_only: bool,
    go_on: &mut impl FnMut() -> bool,
) -> (Posted, Root) {
    let mut posted = lower_until(model, level, bounds_only, go_on);
    let root = if posted.stopped {
        Root::Stopped
    } else if !posted.consistent {
        Root::Failed
    } else {
        match posted.engine.propagate_root_until(go_on) {
            None => Root::Stopped,
            Some(Err(_)) => Root::Failed,
            Some(Ok(())) => Root::Propagated,
        }
    };
    (posted, root)
}

/// How many constraints are posted between two questions to the caller.
const CHECK_EVERY: usize = 4096;

/// [`lower_with`], asking `go_on` every [`CHECK_EVERY`] constraints whether
/// to go on (the run's time limit and stop flag): a crossword of hundreds of
/// thousands of crossings takes seconds to post. When it says no, the rest
/// is not posted and [`Posted::stopped`] is set.
pub(crate) fn lower_until(
    model: &Arc<Model>,
    level: Propagation,
    bounds_only: bool,
    go_on: &mut dyn FnMut() -> bool,
) -> Posted {
    let mut engine = Engine::new(level);
    engine.doms.bounds_only = bounds_only;
    let Some(rest) = unary::root_domains(model, &mut engine) else {
        return Posted {
            engine,
            consistent: false,
            objective: None,
            crossings: Crossings::default(),
            stopped: false,
        };
    };
    let mut lower = Lower::new(&mut engine, model);
    for (n, f) in rest.into_iter().enumerate() {
        if n % CHECK_EVERY == CHECK_EVERY - 1 && !go_on() {
            drop(lower);
            return Posted {
                engine,
                consistent: true,
                objective: None,
                crossings: Crossings::default(),
                stopped: true,
            };
        }
        lower.post(f);
    }
    let objective = model
        .objective
        .as_ref()
        .and_then(|o| lower.objective_var(o));
    lower.post_counts();
    let crossings = std::mem::take(&mut lower.crossings);
    Posted {
        engine,
        consistent: true,
        objective,
        crossings,
        stopped: false,
    }
}

/// The lowering context shared by the passes.
pub(crate) struct Lower<'a> {
    pub(crate) engine: &'a mut Engine,
    pub(crate) model: &'a Arc<Model>,
    /// True while lowering a top-level constraint, where an undefined term
    /// (a zero divisor, an index out of range) may prune the assignments that
    /// make it undefined; false inside a reified sub-formula, where it must not.
    strict: bool,
    words: words::LetterCache,
    /// Score bitsets shared by every `score(w)` on the same list and layout.
    scores: crate::engine::props::word_score::ScoreCache,
    crossings: Crossings,
    /// Support bitsets shared by tables over the same rows and domains.
    tables: crate::engine::props::table::TableCache,
    /// The cardinality variable of each set's booleans (`globals/sets.rs`).
    set_cards: std::collections::HashMap<Vec<VarId>, VarId>,
    /// Counts `c = #{j : xs[j] == v}` met in sums, posted together at the
    /// end ([`Lower::post_counts`]) so that those over the same terms share
    /// one propagator.
    counts: Vec<(Vec<VarId>, i64, VarId)>,
}

impl<'a> Lower<'a> {
    pub(crate) fn new(engine: &'a mut Engine, model: &'a Arc<Model>) -> Self {
        Lower {
            engine,
            model,
            strict: true,
            words: words::LetterCache::default(),
            scores: Default::default(),
            crossings: Crossings::default(),
            tables: Default::default(),
            set_cards: Default::default(),
            counts: Vec::new(),
        }
    }

    /// Posts a top-level constraint: its own propagators if every part of it
    /// lowers, else (leaving nothing else behind) the formula propagator.
    pub(crate) fn post(&mut self, f: &Formula) {
        self.strict = true;
        let mark = self.engine.mark();
        let (crossings, counts) = (self.crossings.len(), self.counts.len());
        if self.try_post(f).is_none() {
            self.engine.rollback(mark);
            self.crossings.truncate(crossings);
            self.counts.truncate(counts);
            let vars = self.engine.doms.num_vars();
            self.set_cards
                .retain(|bools, card| *card < vars && bools.iter().all(|&b| b < vars));
            self.fallback(f.clone());
        }
    }

    /// Posts `f` as the generic formula propagator.
    fn fallback(&mut self, f: Formula) {
        self.engine
            .add_prop(Box::new(FormulaProp::new(f, self.model.clone())));
    }

    /// Whether undefined terms may prune here (see [`Lower::strict`]).
    pub(crate) fn strict(&self) -> bool {
        self.strict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CmpOp, Domain, Term, VarKind, Variable};
    use crate::source::Span;

    /// `x[i] != x[i + 1]` over `n` variables of 0..9: `n - 1` constraints.
    fn chain(n: usize) -> Model {
        let mut m = Model::default();
        for i in 0..n {
            m.add_var(Variable {
                name: format!("x{i}"),
                domain: Domain::Range(0, 9),
                kind: VarKind::Int,
                aux: false,
                span: Span::new(0, 0),
            });
        }
        for i in 1..n {
            m.constraints
                .push(Formula::Cmp(CmpOp::Ne, Term::Var(i - 1), Term::Var(i)));
        }
        m
    }

    /// Lowering and the root's propagation end in one of three ways.
    #[test]
    fn lowering_and_the_root_say_how_they_ended() {
        let ended = |m: Model, answer: bool| {
            lower_and_propagate(&Arc::new(m), Propagation::Ac, false, &mut || answer).1
        };
        assert_eq!(ended(chain(10), true), Root::Propagated);
        assert_eq!(ended(chain(10_000), false), Root::Stopped);
        // `x0 != x1` over two variables of 0..0.
        let mut one_value = chain(2);
        for v in &mut one_value.vars {
            v.domain = Domain::Range(0, 0);
        }
        assert_eq!(ended(one_value, true), Root::Failed);
    }

    /// Lowering asks its caller every few thousand constraints: told to
    /// stop, it leaves the rest unposted and says so; told to go on, it
    /// posts every one, as `lower_with` does.
    #[test]
    fn lowering_asks_whether_to_go_on() {
        let model = Arc::new(chain(10_000));
        let mut asked = 0;
        let stopped = lower_until(&model, Propagation::Ac, false, &mut || {
            asked += 1;
            false
        });
        assert!(stopped.stopped);
        assert_eq!(asked, 1);
        assert!(stopped.engine.props.len() < 9999);
        let mut asked = 0;
        let whole = lower_until(&model, Propagation::Ac, false, &mut || {
            asked += 1;
            true
        });
        assert!(!whole.stopped && whole.consistent);
        assert_eq!(asked, 9999 / CHECK_EVERY);
        assert_eq!(
            whole.engine.props.len(),
            lower_with(&model, Propagation::Ac, false)
                .engine
                .props
                .len()
        );
    }
}
