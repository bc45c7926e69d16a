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
//! The database is reduced by literal-block distance: past a growing limit,
//! the half of the clauses with the most decision levels goes, except those
//! of two levels or fewer and those that are the cause of a literal on the
//! trail.

use super::{Cause, Conflict, Kind, Lit, LitTrail};
use crate::engine::domains::{Domains, Fail, PResult};
use crate::model::VarId;

#[derive(Debug)]
pub struct Clause {
    pub lits: Vec<Lit>,
    pub lbd: u32,
    pub deleted: bool,
}

#[derive(Debug)]
pub struct Nogoods {
    pub clauses: Vec<Clause>,
    /// Per variable, the clauses that watch one of its literals.
    watches: Vec<Vec<u32>>,
    pending: Vec<u32>,
    live: usize,
    limit: usize,
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
    pub fn new(num_vars: usize) -> Self {
        Nogoods {
            clauses: Vec::new(),
            watches: vec![Vec::new(); num_vars],
            pending: Vec::new(),
            live: 0,
            limit: 4000,
        }
    }

    pub fn live(&self) -> usize {
        self.live
    }

    /// Adds a learned clause, watched at the next propagation.
    pub fn add(&mut self, lits: Vec<Lit>, lbd: u32) {
        self.pending.push(self.clauses.len() as u32);
        self.clauses.push(Clause {
            lits,
            lbd,
            deleted: false,
        });
        self.live += 1;
    }

    /// Whether the database is past its limit (see [`Self::reduce`]).
    pub fn full(&self) -> bool {
        self.live > self.limit
    }

    /// Deletes the half of the clauses with the highest LBD, keeping glue
    /// clauses (LBD <= 2) and those that caused a literal on the trail.
    pub fn reduce(&mut self, trail: &LitTrail) {
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
        self.limit += self.limit / 10;
    }

    /// Watches the new clauses, then visits the clauses watching each
    /// literal recorded since the last visit. Fails with the conflict
    /// recorded in the trail.
    pub fn propagate(&mut self, d: &mut Domains) -> PResult {
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
            let var = l.entry(l.processed).lit.var;
            if let Some(l) = d.learn.as_mut() {
                l.processed += 1;
            }
            self.visit(var, d)?;
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
        let lits = cl.lits.clone();
        self.watches[lits[0].var].push(c);
        if lits.len() > 1 && lits[1].var != lits[0].var {
            self.watches[lits[1].var].push(c);
        }
        match (first, second) {
            (2, _) => Self::fail(d, c),
            (1, 2) => Self::assert_lit(d, c, lits[0]),
            _ => Ok(()),
        }
    }

    /// Visits the clauses watching a literal of `var`, which changed.
    fn visit(&mut self, var: VarId, d: &mut Domains) -> PResult {
        let mut i = 0;
        while i < self.watches[var].len() {
            let c = self.watches[var][i];
            let cl = &mut self.clauses[c as usize];
            if cl.deleted {
                self.watches[var].swap_remove(i);
                continue;
            }
            if cl.lits.len() == 1 {
                let lit = cl.lits[0];
                if is_false(d, lit) {
                    return Self::fail(d, c);
                }
                if !is_true(d, lit) {
                    Self::assert_lit(d, c, lit)?;
                }
                i += 1;
                continue;
            }
            // The watch of `var` that went false goes to position 1.
            if cl.lits[0].var == var && is_false(d, cl.lits[0]) {
                cl.lits.swap(0, 1);
            }
            if !(cl.lits[1].var == var && is_false(d, cl.lits[1])) || is_true(d, cl.lits[0]) {
                i += 1;
                continue;
            }
            if let Some(k) = (2..cl.lits.len()).find(|&k| !is_false(d, cl.lits[k])) {
                cl.lits.swap(1, k);
                let (nv, other) = (cl.lits[1].var, cl.lits[0].var);
                if nv != var && nv != other {
                    self.watches[nv].push(c);
                }
                if nv != var && other != var {
                    self.watches[var].swap_remove(i);
                }
                // Otherwise look at the clause again: its other watch may
                // be a false literal of `var` too.
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
