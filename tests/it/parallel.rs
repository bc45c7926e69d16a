//! `--threads N`: the same counts, solution sets and optima whatever the
//! number of threads (embarrassingly parallel search, src/parallel.rs), and
//! output that stays one well-formed JSON record per line.

use crate::common;
use crate::common::json::JsonRead;

use crate::common::json;
use crate::common::{cspi, shared_data};
use cspi::model::Model;
use cspi::solve::ParamOverride;
use cspi::solve::{Limits, Next};
use cspi::solve::{LoadOptions, Options, Status, load as load_model, solve};
use std::collections::BTreeSet;
use std::sync::Arc;

fn load(name: &str, params: &[(&str, &str)]) -> Arc<Model> {
    let over: Vec<ParamOverride> = params
        .iter()
        .map(|(n, v)| ParamOverride {
            name: n.to_string(),
            value: v.to_string(),
        })
        .collect();
    Arc::new(
        load_model(&common::model(name), &LoadOptions::with_params(&over)).expect("model loads"),
    )
}

/// `models/crossword-slots.csp` over a shared puzzle and dictionary; `None`
/// (the skip notice printed) without the shared data.
fn crossword(slots: &str, dict: &str) -> Option<Arc<Model>> {
    let data = shared_data("crossword")?;
    let (slots, dict) = (data.join(slots), data.join(dict));
    Some(load(
        "crossword-slots.csp",
        &[
            ("slots", slots.to_str().unwrap()),
            ("dict", dict.to_str().unwrap()),
        ],
    ))
}

fn options(model: &Model, threads: usize) -> Options {
    Options {
        search: model.search.clone(),
        threads,
        ..Options::default()
    }
}

/// OEIS A000170.
const QUEENS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

#[test]
fn queens_counts_are_the_same_on_any_number_of_threads() {
    for n in 1..=10 {
        let model = load("n-queens.csp", &[("n", &n.to_string())]);
        for threads in [1, 2, 3, 5] {
            for leaf_by_leaf in [false, true] {
                let o = Options {
                    count_only: true,
                    no_product_count: leaf_by_leaf,
                    ..options(&model, threads)
                };
                let s = solve(&model, &o, |_| Next::Continue);
                assert_eq!(s.stats.solutions, QUEENS[n - 1], "n={n}, {threads} threads");
                let expected = if n == 2 || n == 3 {
                    Status::Unsatisfiable
                } else {
                    Status::AllSolutions
                };
                assert_eq!(s.status, expected, "n={n}, {threads} threads");
                if threads > 1 {
                    let per: u64 = s.threads.iter().map(|t| t.stats.solutions).sum();
                    assert_eq!(per, s.stats.solutions, "per-thread counts add up");
                }
            }
        }
    }
}

