//! Data: reading files named by the model, and the `grid` built-in that turns a
//! puzzle string into a square array of givens.

use super::Checker;
use super::value::{Array, Value};
use crate::diag::{Diag, Source};
use crate::reader;
use crate::syntax::ast::Span;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A data file's parse, its error (`formats::Error`) turned into a
/// diagnostic in that file ([`in_file`]).
pub(super) trait InFile<T> {
    fn in_file(self, src: &Source) -> Result<T, Diag>;
}

impl<T> InFile<T> for Result<T, crate::formats::Error> {
    fn in_file(self, src: &Source) -> Result<T, Diag> {
        self.map_err(|e| in_file(e, src))
    }
}

impl Checker<'_> {
    /// Runs a parser of `formats/` over `src`, which asks as it goes
    /// whether the time limit, the stop flag and the memory limit allow it
    /// to go on: the limit's diagnostic, pointing into the file, when one
    /// stopped it; the parser's own error in the file otherwise.
    pub(super) fn parse_paced<T>(
        &self,
        src: &Source,
        parse: impl FnOnce(crate::formats::GoOn) -> Result<T, crate::formats::Error>,
    ) -> Result<T, Diag> {
        self.parse_limited(src, parse, |e| in_file(e, src))
    }

    /// [`Checker::parse_paced`] for a parser with errors of its own, which
    /// `error` turns into a diagnostic.
    pub(super) fn parse_limited<T, E>(
        &self,
        src: &Source,
        parse: impl FnOnce(crate::formats::GoOn) -> Result<T, E>,
        error: impl FnOnce(E) -> Diag,
    ) -> Result<T, Diag> {
        let input = self.input;
        let mut limit = None;
        let parsed = parse(&mut |span| {
            let within = input
                .memory_within(span)
                .and_then(|()| input.options.in_time(span));
            within.map_err(|d| limit = Some(d)).is_ok()
        });
        match (parsed, limit) {
            (Ok(v), _) => Ok(v),
            (Err(_), Some(d)) => Err(d.in_source(src)),
            (Err(e), None) => Err(error(e)),
        }
    }
}

/// A format parser's error as a diagnostic in the file it read: the
/// parsers of `formats/` know text and offsets, not diagnostics. The file's
/// text is shown when the error points into it.
pub(super) fn in_file(e: crate::formats::Error, src: &Source) -> Diag {
    let mut d = Diag::new(e.code, e.message);
    d.labels = e.labels;
    d.help = e.help;
    if !d.labels.is_empty() {
        d = d.in_source(src);
    }
    d
}

/// The largest data file cspi reads.
pub(crate) const MAX_FILE_BYTES: u64 = 512 << 20;

/// Symbols for 1, 2, ... in grids larger than 9×9 (`A` is 10), unless the model
/// passes its own alphabet.
pub(super) const DEFAULT_SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

