//! Cheater blocks: when no fill of a grid is found, constructors turn an
//! open cell into a block (with its 180° twin in a symmetric grid) and try
//! again. [`block_sets`] picks the cells that make a fill most likely (the
//! expected fills of `estimate`), then those where the search failed most
//! (its map of failures, [`FailedMap`]), and keeps the sets of blocks that leave
//! every entry at least as long as the grid's shortest (3 letters at most)
//! and the open cells as connected as they were; [`open_up`] searches the
//! grid as drawn, then the grid with each set, within a budget each, and
//! stops at the first that fills. A grid shown to have no fill points at
//! the cells of a set of its crossings that cannot all hold instead.

mod estimate;

use estimate::Likely;

use crate::diag::Diags;
use crate::engine::search::{Limits, MemoryLimit, Next};
use crate::model::{CrosswordLayout, Model, SearchSpec};
pub use crate::run::{BlockSet, Tried};
use crate::run::{Explanation, FailedMap, Options, Stats, Status, Summary};
use crate::solve::{self, LoadOptions, ModelSource, Parsed};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// How many blocks to try and how long each grid may take.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The most new blocks in one grid (a block and its twin count as one).
    pub most: usize,
    /// How many of the most-failed cells (with their twins) to combine.
    pub pool: usize,
    /// The time each grid is searched for, the grid as drawn included.
    pub per_grid: Duration,
    /// The nodes each grid is searched for.
    pub nodes: Option<u64>,
    /// When the whole search stops (`--time-limit`).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop.
    pub stop: Option<Arc<AtomicBool>>,
    /// How many grids are searched at once (`--threads`); the grid as
    /// drawn is searched on as many threads.
    pub threads: usize,
    /// The most heap bytes the process may hold while grids are searched
    /// (`--memory-limit`; building each grid has its own check).
    pub memory: Option<MemoryLimit>,
}

impl Plan {
    /// The time one grid may take: its own, or what is left of the whole.
    fn time_left(&self) -> Duration {
        match self.deadline {
            Some(d) => self
                .per_grid
                .min(d.saturating_duration_since(Instant::now())),
            None => self.per_grid,
        }
    }
}

/// The first grid that filled: its model (with the new blocks), the fill.
pub struct Opened {
    pub model: Arc<Model>,
    pub values: Vec<i64>,
    pub tried: Tried,
}

/// Searches the grid as drawn, then with the block sets its failures point
/// at, reporting each grid to `on_try`; the first grid filled, or `None`
/// when no set fills within the plan. Refuses a model without a crossword,
/// with an objective, or naming entries by number (a block renumbers them).
/// `tune` changes each grid's search (the command line's `--var`, `--val`).
pub fn open_up(
    parsed: &Parsed,
    load: &LoadOptions,
    check: bool,
    plan: &Plan,
    tune: &(dyn Fn(&mut SearchSpec) + Sync),
    mut on_try: impl FnMut(&Model, &Tried),
) -> Result<Option<Opened>, Diags> {
    let base = crate::memory::live_bytes();
    let model = Arc::new(solve::load(parsed, load)?);
    refuse(&model).map_err(|d| Diags::from(d.in_source(parsed.source())))?;
    let spec = |model: &Model| {
        let mut spec = model.search.clone();
        tune(&mut spec);
        spec
    };
    solve::check_strategy(&model, &spec(&model))?;
    let none = BlockSet {
        cells: Vec::new(),
        share: 0.0,
    };
    let search = spec(&model);
    let (summary, values) = self::search(&model, search, check, plan, plan.threads.max(1));
    let tried = ended(none, &summary);
    on_try(&model, &tried);
    if let Some(values) = values {
        return Ok(Some(Opened {
            model,
            values,
            tried,
        }));
    }
    let Some((name, layout)) = model.crosswords.first() else {
        return Ok(None);
    };
    let heat = if summary.status == Status::Unsatisfiable {
        conflict(&model, layout, plan)
    } else {
        FailedMap::of(&model, name, layout, &summary.stats.blame)
            .map(|m| {
                m.cells
                    .concat()
                    .into_iter()
                    .map(|c| c.unwrap_or(0.0))
                    .collect()
            })
            .unwrap_or_default()
    };
    // A grid shown to have no fill keeps to the crossings of its conflict;
    // otherwise blocks are taken and tried by how likely they make a fill.
    let likely = (summary.status != Status::Unsatisfiable)
        .then(|| estimate::ranking(&model, layout))
        .flatten();
    let mut sets = ranked_block_sets(layout, &heat, plan.most, plan.pool, likely.as_deref());
    // A grid with no fill takes its whole budget; one that fills mostly
    // fills in a fraction of it. So every grid is searched for an eighth of
    // the budget first, then the grids still undecided for twice as long,
    // up to the whole budget.
    let rounds = rounds(plan);
    let mut grids = Grids {
        name: &parsed.source().name,
        text: &parsed.source().text,
        dir: &parsed.dir,
        load,
        check,
        plan,
        spec: &spec,
        drawn: &model,
        base,
    };
    for round in &rounds {
        grids.plan = round;
        let mut undecided = Vec::new();
        let found = grids.search(&sets, &mut |model: &Model, tried: &Tried| {
            if tried.status == Status::Unknown {
                undecided.push(tried.blocks.cells.clone());
            }
            on_try(model, tried);
        })?;
        if found.is_some() || stopped(plan) {
            return Ok(found);
        }
        sets.retain(|s| undecided.contains(&s.cells));
        if sets.is_empty() {
            break;
        }
    }
    Ok(None)
}

