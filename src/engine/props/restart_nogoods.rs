//! Nogoods recorded at restarts (Lecoutre, Sais, Tabary, Vidal, "Recording
//! and minimizing nogoods from restarts", JSAT 2007), so that a search with
//! restarts does not explore again what it refuted before one. At a restart,
//! each right branch `x != a` on the current path says that its left branch,
//! `x = a` under the positive decisions above it, was searched through
//! without a solution (without a better one, when optimising: the bound only
//! tightens, so the nogood stays true). Those decisions cannot all hold
//! again: `not (d_1 and ... and d_k and x = a)`, the reduced nld-nogood (the
//! negative decisions above it can be left out).
//!
//! A nogood is a clause over decision literals (`x = v`, `x <= v`),
//! propagated with two watched literals: it is looked at only when one of
//! its two watched literals becomes true; another literal that is not true
//! takes its place or, when none is left, the other watched literal is made
//! false (or, true too, the nogood fails). Watches need no undoing on
//! backtracking. The nogoods are implied by the model below the search's
//! node and under its bound, so a nogood missed prunes less and never
//! changes a solution; when that search ends they all go (`Mail::ended`).
//!
//! The propagator has no variables of its own (`vars()` is empty): the
//! degree heuristics, dom/wdeg's weights and the failure blame ignore it.
//! One engine has one, posted at the first restart that records a nogood
//! (`Engine::refuted_store`).

use crate::engine::domains::{Domains, Fail, PResult, event};
use crate::engine::propagator::{Priority, Propagator, Subscriptions};
use crate::model::VarId;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// A decision as a literal: `x = v` or `x <= v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecLit {
    Eq(VarId, i64),
    Le(VarId, i64),
}

impl DecLit {
    pub(crate) fn var(self) -> VarId {
        match self {
            DecLit::Eq(x, _) | DecLit::Le(x, _) => x,
        }
    }

    fn state(self, d: &Domains) -> State {
        match self {
            DecLit::Eq(x, v) if !d.contains(x, v) => State::False,
            DecLit::Eq(x, _) if d.is_fixed(x) => State::True,
            DecLit::Le(x, v) if d.min(x) > v => State::False,
            DecLit::Le(x, v) if d.max(x) <= v => State::True,
            _ => State::Open,
        }
    }

