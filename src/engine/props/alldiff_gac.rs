//! Generalised arc consistency for all-different, after J.-C. Régin, "A
//! filtering algorithm for constraints of difference in CSPs" (AAAI 1994).
//!
//! The variable–value graph gets a maximum matching (kept between calls as a
//! starting point, by the value each term of the constraint held, so that it
//! survives a change of the terms passed or of the values' numbering;
//! repaired by augmenting paths that first look for a free value among a
//! variable's own values); no matching covering every variable means failure.
//! Rebuilding it from nothing whenever a term got fixed cost 87% of the time
//! on a 729-term permutation (de Bruijn): long augmenting paths for the last
//! terms, at every node. Orient matched edges variable → value and the
//! others value → variable: an unmatched edge belongs to some maximum matching,
//! so to some solution of the constraint, exactly when its ends share a strongly
//! connected component or its value is reachable from a free value. Every
//! other edge is removed. So when free values reach every variable nothing
//! is removed and the components are not computed (most calls on wide
//! domains, as the differences of a Golomb ruler: 0.87 times the CPU time on
//! golomb-10); otherwise they are computed among the unreached nodes only.
//!
//! When the terms are a permutation of the values they hold between them
//! (as many values as terms: every one matched, no free value), each term's
//! values are read as a bitset row, the matching is repaired on the rows (a
//! search skips 64 seen values at a time), and a few passes over the rows
//! from one term, forward and backward, tell whether the graph is one
//! strongly connected component; then nothing is removed, and no adjacency,
//! graph or components are built (de Bruijn's 729 terms: 0.07 of the CPU
//! time).
//!
//! The variables not reachable from a free value form the largest tight set
//! (as many values as variables): their matched values are the values no
//! variable outside that set can take, which [`Matching::filter`] hands back,
//! so that the caller can run the matching on the few variables that can be
//! in a tight set and still remove those values from the others.
//!
//! Values are numbered densely over their window `lo..=hi` when it is narrow
//! next to the domains (the matching is then kept between calls), and
//! otherwise through the sorted list of the values present: the words of a
//! crossword slot are spread over a list of tens of thousands, and a dense
//! window cost a pass over all of them at every call.

use crate::engine::domains::{Domains, Fail, PResult};
use crate::model::VarId;

const NONE: u32 = u32::MAX;

/// Scratch state, reused between calls; nothing here needs trailing because
/// the matching is re-validated against the domains on every call.
#[derive(Default)]
pub(crate) struct Matching {
    /// The value (`x + offset`) each term of the constraint was matched to
    /// at the end of the last call it took part in (`None`: none yet).
    held: Vec<Option<i64>>,
    /// Value index matched to each variable, or NONE.
    var_match: Vec<u32>,
    /// Variable matched to each value index, or NONE.
    val_match: Vec<u32>,
    lo: i64,
    /// The values present, sorted, when they are numbered through a list
    /// (empty: the dense window from `lo`).
    keys: Vec<i64>,
    /// Number values through the list even when the window is narrow (tests).
    always_list: bool,
    seen: Vec<u32>,
    stamp: u32,
    /// Adjacency of the current call: the values (as indices) of each variable.
    adj: Vec<Vec<u32>>,
    /// Scratch for augmenting paths: (variable, next adjacency position), and
    /// the value through which each variable on the path was reached.
    path: Vec<(usize, usize)>,
    via: Vec<u32>,
    graph: Graph,
    /// Scratch for [`Self::free_values_reach_all`]: the values and the
    /// variables reached so far.
    quick_vals: Vec<bool>,
    quick_vars: Vec<bool>,
    /// When every value is matched (a permutation, dense window): each
    /// variable's values as a bitset row of `row_words` words, for
    /// [`Self::strongly_connected`]; empty otherwise.
    rows: Vec<u64>,
    row_words: usize,
    /// The values present in the rows (their union), and scratch for
    /// [`Self::strongly_connected`].
    row_set: Vec<u64>,
    /// For [`Self::augment_rows`]: the values present and not matched, and
    /// those its search has seen.
    row_free: Vec<u64>,
    row_seen: Vec<u64>,
    /// Calls so far, and how many times in a row the rows were read for
    /// nothing (no permutation).
    calls: u32,
    row_misses: u32,
    /// Calls that [`Self::strongly_connected`] settled (tests).
    #[cfg(test)]
    pub(crate) settled_by_rows: u64,
}

