//! cspi: a constraint-programming tool. Text flows one way:
//! `syntax::parse` → `sema::check` → [`model::Model`] → `lower::lower` →
//! `engine::search` → output. See docs/ARCHITECTURE.md.

// No panics on user input: library code may not unwrap or expect (tests may).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bench;
pub mod cli;
pub mod diag;
pub mod engine;
pub mod explain;
pub mod flatzinc;
#[cfg(test)]
mod layering;
pub mod lower;
pub mod memory;
pub mod merge;
pub mod model;
pub mod num;
pub mod output;
pub mod parallel;
pub mod part;
pub mod reader;
pub mod run;
pub mod sema;
pub mod setup;
pub mod solve;
pub mod source;
pub mod suggest;
pub mod syntax;
