//! Solving on several threads, and solving one part of a split: in-process
//! embarrassingly parallel search (EPS; Régin, Rezgui and Malapert, CP 2013,
//! JAIR 2016).
//!
//! This thread lowers the model, propagates the root and splits the search
//! into sub-problems (`engine/split.rs`): at least [`PER_THREAD`] per
//! thread, so that their uneven sizes even out. Each worker thread lowers
//! the model itself (lowering is deterministic, so its variables are the
//! same; propagators need not cross threads), then takes the next
//! sub-problem from a shared counter, replays its decisions and searches
//! below them with a fresh strategy, until none is left. Solutions travel to
//! this thread over a channel, where the caller's callback sees them one at
//! a time (so output stays one well-formed line per record). Each
//! sub-problem starts with a fresh strategy, so its statistics do not depend
//! on which thread took it or what that thread did before; a count by
//! components, whose threads keep their caches, deals them in a fixed order
//! instead (`Shared::dealt`): counts and enumerations give the same
//! statistics on every run with the same number of threads. The split's own decisions count too (in
//! `Summary::split`, and in the totals), so that the nodes of a run on
//! several threads compare with a run on one.
//!
//! Sub-problems partition the search space, so counts add up and solution
//! sets are unions: both are the same whatever the number of threads. The
//! order in which solutions arrive is not. Branch and bound shares the best
//! bound through an atomic that every node reads. A solution limit, the
//! caller's stop flag, a closed output, a time limit stop every worker; a
//! node limit counts the nodes of finished sub-problems, each sub-problem
//! getting what is left, so a run may go over it by what the sub-problems in
//! flight take (by default a run with a node limit uses one thread).
//!
//! Optimisation with large-neighbourhood search runs a portfolio instead of
//! a split: every thread searches the whole problem with its own seed,
//! sharing the bound and the best solution (see [`portfolio`]), and with
//! learning the short nogoods they learn (`engine/learn/exchange.rs`).

use crate::engine::Engine;
use crate::engine::budget::Budget;
use crate::engine::components::Components;
use crate::engine::learn::exchange::Exchange;
use crate::engine::search::lns::Lns;
use crate::engine::search::{Limits, Next, Outcome, Search, counts_by_components};
use crate::engine::split::{self, Branching, Path, SubProblems};
use crate::engine::stats::Stats;
use crate::lower::{Root, lower_and_propagate};
use crate::model::search::LnsKind;
use crate::model::{Model, VarId};
use crate::part::{SUBPROBLEMS_PER_PART, fingerprint};
pub(crate) use crate::run::ThreadStats;
use crate::run::{self, Options, PartInfo, Summary};
use crate::setup::{self, Reception};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Sub-problems per thread that the split aims at (EPS: 30 or more).
pub(crate) const PER_THREAD: usize = 32;

/// What the workers share.
struct Shared {
    /// The next sub-problem to take, unless they are dealt.
    next: AtomicUsize,
    /// Counts by components deal the sub-problems round robin, worker `w`
    /// of `n` taking `w, w + n, w + 2n, ...`, and each worker keeps its
    /// component cache from one to the next: sibling sub-problems hold the
    /// same components (crossword puzzle 3 on two threads took 44,454 nodes
    /// with a fresh cache for each of its 167 sub-problems, 13 times the
    /// CPU of one thread). Dealt rather than taken in turn, so that what a
    /// worker counts, and its statistics, repeat from run to run.
    dealt: Option<usize>,
    /// The sub-problems are a portfolio's searches (see [`portfolio`]).
    portfolio: bool,
    /// Stop every worker (a solution limit, the caller's stop, a lost output).
    halt: Arc<AtomicBool>,
    /// The objective's bound, `i64::MAX` while no solution is known.
    bound: Arc<AtomicI64>,
    /// The best solution (a portfolio's searches share it).
    best: Arc<Mutex<Vec<i64>>>,
    /// Short nogoods, when a portfolio learns (`learn/exchange.rs`).
    nogoods: Arc<Exchange>,
    /// Nodes of finished sub-problems, for the node limit.
    nodes: AtomicU64,
    /// Sub-problems searched to the end.
    finished: AtomicUsize,
    /// A worker's own solution limit was reached.
    limit_reached: AtomicBool,
}

