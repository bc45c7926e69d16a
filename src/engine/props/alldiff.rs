//! All-different over variables with constant offsets (`x[i] + c[i]` pairwise
//! distinct, as in the n-queens diagonals).
//!
//! Filtering, to a fixpoint within one call:
//! - value elimination: a fixed term's value is removed from every other term;
//! - pigeonhole: fewer distinct values than terms is a failure;
//! - hidden singles: when there are exactly as many values as terms, a value
//!   that only one term can take is given to that term.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i64>,
    /// Scratch: how many terms can take each value in `lo..lo+counts.len()`.
    counts: Vec<u32>,
    owner: Vec<u32>,
}

/// Value ranges wider than this skip the counting rules (pigeonhole, singles).
const MAX_COUNTED_SPAN: i64 = 1 << 16;

impl AllDifferent {
    pub fn new(terms: Vec<(VarId, i64)>) -> Self {
        let (vars, offsets) = terms.into_iter().unzip();
        AllDifferent {
            vars,
            offsets,
            counts: Vec::new(),
            owner: Vec::new(),
        }
    }

    /// Removes the values of fixed terms from the others, until nothing changes.
    fn eliminate(&self, d: &mut Domains) -> PResult {
        let n = self.vars.len();
        let mut done = vec![false; n];
        loop {
            let mut progress = false;
            for i in 0..n {
                if done[i] || !d.is_fixed(self.vars[i]) {
                    continue;
                }
                done[i] = true;
                progress = true;
                let value = d.min(self.vars[i]) + self.offsets[i];
                for j in 0..n {
                    if j != i {
                        d.remove(self.vars[j], value - self.offsets[j])?;
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// Pigeonhole and hidden singles. Returns whether a variable got fixed.
    fn count(&mut self, d: &mut Domains) -> Result<bool, Fail> {
        let n = self.vars.len();
        let lo = (0..n)
            .map(|i| d.min(self.vars[i]) + self.offsets[i])
            .min()
            .unwrap_or(0);
        let hi = (0..n)
            .map(|i| d.max(self.vars[i]) + self.offsets[i])
            .max()
            .unwrap_or(0);
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
    /// Value elimination removes every fixed term's value from the last open one.
    fn consistent_on_last_open(&self) -> bool {
        true
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        loop {
            self.eliminate(d)?;
            if !self.count(d)? {
                return Ok(());
            }
        }
    }
}
