//! Activity (VSIDS, Moskewicz et al., DAC 2001, as lazy clause generation
//! solvers use it over integer variables): the variable most involved in
//! recent conflicts first. Each conflict analysed bumps the variables of
//! the literals the analysis met (with learning), or each failure the
//! variables of the failing constraint (without); bumps grow geometrically,
//! so older ones count less (decay). Activities are this evaluator's own
//! state and survive restarts, which is what restarts with it are for.

use super::{Evaluator, Node, Rng};
use crate::engine::{Engine, PropId};
use crate::model::VarId;

/// The bump grows by `1 / DECAY` at each conflict: MiniSat's 0.95.
const DECAY: f64 = 0.95;
/// Activities are scaled down past this to stay finite.
const LIMIT: f64 = 1e100;

pub(super) struct Activity {
    activity: Vec<f64>,
    bump: f64,
}

impl Default for Activity {
    fn default() -> Self {
        Activity {
            activity: Vec::new(),
            bump: 1.0,
        }
    }
}

impl Activity {
    pub(super) fn of(&self, v: VarId) -> f64 {
        self.activity.get(v).copied().unwrap_or(0.0)
    }

    fn bump_all(&mut self, vars: impl Iterator<Item = VarId>) {
        for v in vars {
            if self.activity.len() <= v {
                self.activity.resize(v + 1, 0.0);
            }
            self.activity[v] += self.bump;
            if self.activity[v] > LIMIT {
                self.activity.iter_mut().for_each(|a| *a /= LIMIT);
                self.bump /= LIMIT;
            }
        }
        self.bump /= DECAY;
    }
}

impl Evaluator for Activity {
    /// Higher activity scores lower (better): non-negative floats order as
    /// their bits do.
    fn score(&mut self, _: &Node, v: VarId, _: &mut Rng) -> u128 {
        u128::from(u64::MAX - self.of(v).to_bits())
    }

    fn on_failure(&mut self, engine: &Engine, p: PropId) {
        if !engine.learning() {
            self.bump_all(engine.props[p].vars().iter().copied());
        }
    }

    fn on_conflict(&mut self, vars: &[VarId]) {
        self.bump_all(vars.iter().copied());
    }

    fn varies(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_conflicts_weigh_more_and_activities_stay_finite() {
        let mut a = Activity::default();
        a.on_conflict(&[0, 1]);
        a.on_conflict(&[1]);
        a.on_conflict(&[2]);
        assert!(a.of(1) > a.of(2), "two bumps beat one later bump");
        assert!(a.of(2) > a.of(0), "a later bump beats an earlier one");
        assert_eq!(a.of(7), 0.0);
        for _ in 0..20_000 {
            a.on_conflict(&[3]);
        }
        assert!(a.of(3).is_finite() && a.of(3) > a.of(1));
        assert!(a.bump.is_finite());
    }
}
