//! `z = score(x)` for a word variable `x`: the score of `x`'s word in its
//! scored list (`word;score` lines), the term `score(w)` of the crossword
//! models' objectives.
//!
//! As a table over `(x, z)` this was quadratic: one support bitset of the
//! slot's words per word, 398 MB on a 15×15 grid. Here the scores stay the
//! list's own array, and a [`ScoreIndex`] holds one bitset per distinct
//! score (a *level*), the words of the slot's layout with that score, shared
//! by every slot on the same list and layout. Lists have few distinct scores
//! (Spread the Wordlist: a few dozen), so this is a few bitsets per length;
//! past [`DENSE_MAX_LEVELS`] the index keeps only the levels, and a run
//! walks the domain instead.
//!
//! Domain consistent on both sides: `z` keeps the scores of `x`'s words,
//! `x` the words whose score `z` still has; one run reaches the fixpoint
//! (distinct variables). Values of `x` outside the list are undefined, so
//! the constraint is false there and they go.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::Propagator;
use crate::model::{VarId, WordList};
use std::collections::HashMap;
use std::sync::Arc;

/// The most levels an index keeps one bitset each for.
pub(crate) const DENSE_MAX_LEVELS: usize = 256;

/// The words of one list by score, as bitsets in the layout of a domain
/// starting at value `offset` with `nwords` bitset words.
pub(crate) struct ScoreIndex {
    /// The distinct scores of the layout's words, sorted.
    levels: Vec<i64>,
    /// `nwords` words per level (empty past [`DENSE_MAX_LEVELS`]).
    supports: Vec<u64>,
    nwords: usize,
}

/// Score indexes already built, by (list address, offset, nwords).
pub(crate) type ScoreCache = HashMap<(usize, i64, usize), Arc<ScoreIndex>>;

