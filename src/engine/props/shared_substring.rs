//! No two word variables hold words sharing a substring of more than `k`
//! letters (`max_shared_substring`, model/globals/shared_substring.rs).
//!
//! Every word of each list is cut into its windows of `k + 1` letters (its
//! *grams*, numbered over all the lists), and each list keeps an inverted
//! index, gram to the words having it. When a variable is fixed, the words
//! having one of its word's grams leave every other variable (forward
//! checking, as `ingrid_core` does with its dupe index); a fixed variable
//! whose word shares a gram fails. A trailed bit per variable says its
//! fixed word was already propagated, so a run only looks at the newly
//! fixed ones.

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::engine::trail::RevWords;
use crate::model::{VarId, WordList};
use std::collections::HashMap;
use std::sync::Arc;

/// The grams of one word list.
struct GramList {
    /// The grams of word `w` (sorted, distinct): `grams[starts[w]..starts[w + 1]]`.
    starts: Vec<u32>,
    grams: Vec<u32>,
    /// `(gram, word)` for every gram of every word, sorted: the words having
    /// a gram are one run.
    inverted: Vec<(u32, u32)>,
}

impl GramList {
    fn grams_of(&self, w: i64) -> &[u32] {
        match usize::try_from(w) {
            Ok(w) if w + 1 < self.starts.len() => {
                &self.grams[self.starts[w] as usize..self.starts[w + 1] as usize]
            }
            _ => &[],
        }
    }

    /// The words having gram `g`.
    fn words_with(&self, g: u32) -> impl Iterator<Item = u32> + '_ {
        let lo = self.inverted.partition_point(|&(h, _)| h < g);
        self.inverted[lo..]
            .iter()
            .take_while(move |&&(h, _)| h == g)
            .map(|&(_, w)| w)
    }
}

pub(crate) struct SharedSubstrings {
    vars: Vec<VarId>,
    /// Each variable's list (an index into `lists`).
    list_of: Vec<usize>,
    lists: Vec<GramList>,
    /// Bit `i`: variable `i`'s fixed word was propagated (trailed).
    done: RevWords,
    /// Scratch: values to remove, as bit positions.
    gone: Vec<i64>,
}

impl SharedSubstrings {
    /// `vars[i]` holds a word of `lists[i]`; no two share more than `k` letters in a row.
    pub(crate) fn new(
        d: &mut Domains,
        vars: Vec<VarId>,
        lists: &[Arc<WordList>],
        k: usize,
    ) -> Self {
        let w = k + 1;
        let mut distinct: Vec<&Arc<WordList>> = Vec::new();
        let list_of: Vec<usize> = lists
            .iter()
            .map(|l| match distinct.iter().position(|m| Arc::ptr_eq(m, l)) {
                Some(i) => i,
                None => {
                    distinct.push(l);
                    distinct.len() - 1
                }
            })
            .collect();
        let mut ids: HashMap<&str, u32> = HashMap::new();
        let mut built = Vec::with_capacity(distinct.len());
        let mut bounds: Vec<usize> = Vec::new();
        for list in &distinct {
            let mut starts = Vec::with_capacity(list.words.len() + 1);
            let mut grams: Vec<u32> = Vec::new();
            starts.push(0u32);
            for word in &list.words {
                bounds.clear();
                bounds.extend(word.char_indices().map(|(i, _)| i));
                bounds.push(word.len());
                let from = grams.len();
                for s in 0..bounds.len().saturating_sub(w) {
                    let g = &word[bounds[s]..bounds[s + w]];
                    let next = ids.len() as u32;
                    grams.push(*ids.entry(g).or_insert(next));
                }
                grams[from..].sort_unstable();
                let mut kept = from;
                for i in from..grams.len() {
                    if i == from || grams[i] != grams[kept - 1] {
                        grams[kept] = grams[i];
                        kept += 1;
                    }
                }
                grams.truncate(kept);
                starts.push(grams.len() as u32);
            }
            let mut inverted = Vec::with_capacity(grams.len());
            for wi in 0..list.words.len() {
                for &g in &grams[starts[wi] as usize..starts[wi + 1] as usize] {
                    inverted.push((g, wi as u32));
                }
            }
            inverted.sort_unstable();
            built.push(GramList {
                starts,
                grams,
                inverted,
            });
        }
        let done = d.trail.new_words(&vec![0u64; vars.len().div_ceil(64)]);
        SharedSubstrings {
            vars,
            list_of,
            lists: built,
            done,
            gone: Vec::new(),
        }
    }

    fn grams(&self, i: usize, w: i64) -> &[u32] {
        self.lists[self.list_of[i]].grams_of(w)
    }

