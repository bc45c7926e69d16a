//! Table constraints (allowed or forbidden tuples) with generalised arc
//! consistency by Compact-Table (Demeulenaere, Hartert, Lecoutre, Perez,
//! Perron, Régin, Schaus: "Compact-Table: efficiently filtering table
//! constraints with reversible sparse bit-sets", CP 2016), and for forbidden
//! tuples its counting extension CT-neg (Verhaeghe, Lecoutre, Deville, Schaus,
//! CP 2017).
//!
//! `current` is a reversible sparse bitset of the tuples still *valid* (every
//! value in its variable's domain). Its words live on the trail; `index` (a
//! permutation of word numbers) and the non-zero prefix length `limit` make
//! scans skip the words already emptied. Each variable keeps a trailed copy of
//! the domain it had at the last call, so the values removed since then (the
//! delta) are known without domain events; the update uses the delta or the
//! whole domain, whichever is smaller, as in the paper.
//!
//! Allowed tuples: a value stays while some valid tuple has it (checked first
//! at its residue word). Forbidden tuples: a value of `x` goes when every
//! combination of the other domains is forbidden, i.e. when the valid
//! forbidden tuples with `x = a` number the product of the other domain sizes.
//!
//! Explanations (learning): `[x != a]` of an allowed table by a literal per
//! row with `x = a` that excludes the row (a hole `[y != b]`, or a bound
//! past `b`), chosen greedily, variable by variable; a failure the same way
//! over every row. A forbidden table's removal by the other variables'
//! domains, which alone decide it.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::engine::learn::{Lit, Past};
use crate::engine::propagator::{Priority, Propagator};
use crate::engine::trail::{RevInt, RevWords};

/// The most memory one table's support bitsets may take.
pub(crate) const MAX_TABLE_BYTES: u128 = 1 << 30;
use crate::model::VarId;
use std::borrow::Cow;
use std::sync::Arc;

pub(crate) struct CompactTable {
    vars: Vec<VarId>,
    allowed: bool,
    nwords: usize,
    /// The support bitsets, shared with every table over the same rows and domains.
    shared: Arc<Supports>,
    /// Per variable, per value bit: the word where a support was last found.
    residues: Vec<Vec<u32>>,
    /// The words of `current`.
    words: RevWords,
    /// The number of possibly non-zero words in `index`.
    limit: RevInt,
    index: Vec<usize>,
    /// Each variable's copy of its domain bits at the last call.
    last: Vec<RevWords>,
    mask: Vec<u64>,
    /// 1 once every value has been checked in this branch, so that an
    /// unchanged variable's values are known to be supported.
    primed: RevInt,
    /// The value of bit 0 of each variable's supports.
    offsets: Vec<i64>,
}

/// What a table's rows give, independent of the search state: per variable,
/// `supports[i][(value - offset_i) * nwords ..][..nwords]` holds the rows
/// with `x_i = value`.
struct Supports {
    rows: usize,
    nwords: usize,
    supports: Vec<Vec<u64>>,
}

impl Supports {
    /// The supports of the rows that fit the current domains; `None` past
    /// [`MAX_TABLE_BYTES`].
    fn build(d: &Domains, vars: &[VarId], tuples: &[Vec<i64>]) -> Option<Supports> {
        let mut rows: Vec<&Vec<i64>> = tuples
            .iter()
            .filter(|t| {
                t.len() == vars.len() && t.iter().zip(vars).all(|(&a, &x)| d.contains(x, a))
            })
            .collect();
        // Rows written by a comprehension usually come sorted and distinct.
        if !rows.windows(2).all(|w| w[0] < w[1]) {
            rows.sort_unstable();
            rows.dedup();
        }
        let n = rows.len();
        let nwords = n.div_ceil(64).max(1);
        let bytes: u128 = vars
            .iter()
            .map(|&x| d.bits(x).len() as u128 * 64 * nwords as u128 * 8)
            .sum();
        if bytes > MAX_TABLE_BYTES {
            return None;
        }
        let supports = vars
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let nbits = d.bits(x).len() * 64;
                let mut s = vec![0u64; nbits * nwords];
                for (t, row) in rows.iter().enumerate() {
                    let bit = (row[i] - d.offset(x)) as usize;
                    s[bit * nwords + t / 64] |= 1 << (t % 64);
                }
                s
            })
            .collect();
        Some(Supports {
            rows: n,
            nwords,
            supports,
        })
    }
}

