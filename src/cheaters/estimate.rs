//! How likely a grid is to fill, for ranking cheater blocks: the expected
//! number of fills if each slot's letters were drawn independently from its
//! words. The product of the slots' word counts and, for each cell where
//! two slots cross, the chance that their letters there agree (the sum over
//! letters of the product of their shares at those positions); a given
//! letter counts as the chance of each slot having it there. A first moment:
//! it ignores how the letters of one word hang together, so it ranks grids
//! and proves nothing. On themeless15 (benches/crossword-grids) the two-pair
//! block sets it ranks first each fill in under 2 s where the grid as drawn
//! fills in no run (docs/crossword-measured.md, "How likely is a fill").

use crate::model::{CrosswordLayout, Model, VarKind, WordList};
use std::collections::HashMap;

/// The largest grid whose blocks are ranked by the estimate (32 by 32,
/// past any crossword's 21 or 27): ranking reads the whole grid once a
/// cell, quadratic in its cells.
pub(crate) const MOST_CELLS: usize = 1024;

/// How likely a fill is with blocks at the cells given (log10).
pub(crate) type Likely<'a> = dyn Fn(&[usize]) -> f64 + 'a;

/// How likely a fill of `layout` (a crossword of `model`) is with blocks at
/// the cells given: the log10 of [`expected_fills`], over the lengths the
/// grid as drawn has (the model keeps one list a length: a set that makes
/// another length has none, minus infinity, and goes last). `None` for a
/// grid without word slots or larger than [`MOST_CELLS`].
pub(crate) fn ranking<'a>(
    model: &'a Model,
    layout: &'a CrosswordLayout,
) -> Option<Box<Likely<'a>>> {
    let lists: Vec<&WordList> = layout
        .slots
        .iter()
        .filter_map(|s| match &model.vars[s.var].kind {
            VarKind::Word(list) => Some(&**list),
            _ => None,
        })
        .collect();
    if lists.is_empty() || layout.width * layout.height > MOST_CELLS {
        return None;
    }
    let letters = Letters::of(lists);
    Some(Box::new(move |cells: &[usize]| {
        let mut open = layout.open.clone();
        for &c in cells {
            open[c] = false;
        }
        expected_fills(layout, &open, &letters)
    }))
}

/// By length: how many words, and for each position each letter's share
/// (while counting, its count).
type ByLength = HashMap<usize, (f64, Vec<HashMap<char, f64>>)>;

/// A word list's letters by length and position.
pub(crate) struct Letters {
    by_length: ByLength,
}

impl Letters {
    /// The letters of the words of `lists` (a crossword's lists, one a
    /// length: each length is read from its first list only).
    pub(crate) fn of<'a>(lists: impl IntoIterator<Item = &'a WordList>) -> Letters {
        let mut counts = ByLength::new();
        let mut read = std::collections::HashSet::new();
        for list in lists {
            let Some(len) = list.words.first().map(|w| w.chars().count()) else {
                continue;
            };
            if read.insert(len) {
                count(&mut counts, list);
            }
        }
        for (n, at) in counts.values_mut() {
            for shares in at.iter_mut() {
                for v in shares.values_mut() {
                    *v /= *n;
                }
            }
        }
        Letters { by_length: counts }
    }

    /// The share of the words of `len` letters with `c` at position `i`.
    fn share(&self, len: usize, i: usize, c: char) -> f64 {
        self.shares(len, i)
            .and_then(|s| s.get(&c).copied())
            .unwrap_or(0.0)
    }

    fn shares(&self, len: usize, i: usize) -> Option<&HashMap<char, f64>> {
        self.by_length.get(&len).and_then(|(_, at)| at.get(i))
    }
}

/// Adds the words of `list` to the counts by length and position.
fn count(counts: &mut ByLength, list: &WordList) {
    for word in &list.words {
        let letters: Vec<char> = word.chars().map(lower).collect();
        let (n, at) = counts
            .entry(letters.len())
            .or_insert_with(|| (0.0, vec![HashMap::new(); letters.len()]));
        *n += 1.0;
        for (i, &c) in letters.iter().enumerate() {
            *at[i].entry(c).or_insert(0.0) += 1.0;
        }
    }
}

fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// log10 of the expected number of fills of `layout` with the open cells
/// `open` (its blocks and more), over `letters`; minus infinity when some
/// slot has no word of its length or two crossing slots share no letter.
pub(crate) fn expected_fills(layout: &CrosswordLayout, open: &[bool], letters: &Letters) -> f64 {
    let at = |c: usize, across: bool| slot_at(layout, open, c, across);
    let mut total = 0.0;
    for c in (0..open.len()).filter(|&c| open[c]) {
        let (a, d) = (at(c, true), at(c, false));
        // Each slot once, at its first cell.
        for (len, i) in [a, d].into_iter().flatten() {
            if i == 0 {
                let n = letters.by_length.get(&len).map_or(0.0, |(n, _)| *n);
                total += n.log10();
            }
        }
        let chance = match (a, d, layout.given[c].map(lower)) {
            (Some((la, ia)), Some((ld, id)), None) => {
                match (letters.shares(la, ia), letters.shares(ld, id)) {
                    (Some(sa), Some(sd)) => sa
                        .iter()
                        .map(|(ch, p)| p * sd.get(ch).copied().unwrap_or(0.0))
                        .sum(),
                    _ => 0.0,
                }
            }
            (Some((la, ia)), Some((ld, id)), Some(g)) => {
                letters.share(la, ia, g) * letters.share(ld, id, g)
            }
            (Some((l, i)), None, Some(g)) | (None, Some((l, i)), Some(g)) => letters.share(l, i, g),
            _ => 1.0,
        };
        total += chance.log10();
    }
    total
}

/// The slot through cell `c` across (or down) in the grid with `open`
/// cells: its length and `c`'s position in it; `None` for a run of one.
fn slot_at(
    layout: &CrosswordLayout,
    open: &[bool],
    c: usize,
    across: bool,
) -> Option<(usize, usize)> {
    let w = layout.width;
    let (x, y) = (c % w, c / w);
    let (pos, along) = if across { (x, w) } else { (y, layout.height) };
    let cell = |p: usize| if across { y * w + p } else { p * w + x };
    let start = (0..pos)
        .rev()
        .take_while(|&p| open[cell(p)])
        .last()
        .unwrap_or(pos);
    let end = (pos..along)
        .take_while(|&p| open[cell(p)])
        .last()
        .unwrap_or(pos);
    let len = end - start + 1;
    (len >= 2).then_some((len, pos - start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrosswordSlot;

    /// The letters of `words`, given as one list a length.
    fn letters(words: &[&str]) -> Letters {
        let mut lengths: Vec<usize> = words.iter().map(|w| w.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let lists: Vec<WordList> = lengths
            .iter()
            .map(|&n| WordList {
                name: "test".into(),
                words: words
                    .iter()
                    .filter(|w| w.len() == n)
                    .map(|w| w.to_string())
                    .collect(),
                scores: Vec::new(),
            })
            .collect();
        Letters::of(&lists)
    }

    /// An open grid of `w` by `h` cells, one letter given at `given`.
    fn open(w: usize, h: usize, given: Option<(usize, char)>) -> CrosswordLayout {
        let mut g = vec![None; w * h];
        if let Some((c, l)) = given {
            g[c] = Some(l);
        }
        CrosswordLayout {
            width: w,
            height: h,
            open: vec![true; w * h],
            given: g,
            region: vec![true; w * h],
            slots: Vec::<CrosswordSlot>::new(),
            picture: true,
        }
    }

    #[test]
    fn a_two_by_two_grid_over_two_words_expects_one_fill() {
        // Four slots of two words each (16 choices), four crossings that
        // agree half the time each (1/16): one fill expected, where there
        // are two (ab/ba across, and ba/ab).
        let l = letters(&["ab", "ba"]);
        let g = open(2, 2, None);
        assert!(expected_fills(&g, &g.open, &l).abs() < 1e-9);
        // A given `a` in the corner: each of its two slots has it half the time.
        let g = open(2, 2, Some((0, 'A')));
        let e = expected_fills(&g, &g.open, &l);
        assert!((e - (0.25f64.log10() - 0.5f64.log10())).abs() < 1e-9, "{e}");
    }

    #[test]
    fn no_word_or_no_common_letter_is_minus_infinity() {
        let g = open(2, 2, None);
        assert_eq!(
            expected_fills(&g, &g.open, &letters(&["abc"])),
            f64::NEG_INFINITY
        );
        let g = open(2, 2, Some((3, 'z')));
        assert_eq!(
            expected_fills(&g, &g.open, &letters(&["ab", "ba"])),
            f64::NEG_INFINITY
        );
        // A block in a corner leaves a run of one: no slot there.
        let g = open(2, 2, None);
        let mut cells = g.open.clone();
        cells[0] = false;
        let e = expected_fills(&g, &cells, &letters(&["ab", "ba"]));
        // Two slots of two words, one crossing (at cell 3) agreeing half the time.
        assert!((e - (4.0f64.log10() + 0.5f64.log10())).abs() < 1e-9, "{e}");
    }
}