impl Checker<'_> {
    /// Where a path written in the model, or given on the command line, points.
    pub(super) fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() || self.cli_strings.contains(path) {
            p.to_path_buf()
        } else {
            self.input.model_dir.join(p)
        }
    }

    /// Reads a UTF-8 text file through the one reader (`crate::reader`),
    /// with a diagnostic for every way that can fail. Messages name the path,
    /// never the content; a path that is the text of a `--param NAME=@file`
    /// is named by its origin.
    pub(super) fn read_file(&self, path: &str, span: Span) -> Result<Source, Diag> {
        self.read_file_as(path, span, self.input.options.sandbox.as_ref())
    }

    /// [`Checker::read_file`] confined to `sandbox` (none for the files that
    /// the command line names, such as `--data`).
    pub(super) fn read_file_as(
        &self,
        path: &str,
        span: Span,
        sandbox: Option<&reader::Sandbox>,
    ) -> Result<Source, Diag> {
        let shown = reader::shown(&self.resolve(path));
        self.read_with(path, span, sandbox, reader::read_text)
            .map(|text| Source::new(shown, text))
    }

    /// The bytes of a binary data file (an Across Lite `.puz` grid), with
    /// the refusals and limits of [`Checker::read_file`].
    pub(super) fn read_binary(&self, path: &str, span: Span) -> Result<Vec<u8>, Diag> {
        let sandbox = self.input.options.sandbox.as_ref();
        self.read_with(path, span, sandbox, reader::read_bytes)
    }

    /// A file read by `read` (text or bytes), every refusal a diagnostic.
    fn read_with<T>(
        &self,
        path: &str,
        span: Span,
        sandbox: Option<&reader::Sandbox>,
        read: impl FnOnce(&Path, u64, Option<&reader::Sandbox>) -> Result<T, reader::Refusal>,
    ) -> Result<T, Diag> {
        let full = self.resolve(path);
        let shown = reader::shown(&full);
        // `--memory-limit` holds for the text too: a file is refused before
        // it is read when its text (held twice for a moment, as read and as
        // the source diagnostics point into) would not fit.
        let options = self.input.options;
        // Past the limit already: the file is not to blame.
        self.input.memory_within(span)?;
        let room = options
            .memory_limit
            .map(|l| l.saturating_sub(self.input.memory.used()) / 2);
        let limit = room.map_or(MAX_FILE_BYTES, |r| r.min(MAX_FILE_BYTES));
        match read(&full, limit, sandbox) {
            Ok(read) => Ok(read),
            Err(reader::Refusal::TooLarge { .. }) if limit < MAX_FILE_BYTES => Err(Diag::new(
                "cspi::memory",
                format!(
                    "reading `{shown}` would take more than {} of memory",
                    crate::memory::shown(options.memory_limit.unwrap_or(0))
                ),
            )
            .label(span, "this file")
            .help("make the file smaller, or raise the limit: --memory-limit 8G")),
            Err(refusal) => Err(match self.file_texts.get(path) {
                Some((param, file)) => {
                    let file = reader::shown(file);
                    Diag::new(
                        "cspi::data::file",
                        format!(
                            "cannot read the file named by --param {param}: {}",
                            refusal.reason()
                        ),
                    )
                    .label(span, format!("this path is the text of `{file}`"))
                    .help(format!(
                        "`--param {param}=@{file}` passes the text of the file; to pass its \
                         path, write `--param {param}={file}`"
                    ))
                }
                None => Diag::new(
                    "cspi::data::file",
                    format!("cannot read `{shown}`: {}", refusal.reason()),
                )
                .label(span, "this path")
                .help(crate::diag::with_looked_for(
                    refusal.help("data files"),
                    &refusal,
                    &full,
                )),
            }),
        }
    }

    /// `grid(text, N [, symbols])`: an N×N array of givens indexed from 1, 0 for blanks.
    pub(super) fn grid_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = || {
            Diag::new(
                "cspi::call",
                "grid(text, N) takes a puzzle string and the grid size",
            )
            .label(span, "here")
            .help("the optional third argument lists the symbols for 1..N")
        };
        let (text, n, symbols) = match args {
            [(Value::Str(t), _), (Value::Int(n), _)] => (t.clone(), *n, None),
            [(Value::Str(t), _), (Value::Int(n), _), (Value::Str(s), _)] => {
                (t.clone(), *n, Some(s.clone()))
            }
            _ => return Err(usage()),
        };
        if !(1..=DEFAULT_SYMBOLS.len() as i64 * 2).contains(&n)
            && symbols.as_deref().is_none_or(str::is_empty)
        {
            return Err(Diag::new(
                "cspi::data::grid",
                format!("a {n}×{n} grid needs its own symbols"),
            )
            .label(span, "here")
            .help("pass them as the third argument: grid(text, N, \"ABC...\")"));
        }
        let n = n as usize;
        if let (Some(s), Some((_, s_span))) = (symbols.as_deref(), args.get(2)) {
            check_symbols(s, n, *s_span)?;
        }
        self.spend((n * n) as u64, span)?;
        let alphabet: Vec<char> = match symbols.as_deref() {
            Some(s) if !s.is_empty() => s.chars().collect(),
            _ if n <= 9 => DEFAULT_SYMBOLS.chars().take(9).collect(),
            _ => DEFAULT_SYMBOLS.chars().take(n).collect(),
        };
        let mut items = Vec::with_capacity(n * n);
        for (i, c) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let value = if matches!(c, '.' | '0' | '_') {
                0
            } else {
                let pos = alphabet
                    .iter()
                    .position(|&a| a == c || a.eq_ignore_ascii_case(&c));
                match pos {
                    Some(p) if p < n => p as i64 + 1,
                    _ => {
                        return Err(Diag::new(
                            "cspi::data::grid",
                            format!(
                                "symbol `{c}` at position {} is not a value of a {n}×{n} grid",
                                i + 1
                            ),
                        )
                        .label(span, "in this grid")
                        .help(format!(
                            "blanks are `.`, `0` or `_`; values are {}",
                            alphabet.iter().take(n).collect::<String>()
                        )));
                    }
                }
            };
            items.push(Value::Int(value));
        }
        if items.len() != n * n {
            return Err(Diag::new(
                "cspi::data::grid",
                format!(
                    "the puzzle has {} cells, a {n}×{n} grid needs {}",
                    items.len(),
                    n * n
                ),
            )
            .label(span, "this grid")
            .help("write one symbol per cell, row by row; whitespace is ignored"));
        }
        Ok(Value::Array(Rc::new(Array::new(
            vec![(1, n as i64), (1, n as i64)],
            items,
        ))))
    }
}

/// The symbols of a `grid`: one per value 1..N, distinct (letters compared
/// without case, as the grid's text is), and none a blank or a space.
fn check_symbols(symbols: &str, n: usize, span: Span) -> Result<(), Diag> {
    let bad = |message: String| {
        Diag::new("cspi::data::grid", message)
            .label(span, "these symbols")
            .help(format!(
                "give {n} distinct symbols, one for each value 1..{n}, such as \"123456789\""
            ))
    };
    if symbols.is_empty() {
        return Ok(());
    }
    let chars: Vec<char> = symbols.chars().collect();
    if let Some(c) = chars
        .iter()
        .find(|c| matches!(c, '.' | '0' | '_') || c.is_whitespace())
    {
        return Err(bad(format!(
            "`{}` cannot be a symbol: it marks a blank",
            c.escape_debug()
        )));
    }
    for (i, a) in chars.iter().enumerate() {
        if chars[..i]
            .iter()
            .any(|b| b.to_lowercase().eq(a.to_lowercase()))
        {
            return Err(bad(format!("the symbol `{a}` appears twice")));
        }
    }
    if chars.len() < n {
        return Err(bad(format!(
            "a {n}×{n} grid needs {n} symbols, and these are {}",
            chars.len()
        )));
    }
    Ok(())
}
