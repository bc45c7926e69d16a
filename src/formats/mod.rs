//! The file formats the checker reads, as pure functions from a file's text
//! to data: JSON with the span of every value (`json.rs`) and MiniZinc data
//! files (`dzn.rs`) for `--data`, dictionaries (`dictionary.rs`), crossword
//! grids (`grid.rs`: slot files, pictures, `.ipuz`; `puz.rs`: Across Lite
//! `.puz`, read as a picture and written), files of integers
//! (`table.rs`: `read_table`, `read_ints`), words cut into symbols
//! (`symbols.rs`) and dictionaries compiled into decision diagrams with
//! their disk cache (`dawg.rs`). They know no checker state: the checker
//! reads the file (`reader`), calls them and turns what they return into
//! values. Their errors are their own ([`Error`]: a message, the places in
//! the file's text, a help line), which the checker turns into diagnostics
//! in that file; so this module names no diagnostic type.

pub(crate) mod dawg;
pub(crate) mod dictionary;
pub(crate) mod dzn;
pub(crate) mod grid;
pub(crate) mod json;
pub(crate) mod puz;
pub(crate) mod symbols;
pub(crate) mod table;

use crate::source::Span;

/// A long parse asks its caller every [`CHECK_EVERY`] lines or values
/// whether to go on, with the place it reached: `false` (the time limit,
/// Ctrl-C or the memory limit; the caller keeps its own diagnostic) stops
/// it. Limits hold while a file of millions of lines is read.
pub(crate) type GoOn<'a> = &'a mut dyn FnMut(Span) -> bool;

/// How many lines or values a parse reads between two questions to its
/// caller.
pub(crate) const CHECK_EVERY: usize = 4096;

/// The message of a parse its caller stopped.
pub(crate) const STOPPED: &str = "stopped by the caller's check";

/// Asks `go_on` at every [`CHECK_EVERY`]th line (`index` from 0, starting
/// at byte `at`) of a line-by-line parse.
pub(crate) fn pace(go_on: GoOn, index: usize, at: usize) -> Result<(), Error> {
    if index % CHECK_EVERY == CHECK_EVERY - 1 && !go_on(Span::new(at, at)) {
        return Err(Error::new("cspi::stopped", STOPPED));
    }
    Ok(())
}

/// What a parser refuses: a stable code (`cspi::data::table`), why, the
/// places in the file's text with their labels (none: the file as a whole)
/// and what would fix it.
#[derive(Clone, Debug)]
pub(crate) struct Error {
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Error {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }
    pub(crate) fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push((span, text.into()));
        self
    }
    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// An integer as data and the command line write it: optional sign, digits,
/// `_` separators.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let cleaned: String = s.trim().chars().filter(|c| *c != '_').collect();
    cleaned.parse().ok()
}
