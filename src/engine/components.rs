//! Counting by components, for `--count`: when the open variables of a node
//! fall apart into independent components, each is counted on its own and
//! the counts are multiplied; a component's count is cached under its
//! variables and their current domains, as #SAT model counters do
//! (Bacchus, Dalmao and Pitassi, "Algorithms and complexity results for
//! #SAT and Bayesian inference", FOCS 2003; Thurley's sharpSAT, SAT 2006).
//!
//! At a node (propagated to a fixpoint under `ac`), two open variables are
//! linked when some propagator has both open; the components are the classes
//! of that relation. A propagator's open variables all lie in one component,
//! so assignments of different components never meet in a constraint, and
//! searching one component only wakes propagators whose open variables are
//! its own: the count of the node is the product of its components' counts.
//!
//! A component is counted without branching when it is
//! - one variable whose propagators are all satisfied by any value left (each
//!   has it as its last open variable and is
//!   [`consistent_on_last_open`](super::propagator::Propagator::consistent_on_last_open)):
//!   its domain size;
//! - a tree of word crossings, the other propagators as above: by dynamic
//!   programming over letters (`count.rs`);
//! - or found in the cache.
//!
//! Otherwise the counter branches on one of its variables (the search's
//! variable selection), once per value, propagates, and counts the
//! components of each child; the sum is the component's count, which goes
//! into the cache.
//!
//! The cache key is the sorted list of the component's variables, their
//! domains (bitset words, or bounds), and, for each propagator on them that
//! still has fixed variables, the values of those — except where the domains
//! already say all the fixed values can tell: a propagator with one open
//! variable that is consistent on it, and one whose restriction to its open
//! variables depends on their domains only
//! ([`residual_in_domains`](super::propagator::Propagator::residual_in_domains):
//! all-different, whose fixed values are gone from the open domains). The
//! variables determine the propagators, so equal keys mean equal sub-problems.
//! The cache holds at most [`CACHE_BYTES`]; when full it is emptied, which
//! costs time, never answers. Components of a size whose lookups almost
//! never hit stop being cached (see [`Components::worth_caching`]): in
//! n-queens only the components of two to four variables ever repeat, and
//! keying and storing all the others took a fifth of the time.
//!
//! Sound where the search counts every variable (no projection, no auxiliary
//! variables: both would make a component's count a count of projections),
//! without an objective or a solution limit, under `ac`; the search checks
//! these before calling here. `--no-product-count` counts leaf by leaf.

use super::budget::Budget;
use super::count::Counter;
use super::crossings::Crossings;
use super::domains::Domains;
use super::select::Rng;
use super::select::var::{Order, VarSelector};
use super::trail::Checkpoint;
use super::{Engine, PropId};
use crate::model::VarId;
use rustc_hash::FxHashMap;

/// The most memory the cache of one counter may hold.
pub(crate) const CACHE_BYTES: usize = 64 << 20;

/// Lookups of one component size before its hit rate is judged: few, since
/// every worker and every part of a split judges afresh (n-queens 13, a
/// fresh judgement in each of 512 sub-problems: 1.65 s of CPU in all with
/// 1,024, 1.60 s with 64).
const PROBE_LOOKUPS: u32 = 64;

/// A size stays cached while one lookup in this many hits.
const MIN_HIT_RATE: u32 = 32;

/// Whether `p` says exactly that its variables take pairwise different
/// values (an all-different without offsets): two open variables whose
/// domains share no value can then never clash.
fn pairwise_distinct(p: &dyn super::propagator::Propagator) -> bool {
    p.distinct_terms()
        .is_some_and(|(_, offsets)| offsets.iter().all(|&c| c == 0))
}

/// Per propagator: whether it is an all-different split by classes
/// ([`pairwise_distinct`]) — not when another propagator that links its
/// open variables has all of its variables (n-queens: the diagonals' over
/// the same queens), where its classes could never split a component and
/// computing them at every split was pure cost (4.6% of an n-queens count).
/// Only for three terms or more, so that a binary crossing over the same
/// two variables is never what covers it.
fn splitting_distinct(engine: &Engine, props_of: &[Vec<PropId>]) -> Vec<bool> {
    let distinct: Vec<bool> = engine
        .props
        .iter()
        .map(|p| pairwise_distinct(p.as_ref()))
        .collect();
    // mark[v] == q: v is a variable of propagator q (stamped before use;
    // a stale stamp of q is of the same variables).
    let mut mark = vec![usize::MAX; engine.doms.num_vars()];
    let mut splits = distinct.clone();
    for (p, prop) in engine.props.iter().enumerate() {
        if !distinct[p] || prop.vars().len() < 3 {
            continue;
        }
        let vars = prop.vars();
        splits[p] = !props_of[vars[0]].iter().any(|&q| {
            if q == p || distinct[q] {
                return false;
            }
            for &v in engine.props[q].vars() {
                mark[v] = q;
            }
            vars.iter().all(|&v| mark[v] == q)
        });
    }
    splits
}