/// The plans of the rounds of the grids with new blocks: an eighth of each
/// grid's budget (time and nodes), a quarter, a half, the whole; a round
/// of less than a quarter of a second is left out.
fn rounds(plan: &Plan) -> Vec<Plan> {
    let mut rounds: Vec<Plan> = [8u32, 4, 2]
        .into_iter()
        .filter(|&k| plan.per_grid / k >= Duration::from_millis(250))
        .map(|k| Plan {
            per_grid: plan.per_grid / k,
            nodes: plan.nodes.map(|n| n.div_ceil(u64::from(k))),
            ..plan.clone()
        })
        .collect();
    rounds.push(plan.clone());
    rounds
}

/// The grids with new blocks, and how each is searched.
struct Grids<'a> {
    /// The model's text, parsed again by each thread (a parse is not
    /// shared between threads).
    name: &'a str,
    text: &'a str,
    dir: &'a std::path::Path,
    load: &'a LoadOptions,
    check: bool,
    plan: &'a Plan,
    spec: &'a (dyn Fn(&Model) -> SearchSpec + Sync),
    /// The grid as drawn.
    drawn: &'a Arc<Model>,
    /// The live heap before the grid as drawn was built: `--memory-limit`
    /// less this is what that grid's building could take, and each other's.
    base: u64,
}

/// One grid's outcome, sent by the thread that searched it: the grid, how
/// its search ended, its fill; or why it could not be built (a limit).
type Ended = Result<(Arc<Model>, Tried, Option<Vec<i64>>), Diags>;

