//! models/jobshop.csp on the shared job-shop instances: each schedule is
//! checked by an independent checker written from the problem's rules (jobs
//! in order, one operation at a time per machine, the makespan is the last
//! end), and proved optima must equal those of optima.tsv. The default run
//! takes ft06, la01 and la05; `-- --ignored` proves la01-la05 too. Speed is
//! measured by `benches/jobshop.py`, not here.

use crate::common;

use crate::common::{cspi, shared_data};
use serde_json::Value;
use std::path::Path;

/// An instance: for each job, its operations' (machine, duration).
fn instance(path: &Path) -> Vec<Vec<(usize, i64)>> {
    let text = common::read(path);
    let nums: Vec<i64> = text
        .lines()
        .flat_map(|l| l.split('#').next().unwrap_or("").split_whitespace())
        .map(|t| t.parse().expect("an integer"))
        .collect();
    let (n, m) = (nums[0] as usize, nums[1] as usize);
    (0..n)
        .map(|j| {
            (0..m)
                .map(|k| {
                    let at = 2 + 2 * (j * m + k);
                    (nums[at] as usize, nums[at + 1])
                })
                .collect()
        })
        .collect()
}

fn optimum(name: &str) -> i64 {
    let dir = shared_data("jobshop").expect("checked by the caller");
    let table = common::read(&dir.join("optima.tsv"));
    table
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0] == name).then(|| f[3].parse().expect("an optimum"))
        })
        .expect("the instance is in optima.tsv")
}

/// The makespan of the schedule `s` (row-major: job, then operation), after
/// checking it respects every rule.
fn check_schedule(jobs: &[Vec<(usize, i64)>], s: &[i64]) -> i64 {
    let m = jobs[0].len();
    let start = |j: usize, k: usize| s[j * m + k];
    let mut busy: Vec<Vec<(i64, i64)>> = vec![Vec::new(); m];
    let mut makespan = 0;
    for (j, job) in jobs.iter().enumerate() {
        for (k, &(machine, d)) in job.iter().enumerate() {
            assert!(start(j, k) >= 0, "job {j} operation {k} starts before 0");
            if k + 1 < m {
                assert!(
                    start(j, k) + d <= start(j, k + 1),
                    "job {j}: operation {} starts before {k} ends",
                    k + 1
                );
            }
            busy[machine].push((start(j, k), start(j, k) + d));
            makespan = makespan.max(start(j, k) + d);
        }
    }
    for (r, ops) in busy.iter_mut().enumerate() {
        ops.sort();
        for w in ops.windows(2) {
            assert!(w[0].1 <= w[1].0, "machine {r} runs {w:?} at once");
        }
    }
    makespan
}

/// Solves an instance (JSON output) and checks every schedule reported;
/// returns the last summary.
fn solve(name: &str, extra: &[&str]) -> Option<(Value, Vec<i64>)> {
    let dir = shared_data("jobshop")?;
    let path = dir.join(format!("{name}.txt"));
    let jobs = instance(&path);
    let param = format!("instance={}", path.display());
    let mut args = vec![
        "solve",
        "models/jobshop.csp",
        "--param",
        &param,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let run = cspi(&args);
    assert_eq!(run.code, 0, "{name}: {}", run.stderr);
    let mut makespans = Vec::new();
    let mut summary = None;
    for line in run.stdout.lines() {
        let rec: Value = serde_json::from_str(line).expect("a JSON line");
        match rec["type"].as_str() {
            Some("solution") => {
                let values = &rec["values"];
                let s: Vec<i64> = values["start"]
                    .as_array()
                    .expect("start")
                    .iter()
                    .flat_map(|row| row.as_array().expect("a row").iter())
                    .map(|v| v.as_i64().expect("a start"))
                    .collect();
                let makespan = check_schedule(&jobs, &s);
                let stated = values["makespan"].as_i64();
                assert_eq!(stated, Some(makespan), "{name}: makespan");
                makespans.push(makespan);
            }
            Some("summary") => summary = Some(rec),
            _ => {}
        }
    }
    Some((summary.expect("a summary"), makespans))
}

fn proves(name: &str) {
    proves_with(name, &[]);
}

fn proves_with(name: &str, extra: &[&str]) {
    let Some((summary, makespans)) = solve(name, extra) else {
        return;
    };
    let best = optimum(name);
    assert_eq!(summary["status"].as_str(), Some("OPTIMAL"), "{name}");
    assert_eq!(summary["objective"].as_i64(), Some(best), "{name}");
    assert_eq!(
        makespans.last(),
        Some(&best),
        "{name}: the last schedule is optimal"
    );
    assert!(
        makespans.windows(2).all(|w| w[1] < w[0]),
        "{name}: each schedule is better"
    );
}

#[test]
fn ft06_is_proved_optimal() {
    proves("ft06");
}

#[test]
fn la01_and_la05_are_proved_optimal() {
    proves("la01");
    proves("la05");
}

/// With learning (docs/learning.md): the same optima, proved, on one
/// thread (backjumps, nogoods under the fixings of neighbourhoods).
#[test]
fn learning_proves_the_same_optima() {
    for name in ["ft06", "la01", "la02", "la05"] {
        proves_with(name, &["--learning", "on", "--threads", "1"]);
    }
}

#[test]
#[ignore = "a few seconds each; the benchmark times them"]
fn la02_to_la04_are_proved_optimal() {
    for name in ["la02", "la03", "la04"] {
        proves(name);
    }
}

/// A limit stops branch and bound with its best schedule, unproved:
/// SATISFIABLE, each improvement listed with its time.
#[test]
fn a_limit_returns_the_best_schedule_unproved() {
    let Some((summary, makespans)) = solve("la02", &["--node-limit", "600"]) else {
        return;
    };
    assert_eq!(summary["status"].as_str(), Some("SATISFIABLE"));
    let best = summary["objective"].as_i64().expect("a best");
    assert_eq!(makespans.last(), Some(&best));
    assert!(best > optimum("la02"), "600 nodes do not reach the optimum");
    let improvements = summary["stats"]["improvements"]
        .as_array()
        .expect("improvements in the statistics");
    let objectives: Vec<i64> = improvements
        .iter()
        .map(|i| i["objective"].as_i64().expect("objective"))
        .collect();
    assert_eq!(
        objectives, makespans,
        "one improvement per reported schedule"
    );
    let times: Vec<i64> = improvements
        .iter()
        .map(|i| i["time_ms"].as_i64().expect("time"))
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn a_malformed_instance_is_a_diagnostic() {
    let dir = common::scratch("jobshop-bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "2 2\n0 3 1 x\n1 2 0 4\n").expect("write");
    let param = format!("instance={}", bad.display());
    let run = cspi(&["solve", "models/jobshop.csp", "--param", &param]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("`x` is not an integer"),
        "{}",
        run.stderr
    );
    std::fs::write(&bad, "2 2\n0 3 1 2\n1 2\n").expect("write");
    let run = cspi(&["solve", "models/jobshop.csp", "--param", &param]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("n lines of m"), "{}", run.stderr);
}
