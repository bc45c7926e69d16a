//! All-different over variables with constant offsets (`x[i] + c[i]` pairwise
//! distinct, as in the n-queens diagonals).
//!
//! Filtering, to a fixpoint within one call:
//! - value elimination: a fixed term's value is removed from every other term;
//! - pigeonhole: fewer distinct values than terms is a failure;
//! - hidden singles: when there are exactly as many values as terms, a value
//!   that only one term can take is given to that term;
//! - under `propagation ac`, Régin's matching-based GAC (`alldiff_gac.rs`),
//!   which subsumes the two rules above.

use super::alldiff_gac::Matching;
use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub struct AllDifferent {
    vars: Vec<VarId>,
    /// Run Régin's matching-based filtering (under `propagation ac`).
    gac: Option<Matching>,
    offsets: Vec<i64>,
    /// Scratch: how many terms can take each value in `lo..lo+counts.len()`.
    counts: Vec<u32>,
    owner: Vec<u32>,
    /// Scratch: the values of fixed terms, sorted.
    taken: Vec<i64>,
    scratch: Vec<i64>,
}

/// Value ranges wider than this skip the counting rules (pigeonhole, singles).
const MAX_COUNTED_SPAN: i64 = 1 << 16;

impl AllDifferent {
    pub fn new(terms: Vec<(VarId, i64)>, gac: bool) -> Self {
        let (vars, offsets) = terms.into_iter().unzip();
        AllDifferent {
            vars,
            gac: gac.then(Matching::default),
            offsets,
            counts: Vec::new(),
            owner: Vec::new(),
            taken: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The smallest and largest value the terms can take.
    fn value_range(&self, d: &Domains) -> (i64, i64) {
        let n = self.vars.len();
        let lo = (0..n)
            .map(|i| d.min(self.vars[i]) + self.offsets[i])
            .min()
            .unwrap_or(0);
        let hi = (0..n)
            .map(|i| d.max(self.vars[i]) + self.offsets[i])
            .max()
            .unwrap_or(0);
        (lo, hi)
    }

    /// Removes the values of fixed terms from the others, until nothing
    /// changes. Each pass costs about the sum of the open domains' sizes.
    fn eliminate(&mut self, d: &mut Domains) -> PResult {
        loop {
            self.taken.clear();
            for (i, &v) in self.vars.iter().enumerate() {
                if let Some(x) = d.value(v) {
                    self.taken.push(x + self.offsets[i]);
                }
            }
            self.taken.sort_unstable();
            if self.taken.windows(2).any(|w| w[0] == w[1]) {
                return Err(Fail);
            }
            let mut newly_fixed = false;
            for (j, &v) in self.vars.iter().enumerate() {
                if d.is_fixed(v) {
                    continue;
                }
                let off = self.offsets[j];
                if d.size(v) as usize <= self.taken.len() {
                    self.scratch.clear();
                    let taken = &self.taken;
                    self.scratch.extend(
                        d.values(v)
                            .filter(|&x| taken.binary_search(&(x + off)).is_ok()),
                    );
                    for &x in &self.scratch {
                        d.remove(v, x)?;
                    }
                } else {
                    for &t in &self.taken {
                        d.remove(v, t - off)?;
                    }
                }
                newly_fixed |= d.is_fixed(v);
            }
            if !newly_fixed {
                return Ok(());
            }
        }
    }

    /// Pigeonhole and hidden singles. Returns whether a variable got fixed.
    fn count(&mut self, d: &mut Domains) -> Result<bool, Fail> {
        let n = self.vars.len();
        let (lo, hi) = self.value_range(d);
        if hi - lo >= MAX_COUNTED_SPAN {
            return Ok(false);
        }
        let span = (hi - lo + 1) as usize;
        self.counts.clear();
        self.counts.resize(span, 0);
        self.owner.clear();
        self.owner.resize(span, 0);
        for i in 0..n {
            let v = self.vars[i];
            for x in d.values(v) {
                let k = (x + self.offsets[i] - lo) as usize;
                self.counts[k] += 1;
                self.owner[k] = i as u32;
            }
        }
        let distinct = self.counts.iter().filter(|&&c| c > 0).count();
        if distinct < n {
            return Err(Fail);
        }
        if distinct > n {
            return Ok(false);
        }
        let mut fixed = false;
        for k in 0..span {
            if self.counts[k] == 1 {
                let i = self.owner[k] as usize;
                fixed |= d.fix(self.vars[i], lo + k as i64 - self.offsets[i])?;
            }
        }
        Ok(fixed)
    }
}

impl Propagator for AllDifferent {
    fn name(&self) -> &'static str {
        "alldifferent"
    }
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        Priority::Linear
    }
    /// Two fixed terms with the same value: what the pairwise `!=` would see.
    fn violated(&mut self, d: &Domains) -> bool {
        let seen = &mut self.taken;
        seen.clear();
        seen.extend(
            self.vars
                .iter()
                .zip(&self.offsets)
                .filter_map(|(&v, &o)| d.value(v).map(|x| x + o)),
        );
        seen.sort_unstable();
        seen.windows(2).any(|w| w[0] == w[1])
    }
    /// Value elimination removes every fixed term's value from the last open one.
    fn consistent_on_last_open(&self) -> bool {
        true
    }
    /// Left with all-different among the open terms: value elimination has
    /// removed the fixed terms' values.
    fn residual_in_domains(&self) -> bool {
        true
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        loop {
            self.eliminate(d)?;
            let (lo, hi) = self.value_range(d);
            if self.gac.is_some() && hi - lo < MAX_COUNTED_SPAN {
                let before = self.vars.iter().filter(|&&v| d.is_fixed(v)).count();
                if let Some(m) = self.gac.as_mut() {
                    m.filter(d, &self.vars, &self.offsets)?;
                }
                // Newly fixed variables need value elimination again (GAC is
                // idempotent, but elimination is cheaper than a second pass).
                if self.vars.iter().filter(|&&v| d.is_fixed(v)).count() == before {
                    return Ok(());
                }
                continue;
            }
            if !self.count(d)? {
                return Ok(());
            }
        }
    }
}