/// The search tree's counters (nodes, failures, backtracks) of a run on
/// several threads, and summed over the parts of a split, are a one-thread
/// run's: the split takes the search's own decisions and counts them once
/// (the model's heuristic keeps no state; leaf by leaf, since counting by
/// components changes the tree below each sub-problem).
#[test]
fn the_work_is_the_same_whatever_the_threads_or_parts() {
    let tree = |s: &cspi::run::Stats| (s.nodes, s.failures, s.backtracks, s.solutions);
    for n in [3, 4, 6, 9] {
        let model = load("n-queens.csp", &[("n", &n.to_string())]);
        for count_only in [true, false] {
            let run = |threads, part| {
                let o = Options {
                    count_only,
                    no_product_count: true,
                    part,
                    ..options(&model, threads)
                };
                solve(&model, &o, |_| Next::Continue)
            };
            let one = tree(&run(1, None).stats);
            assert!(one.0 > 0, "n={n}: a search with nodes");
            for threads in [2, 3] {
                let s = run(threads, None);
                assert_eq!(tree(&s.stats), one, "n={n}, {threads} threads");
                let split = s.split.as_ref().expect("the split's statistics");
                let nodes: u64 = s.threads.iter().map(|t| t.stats.nodes).sum();
                assert_eq!(split.stats.nodes + nodes, s.stats.nodes, "n={n}");
            }
            for parts in [1, 4, 8] {
                let mut sum = (0, 0, 0, 0);
                for k in 1..=parts {
                    let s = run(1, Some(cspi::part::Part::whole(k, parts)));
                    let t = tree(&s.stats);
                    sum = (sum.0 + t.0, sum.1 + t.1, sum.2 + t.2, sum.3 + t.3);
                }
                assert_eq!(sum, one, "n={n}, {parts} parts");
                // Each part split again into 1 to 3 sub-parts (`K/N:J/M`),
                // and the first of them into 2 more (`K/N:1/M:I/2`).
                let mut sum = (0, 0, 0, 0);
                for k in 1..=parts {
                    let m = k % 3 + 1;
                    for j in 1..=m {
                        // Sub-parts of odd parts spread the split evenly (`J/Me`).
                        let even = k % 2 == 1;
                        let sub = cspi::part::SubPart { k: j, n: m, even };
                        let part = cspi::part::Part::whole(k, parts).within(sub).unwrap();
                        let pieces: Vec<cspi::part::Part> = if j == 1 {
                            (1..=2)
                                .map(|i| {
                                    let sub = cspi::part::SubPart {
                                        k: i,
                                        n: 2,
                                        even: !even,
                                    };
                                    part.within(sub).unwrap()
                                })
                                .collect()
                        } else {
                            vec![part]
                        };
                        for piece in pieces {
                            let t = tree(&run(1, Some(piece)).stats);
                            sum = (sum.0 + t.0, sum.1 + t.1, sum.2 + t.2, sum.3 + t.3);
                        }
                    }
                }
                assert_eq!(sum, one, "n={n}, {parts} parts, split again");
            }
        }
    }
}

/// Every solution of n-queens 8 on 1 and 4 threads: the same set, each
/// solution once, each checked by the independent checker.
#[test]
fn solution_sets_are_the_same_on_any_number_of_threads() {
    let model = load("n-queens.csp", &[("n", "8")]);
    let q = model.groups["q"].vars.clone();
    let mut sets = Vec::new();
    for threads in [1, 4] {
        let o = Options {
            check: true,
            ..options(&model, threads)
        };
        let mut found = Vec::new();
        let s = solve(&model, &o, |values| {
            found.push(q.iter().map(|&v| values[v]).collect::<Vec<i64>>());
            Next::Continue
        });
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
        let set: BTreeSet<Vec<i64>> = found.iter().cloned().collect();
        assert_eq!(set.len(), found.len(), "a solution came twice");
        assert_eq!(s.stats.solutions, 92);
        sets.push(set);
    }
    assert_eq!(sets[0], sets[1]);
}

/// Branch and bound on several threads proves the same optimum, and every
/// solution handed over improves on the one before.
#[test]
fn optimisation_finds_the_same_optimum_on_any_number_of_threads() {
    for (name, params) in [
        ("knapsack.csp", vec![]),
        ("knapsack.csp", vec![("capacity", "100")]),
        ("graph-colouring.csp", vec![]),
        // Large-neighbourhood search: a portfolio rather than a split.
        ("jobshop.csp", vec![("instance", "ft06")]),
        ("tsp.csp", vec![]),
    ] {
        let model = load(name, &params);
        let maximize = model.objective.as_ref().unwrap().maximize;
        let mut optima = Vec::new();
        for threads in [1, 3] {
            let mut seen: Vec<i64> = Vec::new();
            let s = solve(&model, &options(&model, threads), |values| {
                let g = model.objective.as_ref().unwrap();
                seen.push(g.term.eval(&model, values).unwrap());
                Next::Continue
            });
            assert_eq!(s.status, Status::Optimal, "{name} {params:?}");
            for w in seen.windows(2) {
                assert!(if maximize { w[1] > w[0] } else { w[1] < w[0] }, "{seen:?}");
            }
            assert_eq!(seen.last().copied(), s.objective);
            optima.push(s.objective);
        }
        assert_eq!(optima[0], optima[1], "{name} {params:?}");
    }
}

