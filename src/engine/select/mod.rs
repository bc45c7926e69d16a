//! Branching heuristics: which variable to branch on, which value to try.
//! A new heuristic is one match arm here and a name in `model/search.rs`.

pub mod val;
pub mod var;