/// A window read into bitset rows whatever the domains (64 words a
/// variable); a wider one only when it is at most twice the terms (a
/// permutation's values then fill half of it: not a crossword's word
/// indexes) and its rows take no more words than the adjacency has edges,
/// so that the rows never cost more than the graph (5,000 terms over
/// 1..5000: 3 MB of rows where the graph took 330 MB).
const MAX_ROW_VALUES: usize = 4096;

impl Matching {
    /// Filters `vars[i] + offsets[i]` to GAC and puts into `tight` the
    /// values (`x + offset`) of the largest tight set: those no other
    /// variable can take. `terms[i]` is the position of `vars[i]` in the
    /// whole constraint, under which its matched value is remembered.
    pub(crate) fn filter(
        &mut self,
        d: &mut Domains,
        vars: &[VarId],
        offsets: &[i64],
        terms: &[usize],
        tight: &mut Vec<i64>,
    ) -> PResult {
        let n = vars.len();
        tight.clear();
        let lo = (0..n)
            .map(|i| d.min(vars[i]) + offsets[i])
            .min()
            .unwrap_or(0);
        let hi = (0..n)
            .map(|i| d.max(vars[i]) + offsets[i])
            .max()
            .unwrap_or(0);
        let total: u64 = vars.iter().map(|&v| d.size(v)).sum();
        // A window no wider than a few times the domains is numbered densely.
        let dense = !self.always_list && ((hi - lo) as u64) < 4 * total + 64;
        self.keys.clear();
        let m = if dense {
            (hi - lo + 1) as usize
        } else {
            for i in 0..n {
                let off = offsets[i];
                self.keys.extend(d.values(vars[i]).map(|x| x + off));
            }
            self.keys.sort_unstable();
            self.keys.dedup();
            self.keys.len()
        };
        if m < n {
            return Err(Fail);
        }
        self.rebase(n, if dense { lo } else { i64::MIN }, m);
        self.rows.clear();
        // Reading the rows costs a word per 64 values of every variable,
        // wasted when they are no permutation (as golomb's differences,
        // with values to spare): after misses in a row, only every 2nd,
        // 4th, ... up to every 16th call tries.
        self.calls = self.calls.wrapping_add(1);
        let every = 1u32 << self.row_misses.min(4);
        let rows_fit =
            m <= MAX_ROW_VALUES || (m <= 2 * n && (n as u64) * (m.div_ceil(64) as u64) <= total);
        if dense && n >= 2 && rows_fit && self.calls.is_multiple_of(every) {
            if self.load_rows(d, vars, offsets, lo, m) {
                self.row_misses = 0;
            } else {
                self.row_misses += 1;
            }
        }
        if !self.rows.is_empty() {
            // A permutation: the matching from the rows, and when they show
            // one component, no adjacency, graph or components at all.
            self.restore(d, vars, offsets, terms);
            self.row_free.clear();
            self.row_free.extend_from_slice(&self.row_set);
            for &k in &self.var_match[..n] {
                if k != NONE {
                    self.row_free[k as usize / 64] &= !(1 << (k % 64));
                }
            }
            for i in 0..n {
                if self.var_match[i] == NONE && !self.augment_rows(i) {
                    return Err(Fail);
                }
            }
            self.hold(terms);
            if self.strongly_connected(n) {
                #[cfg(test)]
                {
                    self.settled_by_rows += 1;
                }
                let (keys, lo) = (&self.keys, self.lo);
                tight.extend(self.var_match[..n].iter().map(|&k| value_of(keys, lo, k)));
                return Ok(());
            }
            self.build_adjacency(d, vars, offsets, dense, lo);
            return self.prune(d, vars, offsets, m, tight);
        }
        self.build_adjacency(d, vars, offsets, dense, lo);
        self.restore(d, vars, offsets, terms);
        for i in 0..n {
            if self.var_match[i] == NONE && !self.augment(i) {
                return Err(Fail);
            }
        }
        self.hold(terms);
        self.prune(d, vars, offsets, m, tight)
    }

    /// Each variable's values as value indices, into `adj`.
    fn build_adjacency(
        &mut self,
        d: &Domains,
        vars: &[VarId],
        offsets: &[i64],
        dense: bool,
        lo: i64,
    ) {
        for (i, (&v, &off)) in vars.iter().zip(offsets).enumerate() {
            self.adj[i].clear();
            if dense {
                self.adj[i].extend(d.values(v).map(|x| (x + off - lo) as u32));
            } else {
                let keys = &self.keys;
                // Both sorted: one merge instead of a search per value.
                let mut k = 0;
                for x in d.values(v) {
                    while keys[k] != x + off {
                        k += 1;
                    }
                    self.adj[i].push(k as u32);
                }
            }
        }
    }

