//! The integration tests, one module per subject, in one binary: each
//! test binary links the whole crate, so one binary builds and links once.
//! A new test goes into the module of its subject (a new subject gets a
//! new module here); helpers shared by several modules go into `common`.

mod common;

mod bench_cli;
mod boggle;
mod check;
mod checker_independence;
mod classics;
mod cli;
mod count_eq;
mod crossword;
mod differential;
mod distributed;
mod docs;
mod each;
mod eight_puzzle;
mod exact_integers;
mod explain;
mod globals_docs;
mod hostile;
mod interrupt_and_output;
mod jobshop;
mod language_docs;
mod language_models;
mod limits;
mod long_sums;
mod minizinc;
mod optimisation;
mod output_models;
mod parallel;
mod pictures;
mod problem_models;
mod projection;
mod provenance;
mod python;
mod queens;
mod ray;
mod regex;
mod reification;
mod repository;
mod roster;
mod routing_models;
mod search_order;
mod set_vars;
mod sudoku_sets;
mod table_data;
mod ui;
mod wide_values;
