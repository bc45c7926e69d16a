//! Variable selection: a chain of [`Evaluator`]s scores the open candidates;
//! the lowest score wins, ties going to the next evaluator, then to the
//! earliest candidate (input order) or, when asked, to a random one.

mod degree;
mod dom_wdeg;
mod first_fail;
mod input;
mod random;
mod smallest;

pub use degree::degree;

use super::Rng;
use crate::engine::domains::Domains;
use crate::engine::{Engine, PropId};
use crate::model::{Propagation, VarId, VarSelect};

/// What an evaluator sees of the current node.
pub struct Node<'a> {
    pub engine: &'a Engine,
    /// Whether a variable is still to be assigned.
    pub open: &'a dyn Fn(VarId) -> bool,
}

/// One criterion for choosing a variable: smaller scores are better.
pub trait Evaluator {
    fn score(&mut self, node: &Node, v: VarId, rng: &mut Rng) -> u128;

    /// A propagator failed (dom/wdeg learns from it).
    fn on_failure(&mut self, _engine: &Engine, _p: PropId) {}

    /// Whether it can choose differently in a second run over the same
    /// tree: it learns, or draws at random. Restarts only help then.
    fn varies(&self) -> bool {
        false
    }
}

/// The evaluator chain for a variable-selection name.
pub fn build(kind: VarSelect) -> VarSelector {
    let chain: Vec<Box<dyn Evaluator>> = match kind {
        VarSelect::Input => vec![Box::new(input::Input)],
        VarSelect::Mrv => vec![Box::new(first_fail::FirstFail)],
        VarSelect::Degree => vec![Box::new(degree::Degree)],
        VarSelect::MrvDegree => vec![Box::new(first_fail::FirstFail), Box::new(degree::Degree)],
        VarSelect::DegreeMrv => vec![Box::new(degree::Degree), Box::new(first_fail::FirstFail)],
        VarSelect::DomWdeg => vec![Box::new(dom_wdeg::DomWdeg::default())],
        VarSelect::Random => vec![Box::new(random::Random)],
        VarSelect::Smallest => vec![
            Box::new(smallest::SmallestMin),
            Box::new(smallest::SmallestMax),
        ],
    };
    VarSelector {
        input_order: kind == VarSelect::Input,
        first_fail: kind == VarSelect::Mrv,
        chain,
        random_ties: false,
        best: Vec::new(),
        scores: Vec::new(),
    }
}

