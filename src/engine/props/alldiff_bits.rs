//! All-different over at most 64 values (queens, sudoku, alphadoku, the
//! 8-puzzle's boards), on one machine word per term.
//!
//! Each term's domain is read as a 64-bit window (bit `k` is the value
//! `base + k`), so the variable–value graph of the constraint is `n` words:
//! a variable's neighbours are its word, a set of values is a word, and the
//! graph algorithms below work a word at a time.
//!
//! - [`BitAllDiff::gac`] is Régin's filtering (see `alldiff_gac.rs` for the
//!   argument): a maximum matching kept from the previous call and repaired
//!   where a matched value left its variable, by breadth-first augmenting
//!   paths on bitsets; then the values reachable from free values, and the
//!   strongly connected components of the variables (Tarjan, successor sets
//!   as words). One call reaches the fixpoint. Nothing is allocated.
//! - [`BitAllDiff::eliminate_and_count`] is the weaker filtering of
//!   `propagation fc` and `none`, with the same rules and the same result as
//!   the general version in `alldiff.rs`: value elimination, pigeonhole,
//!   hidden singles.
//!
//! The matching is not trailed: it is checked against the domains at every
//! call, and a pair whose value is gone is simply dropped and repaired.

use crate::engine::domains::{Domains, Fail, PResult, span};
use crate::model::VarId;

/// The most values (and terms) this representation holds.
pub(crate) const MAX_VALUES: usize = 64;

/// No value (or no variable) matched.
const NONE: u8 = u8::MAX;

pub(crate) struct BitAllDiff {
    /// Per term: the bit position, in its variable's bitset, of value index 0.
    pos: Vec<i64>,
    /// The value index matched to each term, or NONE.
    var_val: Vec<u8>,
    /// The term matched to each value index (valid where the value is matched).
    val_var: [u8; MAX_VALUES],
    /// Scratch: each term's domain as value indices.
    dom: Vec<u64>,
    /// Scratch for augmenting paths: the term through which a value was reached.
    parent: [u8; MAX_VALUES],
    /// Scratch for the components: the terms holding each value.
    col: [u64; MAX_VALUES],
    tarjan: Tarjan,
}

impl BitAllDiff {
    /// The bitset form of `vars[i] + offsets[i]` pairwise distinct, when
    /// every term's values fit in one window of 64 and are held as bitsets.
    pub(crate) fn new(d: &Domains, vars: &[VarId], offsets: &[i64]) -> Option<Self> {
        let n = vars.len();
        if n == 0 || n > MAX_VALUES || vars.iter().any(|&v| !d.is_bitset(v)) {
            return None;
        }
        let lo = (0..n).map(|i| d.min(vars[i]) + offsets[i]).min()?;
        let hi = (0..n).map(|i| d.max(vars[i]) + offsets[i]).max()?;
        if span(lo, hi) > MAX_VALUES as u64 {
            return None;
        }
        // Value index k of term i is the variable's value lo + k - off,
        // at bit position lo + k - off - offset(var).
        let pos = (0..n)
            .map(|i| lo - offsets[i] - d.offset(vars[i]))
            .collect();
        Some(BitAllDiff {
            pos,
            var_val: vec![NONE; n],
            val_var: [NONE; MAX_VALUES],
            dom: vec![0; n],
            parent: [NONE; MAX_VALUES],
            col: [0; MAX_VALUES],
            tarjan: Tarjan::default(),
        })
    }

    /// Reads every term's domain into `dom`; returns their union.
    #[inline]
    fn load(&mut self, d: &Domains, vars: &[VarId]) -> u64 {
        let mut union = 0;
        for (i, &v) in vars.iter().enumerate() {
            let m = d.window(v, self.pos[i]);
            self.dom[i] = m;
            union |= m;
        }
        union
    }

    /// Removes from term `i` the value indices in `mask`.
    #[inline]
    fn remove(&mut self, d: &mut Domains, vars: &[VarId], i: usize, mask: u64) -> PResult {
        self.dom[i] &= !mask;
        d.remove_window(vars[i], self.pos[i], mask).map(|_| ())
    }

