//! The propagators, one file each.

pub mod alldiff;
pub mod alldiff_gac;
pub mod formula;
pub mod linear;
