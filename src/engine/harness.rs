//! A test harness for propagators: make variables, post one propagator,
//! change domains, assert domains — and a brute-force filter that checks a
//! propagator on random small domains for the strength its module doc claims.
//!
//! ```ignore
//! let mut h = Harness::new();
//! let x = h.range(0, 9);
//! h.post(Member::new(x, vec![3, 5].into()));
//! assert_eq!(h.values(x), vec![3, 5]);
//! ```

use super::Engine;
use super::domains::PResult;
use super::propagator::Propagator;
use crate::model::{Propagation, VarId};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

pub(crate) struct Harness {
    pub(crate) engine: Engine,
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    pub(crate) fn new() -> Self {
        Harness {
            engine: Engine::new(Propagation::Ac),
        }
    }

    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> VarId {
        self.engine.add_range(lo, hi)
    }

    pub(crate) fn var(&mut self, values: &[i64]) -> VarId {
        self.engine.add_var(values)
    }

    /// Posts the propagator and runs it to a fixpoint; panics if that fails.
    pub(crate) fn post(&mut self, p: impl Propagator + 'static) {
        self.try_post(p).expect("propagation failed");
    }

    /// Posts the propagator and runs everything to a fixpoint.
    pub(crate) fn try_post(&mut self, p: impl Propagator + 'static) -> PResult {
        self.try_post_boxed(Box::new(p))
    }

    pub(crate) fn try_post_boxed(&mut self, p: Box<dyn Propagator>) -> PResult {
        self.engine.add_prop(p);
        self.engine.propagate_root()
    }

    fn after(&mut self, r: Result<bool, super::domains::Fail>) -> PResult {
        r?;
        self.engine.fixpoint()
    }

    pub(crate) fn set_min(&mut self, x: VarId, v: i64) -> PResult {
        let r = self.engine.doms.set_min(x, v);
        self.after(r)
    }
    pub(crate) fn set_max(&mut self, x: VarId, v: i64) -> PResult {
        let r = self.engine.doms.set_max(x, v);
        self.after(r)
    }
    pub(crate) fn fix(&mut self, x: VarId, v: i64) -> PResult {
        let r = self.engine.doms.fix(x, v);
        self.after(r)
    }
    pub(crate) fn remove(&mut self, x: VarId, v: i64) -> PResult {
        let r = self.engine.doms.remove(x, v);
        self.after(r)
    }

    /// Learning (after `engine.start_learning()`): the explanation of the
    /// entry of the literal trail that made `lit` true, sorted.
    pub(crate) fn explanation(&self, lit: super::learn::Lit) -> Vec<super::learn::Lit> {
        let trail = self.engine.doms.learn.as_deref().expect("learning is on");
        let nogoods = self.engine.nogoods.as_ref().expect("learning is on");
        let i = trail
            .reason_entry(lit, trail.len())
            .expect("set on the trail");
        let mut out = Vec::new();
        assert!(super::learn::analysis::explain_entry(
            trail,
            &self.engine.props,
            nogoods,
            i,
            &mut out
        ));
        out.sort();
        out.dedup();
        out
    }