    /// Makes the literal false.
    fn falsify(self, d: &mut Domains) -> Result<bool, Fail> {
        match self {
            DecLit::Eq(x, v) => d.remove(x, v),
            DecLit::Le(x, v) => d.set_min(x, v.saturating_add(1)),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    True,
    False,
    Open,
}

/// What the searches tell the store: the nogoods one hands over at a
/// restart, taken in at the next run, and how many searches have ended.
#[derive(Default)]
pub(crate) struct Mail {
    pub(crate) nogoods: Vec<Vec<DecLit>>,
    /// Counts the searches ended. A search's nogoods hold below the node
    /// it started from and under its bound; the next search on the same
    /// engine may start above that node (or with a weaker bound), so when
    /// the count moves, the store drops every nogood before taking new ones.
    pub(crate) ended: u64,
}

pub(crate) type Inbox = Rc<RefCell<Mail>>;

pub(crate) struct RestartNogoods {
    /// The variables whose changes are heard (the search's variables).
    watched_vars: Vec<VarId>,
    inbox: Inbox,
    /// Every nogood's literals, one after the other; its two watched
    /// literals are its first two.
    lits: Vec<DecLit>,
    /// Where each nogood starts in `lits`, and its end last.
    starts: Vec<usize>,
    /// The nogoods watching `x = v`, by `(x, v)`: fixing `x` visits only
    /// those of its value.
    eq: FxHashMap<(VarId, i64), Vec<u32>>,
    /// Per variable, the nogoods watching an `x <= v`.
    le: Vec<Vec<u32>>,
    /// Per variable, how many watches it has (a change to one with none
    /// is not looked at).
    count: Vec<u32>,
    /// Variables whose watches to look at.
    dirty: Vec<VarId>,
    /// `Mail::ended` when the nogoods kept were taken in.
    epoch: u64,
}

impl RestartNogoods {
    /// Hears the changes of `vars`; `inbox` brings the nogoods.
    pub(crate) fn new(vars: Vec<VarId>, inbox: Inbox) -> Self {
        let n = vars.iter().max().map_or(0, |&v| v + 1);
        RestartNogoods {
            watched_vars: vars,
            inbox,
            lits: Vec::new(),
            starts: vec![0],
            eq: FxHashMap::default(),
            le: vec![Vec::new(); n],
            count: vec![0; n],
            dirty: Vec::new(),
            epoch: 0,
        }
    }

    /// Drops every nogood.
    fn clear(&mut self) {
        self.lits = Vec::new();
        self.starts = vec![0];
        self.eq = FxHashMap::default();
        self.le.iter_mut().for_each(Vec::clear);
        self.count.iter_mut().for_each(|n| *n = 0);
        self.dirty.clear();
    }

    /// How many nogoods are kept.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Takes in a nogood at the root: literals true there for good are
    /// left out, one false there drops it; with none left it fails, with
    /// one left that one is made false.
    fn add(&mut self, d: &mut Domains, nogood: &[DecLit]) -> PResult {
        let mut kept: Vec<DecLit> = Vec::with_capacity(nogood.len());
        for &l in nogood {
            match l.state(d) {
                State::True => {}
                State::False => return Ok(()),
                State::Open if kept.contains(&l) => {}
                State::Open => kept.push(l),
            }
        }
        match kept.len() {
            0 => Err(Fail),
            1 => {
                kept[0].falsify(d)?;
                self.dirty.push(kept[0].var());
                Ok(())
            }
            _ => {
                let c = self.len() as u32;
                for &l in &kept[..2] {
                    self.watch(l, c);
                }
                self.lits.extend_from_slice(&kept);
                self.starts.push(self.lits.len());
                Ok(())
            }
        }
    }

    fn watch(&mut self, l: DecLit, c: u32) {
        let x = l.var();
        if self.count.len() <= x {
            self.count.resize(x + 1, 0);
            self.le.resize(x + 1, Vec::new());
        }
        self.count[x] += 1;
        match l {
            DecLit::Eq(x, v) => self.eq.entry((x, v)).or_default().push(c),
            DecLit::Le(x, _) => self.le[x].push(c),
        }
    }

    /// Looks at the nogoods whose watched literals on `x` may have become
    /// true: those on its value when it is fixed, and those on its bounds.
    fn visit(&mut self, x: VarId, d: &mut Domains) -> PResult {
        if d.is_fixed(x) {
            let key = (x, d.min(x));
            if let Some(list) = self.eq.get_mut(&key).map(std::mem::take) {
                let (list, r) = self.visit_list(x, list, d);
                let slot = self.eq.entry(key).or_default();
                let mut list = list;
                list.append(slot);
                *slot = list;
                r?;
            }
        }
        if !self.le[x].is_empty() {
            let list = std::mem::take(&mut self.le[x]);
            let (mut list, r) = self.visit_list(x, list, d);
            list.append(&mut self.le[x]);
            self.le[x] = list;
            r?;
        }
        Ok(())
    }

    /// Visits the nogoods of `list`, watches of literals on `x`: each whose
    /// watched literal on `x` is true moves that watch to another literal
    /// that is not true or, with none left, makes its other watched literal
    /// false (fails when it is true). Gives back the watches that stay.
    fn visit_list(&mut self, x: VarId, mut list: Vec<u32>, d: &mut Domains) -> (Vec<u32>, PResult) {
        let mut i = 0;
        while i < list.len() {
            let c = list[i] as usize;
            let (s, e) = (self.starts[c], self.starts[c + 1]);
            // A watched literal on `x` that is true goes first (both
            // watched literals may be on `x`).
            let hit = |l: DecLit| l.var() == x && l.state(d) == State::True;
            if !hit(self.lits[s]) && hit(self.lits[s + 1]) {
                self.lits.swap(s, s + 1);
            }
            if !hit(self.lits[s]) {
                i += 1;
                continue;
            }
            let other = self.lits[s + 1];
            let other_state = other.state(d);
            if other_state == State::False {
                i += 1;
                continue;
            }
            // Another literal that is not true takes the watch.
            if let Some(k) = (s + 2..e).find(|&k| self.lits[k].state(d) != State::True) {
                self.lits.swap(s, k);
                list.swap_remove(i);
                self.count[x] -= 1;
                self.watch(self.lits[s], c as u32);
                continue;
            }
            if other_state == State::True {
                return (list, Err(Fail));
            }
            if let Err(f) = other.falsify(d) {
                return (list, Err(f));
            }
            self.dirty.push(other.var());
            i += 1;
        }
        (list, Ok(()))
    }
}

impl Propagator for RestartNogoods {
    fn vars(&self) -> &[VarId] {
        &[]
    }

    fn subscribe(&self, s: &mut Subscriptions) {
        // `x = v` becomes true when `x` is fixed, `x <= v` when its maximum
        // drops; a decision that fixes `x` raises both events.
        for &x in &self.watched_vars {
            s.notify(x, x, event::FIX | event::BOUNDS);
        }
    }

    fn notify(&mut self, x: usize, _d: &mut Domains) -> bool {
        let heard = self.count.get(x).is_some_and(|&n| n > 0);
        if heard {
            self.dirty.push(x);
        }
        heard
    }

    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let (new, ended) = {
            let mut mail = self.inbox.borrow_mut();
            (std::mem::take(&mut mail.nogoods), mail.ended)
        };
        if ended != self.epoch {
            self.clear();
            self.epoch = ended;
        }
        for nogood in &new {
            if let Err(f) = self.add(d, nogood) {
                self.dirty.clear();
                return Err(f);
            }
        }
        while let Some(x) = self.dirty.pop() {
            if x < self.le.len()
                && let Err(f) = self.visit(x, d)
            {
                self.dirty.clear();
                return Err(f);
            }
        }
        Ok(())
    }

    fn all_fixed(&self, _d: &Domains) -> bool {
        false
    }

    fn priority(&self) -> Priority {
        Priority::Binary
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use crate::engine::select::Rng;
    use DecLit::{Eq, Le};
    use rand::{RngExt, SeedableRng};

    /// Posts the store over `vars`; its inbox and id.
    fn post(h: &mut Harness, vars: &[VarId]) -> (Inbox, usize) {
        let inbox = Inbox::default();
        h.post(RestartNogoods::new(vars.to_vec(), Rc::clone(&inbox)));
        (inbox, h.engine.props.len() - 1)
    }

    /// Hands a nogood over and propagates, as a restart does.
    fn give(h: &mut Harness, (inbox, p): &(Inbox, usize), nogood: Vec<DecLit>) -> PResult {
        inbox.borrow_mut().nogoods.push(nogood);
        h.engine.wake(*p);
        h.engine.fixpoint()
    }

    #[test]
    fn the_last_open_literal_is_made_false() {
        let mut h = Harness::new();
        let (x, y, z) = (h.range(0, 3), h.range(0, 3), h.range(0, 3));
        let store = post(&mut h, &[x, y, z]);
        give(&mut h, &store, vec![Eq(x, 1), Le(y, 1), Eq(z, 2)]).unwrap();
        assert_eq!(h.values(z), vec![0, 1, 2, 3]);
        let mark = h.engine.doms.checkpoint();
        h.fix(x, 1).unwrap();
        assert_eq!(h.values(z), vec![0, 1, 2, 3]);
        h.set_max(y, 1).unwrap();
        // x = 1 and y <= 1 hold: z = 2 may not.
        assert_eq!(h.values(z), vec![0, 1, 3]);
        h.engine.doms.restore(mark);
        // The other way round: y <= 1 is made false.
        h.fix(z, 2).unwrap();
        h.fix(x, 1).unwrap();
        assert_eq!(h.bounds(y), (2, 3));
    }

    #[test]
    fn a_nogood_whose_literals_all_hold_fails() {
        let mut h = Harness::new();
        let (x, y) = (h.range(0, 3), h.range(0, 3));
        let store = post(&mut h, &[x, y]);
        give(&mut h, &store, vec![Eq(x, 1), Eq(y, 2)]).unwrap();
        // Both at once, before any propagation.
        h.engine.doms.fix(x, 1).unwrap();
        h.engine.doms.fix(y, 2).unwrap();
        assert!(h.engine.fixpoint().is_err());
    }

    #[test]
    fn at_the_root_true_literals_go_and_a_false_one_drops_the_nogood() {
        let mut h = Harness::new();
        let (x, y, z) = (h.range(0, 3), h.range(0, 3), h.range(0, 3));
        let store = post(&mut h, &[x, y, z]);
        h.fix(x, 1).unwrap();
        h.remove(y, 0).unwrap();
        // x = 1 holds at the root: z = 2 is left, and goes.
        give(&mut h, &store, vec![Eq(x, 1), Eq(z, 2)]).unwrap();
        assert_eq!(h.values(z), vec![0, 1, 3]);
        // y = 0 is false at the root: nothing to keep.
        give(&mut h, &store, vec![Eq(y, 0), Eq(z, 3)]).unwrap();
        assert_eq!(h.values(z), vec![0, 1, 3]);
        // Every literal holds: the root fails.
        assert!(give(&mut h, &store, vec![Eq(x, 1)]).is_err());
    }

    /// When a search ends its nogoods go; the next search's are kept.
    #[test]
    fn the_next_search_starts_with_none_but_its_own() {
        let mut h = Harness::new();
        let (x, y) = (h.range(0, 3), h.range(0, 3));
        let store = post(&mut h, &[x, y]);
        give(&mut h, &store, vec![Eq(x, 1), Eq(y, 2)]).unwrap();
        store.0.borrow_mut().ended += 1;
        give(&mut h, &store, vec![Eq(x, 1), Eq(y, 3)]).unwrap();
        h.fix(x, 1).unwrap();
        assert_eq!(h.values(y), vec![0, 1, 2]);
    }

    /// Random nogoods over four variables in 0..=3 (a variable may come
    /// twice in one), then random fixings and maxima: no assignment that
    /// breaks no nogood and keeps to the narrowings loses a value (brute
    /// force over all 256), a failure happens only when no such assignment
    /// is left, and after a fixpoint no nogood is left with all its
    /// literals true, or with one open and none false (unit propagation).
    #[test]
    fn random_nogoods_prune_as_unit_propagation_and_keep_every_solution() {
        let mut rng = Rng::seed_from_u64(7);
        let mut failed = 0;
        for _ in 0..500 {
            let mut h = Harness::new();
            let xs: Vec<VarId> = (0..4).map(|_| h.range(0, 3)).collect();
            let store = post(&mut h, &xs);
            let lit = |rng: &mut Rng| {
                let (x, v) = (xs[rng.random_range(0..4)], rng.random_range(0..4));
                if rng.random_bool(0.7) {
                    Eq(x, v)
                } else {
                    Le(x, v)
                }
            };
            let nogoods: Vec<Vec<DecLit>> = (0..rng.random_range(1..8))
                .map(|_| (0..rng.random_range(2..5)).map(|_| lit(&mut rng)).collect())
                .collect();
            let mut ok = true;
            for n in &nogoods {
                ok = ok && give(&mut h, &store, n.clone()).is_ok();
            }
            let mut narrowed: Vec<(VarId, i64, bool)> = Vec::new();
            for _ in 0..3 {
                if !ok {
                    break;
                }
                let (x, v, fix) = (
                    xs[rng.random_range(0..4)],
                    rng.random_range(0..4),
                    rng.random_bool(0.5),
                );
                narrowed.push((x, v, fix));
                ok = if fix {
                    h.fix(x, v).is_ok()
                } else {
                    h.set_max(x, v).is_ok()
                };
            }
            let holds = |l: DecLit, a: &[i64]| match l {
                Eq(x, v) => a[x] == v,
                Le(x, v) => a[x] <= v,
            };
            let solutions: Vec<Vec<i64>> = (0..256)
                .map(|k| (0..4).map(|i| (k >> (2 * i)) & 3).collect::<Vec<i64>>())
                .filter(|a| nogoods.iter().all(|n| !n.iter().all(|&l| holds(l, a))))
                .filter(|a| {
                    narrowed
                        .iter()
                        .all(|&(x, v, fix)| if fix { a[x] == v } else { a[x] <= v })
                })
                .collect();
            if !ok {
                failed += 1;
                assert!(solutions.is_empty(), "failed with solutions {solutions:?}");
                continue;
            }
            for a in &solutions {
                for (i, &x) in xs.iter().enumerate() {
                    assert!(h.engine.doms.contains(x, a[i]), "lost {a:?}");
                }
            }
            let d = &h.engine.doms;
            for n in &nogoods {
                let states: Vec<State> = n.iter().map(|&l| l.state(d)).collect();
                let open = states.iter().filter(|&&s| s == State::Open).count();
                assert!(
                    states.contains(&State::False) || open >= 2,
                    "{n:?} not propagated: {states:?}"
                );
            }
        }
        assert!(failed > 20, "{failed}");
    }
}
