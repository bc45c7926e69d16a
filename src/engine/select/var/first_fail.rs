//! First-fail (minimum remaining values, `mrv`): the smallest domain first,
//! where a wrong choice is found out soonest. Alone, it runs as the plain
//! loops below, the hottest selection of word and queens models; in a chain
//! (`mrv-degree`, `degree-mrv`) as the evaluator [`FirstFail`].

use super::{Evaluator, Node, Rng};
use crate::engine::Engine;
use crate::engine::domains::Domains;
use crate::model::{Propagation, VarId};

pub(super) struct FirstFail;

impl Evaluator for FirstFail {
    fn score(&mut self, node: &Node, v: VarId, _: &mut Rng) -> u128 {
        u128::from(node.engine.doms.size(v))
    }
}

/// The first `open` candidate of the smallest domain. `open` is generic so
/// that the search's own test inlines. Under `ac` an open domain has two
/// values at least (under `fc` and `none` a variable fixed by pruning is
/// still open until decided), so the first one that small is the answer.
#[inline]
pub(super) fn smallest(
    engine: &Engine,
    candidates: &[VarId],
    open: impl Fn(VarId) -> bool,
) -> Option<VarId> {
    let least = if engine.level == Propagation::Ac {
        2
    } else {
        1
    };
    let mut best: Option<(VarId, u64)> = None;
    for &v in candidates {
        if open(v) {
            let size = engine.doms.size(v);
            if best.is_none_or(|(_, s)| size < s) {
                best = Some((v, size));
                if size <= least {
                    break;
                }
            }
        }
    }
    best.map(|(v, _)| v)
}

/// [`smallest`] where open means not fixed, that is two values or more:
/// the same answer from sizes alone. A fixed variable gets the worst key
/// instead of a branch of its own, so the loop does not branch on which
/// variables happen to be fixed, a test the processor mispredicts at random
/// while the leaves of an enumeration are visited one by one (crosswords).
/// The domains must not be empty (none is after a fixpoint).
#[inline]
pub(super) fn smallest_unfixed(doms: &Domains, candidates: &[VarId]) -> Option<VarId> {
    let mut best = (u64::MAX, None);
    for &v in candidates {
        let size = doms.size(v);
        let key = if size >= 2 { size } else { u64::MAX };
        if key < best.0 {
            best = (key, Some(v));
            if key == 2 {
                break;
            }
        }
    }
    best.1
}