/// Solves `model` on `options.threads` threads, or the part `options.part`
/// of a split; see the module doc.
pub(crate) fn solve(
    model: &Arc<Model>,
    options: &Options,
    on_solution: impl FnMut(&[i64]) -> Next,
) -> Summary {
    solve_from(model, options, Instant::now(), on_solution)
}

/// [`solve`] for a run that began at `start` (before a one-thread probe,
/// `solve::Probe`): its time, the times of its improvements and its time
/// limit count from there.
pub(crate) fn solve_from(
    model: &Arc<Model>,
    options: &Options,
    start: Instant,
    mut on_solution: impl FnMut(&[i64]) -> Next,
) -> Summary {
    let threads = options.threads.max(1);
    let Split {
        paths,
        total,
        work,
        portfolio,
        by_components,
        stopped,
    } = sub_problems(model, options, threads, start);
    let workers = threads.min(paths.len());
    let part = options.part.map(|p| PartInfo {
        part: p,
        fingerprint: fingerprint(model, options, p.n),
        subproblems: paths.len(),
        total_subproblems: total,
        resumed: options.part_log.as_ref().map_or(0, |l| {
            let recorded = |(i, path): (usize, &Path)| l.recorded(i, path);
            paths.iter().enumerate().filter(|&p| recorded(p)).count()
        }),
        sense: model
            .objective
            .as_ref()
            .map(|o| if o.maximize { "maximize" } else { "minimize" }),
    });
    let shared = Shared {
        next: AtomicUsize::new(0),
        dealt: by_components.then_some(workers),
        portfolio,
        halt: Arc::new(AtomicBool::new(false)),
        bound: Arc::new(AtomicI64::new(i64::MAX)),
        best: Arc::new(Mutex::new(Vec::new())),
        nogoods: Arc::new(Exchange::default()),
        nodes: AtomicU64::new(0),
        finished: AtomicUsize::new(0),
        limit_reached: AtomicBool::new(false),
    };
    let mut reception = Reception::new(model, options.check, start);
    let mut delivered_stop = false;
    let reports: Vec<ThreadStats> = std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Vec<i64>>(1024);
        let workers: Vec<_> = (0..workers)
            .map(|index| {
                let tx = tx.clone();
                let (shared, paths) = (&shared, &paths);
                // Workers lower and search models as the pipeline thread does.
                std::thread::Builder::new()
                    .stack_size(run::WORKER_STACK)
                    .spawn_scoped(scope, move || {
                        worker(model, options, paths, index, shared, &tx, start)
                    })
            })
            .collect();
        drop(tx);
        let user_stop = options.limits.stop.clone();
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(values) => {
                    // Solutions in flight when this thread stopped the run
                    // are dropped (a worker's own limit stops the others, but
                    // its solutions still count).
                    let full = options
                        .limits
                        .solutions
                        .is_some_and(|n| reception.reported >= n);
                    if delivered_stop || full || !reception.take(&values) {
                        continue;
                    }
                    if on_solution(&values) == Next::Stop {
                        delivered_stop = true;
                        shared.halt.store(true, Ordering::Relaxed);
                    } else if options
                        .limits
                        .solutions
                        .is_some_and(|n| reception.reported >= n)
                    {
                        shared.limit_reached.store(true, Ordering::Relaxed);
                        shared.halt.store(true, Ordering::Relaxed);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if user_stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                shared.halt.store(true, Ordering::Relaxed);
            }
        }
        workers
            .into_iter()
            .filter_map(|w| w.ok()?.join().ok())
            .collect()
    });
    let mut stats = work.stats.clone();
    for r in &reports {
        add(&mut stats, &r.stats);
    }
    let counting = run::counts_only(model, options);
    if !counting {
        stats.solutions = reception.reported;
    }
    stats.time = start.elapsed();
    stats.improvements = std::mem::take(&mut reception.improvements);
    let finished = match shared.finished.load(Ordering::Relaxed) {
        n if portfolio => n > 0,
        n => n == paths.len(),
    };
    let outcome = if shared.limit_reached.load(Ordering::Relaxed) {
        Outcome::SolutionLimit
    } else if finished && !delivered_stop && !stopped {
        Outcome::Exhausted
    } else {
        Outcome::Interrupted
    };
    Summary {
        status: run::status(outcome, stats.solutions, model.objective.is_some()),
        objective: reception.best,
        stats,
        rejected: reception.rejected,
        trace: Vec::new(),
        threads: reports,
        split: Some(work),
        part,
        stopped: outcome == Outcome::Interrupted,
        tree: None,
    }
}

