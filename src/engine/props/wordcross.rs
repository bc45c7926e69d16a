//! Word intersection, `a[i] == b[j]` for word variables `a` and `b`: the
//! constraint of every crossing in a crossword.
//!
//! For each (word list, position, domain layout) a [`LetterIndex`] holds one
//! bitset per letter: the values whose word has that letter there. Indexes are
//! shared (`Arc`) by every crossing on the same list and position. With `a`
//! fixed, `b`'s domain is intersected with its letter's bitset, and the
//! crossing is entailed below. With both open, each side's live letters are
//! found (a bitset AND per letter from a residual support, or a pass over a
//! small domain), and the words of the letters one side has and the other
//! lacks leave it: a handful of bitset operations, no string is looked at
//! during search. Most revisions remove nothing; the letters known dead, and
//! the domain size at which a side's letters were last found exactly, are
//! kept on the trail so that such a revision looks at little.
//!
//! Removing the words of one letter changes no other letter's presence, so
//! afterwards both sides hold the same letters: the arc-consistent fixpoint
//! of the pair, and the propagator is idempotent.
//!
//! One bitset per letter costs letters × words: quadratic when the alphabet
//! is huge (a dictionary of tens of thousands of distinct symbols). Past
//! [`DENSE_MAX_LETTERS`] an index keeps, per letter, the list of its words
//! instead (linear in the list), and a revise walks the smaller of the
//! domain and the live letters' lists.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::engine::trail::{RevInt, RevWords};
use crate::model::{VarId, WordList};
use std::collections::HashMap;
use std::sync::Arc;

const NONE: u16 = u16::MAX;

/// The dense revise has not run here: a value may have no letter at the
/// position (outside the list), which the letter-by-letter revise never
/// removes, since it drops words by their letters.
const FRESH: i64 = 0;
/// Every value left has a letter at the position on both sides.
const CLEAN: i64 = 1;
/// One side was fixed and the other revised from it, so every word left
/// agrees (domains only shrink below): nothing to do.
const ENTAILED: i64 = 2;

/// The most letters an index keeps one bitset each for: the bitsets then
/// take at most four 64-bit words per word of the list.
pub(crate) const DENSE_MAX_LETTERS: usize = 256;

/// The words of one list by their letter at one position, as bitsets in the
/// layout of a domain starting at value `offset` with `nwords` bitset words.
pub(crate) struct LetterIndex {
    /// The distinct letters (code points) at the position, sorted.
    letters: Vec<u32>,
    /// `nwords` words per letter: bit `k` is set when the word `offset + k`
    /// has that letter. Empty (sparse index) past [`DENSE_MAX_LETTERS`].
    supports: Vec<u64>,
    nwords: usize,
    offset: i64,
    /// The letter (index in `letters`) of each bit, `NONE` outside the list.
    letter_of: Vec<u16>,
    /// `supports` holds one bitset per letter.
    dense: bool,
    /// A sparse index: letter `k`'s words (bit positions, ascending) are
    /// `members[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    members: Vec<u32>,
}

/// Letter indexes already built, by (list address, position, offset, nwords).
pub(crate) type IndexCache = HashMap<(usize, usize, i64, usize), Arc<LetterIndex>>;

impl LetterIndex {
    /// `None` when the position holds more distinct letters than an index
    /// can number (65,534): the crossing is then left to the formula propagator.
    pub(crate) fn new(
        list: &WordList,
        pos: usize,
        offset: i64,
        nwords: usize,
    ) -> Option<LetterIndex> {
        let letter_at = |bit: usize| -> Option<u32> {
            let value = usize::try_from(offset + bit as i64).ok()?;
            let w = list.words.get(value)?;
            let c = if w.is_ascii() {
                w.as_bytes().get(pos).map(|&b| char::from(b))
            } else {
                w.chars().nth(pos)
            };
            c.map(u32::from)
        };
        let raw: Vec<Option<u32>> = (0..nwords * 64).map(letter_at).collect();
        let mut letters: Vec<u32> = raw.iter().flatten().copied().collect();
        letters.sort_unstable();
        letters.dedup();
        if letters.len() >= NONE as usize {
            return None;
        }
        let dense = letters.len() <= DENSE_MAX_LETTERS;
        let mut supports = vec![0u64; if dense { letters.len() * nwords } else { 0 }];
        let mut letter_of = vec![NONE; nwords * 64];
        let mut starts = vec![0u32; if dense { 0 } else { letters.len() + 1 }];
        for (bit, c) in raw.iter().enumerate() {
            if let Some(c) = c {
                let k = letters.binary_search(c).unwrap_or(0);
                letter_of[bit] = k as u16;
                if dense {
                    supports[k * nwords + bit / 64] |= 1 << (bit % 64);
                } else {
                    starts[k + 1] += 1;
                }
            }
        }
        let mut members = Vec::new();
        if !dense {
            for k in 0..letters.len() {
                starts[k + 1] += starts[k];
            }
            let mut next = starts.clone();
            members = vec![0u32; starts[letters.len()] as usize];
            for (bit, &k) in letter_of.iter().enumerate() {
                if k != NONE {
                    members[next[k as usize] as usize] = bit as u32;
                    next[k as usize] += 1;
                }
            }
        }
        Some(LetterIndex {
            letters,
            supports,
            nwords,
            offset,
            letter_of,
            dense,
            starts,
            members,
        })
    }