    /// Whether two sorted gram lists meet.
    fn meet(a: &[u32], b: &[u32]) -> bool {
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    /// Variable `i` is fixed to `w`: the others lose the words sharing a gram with it.
    fn fixed(&mut self, d: &mut Domains, i: usize, w: i64) -> PResult {
        if self.grams(i, w).is_empty() {
            return Ok(());
        }
        for j in 0..self.vars.len() {
            if j == i {
                continue;
            }
            let vj = self.vars[j];
            if let Some(u) = d.value(vj) {
                // The same variable twice holds the same word twice.
                if vj == self.vars[i] || Self::meet(self.grams(i, w), self.grams(j, u)) {
                    return Err(Fail);
                }
                continue;
            }
            let mut gone = std::mem::take(&mut self.gone);
            gone.clear();
            let other = &self.lists[self.list_of[j]];
            for &g in self.grams(i, w) {
                gone.extend(other.words_with(g).map(i64::from));
            }
            let r = remove_all(d, vj, &mut gone);
            self.gone = gone;
            r?;
        }
        Ok(())
    }
}

/// Removes the values `gone` from `v` (a chunk of 64 at a time on a bitset).
fn remove_all(d: &mut Domains, v: VarId, gone: &mut [i64]) -> PResult {
    if gone.is_empty() {
        return Ok(());
    }
    if !d.is_bitset(v) {
        for &x in gone.iter() {
            d.remove(v, x)?;
        }
        return Ok(());
    }
    let (off, nbits) = (d.offset(v), d.bits(v).len() as i64 * 64);
    gone.sort_unstable();
    let mut chunk = -1i64;
    let mut mask = 0u64;
    for &x in gone.iter() {
        let bit = x - off;
        if bit < 0 || bit >= nbits {
            continue;
        }
        if bit / 64 != chunk {
            if mask != 0 {
                d.remove_window(v, chunk * 64, mask)?;
            }
            chunk = bit / 64;
            mask = 0;
        }
        mask |= 1 << (bit % 64);
    }
    if mask != 0 {
        d.remove_window(v, chunk * 64, mask)?;
    }
    Ok(())
}

impl Propagator for SharedSubstrings {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn subscribe(&self, s: &mut Subscriptions) {
        s.wake_all(&self.vars, event::FIX);
    }

    fn priority(&self) -> Priority {
        Priority::Slow
    }

    fn propagate(&mut self, d: &mut Domains) -> PResult {
        // Fixing a variable may fix others (a last word left): to a fixpoint.
        loop {
            let mut any = false;
            for i in 0..self.vars.len() {
                let Some(w) = d.value(self.vars[i]) else {
                    continue;
                };
                let word = d.trail.word(self.done, i / 64);
                if word >> (i % 64) & 1 == 1 {
                    continue;
                }
                d.trail.set_word(self.done, i / 64, word | 1 << (i % 64));
                self.fixed(d, i, w)?;
                any = true;
            }
            if !any {
                return Ok(());
            }
        }
    }

    fn violated(&mut self, d: &Domains) -> bool {
        let fixed: Vec<(usize, i64)> = (0..self.vars.len())
            .filter_map(|i| d.value(self.vars[i]).map(|w| (i, w)))
            .collect();
        fixed.iter().enumerate().any(|(a, &(i, w))| {
            fixed[a + 1..].iter().any(|&(j, u)| {
                let (gi, gj) = (self.grams(i, w), self.grams(j, u));
                !gi.is_empty() && (self.vars[i] == self.vars[j] || Self::meet(gi, gj))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Strength, check_random};
    use crate::model::globals::holds;

    /// Eight words over a, b, c, indexed 0..=7 (the harness draws -3..=4).
    const WORDS: [&str; 8] = ["abc", "bca", "cab", "aab", "bba", "abb", "cca", "acc"];

    fn list() -> Arc<WordList> {
        Arc::new(WordList {
            name: "t".into(),
            words: WORDS.iter().map(|w| w.to_string()).collect(),
            scores: Vec::new(),
        })
    }

    /// Values off the list (the negative ones) hold no word: they share nothing.
    fn meaning(k: i64, t: &[i64]) -> bool {
        let on: Vec<&str> = t
            .iter()
            .filter_map(|&w| usize::try_from(w).ok().and_then(|w| WORDS.get(w)).copied())
            .collect();
        let letters: Vec<i64> = on
            .iter()
            .flat_map(|w| w.chars().map(|c| c as i64))
            .collect();
        holds::max_shared_substring(k, &vec![3; on.len()], &letters)
    }

    #[test]
    fn checking_and_correct_against_brute_force() {
        for k in [0usize, 1, 2] {
            for arity in [2, 3] {
                let l = list();
                check_random(
                    &format!("shared_substring k={k} arity={arity}"),
                    Strength::Check,
                    arity,
                    move |d, vs| {
                        let lists = vec![Arc::clone(&l); vs.len()];
                        Some(Box::new(SharedSubstrings::new(d, vs.to_vec(), &lists, k))
                            as Box<dyn Propagator>)
                    },
                    move |t| meaning(k as i64, t),
                );
            }
        }
    }
}