/// What the split came to.
struct Split {
    /// The sub-problems to search: this part's, refined for the threads.
    paths: Vec<Path>,
    /// Sub-problems in the whole split (of which a part takes every N-th).
    total: usize,
    /// The split's own work (root propagation and the first decisions):
    /// `subproblems` is `paths.len()`, `busy` the time it took.
    work: ThreadStats,
    /// The paths are a portfolio's searches, each of the whole problem
    /// (see [`portfolio`]).
    portfolio: bool,
    /// The sub-problems are counted by components (see `Shared::dealt`).
    by_components: bool,
    /// A limit or the stop flag ended the split: nothing is searched and
    /// the run ends as stopped.
    stopped: bool,
}

impl Split {
    /// No sub-problem: the root failed, or (`stopped`) a limit ended the
    /// lowering or the root's propagation; `stats` is the work so far.
    fn empty(stopped: bool, began: Instant, stats: Stats) -> Split {
        Split {
            paths: Vec::new(),
            total: 0,
            portfolio: false,
            by_components: false,
            stopped,
            work: ThreadStats {
                subproblems: 0,
                busy: began.elapsed(),
                stats,
            },
        }
    }
}

/// Lowers the model, propagates the root and splits the search; see
/// [`Split`].
fn sub_problems(model: &Arc<Model>, options: &Options, threads: usize, start: Instant) -> Split {
    let began = Instant::now();
    let spec = &options.search;
    // Lowering hears the limits as the split does: a limit reached there
    // ends the run as stopped, with nothing to search.
    let mut go_on = options.limits.go_on_from(start);
    let (posted, root) =
        lower_and_propagate(model, spec.propagation, options.bounds_only, &mut go_on);
    let mut engine = posted.engine;
    // The whole split is the same in every part, and each part computes
    // it: only the first counts its decisions, so that the parts' statistics
    // add up to one run's (`cspi merge`).
    let counts_whole = options
        .part
        .is_none_or(|p| p.k == 1 && p.subs().iter().all(|s| s.k == 1));
    match root {
        Root::Stopped => return Split::empty(true, began, engine.stats),
        Root::Failed => {
            engine.stats.failures += u64::from(counts_whole);
            return Split::empty(false, began, engine.stats);
        }
        Root::Propagated => {}
    }
    let primary = setup::primary(model);
    let optimising = model.objective.is_some() && posted.objective.is_some();
    if portfolio(options, optimising, threads) {
        return Split {
            work: ThreadStats {
                subproblems: threads as u64,
                busy: began.elapsed(),
                stats: engine.stats,
            },
            paths: vec![Vec::new(); threads],
            total: 1,
            portfolio: true,
            by_components: false,
            stopped: false,
        };
    }
    let make = || setup::strategy(model, spec, optimising);
    let branching = branching(&engine, &primary, model, options);
    // The split hears the limits as the search does (its nodes count).
    let mut budget = Budget::new(Limits {
        solutions: None,
        nodes: options.limits.nodes,
        time: options
            .limits
            .time
            .map(|t| t.saturating_sub(start.elapsed())),
        stop: options.limits.stop.clone(),
        progress: None,
        memory: options.limits.memory.clone(),
    });
    let mut stopped = false;
    let (mut paths, total) = match options.part {
        Some(part) => {
            let before = engine.stats.clone();
            let target = SUBPROBLEMS_PER_PART * part.n;
            let all = split::split(&mut engine, &make, &primary, branching, target, &mut budget)
                .unwrap_or_else(|split::Stopped| {
                    stopped = true;
                    SubProblems::from_paths(Vec::new())
                });
            // A split stopped by a limit keeps its nodes, so that the run
            // can say which limit stopped it.
            if !counts_whole && !stopped {
                engine.stats = Stats {
                    propagations: engine.stats.propagations,
                    ..before
                };
            }
            let total = all.len();
            let mut mine = (part.select(&all), total);
            drop(all);
            // Each level of sub-parts splits the sub-problems of the level
            // above again and deals them out as the whole split is to the
            // parts; a level's split decisions count only in its sub-part
            // 1 (and every sub-part 1 below it), so that the pieces' work
            // adds up to the part's.
            let subs = part.subs();
            for (level, sub) in subs.iter().enumerate() {
                if stopped {
                    break;
                }
                let before = engine.stats.clone();
                let target = SUBPROBLEMS_PER_PART * sub.n;
                let all = split::split_from(
                    &mut engine,
                    &make,
                    &primary,
                    branching,
                    mine.0,
                    target,
                    sub.spread(),
                    &mut budget,
                )
                .unwrap_or_else(|split::Stopped| {
                    stopped = true;
                    SubProblems::from_paths(Vec::new())
                });
                if !stopped && subs[level..].iter().any(|s| s.k != 1) {
                    engine.stats = Stats {
                        propagations: engine.stats.propagations,
                        ..before
                    };
                }
                let total = all.len();
                mine = (sub.select(&all), total);
            }
            mine
        }
        None => (vec![Vec::new()], 1),
    };
    let target = PER_THREAD * threads;
    if threads > 1 && paths.len() < target && !paths.is_empty() && !stopped {
        let root = engine.doms.checkpoint();
        let each = target.div_ceil(paths.len());
        let mut refined = Vec::new();
        for path in &paths {
            engine.doms.restore(root);
            if !split::replay(&mut engine, path) {
                continue;
            }
            match split::split(&mut engine, &make, &primary, branching, each, &mut budget) {
                Ok(below) => {
                    let below = below.into_paths();
                    refined.extend(below.iter().map(|b| [path.as_slice(), b].concat()));
                }
                Err(split::Stopped) => {
                    stopped = true;
                    refined.clear();
                    break;
                }
            }
        }
        engine.doms.restore(root);
        paths = refined;
    }
    // Refining a part's sub-problems counted depths from each of them.
    let deepest = paths.iter().map(Vec::len).max().unwrap_or(0) as u64;
    engine.stats.max_depth = engine.stats.max_depth.max(deepest);
    Split {
        work: ThreadStats {
            subproblems: paths.len() as u64,
            busy: began.elapsed(),
            stats: engine.stats,
        },
        paths,
        total,
        portfolio: false,
        by_components: branching == Branching::AllValues,
        stopped,
    }
}

