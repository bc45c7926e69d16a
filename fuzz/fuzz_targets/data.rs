//! Models with their data files: the input is a model, then a line `%%`,
//! then the text of a data file. Its start says how the data comes in:
//! `{` as `--data data.json`, a first line with `=` as `--data data.dzn`
//! (parameters' values), anything else as `data.txt` beside the model,
//! which the model reads itself (`read_table`, `read`, `grid`,
//! `dictionary`). The model is
//! loaded and solved with a node limit, every solution re-checked by the
//! independent checker. A panic, or a solution the checker rejects, is a
//! finding; a bad file must come back as a diagnostic.
#![no_main]

use cspi::solve::{LoadOptions, ModelSource, load};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use common::{scratch, solve_checked};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (model_text, file_text) = text.split_once("\n%%\n").unwrap_or((text, ""));
    let dir = scratch();
    let start = file_text.trim_start();
    let name = if start.starts_with('{') {
        "data.json"
    } else if start.lines().next().is_some_and(|l| l.contains('=')) {
        "data.dzn"
    } else {
        "data.txt"
    };
    let path = dir.join(name);
    std::fs::write(&path, file_text).expect("writing the data file");
    let mut options = LoadOptions {
        as_written: true,
        ..common::load_options()
    };
    if name != "data.txt" {
        options.data_files.push(path);
    }
    let Ok(model) = load(ModelSource::text_in("fuzz.csp", model_text, dir), &options) else {
        return;
    };
    solve_checked(model);
});
