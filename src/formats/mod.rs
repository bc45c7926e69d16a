//! The file formats the checker reads, as pure functions from a file's text
//! to data: JSON with the span of every value (`json.rs`) and MiniZinc data
//! files (`dzn.rs`) for `--data`, dictionaries (`dictionary.rs`), crossword
//! grids (`grid.rs`: slot files, pictures, `.ipuz`), files of integers
//! (`table.rs`: `read_table`, `read_ints`), words cut into symbols
//! (`symbols.rs`) and dictionaries compiled into decision diagrams with
//! their disk cache (`dawg.rs`). They know no checker state: the checker
//! reads the file (`reader`), calls them and turns what they return into
//! values; their errors point into the file they read.

pub(crate) mod dawg;
pub(crate) mod dictionary;
pub(crate) mod dzn;
pub(crate) mod grid;
pub(crate) mod json;
pub(crate) mod symbols;
pub(crate) mod table;

/// An integer as data and the command line write it: optional sign, digits,
/// `_` separators.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let cleaned: String = s.trim().chars().filter(|c| *c != '_').collect();
    cleaned.parse().ok()
}
