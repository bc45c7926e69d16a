//! Value selection: the decision to take on the chosen variable. Each
//! selector is one file; [`build`] maps the names of `model/search.rs` to
//! them.
//!
//! A domain held by its bounds only (an interval) cannot lose an inner
//! value, so `x != v` must have `v` at a bound: selectors choose a bound of
//! an interval domain (or split it), as Choco does for bounded variables.

mod fill;
mod guided;
mod lcv;
mod max;
mod min;
mod random;
mod score;
mod split;

use super::{Branch, Rng};
use crate::engine::Engine;
use crate::engine::crossings::Crossings;
use crate::model::{Model, ValSelect, VarId};
use std::sync::Arc;

pub(crate) trait ValSelector {
    /// The decision on `v`, an open variable.
    fn select(&mut self, engine: &mut Engine, v: VarId, rng: &mut Rng) -> Branch;

    /// Whether it draws at random or learns (see the variable evaluators'
    /// `varies`).
    fn varies(&self) -> bool {
        false
    }

    /// A solution was found (each variable's value): solution-guided
    /// selection remembers it.
    fn on_solution(&mut self, _values: &[i64]) {}

    /// The word intersections lowering posted, for selectors that read
    /// crossings (`fill`); the search hands them over before its first choice.
    fn attach(&mut self, _crossings: &Arc<Crossings>) {}
}

/// Wraps a value selector in solution guidance or phase saving
/// ([`guided::Guided`]) as `guide` asks; `Guide::None` leaves it alone.
pub(crate) fn guided(
    inner: Box<dyn ValSelector>,
    guide: crate::model::search::Guide,
) -> Box<dyn ValSelector> {
    use crate::model::search::Guide;
    match guide {
        Guide::None | Guide::Auto => inner,
        Guide::Solution => Box::new(guided::Guided::new(inner, false)),
        Guide::Phase => Box::new(guided::Guided::new(inner, true)),
    }
}

/// The value selector for a name; `model` supplies the word scores of `score`.
pub(crate) fn build(kind: ValSelect, model: &Model) -> Box<dyn ValSelector> {
    match kind {
        ValSelect::Min => Box::new(min::Min),
        ValSelect::Max => Box::new(max::Max),
        ValSelect::Random => Box::new(random::Random),
        ValSelect::Lcv => Box::new(lcv::Lcv::default()),
        ValSelect::Score => Box::new(score::Score::new(model)),
        ValSelect::Fill => Box::new(fill::Fill::new(model, 1)),
        ValSelect::FillRandom => Box::new(fill::Fill::new(model, 2)),
        ValSelect::Split => Box::new(split::Split),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::linear::{LinOp, Linear};
    use rand::SeedableRng;

    fn decide(kind: ValSelect, h: &mut Harness, v: VarId) -> Branch {
        let mut rng = Rng::seed_from_u64(3);
        build(kind, &Model::default()).select(&mut h.engine, v, &mut rng)
    }

    #[test]
    fn each_selector_decides_as_named() {
        let mut h = Harness::new();
        let x = h.var(&[2, 3, 5, 9]);
        let y = h.range(0, 8);
        // x + y <= 10: small x leaves y more values.
        h.post(Linear::new(vec![(1, x), (1, y)], -10, LinOp::Le));
        assert_eq!(decide(ValSelect::Min, &mut h, x), Branch::Assign(2));
        assert_eq!(decide(ValSelect::Max, &mut h, x), Branch::Assign(9));
        assert_eq!(decide(ValSelect::Split, &mut h, x), Branch::AtMost(5));
        assert_eq!(decide(ValSelect::Lcv, &mut h, x), Branch::Assign(2));
        let Branch::Assign(r) = decide(ValSelect::Random, &mut h, x) else {
            panic!("random assigns");
        };
        assert!([2, 3, 5, 9].contains(&r));
        assert_eq!(h.values(x), vec![2, 3, 5, 9], "selection changes no domain");
    }

    /// LCV is not min in disguise: with x + y >= 10, the largest x leaves y
    /// the most values; a tie goes to the smallest value.
    #[test]
    fn lcv_takes_the_value_leaving_the_neighbours_most() {
        let mut h = Harness::new();
        let x = h.var(&[2, 3, 5, 9]);
        let y = h.range(0, 8);
        h.post(Linear::new(vec![(-1, x), (-1, y)], 10, LinOp::Le));
        assert_eq!(decide(ValSelect::Lcv, &mut h, x), Branch::Assign(9));
        assert_eq!(
            h.values(x),
            vec![2, 3, 5, 9],
            "trying values changes no domain"
        );
        assert_eq!(h.values(y), (1..=8).collect::<Vec<_>>());
        let mut h = Harness::new();
        let x = h.var(&[4, 6]);
        let y = h.range(0, 3);
        h.post(Linear::new(vec![(1, x), (1, y)], -20, LinOp::Le));
        assert_eq!(
            decide(ValSelect::Lcv, &mut h, x),
            Branch::Assign(4),
            "a tie"
        );
    }

    #[test]
    fn interval_domains_get_a_bound() {
        let mut h = Harness::new();
        let x = h.range(-(1 << 40), 1 << 40);
        for kind in [
            ValSelect::Min,
            ValSelect::Random,
            ValSelect::Lcv,
            ValSelect::Score,
        ] {
            let b = decide(kind, &mut h, x);
            assert!(
                b == Branch::Assign(-(1 << 40)) || b == Branch::Assign(1 << 40),
                "{kind:?}: {b:?}"
            );
        }
        assert_eq!(decide(ValSelect::Split, &mut h, x), Branch::AtMost(0));
    }
}