    /// Remembers each term's matched value, the next call's starting point.
    fn hold(&mut self, terms: &[usize]) {
        for (i, &t) in terms.iter().enumerate() {
            self.held[t] = Some(self.value(self.var_match[i]));
        }
    }

    /// [`Self::augment`] on the bitset rows: a depth-first search from
    /// variable `start` that takes a free value of its own when it has one,
    /// else goes on through each value not yet seen to its owner.
    fn augment_rows(&mut self, start: usize) -> bool {
        let words = self.row_words;
        self.row_seen.clear();
        self.row_seen.resize(words, 0);
        let mut stack = std::mem::take(&mut self.path);
        let mut via = std::mem::take(&mut self.via);
        stack.clear();
        via.clear();
        stack.push((start, 0));
        let found = loop {
            let Some(&(x, _)) = stack.last() else {
                break false;
            };
            let row = &self.rows[x * words..(x + 1) * words];
            let first = |other: &[u64], keep: bool| {
                row.iter().zip(other).enumerate().find_map(|(w, (&r, &o))| {
                    let both = if keep { r & o } else { r & !o };
                    (both != 0).then(|| (w * 64) as u32 + both.trailing_zeros())
                })
            };
            if let Some(k) = first(&self.row_free, true) {
                via.push(k);
                self.row_free[k as usize / 64] &= !(1 << (k % 64));
                break true;
            }
            match first(&self.row_seen, false) {
                Some(k) => {
                    self.row_seen[k as usize / 64] |= 1 << (k % 64);
                    via.push(k);
                    stack.push((self.val_match[k as usize] as usize, 0));
                }
                None => {
                    stack.pop();
                    via.pop();
                }
            }
        };
        if found {
            self.flip(&stack, &via);
        }
        self.path = stack;
        self.via = via;
        found
    }

    /// A matching that numbers values through the list of those present
    /// whatever their window, to test that numbering on small domains.
    #[cfg(test)]
    pub(crate) fn listed() -> Self {
        Matching {
            always_list: true,
            ..Matching::default()
        }
    }

    /// The value (`x + offset`) numbered `k`.
    fn value(&self, k: u32) -> i64 {
        value_of(&self.keys, self.lo, k)
    }

    /// Resizes for `n` variables and `m` values starting at `lo` (`i64::MIN`:
    /// numbered through `keys`), with an empty matching.
    fn rebase(&mut self, n: usize, lo: i64, m: usize) {
        self.var_match.clear();
        self.var_match.resize(n, NONE);
        self.val_match.clear();
        self.val_match.resize(m, NONE);
        self.lo = lo;
        self.adj.resize_with(n, Vec::new);
        self.seen.resize(m, 0);
    }

    /// Matches each term again to the value it held last time, where that
    /// value is still in its domain and not taken by an earlier term.
    fn restore(&mut self, d: &Domains, vars: &[VarId], offsets: &[i64], terms: &[usize]) {
        let top = terms.iter().max().map_or(0, |&t| t + 1);
        if self.held.len() < top {
            self.held.resize(top, None);
        }
        for (i, &t) in terms.iter().enumerate() {
            let Some(x) = self.held[t] else { continue };
            if !d.contains(vars[i], x - offsets[i]) {
                continue;
            }
            let k = if self.keys.is_empty() {
                (x - self.lo) as usize
            } else {
                match self.keys.binary_search(&x) {
                    Ok(k) => k,
                    Err(_) => continue,
                }
            };
            if self.val_match[k] == NONE {
                self.val_match[k] = i as u32;
                self.var_match[i] = k as u32;
            }
        }
    }