    /// The index for a variable's current domain layout, from the cache if built.
    pub(crate) fn shared(
        cache: &mut IndexCache,
        list: &Arc<WordList>,
        pos: usize,
        d: &Domains,
        var: VarId,
    ) -> Option<Arc<LetterIndex>> {
        let (offset, nwords) = (d.offset(var), d.bits(var).len());
        let key = (Arc::as_ptr(list) as usize, pos, offset, nwords);
        if let Some(idx) = cache.get(&key) {
            return Some(Arc::clone(idx));
        }
        let idx = Arc::new(LetterIndex::new(list, pos, offset, nwords)?);
        cache.insert(key, Arc::clone(&idx));
        Some(idx)
    }

    /// Letter `k`'s bitset (a dense index only).
    #[inline]
    fn support(&self, k: usize) -> &[u64] {
        &self.supports[k * self.nwords..(k + 1) * self.nwords]
    }

    /// Whether the index keeps one bitset per letter.
    #[inline]
    pub(crate) fn dense(&self) -> bool {
        self.dense
    }

    /// Letter `k`'s words as bit positions (a sparse index only).
    #[inline]
    fn members(&self, k: usize) -> &[u32] {
        &self.members[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// The heap bytes the index takes (for tests that bound it).
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> usize {
        self.letters.len() * 4
            + self.supports.len() * 8
            + self.letter_of.len() * 2
            + (self.starts.len() + self.members.len()) * 4
    }

    /// How many distinct letters occur at the position.
    pub(crate) fn num_letters(&self) -> usize {
        self.letters.len()
    }

    /// The letter index of value `x`'s word, `None` outside the list.
    #[inline]
    pub(crate) fn letter_of(&self, x: i64) -> Option<usize> {
        let k = *self.letter_of.get(usize::try_from(x - self.offset).ok()?)?;
        (k != NONE).then_some(k as usize)
    }

    /// For each letter, how many values of `bits` (a domain in this index's
    /// layout) have it: a popcount per letter when dense, one pass over the
    /// domain when sparse.
    pub(crate) fn counts(&self, bits: &[u64]) -> Vec<u64> {
        if self.dense() {
            // Only the words between the first and the last nonzero one: a
            // domain deep in a count is a narrow band of a long list.
            let lo = bits.iter().position(|&b| b != 0).unwrap_or(bits.len());
            let hi = bits.iter().rposition(|&b| b != 0).map_or(lo, |h| h + 1);
            let bits = &bits[lo..hi];
            return (0..self.letters.len())
                .map(|k| {
                    self.support(k)[lo..hi]
                        .iter()
                        .zip(bits)
                        .map(|(s, b)| u64::from((s & b).count_ones()))
                        .sum()
                })
                .collect();
        }
        let mut counts = vec![0u64; self.letters.len()];
        for_each_bit(bits, 0, bits.len().saturating_sub(1), |i| {
            if let Some(&k) = self.letter_of.get(i).filter(|&&k| k != NONE) {
                counts[k as usize] += 1;
            }
        });
        counts
    }
}

/// Calls `f` with the position of every set bit of `bits[lo..=hi]`.
#[inline]
fn for_each_bit(bits: &[u64], lo: usize, hi: usize, mut f: impl FnMut(usize)) {
    for (w, &word) in bits.iter().enumerate().take(hi + 1).skip(lo) {
        let mut word = word;
        while word != 0 {
            f(w * 64 + word.trailing_zeros() as usize);
            word &= word - 1;
        }
    }
}

/// A crossing of two word variables: the letter indexes of both sides and
/// how their letters correspond. Shared by the propagator and the counting
/// table that lowering fills (`engine::crossings::Crossings`).
#[derive(Clone)]
pub(crate) struct Crossing {
    vars: [VarId; 2],
    idx: [Arc<LetterIndex>; 2],
    /// `map[s][k]`: the index, among the other side's letters, of side `s`'s letter `k`.
    map: [Vec<u16>; 2],
}

impl Crossing {
    pub(crate) fn new(a: VarId, ia: Arc<LetterIndex>, b: VarId, ib: Arc<LetterIndex>) -> Crossing {
        let map_to = |from: &LetterIndex, to: &LetterIndex| -> Vec<u16> {
            from.letters
                .iter()
                .map(|c| to.letters.binary_search(c).map_or(NONE, |k| k as u16))
                .collect()
        };
        let map = [map_to(&ia, &ib), map_to(&ib, &ia)];
        Crossing {
            vars: [a, b],
            idx: [ia, ib],
            map,
        }
    }

    pub(crate) fn vars(&self) -> [VarId; 2] {
        self.vars
    }

    /// Which side (0 or 1) `v` is on.
    pub(crate) fn side(&self, v: VarId) -> usize {
        usize::from(self.vars[0] != v)
    }

    /// The letter index of side `s`.
    pub(crate) fn letters_on(&self, s: usize) -> &LetterIndex {
        &self.idx[s]
    }

    /// Side `s`'s letter `k` as a letter index of the other side, if it has it.
    pub(crate) fn map(&self, s: usize, k: usize) -> Option<usize> {
        let m = self.map[s][k];
        (m != NONE).then_some(m as usize)
    }
}

/// The word intersection propagator over one [`Crossing`].
pub(crate) struct WordCross {
    /// Its own copy of the crossing (the letter indexes stay shared), not
    /// the shared `Arc`: every revise starts from the variables, and one
    /// pointer less to follow before reading their domains is measurable
    /// when the leaves of a crossword are enumerated one by one.
    c: Crossing,
    /// Scratch: the support mask being built.
    mask: Vec<u64>,
    /// For each side and letter, the bitset word where a word with that
    /// letter was last found in the side's domain (a residual support, as in
    /// AC-3rm): tested first, it usually still holds one, so a live letter
    /// costs one AND instead of a scan. Not trailed: any word index is a
    /// valid guess.
    residue: [Vec<u32>; 2],
    /// For each side, how many letters the last letter-by-letter search
    /// found newly dead (each cost a scan of the domain's range).
    dead: [u32; 2],
    /// For each side (dense indexes), one bit per letter known to have no
    /// word left in the side's domain, on the trail: domains only shrink
    /// down a branch, so a letter dead at a node stays dead below it and is
    /// never looked for again there, and backtracking revives it with the
    /// words. Without it every revise scanned the whole range of the domain
    /// for each dead letter, the dearest part of a revise deep in a count.
    known_dead: [RevWords; 2],
    /// For each side, the domain size at which its known-dead letters were
    /// last found exactly (the others all live), on the trail; 0 for none.
    /// Down a branch a domain only shrinks, so an equal size is the same
    /// domain: the side's letters need no look at all, which is the case of
    /// the side that did not change when its partner woke the propagator.
    exact_at: [RevInt; 2],
    /// On the trail, what is known of the dense revise: [`FRESH`], [`CLEAN`]
    /// or [`ENTAILED`].
    state: RevInt,
    /// Scratch: the letters found in a word-by-word pass.
    found: Vec<u64>,
    /// Scratch (dense): each side's live letters, one bit per letter.
    live: [Vec<u64>; 2],
    /// Scratch (dense): the letters of one side that the other lacks.
    drop: Vec<usize>,
    /// Sparse revise: `marks[k] == stamp` when letter `k` of the revised
    /// side is still possible (a stamp, so nothing is cleared per revise).
    marks: [Vec<u32>; 2],
    stamp: u32,
    /// Sparse revise: the marked letters.
    live_letters: Vec<u16>,
}

#[inline]
fn has_bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 != 0
}

impl WordCross {
    /// The propagator of `c`; its known-dead letters go on `d`'s trail
    /// (allocated here, while posting).
    pub(crate) fn new(c: &Crossing, d: &mut Domains) -> WordCross {
        let letter_words = |s: usize| c.idx[s].letters.len().div_ceil(64);
        let mut known_dead = |s: usize| {
            let n = if c.idx[s].dense() { letter_words(s) } else { 0 };
            d.trail.new_words(&vec![0; n])
        };
        let known_dead = [known_dead(0), known_dead(1)];
        let exact_at = [d.trail.new_int(0), d.trail.new_int(0)];
        let state = d.trail.new_int(FRESH);
        WordCross {
            residue: [
                vec![0; c.idx[0].letters.len()],
                vec![0; c.idx[1].letters.len()],
            ],
            dead: [0; 2],
            known_dead,
            exact_at,
            state,
            found: Vec::new(),
            live: [vec![0; letter_words(0)], vec![0; letter_words(1)]],
            drop: Vec::new(),
            marks: [
                vec![0; c.idx[0].letters.len()],
                vec![0; c.idx[1].letters.len()],
            ],
            stamp: 0,
            live_letters: Vec::new(),
            c: c.clone(),
            mask: Vec::new(),
        }
    }

