//! The table of word intersections among the engine's propagators, which
//! lowering fills as it posts them (`lower/words.rs`) and counting by
//! product reads (`count.rs`, `components.rs`): which propagators are
//! crossings, and their letter indexes.

use super::PropId;
use super::props::wordcross::Crossing;
use std::sync::Arc;

/// The word intersections among the engine's propagators, in posting order.
#[derive(Default)]
pub(crate) struct Crossings {
    entries: Vec<(PropId, Arc<Crossing>)>,
}

impl Crossings {
    /// The crossing that propagator `p` enforces, if it is one.
    pub(crate) fn get(&self, p: PropId) -> Option<&Crossing> {
        let i = self.entries.binary_search_by_key(&p, |e| e.0).ok()?;
        Some(&self.entries[i].1)
    }

    /// Records that propagator `p`, the latest posted, enforces `c`.
    pub(crate) fn push(&mut self, p: PropId, c: Arc<Crossing>) {
        debug_assert!(self.entries.last().is_none_or(|e| e.0 < p));
        self.entries.push((p, c));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets the crossings after the first `len` (lowering rolled back).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
    }
}