impl ScoreIndex {
    pub(crate) fn new(list: &WordList, offset: i64, nwords: usize) -> ScoreIndex {
        let score_at = |bit: usize| -> Option<i64> {
            let value = usize::try_from(offset + bit as i64).ok()?;
            list.scores.get(value).copied()
        };
        let mut levels: Vec<i64> = (0..nwords * 64).filter_map(score_at).collect();
        levels.sort_unstable();
        levels.dedup();
        let mut supports = Vec::new();
        if levels.len() <= DENSE_MAX_LEVELS {
            supports = vec![0u64; levels.len() * nwords];
            for bit in 0..nwords * 64 {
                if let Some(s) = score_at(bit) {
                    let k = levels.binary_search(&s).unwrap_or(0);
                    supports[k * nwords + bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        ScoreIndex {
            levels,
            supports,
            nwords,
        }
    }

    /// The index of `x`'s domain layout, from the cache if built.
    pub(crate) fn shared(
        cache: &mut ScoreCache,
        list: &Arc<WordList>,
        d: &Domains,
        x: VarId,
    ) -> Arc<ScoreIndex> {
        let (offset, nwords) = (d.offset(x), d.bits(x).len());
        let key = (Arc::as_ptr(list) as usize, offset, nwords);
        Arc::clone(
            cache
                .entry(key)
                .or_insert_with(|| Arc::new(ScoreIndex::new(list, offset, nwords))),
        )
    }

    /// The distinct scores, sorted: the values `z` can take.
    pub(crate) fn levels(&self) -> &[i64] {
        &self.levels
    }

    fn dense(&self) -> bool {
        !self.levels.is_empty() && !self.supports.is_empty()
    }

    fn support(&self, k: usize) -> &[u64] {
        &self.supports[k * self.nwords..(k + 1) * self.nwords]
    }
}

/// The propagator of `z = score(x)`.
pub(crate) struct WordScore {
    vars: [VarId; 2],
    list: Arc<WordList>,
    /// `None` when `x`'s domain is not a bitset.
    idx: Option<Arc<ScoreIndex>>,
    /// For each level, the bitset word where a word of that level was last
    /// found in `x` (a residual support; any value is a valid guess).
    residue: Vec<u32>,
    /// Scratch: which levels `x` still has, the scores it has, the values
    /// of `z`, the mask.
    present: Vec<bool>,
    seen: Vec<i64>,
    zvals: Vec<i64>,
    mask: Vec<u64>,
}

impl WordScore {
    /// `z = score(x)`; the list must have scores (one per word).
    pub(crate) fn new(
        x: VarId,
        z: VarId,
        list: Arc<WordList>,
        idx: Option<Arc<ScoreIndex>>,
    ) -> Self {
        let levels = idx.as_ref().map_or(0, |i| i.levels.len());
        WordScore {
            vars: [x, z],
            list,
            idx,
            residue: vec![0; levels],
            present: Vec::new(),
            seen: Vec::new(),
            zvals: Vec::new(),
            mask: Vec::new(),
        }
    }

    fn score(&self, value: i64) -> Option<i64> {
        self.list.scores.get(usize::try_from(value).ok()?).copied()
    }

    /// One pass; true when it changed a domain.
    fn pass(&mut self, d: &mut Domains) -> Result<bool, Fail> {
        let [x, z] = self.vars;
        let n = self.list.scores.len() as i64;
        let mut changed = false;
        if d.min(x) < 0 {
            changed |= d.set_min(x, 0)?;
        }
        if d.max(x) > n - 1 {
            changed |= d.set_max(x, n - 1)?;
        }
        if let Some(v) = d.value(x) {
            let s = self.score(v).ok_or(Fail)?;
            return Ok(changed | d.fix(z, s)?);
        }
        let dense = d.is_bitset(x) && self.idx.as_ref().is_some_and(|i| i.dense());
        let mut zvals = std::mem::take(&mut self.zvals);
        let r = if dense {
            self.dense_pass(d, &mut zvals)
        } else {
            self.walk_pass(d, &mut zvals)
        };
        self.zvals = zvals;
        Ok(changed | r?)
    }

    /// A pass with the level bitsets.
    fn dense_pass(&mut self, d: &mut Domains, zvals: &mut Vec<i64>) -> Result<bool, Fail> {
        let [x, z] = self.vars;
        let Some(idx) = self.idx.clone() else {
            return self.walk_pass(d, zvals);
        };
        let mut present = std::mem::take(&mut self.present);
        present.clear();
        let residue = &mut self.residue;
        present.extend((0..idx.levels.len()).map(|k| has_level(&idx, residue, d, x, k)));
        let levels = &idx.levels;
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.extend((0..levels.len()).filter(|&k| present[k]).map(|k| levels[k]));
        let kept = keep_in_z(d, z, zvals, &seen);
        self.seen = seen;
        let mut changed = kept?;
        // Words of a score `z` no longer has.
        let mut dropped = false;
        for k in 0..levels.len() {
            if present[k] && !d.contains(z, levels[k]) {
                if !dropped {
                    self.mask.clear();
                    self.mask.resize(idx.nwords, u64::MAX);
                    dropped = true;
                }
                for (m, s) in self.mask.iter_mut().zip(idx.support(k)) {
                    *m &= !s;
                }
            }
        }
        if dropped {
            changed |= d.intersect(x, &self.mask)?;
        }
        self.present = present;
        Ok(changed)
    }

    /// A pass walking `x`'s domain (no level bitsets).
    fn walk_pass(&mut self, d: &mut Domains, zvals: &mut Vec<i64>) -> Result<bool, Fail> {
        let [x, z] = self.vars;
        let mut seen: Vec<i64> = d.values(x).filter_map(|v| self.score(v)).collect();
        seen.sort_unstable();
        seen.dedup();
        let mut changed = keep_in_z(d, z, zvals, &seen)?;
        let gone: Vec<i64> = d
            .values(x)
            .filter(|&v| self.score(v).is_none_or(|s| !d.contains(z, s)))
            .collect();
        for v in gone {
            changed |= d.remove(x, v)?;
        }
        Ok(changed)
    }
}

/// Whether `x` (a bitset in the index's layout) still has a word of level
/// `k`; `residue[k]` is where one was last found.
fn has_level(idx: &ScoreIndex, residue: &mut [u32], d: &Domains, x: VarId, k: usize) -> bool {
    let (bits, support) = (d.bits(x), idx.support(k));
    let r = residue[k] as usize;
    if bits[r] & support[r] != 0 {
        return true;
    }
    let off = d.offset(x);
    let lo = ((d.min(x) - off) / 64) as usize;
    let hi = ((d.max(x) - off) / 64) as usize;
    for w in lo..=hi.min(bits.len() - 1) {
        if bits[w] & support[w] != 0 {
            residue[k] = w as u32;
            return true;
        }
    }
    false
}

/// Keeps in `z` only the scores of `allowed` (sorted, distinct).
fn keep_in_z(
    d: &mut Domains,
    z: VarId,
    zvals: &mut Vec<i64>,
    allowed: &[i64],
) -> Result<bool, Fail> {
    if !d.is_bitset(z) {
        // An interval: only its bounds can move, each straight to the
        // nearest score inside them (a score can be far past a bitset's
        // reach, so never one value at a time).
        let lo = allowed.partition_point(|&s| s < d.min(z));
        let hi = allowed.partition_point(|&s| s <= d.max(z));
        if lo >= hi {
            return Err(Fail);
        }
        let changed = d.set_min(z, allowed[lo])?;
        return Ok(changed | d.set_max(z, allowed[hi - 1])?);
    }
    let mut changed = false;
    zvals.clear();
    zvals.extend(d.values(z));
    for &s in zvals.iter() {
        if allowed.binary_search(&s).is_err() {
            changed |= d.remove(z, s)?;
        }
    }
    Ok(changed)
}

impl Propagator for WordScore {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn propagate(&mut self, d: &mut Domains) -> PResult {
        // With `x` and `z` the same variable a pass can undo its own
        // fixpoint; with two variables one pass reaches it.
        while self.pass(d)? && self.vars[0] == self.vars[1] {}
        Ok(())
    }

    fn consistent_on_last_open(&self) -> bool {
        self.vars[0] != self.vars[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};

    fn list(scores: &[i64]) -> Arc<WordList> {
        Arc::new(WordList {
            name: "t".into(),
            words: (0..scores.len()).map(|i| format!("w{i}")).collect(),
            scores: scores.to_vec(),
        })
    }

    fn make(
        l: &Arc<WordList>,
        dense: bool,
    ) -> impl Fn(&mut Domains, &[VarId]) -> Option<Box<dyn Propagator>> {
        let l = Arc::clone(l);
        move |d: &mut Domains, vs: &[VarId]| {
            let idx = (dense && d.is_bitset(vs[0]))
                .then(|| Arc::new(ScoreIndex::new(&l, d.offset(vs[0]), d.bits(vs[0]).len())));
            Some(Box::new(WordScore::new(vs[0], vs[1], Arc::clone(&l), idx)) as Box<dyn Propagator>)
        }
    }

    #[test]
    fn domain_consistent_against_brute_force() {
        // Words 0..=4 (the harness draws -3..=4: the negative ones are off the list).
        let l = list(&[2, -1, 2, 4, 0]);
        for dense in [true, false] {
            let scores = Arc::clone(&l);
            check_random(
                &format!("word_score dense={dense}"),
                Strength::Domain,
                2,
                make(&l, dense),
                move |t| {
                    usize::try_from(t[0])
                        .ok()
                        .and_then(|i| scores.scores.get(i))
                        == Some(&t[1])
                },
            );
        }
    }

    #[test]
    fn a_bound_on_the_score_removes_words() {
        let l = list(&[50, 60, 55, 60, 50]);
        let mut h = Harness::new();
        let x = h.range(0, 4);
        let z = h.range(0, 100);
        let idx = Arc::new(ScoreIndex::new(
            &l,
            h.engine.doms.offset(x),
            h.engine.doms.bits(x).len(),
        ));
        assert_eq!(idx.levels(), &[50, 55, 60]);
        h.post(WordScore::new(x, z, Arc::clone(&l), Some(idx)));
        assert_eq!(h.values(z), vec![50, 55, 60]);
        h.set_min(z, 56).unwrap();
        assert_eq!(h.values(x), vec![1, 3]);
        h.remove(x, 1).unwrap();
        assert_eq!(h.values(z), vec![60]);
        assert!(h.fix(z, 50).is_err());
    }

    /// Scores far apart make `z` an interval: its bounds go straight to the
    /// nearest scores (stepping one value at a time, they took as many
    /// steps as the gap; a fuzzer's word list scored 466,666,666 hung).
    #[test]
    fn an_interval_score_jumps_to_the_nearest_scores() {
        const FAR: i64 = 1 << 50;
        let l = list(&[7, FAR, 9, FAR - 3]);
        for dense in [true, false] {
            let mut h = Harness::new();
            let x = h.range(0, 3);
            let z = h.range(0, 2 * FAR);
            assert!(!h.engine.doms.is_bitset(z), "z should be an interval");
            let idx = dense.then(|| {
                let d = &h.engine.doms;
                Arc::new(ScoreIndex::new(&l, d.offset(x), d.bits(x).len()))
            });
            h.post(WordScore::new(x, z, Arc::clone(&l), idx));
            assert_eq!((h.engine.doms.min(z), h.engine.doms.max(z)), (7, FAR));
            h.remove(x, 0).unwrap();
            h.remove(x, 1).unwrap();
            assert_eq!((h.engine.doms.min(z), h.engine.doms.max(z)), (9, FAR - 3));
            h.set_min(z, 10).unwrap();
            assert_eq!(h.values(x), vec![3]);
            assert_eq!(h.engine.doms.value(z), Some(FAR - 3));
            assert!(h.set_max(z, FAR - 4).is_err());
        }
    }
}
