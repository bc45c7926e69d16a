//! The kinds of problems of issue 26 that had no bundled model, each
//! written in the idiom the language now has and checked against answers
//! worked out here: nonograms (`regular` over patterns built with `++` and
//! `join`) and quasigroup completion against an enumeration of the grids,
//! Costas arrays against brute force and their known counts, stable
//! marriage (a list of lists indexed by variables) against every matching,
//! RCPSP against the serial schedule-generation scheme over every task
//! order, multidimensional knapsack against every subset. Solution sets are
//! compared on one thread and on three, every solution checked by the
//! model's independent checker.

use crate::common;

use cspi::model::Model;
use cspi::solve::Next;
use cspi::solve::ParamOverride;
use cspi::solve::{LoadOptions, Options, Status, load as load_model, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;
use std::sync::Arc;

fn load(name: &str, params: &[(&str, String)]) -> Arc<Model> {
    let params: Vec<ParamOverride> = params
        .iter()
        .map(|(n, v)| ParamOverride {
            name: n.to_string(),
            value: v.clone(),
        })
        .collect();
    Arc::new(
        load_model(
            &common::model(name),
            &LoadOptions {
                params,
                ..LoadOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e:?}")),
    )
}

/// Every solution as the values of `group` (the same set on one thread and
/// on three), or with an objective the optimum and the values of the last
/// solution.
fn solutions(m: &Arc<Model>, group: &str) -> BTreeSet<Vec<i64>> {
    let ids = m.groups[group].vars.clone();
    let mut sets = Vec::new();
    for threads in [1, 3] {
        let options = Options {
            search: m.search.clone(),
            check: true,
            threads,
            ..Options::default()
        };
        let mut out = BTreeSet::new();
        let s = solve(m, &options, |v| {
            out.insert(ids.iter().map(|&i| v[i]).collect());
            Next::Continue
        });
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
        let want = if out.is_empty() {
            Status::Unsatisfiable
        } else {
            Status::AllSolutions
        };
        assert_eq!(s.status, want, "{threads} threads");
        sets.push(out);
    }
    assert_eq!(sets[0], sets[1], "one thread and three differ");
    sets.pop().unwrap()
}

/// The proved optimum, on one thread and on three (the same).
fn optimum(m: &Arc<Model>) -> i64 {
    let mut found = Vec::new();
    for threads in [1, 3] {
        let options = Options {
            search: m.search.clone(),
            check: true,
            threads,
            ..Options::default()
        };
        let s = solve(m, &options, |_| Next::Continue);
        assert!(s.rejected.is_empty(), "{:?}", s.rejected);
        assert_eq!(s.status, Status::Optimal, "{threads} threads");
        found.push(s.objective.expect("an objective value"));
    }
    assert_eq!(found[0], found[1], "one thread and three differ");
    found[0]
}

fn json_list<T: ToString>(v: &[T]) -> String {
    let items: Vec<String> = v.iter().map(T::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn json_lists(v: &[Vec<i64>]) -> String {
    let items: Vec<String> = v.iter().map(|r| json_list(r)).collect();
    format!("[{}]", items.join(", "))
}

/// The runs of ones of a line, as a nonogram clue.
fn clue(line: impl IntoIterator<Item = bool>) -> Vec<i64> {
    let mut out = Vec::new();
    let mut run = 0;
    for b in line.into_iter().chain([false]) {
        if b {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

/// The clues of a grid given as a bit mask (bit `r * cols + c`).
fn nonogram_clues(mask: u32, rows: usize, cols: usize) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let at = |r: usize, c: usize| mask >> (r * cols + c) & 1 == 1;
    let row_clues = (0..rows)
        .map(|r| clue((0..cols).map(|c| at(r, c))))
        .collect();
    let col_clues = (0..cols)
        .map(|c| clue((0..rows).map(|r| at(r, c))))
        .collect();
    (row_clues, col_clues)
}

#[test]
fn nonograms_equal_an_enumeration_of_the_grids() {
    // The bundled puzzle has one solution, its picture.
    let m = load("nonogram.csp", &[]);
    let got = solutions(&m, "cell");
    assert_eq!(got.len(), 1);
    let picture = [
        "..##.##..",
        ".#######.",
        "#########",
        "####.####",
        ".#######.",
        "..#####..",
        "...###...",
        "....#....",
        "..#.#.#..",
    ];
    let want: Vec<i64> = picture
        .iter()
        .flat_map(|r| r.chars().map(|c| i64::from(c == '#')))
        .collect();
    assert!(got.contains(&want));
    // Random pictures (empty lines and empty clues included): the solutions
    // are exactly the grids with the same clues.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for case in 0..12 {
        let (rows, cols) = (rng.random_range(1..=4usize), rng.random_range(1..=4usize));
        let cells = rows * cols;
        let density = rng.random_range(1..=3u32);
        let mask = (0..cells).fold(0u32, |m, i| {
            m | u32::from(rng.random_range(0..4u32) < density) << i
        });
        let (rc, cc) = nonogram_clues(mask, rows, cols);
        let expected: BTreeSet<Vec<i64>> = (0..1u32 << cells)
            .filter(|&g| nonogram_clues(g, rows, cols) == (rc.clone(), cc.clone()))
            .map(|g| (0..cells).map(|i| i64::from(g >> i & 1)).collect())
            .collect();
        let m = load(
            "nonogram.csp",
            &[("rows", json_lists(&rc)), ("cols", json_lists(&cc))],
        );
        assert_eq!(
            solutions(&m, "cell"),
            expected,
            "case {case}: {rc:?} {cc:?}"
        );
    }
}

/// Whether `p` (a permutation of 1..=n) is a Costas array.
fn is_costas(p: &[i64]) -> bool {
    let n = p.len();
    (1..n).all(|d| {
        let diffs: BTreeSet<i64> = (0..n - d).map(|i| p[i + d] - p[i]).collect();
        diffs.len() == n - d
    })
}

fn permutations(n: usize) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for v in 1..=n as i64 {
                if !p.contains(&v) {
                    let mut q: Vec<i64> = p.clone();
                    q.push(v);
                    next.push(q);
                }
            }
        }
        out = next;
    }
    out
}

#[test]
fn costas_arrays_equal_brute_force_and_their_known_counts() {
    // OEIS A008404.
    let known = [1, 2, 4, 12, 40, 116, 200, 444];
    for n in 1..=8usize {
        let m = load("costas.csp", &[("n", n.to_string())]);
        let got = solutions(&m, "p");
        assert_eq!(got.len(), known[n - 1], "n = {n}");
        if n <= 7 {
            let expected: BTreeSet<Vec<i64>> = permutations(n)
                .into_iter()
                .filter(|p| is_costas(p))
                .collect();
            assert_eq!(got, expected, "n = {n}");
        } else {
            assert!(got.iter().all(|p| is_costas(p)), "n = {n}");
        }
    }
}

/// Every completion of a partial Latin square (0 for a blank), row-major,
/// by filling cells in order.
fn latin_completions(n: usize, given: &[i64]) -> BTreeSet<Vec<i64>> {
    fn fill(n: usize, at: usize, g: &mut Vec<i64>, given: &[i64], out: &mut BTreeSet<Vec<i64>>) {
        if at == n * n {
            out.insert(g.clone());
            return;
        }
        let (r, c) = (at / n, at % n);
        let values: Vec<i64> = if given[at] > 0 {
            vec![given[at]]
        } else {
            (1..=n as i64).collect()
        };
        for v in values {
            let clash = (0..c).any(|k| g[r * n + k] == v) || (0..r).any(|k| g[k * n + c] == v);
            if !clash {
                g[at] = v;
                fill(n, at + 1, g, given, out);
                g[at] = 0;
            }
        }
    }
    let mut out = BTreeSet::new();
    fill(n, 0, &mut vec![0; n * n], given, &mut out);
    out
}

#[test]
fn quasigroup_completions_equal_an_enumeration() {
    let digits = |g: &[i64]| -> String {
        g.iter()
            .map(|&v| {
                if v == 0 {
                    '.'
                } else {
                    (b'0' + v as u8) as char
                }
            })
            .collect()
    };
    // The bundled puzzle.
    let m = load("quasigroup.csp", &[]);
    let given: Vec<i64> = "1.3....2..5....1..6.......4..3.....2"
        .chars()
        .map(|c| c.to_digit(10).map_or(0, i64::from))
        .collect();
    let got = solutions(&m, "q");
    assert_eq!(got, latin_completions(6, &given));
    assert_eq!(got.len(), 150);
    // Random holes in a cyclic square with its rows and symbols shuffled,
    // and sometimes a clash between givens (no completion).
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for case in 0..10 {
        let n = rng.random_range(3..=5usize);
        let mut perm: Vec<i64> = (1..=n as i64).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.random_range(0..=i));
        }
        let mut given: Vec<i64> = (0..n * n)
            .map(|i| perm[(i / n + i % n) % n])
            .map(|v| if rng.random_range(0..3) == 0 { v } else { 0 })
            .collect();
        if case % 4 == 3 {
            given[0] = 1;
            given[1] = 1;
        }
        let m = load(
            "quasigroup.csp",
            &[("n", n.to_string()), ("puzzle", digits(&given))],
        );
        assert_eq!(
            solutions(&m, "q"),
            latin_completions(n, &given),
            "case {case}: {}",
            digits(&given)
        );
    }
}

