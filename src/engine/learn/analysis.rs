//! Conflict analysis to the first unique implication point (1UIP) over the
//! literal trail: the conflict's explanation is a set of literals that
//! cannot all hold; each literal of the current decision level is replaced,
//! latest first, by its explanation, until one literal of that level is
//! left. The nogood is that literal with the others (of lower levels), and
//! the clause learned is its negation, which after backtracking asserts the
//! negation of the UIP.
//!
//! Explanations are lazy: a propagator is asked, here only, why it made a
//! literal true, reading the domains as they were then ([`Past`]); one that
//! has no explanation of its own gives the domains of all its variables
//! then, which is always correct. Analysis gives up (learns nothing) when it
//! meets a literal it cannot explain at the current level: a level holding
//! more than one decision (the fixings of a neighbourhood).

use super::nogoods::Nogoods;
use super::{Cause, Conflict, Kind, Lit, LitTrail, Past};
use crate::engine::propagator::Propagator;
use crate::model::VarId;
use std::collections::BTreeMap;

/// A learned clause and where it asserts.
#[derive(Debug)]
pub(crate) struct Learned {
    /// The clause (at least one literal holds): the UIP's negation first.
    pub(crate) clause: Vec<Lit>,
    /// The highest level among the other literals: the clause is unit
    /// there.
    pub(crate) assert_level: u32,
    pub(crate) lbd: u32,
}

/// Scratch space kept between analyses.
#[derive(Debug, Default)]
pub(crate) struct Analyser {
    seen: Vec<bool>,
    touched: Vec<usize>,
    buf: Vec<Lit>,
    /// The variables of the literals the last analysis met, for the
    /// activity of the variable selection.
    vars: Vec<VarId>,
}

struct Run<'a> {
    trail: &'a LitTrail,
    current: u32,
    counter: usize,
    lower: Vec<Lit>,
}

/// An explanation longer than this ends the analysis with nothing learned
/// (the search backtracks as without learning). Finding each literal's
/// trail entry walks its variable's changes, so a default explanation of a
/// propagator over huge domains (a crossword slot's 100,000 words, each
/// removal a literal) made one analysis quadratic in the words: minutes
/// during which no limit was checked. A nogood that long would prune
/// nothing anyway.
const MAX_EXPLANATION: usize = 1 << 10;

/// The most literals one analysis takes in over all its explanations.
const MAX_ANALYSED: usize = 1 << 14;

