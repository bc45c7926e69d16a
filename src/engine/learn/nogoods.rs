//! Learned nogoods, kept as clauses over atomic literals (at least one of
//! them must hold), propagated with two watched literals: a clause is looked
//! at only when one of its two watched literals becomes false, when another
//! literal that is not false takes its place or, if none is left, the other
//! watched literal is made true (or, false too, the clause fails).
//!
//! The clauses a conflict produces wait in `pending` until the next
//! propagation, which watches them on the domains it finds (the search may
//! have backtracked in between) and asserts those that are unit.
//!
//! Watches are kept per variable and per kind of literal, with the
//! literal itself, so that a change visits only the watches it can make
//! false (a rising lower bound the `[x <= v]` and `[x = v]` watches, a
//! removed value the `[x = v]` ones) and skips, without reading the
//! clause, those whose literal is still not false: on job shops the start
//! times' bounds move thousands of times and most watches of a start are
//! untouched by one move.
//!
//! The database is reduced by literal-block distance: past a growing limit,
//! the half of the clauses with the most decision levels goes, except those
//! of two levels or fewer and those that are the cause of a literal on the
//! trail.

use super::{Cause, Conflict, Kind, Lit, LitTrail};
use crate::engine::domains::{Domains, Fail, PResult};
use crate::model::VarId;

#[derive(Debug)]
pub(crate) struct Clause {
    pub(crate) lits: Vec<Lit>,
    pub(crate) lbd: u32,
    pub(crate) deleted: bool,
}

#[derive(Debug)]
pub(crate) struct Nogoods {
    pub(crate) clauses: Vec<Clause>,
    /// Per variable and list ([`list_of`]), the clauses watching one of its
    /// literals, with that literal.
    watches: Vec<[Vec<Watch>; LISTS]>,
    pending: Vec<u32>,
    live: usize,
    limit: usize,
}

/// A clause watching a literal.
#[derive(Clone, Copy, Debug)]
struct Watch {
    clause: u32,
    lit: Lit,
    /// Another literal of the clause (the other watch when it was last
    /// read): while it is true the clause is satisfied and is not read.
    blocker: Lit,
}

/// The watch lists of a variable: one per kind of literal, and one for the
/// literals of unit clauses, looked at on every change.
const LISTS: usize = 5;
const UNIT: usize = 4;

/// The list of a variable's watches that holds a watch of `lit`.
fn list_of(lit: Lit) -> usize {
    match lit.kind {
        Kind::Ge => 0,
        Kind::Le => 1,
        Kind::Eq => 2,
        Kind::Ne => 3,
    }
}

/// The lists whose literals a change recorded as `entry` can make false:
/// a rising lower bound falsifies `[x <= v]`, `[x = v]` and (fixing it)
/// `[x != v]`; a removed inner value only `[x = v]`.
fn lists_hit(entry: Kind) -> &'static [usize] {
    match entry {
        Kind::Ge => &[1, 2, 3, UNIT],
        Kind::Le => &[0, 2, 3, UNIT],
        Kind::Eq => &[0, 1, 2, 3, UNIT],
        Kind::Ne => &[2, UNIT],
    }
}

/// Whether `lit` holds for every value left.
#[inline]
pub(crate) fn is_true(d: &Domains, lit: Lit) -> bool {
    let v = lit.var;
    match lit.kind {
        Kind::Ge => d.min(v) >= lit.val,
        Kind::Le => d.max(v) <= lit.val,
        Kind::Eq => d.is_fixed(v) && d.min(v) == lit.val,
        Kind::Ne => !d.contains(v, lit.val),
    }
}

/// Whether `lit` holds for no value left.
#[inline]
pub(crate) fn is_false(d: &Domains, lit: Lit) -> bool {
    let v = lit.var;
    match lit.kind {
        Kind::Ge => d.max(v) < lit.val,
        Kind::Le => d.min(v) > lit.val,
        Kind::Eq => !d.contains(v, lit.val),
        Kind::Ne => d.is_fixed(v) && d.min(v) == lit.val,
    }
}