/// Whether the matching `wife` (0-based) is stable under the preference
/// lists (`pref[a]` from the favourite down, 0-based).
fn stable(wife: &[usize], mpref: &[Vec<usize>], wpref: &[Vec<usize>]) -> bool {
    let n = wife.len();
    let rank = |pref: &[usize], b: usize| pref.iter().position(|&x| x == b).unwrap();
    let mut husband = vec![0; n];
    for (m, &w) in wife.iter().enumerate() {
        husband[w] = m;
    }
    (0..n).all(|m| {
        (0..n).all(|w| {
            !(rank(&mpref[m], w) < rank(&mpref[m], wife[m])
                && rank(&wpref[w], m) < rank(&wpref[w], husband[w]))
        })
    })
}

/// Preference lists, one a person, 0-based, from the favourite down.
type Prefs = Vec<Vec<usize>>;

#[test]
fn stable_marriages_equal_every_stable_matching() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    let mut shuffled = |n: usize| -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, rng.random_range(0..=i));
        }
        p
    };
    let mut cases: Vec<(Prefs, Prefs)> = vec![(
        // The bundled instance, 0-based.
        vec![
            vec![1, 0, 2, 3],
            vec![3, 2, 0, 1],
            vec![0, 3, 2, 1],
            vec![2, 0, 3, 1],
        ],
        vec![
            vec![1, 2, 3, 0],
            vec![0, 3, 1, 2],
            vec![2, 1, 0, 3],
            vec![3, 0, 2, 1],
        ],
    )];
    for case in 0..15 {
        let n = 2 + case % 4;
        let mpref = (0..n).map(|_| shuffled(n)).collect();
        let wpref = (0..n).map(|_| shuffled(n)).collect();
        cases.push((mpref, wpref));
    }
    let mut most = 0;
    for (case, (mpref, wpref)) in cases.iter().enumerate() {
        let n = mpref.len();
        let expected: BTreeSet<Vec<i64>> = permutations(n)
            .into_iter()
            .filter(|p| {
                let wife: Vec<usize> = p.iter().map(|&v| v as usize - 1).collect();
                stable(&wife, mpref, wpref)
            })
            .collect();
        // Gale and Shapley: a stable matching always exists.
        assert!(!expected.is_empty());
        let one_based = |p: &Vec<Vec<usize>>| -> Vec<Vec<i64>> {
            p.iter()
                .map(|r| r.iter().map(|&v| v as i64 + 1).collect())
                .collect()
        };
        let params = [
            ("mpref", json_lists(&one_based(mpref))),
            ("wpref", json_lists(&one_based(wpref))),
        ];
        let params: &[(&str, String)] = if case == 0 { &[] } else { &params };
        let m = load("stable-marriage.csp", params);
        assert_eq!(solutions(&m, "wife"), expected, "case {case}");
        most = most.max(expected.len());
    }
    assert!(most > 1, "some instance has several stable matchings");
}

