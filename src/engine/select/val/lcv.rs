//! Least-constraining value: the value that leaves the most values in the
//! domains of the variable's neighbours after one step of propagation from
//! it; ties go to the smallest value, and a value whose propagation fails
//! scores lowest.

use super::{Branch, Rng, ValSelector};
use crate::engine::{Engine, PropId};
use crate::model::VarId;

/// LCV tries each value with a propagation step: beyond this many values it
/// takes the smallest instead (auxiliary variables can hold millions).
const MAX_LCV_VALUES: u64 = 1024;

/// Buffers reused from node to node, so that choosing a value allocates nothing.
#[derive(Default)]
pub(super) struct Lcv {
    values: Vec<i64>,
    neighbours: Vec<VarId>,
    watchers: Vec<PropId>,
}

impl ValSelector for Lcv {
    fn select(&mut self, engine: &mut Engine, v: VarId, _: &mut Rng) -> Branch {
        if engine.doms.size(v) > MAX_LCV_VALUES || !engine.doms.is_bitset(v) {
            return Branch::Assign(engine.doms.min(v));
        }
        let Lcv {
            values,
            neighbours,
            watchers,
        } = self;
        values.clear();
        values.extend(engine.doms.values(v));
        if values.len() == 1 {
            return Branch::Assign(values[0]);
        }
        watchers.clear();
        watchers.extend(engine.watchers[v].iter().map(|&(p, _)| p));
        neighbours.clear();
        for &p in watchers.iter() {
            neighbours.extend(engine.props[p].vars().iter().filter(|&&w| w != v));
        }
        neighbours.sort_unstable();
        neighbours.dedup();
        let mut best = (i128::MIN, values[0]);
        for &x in values.iter() {
            let cp = engine.doms.checkpoint();
            let mut ok = engine.doms.fix(v, x).is_ok();
            for &p in watchers.iter() {
                if !ok {
                    break;
                }
                ok = engine.propagate_alone(p).is_ok();
            }
            let left: i128 = if ok {
                neighbours
                    .iter()
                    .map(|&w| engine.doms.size(w) as i128)
                    .sum()
            } else {
                -1
            };
            engine.doms.restore(cp);
            if left > best.0 {
                best = (left, x);
            }
        }
        Branch::Assign(best.1)
    }
}