    /// A revise over a sparse index (a huge alphabet): the letters
    /// of `vars[s]`'s words marked in one pass over its domain, then the
    /// other variable's words kept by their letter, walking whichever is
    /// shorter: its domain, or the word lists of the live letters.
    fn revise_sparse(&mut self, d: &mut Domains, s: usize) -> PResult {
        let WordCross {
            c,
            mask,
            marks,
            stamp,
            live_letters,
            ..
        } = self;
        let (va, vb) = (c.vars[s], c.vars[1 - s]);
        let (ia, ib) = (&c.idx[s], &c.idx[1 - s]);
        let (map, marks) = (&c.map[s], &mut marks[1 - s]);
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            marks.fill(0);
            *stamp = 1;
        }
        let stamp = *stamp;
        let range = |v: VarId, idx: &LetterIndex| {
            let lo = ((d.min(v) - idx.offset) / 64) as usize;
            let hi = ((d.max(v) - idx.offset) / 64) as usize;
            (lo, hi)
        };
        let (lo, hi) = range(va, ia);
        live_letters.clear();
        let mut listed = 0usize;
        for_each_bit(d.bits(va), lo, hi, |i| {
            let k = ia.letter_of[i];
            if k != NONE {
                let kb = map[k as usize];
                if kb != NONE && marks[kb as usize] != stamp {
                    marks[kb as usize] = stamp;
                    live_letters.push(kb);
                    listed += ib.members(kb as usize).len();
                }
            }
        });
        if live_letters.is_empty() {
            return Err(Fail);
        }
        let (blo, bhi) = range(vb, ib);
        if mask.len() != ib.nwords {
            mask.clear();
            mask.resize(ib.nwords, 0);
        }
        let by_lists = listed <= d.size(vb) as usize;
        if by_lists {
            for &kb in live_letters.iter() {
                for &i in ib.members(kb as usize) {
                    mask[i as usize / 64] |= 1 << (i % 64);
                }
            }
        } else {
            for_each_bit(d.bits(vb), blo, bhi, |i| {
                let k = ib.letter_of[i];
                if k != NONE && marks[k as usize] == stamp {
                    mask[i / 64] |= 1 << (i % 64);
                }
            });
        }
        let r = d.intersect(vb, mask);
        // The mask goes back to all zeros, at the words that were set.
        if by_lists {
            for &kb in live_letters.iter() {
                for &i in ib.members(kb as usize) {
                    mask[i as usize / 64] = 0;
                }
            }
        } else {
            mask[blo..=bhi].fill(0);
        }
        r?;
        Ok(())
    }
    /// Keeps in the other variable only the words that agree with some word
    /// of `vars[s]`, when one of the two is fixed (dense indexes).
    fn revise_fixed(&mut self, d: &mut Domains, s: usize) -> PResult {
        let c = &self.c;
        let (va, vb) = (c.vars[s], c.vars[1 - s]);
        let (ia, ib) = (&c.idx[s], &c.idx[1 - s]);
        let map = &c.map[s];
        if d.is_fixed(va) {
            let k = ia.letter_of[(d.min(va) - ia.offset) as usize];
            let kb = if k == NONE { NONE } else { map[k as usize] };
            if kb == NONE {
                return Err(Fail);
            }
            let support = ib.support(kb as usize);
            // Both fixed, as at most revisions near the leaves: one bit to
            // test, no call (the intersection would remove nothing).
            if d.is_fixed(vb) && ib.letter_of(d.min(vb)) == Some(kb as usize) {
                return Ok(());
            }
            d.intersect(vb, support)?;
            return Ok(());
        }
        debug_assert!(d.is_fixed(vb));
        // Only `b`'s own letter matters: is it still possible in `a`?
        let kb = ib.letter_of(d.min(vb));
        let ka = kb.and_then(|kb| {
            let m = c.map[1 - s][kb];
            (m != NONE).then_some(m as usize)
        });
        let bits = d.bits(va);
        match ka {
            Some(ka) if ia.support(ka).iter().zip(bits).any(|(x, y)| x & y != 0) => Ok(()),
            _ => Err(Fail),
        }
    }

