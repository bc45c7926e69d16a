//! The models written in the language's newer idioms (enums, records, data
//! files, predicates and functions), checked against answers worked out
//! here: brute force for magic sequences and all-interval series, the known
//! optimal Golomb rulers, the zebra puzzle's unique answer checked clue by
//! clue, KenKen cages, job-shop schedules against an enumeration of
//! machine orders (ft06's proven makespan 55), and social golfers' schedules
//! (set variables) checked golfer by golfer and counted by brute force.

use crate::common;

use cspi::model::Model;
use cspi::solve::Next;
use cspi::solve::ParamOverride;
use cspi::solve::{LoadOptions, Options, Status, load as load_model, solve};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

fn load(name: &str, params: &[(&str, &str)], data: &[&str]) -> Arc<Model> {
    let overrides: Vec<ParamOverride> = params
        .iter()
        .map(|(n, v)| ParamOverride {
            name: n.to_string(),
            value: v.to_string(),
        })
        .collect();
    let data: Vec<PathBuf> = data.iter().map(|d| common::model(d)).collect();
    Arc::new(
        load_model(
            &common::model(name),
            &LoadOptions {
                params: overrides,
                data_files: data,
                ..LoadOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e:?}")),
    )
}

/// Every reported solution as the values of `group`, and the status.
fn solutions(m: &Arc<Model>, group: &str) -> (Vec<Vec<i64>>, Status) {
    let options = Options {
        search: m.search.clone(),
        check: true,
        ..Options::default()
    };
    let ids = m.groups[group].vars.clone();
    let mut out = Vec::new();
    let s = solve(m, &options, |v| {
        out.push(ids.iter().map(|&i| v[i]).collect());
        Next::Continue
    });
    assert!(s.rejected.is_empty(), "{:?}", s.rejected);
    (out, s.status)
}

fn all_assignments(n: usize, values: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (0..values).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

#[test]
fn magic_sequences_equal_brute_force() {
    for n in 3..=7usize {
        let want: BTreeSet<Vec<i64>> = all_assignments(n, n as i64)
            .into_iter()
            .filter(|s| (0..n).all(|i| s[i] == s.iter().filter(|&&x| x == i as i64).count() as i64))
            .collect();
        let m = load("magic-sequence.csp", &[("n", &n.to_string())], &[]);
        let (got, _) = solutions(&m, "s");
        let got: BTreeSet<Vec<i64>> = got.into_iter().collect();
        assert_eq!(got, want, "n = {n}");
    }
}

#[test]
fn all_interval_series_equal_brute_force() {
    for n in 2..=6usize {
        let want: BTreeSet<Vec<i64>> = all_assignments(n, n as i64)
            .into_iter()
            .filter(|x| {
                let distinct: BTreeSet<_> = x.iter().collect();
                let gaps: BTreeSet<i64> = x.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
                distinct.len() == n && gaps.len() == n - 1 && !gaps.contains(&0)
            })
            .collect();
        let m = load("all-interval.csp", &[("n", &n.to_string())], &[]);
        let (got, _) = solutions(&m, "x");
        let got: BTreeSet<Vec<i64>> = got.into_iter().collect();
        assert_eq!(got, want, "n = {n}");
    }
}

#[test]
fn golomb_rulers_have_their_known_optimal_lengths() {
    for (m_marks, best) in [(3, 3), (4, 6), (5, 11), (6, 17)] {
        let m = load("golomb.csp", &[("m", &m_marks.to_string())], &[]);
        let (sols, status) = solutions(&m, "mark");
        assert_eq!(status, Status::Optimal);
        let ruler = sols.last().expect("a ruler");
        assert_eq!(ruler[m_marks - 1], best, "m = {m_marks}: {ruler:?}");
        let mut d = BTreeSet::new();
        for i in 0..m_marks {
            for j in i + 1..m_marks {
                assert!(
                    d.insert(ruler[j] - ruler[i]),
                    "repeated distance in {ruler:?}"
                );
            }
        }
        assert_eq!(ruler[0], 0);
    }
}

#[test]
fn the_zebra_puzzle_has_its_one_answer() {
    let m = load("zebra.csp", &[], &[]);
    let mut rows = Vec::new();
    for g in ["colour", "nation", "pet", "drink", "smoke"] {
        let (sols, status) = solutions(&m, g);
        assert_eq!(status, Status::AllSolutions);
        assert_eq!(sols.len(), 1, "{g}");
        rows.push(sols[0].clone());
    }
    // Members by position (from 1), as the model declares them.
    let (colour, nation, pet, drink, smoke) = (&rows[0], &rows[1], &rows[2], &rows[3], &rows[4]);
    let at = |a: &Vec<i64>, v: i64| a.iter().position(|&x| x == v).expect("present") as i64;
    let (red, green, ivory, yellow, blue) = (1, 2, 3, 4, 5);
    let (english, spaniard, ukrainian, norwegian, japanese) = (1, 2, 3, 4, 5);
    let (dog, snails, fox, horse, zebra) = (1, 2, 3, 4, 5);
    let (coffee, tea, milk, orange_juice, water) = (1, 2, 3, 4, 5);
    let (old_gold, kools, chesterfield, lucky_strike, parliament) = (1, 2, 3, 4, 5);
    assert_eq!(at(nation, english), at(colour, red));
    assert_eq!(at(nation, spaniard), at(pet, dog));
    assert_eq!(at(colour, green), at(drink, coffee));
    assert_eq!(at(nation, ukrainian), at(drink, tea));
    assert_eq!(at(colour, green), at(colour, ivory) + 1);
    assert_eq!(at(smoke, old_gold), at(pet, snails));
    assert_eq!(at(smoke, kools), at(colour, yellow));
    assert_eq!(at(drink, milk), 2);
    assert_eq!(at(nation, norwegian), 0);
    assert_eq!((at(smoke, chesterfield) - at(pet, fox)).abs(), 1);
    assert_eq!((at(smoke, kools) - at(pet, horse)).abs(), 1);
    assert_eq!(at(smoke, lucky_strike), at(drink, orange_juice));
    assert_eq!(at(nation, japanese), at(smoke, parliament));
    assert_eq!((at(nation, norwegian) - at(colour, blue)).abs(), 1);
    assert_eq!(nation[at(drink, water) as usize], norwegian);
    assert_eq!(nation[at(pet, zebra) as usize], japanese);
}

#[test]
fn the_kenken_puzzle_has_one_solution_that_meets_its_cages() {
    let m = load("kenken.csp", &[], &["data/kenken-4x4.json"]);
    let (sols, status) = solutions(&m, "x");
    assert_eq!(status, Status::AllSolutions);
    assert_eq!(sols.len(), 1);
    let x = |r: usize, c: usize| sols[0][(r - 1) * 4 + c - 1];
    for r in 1..=4 {
        let row: BTreeSet<i64> = (1..=4).map(|c| x(r, c)).collect();
        let col: BTreeSet<i64> = (1..=4).map(|c| x(c, r)).collect();
        assert_eq!(row.len(), 4);
        assert_eq!(col.len(), 4);
    }
    // The cages of models/data/kenken-4x4.json, written out again here.
    assert_eq!((x(1, 1) - x(2, 1)).abs(), 2);
    assert_eq!(x(1, 2) * x(1, 3), 6);
    assert_eq!(x(1, 4).max(x(2, 4)), 2 * x(1, 4).min(x(2, 4)));
    assert_eq!(x(2, 2) + x(2, 3), 5);
    assert_eq!(x(3, 1) * x(4, 1), 8);
    assert_eq!((x(3, 2) - x(3, 3)).abs(), 1);
    assert_eq!(x(4, 2), 3);
    assert_eq!((x(3, 4) - x(4, 4)).abs(), 2);
    assert_eq!(x(4, 3), 4);
}

/// The optimal makespan by enumerating every order of the tasks on each
/// machine and scheduling each combination as early as possible.
fn jobshop_optimum(tasks: &[Vec<(usize, i64)>], machines: usize) -> i64 {
    fn perms(v: Vec<usize>) -> Vec<Vec<usize>> {
        if v.len() <= 1 {
            return vec![v];
        }
        let mut out = Vec::new();
        for i in 0..v.len() {
            let mut rest = v.clone();
            let x = rest.remove(i);
            for mut p in perms(rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }
    // Per machine: the jobs that use it.
    let on: Vec<Vec<usize>> = (0..machines)
        .map(|mc| {
            (0..tasks.len())
                .filter(|&j| tasks[j].iter().any(|t| t.0 == mc))
                .collect()
        })
        .collect();
    let orders: Vec<Vec<Vec<usize>>> = on.into_iter().map(perms).collect();
    let mut best = i64::MAX;
    let mut pick = vec![0usize; machines];
    loop {
        // Relax start times to a fixpoint; a cycle never settles.
        let mut start: Vec<Vec<i64>> = tasks.iter().map(|t| vec![0; t.len()]).collect();
        let mut settled = false;
        for _ in 0..=tasks.iter().map(Vec::len).sum::<usize>() {
            let mut changed = false;
            for j in 0..tasks.len() {
                for k in 1..tasks[j].len() {
                    let e = start[j][k - 1] + tasks[j][k - 1].1;
                    if start[j][k] < e {
                        start[j][k] = e;
                        changed = true;
                    }
                }
            }
            for (mc, order) in pick.iter().enumerate() {
                let seq = &orders[mc][*order];
                for w in seq.windows(2) {
                    let k0 = tasks[w[0]].iter().position(|t| t.0 == mc).unwrap_or(0);
                    let k1 = tasks[w[1]].iter().position(|t| t.0 == mc).unwrap_or(0);
                    let e = start[w[0]][k0] + tasks[w[0]][k0].1;
                    if start[w[1]][k1] < e {
                        start[w[1]][k1] = e;
                        changed = true;
                    }
                }
            }
            if !changed {
                settled = true;
                break;
            }
        }
        if settled {
            let span = (0..tasks.len())
                .map(|j| start[j].last().copied().unwrap_or(0) + tasks[j].last().map_or(0, |t| t.1))
                .max()
                .unwrap_or(0);
            best = best.min(span);
        }
        let mut d = 0;
        loop {
            if d == machines {
                return best;
            }
            pick[d] += 1;
            if pick[d] < orders[d].len() {
                break;
            }
            pick[d] = 0;
            d += 1;
        }
    }
}

fn check_schedule(m: &Arc<Model>, tasks: &[Vec<(usize, i64)>], want: i64) {
    let (sols, status) = solutions(m, "start");
    assert_eq!(status, Status::Optimal);
    let start = sols.last().expect("a schedule");
    let mcount = tasks[0].len();
    let s = |j: usize, k: usize| start[j * mcount + k];
    let mut span = 0;
    for (j, job) in tasks.iter().enumerate() {
        for k in 0..mcount {
            if k > 0 {
                assert!(
                    s(j, k - 1) + job[k - 1].1 <= s(j, k),
                    "job {j} out of order"
                );
            }
            span = span.max(s(j, k) + job[k].1);
            for (j2, job2) in tasks.iter().enumerate().skip(j + 1) {
                for (k2, t2) in job2.iter().enumerate() {
                    if job[k].0 == t2.0 {
                        let apart = s(j, k) + job[k].1 <= s(j2, k2) || s(j2, k2) + t2.1 <= s(j, k);
                        assert!(
                            apart,
                            "tasks ({j},{k}) and ({j2},{k2}) overlap on machine {}",
                            job[k].0
                        );
                    }
                }
            }
        }
    }
    assert_eq!(span, want);
}

#[test]
fn the_small_jobshop_from_json_is_optimal() {
    let m = load("jobshop.csp", &[], &["data/jobshop-3x3.json"]);
    let tasks = vec![
        vec![(0, 3), (1, 2), (2, 2)],
        vec![(0, 2), (2, 1), (1, 4)],
        vec![(1, 4), (2, 3), (0, 1)],
    ];
    check_schedule(&m, &tasks, jobshop_optimum(&tasks, 3));
}

/// Reads a shared instance: `jobs machines`, then pairs per job; `#` comments.
fn read_instance(text: &str) -> Vec<Vec<(usize, i64)>> {
    let nums: Vec<i64> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| {
            l.split_whitespace()
                .map(|w| w.parse::<i64>().expect("a number"))
        })
        .collect();
    let (n, m) = (nums[0] as usize, nums[1] as usize);
    (0..n)
        .map(|j| {
            (0..m)
                .map(|k| {
                    (
                        nums[2 + 2 * (j * m + k)] as usize,
                        nums[3 + 2 * (j * m + k)],
                    )
                })
                .collect()
        })
        .collect()
}

/// ft06 (6 jobs × 6 machines): the proven optimum is 55 (well under a second
/// with the model's `disjunctive` machines).
#[test]
fn ft06_is_proved_optimal_at_55() {
    let Some(path) = common::shared_data("jobshop/ft06.txt") else {
        return;
    };
    let tasks = read_instance(&common::read(&path));
    let m = load("jobshop.csp", &[("instance", "ft06")], &[]);
    check_schedule(&m, &tasks, 55);
}

/// Car sequencing (CSPLib prob001's first example, models/car-sequencing.csp)
/// with `exactly` and `sequence`: every solution equals an enumeration of
/// the distinct orders of the cars (226,800 of them) checked window by
/// window here; the known sequence 1 2 6 3 5 4 4 5 3 6 is among them.
#[test]
fn car_sequencing_equals_an_enumeration_of_the_orders() {
    let m = load("car-sequencing.csp", &[], &[]);
    let (got, status) = solutions(&m, "class");
    assert_eq!(status, Status::AllSolutions);
    let demand = [1, 1, 2, 2, 2, 2];
    let (cap, window) = ([1, 2, 1, 2, 1], [2, 3, 3, 5, 5]);
    let needs = [
        [1, 0, 1, 1, 0],
        [0, 0, 0, 1, 0],
        [0, 1, 0, 0, 1],
        [0, 1, 0, 1, 0],
        [1, 0, 1, 0, 0],
        [1, 1, 0, 0, 0],
    ];
    let ok = |order: &[i64]| {
        (0..5).all(|o| {
            order
                .windows(window[o])
                .all(|w| w.iter().map(|&c| needs[c as usize - 1][o]).sum::<i64>() <= cap[o])
        })
    };
    // Orders of the multiset, by placing the remaining cars one at a time.
    fn orders(
        left: &mut [i64; 6],
        prefix: &mut Vec<i64>,
        out: &mut Vec<Vec<i64>>,
        ok: &dyn Fn(&[i64]) -> bool,
    ) {
        if left.iter().all(|&l| l == 0) {
            if ok(prefix) {
                out.push(prefix.clone());
            }
            return;
        }
        for c in 0..6 {
            if left[c] > 0 {
                left[c] -= 1;
                prefix.push(c as i64 + 1);
                orders(left, prefix, out, ok);
                prefix.pop();
                left[c] += 1;
            }
        }
    }
    let mut expected = Vec::new();
    orders(&mut demand.clone(), &mut Vec::new(), &mut expected, &ok);
    let got: BTreeSet<Vec<i64>> = got.into_iter().collect();
    let expected: BTreeSet<Vec<i64>> = expected.into_iter().collect();
    assert_eq!(got, expected);
    assert_eq!(got.len(), 6);
    assert!(got.contains(&vec![1, 2, 6, 3, 5, 4, 4, 5, 3, 6]));
}

/// Every week of `g` groups of `s` golfers as masks of golfers 1..=g*s
/// (bit `i` for golfer `i`), groups in order; with `symmetry`, golfers
/// 1..=min(s, g) in groups 1..=min(s, g).
fn golfer_weeks(g: usize, s: usize, symmetry: bool) -> Vec<Vec<u64>> {
    fn place(i: usize, n: usize, s: usize, groups: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if i > n {
            out.push(groups.clone());
            return;
        }
        for k in 0..groups.len() {
            if (groups[k].count_ones() as usize) < s {
                groups[k] |= 1 << i;
                place(i + 1, n, s, groups, out);
                groups[k] &= !(1 << i);
            }
        }
    }
    let mut out = Vec::new();
    place(1, g * s, s, &mut vec![0; g], &mut out);
    if symmetry {
        out.retain(|week| (1..=s.min(g)).all(|i| week[i - 1] >> i & 1 == 1));
    }
    out
}

/// The number of schedules of `w` weeks by brute force: weeks chosen one
/// after another, any two groups of different weeks sharing at most one
/// golfer; with `symmetry`, week 1 is `{1..s}, {s+1..2s}, ...`.
fn golfer_schedules(g: usize, s: usize, w: usize, symmetry: bool) -> u64 {
    let weeks = golfer_weeks(g, s, symmetry);
    let apart = |a: &[u64], b: &[u64]| {
        a.iter()
            .all(|x| b.iter().all(|y| (x & y).count_ones() <= 1))
    };
    fn extend(
        chosen: &mut Vec<usize>,
        w: usize,
        weeks: &[Vec<u64>],
        apart: &dyn Fn(&[u64], &[u64]) -> bool,
    ) -> u64 {
        if chosen.len() == w {
            return 1;
        }
        let mut total = 0;
        for k in 0..weeks.len() {
            if chosen.iter().all(|&c| apart(&weeks[c], &weeks[k])) {
                chosen.push(k);
                total += extend(chosen, w, weeks, apart);
                chosen.pop();
            }
        }
        total
    }
    if symmetry {
        let first: Vec<u64> = (0..g)
            .map(|k| (1..=s).fold(0u64, |m, i| m | 1 << (k * s + i)))
            .collect();
        let compatible: Vec<Vec<u64>> = weeks.into_iter().filter(|wk| apart(&first, wk)).collect();
        let mut chosen = Vec::new();
        extend(&mut chosen, w - 1, &compatible, &apart)
    } else {
        extend(&mut Vec::new(), w, &weeks, &apart)
    }
}

/// Social golfers (models/golfers.csp, set variables): every schedule of
/// the default 3 groups of 3 over 4 weeks is checked here golfer by golfer
/// (each week a partition into groups of 3, no pair twice), and their
/// number equals a brute force over the weeks; a fifth week is
/// unsatisfiable; without symmetry breaking, the count of a small instance
/// equals the brute force too, also on two threads.
#[test]
fn golfers_schedules_are_checked_and_counted_by_brute_force() {
    let (g, s, w) = (3usize, 3usize, 4usize);
    let m = load("golfers.csp", &[], &[]);
    let (got, status) = solutions(&m, "group");
    assert_eq!(status, Status::AllSolutions);
    let n = g * s;
    let mut distinct = BTreeSet::new();
    for sol in &got {
        // Membership vectors: week by week, group by group, golfer 1..n.
        let groups: Vec<u64> = sol
            .chunks(n)
            .map(|c| {
                (0..n)
                    .filter(|&i| c[i] == 1)
                    .fold(0u64, |m, i| m | 1 << (i + 1))
            })
            .collect();
        assert_eq!(groups.len(), w * g);
        for week in groups.chunks(g) {
            assert!(
                week.iter().all(|x| x.count_ones() as usize == s),
                "{week:?}"
            );
            let union = week.iter().fold(0u64, |m, x| m | x);
            assert_eq!(union, ((1u64 << n) - 1) << 1, "a partition of 1..{n}");
        }
        for (a, x) in groups.iter().enumerate() {
            for (b, y) in groups.iter().enumerate() {
                if a / g < b / g {
                    assert!((x & y).count_ones() <= 1, "a pair meets twice: {groups:?}");
                }
            }
        }
        distinct.insert(groups);
    }
    assert_eq!(distinct.len(), got.len());
    assert_eq!(got.len() as u64, golfer_schedules(g, s, w, true));
    let five = load("golfers.csp", &[("w", "5")], &[]);
    assert_eq!(solutions(&five, "group").1, Status::Unsatisfiable);
    // 4 golfers, 2 groups of 2, 3 weeks, no symmetry breaking: 48.
    let small = load(
        "golfers.csp",
        &[("g", "2"), ("s", "2"), ("w", "3"), ("symmetry", "false")],
        &[],
    );
    let expected = golfer_schedules(2, 2, 3, false);
    assert_eq!(expected, 48);
    for threads in [1, 2] {
        let o = Options {
            search: small.search.clone(),
            count_only: true,
            threads,
            ..Options::default()
        };
        assert_eq!(
            solve(&small, &o, |_| Next::Continue).stats.solutions,
            expected
        );
    }
    assert_eq!(solutions(&small, "group").0.len() as u64, expected);
}