impl Grids<'_> {
    /// Searches the grid with each of `sets`, `plan.threads` at once, each
    /// on one thread, in order, reporting each as it ends; the first that
    /// fills stops the others (they are reported as stopped). A grid that
    /// cannot be built for another reason than an entry no word fits (the
    /// memory limit) stops them all, with its diagnostic.
    fn search(
        &self,
        sets: &[BlockSet],
        on_try: &mut impl FnMut(&Model, &Tried),
    ) -> Result<Option<Opened>, Diags> {
        // Set by the thread whose grid fills, or for Ctrl-C and the time limit.
        let halt = Arc::new(AtomicBool::new(false));
        let own = Plan {
            stop: Some(Arc::clone(&halt)),
            ..self.plan.clone()
        };
        let next = AtomicUsize::new(0);
        let (sent, ended) = mpsc::channel::<Ended>();
        std::thread::scope(|scope| {
            for _ in 0..self.plan.threads.clamp(1, sets.len().max(1)) {
                let tx = sent.clone();
                let (own, next, halt) = (&own, &next, &halt);
                // Each parses and loads the model: the pipeline's stack.
                let thread = std::thread::Builder::new().stack_size(crate::run::WORKER_STACK);
                let spawned = thread.spawn_scoped(scope, move || {
                    let source = ModelSource::text_in(self.name, self.text, self.dir);
                    let Ok(parsed) = solve::parse(source) else {
                        return;
                    };
                    while !stopped(own) {
                        let Some(set) = sets.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let Some(end) = self.one(&parsed, set.clone(), own) else {
                            break;
                        };
                        let last = end.as_ref().map_or(true, |e| e.2.is_some());
                        // Sent before the others are halted, so that a grid
                        // cut short is always reported after the fill.
                        if tx.send(end).is_err() {
                            break;
                        }
                        if last {
                            halt.store(true, Ordering::SeqCst);
                        }
                    }
                });
                if let Err(e) = spawned {
                    let d = crate::diag::Diag::new(
                        "cspi::threads",
                        format!("--try-blocks: could not start a thread: {e}"),
                    );
                    let _ = sent.send(Err(Diags::from(d.help("give fewer --threads"))));
                }
            }
            drop(sent);
            let mut found = None;
            let mut failed = None;
            loop {
                match ended.recv_timeout(Duration::from_millis(20)) {
                    Ok(Err(d)) => {
                        failed.get_or_insert(d);
                    }
                    Ok(Ok((model, mut tried, values))) => {
                        tried.cut_short = found.is_some() && tried.status == Status::Unknown;
                        on_try(&model, &tried);
                        if let (None, Some(values)) = (&found, values) {
                            found = Some(Opened {
                                model,
                                values,
                                tried,
                            });
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if stopped(self.plan) {
                            halt.store(true, Ordering::SeqCst);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            match (found, failed) {
                (None, Some(d)) => Err(d),
                (found, _) => Ok(found),
            }
        })
    }

    /// Builds and searches the grid with the blocks of `set` (and the
    /// grid's own added blocks); `None` when stopped while building it.
    fn one(&self, parsed: &Parsed, set: BlockSet, plan: &Plan) -> Option<Ended> {
        let mut blocks = self.load.blocks.clone();
        blocks.extend(set.places(self.drawn.crosswords.first().map_or(1, |(_, l)| l.width)));
        // The limit counts the heap the process held when a building began
        // (with the grids being searched, here), and what that building
        // adds: each grid may add as much as the grid as drawn could.
        let held = crate::memory::live_bytes().saturating_sub(self.base);
        let load = LoadOptions {
            blocks,
            memory_limit: self.load.memory_limit.map(|l| l.saturating_add(held)),
            ..self.load.clone()
        };
        let model = match solve::load(parsed, &load) {
            Ok(m) => Arc::new(m),
            // A limit or Ctrl-C while loading: stop.
            Err(_) if stopped(plan) || stopped(self.plan) => return None,
            // A new entry no word of the list fits: no fill.
            Err(d) if solve::no_words(&d) => {
                let t = Tried {
                    blocks: set,
                    status: Status::Unsatisfiable,
                    stats: Stats::default(),
                    rejected: Vec::new(),
                    unbuilt: Some(d.0.first().map_or_else(String::new, |d| d.message.clone())),
                    cut_short: false,
                };
                return Some(Ok((Arc::clone(self.drawn), t, None)));
            }
            Err(d) => return Some(Err(d)),
        };
        let (summary, values) = search(&model, (self.spec)(&model), self.check, plan, 1);
        Some(Ok((model, ended(set, &summary), values)))
    }
}

/// For a grid shown to have no fill: the cells of its first crossword in
/// a small set of crossings and given letters that cannot all hold
/// ([`crate::explain`], within the time of one grid), where a block takes
/// one of them away, then the other cells of their entries, which a block
/// shortens. Every cell when the set holds a constraint over the entries,
/// none when none was found.
fn conflict(model: &Model, layout: &CrosswordLayout, plan: &Plan) -> Vec<f64> {
    let n = layout.width * layout.height;
    let Explanation::Conflict { constraints, .. } = crate::explain::explain(
        model,
        plan.time_left(),
        &Limits {
            stop: plan.stop.clone(),
            memory: plan.memory.clone(),
            ..Limits::default()
        },
    ) else {
        return vec![0.0; n];
    };
    let mut cells = Vec::new();
    for i in constraints {
        match model.origins.get(i).map(|o| o.cell) {
            Some(Some((0, c))) => cells.push(c),
            // A constraint over the entries (no word twice): every cell
            // is in it, and they are tried in reading order.
            _ => return vec![1.0; n],
        }
    }
    around(layout, &cells)
}

/// 1 for each of `cells`, 0.5 for the other cells of the entries through
/// them, 0 elsewhere.
fn around(layout: &CrosswordLayout, cells: &[usize]) -> Vec<f64> {
    let mut heat = vec![0.0; layout.width * layout.height];
    for s in &layout.slots {
        let through: Vec<usize> = (0..s.len).map(|i| s.cell(i, layout.width)).collect();
        if through.iter().any(|c| cells.contains(c)) {
            for c in through {
                heat[c] = 0.5;
            }
        }
    }
    for &c in cells {
        heat[c] = 1.0;
    }
    heat
}

/// Why a model cannot be opened up by blocks, if it cannot.
fn refuse(model: &Model) -> Result<(), crate::diag::Diag> {
    use crate::diag::Diag;
    if model.crosswords.is_empty() {
        return Err(
            Diag::new("cspi::blocks", "--try-blocks: this model has no crossword")
                .help("blocks are tried in a picture, .ipuz or .puz grid: `crossword xw = picture(grid, words);`")
                .usage(),
        );
    }
    if model.crosswords.iter().any(|(_, l)| !l.picture) {
        return Err(Diag::new(
            "cspi::blocks",
            "--try-blocks: blocks can be added to picture, .ipuz and .puz grids, not to a slot file",
        )
        .help("draw the grid as a picture: `.` an open cell, `#` a block")
        .usage());
    }
    if model.objective.is_some() {
        return Err(Diag::new(
            "cspi::blocks",
            "--try-blocks looks for a grid that fills, not for the best fill",
        )
        .help("use a model without `maximize` (models/crossword.csp), then optimise the grid it gives")
        .usage());
    }
    if let Some(span) = model.numbered_entries {
        return Err(Diag::new(
            "cspi::blocks",
            "--try-blocks: the model names an entry by its number, which a new block changes",
        )
        .label(span, "this entry")
        .help("give theme entries as letters in the picture instead"));
    }
    Ok(())
}

/// A limit or the caller stopped the whole search.
fn stopped(plan: &Plan) -> bool {
    plan.stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed))
        || plan.deadline.is_some_and(|d| Instant::now() >= d)
}

/// One grid's search for a first fill, on `threads` threads, within the plan.
fn search(
    model: &Arc<Model>,
    search: SearchSpec,
    check: bool,
    plan: &Plan,
    threads: usize,
) -> (Summary, Option<Vec<i64>>) {
    let options = Options {
        search,
        check,
        threads,
        limits: Limits {
            solutions: Some(1),
            nodes: plan.nodes,
            time: Some(plan.time_left()),
            stop: plan.stop.clone(),
            progress: None,
            memory: plan.memory.clone(),
        },
        ..Options::default()
    };
    let mut values = None;
    let summary = solve::solve(model, &options, |v| {
        values = Some(v.to_vec());
        Next::Stop
    });
    (summary, values)
}

fn ended(blocks: BlockSet, summary: &Summary) -> Tried {
    Tried {
        blocks,
        // Stopped by `search` at its fill, the run itself says `Unknown`.
        status: if summary.stats.solutions > 0 {
            Status::Satisfiable
        } else {
            summary.status
        },
        stats: Stats {
            // Of one grid's variables: not to be summed with another's.
            blame: Vec::new(),
            ..summary.stats.clone()
        },
        rejected: summary.rejected.clone(),
        unbuilt: None,
        cut_short: false,
    }
}

/// The sets of up to `most` new blocks worth trying, from the `pool` cells
/// (each with its twin when the grid is 180° symmetric) whose block keeps
/// the rules on its own, and half as many that keep them only beside
/// another, with the largest share of the failures (`heat`, row-major): fewer blocks first, then the
/// larger share first. Only cells the fill writes (open, in the region,
/// no given letter) become blocks; cells where the search never failed are
/// not tried.
pub fn block_sets(
    layout: &CrosswordLayout,
    heat: &[f64],
    most: usize,
    pool: usize,
) -> Vec<BlockSet> {
    ranked_block_sets(layout, heat, most, pool, None)
}

/// [`block_sets`], the sets of each size in the order of `rank` (highest
/// first, then by share) when given.
fn ranked_block_sets(
    layout: &CrosswordLayout,
    heat: &[f64],
    most: usize,
    pool: usize,
    rank: Option<&Likely<'_>>,
) -> Vec<BlockSet> {
    let n = layout.width * layout.height;
    let symmetric = (0..n).all(|c| layout.open[c] == layout.open[n - 1 - c]);
    let free = |c: usize| layout.open[c] && layout.region[c] && layout.given[c].is_none();
    // Sets go by their rank (minus infinity for all without one), then by
    // their share of the failures.
    let rank_of = |cells: &[usize]| rank.map_or(f64::NEG_INFINITY, |r| r(cells));
    let order = |sets: &mut Vec<(f64, BlockSet)>| {
        sets.sort_by(|(ra, a), (rb, b)| {
            rb.total_cmp(ra)
                .then(b.share.total_cmp(&a.share))
                .then(a.cells.cmp(&b.cells))
        });
    };
    let mut units: Vec<(f64, BlockSet)> = (0..n)
        .filter_map(|c| {
            let cells = match n - 1 - c {
                twin if symmetric && twin < c => return None,
                twin if symmetric && twin > c => vec![c, twin],
                _ => vec![c],
            };
            let share: f64 = cells
                .iter()
                .map(|&c| heat.get(c).copied().unwrap_or(0.0))
                .sum();
            let rank = rank_of(&cells);
            // A cell is tried where the search failed or a fill is likely.
            (cells.iter().all(|&c| free(c)) && (share > 0.0 || rank.is_finite()))
                .then_some((rank, BlockSet { cells, share }))
        })
        .collect();
    order(&mut units);
    // Most cheater blocks stand alone: the `pool` hottest cells whose block
    // (with its twin) keeps the rules by itself, and half as many that
    // keep them only beside another (two blocks side by side).
    let rules = Rules::of(layout);
    let (mut alone, mut beside): (Vec<_>, Vec<_>) =
        units.into_iter().partition(|(_, u)| rules.allow(&u.cells));
    alone.truncate(pool);
    beside.truncate(pool / 2);
    let mut units = alone;
    units.append(&mut beside);
    order(&mut units);
    let units: Vec<BlockSet> = units.into_iter().map(|(_, u)| u).collect();
    let mut sets = Vec::new();
    for k in 1..=most.min(units.len()) {
        let mut level = Vec::new();
        for combo in combinations(units.len(), k) {
            let mut cells: Vec<usize> =
                combo.iter().flat_map(|&u| units[u].cells.clone()).collect();
            cells.sort_unstable();
            if rules.allow(&cells) {
                let share = combo.iter().map(|&u| units[u].share).sum();
                level.push((rank_of(&cells), BlockSet { cells, share }));
            }
        }
        order(&mut level);
        sets.extend(level.into_iter().map(|(_, s)| s));
    }
    sets
}

/// Every `k`-subset of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(k);
    fn go(from: usize, n: usize, k: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() == k {
            out.push(pick.clone());
            return;
        }
        for i in from..n {
            pick.push(i);
            go(i + 1, n, k, pick, out);
            pick.pop();
        }
    }
    go(0, n, k, &mut pick, &mut out);
    out
}

/// What a grid with new blocks must keep of the grid as drawn.
struct Rules<'a> {
    layout: &'a CrosswordLayout,
    /// The shortest entry allowed: the grid's shortest, 3 at most.
    shortest: usize,
    /// Each cell's run of open cells across and down, in the grid as drawn.
    runs: [Vec<usize>; 2],
    /// Its groups of connected open cells.
    parts: usize,
}

