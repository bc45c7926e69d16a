//! Solution-guided value choice (Beck, "Solution-guided multi-point
//! constructive search for job shop scheduling", JAIR 2007) and phase saving
//! (Pipatsrisawat & Darwiche, SAT 2007): a variable takes again the value it
//! had in the best solution so far (`solution`) or the value it was last
//! given (`phase`), when that value is still in its domain; otherwise the
//! wrapped selector decides. With restarts, branch and bound then searches
//! around the incumbent instead of starting afresh each time.

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::VarId;

pub(super) struct Guided {
    inner: Box<dyn ValSelector>,
    /// Remember the last value given (phase saving) rather than the best
    /// solution's.
    phase: bool,
    /// The remembered value of each variable, if any.
    memory: Vec<Option<i64>>,
}

impl Guided {
    pub(super) fn new(inner: Box<dyn ValSelector>, phase: bool) -> Self {
        Guided {
            inner,
            phase,
            memory: Vec::new(),
        }
    }

    fn remember(&mut self, v: VarId, value: i64) {
        if self.memory.len() <= v {
            self.memory.resize(v + 1, None);
        }
        self.memory[v] = Some(value);
    }
}

impl ValSelector for Guided {
    fn select(&mut self, engine: &mut Engine, v: VarId, rng: &mut Rng) -> Branch {
        let d = &engine.doms;
        let remembered = self.memory.get(v).copied().flatten();
        let b = match remembered {
            // A bound of an interval, or any value of a bitset (the search
            // turns other choices on intervals into a bound).
            Some(x) if d.contains(v, x) && (d.is_bitset(v) || x == d.min(v) || x == d.max(v)) => {
                Branch::Assign(x)
            }
            _ => self.inner.select(engine, v, rng),
        };
        if self.phase
            && let Branch::Assign(x) = b
        {
            self.remember(v, x);
        }
        b
    }

    fn attach(&mut self, crossings: &std::sync::Arc<crate::engine::crossings::Crossings>) {
        self.inner.attach(crossings);
    }

    fn on_solution(&mut self, values: &[i64]) {
        self.memory.clear();
        self.memory.extend(values.iter().map(|&x| Some(x)));
    }

    fn varies(&self) -> bool {
        true
    }
}