/// What the counter needs of the search that calls it.
pub(crate) struct Ctx<'a> {
    pub(crate) engine: &'a mut Engine,
    pub(crate) var_select: &'a mut VarSelector,
    pub(crate) rng: &'a mut Rng,
    pub(crate) crossings: &'a Crossings,
    /// The search's branching order: its scope is branched first.
    pub(crate) order: &'a Order,
    pub(crate) budget: &'a mut Budget,
    /// Decisions already on the search's stack (for `max_depth`).
    pub(crate) depth: u64,
}

/// The count below a node: exact, or a lower bound when a limit stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counted {
    Exact(u128),
    Stopped(u128),
}

/// How a component is counted.
enum Shape {
    /// One variable whose propagators hold for any value left.
    Free,
    /// A tree of word crossings (propagator, endpoints).
    Tree(Vec<(PropId, VarId, VarId)>),
    /// By branching.
    Search,
}

struct Comp {
    /// Sorted.
    vars: Vec<VarId>,
    shape: Shape,
}

enum Frame {
    /// The components of a node, multiplied as they are counted.
    Product {
        comps: Vec<Comp>,
        next: usize,
        acc: u128,
    },
    /// One component, counted by trying each value of `var` in turn.
    Branch {
        vars: Vec<VarId>,
        key: Option<Box<[u64]>>,
        var: VarId,
        values: Values,
        next: usize,
        acc: u128,
        checkpoint: Checkpoint,
    },
}

/// The values to try: a bitset domain's, listed, or an interval's, in order
/// (never listed: it may be wide; a limit stops the search).
enum Values {
    List(Vec<i64>),
    /// A domain held by its bounds: the next value is the least one left
    /// once `x >= from` is propagated, so that the holes its `member`
    /// constraint keeps are skipped in one step: a branch costs the values
    /// of the domain, never the integers between its bounds (`{0, 2^62}`
    /// once took 2^62 steps). `None` once the last value was taken.
    Bounds {
        from: Option<i64>,
    },
}

/// The counter: the propagators' static facts, the cache, scratch space.
pub(crate) struct Components {
    facts: PropFacts,
    cache: FxHashMap<Box<[u64]>, u128>,
    cache_bytes: usize,
    /// Components found in the cache.
    pub(crate) hits: u64,
    /// Per component size (its number of variables): cache lookups and hits
    /// since the counter was made.
    tried: Vec<(u32, u32)>,
    var_stamp: Vec<u32>,
    prop_stamp: Vec<u32>,
    stamp: u32,
    tree: Counter,
    key: Vec<u64>,
    /// Per propagator: its index in `distinct` when it is an all-different
    /// without offsets ([`pairwise_distinct`]).
    distinct_of: Vec<Option<u32>>,
    distinct: Vec<Distinct>,
}

/// Domains of at most this many values are compared value by value to tell
/// whether two variables of an all-different may clash; two larger ones are
/// taken to share a value when their bounds overlap.
const COMPARED_SIZE: u64 = 64;

/// An all-different's classes at one node: its open variables, linked when
/// their domains may share a value (union-find over its positions). Open
/// variables of different classes have disjoint domains and its fixed
/// values are gone from them, so on the open variables it is one
/// all-different per class, and only the variables of one class are linked
/// through it.
struct Distinct {
    /// Its variables with their positions, sorted by variable.
    by_var: Vec<(VarId, u32)>,
    /// The stamp of the split the classes below are of.
    stamp: u32,
    /// Per position: the union-find parent, then the class (a root).
    class: Vec<u32>,
    /// Per root position: the stamp of the split that took its class.
    taken: Vec<u32>,
    /// Scratch: the open positions, by least value.
    open: Vec<u32>,
    /// Scratch of the one-word path: each class's values (bit `j` the
    /// value `lo + j`) and its root.
    masks: Vec<(u64, u32)>,
}

impl Distinct {
    fn new(vars: &[VarId]) -> Self {
        let mut by_var: Vec<(VarId, u32)> = (0..vars.len()).map(|i| (vars[i], i as u32)).collect();
        by_var.sort_unstable();
        Distinct {
            by_var,
            stamp: 0,
            class: vec![0; vars.len()],
            taken: vec![0; vars.len()],
            open: Vec::new(),
            masks: Vec::new(),
        }
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.class[i as usize] != i {
            let up = self.class[self.class[i as usize] as usize];
            self.class[i as usize] = up;
            i = up;
        }
        i
    }