    /// Fills `live[s]` with the letters still present in `vars[s]`'s domain
    /// (dense index), skipping the letters known dead and recording the
    /// ones found dead.
    fn find_live(&mut self, d: &mut Domains, s: usize) {
        let (v, idx) = (self.c.vars[s], &self.c.idx[s]);
        let known = self.known_dead[s];
        let n = idx.letters.len();
        // The letters of word `w` of a letter bitset.
        let all = |w: usize| {
            if (w + 1) * 64 <= n {
                !0
            } else {
                (1u64 << (n % 64)) - 1
            }
        };
        let live = &mut self.live[s];
        for (w, l) in live.iter_mut().enumerate() {
            *l = all(w) & !d.trail.word(known, w);
        }
        let size = d.size(v) as i64;
        if d.trail.int(self.exact_at[s]) == size {
            // The same domain as when the known-dead letters were last made
            // exact: the rest are live.
            return;
        }
        let candidates: usize = live.iter().map(|l| l.count_ones() as usize).sum();
        let bits = d.bits(v);
        let lo = ((d.min(v) - idx.offset) / 64) as usize;
        let hi = ((d.max(v) - idx.offset) / 64) as usize;
        let range = hi - lo + 1;
        // Word by word costs the domain's size plus its bitset words; letter
        // by letter, one residue test per candidate and a scan of the range
        // per letter newly dead (as many as last time, we guess). A word
        // costs about eight bitset words: its letter is a load from a table
        // that misses the cache, where the scans stream (measured: 1, 2, 4,
        // 8 and 16 tried on a themeless15 proof part, 8 best, 0.91 of 1's
        // time; crossword fills 0.96 to 0.99, counting 0.98).
        if 8 * size as usize + range <= candidates.max(self.dead[s] as usize * range) {
            if let [want] = live.as_mut_slice() {
                // At most 64 letters (an alphabet): the pass ends as soon as
                // every candidate has been seen, as in a revise where no
                // letter dies.
                let mut found = 0u64;
                for (w, &word) in bits.iter().enumerate().take(hi + 1).skip(lo) {
                    let mut word = word;
                    while word != 0 {
                        let k = idx.letter_of[w * 64 + word.trailing_zeros() as usize];
                        word &= word - 1;
                        if k != NONE {
                            found |= 1 << (k % 64);
                        }
                    }
                    if found & *want == *want {
                        break;
                    }
                }
                *want &= found;
            } else {
                let found = &mut self.found;
                found.clear();
                found.resize(live.len(), 0);
                for_each_bit(bits, lo, hi, |i| {
                    let k = idx.letter_of[i];
                    if k != NONE {
                        found[k as usize / 64] |= 1 << (k % 64);
                    }
                });
                for (l, f) in live.iter_mut().zip(found.iter()) {
                    *l &= f;
                }
            }
        } else {
            let residue = &mut self.residue[s];
            let mut newly = 0;
            for (w, lw) in live.iter_mut().enumerate() {
                let mut word = *lw;
                while word != 0 {
                    let k = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    let sup = idx.support(k);
                    let r = residue[k] as usize;
                    if (lo..=hi).contains(&r) && sup[r] & bits[r] != 0 {
                        continue;
                    }
                    match (lo..=hi).find(|&x| sup[x] & bits[x] != 0) {
                        Some(x) => residue[k] = x as u32,
                        None => {
                            *lw &= !(1 << (k % 64));
                            newly += 1;
                        }
                    }
                }
            }
            self.dead[s] = newly;
        }
        for (w, &l) in live.iter().enumerate() {
            let dead = all(w) & !l;
            if dead != d.trail.word(known, w) {
                d.trail.set_word(known, w, dead);
            }
        }
        d.trail.set_int(self.exact_at[s], size);
    }