    /// Learning: after a failed propagation, the explanation of the failure
    /// (the failing cause's explanation and, when it asked for a literal,
    /// the literal that contradicts it), sorted; `None` if no propagator
    /// failed.
    pub(crate) fn failure_explanation(&self) -> Option<Vec<super::learn::Lit>> {
        use super::learn::Cause;
        use super::learn::analysis::{contradiction, explain_cause};
        let trail = self.engine.doms.learn.as_deref().expect("learning is on");
        let nogoods = self.engine.nogoods.as_ref().expect("learning is on");
        let c = trail.conflict?;
        if !matches!(c.cause, Cause::Prop(_)) {
            return None;
        }
        let mut out = Vec::new();
        let n = trail.len();
        assert!(explain_cause(
            trail,
            &self.engine.props,
            nogoods,
            c.cause,
            c.asked,
            n,
            &mut out
        ));
        if let Some(a) = c.asked {
            contradiction(trail, a, n, &mut out);
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    pub(crate) fn values(&self, x: VarId) -> Vec<i64> {
        self.engine.doms.values(x).collect()
    }
    pub(crate) fn bounds(&self, x: VarId) -> (i64, i64) {
        (self.engine.doms.min(x), self.engine.doms.max(x))
    }
}

/// How much a propagator promises to prune at its fixpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strength {
    /// Generalised arc consistency: every value left has a support.
    Domain,
    /// Bounds(Z) consistency: each bound has a support in which every other
    /// variable takes an integer between its own bounds.
    Bounds,
    /// Only correct and checking.
    Check,
}

/// Checks a propagator against brute force on random small domains:
/// `arity` variables with random subsets of `-3..=4`, the propagator posted
/// and run, then random decisions (fix, bounds, removals) each followed by a
/// fixpoint. After every step: no solution of `holds` within the domains
/// before the step was lost, failure only when there is no solution, and the
/// `strength` holds. `make` builds the propagator over the variables (or
/// `None` when it refuses these domains).
///
/// Then the same with repeated variables: the propagator's positions drawn
/// from fewer variables (`x` in two positions, as in `alldifferent([x, y,
/// x])`), where it must stay correct and checking (no strength is claimed).
/// Both again, fewer trials, with large values beside the small ones
/// (about two more from `-12..=12`).
pub(crate) fn check_random(
    name: &str,
    strength: Strength,
    arity: usize,
    make: impl Fn(&mut super::domains::Domains, &[VarId]) -> Option<Box<dyn Propagator>>,
    holds: impl Fn(&[i64]) -> bool,
) {
    check_random_with(name, strength, arity, make, holds, |_| None);
}

/// [`check_random`] with an extra check of the domains after each
/// successful propagation (for strengths the enum does not name, such as
/// bounds(R) consistency); it returns a complaint or `None`.
pub(crate) fn check_random_with(
    name: &str,
    strength: Strength,
    arity: usize,
    make: impl Fn(&mut super::domains::Domains, &[VarId]) -> Option<Box<dyn Propagator>>,
    holds: impl Fn(&[i64]) -> bool,
    extra: impl Fn(&[Vec<i64>]) -> Option<String>,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed ^ name.len() as u64);
    let distinct: Vec<usize> = (0..arity).collect();
    // The wide rounds add a few values from a larger range, so that rules
    // which need sums, loads or distances beyond `-3..=4` fire; the small
    // values stay, or propagators over indices would mostly fail at once.
    let rounds = [
        ("", SMALL, false, 300),
        (" (repeated variables)", SMALL, true, 300),
        (" (wide values)", WIDE, false, 50),
        (" (repeated variables, wide values)", WIDE, true, 50),
    ];
    for (label, draw, repeated, trials) in rounds {
        if repeated && arity < 2 {
            continue;
        }
        let name = format!("{name}{label}");
        // On repeated variables no strength is claimed, so no extra check.
        let extra = |d: &[Vec<i64>]| if repeated { None } else { extra(d) };
        let strength = if repeated { Strength::Check } else { strength };
        for trial in 0..trials {
            let of_position = if repeated {
                repeated_positions(&mut rng, arity)
            } else {
                distinct.clone()
            };
            run_trial(
                &name,
                strength,
                trial,
                &of_position,
                &mut rng,
                &make,
                &holds,
                &extra,
                draw.clone(),
            );
        }
    }
}

/// [`check_random`] on variables of different kinds: variable `i` takes
/// random subsets of `ranges[i]` (0/1 for a boolean, `0..=n` for a count),
/// each in its own position. A propagator over the same variable in two
/// places is checked by passing it the same variable twice in `make`.
pub(crate) fn check_random_shaped(
    name: &str,
    strength: Strength,
    ranges: &[std::ops::RangeInclusive<i64>],
    make: impl Fn(&mut super::domains::Domains, &[VarId]) -> Option<Box<dyn Propagator>>,
    holds: impl Fn(&[i64]) -> bool,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5e75 ^ name.len() as u64);
    let distinct: Vec<usize> = (0..ranges.len()).collect();
    let draw = Draw {
        per_var: Some(ranges.to_vec()),
        ..SMALL
    };
    for trial in 0..300 {
        run_trial(
            name,
            strength,
            trial,
            &distinct,
            &mut rng,
            &make,
            &holds,
            &|_: &[Vec<i64>]| -> Option<String> { None },
            draw.clone(),
        );
    }
}