    /// The classes of the open variables among `vars` (the propagator's).
    fn classes(&mut self, d: &Domains, vars: &[VarId]) {
        for (i, c) in self.class.iter_mut().enumerate() {
            *c = i as u32;
        }
        self.open.clear();
        self.open
            .extend((0..vars.len() as u32).filter(|&i| !d.is_fixed(vars[i as usize])));
        if self.classes_in_one_word(d, vars) {
            return;
        }
        self.open.sort_unstable_by_key(|&i| d.min(vars[i as usize]));
        for a in 0..self.open.len() {
            let x = vars[self.open[a] as usize];
            let hi = d.max(x);
            for b in a + 1..self.open.len() {
                let y = vars[self.open[b] as usize];
                if d.min(y) > hi {
                    break;
                }
                let (rx, ry) = (self.find(self.open[a]), self.find(self.open[b]));
                if rx != ry && may_share(d, x, y) {
                    self.class[rx as usize] = ry;
                }
            }
        }
        for k in 0..self.open.len() {
            let i = self.open[k];
            let r = self.find(i);
            self.class[i as usize] = r;
        }
    }

    /// The classes when every open domain is a bitset within one window of
    /// 64 values (n-queens, sudoku): each domain is one word, and a class
    /// is the union of its members' words, so a variable joins every class
    /// its word meets — linear in the open variables when they all overlap,
    /// where the pairwise comparison is quadratic (a fifth of an n-queens
    /// count). False, with nothing done, when the domains do not fit.
    fn classes_in_one_word(&mut self, d: &Domains, vars: &[VarId]) -> bool {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &i in &self.open {
            let v = vars[i as usize];
            if !d.is_bitset(v) {
                return false;
            }
            lo = lo.min(d.min(v));
            hi = hi.max(d.max(v));
        }
        if self.open.is_empty() || hi - lo >= 64 {
            return false;
        }
        self.masks.clear();
        for k in 0..self.open.len() {
            let i = self.open[k];
            let v = vars[i as usize];
            let mut word = d.window(v, lo - d.offset(v));
            let mut j = 0;
            while j < self.masks.len() {
                let (m, root) = self.masks[j];
                if m & word != 0 {
                    word |= m;
                    self.class[root as usize] = i;
                    self.masks.swap_remove(j);
                } else {
                    j += 1;
                }
            }
            self.masks.push((word, i));
        }
        for k in 0..self.open.len() {
            let i = self.open[k];
            let r = self.find(i);
            self.class[i as usize] = r;
        }
        true
    }

    /// The class of `v`, an open variable of the propagator.
    fn class_of(&self, v: VarId) -> u32 {
        let k = self.by_var.partition_point(|&(u, _)| u < v);
        self.class[self.by_var[k].1 as usize]
    }
}

/// Whether the domains of `x` and `y` (open, bounds overlapping) may share a
/// value: exactly when one of them is small, else assumed.
fn may_share(d: &Domains, x: VarId, y: VarId) -> bool {
    let (x, y) = if d.size(x) <= d.size(y) {
        (x, y)
    } else {
        (y, x)
    };
    if x == y || d.size(x) > COMPARED_SIZE || !d.is_bitset(x) {
        return true;
    }
    let (lo, hi) = (d.min(y), d.max(y));
    d.values(x)
        .skip_while(|&v| v < lo)
        .take_while(|&v| v <= hi)
        .any(|v| d.contains(y, v))
}

impl Components {
    pub(crate) fn new(engine: &Engine) -> Self {
        let n = engine.doms.num_vars();
        let facts = PropFacts::new(engine);
        let splits = splitting_distinct(engine, &facts.props_of);
        Components {
            facts,
            cache: FxHashMap::default(),
            cache_bytes: 0,
            hits: 0,
            tried: vec![(0, 0); n + 1],
            var_stamp: vec![0; n],
            prop_stamp: vec![0; engine.props.len()],
            stamp: 0,
            tree: Counter::default(),
            key: Vec::new(),
            distinct_of: splits
                .iter()
                .scan(0u32, |k, &split| {
                    Some(split.then(|| {
                        *k += 1;
                        *k - 1
                    }))
                })
                .collect(),
            distinct: engine
                .props
                .iter()
                .zip(&splits)
                .filter(|&(_, &split)| split)
                .map(|(p, _)| Distinct::new(p.vars()))
                .collect(),
        }
    }

    /// Whether components of `size` variables are still looked up and
    /// stored: until [`PROBE_LOOKUPS`] lookups of that size have been made,
    /// and then while at least one in [`MIN_HIT_RATE`] has hit. A lookup
    /// that misses costs a key, a hash and, once counted, a stored entry;
    /// a hit saves the component's whole subtree, so a size is dropped only
    /// when hits are rare. Cached counts stay exact either way.
    fn worth_caching(&self, size: usize) -> bool {
        let (lookups, hits) = self.tried[size];
        lookups < PROBE_LOOKUPS || hits.saturating_mul(MIN_HIT_RATE) >= lookups
    }