/// How the split branches: as the component counter does when the
/// sub-problems are counted by components (`Search::run` decides it the same
/// way), else as the search does.
fn branching(engine: &Engine, primary: &[VarId], model: &Model, options: &Options) -> Branching {
    let mut searched = vec![false; engine.doms.num_vars()];
    primary.iter().for_each(|&v| searched[v] = true);
    let by_components = run::counts_only(model, options)
        && !options.no_product_count
        && counts_by_components(
            engine.level,
            searched.iter().all(|&s| s),
            false,
            options.limits.solutions.is_some(),
        );
    if by_components {
        Branching::AllValues
    } else {
        Branching::Binary
    }
}

/// Whether the threads run a portfolio rather than a split: optimisation
/// with large-neighbourhood search, on several threads, not a part. LNS
/// improves a solution of the whole problem; confined to a sub-problem it
/// would improve within that sub-problem only, and the sub-problems that
/// hold the good solutions might never be reached in the time given. So
/// each thread searches the whole problem, thread `i` with the seed plus
/// `i` (thread 0 as one thread would), all sharing the bound and the best
/// solution, as CP-SAT's and Choco's portfolios do. The first search to
/// end exhausted proves the best solution optimal (each searched
/// everything under the shared bound) and stops the others.
fn portfolio(options: &Options, optimising: bool, threads: usize) -> bool {
    optimising && threads > 1 && options.part.is_none() && options.search.lns != LnsKind::None
}

