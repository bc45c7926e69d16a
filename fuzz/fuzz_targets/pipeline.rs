//! The whole pipeline: parse, check, post and solve with a node limit, every
//! solution re-checked by the independent checker. Any panic, or a solution
//! the checker rejects, is a finding.
//!
//! Each input is solved twice: with the model's own search, and with a
//! strategy (variable and value selection, propagation level, restarts,
//! counting or not) drawn from a hash of the input, so that every engine
//! path is reached without the fuzzer having to spell a search block.
#![no_main]

use cspi::model::search::Named;
use cspi::model::{Propagation, Restarts, ValSelect, VarSelect};
use cspi::solve::{Limits, Next};
use cspi::solve::{ModelSource, Options, load, solve};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::Arc;

#[path = "common.rs"]
mod common;
use common::hash;

/// Picks an entry of `all` with the next few bits of `h`.
fn pick<T: Copy>(all: &[(&str, T)], h: &mut u64) -> T {
    let k = (*h % all.len() as u64) as usize;
    *h /= all.len() as u64;
    all[k].1
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Data files are out of scope here: a model that reads one gets a diagnostic.
    let Ok(model) = load(
        ModelSource::text_in("fuzz.csp", text, Path::new("/nonexistent")),
        &common::load_options(),
    ) else {
        return;
    };
    let model = Arc::new(model);
    let limits = Limits {
        solutions: Some(50),
        ..common::limits(std::time::Duration::from_secs(2))
    };
    let own = Options {
        search: model.search.clone(),
        check: true,
        limits: limits.clone(),
        ..Options::default()
    };

    let mut h = hash(data);
    let mut drawn = own.clone();
    drawn.search.var = pick(VarSelect::ALL, &mut h);
    drawn.search.val = pick(ValSelect::ALL, &mut h);
    drawn.search.propagation = pick(Propagation::ALL, &mut h);
    drawn.search.restarts = pick(Restarts::ALL, &mut h);
    drawn.search.seed = h % 1000;
    // Counting by product skips solutions, so it runs without the checker:
    // there only a panic is a finding.
    drawn.count_only = h % 3 == 0;
    drawn.check = !drawn.count_only;
    // `val score` needs scored words; the CLI refuses it otherwise.
    if cspi::solve::check_strategy(&model, &drawn.search).is_err() {
        drawn.search.val = ValSelect::Min;
    }

    // CSPI_FUZZ_VERBOSE=1 on a replay says which search each solve drew and what it cost.
    let verbose = std::env::var_os("CSPI_FUZZ_VERBOSE").is_some();
    for options in [own, drawn] {
        let start = std::time::Instant::now();
        let summary = solve(&model, &options, |_| Next::Continue);
        if verbose {
            eprintln!(
                "{:?}, counting {}: {} nodes in {:?}",
                options.search,
                options.count_only,
                summary.stats.nodes,
                start.elapsed()
            );
        }
        assert!(
            summary.rejected.is_empty(),
            "checker rejected a solution: {:?}",
            summary.rejected
        );
    }
});