    /// Counts the solutions below the current node (propagated, consistent)
    /// over `vars`, which must include every open variable. The domains are
    /// as before when it returns.
    pub(crate) fn count(&mut self, ctx: Ctx, vars: &[VarId]) -> Counted {
        let Ctx {
            engine,
            var_select,
            rng,
            crossings,
            order,
            budget,
            depth,
        } = ctx;
        let comps = self.split(engine, crossings, vars);
        let mut stack = vec![Frame::Product {
            comps,
            next: 0,
            acc: 1,
        }];
        // The count of the frame just finished, for the one below it.
        let mut done: Option<u128> = None;
        loop {
            let Some(top) = stack.last_mut() else {
                return Counted::Exact(done.unwrap_or(0));
            };
            let push = match top {
                Frame::Product { comps, next, acc } => {
                    if let Some(c) = done.take() {
                        *acc = acc.saturating_mul(c);
                        *next += 1;
                    }
                    let mut branch = None;
                    while *next < comps.len() && *acc != 0 {
                        let comp = &mut comps[*next];
                        if let Some(c) = self.without_branching(engine, crossings, comp) {
                            *acc = acc.saturating_mul(c);
                            *next += 1;
                            continue;
                        }
                        let size = comp.vars.len();
                        let key = if self.worth_caching(size) {
                            self.key(engine, &comp.vars);
                            let tried = &mut self.tried[size];
                            tried.0 += 1;
                            if let Some(&c) = self.cache.get(&self.key[..]) {
                                tried.1 += 1;
                                self.hits += 1;
                                *acc = acc.saturating_mul(c);
                                *next += 1;
                                continue;
                            }
                            Some(self.key[..].into())
                        } else {
                            None
                        };
                        let vars = std::mem::take(&mut comp.vars);
                        branch = Some(self.branch(
                            engine,
                            var_select,
                            order,
                            rng,
                            (crossings, vars),
                            key,
                        ));
                        break;
                    }
                    if branch.is_none() {
                        done = Some(*acc);
                        stack.pop();
                        continue;
                    }
                    branch
                }
                Frame::Branch {
                    vars,
                    key,
                    var,
                    values,
                    next,
                    acc,
                    checkpoint,
                } => {
                    if let Some(c) = done.take() {
                        *acc = acc.saturating_add(c);
                    }
                    if budget.exceeded(&engine.stats) {
                        return stop(engine, &stack);
                    }
                    let mut child = None;
                    loop {
                        if *next > 0 {
                            engine.doms.restore(*checkpoint);
                            engine.stats.backtracks += 1;
                        }
                        let v = match values {
                            Values::List(l) => match l.get(*next) {
                                Some(&v) => v,
                                None => break,
                            },
                            Values::Bounds { from } => {
                                let Some(f) = *from else { break };
                                if engine.doms.set_min(*var, f).is_err()
                                    || engine.propagate_decision(*var).is_err()
                                {
                                    engine.failed = None;
                                    break;
                                }
                                let v = engine.doms.min(*var);
                                *from = v.checked_add(1);
                                v
                            }
                        };
                        *next += 1;
                        engine.stats.nodes += 1;
                        let ok = engine.doms.fix(*var, v).is_ok()
                            && engine.propagate_decision(*var).is_ok();
                        if ok {
                            child = Some(self.split(engine, crossings, vars));
                            break;
                        }
                        engine.stats.failures += 1;
                        if let Some(p) = engine.take_failed() {
                            var_select.on_failure(engine, p);
                        }
                        // A failed value is a step of the budget too: a
                        // branch whose values all fail still hears the
                        // clock, the node limit and the interrupt.
                        if budget.exceeded(&engine.stats) {
                            return stop(engine, &stack);
                        }
                    }
                    match child {
                        Some(comps) => Some(Frame::Product {
                            comps,
                            next: 0,
                            acc: 1,
                        }),
                        None => {
                            engine.doms.restore(*checkpoint);
                            let count = *acc;
                            if let Some(key) = key.take() {
                                self.store(key, count);
                            }
                            done = Some(count);
                            stack.pop();
                            continue;
                        }
                    }
                }
            };
            if let Some(frame) = push {
                stack.push(frame);
                let branches = stack
                    .iter()
                    .filter(|f| matches!(f, Frame::Branch { .. }))
                    .count() as u64;
                engine.stats.max_depth = engine.stats.max_depth.max(depth + branches);
            }
        }
    }

    /// The frame that counts component `vars` by branching.
    fn branch(
        &mut self,
        engine: &mut Engine,
        var_select: &mut VarSelector,
        order: &Order,
        rng: &mut Rng,
        (crossings, vars): (&Crossings, Vec<VarId>),
        key: Option<Box<[u64]>>,
    ) -> Frame {
        let var = self
            .most_crossed(engine, crossings, &vars)
            .or_else(|| var_select.pick_among(engine, order, &vars, rng))
            .unwrap_or(vars[0]);
        let d = &engine.doms;
        let values = if d.is_bitset(var) {
            Values::List(d.values(var).collect())
        } else {
            Values::Bounds {
                from: Some(d.min(var)),
            }
        };
        let checkpoint = engine.doms.checkpoint();
        Frame::Branch {
            vars,
            key,
            var,
            values,
            next: 0,
            acc: 0,
            checkpoint,
        }
    }

