//! The propagators, one file each.

pub mod alldiff;
pub mod formula;
pub mod linear;
pub mod wordcross;
