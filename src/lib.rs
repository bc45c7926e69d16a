//! cspi: a constraint-programming tool. Text flows one way:
//! `syntax::parse` → `sema::check` → [`model::Model`] → `lower::lower` →
//! `engine::search` → output. See docs/ARCHITECTURE.md.
//!
//! This file is the façade. The public API is what the binary (`cli`),
//! the Python package, the benches, the fuzz targets and the integration
//! tests use: [`solve`] (`parse`, `load`, `solve`, their options and
//! answers, with the engine's `Limits` and `Next`), [`run`] (a run as plain
//! data, with the engine's `Stats` and the trace's `Decision`), [`model`]
//! (the model as data; its functions the tests call), [`diag`], [`source`],
//! [`explain`], [`part`], [`memory`], [`suggest`], [`cheaters`], the solution printers of
//! [`output`], the FlatZinc reader of [`flatzinc`] (its fuzz target) and of
//! [`cli`] what `main.rs` and Python call. Inside a public module the rest
//! is `pub(crate)` too. The engine, lowering and the parser are
//! `pub(crate)` whole: a test of their insides is a unit test beside them.
//! The `unreachable_pub` lint (Cargo.toml) keeps it so, and lets `dead_code`
//! see every item nothing calls.

// No panics on user input: library code may not unwrap or expect (tests may).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub(crate) mod bench;
pub mod cheaters;
pub mod cli;
pub mod diag;
pub(crate) mod engine;
pub mod explain;
pub mod flatzinc;
pub(crate) mod fnv;
pub(crate) mod formats;
#[cfg(test)]
mod layering;
pub(crate) mod lower;
pub mod memory;
pub(crate) mod merge;
pub mod model;
pub(crate) mod num;
pub mod output;
pub(crate) mod parallel;
pub mod part;
pub mod part_log;
pub(crate) mod reader;
pub mod run;
pub(crate) mod sema;
pub(crate) mod setup;
pub mod solve;
pub mod source;
pub mod suggest;
pub(crate) mod syntax;