    /// In a grid of words, the open variable of `vars` that crosses the
    /// most open words, then of the fewest values; `None` when none crosses
    /// an open word. Branching there cuts the most crossings, so that the
    /// children fall apart into components (trees, counted without
    /// branching) sooner: below a suggestion on a 15×15 grid with a 7×7
    /// corner open, the search's dom/wdeg kept branching on a word that
    /// fails often inside the same large component (2.4 to 5 times the
    /// nodes' time on some slots, see docs/crossword-measured.md).
    fn most_crossed(
        &self,
        engine: &Engine,
        crossings: &Crossings,
        vars: &[VarId],
    ) -> Option<VarId> {
        if crossings.is_empty() {
            return None;
        }
        let d = &engine.doms;
        let crossed = |v: VarId| {
            self.facts.props_of[v]
                .iter()
                .filter(|&&p| {
                    crossings.get(p).is_some()
                        && engine.props[p]
                            .vars()
                            .iter()
                            .any(|&u| u != v && !d.is_fixed(u))
                })
                .count()
        };
        vars.iter()
            .filter(|&&v| !d.is_fixed(v))
            .map(|&v| (crossed(v), v))
            .filter(|&(c, _)| c > 0)
            .min_by_key(|&(c, v)| (std::cmp::Reverse(c), d.size(v), v))
            .map(|(_, v)| v)
    }

