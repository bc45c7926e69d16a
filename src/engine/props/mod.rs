//! The propagators, one file each.

pub mod alldiff;
pub mod alldiff_bits;
pub mod alldiff_gac;
pub mod arith;
pub mod count_eq;
pub mod cumulative;
pub mod disjunctive;
pub mod element_bits;
pub mod formula;
pub mod increasing;
pub mod ite;
pub mod linear;
pub mod member;
pub mod reif;
pub mod reified;
pub mod table;
pub mod theta_tree;
pub mod wordcross;
