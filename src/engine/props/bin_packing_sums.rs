//! The subset sums of one bin of a bin packing: which loads the items that
//! may still go in a bin can add up to, and for each item whether some
//! subset of the others completes it (or does without it).
//!
//! Exact, by counting: `count[s]` is the number of subsets of the candidate
//! items whose weights sum to `s`. The counts of the subsets without item
//! `i` follow from those in one pass (`without[s] = count[s] - without[s -
//! w_i]`), so each item costs O(load range) instead of a new table. With
//! fewer than 64 items there are fewer than 2^64 subsets and the counts are
//! exact in `u64` (wrapping arithmetic gives the true differences); with
//! more, or a range too wide for the table, [`Sums::solve`] declines and the
//! bin keeps only the bounds rules of [`super::bin_packing`]. Items of equal
//! weight share one pass.

/// What the sums say about one candidate item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fate {
    /// No subset of the others brings it into the load's range.
    Out,
    /// No subset without it reaches the load's range.
    In,
}

/// The largest table (load range times distinct weights, plus one pass)
/// worth building on each call; past it the bin is skipped.
const BUDGET: usize = 1 << 16;

#[derive(Default)]
pub(crate) struct Sums {
    /// (the caller's index of the item, its weight > 0).
    items: Vec<(usize, i64)>,
    count: Vec<u64>,
    without: Vec<u64>,
    /// The verdicts of the last [`Sums::solve`].
    pub(crate) fates: Vec<(usize, Fate)>,
}