    /// The count of a component that needs no branching, if it is one.
    fn without_branching(
        &mut self,
        engine: &Engine,
        crossings: &Crossings,
        comp: &Comp,
    ) -> Option<u128> {
        match &comp.shape {
            Shape::Free => Some(u128::from(engine.doms.size(comp.vars[0]))),
            Shape::Tree(edges) => Some(self.tree.tree(engine, crossings, &comp.vars, edges)),
            Shape::Search => None,
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp == u32::MAX {
            self.var_stamp.fill(0);
            self.prop_stamp.fill(0);
            for dp in &mut self.distinct {
                dp.stamp = 0;
                dp.taken.fill(0);
            }
            self.stamp = 0;
        }
        self.stamp += 1;
        self.stamp
    }

    /// The components of the open variables among `vars`.
    fn split(&mut self, engine: &Engine, crossings: &Crossings, vars: &[VarId]) -> Vec<Comp> {
        let d = &engine.doms;
        let stamp = self.next_stamp();
        let mut comps = Vec::new();
        let mut queue = Vec::new();
        for &start in vars {
            if d.is_fixed(start) || self.var_stamp[start] == stamp {
                continue;
            }
            self.var_stamp[start] = stamp;
            queue.clear();
            queue.push(start);
            let mut members = Vec::new();
            let mut edges = Vec::new();
            // Whether every propagator is either a crossing between two open
            // variables or consistent on its one open variable.
            let mut simple = true;
            while let Some(x) = queue.pop() {
                members.push(x);
                simple &= d.is_bitset(x);
                for &p in &self.facts.props_of[x] {
                    if let Some(k) = self.distinct_of[p] {
                        // Only the open variables of x's class.
                        let dp = &mut self.distinct[k as usize];
                        let pv = engine.props[p].vars();
                        if dp.stamp != stamp {
                            dp.classes(d, pv);
                            dp.stamp = stamp;
                        }
                        let c = dp.class_of(x);
                        if dp.taken[c as usize] == stamp {
                            continue;
                        }
                        dp.taken[c as usize] = stamp;
                        let mut k = 0;
                        for (i, &v) in pv.iter().enumerate() {
                            if d.is_fixed(v) || dp.class[i] != c {
                                continue;
                            }
                            k += 1;
                            if self.var_stamp[v] != stamp {
                                self.var_stamp[v] = stamp;
                                queue.push(v);
                            }
                        }
                        // Alone in its class: any value of x holds.
                        simple &= k == 1 && self.facts.alone_ok[p];
                        continue;
                    }
                    if self.prop_stamp[p] == stamp {
                        continue;
                    }
                    self.prop_stamp[p] = stamp;
                    let mut open = [0; 2];
                    let mut k = 0;
                    for &v in engine.props[p].vars() {
                        if d.is_fixed(v) {
                            continue;
                        }
                        if k < 2 {
                            open[k] = v;
                        }
                        k += 1;
                        if self.var_stamp[v] != stamp {
                            self.var_stamp[v] = stamp;
                            queue.push(v);
                        }
                    }
                    match k {
                        1 => simple &= self.facts.alone_ok[p],
                        2 if open[0] != open[1] && crossings.get(p).is_some() => {
                            edges.push((p, open[0], open[1]));
                        }
                        _ => simple = false,
                    }
                }
            }
            members.sort_unstable();
            let shape = if !simple {
                Shape::Search
            } else if members.len() == 1 {
                Shape::Free
            } else if edges.len() + 1 == members.len() {
                Shape::Tree(edges)
            } else {
                Shape::Search
            };
            comps.push(Comp {
                vars: members,
                shape,
            });
        }
        comps
    }

    /// Makes `self.key` the cache key of component `vars` at the current node.
    fn key(&mut self, engine: &Engine, vars: &[VarId]) {
        let mut key = std::mem::take(&mut self.key);
        let stamp = self.next_stamp();
        self.facts
            .build(&mut key, engine, vars, &mut self.prop_stamp, stamp, |_| {
                false
            });
        self.key = key;
    }

    fn store(&mut self, key: Box<[u64]>, count: u128) {
        // Key, value and the table's own overhead, roughly.
        let bytes = key.len() * 8 + 48;
        if self.cache_bytes + bytes > CACHE_BYTES {
            self.cache.clear();
            self.cache_bytes = 0;
        }
        self.cache_bytes += bytes;
        self.cache.insert(key, count);
    }
}

/// A domain in a cache key: a bitset's words (the non-zero ones with their
/// positions when that is shorter: a word variable's few live words among
/// thousands), or the bounds. A variable is a bitset or not for good, so
/// the two forms never meet under one variable.
fn push_domain(key: &mut Vec<u64>, d: &Domains, v: VarId) {
    if d.is_bitset(v) {
        let bits = d.bits(v);
        let nonzero = bits.iter().filter(|&&w| w != 0).count();
        if 2 * nonzero < bits.len() {
            key.push(u64::MAX - nonzero as u64);
            for (i, &w) in bits.iter().enumerate().filter(|(_, w)| **w != 0) {
                key.push(i as u64);
                key.push(w);
            }
        } else {
            key.push(bits.len() as u64);
            key.extend_from_slice(bits);
        }
    } else {
        key.push(d.min(v) as u64);
        key.push(d.max(v) as u64);
    }
}

/// The propagators' static facts that splitting and cache keys read, shared
/// by the counter and the search by components (`search/by_components.rs`).
pub(crate) struct PropFacts {
    /// The propagators over each variable (from `vars()`).
    pub(crate) props_of: Vec<Vec<PropId>>,
    /// Per propagator: [`residual_in_domains`](super::propagator::Propagator::residual_in_domains).
    pub(crate) in_domains: Vec<bool>,
    /// Per propagator: any value of its last open variable satisfies it
    /// ([`consistent_on_last_open`](super::propagator::Propagator::consistent_on_last_open)).
    pub(crate) alone_ok: Vec<bool>,
}

impl PropFacts {
    pub(crate) fn new(engine: &Engine) -> Self {
        let mut props_of = vec![Vec::new(); engine.doms.num_vars()];
        for (p, prop) in engine.props.iter().enumerate() {
            for &v in prop.vars() {
                if props_of[v].last() != Some(&p) {
                    props_of[v].push(p);
                }
            }
        }
        PropFacts {
            props_of,
            in_domains: engine
                .props
                .iter()
                .map(|p| p.residual_in_domains())
                .collect(),
            alone_ok: engine
                .props
                .iter()
                .map(|p| p.consistent_on_last_open())
                .collect(),
        }
    }