    /// Finds an augmenting path from variable `start` (iterative DFS).
    fn augment(&mut self, start: usize) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let mut stack = std::mem::take(&mut self.path);
        let mut via = std::mem::take(&mut self.via);
        stack.clear();
        via.clear();
        stack.push((start, 0));
        let found = self.search_path(&mut stack, &mut via);
        self.path = stack;
        self.via = via;
        found
    }

    /// The depth-first search of [`Self::augment`] on its stacks.
    fn search_path(&mut self, stack: &mut Vec<(usize, usize)>, via: &mut Vec<u32>) -> bool {
        while let Some(&mut (x, ref mut pos)) = stack.last_mut() {
            if *pos == 0 {
                // Look ahead: a free value of x's own ends the path at once.
                if let Some(&k) = self.adj[x]
                    .iter()
                    .find(|&&k| self.val_match[k as usize] == NONE)
                {
                    self.seen[k as usize] = self.stamp;
                    via.push(k);
                    self.flip(stack, via);
                    return true;
                }
            }
            if *pos >= self.adj[x].len() {
                stack.pop();
                via.pop();
                continue;
            }
            let k = self.adj[x][*pos] as usize;
            *pos += 1;
            if self.seen[k] == self.stamp {
                continue;
            }
            self.seen[k] = self.stamp;
            via.push(k as u32);
            let owner = self.val_match[k];
            if owner == NONE {
                self.flip(stack, via);
                return true;
            }
            stack.push((owner as usize, 0));
        }
        false
    }

    /// Flips the path: each variable on the stack takes the value it reached.
    fn flip(&mut self, stack: &[(usize, usize)], via: &[u32]) {
        for (depth, &(var, _)) in stack.iter().enumerate() {
            let value = via[depth] as usize;
            self.var_match[var] = value as u32;
            self.val_match[value] = var as u32;
        }
    }

    /// The graph of the matching: nodes are the variables 0..n and the
    /// values n..n+m; a variable's successor is its matched value, a value's
    /// the other variables that hold it.
    #[inline]
    fn build_graph(&mut self, n: usize, m: usize) {
        let g = &mut self.graph;
        g.reset(n + m);
        for (i, a) in self.adj[..n].iter().enumerate() {
            g.degree[i] += 1;
            for &k in a {
                if k != self.var_match[i] {
                    g.degree[n + k as usize] += 1;
                }
            }
        }
        g.layout();
        for (i, a) in self.adj[..n].iter().enumerate() {
            g.add(i, n + self.var_match[i] as usize);
            for &k in a {
                if k != self.var_match[i] {
                    g.add(n + k as usize, i);
                }
            }
        }
    }

    /// Reads each variable's values (`x + offset`, numbered from `lo`)
    /// into a bitset row of `m.div_ceil(64)` words, and keeps them (true)
    /// when the variables have as many values between them as there are
    /// variables (a permutation of those values: after any matching, each
    /// of them is matched, and the window's other values are in no domain).
    fn load_rows(
        &mut self,
        d: &Domains,
        vars: &[VarId],
        offsets: &[i64],
        lo: i64,
        m: usize,
    ) -> bool {
        let words = m.div_ceil(64);
        self.row_words = words;
        self.rows.resize(vars.len() * words, 0);
        self.row_set.clear();
        self.row_set.resize(words, 0);
        for (i, (&v, &off)) in vars.iter().zip(offsets).enumerate() {
            for (w, row) in self.rows[i * words..(i + 1) * words].iter_mut().enumerate() {
                // Value indices 64w.. are the variable's values x0.. .
                let x0 = lo - off + 64 * w as i64;
                *row = d.window_at(v, x0);
                self.row_set[w] |= *row;
            }
        }
        let present: u32 = self.row_set.iter().map(|w| w.count_ones()).sum();
        if present as usize != vars.len() {
            self.rows.clear();
        }
        !self.rows.is_empty()
    }

    /// With every value present matched (as many as variables), whether the
    /// matching's graph is one strongly connected component, so that GAC
    /// removes nothing: true when the variables are, under `i → j` when
    /// `i`'s matched value is one of `j`'s (a value then reaches its
    /// owner's successors, and its owner reaches it). Found on the bitset
    /// rows from variable 0, forward (`j` reached when its row meets the
    /// matched values of those reached) and backward (`i` reaches when its
    /// matched value is in the union of the rows of those that reach), a
    /// few passes each: a word per 64 values instead of an edge per value,
    /// as de Bruijn's 729-term permutation, where Régin's components cost
    /// an edge for each of the terms' hundreds of values at every node.
    /// False when the passes stop short, which leaves the answer to the
    /// components.
    fn strongly_connected(&mut self, n: usize) -> bool {
        const PASSES: usize = 4;
        let words = self.row_words;
        let (rows, set, seen) = (&self.rows, &mut self.row_set, &mut self.quick_vars);
        let bit = |set: &mut [u64], k: u32| set[k as usize / 64] |= 1 << (k % 64);
        for forward in [true, false] {
            seen.clear();
            seen.resize(n, false);
            seen[0] = true;
            set.clear();
            if forward {
                set.resize(words, 0);
                bit(set, self.var_match[0]);
            } else {
                set.extend_from_slice(&rows[..words]);
            }
            let mut count = 1;
            for _ in 0..PASSES {
                let before = count;
                for (i, s) in seen.iter_mut().enumerate() {
                    if *s {
                        continue;
                    }
                    let k = self.var_match[i];
                    let row = &rows[i * words..(i + 1) * words];
                    let joins = if forward {
                        row.iter().zip(set.iter()).any(|(r, s)| r & s != 0)
                    } else {
                        set[k as usize / 64] >> (k % 64) & 1 != 0
                    };
                    if joins {
                        *s = true;
                        count += 1;
                        if forward {
                            bit(set, k);
                        } else {
                            set.iter_mut().zip(row).for_each(|(s, r)| *s |= r);
                        }
                    }
                }
                if count == n || count == before {
                    break;
                }
            }
            if count < n {
                return false;
            }
        }
        true
    }

    /// Whether every variable is reachable from a free value, found by a
    /// few passes over the adjacency without building the graph: a variable
    /// is reached through any value of its own but its match that is
    /// reached, and its match then is. Most calls on wide domains end here
    /// (as golomb's differences). False when the passes stop short, which
    /// leaves the answer to the graph's search.
    fn free_values_reach_all(&mut self, n: usize, m: usize) -> bool {
        const PASSES: usize = 3;
        let (vals, vars) = (&mut self.quick_vals, &mut self.quick_vars);
        vals.clear();
        vals.extend(self.val_match[..m].iter().map(|&owner| owner == NONE));
        vars.clear();
        vars.resize(n, false);
        for _ in 0..PASSES {
            let (mut grew, mut all) = (false, true);
            for (i, reached) in vars.iter_mut().enumerate() {
                if *reached {
                    continue;
                }
                let mine = self.var_match[i];
                if self.adj[i].iter().any(|&k| k != mine && vals[k as usize]) {
                    *reached = true;
                    vals[mine as usize] = true;
                    grew = true;
                } else {
                    all = false;
                }
            }
            if all {
                return true;
            }
            if !grew {
                return false;
            }
        }
        false
    }

    /// Removes every edge that is in no maximum matching.
    /// The values of the variables no free value reaches go into `tight`.
    fn prune(
        &mut self,
        d: &mut Domains,
        vars: &[VarId],
        offsets: &[i64],
        m: usize,
        tight: &mut Vec<i64>,
    ) -> PResult {
        let n = vars.len();
        if self.free_values_reach_all(n, m) {
            return Ok(());
        }
        self.build_graph(n, m);
        let g = &mut self.graph;
        g.reach_from_free(n, &self.val_match);
        // Every variable reached from a free value: so is every value (free,
        // or the match of a reached variable), and no edge can go.
        if g.reach[..n].iter().all(|&r| r) {
            return Ok(());
        }
        g.components_unreached();
        let (keys, lo) = (&self.keys, self.lo);
        for i in 0..n {
            if !g.reach[i] {
                tight.push(value_of(keys, lo, self.var_match[i]));
            }
        }
        for i in 0..n {
            let mine = self.var_match[i];
            for &k in &self.adj[i] {
                let node = n + k as usize;
                if k != mine && !g.reach[node] && g.comp[node] != g.comp[i] {
                    d.remove(vars[i], value_of(keys, lo, k) - offsets[i])?;
                }
            }
        }
        Ok(())
    }
}

