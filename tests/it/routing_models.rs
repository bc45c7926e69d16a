//! models/tsp.csp (circuit, 2-D element) and models/bin-packing.csp
//! (bin_packing, nvalue, increasing) against optima computed here from the
//! problems' rules: Held-Karp dynamic programming for the tour, exhaustive
//! assignment for the bins. Each model's reported solution is checked too.

use crate::common;

use crate::common::cspi;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

/// The shortest tour by Held-Karp.
fn held_karp(d: &[Vec<i64>]) -> i64 {
    let n = d.len();
    if n == 1 {
        return d[0][0];
    }
    let full = 1usize << n;
    let mut best = vec![vec![i64::MAX; n]; full];
    best[1][0] = 0;
    for set in 1..full {
        for j in 0..n {
            let here = best[set][j];
            if here == i64::MAX || set & 1 == 0 {
                continue;
            }
            for k in 0..n {
                if set >> k & 1 == 0 {
                    let next = set | 1 << k;
                    best[next][k] = best[next][k].min(here + d[j][k]);
                }
            }
        }
    }
    (1..n)
        .map(|j| best[full - 1][j] + d[j][0])
        .min()
        .expect("n > 1")
}

/// The summary and last solution of a JSON run.
fn run(args: &[&str]) -> (Value, Value) {
    let r = cspi(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    let mut last = Value::Null;
    let mut summary = Value::Null;
    for line in r.stdout.lines() {
        let rec: Value = serde_json::from_str(line).expect("JSON");
        match rec["type"].as_str() {
            Some("solution") => last = rec,
            Some("summary") => summary = rec,
            _ => {}
        }
    }
    (summary, last)
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_i64().expect("an integer"))
        .collect()
}

/// Solves a TSP instance file and checks the tour and its optimality.
fn check_tsp(path: &str, d: &[Vec<i64>]) {
    let param = format!("instance={path}");
    let (summary, last) = run(&[
        "solve",
        "models/tsp.csp",
        "--param",
        &param,
        "--format",
        "json",
    ]);
    let best = held_karp(d);
    assert_eq!(summary["status"], "OPTIMAL", "{path}");
    assert_eq!(summary["objective"].as_i64(), Some(best), "{path}");
    let next = ints(&last["values"]["next"]);
    let n = d.len();
    let (mut at, mut length, mut seen) = (0usize, 0, vec![false; n]);
    for _ in 0..n {
        assert!(
            !seen[at],
            "{path}: city {} visited twice in {next:?}",
            at + 1
        );
        seen[at] = true;
        let to = (next[at] - 1) as usize;
        length += d[at][to];
        at = to;
    }
    assert_eq!(at, 0, "{path}: the tour comes back");
    assert_eq!(length, best, "{path}");
}

#[test]
fn the_bundled_tsp_is_solved_to_the_held_karp_optimum() {
    let text = common::read(&common::root().join("models/data/tsp-12.txt"));
    let nums: Vec<i64> = text
        .lines()
        .flat_map(|l| l.split('#').next().unwrap_or("").split_whitespace())
        .map(|w| w.parse().expect("a number"))
        .collect();
    let n = nums[0] as usize;
    let d: Vec<Vec<i64>> = (0..n)
        .map(|i| nums[1 + i * n..1 + (i + 1) * n].to_vec())
        .collect();
    check_tsp("models/data/tsp-12.txt", &d);
}

#[test]
fn random_asymmetric_tsps_are_solved_to_the_held_karp_optimum() {
    let dir = common::scratch("tsp");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for case in 0..12 {
        let n = rng.random_range(1..=7usize);
        let d: Vec<Vec<i64>> = (0..n)
            .map(|_| (0..n).map(|_| rng.random_range(0..20)).collect())
            .collect();
        let mut text = format!("{n}\n");
        for row in &d {
            text += &row.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            text += "\n";
        }
        let path = dir.join(format!("tsp{case}.txt"));
        std::fs::write(&path, text).expect("write");
        check_tsp(path.to_str().expect("a path"), &d);
    }
}

/// The fewest bins by trying every assignment of items to bins (small cases).
fn fewest_bins(w: &[i64], capacity: i64) -> i64 {
    fn place(i: usize, w: &[i64], loads: &mut Vec<i64>, capacity: i64, best: &mut usize) {
        if loads.len() >= *best {
            return;
        }
        if i == w.len() {
            *best = loads.len();
            return;
        }
        for b in 0..loads.len() {
            if loads[b] + w[i] <= capacity {
                loads[b] += w[i];
                place(i + 1, w, loads, capacity, best);
                loads[b] -= w[i];
            }
        }
        loads.push(w[i]);
        place(i + 1, w, loads, capacity, best);
        loads.pop();
    }
    let mut best = w.len().max(1) + 1;
    place(0, w, &mut Vec::new(), capacity, &mut best);
    best.max(1) as i64
}

#[test]
fn bin_packing_finds_the_fewest_bins() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for _ in 0..15 {
        let capacity = rng.random_range(3..=9);
        let k = rng.random_range(1..=7usize);
        let w: Vec<i64> = (0..k).map(|_| rng.random_range(1..=capacity)).collect();
        let list = format!(
            "w=[{}]",
            w.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        );
        let cap = format!("capacity={capacity}");
        let (summary, last) = run(&[
            "solve",
            "models/bin-packing.csp",
            "--param",
            &list,
            "--param",
            &cap,
            "--format",
            "json",
        ]);
        let best = fewest_bins(&w, capacity);
        assert_eq!(summary["status"], "OPTIMAL", "{w:?} / {capacity}");
        assert_eq!(
            summary["objective"].as_i64(),
            Some(best),
            "{w:?} / {capacity}"
        );
        let bin = ints(&last["values"]["bin"]);
        let mut loads = vec![0; k + 1];
        for (i, &b) in bin.iter().enumerate() {
            loads[b as usize] += w[i];
        }
        assert!(loads.iter().all(|&l| l <= capacity), "{w:?}: {bin:?}");
        let mut used: Vec<i64> = bin.clone();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len() as i64, best, "{w:?}: {bin:?}");
    }
}