/// Supports already built, for tables posted over the same rows (the same
/// shared array) and the same domains: the 8-puzzle model posts 248 tables
/// over one array of rows. Kept by lowering while it posts a model.
#[derive(Default)]
pub(crate) struct TableCache {
    entries: Vec<CacheEntry>,
}

struct CacheEntry {
    tuples: Arc<Vec<Vec<i64>>>,
    /// Each variable's offset and domain bits when the supports were built.
    domains: Vec<(i64, Vec<u64>)>,
    supports: Arc<Supports>,
}

/// How many distinct tables the cache remembers.
const CACHED_TABLES: usize = 32;

impl TableCache {
    fn find(
        &self,
        d: &Domains,
        vars: &[VarId],
        tuples: &Arc<Vec<Vec<i64>>>,
    ) -> Option<Arc<Supports>> {
        self.entries
            .iter()
            .find(|e| {
                Arc::ptr_eq(&e.tuples, tuples)
                    && e.domains.len() == vars.len()
                    && e.domains
                        .iter()
                        .zip(vars)
                        .all(|((off, bits), &x)| *off == d.offset(x) && bits[..] == *d.bits(x))
            })
            .map(|e| e.supports.clone())
    }
}

impl CompactTable {
    /// `tuples` need not be distinct, nor inside the domains: both are sorted
    /// out here. A variable may come more than once (see [`distinct_columns`]).
    /// `None` when a variable's domain is not a bitset or the support bitsets
    /// would take more than [`MAX_TABLE_BYTES`].
    pub(crate) fn new(
        d: &mut Domains,
        vars: Vec<VarId>,
        tuples: &[Vec<i64>],
        allowed: bool,
    ) -> Option<Self> {
        if !vars.iter().all(|&x| d.is_bitset(x)) {
            return None;
        }
        let (vars, tuples) = distinct_columns(vars, tuples);
        let shared = Arc::new(Supports::build(d, &vars, &tuples)?);
        Some(Self::over(d, vars, shared, allowed))
    }

    /// As [`Self::new`], sharing the support bitsets with earlier tables over
    /// the same rows and domains.
    pub(crate) fn with_cache(
        d: &mut Domains,
        vars: Vec<VarId>,
        tuples: &Arc<Vec<Vec<i64>>>,
        allowed: bool,
        cache: &mut TableCache,
    ) -> Option<Self> {
        let distinct = (0..vars.len()).all(|i| !vars[..i].contains(&vars[i]));
        if !distinct || !vars.iter().all(|&x| d.is_bitset(x)) {
            return Self::new(d, vars, tuples, allowed);
        }
        let shared = match cache.find(d, &vars, tuples) {
            Some(s) => s,
            None => {
                let s = Arc::new(Supports::build(d, &vars, tuples)?);
                if cache.entries.len() == CACHED_TABLES {
                    cache.entries.remove(0);
                }
                cache.entries.push(CacheEntry {
                    tuples: tuples.clone(),
                    domains: vars
                        .iter()
                        .map(|&x| (d.offset(x), d.bits(x).to_vec()))
                        .collect(),
                    supports: s.clone(),
                });
                s
            }
        };
        Some(Self::over(d, vars, shared, allowed))
    }

    /// The propagator's own state over shared supports.
    fn over(d: &mut Domains, vars: Vec<VarId>, shared: Arc<Supports>, allowed: bool) -> Self {
        let offsets = vars.iter().map(|&x| d.offset(x)).collect();
        let (n, nwords) = (shared.rows, shared.nwords);
        let residues = vars
            .iter()
            .map(|&x| vec![0u32; d.bits(x).len() * 64])
            .collect();
        let last = vars
            .iter()
            .map(|&x| {
                let bits = d.bits(x).to_vec();
                d.trail.new_words(&bits)
            })
            .collect();
        let mut current = vec![0u64; nwords];
        for t in 0..n {
            current[t / 64] |= 1 << (t % 64);
        }
        let words = d.trail.new_words(&current);
        // Rows fill the words from the first: the rest (none, or one when no row is left) are empty.
        let limit = d.trail.new_int(n.div_ceil(64) as i64);
        let primed = d.trail.new_int(0);
        CompactTable {
            vars,
            allowed,
            nwords,
            shared,
            residues,
            words,
            limit,
            index: (0..nwords).collect(),
            last,
            mask: vec![0; nwords],
            primed,
            offsets,
        }
    }