/// The value numbered `k`: through `keys` when there are any, else `lo + k`.
fn value_of(keys: &[i64], lo: i64, k: u32) -> i64 {
    if keys.is_empty() {
        lo + k as i64
    } else {
        keys[k as usize]
    }
}

/// A directed graph in compressed rows, with buffers reused between calls.
#[derive(Default)]
struct Graph {
    degree: Vec<usize>,
    start: Vec<usize>,
    fill: Vec<usize>,
    edges: Vec<usize>,
    reach: Vec<bool>,
    work: Vec<usize>,
    comp: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    call: Vec<(usize, usize)>,
}

impl Graph {
    /// Marks in `reach` the nodes reachable from a free value (search over
    /// the edges).
    #[inline]
    fn reach_from_free(&mut self, n: usize, val_match: &[u32]) {
        let m = self.degree.len() - n;
        self.reach.clear();
        self.reach.resize(n + m, false);
        self.work.clear();
        for (k, &owner) in val_match[..m].iter().enumerate() {
            if owner == NONE {
                self.reach[n + k] = true;
                self.work.push(n + k);
            }
        }
        while let Some(u) = self.work.pop() {
            for e in self.start[u]..self.start[u + 1] {
                let w = self.edges[e];
                if !self.reach[w] {
                    self.reach[w] = true;
                    self.work.push(w);
                }
            }
        }
    }

