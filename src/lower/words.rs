//! Word intersections `a[i] == b[j]` between two word variables, each
//! recorded in the engine's table of crossings (`engine/crossings.rs`) that
//! counting by product reads.

use super::Lower;
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
        let p = self.engine.add_prop(Box::new(WordCross::new(&c)));
        self.crossings.push(p, c);
        Some(())
    }
}
