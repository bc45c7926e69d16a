//! `bin_packing(load, bin, w)`: item `i` of weight `w[i]` goes in bin
//! `bin[i]` (1-based, one of the `load` bins), and `load[b]` is the total
//! weight in bin `b`.
//!
//! The first rules of Shaw's bin-packing propagator ("A constraint for bin
//! packing", CP 2004): a bin's load lies between the weight of the items
//! packed in it and that plus the items that may still go in; an item too
//! heavy for a bin's remaining room leaves that bin, and an item without
//! which a bin cannot reach its least load goes in it; the loads sum to the
//! total weight, which bounds each load by the others'. Repeated to a
//! fixpoint. O(n · m) per round.
//!
//! Then, per bin, the subset sums of the items that may still go in it
//! (Shaw's knapsack reasoning, done exactly rather than with his `NoSum`
//! bound): a load bound no subset reaches moves to the next sum that is
//! reached, an item goes out of a bin when no subset of the others brings
//! it into the load's range, and in when no subset without it does. This
//! is what MiniZinc models of course timetabling need (gbac: weights 5 to
//! 7 and loads held in a narrow band by the objective), where the sums of
//! weights leave gaps that the bounds above never see. See [`subset`].
//! Strength: each bin on its own is domain consistent on its items and
//! bounds consistent on its load (tested against brute force); across
//! bins only correct and checking (Shaw's lower bounds on the number of
//! bins are not included).

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

use super::bin_packing_sums::{self as subset, Sums};

pub(crate) struct BinPacking {
    /// `load` then `bin`.
    vars: Vec<VarId>,
    bins: usize,
    weight: Vec<i64>,
    /// Scratch: per bin, packed weight and possible weight.
    packed: Vec<i64>,
    possible: Vec<i64>,
    /// Scratch for the subset sums of one bin.
    sums: Sums,
}

impl BinPacking {
    /// Weights must not be negative.
    pub(crate) fn new(load: &[VarId], bin: &[VarId], weight: Vec<i64>) -> Self {
        debug_assert_eq!(bin.len(), weight.len());
        let mut vars = load.to_vec();
        vars.extend_from_slice(bin);
        BinPacking {
            vars,
            bins: load.len(),
            weight,
            packed: Vec::new(),
            possible: Vec::new(),
            sums: Sums::default(),
        }
    }

    fn sums(&mut self, d: &Domains) {
        let m = self.bins;
        self.packed.clear();
        self.packed.resize(m, 0);
        self.possible.clear();
        self.possible.resize(m, 0);
        for (i, &x) in self.vars[m..].iter().enumerate() {
            let w = self.weight[i];
            if let Some(b) = d.value(x) {
                if (1..=m as i64).contains(&b) {
                    self.packed[(b - 1) as usize] += w;
                    self.possible[(b - 1) as usize] += w;
                }
                continue;
            }
            for b in 1..=m {
                if d.contains(x, b as i64) {
                    self.possible[b - 1] += w;
                }
            }
        }
    }
}

impl BinPacking {
    /// The subset-sum rules on bin `b` (0-based). The weight packed in the
    /// bin is read from the domains now, not from [`Self::sums`]: the rules
    /// on an earlier bin may have just fixed an item into this one (an item
    /// sent out of bin 1 of two lands in bin 2), and a stale figure would
    /// count that item neither as packed nor as a candidate.
    fn subset_sums(&mut self, d: &mut Domains, b: usize) -> Result<bool, Fail> {
        let m = self.bins;
        let load = self.vars[b];
        let here = b as i64 + 1;
        let mut packed = 0;
        self.sums.clear();
        for (i, &x) in self.vars[m..].iter().enumerate() {
            if d.is_fixed(x) {
                if d.value(x) == Some(here) {
                    packed += self.weight[i];
                }
            } else if self.weight[i] > 0 && d.contains(x, here) {
                self.sums.push(i, self.weight[i]);
            }
        }
        let (lo, hi) = (d.min(load) - packed, d.max(load) - packed);
        let Some(reached) = self.sums.solve(lo, hi) else {
            return Ok(false);
        };
        let mut changed = false;
        let (least, most) = reached.ok_or(Fail)?;
        changed |= d.set_min(load, packed + least)?;
        changed |= d.set_max(load, packed + most)?;
        for &(i, fate) in &self.sums.fates {
            let x = self.vars[m + i];
            changed |= match fate {
                subset::Fate::Out => d.remove(x, here)?,
                subset::Fate::In => d.fix(x, here)?,
            };
        }
        Ok(changed)
    }
}