/// An RCPSP instance: durations, uses per resource, successors (0-based),
/// capacities.
struct Project {
    duration: Vec<i64>,
    uses: Vec<Vec<i64>>,
    succ: Vec<Vec<usize>>,
    capacity: Vec<i64>,
}

impl Project {
    /// The shortest makespan: the serial schedule-generation scheme over
    /// every order of the tasks that respects the precedences (its
    /// schedules are the active ones, among which is an optimal one).
    fn optimum(&self) -> i64 {
        let n = self.duration.len();
        let mut best = i64::MAX;
        let mut order = Vec::new();
        self.orders(&mut order, &mut vec![false; n], &mut best);
        best
    }

    fn orders(&self, order: &mut Vec<usize>, placed: &mut Vec<bool>, best: &mut i64) {
        let n = self.duration.len();
        if order.len() == n {
            *best = (*best).min(self.schedule(order));
            return;
        }
        for t in 0..n {
            let ready = !placed[t] && (0..n).all(|p| placed[p] || !self.succ[p].contains(&t));
            if ready {
                placed[t] = true;
                order.push(t);
                self.orders(order, placed, best);
                order.pop();
                placed[t] = false;
            }
        }
    }

    /// Each task in turn at the earliest time after its predecessors at
    /// which it fits under every capacity for its whole duration.
    fn schedule(&self, order: &[usize]) -> i64 {
        let n = self.duration.len();
        let mut start = vec![None; n];
        for &t in order {
            let ready = (0..n)
                .filter(|&p| self.succ[p].contains(&t))
                .map(|p| start[p].unwrap() + self.duration[p])
                .max()
                .unwrap_or(0);
            let fits = |s: i64| {
                (s..s + self.duration[t]).all(|time| {
                    self.capacity.iter().enumerate().all(|(r, &cap)| {
                        let used: i64 = (0..n)
                            .filter_map(|o| start[o].map(|so: i64| (o, so)))
                            .filter(|&(o, so)| so <= time && time < so + self.duration[o])
                            .map(|(o, _)| self.uses[o][r])
                            .sum();
                        used + self.uses[t][r] <= cap
                    })
                })
            };
            let s = (ready..).find(|&s| fits(s)).unwrap();
            start[t] = Some(s);
        }
        (0..n)
            .map(|t| start[t].unwrap() + self.duration[t])
            .max()
            .unwrap_or(0)
    }