/// Position `i` reads variable `of_position[i]`, drawn from fewer than
/// `arity` variables (at least one of them in two positions).
fn repeated_positions(rng: &mut Xoshiro256PlusPlus, arity: usize) -> Vec<usize> {
    let bases = rng.random_range(1..arity);
    let mut of_position: Vec<usize> = (0..arity).map(|_| rng.random_range(0..bases)).collect();
    of_position[rng.random_range(0..arity)] = bases - 1;
    of_position
}

/// The values and the trials of [`run_trial`]: random subsets of
/// `values`, explanations checked in the first `explained` trials while the
/// root has at most `tuples` tuples.
#[derive(Clone)]
struct Draw {
    values: std::ops::RangeInclusive<i64>,
    /// Variable `i` draws from `per_var[i]` instead, when given.
    per_var: Option<Vec<std::ops::RangeInclusive<i64>>>,
    explained: usize,
    tuples: usize,
    /// Each value of the range is kept with probability `keep.0 / keep.1`.
    keep: (u32, u32),
    /// Values of this wider range outside `values`, each kept with the
    /// probability given beside it: large values next to the small ones,
    /// so that propagators over indices (1..=n) keep their structure.
    outer: Option<(std::ops::RangeInclusive<i64>, (u32, u32))>,
}

const SMALL: Draw = Draw {
    values: -3..=4,
    per_var: None,
    explained: 100,
    tuples: 2048,
    keep: (2, 3),
    outer: None,
};

/// About four values per variable from `-3..=4` and two more from
/// `-12..=12`.
const WIDE: Draw = Draw {
    values: -3..=4,
    per_var: None,
    explained: 100,
    tuples: 2048,
    keep: (1, 2),
    outer: Some((-12..=12, (2, 17))),
};

/// Learning: checks a propagator's explanations by brute force on
/// `trials` random trials over wider domains than [`check_random`]'s
/// (random subsets of `values`), so that its rules fire on more tasks,
/// terms or values: every literal it sets follows from its explanation
/// within the root domains, and every failure's explanation has no
/// solution. Only correctness is checked on the way (no strength). Half
/// the trials draw the positions from fewer variables, as
/// [`check_random`]'s second half does.
pub(crate) fn check_explanations_random(
    name: &str,
    arity: usize,
    values: std::ops::RangeInclusive<i64>,
    trials: usize,
    make: impl Fn(&mut super::domains::Domains, &[VarId]) -> Option<Box<dyn Propagator>>,
    holds: impl Fn(&[i64]) -> bool,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xe7 ^ name.len() as u64);
    let distinct: Vec<usize> = (0..arity).collect();
    let draw = Draw {
        values,
        per_var: None,
        explained: trials,
        tuples: 200_000,
        keep: SMALL.keep,
        outer: None,
    };
    for trial in 0..trials {
        let of_position = if arity >= 2 && trial % 2 == 1 {
            repeated_positions(&mut rng, arity)
        } else {
            distinct.clone()
        };
        run_trial(
            name,
            Strength::Check,
            trial,
            &of_position,
            &mut rng,
            &make,
            &holds,
            &|_: &[Vec<i64>]| -> Option<String> { None },
            draw.clone(),
        );
    }
}