    /// Régin's generalised arc consistency.
    pub(crate) fn gac(&mut self, d: &mut Domains, vars: &[VarId]) -> PResult {
        let n = vars.len();
        let union = self.load(d, vars);
        if (union.count_ones() as usize) < n {
            return Err(Fail);
        }
        // Keep the pairs whose value is still there.
        let mut matched = 0u64;
        let mut free_terms = 0u64;
        for i in 0..n {
            let k = self.var_val[i];
            if k != NONE && self.dom[i] >> k & 1 == 1 && matched >> k & 1 == 0 {
                matched |= 1 << k;
                self.val_var[k as usize] = i as u8;
            } else {
                self.var_val[i] = NONE;
                free_terms |= 1 << i;
            }
        }
        while free_terms != 0 {
            let i = free_terms.trailing_zeros() as usize;
            free_terms &= free_terms - 1;
            matched |= self.augment(i, matched)?;
        }
        // Values reachable from a free value by alternating paths: from a
        // value to the terms that can take it, from a term to its match.
        let mut reach = union & !matched;
        let mut unreached = low_bits(n);
        if reach != 0 {
            loop {
                let mut grew = false;
                let mut rest = unreached;
                while rest != 0 {
                    let j = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if self.dom[j] & reach != 0 {
                        unreached &= !(1 << j);
                        reach |= 1 << self.var_val[j];
                        grew = true;
                    }
                }
                if !grew || unreached == 0 {
                    break;
                }
            }
        }
        // A reached term keeps the reachable values; an unreached one also
        // the values matched within its strongly connected component.
        for j in iter_bits(low_bits(n) & !unreached) {
            let extra = self.dom[j] & !reach;
            if extra != 0 {
                self.remove(d, vars, j, extra)?;
            }
        }
        if unreached != 0 {
            self.components(unreached);
            for j in iter_bits(unreached) {
                let keep = reach | self.tarjan.comp_vals[self.tarjan.comp[j] as usize];
                let extra = self.dom[j] & !keep;
                if extra != 0 {
                    self.remove(d, vars, j, extra)?;
                }
            }
        }
        Ok(())
    }

    /// A breadth-first augmenting path from the free term `s`; flips it and
    /// returns the newly matched value's bit, or fails when there is none
    /// (no matching covers every term).
    fn augment(&mut self, s: usize, matched: u64) -> Result<u64, Fail> {
        let mut seen = 0u64;
        let mut frontier = 1u64 << s;
        loop {
            let mut fresh = 0u64;
            for j in iter_bits(frontier) {
                let new = self.dom[j] & !seen & !fresh;
                for k in iter_bits(new) {
                    self.parent[k] = j as u8;
                }
                fresh |= new;
            }
            if fresh == 0 {
                return Err(Fail);
            }
            let free = fresh & !matched;
            if free != 0 {
                let end = free.trailing_zeros() as usize;
                let mut k = end;
                loop {
                    let j = self.parent[k] as usize;
                    let old = self.var_val[j];
                    self.var_val[j] = k as u8;
                    self.val_var[k] = j as u8;
                    if j == s {
                        break;
                    }
                    k = old as usize;
                }
                return Ok(1 << end);
            }
            seen |= fresh;
            frontier = 0;
            for k in iter_bits(fresh) {
                frontier |= 1 << self.val_var[k];
            }
        }
    }

    /// Strongly connected components of the terms in `among`, in the graph
    /// where `i → j` when `j` can take the value matched to `i`.
    fn components(&mut self, among: u64) {
        let mut targets = 0u64;
        for i in iter_bits(among) {
            targets |= 1 << self.var_val[i];
        }
        for k in iter_bits(targets) {
            self.col[k] = 0;
        }
        for j in iter_bits(among) {
            for k in iter_bits(self.dom[j] & targets) {
                self.col[k] |= 1 << j;
            }
        }
        let (var_val, col) = (&self.var_val, &self.col);
        self.tarjan.run(among, |i| {
            let k = var_val[i] as usize;
            (col[k] & among & !(1 << i), 1 << k)
        });
    }

    /// Value elimination, then pigeonhole and hidden singles, until nothing
    /// changes: the filtering of `alldiff.rs` without GAC, on bitsets.
    pub(crate) fn eliminate_and_count(&mut self, d: &mut Domains, vars: &[VarId]) -> PResult {
        let n = vars.len();
        self.load(d, vars);
        loop {
            // Value elimination to a fixpoint.
            loop {
                let mut taken = 0u64;
                for &m in &self.dom {
                    if m.is_power_of_two() {
                        if taken & m != 0 {
                            return Err(Fail);
                        }
                        taken |= m;
                    }
                }
                let mut newly_fixed = false;
                for i in 0..n {
                    let m = self.dom[i];
                    if !m.is_power_of_two() && m & taken != 0 {
                        self.remove(d, vars, i, m & taken)?;
                        newly_fixed |= self.dom[i].is_power_of_two();
                    }
                }
                if !newly_fixed {
                    break;
                }
            }
            // Pigeonhole and hidden singles.
            let (mut once, mut twice) = (0u64, 0u64);
            for &m in &self.dom {
                twice |= once & m;
                once |= m;
            }
            let distinct = once.count_ones() as usize;
            if distinct < n {
                return Err(Fail);
            }
            if distinct > n {
                return Ok(());
            }
            let singles = once & !twice;
            let mut fixed = false;
            for i in 0..n {
                let s = self.dom[i] & singles;
                if s == 0 {
                    continue;
                }
                if !s.is_power_of_two() {
                    return Err(Fail);
                }
                if self.dom[i] != s {
                    self.remove(d, vars, i, self.dom[i] & !s)?;
                    fixed = true;
                }
            }
            if !fixed {
                return Ok(());
            }
        }
    }

