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
use crate::lower::lower;
use crate::model::{Model, Propagation, VarId, VarKind};
use crate::setup::{primary, strategy};
use std::sync::Arc;
use std::time::Instant;

pub use crate::run::{Candidate, Suggestions};

/// The `top` best-scored values of `var` with their exact counts (none with
/// `var` = `None`: the map only), under `limits` for the whole run.
pub fn suggest(model: &Arc<Model>, var: Option<VarId>, top: usize, limits: &Limits) -> Suggestions {
    let start = Instant::now();
    let posted = lower(model, Propagation::Ac);
    let mut engine = posted.engine;
    let n = model.vars.len();
    if !posted.consistent || engine.propagate_root().is_err() {
        return Suggestions {
            sizes: vec![0; n],
            ..Suggestions::default()
        };
    }
    let sizes: Vec<u64> = (0..n).map(|v| engine.doms.size(v)).collect();
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
    let crossings = Arc::new(posted.crossings);
    let vars = primary(model);
    let mut spec = model.search.clone();
    spec.propagation = Propagation::Ac;
    let root = engine.doms.checkpoint();
    let mut cache = None;
    let mut candidates = Vec::with_capacity(values.len());
    for value in values {
        let mut l = limits.clone();
        l.solutions = None;
        l.time = limits.time.map(|t| t.saturating_sub(start.elapsed()));
        engine.doms.restore(root);
        let before = engine.stats.solutions;
        let mut search = Search::new(
            &mut engine,
            strategy(model, &spec, false),
            &vars,
            Arc::clone(&crossings),
            l,
        );
        search.count_only(true);
        if let Some(c) = cache.take() {
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
        cache = search.take_components();
        drop(search);
        let count = (outcome == Outcome::Exhausted).then(|| engine.stats.solutions - before);
        candidates.push(Candidate {
            value,
            score: score_of(value),
            count,
        });
    }
    Suggestions {
        sizes,
        candidates,
        left,
    }
}