    fn limit(&self, d: &Domains) -> usize {
        d.trail.int(self.limit) as usize
    }

    /// `current &= mask`, dropping emptied words from the live prefix of
    /// `index`; whether any row left.
    fn intersect_with_mask(&mut self, d: &mut Domains) -> bool {
        let mut limit = self.limit(d);
        let mut i = limit;
        let mut changed = false;
        while i > 0 {
            i -= 1;
            let off = self.index[i];
            let old = d.trail.word(self.words, off);
            let w = old & self.mask[off];
            if w != old {
                changed = true;
                d.trail.set_word(self.words, off, w);
                if w == 0 {
                    limit -= 1;
                    self.index.swap(i, limit);
                }
            }
        }
        d.trail.set_int(self.limit, limit as i64);
        changed
    }

    fn is_empty(&self, d: &Domains) -> bool {
        self.limit(d) == 0
    }

    /// Removes from `current` the tuples made invalid since the last call.
    /// Returns whether the variable's domain changed, and whether rows left.
    fn update(&mut self, d: &mut Domains, i: usize) -> (bool, bool) {
        let x = self.vars[i];
        let (cur, prev) = (d.bits(x), d.trail.words(self.last[i]));
        if cur.iter().zip(prev).all(|(&c, &l)| l & !c == 0) {
            return (false, false);
        }
        let removed: u32 = cur
            .iter()
            .zip(prev)
            .map(|(&c, &l)| (l & !c).count_ones())
            .sum();
        let nw = self.nwords;
        let live = &self.index[..d.trail.int(self.limit) as usize];
        let mask = &mut self.mask;
        for &off in live {
            mask[off] = 0;
        }
        let s = &self.shared.supports[i];
        // The removed values or the ones left, whichever are fewer.
        let delta = removed < d.size(x) as u32;
        for (w, (&c, &l)) in cur.iter().zip(prev).enumerate() {
            let mut bits = if delta { l & !c } else { c };
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let sup = &s[b * nw..(b + 1) * nw];
                for &off in live {
                    mask[off] |= sup[off];
                }
            }
        }
        if delta {
            for &off in live {
                mask[off] = !mask[off];
            }
        }
        self.save_domain(d, i);
        (true, self.intersect_with_mask(d))
    }

    /// Records the variable's current domain as the one seen.
    fn save_domain(&self, d: &mut Domains, i: usize) {
        d.copy_bits(self.vars[i], self.last[i]);
    }

    /// Allowed tuples: removes the values without a valid tuple. `skip` is a
    /// variable known to need no check (the only one changed since the last
    /// call: the rows it lost all had its removed values).
    fn filter_positive(&mut self, d: &mut Domains, skip: Option<usize>) -> PResult {
        let nw = self.nwords;
        let live = self.limit(d);
        for i in 0..self.vars.len() {
            let x = self.vars[i];
            // A fixed variable's value is in every valid row, and there is one.
            if Some(i) == skip || d.is_fixed(x) {
                continue;
            }
            let mut gone = false;
            let (sups, residues) = (&self.shared.supports[i], &mut self.residues[i]);
            let index = &self.index[..live];
            for w in 0..self.last[i].len() {
                let mut rest = d.bits(x)[w];
                let current = d.trail.words(self.words);
                let mut lost = 0u64;
                while rest != 0 {
                    let bit = rest.trailing_zeros();
                    rest &= rest - 1;
                    let b = w * 64 + bit as usize;
                    let sup = &sups[b * nw..(b + 1) * nw];
                    let r = residues[b] as usize;
                    if current[r] & sup[r] != 0 {
                        continue;
                    }
                    match index.iter().find(|&&k| current[k] & sup[k] != 0) {
                        Some(&k) => residues[b] = k as u32,
                        None => lost |= 1 << bit,
                    }
                }
                if lost != 0 {
                    d.remove_window(x, w as i64 * 64, lost)?;
                    gone = true;
                }
            }
            if gone {
                self.save_domain(d, i);
            }
        }
        Ok(())
    }

    /// Forbidden tuples: removes a value when all its combinations are forbidden.
    fn filter_negative(&mut self, d: &mut Domains) -> PResult {
        let nw = self.nwords;
        let n = self.vars.len();
        let mut i = 0;
        while i < n {
            let live = self.limit(d);
            let valid: u64 = (0..live)
                .map(|k| u64::from(d.trail.word(self.words, self.index[k]).count_ones()))
                .sum();
            let x = self.vars[i];
            // The number of combinations of the other variables' values.
            let mut others: u128 = 1;
            for (j, &y) in self.vars.iter().enumerate() {
                if j != i {
                    others = others.saturating_mul(u128::from(d.size(y)));
                }
            }
            if others > u128::from(valid) {
                i += 1;
                continue;
            }
            let off = d.offset(x);
            let values: Vec<i64> = d.values(x).collect();
            let mut changed = false;
            for a in values {
                let b = (a - off) as usize;
                let sup = &self.shared.supports[i][b * nw..(b + 1) * nw];
                let count: u64 = (0..live)
                    .map(|k| self.index[k])
                    .map(|w| u64::from((d.trail.word(self.words, w) & sup[w]).count_ones()))
                    .sum();
                if u128::from(count) == others {
                    d.remove(x, a)?;
                    changed = true;
                }
            }
            if changed {
                // Removing values invalidates forbidden tuples and shrinks the products: recheck all.
                self.update(d, i);
                i = 0;
            } else {
                i += 1;
            }
        }
        Ok(())
    }
}

