//! The crossword data files: a grid (picture, .ipuz, .puz or slot list) and word
//! lists written from the input, loaded by the bundled crossword models and
//! solved with a node limit, every fill re-checked by the independent
//! checker. A panic, or a fill the checker rejects, is a finding; a bad file
//! must come back as a diagnostic.
//!
//! The input is the grid, then the main word list, then a second list (laid
//! over the first, or the exclusion list), separated by lines `%%`. A hash
//! of the input picks the model, the grid's format and the parameters.
#![no_main]

use cspi::solve::{LoadOptions, ModelSource, ParamOverride, load};
use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;

#[path = "common.rs"]
mod common;
use common::{hash, scratch, solve_checked};

/// The next `n`-way choice drawn from `h`.
fn draw(h: &mut u64, n: u64) -> u64 {
    let k = *h % n;
    *h /= n;
    k
}

/// The bundled models, read once (paths resolve against the models folder).
fn models() -> &'static [(&'static str, String)] {
    static MODELS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    MODELS.get_or_init(|| {
        ["crossword.csp", "crossword-best.csp", "crossword-slots.csp"]
            .into_iter()
            .map(|name| {
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../models")
                    .join(name);
                (
                    name,
                    std::fs::read_to_string(path).expect("a bundled model"),
                )
            })
            .collect()
    })
}

fn param(name: &str, value: impl ToString) -> ParamOverride {
    ParamOverride {
        name: name.to_string(),
        value: value.to_string(),
    }
}

/// The input cut at each `\n%%\n`.
fn parts(mut data: &[u8]) -> Vec<&[u8]> {
    const SEP: &[u8] = b"\n%%\n";
    let mut out = Vec::new();
    while let Some(at) = data.windows(SEP.len()).position(|w| w == SEP) {
        out.push(&data[..at]);
        data = &data[at + SEP.len()..];
    }
    out.push(data);
    out
}

fuzz_target!(|data: &[u8]| {
    // The grid as bytes (a .puz file is binary), the word lists as text.
    let parts = parts(data);
    let grid = parts[0];
    let Ok(dict) = std::str::from_utf8(parts.get(1).copied().unwrap_or(b"")) else {
        return;
    };
    let other = match parts.get(2) {
        Some(o) => match std::str::from_utf8(o) {
            Ok(o) => Some(o),
            Err(_) => return,
        },
        None => None,
    };

    let mut h = hash(data);
    let (name, model_text) = &models()[draw(&mut h, 3) as usize];
    let dir = scratch();
    let grid_path = match (*name, draw(&mut h, 3)) {
        ("crossword-slots.csp", _) => dir.join("slots.txt"),
        (_, 0) => dir.join("grid.txt"),
        (_, 1) => dir.join("grid.ipuz"),
        // Across Lite's binary format: what gets past its checksums.
        _ => dir.join("grid.puz"),
    };
    let dict_path = dir.join("words.txt");
    let other_path = dir.join("other.txt");
    std::fs::write(&grid_path, grid).expect("writing the grid");
    std::fs::write(&dict_path, dict).expect("writing the word list");

    let mut params = vec![param("dict", dict_path.display())];
    if *name == "crossword-slots.csp" {
        params.push(param("slots", grid_path.display()));
    } else {
        params.push(param("grid", grid_path.display()));
        params.push(param("min_score", draw(&mut h, 4) * 20));
        params.push(param("symmetric", draw(&mut h, 2) == 0));
        params.push(param("max_shared", draw(&mut h, 4)));
        params.push(param("weak_score", draw(&mut h, 3) * 30));
        params.push(param("most_weak", draw(&mut h, 3)));
        if let Some(other) = other {
            std::fs::write(&other_path, other).expect("writing the second list");
            let which = if draw(&mut h, 2) == 0 {
                "personal"
            } else {
                "exclude"
            };
            params.push(param(which, other_path.display()));
        }
        if *name == "crossword-best.csp" {
            params.push(param(
                "goal",
                ["min", "sum", "lex"][draw(&mut h, 3) as usize],
            ));
        }
    }
    let options = LoadOptions {
        params,
        as_written: true,
        ..common::load_options()
    };
    let models_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let Ok(model) = load(
        ModelSource::text_in(name, model_text, &models_dir),
        &options,
    ) else {
        return;
    };
    solve_checked(model);
});