    fn reset(&mut self, nodes: usize) {
        self.degree.clear();
        self.degree.resize(nodes, 0);
    }

    /// Turns degrees into row starts; edges are then added with [`Graph::add`].
    fn layout(&mut self) {
        let nodes = self.degree.len();
        self.start.clear();
        self.start.push(0);
        for u in 0..nodes {
            let next = self.start[u] + self.degree[u];
            self.start.push(next);
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.start[..nodes]);
        self.edges.clear();
        self.edges.resize(self.start[nodes], 0);
    }

    fn add(&mut self, from: usize, to: usize) {
        self.edges[self.fill[from]] = to;
        self.fill[from] += 1;
    }

    /// Strongly connected components (iterative Tarjan) into `comp`, of the
    /// nodes not in `reach` only (the others keep `u32::MAX`). A cycle through
    /// a reached node reaches all its nodes, so these components are whole;
    /// and pruning asks for the components of unreached nodes only.
    fn components_unreached(&mut self) {
        let n = self.degree.len();
        self.index.clear();
        self.index.resize(n, u32::MAX);
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.comp.clear();
        self.comp.resize(n, u32::MAX);
        self.stack.clear();
        let (mut next_index, mut next_comp) = (0u32, 0u32);
        for root in 0..n {
            if self.reach[root] || self.index[root] != u32::MAX {
                continue;
            }
            self.call.push((root, self.start[root]));
            self.index[root] = next_index;
            self.low[root] = next_index;
            next_index += 1;
            self.stack.push(root);
            self.on_stack[root] = true;
            while let Some(&mut (v, ref mut pos)) = self.call.last_mut() {
                if *pos < self.start[v + 1] {
                    let w = self.edges[*pos];
                    *pos += 1;
                    if self.reach[w] {
                        continue;
                    }
                    if self.index[w] == u32::MAX {
                        self.index[w] = next_index;
                        self.low[w] = next_index;
                        next_index += 1;
                        self.stack.push(w);
                        self.on_stack[w] = true;
                        self.call.push((w, self.start[w]));
                    } else if self.on_stack[w] {
                        self.low[v] = self.low[v].min(self.index[w]);
                    }
                    continue;
                }
                self.call.pop();
                if let Some(&(parent, _)) = self.call.last() {
                    self.low[parent] = self.low[parent].min(self.low[v]);
                }
                if self.low[v] == self.index[v] {
                    while let Some(w) = self.stack.pop() {
                        self.on_stack[w] = false;
                        self.comp[w] = next_comp;
                        if w == v {
                            break;
                        }
                    }
                    next_comp += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::harness::Harness;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    /// The values `x` of each term that some assignment of pairwise
    /// distinct `x + offset` gives it; `None` when there is none.
    fn supported(doms: &[Vec<i64>], offsets: &[i64]) -> Option<Vec<Vec<i64>>> {
        fn go(
            i: usize,
            doms: &[Vec<i64>],
            offsets: &[i64],
            pick: &mut Vec<i64>,
            out: &mut [Vec<i64>],
        ) {
            if i == doms.len() {
                for (j, &x) in pick.iter().enumerate() {
                    if !out[j].contains(&x) {
                        out[j].push(x);
                    }
                }
                return;
            }
            for &x in &doms[i] {
                if (0..i).all(|j| pick[j] + offsets[j] != x + offsets[i]) {
                    pick.push(x);
                    go(i + 1, doms, offsets, pick, out);
                    pick.pop();
                }
            }
        }
        let mut out = vec![Vec::new(); doms.len()];
        go(0, doms, offsets, &mut Vec::new(), &mut out);
        if out.iter().any(Vec::is_empty) {
            return None;
        }
        out.iter_mut().for_each(|v| v.sort_unstable());
        Some(out)
    }

    /// Terms with as many values between them as terms (spread over a
    /// window with holes, some terms held as intervals), filtered twice
    /// with a value removed between: GAC as brute force finds it, whether
    /// the bitset rows settle the call (one component) or the components
    /// do. Fails when the rows skip a call that removes something, or
    /// read a domain at the wrong place.
    #[test]
    fn permutations_are_gac_whether_the_rows_settle_them_or_not() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xa11d);
        let (mut settled, mut others) = (0, 0);
        for trial in 0..3000 {
            let n = rng.random_range(2..=5usize);
            let width = n as i64 + rng.random_range(0..4);
            let mut window: Vec<i64> = (0..width).collect();
            while window.len() > n {
                window.remove(rng.random_range(0..window.len()));
            }
            let offsets: Vec<i64> = (0..n).map(|_| rng.random_range(-2..=2)).collect();
            let mut sets: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let keep = rng.random_range(2..=9);
                    window
                        .iter()
                        .copied()
                        .filter(|_| rng.random_range(0..10) < keep)
                        .collect()
                })
                .collect();
            for &v in &window {
                if !sets.iter().any(|s| s.contains(&v)) {
                    sets[rng.random_range(0..n)].push(v);
                }
            }
            let mut h = Harness::new();
            let vars: Vec<VarId> = (0..n)
                .map(|i| {
                    let mut xs: Vec<i64> = sets[i].iter().map(|v| v - offsets[i]).collect();
                    xs.sort_unstable();
                    let contiguous = xs.windows(2).all(|w| w[1] == w[0] + 1);
                    match xs.as_slice() {
                        [] => h.var(&[100]),
                        [a, .., b] if contiguous && rng.random_range(0..2) == 0 => {
                            h.engine.doms.add_interval(*a, *b)
                        }
                        _ => h.var(&xs),
                    }
                })
                .collect();
            let terms: Vec<usize> = (0..n).collect();
            let mut m = Matching::default();
            let mut tight = Vec::new();
            for call in 0..2 {
                let d = &mut h.engine.doms;
                if call == 1 {
                    let Some(i) = (0..n).find(|&i| d.size(vars[i]) > 1) else {
                        break;
                    };
                    let x = d
                        .values(vars[i])
                        .nth(rng.random_range(0..d.size(vars[i]) as usize));
                    if let Some(x) = x {
                        let _ = d.remove(vars[i], x);
                    }
                }
                let before: Vec<Vec<i64>> = vars.iter().map(|&v| d.values(v).collect()).collect();
                let was = m.settled_by_rows;
                let r = m.filter(d, &vars, &offsets, &terms, &mut tight);
                let after: Vec<Vec<i64>> = vars.iter().map(|&v| d.values(v).collect()).collect();
                let want = supported(&before, &offsets);
                let at = format!("trial {trial}, call {call}: {before:?} offsets {offsets:?}");
                match want {
                    None => {
                        assert!(r.is_err(), "{at}: no solution, yet {after:?}");
                        break;
                    }
                    Some(want) => {
                        assert!(r.is_ok(), "{at}: failed, yet {want:?} hold");
                        if vars.iter().all(|&v| d.is_bitset(v)) {
                            assert_eq!(after, want, "{at}");
                        } else {
                            // An interval loses values at its ends only, so
                            // one call may leave a value that became an end:
                            // what went had no support, at least.
                            for (a, w) in after.iter().zip(&want) {
                                assert!(w.iter().all(|x| a.contains(x)), "{at}: {after:?}");
                            }
                        }
                        if m.settled_by_rows > was {
                            assert_eq!(before, want, "{at}: settled with values unsupported");
                        }
                    }
                }
                if m.settled_by_rows > was {
                    settled += 1;
                    assert_eq!(before, after, "{at}: settled, yet values went");
                    let mut t = tight.clone();
                    t.sort_unstable();
                    let mut all: Vec<i64> = window.clone();
                    all.retain(|v| {
                        before
                            .iter()
                            .zip(&offsets)
                            .any(|(xs, o)| xs.contains(&(v - o)))
                    });
                    assert_eq!(t, all, "{at}: the tight set is every value");
                } else {
                    others += 1;
                }
            }
        }
        assert!(
            settled > 300 && others > 300,
            "{settled} settled, {others} not"
        );
    }

