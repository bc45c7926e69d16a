//! The concrete syntax: the pest grammar (`grammar/cspi.pest`) and the AST built from it.

pub mod ast;
mod errors;
mod minizinc;
mod parse;

pub use parse::{MAX_NESTING, parse};
