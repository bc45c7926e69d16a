//! The whole pipeline: parse, check, post and solve with a node limit, every
//! solution re-checked by the independent checker. Any panic, or a solution
//! the checker rejects, is a finding.
#![no_main]

use cspi::engine::search::{Limits, Next};
use cspi::solve::{Options, load_str, solve};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Data files are out of scope here: a model that reads one gets a diagnostic.
    let Ok(model) = load_str("fuzz.csp", text, Path::new("/nonexistent"), &[]) else { return };
    let model = Arc::new(model);
    let mut options = Options { search: model.search.clone(), check: true, ..Options::default() };
    options.limits = Limits { nodes: Some(2_000), solutions: Some(50), ..Limits::default() };
    let summary = solve(&model, &options, |_| Next::Continue);
    assert!(summary.rejected.is_empty(), "checker rejected a solution: {:?}", summary.rejected);
});
