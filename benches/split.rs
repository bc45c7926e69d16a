//! The work a split into parts adds (issue 14): in one process, a whole
//! one-thread count against the same count run as N parts one after the
//! other (`--part K/N` as `cspi solve` runs it: each part lowers the model,
//! propagates the root, computes the whole split, replays its sub-problems
//! and searches them). The model is read once: what every process of a
//! cluster would also pay to start (exec, parse, dictionary) is left out
//! here, and shown by `benches/scale.sh`, which runs the parts as processes.
//!
//!     cargo bench --bench split                 # 64 parts, 3 rounds
//!     cargo bench --bench split -- --parts 128 --rounds 5
//!
//! CPU time of the process (user + system, getrusage) around each solve;
//! whole and parts alternate, and the table gives the medians. Not a test:
//! nothing here passes or fails on speed.

use cspi::model::Model;
use cspi::part::Part;
use cspi::solve::Next;
use cspi::solve::ParamOverride;
use cspi::solve::{LoadOptions, Options, load as load_model, solve};
use std::path::Path;
use std::sync::Arc;

fn cpu_seconds() -> f64 {
    // SAFETY: getrusage writes into the struct it is given.
    let mut r: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut r) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(r.ru_utime) + secs(r.ru_stime)
}

fn load(path: &str, params: &[(&str, String)]) -> Arc<Model> {
    let over: Vec<ParamOverride> = params
        .iter()
        .map(|(n, v)| ParamOverride {
            name: n.to_string(),
            value: v.clone(),
        })
        .collect();
    match load_model(Path::new(path), &LoadOptions::with_params(&over)) {
        Ok(m) => Arc::new(m),
        Err(e) => panic!("{path} does not load: {e:?}"),
    }
}

/// CPU seconds and (solutions, nodes) of one count.
fn count(model: &Arc<Model>, leaf_by_leaf: bool, part: Option<Part>) -> (f64, u64, u64) {
    let options = Options {
        search: model.search.clone(),
        threads: 1,
        count_only: true,
        no_product_count: leaf_by_leaf,
        part,
        ..Options::default()
    };
    let began = cpu_seconds();
    let s = solve(model, &options, |_| Next::Continue);
    (cpu_seconds() - began, s.stats.solutions, s.stats.nodes)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let parts = flag("--parts", 64);
    let rounds = flag("--rounds", 3);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).expect("the repository root");
    let data = Path::new("../shared/data/crossword");
    let mut workloads = vec![
        (
            "n-queens 13 count",
            load("models/n-queens.csp", &[("n", "13".into())]),
            false,
        ),
        (
            "n-queens 14 count",
            load("models/n-queens.csp", &[("n", "14".into())]),
            false,
        ),
    ];
    if data.is_dir() {
        let file = |f: &str| data.join(f).display().to_string();
        workloads.push((
            "crossword 2 leaf by leaf",
            load(
                "models/crossword-slots.csp",
                &[
                    ("dict", file("words-3000.txt")),
                    ("slots", file("puzzle-2.txt")),
                ],
            ),
            true,
        ));
    } else {
        println!(
            "skipped: {} not found (the crossword workload)",
            data.display()
        );
    }
    println!("{parts} parts, one after the other in this process; medians of {rounds} rounds\n");
    println!(
        "| workload | one run: CPU s | {parts} parts: CPU s | added work | nodes (one run = parts) |"
    );
    println!("| --- | ---: | ---: | ---: | --- |");
    for (name, model, leaf_by_leaf) in &workloads {
        let (mut whole, mut split) = (Vec::new(), Vec::new());
        let mut nodes = (0, 0);
        for _ in 0..rounds {
            let (t, solutions, n) = count(model, *leaf_by_leaf, None);
            whole.push(t);
            let (mut sum, mut sols, mut n_parts) = (0.0, 0, 0);
            for k in 1..=parts {
                let (t, s, n) = count(model, *leaf_by_leaf, Some(Part::whole(k, parts)));
                sum += t;
                sols += s;
                n_parts += n;
            }
            assert_eq!(sols, solutions, "{name}: the parts' counts add up");
            split.push(sum);
            nodes = (n, n_parts);
        }
        let (w, s) = (median(whole), median(split));
        println!(
            "| {name} | {w:.3} | {s:.3} | {:+.1} % | {} = {} |",
            100.0 * (s - w) / w,
            nodes.0,
            nodes.1
        );
    }
}