/// The variables without repeats, and the rows over them. The bitsets assume
/// one column per variable: with `x` in two columns, a removal from `x` made
/// while filtering one column would leave rows valid through the other, and
/// the propagator is not run again for its own removals. A variable takes one
/// value, so only rows that agree at all of its columns can match; those keep
/// its first column. (Rows of the wrong length never match; `new` drops them
/// too.)
fn distinct_columns(vars: Vec<VarId>, tuples: &[Vec<i64>]) -> (Vec<VarId>, Cow<'_, [Vec<i64>]>) {
    let first: Vec<usize> = vars
        .iter()
        .map(|x| vars.iter().position(|y| y == x).unwrap_or(0))
        .collect();
    if first.iter().enumerate().all(|(i, &f)| f == i) {
        return (vars, Cow::Borrowed(tuples));
    }
    let keep: Vec<usize> = (0..vars.len()).filter(|&i| first[i] == i).collect();
    let rows = tuples
        .iter()
        .filter(|t| t.len() == vars.len() && (0..t.len()).all(|i| t[i] == t[first[i]]))
        .map(|t| keep.iter().map(|&i| t[i]).collect())
        .collect();
    let vars = keep.iter().map(|&i| vars[i]).collect();
    (vars, Cow::Owned(rows))
}

impl CompactTable {
    /// The rows of `rows` excluded by literals that held at `past`, pushed
    /// onto `out`: first values gone at the root (no literal), then per
    /// variable the bounds and holes that exclude some of those rows. True
    /// when every row is excluded.
    fn exclude(&self, rows: &mut [u64], past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let nw = self.nwords;
        let meets = |a: &[u64], b: &[u64]| a.iter().zip(b).any(|(x, y)| x & y != 0);
        let clear =
            |rows: &mut [u64], c: &[u64]| rows.iter_mut().zip(c).for_each(|(r, w)| *r &= !w);
        let supports = &self.shared.supports;
        for (k, &x) in self.vars.iter().enumerate() {
            for (b, chunk) in supports[k].chunks(nw).enumerate() {
                if !past.trail.root_contains(x, self.offsets[k] + b as i64) {
                    clear(rows, chunk);
                }
            }
        }
        for (k, &x) in self.vars.iter().enumerate() {
            if rows.iter().all(|&w| w == 0) {
                return true;
            }
            let (lo, hi) = past.bounds(x);
            let (mut below, mut above) = (None, None);
            for (b, chunk) in supports[k].chunks(nw).enumerate() {
                let v = self.offsets[k] + b as i64;
                if !meets(chunk, rows) {
                    continue;
                }
                if v < lo {
                    below = Some(v);
                } else if v > hi {
                    above = above.or(Some(v));
                } else if !past.contains(x, v) {
                    out.push(Lit::ne(x, v));
                    clear(rows, chunk);
                }
            }
            // The weakest bounds that exclude the rows beyond them.
            for (b, chunk) in supports[k].chunks(nw).enumerate() {
                let v = self.offsets[k] + b as i64;
                if below.is_some_and(|m| v <= m) || above.is_some_and(|m| v >= m) {
                    clear(rows, chunk);
                }
            }
            if let Some(m) = below {
                out.push(Lit::ge(x, m + 1));
            }
            if let Some(m) = above {
                out.push(Lit::le(x, m - 1));
            }
        }
        rows.iter().all(|&w| w == 0)
    }
}

