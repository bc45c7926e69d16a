//! Word intersections `a[i] == b[j]` between two word variables, and the
//! table of them that counting by product reads (`engine/count.rs`): which
//! propagators are crossings, and their letter indexes.

use super::Lower;
use crate::engine::PropId;
use crate::engine::props::wordcross::{Crossing, IndexCache, LetterIndex, WordCross};
use crate::model::{VarId, VarKind};
use std::sync::Arc;

/// Letter indexes already built, shared by every crossing on the same list
/// and position.
pub type LetterCache = IndexCache;

/// The word intersections among the engine's propagators, in posting order.
#[derive(Default)]
pub struct Crossings {
    entries: Vec<(PropId, Arc<Crossing>)>,
}

impl Crossings {
    /// The crossing that propagator `p` enforces, if it is one.
    pub fn get(&self, p: PropId) -> Option<&Crossing> {
        let i = self.entries.binary_search_by_key(&p, |e| e.0).ok()?;
        Some(&self.entries[i].1)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
    }
}

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
        self.crossings.entries.push((p, c));
        Some(())
    }
}