    fn tasks_json(&self) -> String {
        let tasks: Vec<String> = (0..self.duration.len())
            .map(|t| {
                let succ: Vec<usize> = self.succ[t].iter().map(|s| s + 1).collect();
                format!(
                    "{{\"name\": \"t{t}\", \"duration\": {}, \"use\": {}, \"succ\": {}}}",
                    self.duration[t],
                    json_list(&self.uses[t]),
                    json_list(&succ)
                )
            })
            .collect();
        format!("[{}]", tasks.join(", "))
    }
}

#[test]
fn rcpsp_makespans_equal_the_serial_scheme_over_every_order() {
    let bundled = Project {
        duration: vec![2, 3, 4, 2, 3, 4, 2, 3],
        uses: vec![
            vec![2, 1],
            vec![1, 0],
            vec![3, 1],
            vec![1, 2],
            vec![2, 2],
            vec![2, 1],
            vec![1, 2],
            vec![3, 1],
        ],
        succ: vec![
            vec![2, 3],
            vec![5],
            vec![4],
            vec![6],
            vec![6],
            vec![7],
            vec![7],
            vec![],
        ],
        capacity: vec![4, 3],
    };
    assert_eq!(bundled.optimum(), 14);
    assert_eq!(optimum(&load("rcpsp.csp", &[])), 14);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for case in 0..12 {
        let n = rng.random_range(2..=6usize);
        let resources = rng.random_range(1..=2usize);
        let capacity: Vec<i64> = (0..resources).map(|_| rng.random_range(2..=4)).collect();
        let p = Project {
            duration: (0..n).map(|_| rng.random_range(0..=4)).collect(),
            uses: (0..n)
                .map(|_| capacity.iter().map(|&c| rng.random_range(0..=c)).collect())
                .collect(),
            // Successors only later in the list: no cycle.
            succ: (0..n)
                .map(|t| (t + 1..n).filter(|_| rng.random_range(0..4) == 0).collect())
                .collect(),
            capacity,
        };
        let m = load(
            "rcpsp.csp",
            &[
                ("capacity", json_list(&p.capacity)),
                ("tasks", p.tasks_json()),
            ],
        );
        assert_eq!(optimum(&m), p.optimum(), "case {case}: {}", p.tasks_json());
    }
}

#[test]
fn multidimensional_knapsacks_equal_every_subset() {
    let best = |value: &[i64], capacity: &[i64], need: &[Vec<i64>]| -> i64 {
        let n = value.len();
        (0..1u32 << n)
            .filter(|s| {
                capacity.iter().enumerate().all(|(d, &cap)| {
                    (0..n)
                        .filter(|i| s >> i & 1 == 1)
                        .map(|i| need[d][i])
                        .sum::<i64>()
                        <= cap
                })
            })
            .map(|s| (0..n).filter(|i| s >> i & 1 == 1).map(|i| value[i]).sum())
            .max()
            .unwrap_or(0)
    };
    let value = [36, 42, 18, 51, 27, 33, 45, 24, 39, 30, 21, 48];
    let need = [
        vec![12, 15, 7, 20, 10, 13, 17, 9, 16, 11, 8, 19],
        vec![10, 18, 6, 14, 12, 11, 19, 8, 13, 15, 7, 16],
        vec![14, 9, 10, 17, 8, 15, 12, 11, 9, 13, 10, 18],
    ];
    assert_eq!(best(&value, &[60, 55, 50], &need), 156);
    assert_eq!(optimum(&load("md-knapsack.csp", &[])), 156);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for case in 0..12 {
        let n = rng.random_range(1..=10usize);
        let dims = rng.random_range(1..=3usize);
        let value: Vec<i64> = (0..n).map(|_| rng.random_range(0..=20)).collect();
        let need: Vec<Vec<i64>> = (0..dims)
            .map(|_| (0..n).map(|_| rng.random_range(0..=9)).collect())
            .collect();
        let capacity: Vec<i64> = (0..dims).map(|_| rng.random_range(0..=25)).collect();
        let m = load(
            "md-knapsack.csp",
            &[
                ("value", json_list(&value)),
                ("capacity", json_list(&capacity)),
                ("need", json_lists(&need)),
            ],
        );
        assert_eq!(
            optimum(&m),
            best(&value, &capacity, &need),
            "case {case}: {value:?} {need:?} {capacity:?}"
        );
    }
}