/// One trial: variables `0..=max(of_position)`, the propagator over
/// `of_position` (position `i` reads variable `of_position[i]`).
#[expect(clippy::too_many_arguments, reason = "a test helper's whole context")]
fn run_trial(
    name: &str,
    strength: Strength,
    trial: usize,
    of_position: &[usize],
    rng: &mut Xoshiro256PlusPlus,
    make: &impl Fn(&mut super::domains::Domains, &[VarId]) -> Option<Box<dyn Propagator>>,
    holds: &impl Fn(&[i64]) -> bool,
    extra: &impl Fn(&[Vec<i64>]) -> Option<String>,
    draw: Draw,
) {
    let mut h = Harness::new();
    let count = of_position.iter().max().map_or(0, |&m| m + 1);
    let vars: Vec<VarId> = (0..count)
        .map(|i| {
            let range = draw
                .per_var
                .as_ref()
                .map_or_else(|| draw.values.clone(), |r| r[i].clone());
            let mut kept = |(num, den): (u32, u32)| rng.random_range(0..den) >= den - num;
            let mut values: Vec<i64> = range.clone().filter(|_| kept(draw.keep)).collect();
            if let Some((outer, keep)) = &draw.outer {
                values.extend(
                    outer
                        .clone()
                        .filter(|v| !range.contains(v))
                        .filter(|_| kept(*keep)),
                );
                values.sort_unstable();
            }
            if values.is_empty() {
                values.push(rng.random_range(range));
            }
            h.var(&values)
        })
        .collect();
    let args: Vec<VarId> = of_position.iter().map(|&i| vars[i]).collect();
    let Some(p) = make(&mut h.engine.doms, &args) else {
        return;
    };
    let holds = |t: &[i64]| holds(&of_position.iter().map(|&i| t[i]).collect::<Vec<_>>());
    let mut before = snapshot(&h, &vars);
    // With learning on, every literal the propagator sets is explained
    // (`check_explanations`) against the root domains.
    h.engine.start_learning();
    let root = before.clone();
    let mut checked = 0;
    let mut result = h.try_post_boxed(p);
    for step in 0..6 {
        verify(
            name, trial, step, strength, &h, &vars, &before, result, &holds,
        );
        if trial < draw.explained {
            checked = check_explanations(
                name,
                (trial, step),
                &h,
                &vars,
                &root,
                checked,
                result,
                &holds,
                draw.tuples,
            );
        }
        if result.is_ok()
            && let Some(complaint) = extra(&snapshot(&h, &vars))
        {
            panic!("{name}: trial {trial}, step {step}, from {before:?}: {complaint}");
        }
        if result.is_err() {
            break;
        }
        // A random decision, applied to the domains alone; then the
        // propagator runs from exactly those domains.
        let x = vars[rng.random_range(0..vars.len())];
        let pick: Vec<i64> = h.values(x);
        let v = pick[rng.random_range(0..pick.len())];
        let doms = &mut h.engine.doms;
        doms.checkpoint();
        let decided = match rng.random_range(0..4) {
            0 => doms.fix(x, v),
            1 => doms.set_min(x, v),
            2 => doms.set_max(x, v),
            _ => doms.remove(x, v),
        };
        if decided.is_err() {
            break;
        }
        before = snapshot(&h, &vars);
        result = h.engine.fixpoint();
    }
}