/// First-fail alone ([`VarSelector::is_first_fail`]) as a plain loop, the
/// hottest selection of word and queens models: the first open candidate of
/// the smallest domain. `open` is generic so that the search's own test
/// inlines (the evaluators' chain calls it dynamically). Under `ac` an open
/// domain has two values at least (under `fc` and `none` a variable fixed by
/// pruning is still open), so the first one that small is the answer.
pub fn first_fail(
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

/// [`first_fail`] under `ac`, where open means not fixed, that is two
/// values or more: the same answer from sizes alone. A fixed variable gets
/// the worst key instead of a branch of its own, so the loop does not branch
/// on which variables happen to be fixed, a test the processor mispredicts
/// at random while the leaves of an enumeration are visited one by one
/// (crosswords). The domains must not be empty (none is after a fixpoint).
pub fn first_fail_ac(doms: &Domains, candidates: &[VarId]) -> Option<VarId> {
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

pub struct VarSelector {
    chain: Vec<Box<dyn Evaluator>>,
    /// The chain is input order alone (the search resumes its scan).
    input_order: bool,
    /// The chain is first-fail alone (the search runs it as a plain loop).
    first_fail: bool,
    random_ties: bool,
    /// Scratch: the best candidate's scores, computed as far as ties needed,
    /// and the current candidate's.
    best: Vec<u128>,
    scores: Vec<u128>,
}

impl VarSelector {
    /// Break the last ties at random instead of by input order.
    pub fn with_random_ties(mut self, on: bool) -> Self {
        self.random_ties = on;
        self
    }

    /// Whether plain input order applies (no scores, no random ties).
    pub fn is_input_order(&self) -> bool {
        self.input_order && !self.random_ties
    }

    /// Whether this is first-fail alone (`mrv`, ties to the first in input
    /// order), which the search runs as a plain loop: its hottest selection.
    pub fn is_first_fail(&self) -> bool {
        self.first_fail && !self.random_ties
    }

    pub fn varies(&self) -> bool {
        self.random_ties || self.chain.iter().any(|e| e.varies())
    }

    pub fn on_failure(&mut self, engine: &Engine, p: PropId) {
        for e in &mut self.chain {
            e.on_failure(engine, p);
        }
    }

    /// The best of the open `candidates`, if any is open.
    pub fn select(&mut self, node: &Node, candidates: &[VarId], rng: &mut Rng) -> Option<VarId> {
        use rand::RngExt;
        if self.is_first_fail() {
            return first_fail(node.engine, candidates, node.open);
        }
        let mut best: Option<VarId> = None;
        let mut ties = 0u32;
        let mut scores = std::mem::take(&mut self.scores);
        for &v in candidates {
            if !(node.open)(v) {
                continue;
            }
            let Some(b) = best else {
                self.best.clear();
                best = Some(v);
                ties = 0;
                continue;
            };
            // Compare level by level, computing scores only as far as needed.
            scores.clear();
            let mut order = std::cmp::Ordering::Equal;
            for (level, e) in self.chain.iter_mut().enumerate() {
                if self.best.len() <= level {
                    let s = e.score(node, b, rng);
                    self.best.push(s);
                }
                let s = e.score(node, v, rng);
                scores.push(s);
                order = s.cmp(&self.best[level]);
                if order != std::cmp::Ordering::Equal {
                    break;
                }
            }
            match order {
                std::cmp::Ordering::Less => {
                    best = Some(v);
                    self.best.clear();
                    self.best.extend_from_slice(&scores);
                    ties = 0;
                }
                std::cmp::Ordering::Equal => {
                    ties += 1;
                    if self.random_ties && rng.random_range(0..=ties) == 0 {
                        best = Some(v);
                    }
                }
                std::cmp::Ordering::Greater => {}
            }
        }
        self.scores = scores;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::props::linear::{LinOp, Linear};
    use rand::SeedableRng;

    /// Three variables: x in 1..5 (two constraints), y in 1..3 (one), z in
    /// 1..3 (two).
    fn setup() -> (Harness, [VarId; 3]) {
        let mut h = Harness::new();
        let (x, y, z) = (h.range(1, 5), h.range(1, 3), h.range(1, 3));
        for pair in [[x, y], [x, z]] {
            h.post(Linear::new(
                vec![(1, pair[0]), (1, pair[1])],
                -100,
                LinOp::Le,
            ));
        }
        h.post(Linear::new(vec![(1, z), (-1, x)], -100, LinOp::Le));
        (h, [x, y, z])
    }

    fn pick(kind: VarSelect, h: &Harness, vars: &[VarId]) -> VarId {
        let open = |_: VarId| true;
        let node = Node {
            engine: &h.engine,
            open: &open,
        };
        let mut rng = Rng::seed_from_u64(0);
        build(kind).select(&node, vars, &mut rng).unwrap()
    }

    #[test]
    fn chains_break_ties_with_the_next_evaluator() {
        let (h, [x, y, z]) = setup();
        let all = [x, y, z];
        assert_eq!(pick(VarSelect::Input, &h, &all), x);
        assert_eq!(pick(VarSelect::Mrv, &h, &all), y, "first of the smallest");
        assert_eq!(
            pick(VarSelect::MrvDegree, &h, &all),
            z,
            "smallest, then most constrained"
        );
        assert_eq!(pick(VarSelect::Degree, &h, &all), x, "three constraints");
        assert_eq!(pick(VarSelect::DegreeMrv, &h, &[y, z, x]), x);
    }

    #[test]
    fn closed_variables_are_skipped() {
        let (h, [x, y, z]) = setup();
        let open = |v: VarId| v != y;
        let node = Node {
            engine: &h.engine,
            open: &open,
        };
        let mut rng = Rng::seed_from_u64(0);
        assert_eq!(
            build(VarSelect::Mrv).select(&node, &[x, y, z], &mut rng),
            Some(z)
        );
        let none = |_: VarId| false;
        let node = Node {
            engine: &h.engine,
            open: &none,
        };
        assert_eq!(
            build(VarSelect::Mrv).select(&node, &[x, y, z], &mut rng),
            None
        );
    }

    #[test]
    fn only_learning_or_random_selectors_vary() {
        assert!(!build(VarSelect::MrvDegree).varies());
        assert!(build(VarSelect::DomWdeg).varies());
        assert!(build(VarSelect::Random).varies());
        assert!(build(VarSelect::Mrv).with_random_ties(true).varies());
    }
}
