//! The FlatZinc front end: any text must give a model or a diagnostic,
//! never a panic; a model read is solved with small limits, once with its
//! own search annotation and once with a strategy drawn from a hash of the
//! input, every solution re-checked by the independent checker. A panic or
//! a rejected solution is a finding.
#![no_main]

use cspi::model::search::Named;
use cspi::model::{Propagation, Restarts, ValSelect, VarSelect};
use cspi::solve::{Limits, Next};
use cspi::solve::{Options, solve};
use libfuzzer_sys::fuzz_target;
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
    let Ok(fzn) = cspi::flatzinc::load_str("fuzz.fzn", text) else {
        return;
    };
    let model = Arc::new(fzn.model);
    let limits = Limits {
        solutions: Some(20),
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
    drawn.search = cspi::flatzinc::default_search();
    drawn.search.scope = model.search.scope.clone();
    drawn.search.var = pick(VarSelect::ALL, &mut h);
    drawn.search.val = pick(ValSelect::ALL, &mut h);
    drawn.search.propagation = pick(Propagation::ALL, &mut h);
    drawn.search.restarts = pick(Restarts::ALL, &mut h);
    drawn.search.seed = h % 1000;
    if cspi::solve::check_strategy(&model, &drawn.search).is_err() {
        drawn.search.val = ValSelect::Min;
    }

    for options in [own, drawn] {
        let summary = solve(&model, &options, |values| {
            // The MiniZinc output of every solution must print.
            let _ = cspi::flatzinc::output::solution(&fzn.outputs, values);
            Next::Continue
        });
        assert!(
            summary.rejected.is_empty(),
            "checker rejected a solution: {:?}",
            summary.rejected
        );
    }
});
