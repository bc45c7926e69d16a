//! The concrete syntax: the pest grammar (`grammar/cspi.pest`) and the AST built from it.

pub(crate) mod ast;
mod errors;
mod minizinc;
mod parse;

pub(crate) use parse::parse;