/// One worker thread: its own engine, sub-problems until none is left.
fn worker(
    model: &Arc<Model>,
    options: &Options,
    paths: &[Path],
    index: usize,
    shared: &Shared,
    tx: &SyncSender<Vec<i64>>,
    start: Instant,
) -> ThreadStats {
    let spec = &options.search;
    // A worker lowers and propagates as the split did, hearing the limits
    // and the halt: a worker stopped there searches nothing, and the run
    // ends as stopped (its sub-problems are not finished).
    let mut limits = options.limits.clone();
    limits.stop = Some(Arc::clone(&shared.halt));
    let mut go_on = limits.go_on_from(start);
    let (posted, root) =
        lower_and_propagate(model, spec.propagation, options.bounds_only, &mut go_on);
    let mut engine = posted.engine;
    let crossings = Arc::new(posted.crossings);
    let mut report = ThreadStats::default();
    if root != Root::Propagated {
        report.stats = std::mem::take(&mut engine.stats);
        if options.ends_the_process {
            std::mem::forget(engine);
        }
        return report;
    }
    let root = engine.doms.checkpoint();
    let primary = setup::primary(model);
    let optimising = model.objective.is_some() && posted.objective.is_some();
    let counting = run::counts_only(model, options);
    let mut counter: Option<Box<Components>> = None;
    let portfolio = shared.portfolio;
    let mut dealt = shared.dealt.map(|n| (index..paths.len()).step_by(n));
    // Only a search without objective records its empty sub-problems: with
    // one, a sub-problem ended under another's bound may still hold solutions.
    let log = options
        .part_log
        .as_deref()
        .filter(|_| model.objective.is_none() && !portfolio);
    while !shared.halt.load(Ordering::Relaxed) {
        let i = match &mut dealt {
            Some(mine) => mine.next().unwrap_or(paths.len()),
            None => shared.next.fetch_add(1, Ordering::Relaxed),
        };
        let Some(path) = paths.get(i) else {
            break;
        };
        // Recorded empty by an earlier run of this part: nothing to search.
        if log.is_some_and(|l| l.recorded(i, path)) {
            shared.finished.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let began = Instant::now();
        engine.doms.restore(root);
        let nodes_before = engine.stats.nodes;
        let solutions_before = engine.stats.solutions;
        let mut sent = 0u64;
        let limits = Limits {
            solutions: options.limits.solutions,
            nodes: options
                .limits
                .nodes
                .map(|n| nodes_before + n.saturating_sub(shared.nodes.load(Ordering::Relaxed))),
            time: options
                .limits
                .time
                .map(|t| t.saturating_sub(start.elapsed())),
            stop: Some(Arc::clone(&shared.halt)),
            progress: None,
            memory: options.limits.memory.clone(),
        };
        let mut strategy = setup::strategy(model, spec, optimising);
        if portfolio {
            strategy.seed = strategy.seed.wrapping_add(i as u64);
        }
        let learns = strategy.learning;
        let mut search = Search::new(
            &mut engine,
            strategy,
            &primary,
            Arc::clone(&crossings),
            limits,
        );
        if let Some(o) = posted.objective {
            search.minimize(o);
            search.lns(Lns::new(spec.lns));
            search.share_bound(Arc::clone(&shared.bound));
            if portfolio {
                search.share_best(Arc::clone(&shared.best));
                if learns {
                    search.share_nogoods(Arc::clone(&shared.nogoods), i);
                }
            }
        }
        if counting {
            search.count_only(!options.no_product_count);
        }
        // The component cache serves the worker's next sub-problem: the
        // sub-problems were dealt to it (`Shared::dealt`).
        if let Some(c) = counter.take() {
            search.set_components(c);
        }
        // What earlier runs' restarts refuted in this sub-problem, and
        // this run's, kept for the next (`part_log.rs`).
        let resumed = search.replay(path)
            && log.is_none_or(|l| {
                let ok = search.resume_refuted(l.refuted(i, path));
                search.tell_refuted(Box::new(move |nogoods| l.record_refuted(i, path, nogoods)));
                ok
            });
        let outcome = if resumed {
            search.run(|values| {
                sent += 1;
                if tx.send(values.to_vec()).is_ok() {
                    Next::Continue
                } else {
                    Next::Stop
                }
            })
        } else {
            Outcome::Exhausted
        };
        counter = search.take_components();
        let lns = search.lns_iterations();
        drop(search);
        engine.stats.lns_iterations += lns;
        shared
            .nodes
            .fetch_add(engine.stats.nodes - nodes_before, Ordering::Relaxed);
        report.subproblems += 1;
        report.busy += began.elapsed();
        match outcome {
            Outcome::Exhausted => {
                if let Some(log) = log
                    && sent == 0
                    && engine.stats.solutions == solutions_before
                {
                    log.record(i, path);
                }
                shared.finished.fetch_add(1, Ordering::Relaxed);
                // A portfolio's search has proved the optimum.
                if portfolio {
                    shared.halt.store(true, Ordering::Relaxed);
                }
            }
            Outcome::SolutionLimit => {
                shared.limit_reached.store(true, Ordering::Relaxed);
                shared.halt.store(true, Ordering::Relaxed);
            }
            // A time, node or caller's limit: it holds for every thread.
            Outcome::Interrupted => shared.halt.store(true, Ordering::Relaxed),
        }
    }
    report.stats = std::mem::take(&mut engine.stats);
    if options.ends_the_process {
        std::mem::forget(engine);
        std::mem::forget(counter);
    }
    report
}

/// Adds one thread's statistics to the total (the deepest depth, not a sum).
pub(crate) fn add(total: &mut Stats, s: &Stats) {
    total.nodes += s.nodes;
    total.failures += s.failures;
    total.backtracks += s.backtracks;
    total.max_depth = total.max_depth.max(s.max_depth);
    total.propagations += s.propagations;
    total.solutions = total.solutions.saturating_add(s.solutions);
    total.restarts += s.restarts;
    total.restart_nogoods += s.restart_nogoods;
    total.lns_iterations += s.lns_iterations;
    total.conflicts += s.conflicts;
    total.learned += s.learned;
    total.learned_literals += s.learned_literals;
    total.backjumps += s.backjumps;
    total.analysis_time += s.analysis_time;
    total.imported += s.imported;
    if total.blame.len() < s.blame.len() {
        total.blame.resize(s.blame.len(), 0.0);
    }
    for (t, b) in total.blame.iter_mut().zip(&s.blame) {
        *t += b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn thread_totals_keep_the_learning_statistics() {
        let one = Stats {
            nodes: 3,
            conflicts: 2,
            learned: 1,
            learned_literals: 4,
            backjumps: 1,
            analysis_time: Duration::from_millis(5),
            ..Stats::default()
        };
        let mut total = Stats::default();
        add(&mut total, &one);
        add(&mut total, &one);
        assert_eq!(
            (
                total.nodes,
                total.conflicts,
                total.learned,
                total.learned_literals,
                total.backjumps
            ),
            (6, 4, 2, 8, 2)
        );
        assert_eq!(total.analysis_time, Duration::from_millis(10));
    }
}