/// Makes `lit` true.
fn make_true(d: &mut Domains, lit: Lit) -> Result<bool, Fail> {
    let v = lit.var;
    match lit.kind {
        Kind::Ge => d.set_min(v, lit.val),
        Kind::Le => d.set_max(v, lit.val),
        Kind::Eq => d.fix(v, lit.val),
        Kind::Ne => d.remove(v, lit.val),
    }
}

/// The decision level at which the (true) literal became true.
pub(crate) fn level_of(trail: &LitTrail, lit: Lit) -> u32 {
    if lit.kind == Kind::Eq {
        return level_of(trail, Lit::ge(lit.var, lit.val))
            .max(level_of(trail, Lit::le(lit.var, lit.val)));
    }
    trail
        .reason_entry(lit, trail.len())
        .map_or(0, |i| trail.entry(i).level)
}

impl Nogoods {
    pub(crate) fn new(num_vars: usize) -> Self {
        Nogoods {
            clauses: Vec::new(),
            watches: (0..num_vars).map(|_| Default::default()).collect(),
            pending: Vec::new(),
            live: 0,
            limit: 4000,
        }
    }

    /// Adds a learned clause, watched at the next propagation.
    pub(crate) fn add(&mut self, lits: Vec<Lit>, lbd: u32) {
        self.pending.push(self.clauses.len() as u32);
        self.clauses.push(Clause {
            lits,
            lbd,
            deleted: false,
        });
        self.live += 1;
    }

    /// Whether the database is past its limit (see [`Self::reduce`]).
    pub(crate) fn full(&self) -> bool {
        self.live > self.limit
    }

