//! Variable selection. Each heuristic scores the unassigned candidates; the
//! lowest score wins, ties going to the earliest candidate (input order) or,
//! when asked, to a random one.

use crate::engine::Engine;
use crate::model::{VarId, VarSelect};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

/// Picks among `candidates` those for which `open` holds.
pub fn select(
    kind: VarSelect,
    engine: &Engine,
    candidates: &[VarId],
    open: impl Fn(VarId) -> bool,
    random_ties: bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<VarId> {
    if kind == VarSelect::Input && !random_ties {
        return candidates.iter().copied().find(|&v| open(v));
    }
    let mut best: Option<(Score, VarId)> = None;
    let mut ties = 0u32;
    for &v in candidates {
        if !open(v) {
            continue;
        }
        let s = score(kind, engine, v, &open, rng);
        match &best {
            Some((b, _)) if s > *b => {}
            Some((b, _)) if s == *b => {
                ties += 1;
                if random_ties && rng.random_range(0..=ties) == 0 {
                    best = Some((s, v));
                }
            }
            _ => {
                best = Some((s, v));
                ties = 0;
            }
        }
    }
    best.map(|(_, v)| v)
}

/// Smaller is better; compared lexicographically.
type Score = (u64, u64);

fn score(
    kind: VarSelect,
    engine: &Engine,
    v: VarId,
    open: &impl Fn(VarId) -> bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Score {
    let size = engine.doms.size(v);
    match kind {
        VarSelect::Input => (0, 0),
        VarSelect::Mrv => (size, 0),
        VarSelect::Degree => (u64::MAX - degree(engine, v, open), 0),
        VarSelect::MrvDegree => (size, u64::MAX - degree(engine, v, open)),
        VarSelect::DegreeMrv => (u64::MAX - degree(engine, v, open), size),
        VarSelect::DomWdeg => {
            let w = weighted_degree(engine, v, open).max(1);
            // size / w, compared as a fixed-point ratio.
            ((size << 20) / w, 0)
        }
        VarSelect::Random => (rng.random_range(0..u64::MAX), 0),
    }
}

/// Constraints on `v` that involve at least one other unassigned variable.
pub fn degree(engine: &Engine, v: VarId, open: &impl Fn(VarId) -> bool) -> u64 {
    engine.watchers[v]
        .iter()
        .filter(|&&(p, _)| engine.props[p].vars().iter().any(|&w| w != v && open(w)))
        .map(|&(p, _)| u64::from(engine.props[p].weight()))
        .sum()
}

/// Like [`degree`], each constraint counted by its failure weight.
fn weighted_degree(engine: &Engine, v: VarId, open: &impl Fn(VarId) -> bool) -> u64 {
    engine.watchers[v]
        .iter()
        .filter(|&&(p, _)| engine.props[p].vars().iter().any(|&w| w != v && open(w)))
        .map(|&(p, _)| engine.prop_weight[p])
        .sum()
}