impl<'a> Rules<'a> {
    fn of(layout: &'a CrosswordLayout) -> Self {
        let runs = [
            run_lengths(layout, &layout.open, true),
            run_lengths(layout, &layout.open, false),
        ];
        let shortest = runs
            .iter()
            .flatten()
            .copied()
            .filter(|&l| l >= 2)
            .min()
            .unwrap_or(3)
            .min(3);
        Rules {
            layout,
            shortest,
            runs,
            parts: parts(layout, &layout.open),
        }
    }

    /// Whether blocks at `cells` keep every entry `shortest` letters or
    /// longer, leave no cell that was in an entry outside every entry of
    /// that direction, and split no group of open cells.
    fn allow(&self, cells: &[usize]) -> bool {
        let mut open = self.layout.open.clone();
        for &c in cells {
            open[c] = false;
        }
        for (d, across) in [(0, true), (1, false)] {
            let now = run_lengths(self.layout, &open, across);
            let ok = now.iter().zip(&self.runs[d]).all(|(&l, &was)| match l {
                0 => true,
                1 => was == 1,
                l => l >= self.shortest,
            });
            if !ok {
                return false;
            }
        }
        parts(self.layout, &open) <= self.parts
    }
}

/// The length of the run of open cells through each cell, across or down
/// (0 for a block).
fn run_lengths(layout: &CrosswordLayout, open: &[bool], across: bool) -> Vec<usize> {
    let (w, h) = (layout.width, layout.height);
    let (lines, along) = if across { (h, w) } else { (w, h) };
    let at = |line: usize, i: usize| if across { line * w + i } else { i * w + line };
    let mut len = vec![0; open.len()];
    for line in 0..lines {
        let mut i = 0;
        while i < along {
            let start = i;
            while i < along && open[at(line, i)] {
                i += 1;
            }
            for j in start..i {
                len[at(line, j)] = i - start;
            }
            i += 1;
        }
    }
    len
}