    /// A permutation over a window wider than [`MAX_ROW_VALUES`] (4,200
    /// terms over 0..4199, an eighth of the window in each domain) is read into
    /// rows when they take fewer words than the graph has edges: filtered
    /// as the graph alone filters it (values numbered through a list, so no
    /// rows), with and without a Hall set of three terms on three values,
    /// with and without a variable twice (`x` and `x + 1`), and the rows
    /// settle the calls that remove nothing.
    #[test]
    fn wide_permutations_read_into_rows_filter_as_the_graph_does() {
        let n = 4200usize;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x4200);
        let mut settled = 0;
        for trial in 0..4 {
            let sets: Vec<Vec<i64>> = (0..n)
                .map(|i| {
                    if trial % 2 == 1 && i < 3 {
                        return vec![10, 20, 30];
                    }
                    (0..n as i64)
                        .filter(|&v| v == i as i64 || rng.random_range(0..8) == 0)
                        .collect()
                })
                .collect();
            let mut results = Vec::new();
            for mut m in [Matching::default(), Matching::listed()] {
                let mut h = Harness::new();
                let mut vars: Vec<VarId> = sets.iter().map(|xs| h.var(xs)).collect();
                let (mut offsets, terms) = (vec![0; n], (0..n).collect::<Vec<_>>());
                // Trials 2 and 3: the last term is the first variable again,
                // as its view `x + 1` (a variable twice in the terms).
                if trial >= 2 {
                    (vars[n - 1], offsets[n - 1]) = (vars[0], 1);
                }
                let mut tight = Vec::new();
                let mut outcome = Vec::new();
                for call in 0..2 {
                    let d = &mut h.engine.doms;
                    if call == 1 {
                        let i = 3 + trial;
                        let x = d.values(vars[i]).nth(1).unwrap();
                        d.remove(vars[i], x).unwrap();
                    }
                    let r = m.filter(d, &vars, &offsets, &terms, &mut tight);
                    let doms: Vec<Vec<i64>> = vars.iter().map(|&v| d.values(v).collect()).collect();
                    outcome.push((r.is_ok(), doms));
                }
                settled += m.settled_by_rows;
                results.push(outcome);
            }
            assert!(
                results[0] == results[1],
                "trial {trial}: rows and graph differ"
            );
            if trial % 2 == 1 {
                let after = &results[0][0].1;
                assert!(
                    // (The last term of trial 3 is the first variable's.)
                    after[3..n - 1].iter().all(|xs| !xs.contains(&20)),
                    "the Hall set's values stay"
                );
            }
        }
        assert!(settled > 0, "the rows never settled a call");
    }

    /// A variable in two terms (`x` and `x + c`): the filtering reads each
    /// term as its own, so it need not be exact, but it must keep every
    /// value some solution gives the variable and fail only without one,
    /// whether the rows settle the call or not.
    #[test]
    fn a_variable_in_two_terms_loses_no_solution() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7e9);
        let mut settled = 0;
        for trial in 0..3000 {
            let nv = rng.random_range(2..=4usize);
            let mut h = Harness::new();
            let doms: Vec<Vec<i64>> = (0..nv)
                .map(|_| {
                    (0..6)
                        .filter(|_| rng.random_range(0..3) > 0)
                        .collect::<Vec<_>>()
                })
                .map(|xs| if xs.is_empty() { vec![0] } else { xs })
                .collect();
            let vars: Vec<VarId> = doms.iter().map(|xs| h.var(xs)).collect();
            let mut terms: Vec<(usize, i64)> = (0..nv).map(|v| (v, 0)).collect();
            for _ in 0..rng.random_range(1..=2) {
                terms.push((rng.random_range(0..nv), rng.random_range(1..=3)));
            }
            let tv: Vec<VarId> = terms.iter().map(|&(v, _)| vars[v]).collect();
            let offsets: Vec<i64> = terms.iter().map(|&(_, c)| c).collect();
            // Brute force over the variables: the values each takes in a solution.
            let mut want = vec![Vec::new(); nv];
            let total: usize = doms.iter().map(Vec::len).product();
            for mut code in 0..total {
                let pick: Vec<i64> = doms
                    .iter()
                    .map(|xs| {
                        let x = xs[code % xs.len()];
                        code /= xs.len();
                        x
                    })
                    .collect();
                let vals: Vec<i64> = terms.iter().map(|&(v, c)| pick[v] + c).collect();
                if (0..vals.len()).all(|i| (0..i).all(|j| vals[i] != vals[j])) {
                    for (w, &x) in want.iter_mut().zip(&pick) {
                        if !w.contains(&x) {
                            w.push(x);
                        }
                    }
                }
            }
            let mut m = Matching::default();
            let mut tight = Vec::new();
            let idx: Vec<usize> = (0..terms.len()).collect();
            let r = m.filter(&mut h.engine.doms, &tv, &offsets, &idx, &mut tight);
            settled += m.settled_by_rows;
            let at = format!("trial {trial}: {doms:?} terms {terms:?}");
            if r.is_err() {
                assert!(want[0].is_empty(), "{at}: failed, yet {want:?} hold");
                continue;
            }
            for (v, w) in vars.iter().zip(&want) {
                let left: Vec<i64> = h.engine.doms.values(*v).collect();
                assert!(
                    w.iter().all(|x| left.contains(x)),
                    "{at}: {left:?} lost some of {w:?}"
                );
            }
        }
        assert!(settled > 20, "the rows settled {settled} calls");
    }
}