    /// Keeps on each side only the values with a letter at the position
    /// (dense indexes): the words of the list.
    fn keep_lettered(&mut self, d: &mut Domains) -> PResult {
        for s in 0..2 {
            let idx = &self.c.idx[s];
            self.mask.clear();
            self.mask.resize(idx.nwords, 0);
            for k in 0..idx.letters.len() {
                for (m, x) in self.mask.iter_mut().zip(idx.support(k)) {
                    *m |= x;
                }
            }
            d.intersect(self.c.vars[s], &self.mask)?;
        }
        Ok(())
    }

    /// Both sides open, dense indexes: the letters each side still has,
    /// then the words of a letter the other side lacks leave their side.
    /// Removing a letter's words changes no other letter's presence, so
    /// afterwards both sides hold the same letters (the pair's fixpoint), and
    /// a revise that removes nothing, as most do, costs one residue test per
    /// letter and no pass over the domains.
    fn revise_letters(&mut self, d: &mut Domains) -> PResult {
        self.find_live(d, 0);
        self.find_live(d, 1);
        for s in 0..2 {
            if self.live[s].iter().all(|&l| l == 0) {
                return Err(Fail);
            }
        }
        for s in 0..2 {
            let map = &self.c.map[s];
            let other = &self.live[1 - s];
            self.drop.clear();
            let mut live = 0;
            for (w, &word) in self.live[s].iter().enumerate() {
                let mut word = word;
                live += word.count_ones() as usize;
                while word != 0 {
                    let k = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if map[k] == NONE || !has_bit(other, map[k] as usize) {
                        self.drop.push(k);
                    }
                }
            }
            if self.drop.is_empty() {
                continue;
            }
            let (v, idx) = (self.c.vars[s], &self.c.idx[s]);
            if self.drop.len() == live {
                return Err(Fail);
            }
            let lo = ((d.min(v) - idx.offset) / 64) as usize;
            let hi = ((d.max(v) - idx.offset) / 64) as usize;
            if self.mask.len() != idx.nwords {
                self.mask.clear();
                self.mask.resize(idx.nwords, 0);
            }
            self.mask[lo..=hi].fill(!0);
            for &k in &self.drop {
                for (m, s) in self.mask[lo..=hi].iter_mut().zip(&idx.support(k)[lo..=hi]) {
                    *m &= !s;
                }
            }
            d.intersect(v, &self.mask)?;
            let known = self.known_dead[s];
            for &k in &self.drop {
                let w = d.trail.word(known, k / 64);
                d.trail.set_word(known, k / 64, w | 1 << (k % 64));
            }
            // Exact again for the domain left, unless the other side is the
            // same variable (`a[i] == a[j]`), whose removals this side's
            // letters did not see.
            if self.c.vars[0] != self.c.vars[1] {
                d.trail.set_int(self.exact_at[s], d.size(v) as i64);
            }
        }
        Ok(())
    }
}