/// The number of groups of open cells connected across and down.
fn parts(layout: &CrosswordLayout, open: &[bool]) -> usize {
    let w = layout.width;
    let mut seen = vec![false; open.len()];
    let mut groups = 0;
    for start in 0..open.len() {
        if !open[start] || seen[start] {
            continue;
        }
        groups += 1;
        seen[start] = true;
        let mut todo = vec![start];
        while let Some(c) = todo.pop() {
            let (x, y) = (c % w, c / w);
            let near = [
                (x > 0).then(|| c - 1),
                (x + 1 < w).then(|| c + 1),
                (y > 0).then(|| c - w),
                (c + w < open.len()).then(|| c + w),
            ];
            for d in near.into_iter().flatten() {
                if open[d] && !seen[d] {
                    seen[d] = true;
                    todo.push(d);
                }
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layout from a picture: `.` open, `#` a block, a letter given, `*`
    /// the region (no slots: the rules read cells only).
    fn layout(rows: &[&str]) -> CrosswordLayout {
        let (width, height) = (rows[0].len(), rows.len());
        let cells: Vec<char> = rows.iter().flat_map(|r| r.chars()).collect();
        let marked = cells.contains(&'*');
        CrosswordLayout {
            width,
            height,
            open: cells.iter().map(|&c| c != '#').collect(),
            given: cells
                .iter()
                .map(|&c| c.is_ascii_lowercase().then_some(c))
                .collect(),
            region: cells
                .iter()
                .map(|&c| if marked { c == '*' } else { c != '#' })
                .collect(),
            slots: Vec::new(),
            picture: true,
        }
    }

    #[test]
    fn rounds_double_the_budget_up_to_the_whole() {
        let plan = |secs: f64, nodes: Option<u64>| Plan {
            most: 2,
            pool: 12,
            per_grid: Duration::from_secs_f64(secs),
            nodes,
            deadline: None,
            stop: None,
            threads: 1,
            memory: None,
        };
        let budgets = |p: &Plan| -> Vec<(f64, Option<u64>)> {
            rounds(p)
                .iter()
                .map(|r| (r.per_grid.as_secs_f64(), r.nodes))
                .collect()
        };
        assert_eq!(
            budgets(&plan(5.0, Some(100))),
            [
                (0.625, Some(13)),
                (1.25, Some(25)),
                (2.5, Some(50)),
                (5.0, Some(100))
            ]
        );
        // Rounds under a quarter of a second are left out; the whole stays.
        assert_eq!(
            budgets(&plan(1.0, None)),
            [(0.25, None), (0.5, None), (1.0, None)]
        );
        assert_eq!(budgets(&plan(0.1, None)), [(0.1, None)]);
    }

    #[test]
    fn a_block_comes_with_its_twin_in_a_symmetric_grid() {
        let rows = [
            "#......", ".......", ".......", ".......", ".......", ".......", "......#",
        ];
        let l = layout(&rows);
        let mut heat = vec![0.0; 49];
        heat[24] = 0.5; // the centre, its own twin
        heat[8] = 0.3; // row 2, column 2: leaves a 1-letter run across
        heat[1] = 0.2; // row 1, column 2, with its twin 47
        let sets = block_sets(&l, &heat, 1, 10);
        let want = |cells: Vec<usize>, share| BlockSet { cells, share };
        assert_eq!(sets, vec![want(vec![24], 0.5), want(vec![1, 47], 0.2)]);
        // Two at most: the pair of them too, after the singles.
        let sets = block_sets(&l, &heat, 2, 10);
        assert_eq!(sets.len(), 3);
        assert_eq!(sets[2], want(vec![1, 24, 47], 0.7));
    }

    #[test]
    fn an_asymmetric_grid_gets_single_blocks() {
        // Every cell but the first of row 2 is in a 2-letter down entry a
        // block would cut to 1 letter; that one is in no down entry.
        let l = layout(&["#....", "....."]);
        let sets = block_sets(&l, &[0.1; 10], 1, 10);
        let cells: Vec<Vec<usize>> = sets.iter().map(|s| s.cells.clone()).collect();
        assert_eq!(cells, vec![vec![5]]);
    }

    #[test]
    fn given_letters_and_cells_outside_the_region_stay() {
        let l = layout(&["a...", "....", "....", "...."]);
        let heat = vec![1.0; 25];
        let sets = block_sets(&l, &heat, 1, 20);
        assert!(
            sets.iter()
                .all(|s| !s.cells.contains(&0) && !s.cells.contains(&15))
        );
        let l = layout(&["***..", "***..", "***..", ".....", "....#"]);
        let sets = block_sets(&l, &heat, 2, 20);
        assert!(sets.iter().any(|s| s.cells == [0]), "{sets:?}");
        assert!(sets.iter().all(|s| s.cells.iter().all(|&c| l.region[c])));
    }

    #[test]
    fn no_set_splits_the_grid_or_leaves_a_short_entry() {
        let l = layout(&[
            ".......", ".......", ".......", "...#...", ".......", ".......", ".......",
        ]);
        let heat: Vec<f64> = (0..49).map(|c| 1.0 + c as f64 / 100.0).collect();
        let rules = Rules::of(&l);
        assert_eq!(rules.shortest, 3);
        let sets = block_sets(&l, &heat, 2, 24);
        assert!(!sets.is_empty());
        for s in &sets {
            let mut open = l.open.clone();
            for &c in &s.cells {
                open[c] = false;
            }
            assert_eq!(parts(&l, &open), 1, "{s:?}");
            for across in [true, false] {
                assert!(
                    run_lengths(&l, &open, across)
                        .iter()
                        .all(|&r| r == 0 || r >= 3),
                    "{s:?}"
                );
            }
        }
        // Fewer blocks first, then the larger share.
        let sizes: Vec<usize> = sets.iter().map(|s| s.cells.len()).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        assert!(
            sets.windows(2)
                .all(|w| w[0].cells.len() < w[1].cells.len() || w[0].share >= w[1].share)
        );
    }

    #[test]
    fn cells_never_failed_at_are_not_tried() {
        let l = layout(&[".....", ".....", ".....", ".....", "....."]);
        assert!(block_sets(&l, &[0.0; 25], 2, 10).is_empty());
        assert!(block_sets(&l, &[], 2, 10).is_empty());
    }

    #[test]
    fn a_conflict_points_at_its_cells_then_at_their_entries() {
        let mut l = layout(&["...", ".#.", "..."]);
        let slot = |x, y, len, across| crate::model::CrosswordSlot {
            var: 0,
            x,
            y,
            len,
            across,
        };
        l.slots = vec![
            slot(0, 0, 3, true),
            slot(0, 0, 3, false),
            slot(2, 0, 3, false),
            slot(0, 2, 3, true),
        ];
        // The top-left crossing: its across and down entries.
        let heat = around(&l, &[0]);
        assert_eq!(heat, vec![1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0]);
        assert_eq!(around(&l, &[]), vec![0.0; 9]);
    }

    #[test]
    fn a_block_that_needs_another_beside_it_is_paired() {
        let l = layout(&["r....", ".#.#.", "grape", ".#.#.", "..o.."]);
        let mut heat = vec![0.0; 25];
        heat[4] = 0.2; // row 1, column 5, twin row 5, column 1: fine alone
        heat[9] = 0.3; // row 2, column 5: leaves row 1, column 5 alone in its column
        let sets = block_sets(&l, &heat, 2, 4);
        let cells: Vec<Vec<usize>> = sets.iter().map(|s| s.cells.clone()).collect();
        assert_eq!(cells, vec![vec![4, 20], vec![4, 9, 15, 20]]);
    }

    #[test]
    fn sets_of_one_size_go_by_their_rank_when_given() {
        let l = layout(&[".....", ".....", ".....", ".....", "....."]);
        let heat = [1.0; 25];
        let by_share = block_sets(&l, &heat, 2, 10);
        // A rank that puts later cells first: each size's sets in that
        // order, the same sets, singles still before pairs.
        let rank = |cells: &[usize]| cells.iter().sum::<usize>() as f64;
        let ranked = ranked_block_sets(&l, &heat, 2, 10, Some(&rank));
        assert_eq!(ranked.len(), by_share.len());
        for s in &by_share {
            assert!(ranked.contains(s), "{s:?}");
        }
        let singles = ranked.iter().take_while(|s| s.cells.len() <= 2).count();
        assert!(singles > 0 && singles < ranked.len());
        for level in [&ranked[..singles], &ranked[singles..]] {
            assert!(
                level
                    .windows(2)
                    .all(|w| rank(&w[0].cells) >= rank(&w[1].cells))
            );
        }
    }

    #[test]
    fn a_rank_takes_cells_never_failed_at_and_goes_before_the_failures() {
        let l = layout(&[".....", ".....", ".....", ".....", "....."]);
        // The search failed at cell 4 (and its twin, 20) only; the rank
        // knows cell 0 (and its twin, 24) only.
        let mut heat = [0.0; 25];
        heat[4] = 1.0;
        let rank = |cells: &[usize]| {
            if cells.contains(&0) {
                1.0
            } else {
                f64::NEG_INFINITY
            }
        };
        let ranked = ranked_block_sets(&l, &heat, 1, 10, Some(&rank));
        let firsts: Vec<usize> = ranked.iter().map(|s| s.cells[0]).collect();
        assert_eq!(
            firsts,
            [0, 4],
            "the ranked cell first, the failed one after"
        );
        assert_eq!(
            block_sets(&l, &heat, 1, 10).len(),
            1,
            "without a rank, the failed one only"
        );
    }

    #[test]
    fn combinations_are_every_subset_once() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(12, 3).len(), 220);
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
    }
}