impl Propagator for BinPacking {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let m = self.bins;
        let total: i64 = self.weight.iter().sum();
        for &x in &self.vars[m..] {
            d.set_min(x, 1)?;
            d.set_max(x, m as i64)?;
        }
        loop {
            self.sums(d);
            let mut changed = false;
            for b in 0..m {
                let load = self.vars[b];
                changed |= d.set_min(load, self.packed[b])?;
                changed |= d.set_max(load, self.possible[b])?;
            }
            // The loads sum to the total weight.
            let (least, most): (i64, i64) = (0..m)
                .map(|b| (d.min(self.vars[b]), d.max(self.vars[b])))
                .fold((0, 0), |(a, c), (lo, hi)| (a + lo, c + hi));
            for b in 0..m {
                let load = self.vars[b];
                let (lo, hi) = (d.min(load), d.max(load));
                changed |= d.set_min(load, total - (most - hi))?;
                changed |= d.set_max(load, total - (least - lo))?;
            }
            for i in 0..self.weight.len() {
                let x = self.vars[m + i];
                if d.is_fixed(x) {
                    continue;
                }
                let w = self.weight[i];
                for b in 1..=m {
                    if !d.contains(x, b as i64) {
                        continue;
                    }
                    let load = self.vars[b - 1];
                    if self.packed[b - 1] + w > d.max(load) {
                        changed |= d.remove(x, b as i64)?;
                    } else if self.possible[b - 1] - w < d.min(load) {
                        changed |= d.fix(x, b as i64)?;
                        break;
                    }
                }
            }
            if !changed {
                for b in 0..m {
                    changed |= self.subset_sums(d, b)?;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let m = self.bins;
        self.sums(d);
        (0..m)
            .any(|b| self.packed[b] > d.max(self.vars[b]) || self.possible[b] < d.min(self.vars[b]))
            || self.vars[m..]
                .iter()
                .any(|&x| d.value(x).is_some_and(|b| b < 1 || b > m as i64))
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random, check_random_shaped};
    use crate::model::globals::holds::bin_packing as holds;

    #[test]
    fn heavy_items_leave_full_bins_and_needed_items_go_in() {
        let mut h = Harness::new();
        let load = [h.range(0, 5), h.range(4, 10)];
        let bin: Vec<VarId> = (0..3).map(|_| h.range(1, 2)).collect();
        h.post(BinPacking::new(&load, &bin, vec![4, 3, 2]));
        h.fix(bin[0], 1).unwrap();
        // Bin 1 holds 4 of at most 5: the 3 and the 2 do not fit.
        assert_eq!(h.values(bin[1]), vec![2]);
        assert_eq!(h.values(bin[2]), vec![2]);
        assert_eq!(h.values(load[0]), vec![4]);
        assert_eq!(h.values(load[1]), vec![5]);
    }

    #[test]
    fn subset_sums_leave_gaps_no_load_falls_in() {
        // Items 5, 6, 7 in two bins; bin 1 holds 8 to 12. Only 5 + 6 and 5 + 7
        // land there: the 5 goes in bin 1, whose load is 11 or 12.
        let mut h = Harness::new();
        let load = [h.range(8, 12), h.range(0, 18)];
        let bin: Vec<VarId> = (0..3).map(|_| h.range(1, 2)).collect();
        h.post(BinPacking::new(&load, &bin, vec![5, 6, 7]));
        assert_eq!(h.bounds(load[0]), (11, 12));
        assert_eq!(h.values(bin[0]), vec![1]);
        assert_eq!(h.bounds(load[1]), (6, 7));
        // Nothing makes 8 to 10: no packing.
        let mut h = Harness::new();
        let load = [h.range(8, 10), h.range(0, 18)];
        let bin: Vec<VarId> = (0..3).map(|_| h.range(1, 2)).collect();
        assert!(
            h.try_post(BinPacking::new(&load, &bin, vec![5, 6, 7]))
                .is_err()
        );
    }

    #[test]
    fn an_item_sent_out_of_one_bin_counts_in_the_next() {
        // Bin 1 holds exactly 3: the 3 goes in, both 2s go out, so into bin
        // 2, whose load 4 they make. The rules on bin 2 once read its packed
        // weight from before bin 1's, saw 0 packed and no candidate, and
        // failed: the differential run found it (seed 20261203, case 2745).
        let mut h = Harness::new();
        let load = [h.var(&[3]), h.var(&[0, 1, 3, 4])];
        let bin: Vec<VarId> = (0..3).map(|_| h.range(1, 2)).collect();
        h.post(BinPacking::new(&load, &bin, vec![3, 2, 2]));
        assert_eq!(h.values(bin[0]), vec![1]);
        assert_eq!(h.values(bin[1]), vec![2]);
        assert_eq!(h.values(bin[2]), vec![2]);
        assert_eq!(h.values(load[1]), vec![4]);
    }

    /// Two bins (the first two variables), then the items of `weights`.
    fn two_bins(
        weights: Vec<i64>,
    ) -> impl Fn(&mut Domains, &[VarId]) -> Option<Box<dyn Propagator>> {
        move |_, vars| {
            Some(Box::new(BinPacking::new(
                &vars[..2],
                &vars[2..],
                weights.clone(),
            )))
        }
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        for (items, weights) in [(1, vec![2]), (2, vec![1, 3]), (3, vec![2, 0, 1])] {
            let w2 = weights.clone();
            check_random(
                "bin_packing",
                Strength::Check,
                2 + items,
                two_bins(weights),
                move |t| holds(&t[..2], &t[2..], &w2),
            );
        }
        // Loads up to the total weight, so that one bin's rules can send
        // items into the other (the small domains above stop at 4).
        for weights in [vec![3, 2, 2], vec![2, 2, 1, 1], vec![4, 3, 2]] {
            let total: i64 = weights.iter().sum();
            let mut ranges = vec![0..=total, 0..=total];
            ranges.extend(weights.iter().map(|_| 0..=3));
            let w2 = weights.clone();
            check_random_shaped(
                "bin_packing (wide loads)",
                Strength::Check,
                &ranges,
                two_bins(weights),
                move |t| holds(&t[..2], &t[2..], &w2),
            );
        }
        // The same variable as the bin of two items (weights 3 and 2), and
        // a load that is also an item's bin.
        let ranges = [0..=7, 0..=7, 0..=3, 0..=3];
        check_random_shaped(
            "bin_packing (a variable twice)",
            Strength::Check,
            &ranges,
            |_, v| {
                Some(Box::new(BinPacking::new(
                    &v[..2],
                    &[v[2], v[3], v[2], v[1]],
                    vec![3, 2, 2, 1],
                )))
            },
            |t| holds(&t[..2], &[t[2], t[3], t[2], t[1]], &[3, 2, 2, 1]),
        );
    }
}