    /// Makes `key` the cache key of component `vars` (sorted): its
    /// variables, their domains, and for each propagator of `vars` with
    /// fixed variables (once, by `stamp`) and not `skipped`, its number and
    /// its fixed values — except where the domains already say all they
    /// tell (module doc).
    pub(crate) fn build(
        &self,
        key: &mut Vec<u64>,
        engine: &Engine,
        vars: &[VarId],
        prop_stamp: &mut [u32],
        stamp: u32,
        skipped: impl Fn(PropId) -> bool,
    ) {
        let d = &engine.doms;
        key.clear();
        key.push(vars.len() as u64);
        key.extend(vars.iter().map(|&v| v as u64));
        for &v in vars {
            push_domain(key, d, v);
        }
        for &v in vars {
            for &p in &self.props_of[v] {
                if skipped(p) || prop_stamp[p] == stamp {
                    continue;
                }
                prop_stamp[p] = stamp;
                let pv = engine.props[p].vars();
                let open = pv.iter().filter(|&&u| !d.is_fixed(u)).count();
                if open == pv.len() {
                    continue;
                }
                let bitsets = pv.iter().all(|&u| d.is_fixed(u) || d.is_bitset(u));
                if bitsets && (self.in_domains[p] || (open == 1 && self.alone_ok[p])) {
                    continue;
                }
                key.push(p as u64);
                key.extend(pv.iter().filter_map(|&u| d.value(u)).map(|x| x as u64));
            }
        }
    }
}

/// Stops a count: back to the domains it started from, with what it counted
/// for certain.
fn stop(engine: &mut Engine, stack: &[Frame]) -> Counted {
    if let Some(cp) = stack.iter().find_map(|f| match f {
        Frame::Branch { checkpoint, .. } => Some(*checkpoint),
        Frame::Product { .. } => None,
    }) {
        engine.doms.restore(cp);
    }
    Counted::Stopped(lower_bound(stack))
}

/// What the frames have counted for certain so far: completed branches, times
/// completed sibling components when the branch in progress is the last one.
fn lower_bound(stack: &[Frame]) -> u128 {
    let mut below = 0u128;
    for f in stack.iter().rev() {
        below = match f {
            Frame::Branch { acc, .. } => acc.saturating_add(below),
            Frame::Product { comps, next, acc } => {
                if *next + 1 == comps.len() {
                    acc.saturating_mul(below)
                } else {
                    0
                }
            }
        };
    }
    below
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::Budget;
    use crate::engine::harness::Harness;
    use crate::engine::props::alldiff::AllDifferent;
    use crate::engine::search::Limits;
    use crate::engine::select::var;
    use crate::model::VarSelect;
    use rand::SeedableRng;

    /// Counts the solutions of the harness's problem over `vars`.
    fn count(h: &mut Harness, c: &mut Components, vars: &[VarId]) -> Counted {
        let order = Order::new(&[], vars, h.engine.doms.num_vars());
        let ctx = Ctx {
            engine: &mut h.engine,
            var_select: &mut var::build(VarSelect::Input),
            rng: &mut Rng::seed_from_u64(1),
            crossings: &Crossings::default(),
            order: &order,
            budget: &mut Budget::new(Limits::default()),
            depth: 0,
        };
        c.count(ctx, vars)
    }

    /// all-different(x, a1, a2, a3) with x in {4, 10, 11} and the a's in
    /// 0..4, and apart from it a free variable: (24 + 2 × 60) × 5 solutions.
    /// After x = 10 and x = 11 the a's are the same component with the same
    /// domains (x's value is gone from none of them), so the second is a hit.
    #[test]
    fn components_multiply_and_the_count_is_exact_with_or_without_caching() {
        let mut h = Harness::new();
        let x = h.var(&[4, 10, 11]);
        let a: Vec<VarId> = (0..3).map(|_| h.range(0, 4)).collect();
        let free = h.range(1, 5);
        let block: Vec<VarId> = [x].iter().chain(&a).copied().collect();
        let terms = block.iter().map(|&v| (v, 0)).collect();
        let p = AllDifferent::new(terms, true, &mut h.engine.doms);
        h.post(p);
        let vars: Vec<VarId> = block.iter().chain([&free]).copied().collect();
        let mut c = Components::new(&h.engine);
        assert_eq!(
            count(&mut h, &mut c, &vars),
            Counted::Exact((24 + 2 * 60) * 5)
        );
        assert_eq!(c.hits, 1);
        // With no size cached: the same count, found by branching.
        let mut c = Components::new(&h.engine);
        c.tried.fill((PROBE_LOOKUPS, 0));
        assert_eq!(
            count(&mut h, &mut c, &vars),
            Counted::Exact((24 + 2 * 60) * 5)
        );
        assert_eq!(c.hits, 0);
        assert!(c.cache.is_empty());
        assert_eq!(h.values(free), vec![1, 2, 3, 4, 5], "domains restored");
        assert_eq!(h.values(x), vec![4, 10, 11]);
    }

    /// An all-different links two open variables only when their domains
    /// share a value: {0, 1, 2} twice and {5, 6, 7} twice are two
    /// components (of two each, counted 6 × 6), and a fifth variable {2, 5}
    /// joins them (12 solutions with 2, 12 with 5).
    #[test]
    fn all_different_links_only_variables_that_may_clash() {
        for bridge in [false, true] {
            let mut h = Harness::new();
            let (low, high) = ([0, 1, 2], [5, 6, 7]);
            let mut x: Vec<VarId> = vec![h.var(&low), h.var(&low), h.var(&high), h.var(&high)];
            if bridge {
                x.push(h.var(&[2, 5]));
            }
            let terms = x.iter().map(|&v| (v, 0)).collect();
            let p = AllDifferent::new(terms, true, &mut h.engine.doms);
            h.post(p);
            let mut c = Components::new(&h.engine);
            let comps = c.split(&h.engine, &Crossings::default(), &x);
            let sizes: Vec<usize> = comps.iter().map(|c| c.vars.len()).collect();
            assert_eq!(sizes, if bridge { vec![5] } else { vec![2, 2] });
            let want = if bridge { 24 } else { 36 };
            assert_eq!(count(&mut h, &mut c, &x), Counted::Exact(want));
        }
    }

    /// An all-different whose variables another all-different (with
    /// offsets: it links them) also has is not split by classes (the
    /// n-queens case); alone, or with the other over fewer variables, it is.
    #[test]
    fn an_all_different_covered_by_a_linking_one_is_not_split() {
        for cover in 0..3 {
            let mut h = Harness::new();
            let x: Vec<VarId> = (0..4).map(|_| h.range(0, 5)).collect();
            let plain = x.iter().map(|&v| (v, 0)).collect();
            let p = AllDifferent::new(plain, true, &mut h.engine.doms);
            h.post(p);
            if cover > 0 {
                // Over all four (cover 1), or over the first three only.
                let k = if cover == 1 { 4 } else { 3 };
                let shifted = x[..k]
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (v, i as i64))
                    .collect();
                let p = AllDifferent::new(shifted, true, &mut h.engine.doms);
                h.post(p);
            }
            let splits = splitting_distinct(&h.engine, &PropFacts::new(&h.engine).props_of);
            assert_eq!(splits[0], cover != 1, "cover {cover}");
            let c = Components::new(&h.engine);
            assert_eq!(c.distinct.len(), usize::from(cover != 1));
        }
    }

