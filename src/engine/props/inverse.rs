//! `inverse(f, g)`: `f[i] = j` exactly when `g[j] = i` (1-based, `f` and `g`
//! of the same length n): two permutations of `1..n`, each the other's
//! inverse. Channelling both ways: `j` stays in `f[i]` only while `i` is in
//! `g[j]`, and the other way round, values outside `1..n` go. Each
//! variable's other values have no support, so every binary channel
//! `f[i] = j ⇔ g[j] = i` is domain consistent at the fixpoint. The
//! conjunction is not (that needs matching reasoning: lowering posts
//! all-different on `f` and `g` beside it). O(n²) per call on bitset
//! domains; interval domains only lose their out-of-range values.

use crate::engine::domains::{Domains, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub(crate) struct Inverse {
    /// `f` then `g`.
    vars: Vec<VarId>,
    n: usize,
}

impl Inverse {
    pub(crate) fn new(f: &[VarId], g: &[VarId]) -> Self {
        debug_assert_eq!(f.len(), g.len());
        let mut vars = f.to_vec();
        vars.extend_from_slice(g);
        Inverse { vars, n: f.len() }
    }

    /// Removes from `a[i]` every `j` such that `i` is not in `b[j]`, and
    /// fixes `b[j]` to `i` when `a[i]` is fixed to `j`.
    fn channel(
        &self,
        d: &mut Domains,
        a: &[VarId],
        b: &[VarId],
    ) -> Result<bool, crate::engine::domains::Fail> {
        let mut changed = false;
        for (i, &x) in a.iter().enumerate() {
            if let Some(j) = d.value(x) {
                changed |= d.fix(b[(j - 1) as usize], i as i64 + 1)?;
            }
            if !d.is_bitset(x) {
                continue;
            }
            let gone: Vec<i64> = d
                .values(x)
                .filter(|&j| !d.contains(b[(j - 1) as usize], i as i64 + 1))
                .collect();
            for j in gone {
                changed |= d.remove(x, j)?;
            }
        }
        Ok(changed)
    }
}

impl Propagator for Inverse {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let n = self.n as i64;
        for &v in &self.vars {
            d.set_min(v, 1)?;
            d.set_max(v, n)?;
        }
        let (f, g) = self.vars.split_at(self.n);
        loop {
            let changed = self.channel(d, f, g)? | self.channel(d, g, f)?;
            if !changed {
                return Ok(());
            }
        }
    }
    fn violated(&mut self, d: &Domains) -> bool {
        let (f, g) = self.vars.split_at(self.n);
        let n = self.n as i64;
        for (a, b) in [(f, g), (g, f)] {
            for (i, &x) in a.iter().enumerate() {
                if let Some(j) = d.value(x) {
                    if j < 1 || j > n {
                        return true;
                    }
                    if d.value(b[(j - 1) as usize])
                        .is_some_and(|k| k != i as i64 + 1)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Harness, Strength, check_random};
    use crate::model::globals::holds::inverse as holds;

    #[test]
    fn values_are_channelled_both_ways() {
        let mut h = Harness::new();
        let f: Vec<VarId> = (0..3).map(|_| h.range(1, 3)).collect();
        let g: Vec<VarId> = (0..3).map(|_| h.range(0, 5)).collect();
        h.post(Inverse::new(&f, &g));
        assert_eq!(h.values(g[0]), vec![1, 2, 3]);
        h.fix(f[0], 2).unwrap();
        assert_eq!(h.values(g[1]), vec![1]);
        assert!(!h.values(g[0]).contains(&1), "f[1] = 2, so g[1] != 1");
        h.remove(g[2], 2).unwrap();
        assert!(!h.values(f[1]).contains(&3));
    }

    #[test]
    fn correct_and_checking_against_brute_force() {
        for n in 1..=3 {
            check_random(
                "inverse",
                Strength::Check,
                2 * n,
                move |_, vars| Some(Box::new(Inverse::new(&vars[..n], &vars[n..]))),
                move |t| holds(&t[..n], &t[n..]),
            );
        }
    }

    #[test]
    fn every_value_left_has_its_channel_partner() {
        // The binary channels are domain consistent: j in f[i] iff i in g[j].
        let mut h = Harness::new();
        let f = [h.var(&[1, 3]), h.range(1, 3), h.var(&[2])];
        let g = [h.range(1, 3), h.var(&[1, 3]), h.range(1, 3)];
        h.post(Inverse::new(&f, &g));
        for (i, &fi) in f.iter().enumerate() {
            for j in 1..=3i64 {
                assert_eq!(
                    h.values(fi).contains(&j),
                    h.values(g[(j - 1) as usize]).contains(&(i as i64 + 1)),
                    "f[{i}] = {j}"
                );
            }
        }
    }
}
