//! `z = items[i]` with every domain a bitset inside one window of 64 values
//! (the 8-puzzle's boards, small lookups): each domain is read as one
//! machine word, so the filtering of [`Element`](super::arith::Element) —
//! indices whose item shares no value with `z` go, `z` keeps the values of
//! the items still selectable, and a fixed index makes its item equal to `z`
//! — is a few word operations per item, with nothing allocated.

use crate::engine::domains::{Domains, Fail, PResult, span};
use crate::model::VarId;

/// The most items, and the widest span of values, this form holds.
const WIDTH: usize = 64;

/// Where each variable's window starts, fixed when the propagator is posted
/// (domains only shrink from there).
pub(crate) struct BitElement {
    /// Bit position of value index 0 in `z`'s bitset, then each item's.
    pos: Vec<i64>,
    /// Bit position of the first item's index in the index's bitset.
    index_pos: i64,
}

impl BitElement {
    /// The word form of `z = items[i]`, indices from `low`, when every
    /// domain is a bitset, there are at most 64 items and the values of
    /// `z` and the items lie within 64 of each other.
    pub(crate) fn new(d: &Domains, i: VarId, z: VarId, items: &[VarId], low: i64) -> Option<Self> {
        if items.is_empty() || items.len() > WIDTH {
            return None;
        }
        let vals = || std::iter::once(z).chain(items.iter().copied());
        if !d.is_bitset(i) || !vals().all(|v| d.is_bitset(v)) {
            return None;
        }
        let lo = vals().map(|v| d.min(v)).min()?;
        let hi = vals().map(|v| d.max(v)).max()?;
        if span(lo, hi) > WIDTH as u64 {
            return None;
        }
        Some(BitElement {
            pos: vals().map(|v| lo - d.offset(v)).collect(),
            index_pos: low - d.offset(i),
        })
    }

    /// Filters `vars = [i, z, items...]`; one call reaches the fixpoint.
    pub(crate) fn propagate(&self, d: &mut Domains, vars: &[VarId]) -> PResult {
        let (i, z, items) = (vars[0], vars[1], &vars[2..]);
        let n = items.len();
        // Indices outside the items are undefined: the constraint is false
        // there (the window below sees only the items' indices).
        let low = self.index_pos + d.offset(i);
        if d.min(i) < low {
            d.set_min(i, low)?;
        }
        if d.max(i) > low + (n as i64 - 1) {
            d.set_max(i, low + (n as i64 - 1))?;
        }
        let idx = d.window(i, self.index_pos);
        let zw = d.window(z, self.pos[0]);
        // Indices outside the items, or whose item meets `z` nowhere, go;
        // the values the others can give are what `z` may keep.
        let mut live = idx;
        let mut union = 0u64;
        let mut rest = live;
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let w = d.window(items[j], self.pos[1 + j]);
            if w & zw == 0 {
                live &= !(1 << j);
            } else {
                union |= w;
            }
        }
        if live == 0 {
            return Err(Fail);
        }
        if live != idx {
            d.remove_window(i, self.index_pos, idx & !live)?;
        }
        if live.is_power_of_two() {
            // The item and `z` take the same value: both keep their common values.
            let j = live.trailing_zeros() as usize;
            let both = union & zw;
            d.remove_window(z, self.pos[0], zw & !both)?;
            d.remove_window(items[j], self.pos[1 + j], union & !both)?;
        } else if zw & !union != 0 {
            d.remove_window(z, self.pos[0], zw & !union)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::harness::Harness;
    use crate::engine::props::arith::Element;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// The word form prunes exactly as the general propagator, on random
    /// domains and decisions (the general one is checked against brute force
    /// in `arith.rs`); and one call leaves a fixpoint: a fresh propagator
    /// posted on those domains prunes nothing more.
    #[test]
    fn the_word_form_filters_as_the_general_one() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for trial in 0..400 {
            let domains: Vec<Vec<i64>> = (0..5)
                .map(|k| {
                    let span = if k == 0 { -1..=5 } else { -3..=4 };
                    let mut v: Vec<i64> = span.filter(|_| rng.random_range(0..3) > 0).collect();
                    if v.is_empty() {
                        v.push(rng.random_range(0..=3));
                    }
                    v
                })
                .collect();
            let mut hs = [Harness::new(), Harness::new()];
            let mut ok = [true, true];
            for (k, h) in hs.iter_mut().enumerate() {
                let v: Vec<_> = domains.iter().map(|d| h.var(d)).collect();
                let e = if k == 0 {
                    Element::new(&h.engine.doms, v[0], v[1], v[2..].to_vec(), 1)
                } else {
                    Element::general(v[0], v[1], v[2..].to_vec(), 1)
                };
                ok[k] = h.try_post(e).is_ok();
            }
            for step in 0..6 {
                assert_eq!(ok[0], ok[1], "trial {trial} step {step}: failure differs");
                if !ok[0] {
                    break;
                }
                let doms: Vec<Vec<Vec<i64>>> = hs
                    .iter()
                    .map(|h| (0..5).map(|x| h.values(x)).collect())
                    .collect();
                assert_eq!(doms[0], doms[1], "trial {trial} step {step}");
                let mut fresh = Harness::new();
                let v: Vec<_> = doms[0].iter().map(|d| fresh.var(d)).collect();
                let e = Element::general(v[0], v[1], v[2..].to_vec(), 1);
                fresh.post(e);
                let again: Vec<Vec<i64>> = (0..5).map(|x| fresh.values(x)).collect();
                assert_eq!(again, doms[0], "trial {trial} step {step}: not a fixpoint");
                let x = rng.random_range(0..5);
                let vals = &doms[0][x];
                let a = vals[rng.random_range(0..vals.len())];
                let how = rng.random_range(0..3);
                for (k, h) in hs.iter_mut().enumerate() {
                    ok[k] = match how {
                        0 => h.fix(x, a),
                        1 => h.remove(x, a),
                        _ => h.set_min(x, a),
                    }
                    .is_ok();
                }
            }
        }
    }
}