    /// Deletes the half of the clauses with the highest LBD, keeping glue
    /// clauses (LBD <= 2) and those that caused a literal on the trail.
    pub(crate) fn reduce(&mut self, trail: &LitTrail) {
        let mut locked = vec![false; self.clauses.len()];
        for i in 0..trail.len() {
            if let Cause::Nogood(c) = trail.entry(i).cause {
                locked[c as usize] = true;
            }
        }
        for &c in &self.pending {
            locked[c as usize] = true;
        }
        let mut cands: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let cl = &self.clauses[c as usize];
                !cl.deleted && cl.lbd > 2 && !locked[c as usize]
            })
            .collect();
        // Highest LBD first; among equals the oldest.
        cands.sort_by_key(|&c| (std::cmp::Reverse(self.clauses[c as usize].lbd), c));
        for &c in cands.iter().take(self.live / 2) {
            let cl = &mut self.clauses[c as usize];
            cl.deleted = true;
            cl.lits = Vec::new();
            self.live -= 1;
        }
        let clauses = &self.clauses;
        for lists in &mut self.watches {
            for list in lists.iter_mut() {
                list.retain(|w| !clauses[w.clause as usize].deleted);
            }
        }
        self.limit += self.limit / 10;
    }

    /// Watches the new clauses, then visits the clauses watching each
    /// literal recorded since the last visit. Fails with the conflict
    /// recorded in the trail.
    pub(crate) fn propagate(&mut self, d: &mut Domains) -> PResult {
        while let Some(c) = self.pending.pop() {
            if let Err(f) = self.attach(c, d) {
                self.pending.clear();
                return Err(f);
            }
        }
        loop {
            let Some(l) = &d.learn else {
                return Ok(());
            };
            if l.processed >= l.len() {
                return Ok(());
            }
            let lit = l.entry(l.processed).lit;
            if let Some(l) = d.learn.as_mut() {
                l.processed += 1;
            }
            for &list in lists_hit(lit.kind) {
                self.visit(lit.var, list, d)?;
            }
        }
    }

    fn set_cause(d: &mut Domains, c: u32) {
        d.set_cause(Cause::Nogood(c));
    }

    fn fail(d: &mut Domains, c: u32) -> PResult {
        if let Some(l) = &mut d.learn {
            l.conflict = Some(Conflict {
                cause: Cause::Nogood(c),
                asked: None,
            });
        }
        Err(Fail)
    }

    /// Asserts `lit` because of clause `c`.
    fn assert_lit(d: &mut Domains, c: u32, lit: Lit) -> PResult {
        Self::set_cause(d, c);
        let r = make_true(d, lit);
        d.set_cause(Cause::Decision);
        r.map(|_| ())
    }

    /// Chooses the watches of a new clause on the current domains: the
    /// literals not false first, then the false one set last.
    fn attach(&mut self, c: u32, d: &mut Domains) -> PResult {
        let Some(trail) = d.learn.as_deref() else {
            return Ok(());
        };
        let cl = &mut self.clauses[c as usize];
        if cl.deleted || cl.lits.is_empty() {
            return Ok(());
        }
        let rank = |lit: Lit| -> (u8, u32) {
            if is_true(d, lit) {
                (0, 0)
            } else if !is_false(d, lit) {
                (1, 0)
            } else {
                (2, u32::MAX - level_of(trail, lit.negate()))
            }
        };
        let mut ranked: Vec<((u8, u32), Lit)> = cl.lits.iter().map(|&l| (rank(l), l)).collect();
        ranked.sort_by_key(|&(r, _)| r);
        cl.lits = ranked.iter().map(|&(_, l)| l).collect();
        let first = ranked[0].0.0;
        let second = ranked.get(1).map_or(2, |r| r.0.0);
        let lits = &cl.lits;
        if lits.len() == 1 {
            self.watches[lits[0].var][UNIT].push(Watch {
                clause: c,
                lit: lits[0],
                blocker: lits[0],
            });
        } else {
            for (lit, blocker) in [(lits[0], lits[1]), (lits[1], lits[0])] {
                self.watches[lit.var][list_of(lit)].push(Watch {
                    clause: c,
                    lit,
                    blocker,
                });
            }
        }
        let l0 = self.clauses[c as usize].lits[0];
        match (first, second) {
            (2, _) => Self::fail(d, c),
            (1, 2) => Self::assert_lit(d, c, l0),
            _ => Ok(()),
        }
    }

    /// Visits the watches of list `list` of `var`, which changed.
    fn visit(&mut self, var: VarId, list: usize, d: &mut Domains) -> PResult {
        let mut i = 0;
        while i < self.watches[var][list].len() {
            let Watch {
                clause: c,
                lit: w,
                blocker,
            } = self.watches[var][list][i];
            if list == UNIT {
                if self.clauses[c as usize].deleted {
                    self.watches[var][list].swap_remove(i);
                    continue;
                }
                if is_false(d, w) {
                    return Self::fail(d, c);
                }
                if !is_true(d, w) {
                    Self::assert_lit(d, c, w)?;
                }
                i += 1;
                continue;
            }
            // Most watches are untouched by the change, or their clause is
            // satisfied by its blocker: the clause is not read.
            if !is_false(d, w) || is_true(d, blocker) {
                i += 1;
                continue;
            }
            let cl = &mut self.clauses[c as usize];
            if cl.deleted {
                self.watches[var][list].swap_remove(i);
                continue;
            }
            // The watch that went false goes to position 1.
            if cl.lits[0] == w {
                cl.lits.swap(0, 1);
            }
            debug_assert_eq!(cl.lits[1], w, "a watch names a watched literal");
            if is_true(d, cl.lits[0]) {
                self.watches[var][list][i].blocker = cl.lits[0];
                i += 1;
                continue;
            }
            if let Some(k) = (2..cl.lits.len()).find(|&k| !is_false(d, cl.lits[k])) {
                cl.lits.swap(1, k);
                let (nw, blocker) = (cl.lits[1], cl.lits[0]);
                self.watches[var][list].swap_remove(i);
                self.watches[nw.var][list_of(nw)].push(Watch {
                    clause: c,
                    lit: nw,
                    blocker,
                });
                continue;
            }
            // Every literal but the first is false.
            let first = cl.lits[0];
            if is_false(d, first) {
                return Self::fail(d, c);
            }
            Self::assert_lit(d, c, first)?;
            i += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_lit(r: &mut Rng, vars: usize) -> Lit {
        let v = r.below(vars as u64) as usize;
        let x = r.below(6) as i64;
        match r.below(4) {
            0 => Lit::ge(v, x),
            1 => Lit::le(v, x),
            2 => Lit::eq(v, x),
            _ => Lit::ne(v, x),
        }
    }

    /// The assignments within the domains that satisfy every clause.
    fn solutions(d: &Domains, clauses: &[Vec<Lit>], vars: usize) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let mut a = vec![0i64; vars];
        'all: for code in 0..6u64.pow(vars as u32) {
            let mut c = code;
            for (v, x) in a.iter_mut().enumerate() {
                *x = (c % 6) as i64;
                c /= 6;
                if !d.contains(v, *x) {
                    continue 'all;
                }
            }
            if clauses
                .iter()
                .all(|cl| cl.iter().any(|l| l.holds(a[l.var])))
            {
                out.push(a.clone());
            }
        }
        out
    }

    /// After propagation: no clause has every literal false, and a clause
    /// with one literal not false has it true (unit propagation is done).
    fn propagated(d: &Domains, clauses: &[Vec<Lit>]) -> bool {
        clauses.iter().all(|cl| {
            let open: Vec<Lit> = cl.iter().copied().filter(|&l| !is_false(d, l)).collect();
            !open.is_empty() && (open.len() > 1 || is_true(d, open[0]))
        })
    }

    #[test]
    fn watched_clauses_propagate_to_a_fixpoint_and_remove_no_solution() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let vars = 4;
        for _ in 0..400 {
            let mut d = Domains::default();
            for _ in 0..vars {
                d.add_var(&[0, 1, 2, 3, 4, 5]);
            }
            d.start_learning();
            let mut ng = Nogoods::new(vars);
            let clauses: Vec<Vec<Lit>> = (0..1 + r.below(6))
                .map(|_| {
                    let mut cl: Vec<Lit> = (0..1 + r.below(4))
                        .map(|_| random_lit(&mut r, vars))
                        .collect();
                    cl.sort();
                    cl.dedup();
                    cl
                })
                .collect();
            for cl in &clauses {
                ng.add(cl.clone(), cl.len() as u32);
            }
            let _root = d.checkpoint();
            let mut before = solutions(&d, &clauses, vars);
            if ng.propagate(&mut d).is_err() {
                assert!(before.is_empty(), "failed with solutions {before:?}");
                continue;
            }
            assert!(propagated(&d, &clauses));
            let mut stack = Vec::new();
            for _ in 0..12 {
                if !stack.is_empty() && r.below(3) == 0 {
                    d.restore(stack.pop().unwrap());
                    assert!(propagated(&d, &clauses), "a fixpoint restored");
                    before = solutions(&d, &clauses, vars);
                    continue;
                }
                stack.push(d.checkpoint());
                let l = random_lit(&mut r, vars);
                let changed = match l.kind {
                    Kind::Ge => d.set_min(l.var, l.val),
                    Kind::Le => d.set_max(l.var, l.val),
                    Kind::Eq => d.fix(l.var, l.val),
                    Kind::Ne => d.remove(l.var, l.val),
                };
                if changed.is_err() {
                    d.restore(stack.pop().unwrap());
                    continue;
                }
                let within: Vec<Vec<i64>> = solutions(&d, &clauses, vars);
                assert!(within.iter().all(|s| before.contains(s)));
                match ng.propagate(&mut d) {
                    Err(Fail) => {
                        assert!(within.is_empty(), "failed with solutions {within:?}");
                        assert!(
                            clauses.iter().any(|cl| cl.iter().all(|&l| is_false(&d, l))),
                            "a failure names a clause that is false"
                        );
                        d.restore(stack.pop().unwrap());
                    }
                    Ok(()) => {
                        assert!(propagated(&d, &clauses), "clauses {clauses:?}");
                        assert_eq!(solutions(&d, &clauses, vars), within);
                        before = within;
                    }
                }
            }
        }
    }
}
