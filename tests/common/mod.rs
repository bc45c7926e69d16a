//! Shared test helpers: where the shared data lives, parsers for every sudoku
//! file format in ../shared/data/sudoku, an independent sudoku checker written
//! from the puzzle's rules, and a way to solve a puzzle through the library.
//!
//! The parsers and the checker deliberately share nothing with cspi: the model
//! reads the raw puzzle text itself (through `grid()`), and the tests compare
//! its solutions against givens decoded here.

#![allow(dead_code)] // each test binary uses a different part of this module

pub mod sudoku;

use std::path::{Path, PathBuf};

/// The crate root (where Cargo.toml is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/data/<rel>` if it exists; otherwise prints the skip notice and
/// returns `None`, so a checkout without the shared data still passes.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let path = root().join("../shared/data").join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: ../shared/data/{rel} not found");
        None
    }
}

/// `count` indices spread evenly over `0..len` (all of them if `len <= count`),
/// always including the first and the last.
pub fn spread(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    if count <= 1 {
        return vec![0];
    }
    let mut out: Vec<usize> = (0..count).map(|i| i * (len - 1) / (count - 1)).collect();
    out.dedup();
    out
}

/// A model shipped in models/.
pub fn model(name: &str) -> PathBuf {
    root().join("models").join(name)
}

/// Reads a file as text, panicking with the path on failure.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}