impl Analyser {
    /// Analyses `conflict`; `None` when nothing can be learned (or when its
    /// explanations grow past [`MAX_EXPLANATION`] or [`MAX_ANALYSED`]).
    pub(crate) fn analyse(
        &mut self,
        trail: &LitTrail,
        props: &[Box<dyn Propagator>],
        nogoods: &Nogoods,
        conflict: Conflict,
    ) -> Option<Learned> {
        if trail.level == 0 {
            return None;
        }
        if self.seen.len() < trail.len() {
            self.seen.resize(trail.len(), false);
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.vars.clear();
        let end = trail.len();
        let ok = explain_cause(
            trail,
            props,
            nogoods,
            conflict.cause,
            conflict.asked,
            end,
            &mut buf,
        );
        if !ok || buf.len() > MAX_EXPLANATION {
            self.buf = buf;
            return None;
        }
        let mut taken = buf.len();
        if let Some(a) = conflict.asked {
            contradiction(trail, a, end, &mut buf);
        }
        // The conflict's level: the highest among its literals. It may be
        // below the current one (the objective's bound, tightened by a
        // solution, fails against facts of lower levels): the analysis then
        // runs at that level, and the nogood asserts below it.
        let current = buf
            .iter()
            .map(|&q| super::nogoods::level_of(trail, q))
            .max()
            .unwrap_or(0);
        if current == 0 {
            self.buf = buf;
            return None;
        }
        let mut run = Run {
            trail,
            current,
            counter: 0,
            lower: Vec::new(),
        };
        for &q in &buf {
            self.add(&mut run, q, end);
        }
        let mut i = end;
        let uip = loop {
            if run.counter == 0 {
                self.clear();
                self.buf = buf;
                return None;
            }
            i -= 1;
            while !self.seen[i] {
                i -= 1;
            }
            self.seen[i] = false;
            run.counter -= 1;
            if run.counter == 0 {
                break trail.entry(i).lit;
            }
            buf.clear();
            let ok = explain_entry(trail, props, nogoods, i, &mut buf);
            taken += buf.len();
            if !ok || buf.len() > MAX_EXPLANATION || taken > MAX_ANALYSED {
                self.clear();
                self.buf = buf;
                return None;
            }
            for &q in &buf {
                self.add(&mut run, q, i);
            }
        };
        self.clear();
        self.buf = buf;
        self.vars.sort_unstable();
        self.vars.dedup();
        let mut nogood = run.lower;
        nogood.push(uip);
        let nogood = minimise(nogood);
        let mut clause: Vec<Lit> = nogood.iter().map(|l| l.negate()).collect();
        // The UIP's variable's literal first (minimisation may have merged it).
        if let Some(k) = clause.iter().position(|l| l.var == uip.var) {
            clause.swap(0, k);
        }
        let mut levels: Vec<u32> = nogood
            .iter()
            .map(|&l| super::nogoods::level_of(trail, l))
            .collect();
        let assert_level = levels
            .iter()
            .copied()
            .filter(|&lv| lv < current)
            .max()
            .unwrap_or(0);
        levels.sort_unstable();
        levels.dedup();
        Some(Learned {
            clause,
            assert_level,
            lbd: levels.len() as u32,
        })
    }

    /// The variables of the literals the last successful analysis met.
    pub(crate) fn vars(&self) -> &[VarId] {
        &self.vars
    }

    fn clear(&mut self) {
        for &i in &self.touched {
            self.seen[i] = false;
        }
        self.touched.clear();
    }

    /// Takes `q`, true before position `pos`, into the analysis.
    fn add(&mut self, run: &mut Run<'_>, q: Lit, pos: usize) {
        if q.kind == Kind::Eq {
            self.add(run, Lit::ge(q.var, q.val), pos);
            self.add(run, Lit::le(q.var, q.val), pos);
            return;
        }
        let Some(i) = run.trail.reason_entry(q, pos) else {
            return;
        };
        let level = run.trail.entry(i).level;
        if level == 0 {
            return;
        }
        self.vars.push(q.var);
        if level == run.current {
            if !self.seen[i] {
                self.seen[i] = true;
                self.touched.push(i);
                run.counter += 1;
            }
        } else {
            run.lower.push(q);
        }
    }
}

/// Why entry `i` holds: its cause's explanation of what it asked, and the
/// literals that bridge from that to the entry's (stronger) literal.
pub(crate) fn explain_entry(
    trail: &LitTrail,
    props: &[Box<dyn Propagator>],
    nogoods: &Nogoods,
    i: usize,
    out: &mut Vec<Lit>,
) -> bool {
    let e = *trail.entry(i);
    if e.cause != Cause::Implied
        && !explain_cause(trail, props, nogoods, e.cause, Some(e.asked), i, out)
    {
        return false;
    }
    trail.bridge(i, out);
    true
}

/// Literals, true at position `pos`, that made `cause` conclude `asked` (or
/// fail, with `None`).
pub(crate) fn explain_cause(
    trail: &LitTrail,
    props: &[Box<dyn Propagator>],
    nogoods: &Nogoods,
    cause: Cause,
    asked: Option<Lit>,
    pos: usize,
    out: &mut Vec<Lit>,
) -> bool {
    match cause {
        Cause::Decision => false,
        Cause::Bound | Cause::Implied => true,
        Cause::Prop(p) => {
            let prop = &props[p as usize];
            let past = Past { trail, pos };
            if !prop.explain(asked, &past, out) {
                for &v in prop.vars() {
                    past.domain(v, out);
                }
            }
            true
        }
        Cause::Nogood(c) => {
            let cl = &nogoods.clauses[c as usize];
            if cl.deleted {
                return false;
            }
            out.extend(
                cl.lits
                    .iter()
                    .filter(|&&l| Some(l) != asked)
                    .map(|l| l.negate()),
            );
            true
        }
    }
}

/// The literals of the domain of `asked`'s variable at `pos` that contradict
/// `asked` (a change that failed).
pub(crate) fn contradiction(trail: &LitTrail, asked: Lit, pos: usize, out: &mut Vec<Lit>) {
    let v = asked.var;
    let (lo, hi) = trail.bounds_at(v, pos);
    match asked.kind {
        Kind::Ge => out.push(Lit::le(v, hi)),
        Kind::Le => out.push(Lit::ge(v, lo)),
        Kind::Eq if asked.val < lo => out.push(Lit::ge(v, lo)),
        Kind::Eq if asked.val > hi => out.push(Lit::le(v, hi)),
        Kind::Eq => out.push(Lit::ne(v, asked.val)),
        Kind::Ne => out.push(Lit::eq(v, asked.val)),
    }
}

/// Semantic minimisation of a nogood (a conjunction): per variable the
/// strongest bounds, the holes inside them, `x = v` for equal bounds.
/// Per variable: the strongest lower and upper bounds and the holes.
type Facts = (Option<i64>, Option<i64>, Vec<i64>);

pub(crate) fn minimise(nogood: Vec<Lit>) -> Vec<Lit> {
    let mut by_var: BTreeMap<usize, Facts> = BTreeMap::new();
    for l in nogood {
        let e = by_var.entry(l.var).or_default();
        match l.kind {
            Kind::Ge => e.0 = Some(e.0.map_or(l.val, |x| x.max(l.val))),
            Kind::Le => e.1 = Some(e.1.map_or(l.val, |x| x.min(l.val))),
            Kind::Eq => {
                e.0 = Some(e.0.map_or(l.val, |x| x.max(l.val)));
                e.1 = Some(e.1.map_or(l.val, |x| x.min(l.val)));
            }
            Kind::Ne => e.2.push(l.val),
        }
    }
    let mut out = Vec::new();
    for (v, (lo, hi, mut holes)) in by_var {
        match (lo, hi) {
            (Some(a), Some(b)) if a == b => {
                out.push(Lit::eq(v, a));
                continue;
            }
            _ => {}
        }
        if let Some(a) = lo {
            out.push(Lit::ge(v, a));
        }
        if let Some(b) = hi {
            out.push(Lit::le(v, b));
        }
        holes.sort_unstable();
        holes.dedup();
        for h in holes {
            if lo.is_none_or(|a| h >= a) && hi.is_none_or(|b| h <= b) {
                out.push(Lit::ne(v, h));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::engine::domains::{Domains, Fail, PResult};
    use crate::engine::harness::Harness;
    use crate::engine::propagator::Propagator;
    use crate::model::VarId;

    /// Fails once its second variable is 1, explained by the default: the
    /// domains of both, so every hole punched in the first is a literal.
    struct FailsOnOne([VarId; 2]);

    impl Propagator for FailsOnOne {
        fn vars(&self) -> &[VarId] {
            &self.0
        }
        fn propagate(&mut self, d: &mut Domains) -> PResult {
            if d.value(self.0[1]) == Some(1) {
                return Err(Fail);
            }
            Ok(())
        }
    }

    /// A conflict whose explanation lists `holes` removed values.
    fn analyse_with_holes(holes: i64) -> bool {
        let mut h = Harness::new();
        let x = h.range(0, 2 * holes + 1);
        let y = h.range(0, 1);
        h.post(FailsOnOne([x, y]));
        h.engine.start_learning();
        h.engine.doms.checkpoint();
        for v in 0..holes {
            h.remove(x, 2 * v + 1).unwrap();
        }
        h.engine.doms.checkpoint();
        assert!(h.fix(y, 1).is_err());
        h.engine.analyse().is_some()
    }

    #[test]
    fn an_explanation_past_the_cap_learns_nothing() {
        // Below the cap the conflict is learned; past it, nothing is (the
        // analysis would walk each literal's variable: quadratic).
        assert!(analyse_with_holes(100));
        assert!(!analyse_with_holes(super::MAX_EXPLANATION as i64 + 1));
    }
}
