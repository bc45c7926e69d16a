//! Linear constraints `sum(a[i] * x[i]) + k  (<= | == | !=)  0`, with bounds
//! propagation for `<=` and `==` and value removal for `!=`.

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator};
use crate::model::VarId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinOp {
    Le,
    Eq,
    Ne,
}

pub struct Linear {
    coefs: Vec<i64>,
    vars: Vec<VarId>,
    constant: i64,
    op: LinOp,
}

impl Linear {
    pub fn new(terms: Vec<(i64, VarId)>, constant: i64, op: LinOp) -> Self {
        let (coefs, vars) = terms.into_iter().unzip();
        Linear {
            coefs,
            vars,
            constant,
            op,
        }
    }

    pub fn vars_slice(&self) -> &[VarId] {
        &self.vars
    }

    /// The smallest and largest values of the sum (constant included).
    pub fn sum_bounds(&self, d: &Domains) -> (i128, i128) {
        let mut lo = self.constant as i128;
        let mut hi = lo;
        for (&a, &x) in self.coefs.iter().zip(&self.vars) {
            let (l, h) = Self::term_bounds(d, a, x);
            lo += l;
            hi += h;
        }
        (lo, hi)
    }

    /// True when the constraint holds for every value of the domains, false
    /// when for none; `None` when bounds cannot tell.
    pub fn entailed(&self, d: &Domains) -> Option<bool> {
        let (lo, hi) = self.sum_bounds(d);
        match self.op {
            LinOp::Le if hi <= 0 => Some(true),
            LinOp::Le if lo > 0 => Some(false),
            LinOp::Eq | LinOp::Ne if lo == hi => Some((lo == 0) == (self.op == LinOp::Eq)),
            LinOp::Eq | LinOp::Ne if lo > 0 || hi < 0 => Some(self.op == LinOp::Ne),
            _ => None,
        }
    }

    /// The smallest and largest values of `a * x`.
    fn term_bounds(d: &Domains, a: i64, x: VarId) -> (i128, i128) {
        let (lo, hi) = (a as i128 * d.min(x) as i128, a as i128 * d.max(x) as i128);
        if a >= 0 { (lo, hi) } else { (hi, lo) }
    }

    /// Tightens each term so that the sum can reach `<= 0` (`upper`) or `>= 0`.
    fn bounds(&self, d: &mut Domains, upper: bool) -> Result<bool, Fail> {
        let n = self.vars.len();
        let mut changed = false;
        let mut total: i128 = self.constant as i128;
        for i in 0..n {
            let (lo, hi) = Self::term_bounds(d, self.coefs[i], self.vars[i]);
            total += if upper { lo } else { hi };
        }
        if (upper && total > 0) || (!upper && total < 0) {
            return Err(Fail);
        }
        for i in 0..n {
            let (a, x) = (self.coefs[i], self.vars[i]);
            let (lo, hi) = Self::term_bounds(d, a, x);
            // The rest of the sum at its most favourable.
            let rest = total - if upper { lo } else { hi };
            // upper: a*x <= -rest ; lower: a*x >= -rest.
            let limit = -rest;
            let a128 = a as i128;
            let (new_min, new_max) = match (upper, a > 0) {
                (true, true) => (None, Some(floor_div(limit, a128))),
                (true, false) => (Some(ceil_div(limit, a128)), None),
                (false, true) => (Some(ceil_div(limit, a128)), None),
                (false, false) => (None, Some(floor_div(limit, a128))),
            };
            if let Some(m) = new_max {
                if m < d.min(x) as i128 {
                    return Err(Fail);
                }
                if m < d.max(x) as i128 {
                    changed |= d.set_max(x, m as i64)?;
                }
            }
            if let Some(m) = new_min {
                if m > d.max(x) as i128 {
                    return Err(Fail);
                }
                if m > d.min(x) as i128 {
                    changed |= d.set_min(x, m as i64)?;
                }
            }
        }
        Ok(changed)
    }

    fn not_equal(&self, d: &mut Domains) -> PResult {
        let mut free = None;
        let mut sum: i128 = self.constant as i128;
        for i in 0..self.vars.len() {
            match d.value(self.vars[i]) {
                Some(v) => sum += self.coefs[i] as i128 * v as i128,
                None if free.is_some() => return Ok(()),
                None => free = Some(i),
            }
        }
        match free {
            None if sum == 0 => Err(Fail),
            None => Ok(()),
            Some(i) => {
                let a = self.coefs[i] as i128;
                // a * x + sum != 0: remove x = -sum / a when it divides.
                if (-sum) % a == 0 {
                    let x = -sum / a;
                    if let Ok(x) = i64::try_from(x) {
                        d.remove(self.vars[i], x)?;
                    }
                }
                Ok(())
            }
        }
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

impl Propagator for Linear {
    fn name(&self) -> &'static str {
        match self.op {
            LinOp::Le => "linear<=",
            LinOp::Eq => "linear==",
            LinOp::Ne => "linear!=",
        }
    }
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn priority(&self) -> Priority {
        if self.vars.len() <= 2 {
            Priority::Binary
        } else {
            Priority::Linear
        }
    }
    fn wake_on(&self) -> u8 {
        match self.op {
            LinOp::Ne => event::FIX,
            _ => event::BOUNDS,
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        match self.op {
            LinOp::Ne => self.not_equal(d),
            LinOp::Le => {
                while self.bounds(d, true)? {}
                Ok(())
            }
            LinOp::Eq => {
                loop {
                    let a = self.bounds(d, true)?;
                    let b = self.bounds(d, false)?;
                    if !a && !b {
                        break;
                    }
                }
                // Bounds alone can miss a violated equality over holes; check when fixed.
                if self.vars.iter().all(|&x| d.is_fixed(x)) {
                    let sum: i128 = self.constant as i128
                        + self
                            .vars
                            .iter()
                            .zip(&self.coefs)
                            .map(|(&x, &a)| a as i128 * d.min(x) as i128)
                            .sum::<i128>();
                    if sum != 0 {
                        return Err(Fail);
                    }
                }
                Ok(())
            }
        }
    }
}
