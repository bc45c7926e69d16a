//! The decision rule, one for the search and the split (`split.rs`), so
//! that a split's sub-problems are the search's own subtrees: which
//! decision to take on a variable, and how a decision or its negation
//! changes the domains.

use crate::engine::Engine;
use crate::engine::domains::{Domains, Fail};
use crate::engine::select::val::ValSelector;
use crate::engine::select::{Branch, Decision, Rng};
use crate::model::VarId;

/// The value selector's decision on `var`, with a bound of an interval
/// domain standing in for an inner value (which `x != v` could not remove),
/// and `x = min` for a bisection that would leave one side empty.
#[inline]
pub(crate) fn decide(
    val: &mut dyn ValSelector,
    engine: &mut Engine,
    var: VarId,
    rng: &mut Rng,
) -> Branch {
    let b = val.select(engine, var, rng);
    let d = &engine.doms;
    match b {
        Branch::Assign(v) if !d.is_bitset(var) && v != d.min(var) && v != d.max(var) => {
            Branch::Assign(d.min(var))
        }
        Branch::AtMost(v) if v < d.min(var) || v >= d.max(var) => Branch::Assign(d.min(var)),
        b => b,
    }
}

/// Applies a decision (its left branch) or its negation (right).
#[inline]
pub(crate) fn apply(doms: &mut Domains, dec: Decision) -> Result<bool, Fail> {
    let var = dec.var;
    match (dec.branch, dec.right) {
        (Branch::Assign(v), false) => doms.fix(var, v),
        (Branch::Assign(v), true) => doms.remove(var, v),
        (Branch::AtMost(v), false) => doms.set_max(var, v),
        (Branch::AtMost(v), true) => doms.set_min(var, v + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::select::val;
    use crate::model::{Model, ValSelect};
    use rand::SeedableRng;

    /// A decision and its negation split a domain in two, each value on
    /// exactly one side, for every value selection on bitset and interval
    /// domains: the right branch can always remove what the left took.
    #[test]
    fn a_decision_and_its_negation_partition_the_domain() {
        for &kind in &[
            ValSelect::Min,
            ValSelect::Max,
            ValSelect::Random,
            ValSelect::Split,
            ValSelect::Lcv,
        ] {
            for (lo, hi) in [(3, 9), (0, 70_000), (5, 6)] {
                let mut h = Harness::new();
                let x = h.range(lo, hi);
                let mut rng = Rng::seed_from_u64(1);
                let mut sel = val::build(kind, &Model::default());
                let branch = decide(sel.as_mut(), &mut h.engine, x, &mut rng);
                let side = |right: bool| {
                    let mut h = Harness::new();
                    let y = h.range(lo, hi);
                    let dec = Decision {
                        var: y,
                        branch,
                        right,
                    };
                    apply(&mut h.engine.doms, dec).expect("a side is not empty");
                    h.values(y)
                };
                let (mut l, r) = (side(false), side(true));
                assert!(!l.is_empty() && !r.is_empty(), "{kind:?} {lo}..{hi}");
                l.extend(r);
                l.sort_unstable();
                // Each value once: no value on both sides, none on neither.
                assert_eq!(l, (lo..=hi).collect::<Vec<_>>(), "{kind:?} {lo}..{hi}");
            }
        }
    }
}