impl Propagator for WordCross {
    fn vars(&self) -> &[VarId] {
        &self.c.vars
    }
    fn priority(&self) -> Priority {
        Priority::Binary
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let [a, b] = self.c.vars;
        if !(self.c.idx[0].dense() && self.c.idx[1].dense()) {
            // Either order reaches the fixpoint; from the smaller domain
            // first, the second revise walks a domain the first one shrank.
            let first = usize::from(d.size(b) < d.size(a));
            self.revise_sparse(d, first)?;
            return self.revise_sparse(d, 1 - first);
        }
        match d.trail.int(self.state) {
            ENTAILED => return Ok(()),
            FRESH => {
                self.keep_lettered(d)?;
                d.trail.set_int(self.state, CLEAN);
            }
            _ => {}
        }
        if d.is_fixed(a) || d.is_fixed(b) {
            self.revise_fixed(d, 0)?;
            self.revise_fixed(d, 1)?;
            d.trail.set_int(self.state, ENTAILED);
            return Ok(());
        }
        self.revise_letters(d)
    }
    /// After a revise from a fixed side, every word left on the other side
    /// has the fixed word's letter.
    fn consistent_on_last_open(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(words: &[&str]) -> Arc<WordList> {
        Arc::new(WordList {
            name: "t".into(),
            words: words.iter().map(|w| w.to_string()).collect(),
            scores: Vec::new(),
        })
    }

    /// A seeded generator of numbers below `n` (a linear congruence).
    fn lcg(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    /// Up to `count` distinct random 3-letter words over the first
    /// `letters` letters, sorted.
    fn random_list(next: &mut impl FnMut(u64) -> u64, count: usize, letters: u64) -> Arc<WordList> {
        let mut words: Vec<String> = (0..count)
            .map(|_| {
                (0..3)
                    .map(|_| (b'a' + next(letters) as u8) as char)
                    .collect()
            })
            .collect();
        words.sort();
        words.dedup();
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        list(&refs)
    }

    /// Brute force: the arc-consistent domains of `a[i] == b[j]`.
    fn brute(la: &WordList, i: usize, lb: &WordList, j: usize) -> (Vec<i64>, Vec<i64>) {
        let ch = |w: &str, p: usize| w.chars().nth(p);
        let keep = |l1: &WordList, p1: usize, l2: &WordList, p2: usize| {
            (0..l1.words.len() as i64)
                .filter(|&x| {
                    l2.words
                        .iter()
                        .any(|w| ch(w, p2) == ch(&l1.words[x as usize], p1))
                })
                .collect::<Vec<_>>()
        };
        (keep(la, i, lb, j), keep(lb, j, la, i))
    }

    #[test]
    fn revise_matches_brute_force() {
        let la = list(&["abc", "bcd", "cde", "xyz"]);
        let lb = list(&["ca", "cb", "dd", "zq", "qq"]);
        for i in 0..3 {
            for j in 0..2 {
                let mut d = Domains::default();
                let a = d.add_var(&(0..4).collect::<Vec<_>>());
                let b = d.add_var(&(0..5).collect::<Vec<_>>());
                let mut cache = IndexCache::new();
                let ia = LetterIndex::shared(&mut cache, &la, i, &d, a).unwrap();
                let ib = LetterIndex::shared(&mut cache, &lb, j, &d, b).unwrap();
                let mut p = WordCross::new(&Crossing::new(a, ia, b, ib), &mut d);
                let (ea, eb) = brute(&la, i, &lb, j);
                let r = p.propagate(&mut d);
                if ea.is_empty() {
                    assert!(r.is_err());
                    continue;
                }
                assert!(r.is_ok());
                assert_eq!(d.values(a).collect::<Vec<_>>(), ea, "a at {i},{j}");
                assert_eq!(d.values(b).collect::<Vec<_>>(), eb, "b at {i},{j}");
            }
        }
    }

    #[test]
    fn fixed_words_are_checked() {
        let la = list(&["ab", "cd"]);
        let mut d = Domains::default();
        let a = d.add_var(&[0, 1]);
        let b = d.add_var(&[1]);
        let mut cache = IndexCache::new();
        let ia = LetterIndex::shared(&mut cache, &la, 0, &d, a).unwrap();
        let ib = LetterIndex::shared(&mut cache, &la, 1, &d, b).unwrap();
        // a[1] == b[2] with b = "cd": a must start with d; none does.
        let mut p = WordCross::new(&Crossing::new(a, ia, b, ib), &mut d);
        assert!(p.propagate(&mut d).is_err());
    }

    /// Two-letter words over `n` distinct letters (CJK ideographs of plane 2), each
    /// letter starting one word and ending another.
    fn huge_alphabet(n: u32) -> Arc<WordList> {
        let letter = |i: u32| char::from_u32(0x20000 + i % n).unwrap();
        let words: Vec<String> = (0..n)
            .map(|i| format!("{}{}", letter(i), letter(i * 7 + 1)))
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        list(&words)
    }

    /// Past `DENSE_MAX_LETTERS` the index keeps no bitset per letter, and
    /// the sparse revise gives the arc-consistent domains on random ones.
    #[test]
    fn a_huge_alphabet_revises_sparsely_and_exactly() {
        let l = huge_alphabet(600);
        let n = l.words.len() as i64;
        let ch = |x: i64, p: usize| l.words[x as usize].chars().nth(p);
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for trial in 0..40 {
            let keep = 1 + trial % 5;
            let mut pick = || (0..n).filter(|_| next() % 6 < keep).collect::<Vec<_>>();
            let (da, db) = (pick(), pick());
            if da.is_empty() || db.is_empty() {
                continue;
            }
            let mut d = Domains::default();
            let a = d.add_var(&da);
            let b = d.add_var(&db);
            let mut cache = IndexCache::new();
            let ia = LetterIndex::shared(&mut cache, &l, 1, &d, a).unwrap();
            let ib = LetterIndex::shared(&mut cache, &l, 0, &d, b).unwrap();
            assert!(!ia.dense() && !ib.dense());
            // a[2] == b[1].
            let ea: Vec<i64> = da
                .iter()
                .copied()
                .filter(|&x| db.iter().any(|&y| ch(x, 1) == ch(y, 0)))
                .collect();
            let eb: Vec<i64> = db
                .iter()
                .copied()
                .filter(|&y| da.iter().any(|&x| ch(x, 1) == ch(y, 0)))
                .collect();
            let mut p = WordCross::new(&Crossing::new(a, ia, b, ib), &mut d);
            let r = p.propagate(&mut d);
            if ea.is_empty() {
                assert!(r.is_err(), "trial {trial}");
                continue;
            }
            assert!(r.is_ok(), "trial {trial}");
            assert_eq!(d.values(a).collect::<Vec<_>>(), ea, "a, trial {trial}");
            assert_eq!(d.values(b).collect::<Vec<_>>(), eb, "b, trial {trial}");
            let counts = p.c.letters_on(1).counts(d.bits(b));
            let by_brute = |k: usize| {
                eb.iter()
                    .filter(|&&y| ch(y, 0).map(u32::from) == Some(p.c.idx[1].letters[k]))
                    .count() as u64
            };
            assert!(counts.iter().enumerate().all(|(k, &c)| c == by_brute(k)));
        }
    }

    /// The index of a 40,000-letter alphabet takes memory linear in the
    /// list (one bitset per letter took 200 MB).
    #[test]
    fn a_huge_alphabet_index_is_linear_in_the_list() {
        let l = huge_alphabet(40_000);
        let mut d = Domains::default();
        let a = d.add_var(&(0..40_000).collect::<Vec<_>>());
        let idx = LetterIndex::new(&l, 0, d.offset(a), d.bits(a).len()).unwrap();
        assert_eq!(idx.num_letters(), 40_000);
        assert!(
            idx.heap_bytes() <= 16 * 40_000,
            "{} bytes",
            idx.heap_bytes()
        );
    }

    /// Both sides fixed (the revision that skips the intersection): words
    /// that agree pass untouched, words that do not fail.
    #[test]
    fn both_fixed_agree_or_fail() {
        let la = list(&["ab", "bc", "cd"]);
        for (wa, wb, agree) in [(0, 1, true), (1, 2, true), (0, 2, false), (2, 0, false)] {
            let mut d = Domains::default();
            let a = d.add_var(&[wa]);
            let b = d.add_var(&[wb]);
            let mut cache = IndexCache::new();
            let ia = LetterIndex::shared(&mut cache, &la, 1, &d, a).unwrap();
            let ib = LetterIndex::shared(&mut cache, &la, 0, &d, b).unwrap();
            // a[2] == b[1]: the last letter of a starts b.
            let mut p = WordCross::new(&Crossing::new(a, ia, b, ib), &mut d);
            let r = p.propagate(&mut d);
            assert_eq!(r.is_ok(), agree, "{wa} {wb}");
            if agree {
                assert_eq!((d.value(a), d.value(b)), (Some(wa), Some(wb)));
            }
        }
    }

    /// The harness's random domains (values -3..=4, so some lie outside the
    /// list and have no letter) and decisions: `a[1] == b[2]` is domain
    /// consistent, and correct and checking on `a[1] == a[2]`.
    #[test]
    fn harness_checks_domain_consistency() {
        use crate::engine::harness::{Strength, check_random};
        let l = list(&["ab", "ba", "ca", "cc", "bb"]);
        let letter = |x: i64, p: usize| {
            usize::try_from(x)
                .ok()
                .and_then(|x| l.words.get(x))
                .map(|w| w.as_bytes()[p])
        };
        check_random(
            "wordcross",
            Strength::Domain,
            2,
            |d, v| {
                let mut cache = IndexCache::new();
                let ia = LetterIndex::shared(&mut cache, &l, 0, d, v[0])?;
                let ib = LetterIndex::shared(&mut cache, &l, 1, d, v[1])?;
                let c = Crossing::new(v[0], ia, v[1], ib);
                Some(Box::new(WordCross::new(&c, d)) as Box<dyn Propagator>)
            },
            |t| letter(t[0], 0).is_some() && letter(t[0], 0) == letter(t[1], 1),
        );
    }

    /// `find_live` finds exactly the letters left in a domain by either of
    /// its passes, word by word (which ends once every candidate is seen)
    /// and letter by letter, on a domain over several bitset words that
    /// shrinks step by step as down a branch.
    #[test]
    fn live_letters_are_exact_by_either_pass() {
        let mut next = lcg(7);
        for trial in 0..40 {
            // Some 170 words, three bitset words.
            let l = random_list(&mut next, 300, 6);
            let n = l.words.len() as i64;
            let mut d = Domains::default();
            let a = d.add_var(&(0..n).collect::<Vec<_>>());
            let b = d.add_var(&(0..n).collect::<Vec<_>>());
            let mut cache = IndexCache::new();
            let ia = LetterIndex::shared(&mut cache, &l, 0, &d, a).unwrap();
            let ib = LetterIndex::shared(&mut cache, &l, 1, &d, b).unwrap();
            let mut p = WordCross::new(&Crossing::new(a, ia, b, ib), &mut d);
            for step in 0..12 {
                // Keep each word with probability 3/4, then 2/3.
                let odds = if step < 6 { 4 } else { 3 };
                let keep: Vec<i64> = d.values(a).filter(|_| next(odds) != 0).collect();
                if keep.is_empty() {
                    break;
                }
                let mut mask = vec![0u64; d.bits(a).len()];
                for &x in &keep {
                    mask[x as usize / 64] |= 1 << (x % 64);
                }
                d.intersect(a, &mask).unwrap();
                let idx = Arc::clone(&p.c.idx[0]);
                let mut brute = 0u64;
                for x in d.values(a) {
                    brute |= 1 << idx.letter_of(x).unwrap();
                }
                for by_words in [true, false] {
                    // Forget what is known, so that the pass finds it all.
                    let known = p.known_dead[0];
                    d.trail.set_word(known, 0, 0);
                    d.trail.set_int(p.exact_at[0], 0);
                    p.dead[0] = if by_words { 1 << 20 } else { 0 };
                    p.find_live(&mut d, 0);
                    assert_eq!(
                        p.live[0][0], brute,
                        "trial {trial}, step {step}, word by word: {by_words}"
                    );
                }
            }
        }
    }

    /// Random dives into a triangle of crossings over a random list, with
    /// backtracking: after every decision and after every restore, the
    /// domains are exactly the pairwise arc-consistent fixpoint computed by
    /// brute force. The known-dead letters, the sizes they are exact at and
    /// the entailment live on the trail; a letter wrongly kept dead after a
    /// restore (words of it back in the domain) would prune the other side
    /// too much, one wrongly taken for live too little.
    #[test]
    fn dives_and_restores_stay_at_the_brute_fixpoint() {
        use crate::engine::harness::Harness;
        let mut next = lcg(11);
        for trial in 0..30 {
            let l = random_list(&mut next, 90, 5);
            let n = l.words.len() as i64;
            let mut h = Harness::new();
            let vars: Vec<VarId> = (0..3).map(|_| h.range(0, n - 1)).collect();
            // (x, position in x, y, position in y): a triangle.
            let edges: Vec<(usize, usize, usize, usize)> = (0..3)
                .map(|e| (e, next(3) as usize, (e + 1) % 3, next(3) as usize))
                .collect();
            let mut cache = IndexCache::new();
            for &(x, px, y, py) in &edges {
                let d = &mut h.engine.doms;
                let ix = LetterIndex::shared(&mut cache, &l, px, d, vars[x]).unwrap();
                let iy = LetterIndex::shared(&mut cache, &l, py, d, vars[y]).unwrap();
                let c = Crossing::new(vars[x], ix, vars[y], iy);
                let p = WordCross::new(&c, d);
                h.engine.add_prop(Box::new(p));
            }
            let at = |x: i64, p: usize| l.words[x as usize].as_bytes()[p];
            // The pairwise arc-consistent fixpoint of the given domains.
            let brute = |mut doms: Vec<Vec<i64>>| -> Option<Vec<Vec<i64>>> {
                loop {
                    let mut changed = false;
                    for &(x, px, y, py) in &edges {
                        let keep_x: Vec<i64> = doms[x]
                            .iter()
                            .copied()
                            .filter(|&u| doms[y].iter().any(|&w| at(u, px) == at(w, py)))
                            .collect();
                        let keep_y: Vec<i64> = doms[y]
                            .iter()
                            .copied()
                            .filter(|&w| keep_x.iter().any(|&u| at(u, px) == at(w, py)))
                            .collect();
                        changed |= keep_x.len() < doms[x].len() || keep_y.len() < doms[y].len();
                        doms[x] = keep_x;
                        doms[y] = keep_y;
                    }
                    if doms.iter().any(Vec::is_empty) {
                        return None;
                    }
                    if !changed {
                        return Some(doms);
                    }
                }
            };
            let snap = |h: &Harness| vars.iter().map(|&v| h.values(v)).collect::<Vec<_>>();
            let expect = brute(snap(&h));
            let r = h.engine.propagate_root();
            assert_eq!(r.ok().map(|_| snap(&h)), expect, "trial {trial}, root");
            if r.is_err() {
                continue;
            }
            // A stack of checkpoints and the domains at each.
            let mut stack = vec![(h.engine.doms.checkpoint(), snap(&h))];
            for step in 0..60 {
                let down = next(3) > 0 && stack.len() < 6;
                if !down {
                    if stack.len() > 1 {
                        stack.pop();
                    }
                    let (cp, doms) = stack.last().unwrap().clone();
                    h.engine.doms.restore(cp);
                    assert_eq!(snap(&h), doms, "trial {trial}, step {step}, restored");
                    continue;
                }
                let v = vars[next(3) as usize];
                let values = h.values(v);
                if values.len() < 2 {
                    continue;
                }
                let pick = values[next(values.len() as u64) as usize];
                let cp = h.engine.doms.checkpoint();
                // Remove a value or a slice of the domain, or fix it.
                let decided = match next(3) {
                    0 => h.engine.doms.fix(v, pick),
                    1 => h.engine.doms.remove(v, pick),
                    _ => h.engine.doms.set_max(v, pick),
                };
                assert!(decided.is_ok());
                let expect = brute(snap(&h));
                let r = h.engine.fixpoint();
                assert_eq!(
                    r.ok().map(|_| snap(&h)),
                    expect,
                    "trial {trial}, step {step}"
                );
                match r {
                    Ok(()) => stack.push((h.engine.doms.checkpoint(), snap(&h))),
                    Err(_) => {
                        h.engine.doms.restore(cp);
                    }
                }
            }
        }
    }
}
