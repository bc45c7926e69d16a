//! `regular`, in MiniZinc's two forms:
//! - `regular(x, Q, S, d, q0, F)`: the sequence `x` is accepted by a
//!   deterministic finite automaton: states `1..Q`, symbols `1..S`,
//!   `d[(q - 1) * S + s]` the state after reading `s` in `q` (0: no
//!   transition), start state `q0`, accepting states `F`;
//! - `regular(x, r)`: `x` matches the regular expression `r`, a string
//!   known at load time, compiled into an automaton by `model/regex.rs`
//!   when the model loads.
//!
//! Both are lowered as Pesant's layered graph (CP 2004, `model/dfa.rs`):
//! the automaton unrolled over the positions of `x`, one layer of states per
//! position, keeping the states reachable from the start and from which an
//! accepting state can still be reached at the end. That graph is a
//! decision diagram (`model/mdd.rs`), filtered by `engine/props/mdd.rs`: a
//! value stays while an edge of its layer lies on an accepting path, which
//! is domain consistency.

use super::{Lowering, consts};
use crate::engine::propagator::Propagator;
use crate::engine::props::mdd::MddProp;
use crate::lower::Lower;
use crate::model::GlobalArg;
use crate::model::dfa::{Dfa, NONE};
use crate::model::mdd::Mdd;
use crate::model::regex::{MAX_GRAPH, MAX_LISTED};
use std::sync::Arc;

pub(super) struct Regular;

/// The layered graph of the automaton over `n` positions, as a diagram.
pub(super) fn unroll(n: usize, q: usize, s: usize, d: &[i64], q0: usize, f: &[i64]) -> Mdd {
    let mut accepting = vec![false; q];
    for &state in f {
        accepting[state as usize - 1] = true;
    }
    // State `q` is 0-based `q - 1`, symbol `s` class `s - 1`.
    let dfa = Dfa {
        classes: s,
        start: q0 as u32 - 1,
        next: d
            .iter()
            .map(|&t| if t == 0 { NONE } else { t as u32 - 1 })
            .collect(),
        accepting,
    };
    let symbols: Vec<(u32, u32)> = (0..s as u32).map(|c| (c, c)).collect();
    dfa.unroll((1..=s as i64).collect(), &vec![symbols.as_slice(); n])
}

impl Lowering for Regular {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let x = l.vars_of(&args[0])?;
        let one = |i: usize| consts(&args[i])[0] as usize;
        let m = unroll(
            x.len(),
            one(1),
            one(2),
            &consts(&args[3]),
            one(4),
            &consts(&args[5]),
        );
        Some(Box::new(MddProp::new(&mut l.engine.doms, x, Arc::new(m))?))
    }
}

pub(super) struct RegularRegex;

impl Lowering for RegularRegex {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let p = self.propagator(l, args)?;
        l.engine.add_prop(p);
        Some(())
    }
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let GlobalArg::Regex(r) = &args[1] else {
            return None;
        };
        let x = l.vars_of(&args[0])?;
        // The values each position may take that some transition reads.
        let d = &l.engine.doms;
        let mut budget = MAX_LISTED;
        let mut layers: Vec<Vec<i64>> = Vec::with_capacity(x.len());
        for &v in &x {
            let mut layer = Vec::new();
            if d.is_bitset(v) {
                layer.extend(d.values(v).filter(|&a| r.used[r.class(a) as usize]));
            } else {
                let (lo, hi) = (d.min(v), d.max(v));
                if r.listed(lo, hi, budget) > budget {
                    return None;
                }
                for c in r.class(lo)..=r.class(hi) {
                    if r.used[c as usize] {
                        let (a, b) = r.cell(c);
                        layer.extend(a.max(lo)..=b.min(hi));
                    }
                }
            }
            budget = budget.checked_sub(layer.len() as u64)?;
            layers.push(layer);
        }
        let cells = MAX_LISTED - budget;
        if cells.saturating_mul(r.dfa.states() as u64) > MAX_GRAPH {
            return None;
        }
        let mut values: Vec<i64> = layers.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        let code = |a: i64| values.partition_point(|&b| b < a) as u32;
        let coded: Vec<Vec<(u32, u32)>> = layers
            .iter()
            .map(|layer| layer.iter().map(|&a| (code(a), r.class(a))).collect())
            .collect();
        let slices: Vec<&[(u32, u32)]> = coded.iter().map(Vec::as_slice).collect();
        let m = r.dfa.unroll(values, &slices);
        Some(Box::new(MddProp::new(&mut l.engine.doms, x, Arc::new(m))?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::globals::holds::regular as accepts;

    /// Words over {1, 2} with no two 2s in a row, ending in 1.
    const D: [i64; 4] = [1, 2, 1, 0]; // state 1: last was 1; state 2: last was 2

    fn brute(n: usize) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for bits in 0..1u32 << n {
            let x: Vec<i64> = (0..n)
                .map(|i| 1 + (bits >> (n - 1 - i) & 1) as i64)
                .collect();
            if accepts(2, 2, &D, 1, &[1], &x) {
                out.push(x);
            }
        }
        out.sort();
        out
    }

    #[test]
    fn the_layered_graph_holds_the_accepted_words() {
        for n in 0..=7 {
            let m = unroll(n, 2, 2, &D, 1, &[1]);
            assert_eq!(m.rows(), brute(n), "n = {n}");
            assert_eq!(m.rows as usize, brute(n).len());
        }
    }

    #[test]
    fn no_accepting_path_is_an_empty_diagram() {
        let m = unroll(3, 2, 2, &D, 1, &[]);
        assert!(m.rows().is_empty());
        assert_eq!(m.rows, 0);
    }
}
