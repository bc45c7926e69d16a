//! Value selection: which value of the chosen variable to try first.

use crate::engine::{Engine, PropId};
use crate::model::{ValSelect, VarId};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

/// Buffers reused from node to node, so that choosing a value allocates nothing.
#[derive(Default)]
pub struct Scratch {
    values: Vec<i64>,
    neighbours: Vec<VarId>,
    watchers: Vec<PropId>,
}

pub fn select(
    kind: ValSelect,
    engine: &mut Engine,
    v: VarId,
    rng: &mut Xoshiro256PlusPlus,
    scratch: &mut Scratch,
) -> i64 {
    let d = &engine.doms;
    match kind {
        ValSelect::Min => d.min(v),
        ValSelect::Max => d.max(v),
        ValSelect::Random => {
            let k = rng.random_range(0..d.size(v));
            d.values(v).nth(k as usize).unwrap_or_else(|| d.min(v))
        }
        ValSelect::Lcv => least_constraining(engine, v, scratch),
        ValSelect::Score => match engine.word_scores.get(v).and_then(Option::as_ref) {
            // The first value of the highest score: smallest word among ties.
            Some(list) => d
                .values(v)
                .max_by_key(|&x| (list.scores[x as usize], -x))
                .unwrap_or_else(|| d.min(v)),
            None => d.min(v),
        },
    }
}

/// The value that leaves the most values in the domains of `v`'s neighbours
/// after one step of propagation from it; ties go to the smallest value.
/// A value whose propagation fails scores lowest.
/// LCV tries each value with a propagation step: beyond this many values
/// (auxiliary variables can hold millions) it takes the smallest instead.
const MAX_LCV_VALUES: u64 = 1024;

fn least_constraining(engine: &mut Engine, v: VarId, scratch: &mut Scratch) -> i64 {
    if engine.doms.size(v) > MAX_LCV_VALUES {
        return engine.doms.min(v);
    }
    let Scratch {
        values,
        neighbours,
        watchers,
    } = scratch;
    values.clear();
    values.extend(engine.doms.values(v));
    if values.len() == 1 {
        return values[0];
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
    best.1
}