impl Propagator for CompactTable {
    fn vars(&self) -> &[VarId] {
        &self.vars
    }
    fn explain(&self, lit: Option<Lit>, past: &Past<'_>, out: &mut Vec<Lit>) -> bool {
        let nw = self.nwords;
        let mut rows = vec![0u64; nw];
        match lit {
            None if self.allowed => {
                for t in 0..self.shared.rows {
                    rows[t / 64] |= 1 << (t % 64);
                }
            }
            None => return false,
            Some(l) => {
                let Some(i) = self.vars.iter().position(|&x| x == l.var) else {
                    return false;
                };
                if !self.allowed {
                    for (k, &x) in self.vars.iter().enumerate() {
                        if k != i {
                            past.domain(x, out);
                        }
                    }
                    return true;
                }
                // The rows whose value of `x` breaks `l`.
                for (b, chunk) in self.shared.supports[i].chunks(nw).enumerate() {
                    if !l.holds(self.offsets[i] + b as i64) {
                        rows.iter_mut().zip(chunk).for_each(|(r, w)| *r |= w);
                    }
                }
            }
        }
        let start = out.len();
        let ok = self.exclude(&mut rows, past, out);
        if !ok {
            out.truncate(start);
        }
        ok
    }
    fn priority(&self) -> Priority {
        if self.vars.len() <= 2 {
            Priority::Binary
        } else {
            Priority::Slow
        }
    }
    fn propagate(&mut self, d: &mut Domains) -> PResult {
        let mut changed = 0;
        let mut last_changed = None;
        let mut rows_left = false;
        for i in 0..self.vars.len() {
            let (domain, rows) = self.update(d, i);
            if domain {
                changed += 1;
                last_changed = Some(i);
            }
            rows_left |= rows;
            if self.allowed && self.is_empty(d) {
                return Err(Fail);
            }
        }
        if self.allowed {
            let primed = d.trail.int(self.primed) == 1;
            // Every value had a valid row at the last call; if no row left
            // since, they all still have.
            if primed && !rows_left {
                return Ok(());
            }
            self.filter_positive(
                d,
                if changed == 1 && primed {
                    last_changed
                } else {
                    None
                },
            )?;
            d.trail.set_int(self.primed, 1);
            Ok(())
        } else {
            self.filter_negative(d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::{Strength, check_explanations_random, check_random};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    const ROWS: [[i64; 3]; 7] = [
        [0, 1, 2],
        [1, 1, 1],
        [-3, 4, 0],
        [2, 2, -1],
        [0, 0, 0],
        [4, -3, 3],
        [1, 2, 2],
    ];

    #[test]
    fn allowed_and_forbidden_tables_are_domain_consistent() {
        let rows: Vec<Vec<i64>> = ROWS.iter().map(|r| r.to_vec()).collect();
        for allowed in [true, false] {
            let rows2 = rows.clone();
            check_random(
                if allowed { "table" } else { "forbidden" },
                Strength::Domain,
                3,
                move |d, v| Some(Box::new(CompactTable::new(d, v.to_vec(), &rows2, allowed)?)),
                |t| ROWS.iter().any(|r| r == t) == allowed,
            );
        }
    }

    #[test]
    fn tables_over_the_same_rows_and_domains_share_supports() {
        use crate::engine::harness::Harness;
        let rows: Arc<Vec<Vec<i64>>> = Arc::new(ROWS.iter().map(|r| r.to_vec()).collect());
        let mut h = Harness::new();
        let x: Vec<VarId> = (0..6).map(|_| h.range(-3, 4)).collect();
        let narrow = h.range(0, 2);
        let y = [h.range(-3, 4), h.range(-3, 4)];
        let mut cache = TableCache::default();
        let d = &mut h.engine.doms;
        let mut make = |vars: &[VarId]| {
            CompactTable::with_cache(d, vars.to_vec(), &rows, true, &mut cache).unwrap()
        };
        let a = make(&x[0..3]);
        let b = make(&x[3..6]);
        let c = make(&[x[0], x[1], narrow]);
        let e = make(&[y[0], y[0], y[1]]);
        assert!(Arc::ptr_eq(&a.shared, &b.shared), "same rows, same domains");
        assert!(!Arc::ptr_eq(&a.shared, &c.shared), "other domains");
        assert_eq!(
            e.vars.len(),
            2,
            "a repeated variable takes the uncached path"
        );
        for p in [a, b, c, e] {
            h.post(p);
        }
        // x0..x2 and x3..x5 each hold a row: the same filtering on both.
        h.fix(x[0], 1).unwrap();
        h.fix(x[3], 1).unwrap();
        assert_eq!(h.values(x[1]), vec![1, 2]);
        assert_eq!(h.values(x[4]), vec![1, 2]);
        assert_eq!(h.values(narrow), vec![1, 2]);
        // y0 = y0 = 2 leaves the row (2, 2, -1).
        h.fix(y[0], 2).unwrap();
        assert_eq!(h.values(y[1]), vec![-1]);
    }

    #[test]
    fn a_variable_in_two_columns_takes_one_value() {
        let rows: Vec<Vec<i64>> = vec![vec![1, 1, 2], vec![2, 0, 2], vec![3, 3, 1]];
        check_random(
            "table, repeated column",
            Strength::Domain,
            2,
            move |d, v| {
                Some(Box::new(CompactTable::new(
                    d,
                    vec![v[0], v[1], v[0]],
                    &rows,
                    true,
                )?))
            },
            |t| {
                [[1, 1, 2], [2, 0, 2], [3, 3, 1]]
                    .iter()
                    .any(|r| *r == [t[0], t[1], t[0]])
            },
        );
    }

    #[test]
    fn explanations_are_implied() {
        let rows: Vec<Vec<i64>> = ROWS.iter().map(|r| r.to_vec()).collect();
        for allowed in [true, false] {
            let rows2 = rows.clone();
            check_explanations_random(
                "table explained",
                3,
                -3..=4,
                100,
                move |d, v| Some(Box::new(CompactTable::new(d, v.to_vec(), &rows2, allowed)?)),
                |t| ROWS.iter().any(|r| r == t) == allowed,
            );
        }
        // Random rows over 4 variables.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let rows: Vec<Vec<i64>> = (0..40)
            .map(|_| (0..4).map(|_| rng.random_range(0..=4)).collect())
            .collect();
        let rows2 = rows.clone();
        check_explanations_random(
            "table of 40 rows explained",
            4,
            0..=4,
            100,
            move |d, v| Some(Box::new(CompactTable::new(d, v.to_vec(), &rows2, true)?)),
            move |t| rows.iter().any(|r| r == t),
        );
    }

    /// `[z != 2]`, supported by the rows (0, 1, 2) and (1, 2, 2): once
    /// `y != 2` removes 1 from `x` (its only row) and a decision removes 0,
    /// one bound of `x` excludes both rows.
    #[test]
    fn a_removal_names_one_literal_per_row() {
        use crate::engine::harness::Harness;
        let rows: Vec<Vec<i64>> = vec![vec![0, 1, 2], vec![1, 2, 2], vec![2, 1, 1], vec![3, 0, 0]];
        let mut h = Harness::new();
        let (x, y, z) = (h.range(0, 3), h.range(0, 2), h.range(0, 2));
        h.engine.start_learning();
        let p = CompactTable::new(&mut h.engine.doms, vec![x, y, z], &rows, true).unwrap();
        h.post(p);
        h.engine.doms.checkpoint();
        h.remove(y, 2).unwrap();
        h.remove(x, 0).unwrap();
        assert_eq!(h.values(z), vec![0, 1]);
        assert_eq!(h.explanation(Lit::ne(z, 2)), vec![Lit::ge(x, 2)]);
        assert_eq!(h.explanation(Lit::ne(x, 1)), vec![Lit::le(y, 1)]);
    }

    #[test]
    fn interval_domains_are_refused() {
        let mut d = Domains::default();
        let x = d.add_range(0, 1 << 40);
        assert!(CompactTable::new(&mut d, vec![x], &[vec![1]], true).is_none());
    }
}