/// Optimisation with LNS runs a portfolio: every thread searches the whole
/// problem (one search each, no split of the tree), and the one that
/// exhausts its search proves the optimum for all.
#[test]
fn lns_optimisation_runs_a_portfolio_of_whole_searches() {
    let model = load("jobshop.csp", &[("instance", "la01")]);
    let s = solve(&model, &options(&model, 2), |_| Next::Continue);
    assert_eq!(s.status, Status::Optimal);
    assert_eq!(s.objective, Some(666), "la01's proven optimum");
    let split = s.split.as_ref().expect("the split's statistics");
    assert_eq!(split.subproblems, 2, "one whole search per thread");
    assert_eq!(
        split.stats.nodes, 0,
        "a portfolio takes no decision before the threads"
    );
    assert!(
        s.threads.iter().all(|t| t.subproblems <= 1),
        "{:?}",
        s.threads
    );
    // Without LNS the same model is split into sub-problems.
    let mut o = options(&model, 2);
    o.search.lns = cspi::model::search::LnsKind::None;
    o.limits.nodes = Some(2_000);
    let s = solve(&model, &o, |_| Next::Continue);
    assert!(s.split.as_ref().expect("split").subproblems > 2);
}

#[test]
fn a_solution_limit_stops_every_thread() {
    let model = load("n-queens.csp", &[("n", "8")]);
    let o = Options {
        limits: Limits {
            solutions: Some(5),
            ..Limits::default()
        },
        ..options(&model, 3)
    };
    let mut n = 0;
    let s = solve(&model, &o, |_| {
        n += 1;
        Next::Continue
    });
    assert_eq!(
        (n, s.stats.solutions, s.status),
        (5, 5, Status::Satisfiable)
    );
}

#[test]
fn crossword_counts_are_the_same_on_any_number_of_threads() {
    let Some(model) = crossword("puzzle-2.txt", "words-1000.txt") else {
        return;
    };
    for threads in [1, 2, 4] {
        for leaf_by_leaf in [false, true] {
            let o = Options {
                count_only: true,
                no_product_count: leaf_by_leaf,
                ..options(&model, threads)
            };
            assert_eq!(solve(&model, &o, |_| Next::Continue).stats.solutions, 20593);
        }
    }
}

/// A count by components on several threads deals the sub-problems round
/// robin and each thread keeps its component cache from one to the next: the
/// statistics, per thread too, repeat from run to run, and sibling
/// sub-problems find the components they share in the cache. With a fresh
/// cache for each sub-problem, puzzle 3 × words-3000 took 44,454 nodes on
/// two threads against 2,124 on one. Since the counter branches on the word
/// crossing the most open words, one thread takes 313 nodes and two 3,090
/// (the split's sub-problems branch on the search's variables, not the
/// counter's), so the bound is 15 times one thread's nodes.
#[test]
fn counts_by_components_keep_each_threads_cache_and_repeat() {
    let Some(model) = crossword("puzzle-3.txt", "words-3000.txt") else {
        return;
    };
    let count = |threads| {
        let o = Options {
            count_only: true,
            ..options(&model, threads)
        };
        solve(&model, &o, |_| Next::Continue)
    };
    let one = count(1);
    let tree = |s: &cspi::run::Stats| (s.nodes, s.failures, s.backtracks, s.solutions);
    let per_thread = |s: &cspi::solve::Summary| -> Vec<_> {
        s.threads
            .iter()
            .map(|t| (t.subproblems, tree(&t.stats)))
            .collect()
    };
    let first = count(2);
    assert_eq!(first.stats.solutions, one.stats.solutions);
    assert!(
        first.stats.nodes <= 15 * one.stats.nodes,
        "two threads: {} nodes, one thread: {}",
        first.stats.nodes,
        one.stats.nodes
    );
    for _ in 0..3 {
        let again = count(2);
        assert_eq!(tree(&again.stats), tree(&first.stats));
        assert_eq!(per_thread(&again), per_thread(&first));
    }
}

