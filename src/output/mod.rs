//! Rendering solutions and summaries: for people (`human.rs`) and as JSON Lines (`json.rs`).

pub mod human;
pub mod json;