impl Sums {
    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.fates.clear();
    }

    /// A candidate item: `index` is the caller's, `weight` positive.
    pub(crate) fn push(&mut self, index: usize, weight: i64) {
        debug_assert!(weight > 0);
        self.items.push((index, weight));
    }

    /// The candidates must add up to a load in `lo..=hi` (the bin's load
    /// range less what is already packed in it). `None`: too large to
    /// decide here. `Some(None)`: no subset does (the bin fails).
    /// `Some(Some((least, most)))`: the least and the most reachable sums in
    /// the range; [`Sums::fates`] then lists the items that must leave the
    /// bin or go in it.
    pub(crate) fn solve(&mut self, lo: i64, hi: i64) -> Option<Option<(i64, i64)>> {
        self.fates.clear();
        let lo = lo.max(0);
        if hi < lo {
            return Some(None);
        }
        let n = self.items.len();
        if n >= 64 {
            return None;
        }
        let total: i64 = self.items.iter().map(|&(_, w)| w).sum();
        let hi = hi.min(total);
        if hi < lo {
            return Some(None);
        }
        let width = usize::try_from(hi).ok()?.checked_add(1)?;
        if width.saturating_mul(n + 1) > BUDGET {
            return None;
        }
        let count = &mut self.count;
        count.clear();
        count.resize(width, 0);
        count[0] = 1;
        for &(_, w) in &self.items {
            let w = w as usize;
            for s in (w..width).rev() {
                count[s] = count[s].wrapping_add(count[s - w]);
            }
        }
        let (lo_u, hi_u) = (lo as usize, hi as usize);
        let Some(least) = (lo_u..=hi_u).find(|&s| count[s] != 0) else {
            return Some(None);
        };
        let most = (lo_u..=hi_u)
            .rev()
            .find(|&s| count[s] != 0)
            .unwrap_or(least);
        // Items by weight, so that equal weights share a pass.
        self.items.sort_unstable_by_key(|&(_, w)| w);
        let without = &mut self.without;
        let mut k = 0;
        while k < n {
            let w = self.items[k].1;
            let wu = w as usize;
            without.clear();
            without.extend_from_slice(count);
            for s in wu..width {
                without[s] = count[s].wrapping_sub(without[s - wu]);
            }
            // In the bin: some subset of the others sums to lo - w ..= hi - w.
            let can_in =
                wu <= hi_u && (lo_u.saturating_sub(wu)..=hi_u - wu).any(|s| without[s] != 0);
            // Out of it: some subset of the others sums to lo ..= hi.
            let can_out = (lo_u..=hi_u).any(|s| without[s] != 0);
            let fate = match (can_in, can_out) {
                (true, true) => None,
                (false, true) => Some(Fate::Out),
                (true, false) => Some(Fate::In),
                // Unreachable when `least` exists: a reaching subset either
                // holds the item or not.
                (false, false) => return Some(None),
            };
            while k < n && self.items[k].1 == w {
                if let Some(f) = fate {
                    self.fates.push((self.items[k].0, f));
                }
                k += 1;
            }
        }
        Some(Some((least as i64, most as i64)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of `weights`, by brute force: the reachable sums in
    /// `lo..=hi`, and for each item whether a reaching subset holds it and
    /// whether one lacks it.
    fn brute(weights: &[i64], lo: i64, hi: i64) -> (Vec<i64>, Vec<(bool, bool)>) {
        let n = weights.len();
        let mut sums = Vec::new();
        let mut fate = vec![(false, false); n];
        for mask in 0u32..(1 << n) {
            let s: i64 = (0..n)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| weights[i])
                .sum();
            if (lo..=hi).contains(&s) {
                sums.push(s);
                for (i, f) in fate.iter_mut().enumerate() {
                    if mask >> i & 1 == 1 {
                        f.0 = true;
                    } else {
                        f.1 = true;
                    }
                }
            }
        }
        sums.sort_unstable();
        (sums, fate)
    }

    /// The reached range and the verdicts, sorted by item.
    type Solved = (Option<(i64, i64)>, Vec<(usize, Fate)>);

    fn solve(weights: &[i64], lo: i64, hi: i64) -> Solved {
        let mut s = Sums::default();
        for (i, &w) in weights.iter().enumerate() {
            s.push(i, w);
        }
        let r = s.solve(lo, hi).expect("small enough");
        let mut fates = s.fates.clone();
        fates.sort_unstable_by_key(|f| f.0);
        (r, fates)
    }

    #[test]
    fn gaps_between_sums_fail_and_narrow() {
        // 5, 6, 7 reach 5, 6, 7, 11, 12, 13, 18: nothing in 8..=10.
        assert_eq!(solve(&[5, 6, 7], 8, 10).0, None);
        // Only 5 + 6 is 11: the 7 leaves, the 5 and the 6 go in.
        assert_eq!(
            solve(&[5, 6, 7], 11, 11),
            (
                Some((11, 11)),
                vec![(0, Fate::In), (1, Fate::In), (2, Fate::Out)]
            )
        );
        // 8..=12 holds 11 and 12, both with the 5: bounds move in, the 5 goes in.
        assert_eq!(
            solve(&[5, 6, 7], 8, 12),
            (Some((11, 12)), vec![(0, Fate::In)])
        );
        // 11..=13: 5 + 6, 5 + 7, 6 + 7; every item stays free.
        assert_eq!(solve(&[5, 6, 7], 11, 13), (Some((11, 13)), vec![]));
        // Equal weights share a verdict.
        assert_eq!(
            solve(&[5, 5, 9], 10, 10),
            (
                Some((10, 10)),
                vec![(0, Fate::In), (1, Fate::In), (2, Fate::Out)]
            )
        );
    }

    #[test]
    fn agrees_with_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |k: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % k
        };
        for _ in 0..3000 {
            let n = next(8) as usize;
            let weights: Vec<i64> = (0..n).map(|_| 1 + next(9) as i64).collect();
            let lo = next(30) as i64 - 3;
            let hi = lo + next(12) as i64 - 2;
            let (sums, fate) = brute(&weights, lo, hi);
            let (r, fates) = solve(&weights, lo, hi);
            if sums.is_empty() {
                assert_eq!(r, None, "{weights:?} in {lo}..={hi}");
                continue;
            }
            assert_eq!(
                r,
                Some((sums[0], *sums.last().unwrap())),
                "{weights:?} in {lo}..={hi}"
            );
            let expect: Vec<(usize, Fate)> = fate
                .iter()
                .enumerate()
                .filter_map(|(i, &(can_in, can_out))| match (can_in, can_out) {
                    (false, _) => Some((i, Fate::Out)),
                    (true, false) => Some((i, Fate::In)),
                    _ => None,
                })
                .collect();
            assert_eq!(fates, expect, "{weights:?} in {lo}..={hi}");
        }
    }

    #[test]
    fn declines_what_it_cannot_count_exactly() {
        let mut s = Sums::default();
        for i in 0..64 {
            s.push(i, 1);
        }
        assert_eq!(s.solve(0, 10), None);
        let mut s = Sums::default();
        s.push(0, 1_000_000);
        s.push(1, 1_000_000);
        assert_eq!(s.solve(0, 2_000_000), None);
    }
}