    /// Random all-differents over small domains, partly disjoint, one
    /// sometimes with a variable twice (no solution then), and a second
    /// all-different over some of the variables, against brute force.
    #[test]
    fn counts_with_all_different_classes_match_brute_force() {
        use rand::RngExt;
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut split = 0;
        for trial in 0..300 {
            let n = rng.random_range(3..7);
            // Values 40 apart in odd trials: wider than one word, so the
            // classes come from the pairwise comparison, not the word path.
            let scale = if trial % 2 == 0 { 1 } else { 40 };
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let start = 3 * rng.random_range(0..3);
                    let mut d: Vec<i64> = (start..start + 4)
                        .filter(|_| rng.random_bool(0.6))
                        .map(|v| v * scale)
                        .collect();
                    if d.is_empty() {
                        d.push(start * scale);
                    }
                    d
                })
                .collect();
            let mut first: Vec<usize> = (0..n).collect();
            if rng.random_bool(0.25) {
                first.push(rng.random_range(0..n));
            }
            let second: Vec<usize> = (0..n).filter(|_| rng.random_bool(0.5)).collect();
            let distinct = |a: &[i64], pos: &[usize]| {
                pos.iter()
                    .enumerate()
                    .all(|(i, &p)| pos[..i].iter().all(|&q| a[q] != a[p]))
            };
            let mut want = 0u128;
            let mut a = vec![0i64; n];
            let mut idx = vec![0usize; n];
            'all: loop {
                for i in 0..n {
                    a[i] = doms[i][idx[i]];
                }
                if distinct(&a, &first) && distinct(&a, &second) {
                    want += 1;
                }
                for i in 0..n {
                    idx[i] += 1;
                    if idx[i] < doms[i].len() {
                        continue 'all;
                    }
                    idx[i] = 0;
                }
                break;
            }
            let mut h = Harness::new();
            let x: Vec<VarId> = doms.iter().map(|d| h.var(d)).collect();
            let terms = |pos: &[usize]| pos.iter().map(|&p| (x[p], 0)).collect::<Vec<_>>();
            let p = AllDifferent::new(terms(&first), true, &mut h.engine.doms);
            let mut ok = h.try_post(p).is_ok();
            if ok && second.len() > 1 {
                let p = AllDifferent::new(terms(&second), true, &mut h.engine.doms);
                ok = h.try_post(p).is_ok();
            }
            if !ok {
                assert_eq!(want, 0, "{doms:?} {first:?} {second:?}");
                continue;
            }
            let mut c = Components::new(&h.engine);
            split += usize::from(c.split(&h.engine, &Crossings::default(), &x).len() > 1);
            let got = count(&mut h, &mut c, &x);
            assert_eq!(got, Counted::Exact(want), "{doms:?} {first:?} {second:?}");
        }
        assert!(
            split > 30,
            "the classes split the variables often ({split})"
        );
    }

    #[test]
    fn sizes_that_rarely_hit_stop_being_cached() {
        let mut h = Harness::new();
        let _ = (0..4).map(|_| h.range(0, 3)).count();
        let mut c = Components::new(&h.engine);
        c.tried[2] = (PROBE_LOOKUPS - 1, 0);
        c.tried[3] = (PROBE_LOOKUPS, 0);
        c.tried[4] = (4 * PROBE_LOOKUPS, 4 * PROBE_LOOKUPS / MIN_HIT_RATE);
        assert!(c.worth_caching(2), "still probing");
        assert!(!c.worth_caching(3), "no hit in the probe");
        assert!(c.worth_caching(4), "hits often enough");
        c.tried[4].0 += 1;
        assert!(!c.worth_caching(4), "just under the rate");
    }
}