/// Learning: every literal on the trail that the propagator (number 0) set
/// follows from its explanation — no solution of the constraint within the
/// root domains satisfies the explanation but not the literal — and a
/// failure's explanation has no solution at all. Skipped when the root
/// has too many tuples or a literal names a variable of the propagator's
/// own making.
#[expect(clippy::too_many_arguments, reason = "a test helper's whole context")]
fn check_explanations(
    name: &str,
    (trial, step): (usize, usize),
    h: &Harness,
    vars: &[VarId],
    root: &[Vec<i64>],
    from: usize,
    result: PResult,
    holds: &impl Fn(&[i64]) -> bool,
    max_tuples: usize,
) -> usize {
    use super::learn::analysis::{contradiction, explain_cause, explain_entry};
    use super::learn::{Cause, Lit};
    let (Some(trail), Some(nogoods)) = (h.engine.doms.learn.as_deref(), &h.engine.nogoods) else {
        return 0;
    };
    if root.iter().map(Vec::len).product::<usize>() > max_tuples {
        return trail.len();
    }
    let solutions: Vec<Vec<i64>> = tuples(root).into_iter().filter(|t| holds(t)).collect();
    let index = |l: &Lit| vars.iter().position(|&v| v == l.var);
    let all_hold =
        |t: &[i64], lits: &[Lit]| lits.iter().all(|l| index(l).is_some_and(|k| l.holds(t[k])));
    let known = |lits: &[Lit]| lits.iter().all(|l| index(l).is_some());
    let props = &h.engine.props;
    for i in from.min(trail.len())..trail.len() {
        let e = *trail.entry(i);
        if !matches!(e.cause, Cause::Prop(_) | Cause::Implied) {
            continue;
        }
        let mut expl = Vec::new();
        assert!(explain_entry(trail, props, nogoods, i, &mut expl));
        if !known(&expl) || index(&e.lit).is_none() {
            continue;
        }
        for t in &solutions {
            assert!(
                !all_hold(t, &expl) || all_hold(t, &[e.lit]),
                "{name}: trial {trial}, step {step}: {} explained by {expl:?}, but {t:?} is a solution",
                e.lit
            );
        }
    }
    if result.is_err()
        && let Some(c) = trail.conflict
        && matches!(c.cause, Cause::Prop(_))
    {
        let mut expl = Vec::new();
        assert!(explain_cause(
            trail,
            props,
            nogoods,
            c.cause,
            c.asked,
            trail.len(),
            &mut expl
        ));
        if let Some(a) = c.asked {
            contradiction(trail, a, trail.len(), &mut expl);
        }
        if known(&expl) {
            for t in &solutions {
                assert!(
                    !all_hold(t, &expl),
                    "{name}: trial {trial}, step {step}: failure explained by {expl:?}, but {t:?} is a solution"
                );
            }
        }
    }
    trail.len()
}

fn snapshot(h: &Harness, vars: &[VarId]) -> Vec<Vec<i64>> {
    vars.iter().map(|&x| h.values(x)).collect()
}

/// Every tuple of the domains' cartesian product.
fn tuples(domains: &[Vec<i64>]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for d in domains {
        out = out
            .into_iter()
            .flat_map(|t| {
                d.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    out
}

#[expect(clippy::too_many_arguments, reason = "a test helper's whole context")]
fn verify(
    name: &str,
    trial: usize,
    step: usize,
    strength: Strength,
    h: &Harness,
    vars: &[VarId],
    before: &[Vec<i64>],
    result: PResult,
    holds: &impl Fn(&[i64]) -> bool,
) {
    let where_ = format!("{name}: trial {trial}, step {step}, from domains {before:?}");
    let given: Vec<Vec<i64>> = tuples(before).into_iter().filter(|t| holds(t)).collect();
    if result.is_err() {
        assert!(
            given.is_empty(),
            "{where_}: failed, but {:?} is a solution",
            given[0]
        );
        return;
    }
    let now = snapshot(h, vars);
    let where_ = format!("{where_} to {now:?}");
    for t in &given {
        assert!(
            t.iter().zip(&now).all(|(v, d)| d.contains(v)),
            "{where_}: lost the solution {t:?}"
        );
    }
    // Checking: all fixed and violated must have failed.
    if now.iter().all(|d| d.len() == 1) {
        assert!(!given.is_empty(), "{where_}: fixed, violated, not failed");
    }
    match strength {
        Strength::Check => {}
        Strength::Domain => {
            assert!(!given.is_empty(), "{where_}: no solution but no failure");
            for (i, d) in now.iter().enumerate() {
                for &v in d {
                    assert!(
                        given.iter().any(|t| t[i] == v),
                        "{where_}: value {v} of variable {i} has no support"
                    );
                }
            }
        }
        Strength::Bounds => {
            let hull: Vec<Vec<i64>> = now
                .iter()
                .map(|d| (d[0]..=d[d.len() - 1]).collect())
                .collect();
            let relaxed: Vec<Vec<i64>> = tuples(&hull).into_iter().filter(|t| holds(t)).collect();
            for (i, d) in now.iter().enumerate() {
                for v in [d[0], d[d.len() - 1]] {
                    assert!(
                        relaxed.iter().any(|t| t[i] == v),
                        "{where_}: bound {v} of variable {i} has no support"
                    );
                }
            }
        }
    }
}
