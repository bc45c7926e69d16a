//! Word intersections `a[i] == b[j]` between two word variables, each
//! recorded in the engine's table of crossings (`engine/crossings.rs`) that
//! counting by product reads.

use super::Lower;
use crate::engine::props::word_score::{ScoreIndex, WordScore};
use crate::engine::props::wordcross::{Crossing, IndexCache, LetterIndex, WordCross};
use crate::model::{VarId, VarKind};
use std::sync::Arc;

/// Letter indexes already built, shared by every crossing on the same list
/// and position.
pub(crate) type LetterCache = IndexCache;

impl Lower<'_> {
    /// `a[i] == b[j]` for word variables `a` and `b`.
    pub(super) fn word_crossing(&mut self, a: VarId, i: usize, b: VarId, j: usize) -> Option<()> {
        let (VarKind::Word(la), VarKind::Word(lb)) =
            (&self.model.vars[a].kind, &self.model.vars[b].kind)
        else {
            return None;
        };
        let d = &self.engine.doms;
        if !d.is_bitset(a) || !d.is_bitset(b) {
            return None;
        }
        let ia = LetterIndex::shared(&mut self.words, la, i, d, a)?;
        let ib = LetterIndex::shared(&mut self.words, lb, j, d, b)?;
        let c = Arc::new(Crossing::new(a, ia, b, ib));
        let wc = WordCross::new(&c, &mut self.engine.doms);
        let p = self.engine.add_prop(Box::new(wc));
        self.crossings.push(p, c);
        Some(())
    }

    /// `score(x)` for a word variable `x`: an engine variable over the
    /// scores of `x`'s words, tied to `x` by [`WordScore`].
    pub(super) fn word_score(&mut self, x: VarId) -> Option<VarId> {
        let VarKind::Word(list) = &self.model.vars[x].kind else {
            return None;
        };
        if list.scores.len() != list.words.len() {
            return None;
        }
        let list = Arc::clone(list);
        let d = &self.engine.doms;
        let idx = d
            .is_bitset(x)
            .then(|| ScoreIndex::shared(&mut self.scores, &list, d, x));
        let values: Vec<i64> = match &idx {
            Some(i) => i.levels().to_vec(),
            None => {
                let (l, h) = list.score_range(d.min(x), d.max(x))?;
                let z = self.engine.add_range(l, h);
                self.engine
                    .add_prop(Box::new(WordScore::new(x, z, list, None)));
                return Some(z);
            }
        };
        if values.is_empty() {
            return None;
        }
        let z = self.engine.add_var(&values);
        self.engine
            .add_prop(Box::new(WordScore::new(x, z, list, idx)));
        Some(z)
    }
}