    /// Whether two fixed terms have the same value.
    pub(crate) fn violated(&mut self, d: &Domains, vars: &[VarId]) -> bool {
        let mut taken = 0u64;
        for (i, &v) in vars.iter().enumerate() {
            if d.is_fixed(v) {
                let m = d.window(v, self.pos[i]);
                if taken & m != 0 {
                    return true;
                }
                taken |= m;
            }
        }
        false
    }
}

/// Tarjan's algorithm on at most 64 nodes with successor sets as words.
struct Tarjan {
    index: [u8; MAX_VALUES],
    low: [u8; MAX_VALUES],
    /// The component of each node.
    comp: [u8; MAX_VALUES],
    /// Per component: the union of its nodes' labels.
    comp_vals: [u64; MAX_VALUES],
    stack: [u8; MAX_VALUES],
    /// The depth-first path: each node with the successors left to visit.
    call: [(u8, u64); MAX_VALUES],
}

impl Default for Tarjan {
    fn default() -> Self {
        Tarjan {
            index: [0; MAX_VALUES],
            low: [0; MAX_VALUES],
            comp: [0; MAX_VALUES],
            comp_vals: [0; MAX_VALUES],
            stack: [0; MAX_VALUES],
            call: [(0, 0); MAX_VALUES],
        }
    }
}

impl Tarjan {
    /// Components of the nodes in `nodes`; `succ(i)` gives node `i`'s
    /// successors (within `nodes`) and its label.
    fn run(&mut self, nodes: u64, succ: impl Fn(usize) -> (u64, u64)) {
        let mut visited = 0u64;
        let mut on_stack = 0u64;
        let (mut next_index, mut next_comp) = (0u8, 0u8);
        let (mut sp, mut depth) = (0usize, 0usize);
        for root in iter_bits(nodes) {
            if visited >> root & 1 == 1 {
                continue;
            }
            let mut v = root;
            loop {
                // Enter v.
                visited |= 1 << v;
                on_stack |= 1 << v;
                self.index[v] = next_index;
                self.low[v] = next_index;
                next_index += 1;
                self.stack[sp] = v as u8;
                sp += 1;
                self.call[depth] = (v as u8, succ(v).0);
                depth += 1;
                // Walk until a new node is found or the root is done.
                let next = loop {
                    if depth == 0 {
                        break None;
                    }
                    let (u, rest) = self.call[depth - 1];
                    let u = u as usize;
                    if rest != 0 {
                        let w = rest.trailing_zeros() as usize;
                        self.call[depth - 1].1 = rest & (rest - 1);
                        if visited >> w & 1 == 0 {
                            break Some(w);
                        }
                        if on_stack >> w & 1 == 1 {
                            self.low[u] = self.low[u].min(self.index[w]);
                        }
                        continue;
                    }
                    depth -= 1;
                    if depth > 0 {
                        let parent = self.call[depth - 1].0 as usize;
                        self.low[parent] = self.low[parent].min(self.low[u]);
                    }
                    if self.low[u] == self.index[u] {
                        let mut labels = 0u64;
                        loop {
                            sp -= 1;
                            let w = self.stack[sp] as usize;
                            on_stack &= !(1 << w);
                            self.comp[w] = next_comp;
                            labels |= succ(w).1;
                            if w == u {
                                break;
                            }
                        }
                        self.comp_vals[next_comp as usize] = labels;
                        next_comp += 1;
                    }
                };
                match next {
                    Some(w) => v = w,
                    None => break,
                }
            }
        }
    }
}

/// The `n` lowest bits set.
#[inline]
fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// The positions of the set bits, lowest first.
#[inline]
fn iter_bits(mut w: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (w != 0).then(|| {
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            b
        })
    })
}
