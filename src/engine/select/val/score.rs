//! Words with the best score first (`word;score` dictionaries); ties, and
//! variables without scores, go smallest first. The word lists with scores
//! are this selector's own state, read from the model.

use super::{Branch, Rng, ValSelector};
use crate::engine::Engine;
use crate::model::{Model, VarId, VarKind, WordList};
use std::sync::Arc;

pub(super) struct Score {
    /// For each model variable over a scored dictionary, its word list
    /// (value `i` scores `scores[i]`).
    lists: Vec<Option<Arc<WordList>>>,
}

impl Score {
    pub(super) fn new(model: &Model) -> Self {
        let lists = model
            .vars
            .iter()
            .map(|v| match &v.kind {
                VarKind::Word(list) if list.scores.len() == list.words.len() => Some(list.clone()),
                _ => None,
            })
            .collect();
        Score { lists }
    }
}

impl Score {
    /// The score of `v`'s word `x` (0 without scores): what ties of other
    /// selectors over words go to.
    pub(super) fn score_of(&self, v: VarId, x: i64) -> i64 {
        self.lists
            .get(v)
            .and_then(Option::as_ref)
            .and_then(|l| l.score(x))
            .unwrap_or(0)
    }
}

impl ValSelector for Score {
    fn select(&mut self, engine: &mut Engine, v: VarId, _: &mut Rng) -> Branch {
        let d = &engine.doms;
        Branch::Assign(match self.lists.get(v).and_then(Option::as_ref) {
            Some(list) if d.is_bitset(v) => d
                .values(v)
                .max_by_key(|&x| (list.scores.get(x as usize).copied().unwrap_or(0), -x))
                .unwrap_or_else(|| d.min(v)),
            _ => d.min(v),
        })
    }
}
