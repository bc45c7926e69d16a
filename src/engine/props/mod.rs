//! The propagators, one file each.

pub mod alldiff;
pub mod alldiff_bits;
pub mod alldiff_gac;
pub mod arith;
pub mod bin_packing;
pub mod circuit;
pub mod cumulative;
pub mod disjunctive;
pub mod dominators;
pub mod element2d;
pub mod element_bits;
pub mod formula;
pub mod gcc;
pub mod increasing;
pub mod inverse;
pub mod ite;
pub mod lex;
pub mod linear;
pub mod mdd;
pub mod member;
pub mod nvalue;
pub mod reif;
pub mod reified;
pub mod table;
pub mod theta_tree;
pub mod wordcross;