/// Through the binary: JSON records stay whole lines with several threads,
/// per-thread statistics come on request, and a bad thread count is a usage
/// error.
#[test]
fn json_output_stays_one_record_per_line() {
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=8",
        "--all",
        "--threads",
        "4",
        "--format",
        "json",
        "--thread-stats",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| json::parse(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(records.len(), 93);
    let summary = records.last().unwrap();
    assert_eq!(summary["solutions"].int(), 92);
    let threads = summary["threads"].arr();
    assert_eq!(threads.len(), 4);
    let nodes: i64 = threads.iter().map(|t| t["stats"]["nodes"].int()).sum();
    let split = summary["split"]["stats"]["nodes"].int();
    assert!(split > 0, "the split's decisions count");
    assert_eq!(split + nodes, summary["stats"]["nodes"].int());
    assert!(r.stderr.contains("thread 3:"), "{}", r.stderr);
    assert!(r.stderr.contains("split: "), "{}", r.stderr);
    let r = cspi(&["solve", "models/n-queens.csp", "--threads", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// One thread with a seed is the search as it always was: the same run twice.
#[test]
fn one_thread_with_a_seed_repeats_exactly() {
    let args = [
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=8",
        "--all",
        "--threads",
        "1",
        "--var",
        "random",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let strip = |s: &str| -> String {
        s.lines()
            .map(|l| l.split("\"time_ms\"").next().unwrap().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (a, b) = (cspi(&args), cspi(&args));
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(strip(&a.stdout), strip(&b.stdout));
}

/// Threads of the command line's own choosing start only when one thread
/// has not finished within the probe's budget: a small model is done on one
/// thread (no split, no workers), a larger one starts over on every thread,
/// and either way the count, the solutions handed over (each once) and the
/// optimum are the same.
#[test]
fn a_probe_on_one_thread_comes_first() {
    use cspi::solve::Probe;
    let tiny = Probe {
        time: std::time::Duration::from_secs(60),
        nodes: 10,
        held: 1 << 20,
    };
    // Few solutions may be held back: the probe gives way to the threads.
    let small_hold = Probe {
        held: 100,
        ..Probe::DEFAULT
    };
    let model = load("n-queens.csp", &[("n", "8")]);
    // (probe, threads started when counting, when listing): counting holds
    // no solution back.
    for (probe, counting_started, listing_started) in [
        (Probe::DEFAULT, false, false),
        (tiny, true, true),
        (small_hold, false, true),
    ] {
        let o = Options {
            count_only: true,
            probe: Some(probe),
            ..options(&model, 3)
        };
        let s = solve(&model, &o, |_| Next::Continue);
        assert_eq!(s.stats.solutions, 92);
        assert_eq!(s.status, Status::AllSolutions);
        assert_eq!(s.split.is_some(), counting_started, "{probe:?}");
        let mut seen = Vec::new();
        let o = Options {
            probe: Some(probe),
            ..options(&model, 3)
        };
        let s = solve(&model, &o, |v| {
            seen.push(v.to_vec());
            Next::Continue
        });
        assert_eq!(seen.len(), 92, "each solution handed over once");
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 92);
        assert_eq!(s.split.is_some(), listing_started, "{probe:?}");
    }
    let model = load("knapsack.csp", &[]);
    let one = solve(&model, &options(&model, 1), |_| Next::Continue);
    for probe in [Probe::DEFAULT, tiny] {
        let o = Options {
            probe: Some(probe),
            ..options(&model, 3)
        };
        let s = solve(&model, &o, |_| Next::Continue);
        assert_eq!(s.status, Status::Optimal);
        assert_eq!(s.objective, one.objective);
    }
}
