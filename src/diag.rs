//! User-facing errors: one diagnostic type with a code, a message, labelled
//! spans in a source (the model or a data file) and a help line.
//!
//! The front end collects every error it can before giving up; the engine never
//! produces user-facing errors.

pub use crate::source::Source;
use crate::source::Span;
use miette::{Diagnostic, LabeledSpan, SourceCode, SourceSpan};
use std::fmt;

impl From<Span> for SourceSpan {
    fn from(s: Span) -> SourceSpan {
        (s.start, s.end.saturating_sub(s.start)).into()
    }
}

/// Exit codes, documented in README.md and docs/cli.md.
pub mod exit {
    /// Solved, or proved unsatisfiable: an answer either way.
    pub const OK: i32 = 0;
    /// The model or one of its data files is wrong.
    pub const MODEL_ERROR: i32 = 1;
    /// The command line is wrong (unknown flag, bad `--param`).
    pub const USAGE: i32 = 2;
    /// A bug in cspi: a panic or a failed self-check.
    pub const INTERNAL: i32 = 3;
    /// The results could not be written: a full disk, a closed stdout.
    pub const OUTPUT: i32 = 4;
    /// Stopped by SIGINT (Ctrl-C); SIGTERM gives 143 (128 + the signal's number).
    pub const INTERRUPTED: i32 = 130;
}

#[derive(Debug, Clone)]
pub struct Diag {
    /// Stable identifier such as `cspi::name::unknown`.
    pub code: &'static str,
    pub message: String,
    pub(crate) labels: Vec<(Span, String)>,
    pub(crate) help: Option<String>,
    pub(crate) source: Option<Source>,
    /// Whether the fault lies in the command line rather than the model.
    pub(crate) usage: bool,
    /// A warning (`cspi check`): the model is valid but probably not meant.
    pub(crate) warning: bool,
}

impl Diag {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Diag {
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            source: None,
            usage: false,
            warning: false,
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
    pub(crate) fn in_source(mut self, source: &Source) -> Self {
        if self.source.is_none() {
            self.source = Some(source.clone());
        }
        self
    }
    pub(crate) fn usage(mut self) -> Self {
        self.usage = true;
        self
    }
    pub(crate) fn warning(mut self) -> Self {
        self.warning = true;
        self
    }
}

/// Characters a terminal may act on rather than draw: control characters
/// (C0 but line breaks and tabs, DEL, C1) and the bidirectional overrides
/// that reorder a line on screen.
fn acts_on_terminal(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character a terminal would act on written as an escape
/// (`\u{1b}`), so that a data file with escape sequences cannot retitle or
/// clear the terminal of the person reading the diagnostic.
pub(crate) fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts_on_terminal(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out.into()
}

impl Diag {
    /// This diagnostic ready to be drawn on a terminal: message, labels,
    /// help and the source excerpt with [`escaped`] characters, the labels'
    /// spans moved to match. Borrowed when nothing needs escaping.
    pub(crate) fn printable(&self) -> std::borrow::Cow<'_, Diag> {
        let text_ok = self
            .source
            .as_ref()
            .is_none_or(|s| !s.text.chars().any(acts_on_terminal));
        let plain = |t: &str| !t.chars().any(acts_on_terminal);
        if text_ok
            && plain(&self.message)
            && self.help.as_deref().is_none_or(plain)
            && self.labels.iter().all(|(_, l)| plain(l))
        {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut d = self.clone();
        d.message = escaped(&d.message).into_owned();
        d.help = d.help.map(|h| escaped(&h).into_owned());
        for (_, l) in &mut d.labels {
            *l = escaped(l).into_owned();
        }
        if let Some(source) = &self.source
            && !text_ok
        {
            // Where each escaped character was, and how many bytes its
            // escape added: a span moves by the bytes added before it.
            let mut grown: Vec<(usize, usize)> = Vec::new();
            let mut added = 0;
            for (at, c) in source.text.char_indices() {
                if acts_on_terminal(c) {
                    added += c.escape_unicode().count() - c.len_utf8();
                    grown.push((at, added));
                }
            }
            let moved = |at: usize| {
                let k = grown.partition_point(|&(p, _)| p < at);
                at + k.checked_sub(1).map_or(0, |k| grown[k].1)
            };
            for (span, _) in &mut d.labels {
                *span = Span::new(moved(span.start), moved(span.end));
            }
            d.source = Some(Source::new(
                source.name.clone(),
                escaped(&source.text).into_owned(),
            ));
        }
        std::borrow::Cow::Owned(d)
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&capped(&self.message))
    }
}

/// "1 solution", "2 solutions".
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The most characters of a message, label or help line that are shown.
const MAX_TEXT: usize = 1000;

/// `text`, cut in the middle when it is longer than [`MAX_TEXT`] characters
/// (a name or value quoted from a huge input must not flood the terminal).
fn capped(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_TEXT {
        return text.into();
    }
    let count = text.chars().count();
    if count <= MAX_TEXT {
        return text.into();
    }
    let head: String = text.chars().take(MAX_TEXT / 2).collect();
    let tail: String = text.chars().skip(count - MAX_TEXT / 4).collect();
    format!(
        "{head}…({} characters left out)…{tail}",
        count - MAX_TEXT / 2 - MAX_TEXT / 4
    )
    .into()
}

impl std::error::Error for Diag {}

impl Diagnostic for Diag {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.warning {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(capped(h)) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source = self.source.as_ref()?;
        if self.labels.is_empty() {
            return None;
        }
        let text = source.text.as_bytes();
        Some(Box::new(self.labels.iter().map(move |(span, label)| {
            let (start, end) = clip_label(text, span.start, span.end);
            LabeledSpan::new_with_span(Some(capped(label).into_owned()), (start, end - start))
        })))
    }
}

// Rendering on any input. miette draws every line a label touches, whole,
// and pads with a width argument that panics past 65,535 columns: a label on
// column 100,000 of a line of brackets crashed it. So labels on long lines
// are cut to one block of [`BLOCK`] bytes and drawn in a window of whole
// blocks around them (every label is then wholly inside a window or wholly
// outside it), and a label over long lines or much text keeps its first line.

/// Lines up to this many bytes are drawn whole.
const LONG_LINE: usize = 240;
/// The grid on which long lines are cut into windows.
const BLOCK: usize = 80;
/// A label spanning more bytes than this (over several lines) keeps its first line.
const LONG_SPAN: usize = 4000;

fn is_break(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// The start and end (before its line break) of the line holding byte `at`.
fn line_around(text: &[u8], at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let start = text[..at]
        .iter()
        .rposition(|&b| is_break(b))
        .map_or(0, |i| i + 1);
    let end = text[at..]
        .iter()
        .position(|&b| is_break(b))
        .map_or(text.len(), |i| at + i);
    (start, end)
}

/// Where block `k` of the line `line_start..line_end` begins: moved back to
/// a character boundary, and never past the line's end.
fn block_start(text: &[u8], line_start: usize, line_end: usize, k: usize) -> usize {
    let mut at = line_start
        .saturating_add(k.saturating_mul(BLOCK))
        .min(line_end);
    // UTF-8 continuation bytes are 0b10xx_xxxx.
    while at > line_start && at < text.len() && text[at] & 0xC0 == 0x80 {
        at -= 1;
    }
    at
}

/// The block of the line that holds byte `at`: the last one starting at or before it.
fn block_of(text: &[u8], line_start: usize, line_end: usize, at: usize) -> usize {
    let mut k = (at - line_start) / BLOCK;
    while k > 0 && block_start(text, line_start, line_end, k) > at {
        k -= 1;
    }
    k
}

/// A label's span as drawn: clamped to the text, cut to its block on a long
/// line, and to its first line when it covers long lines or much text.
fn clip_label(text: &[u8], start: usize, end: usize) -> (usize, usize) {
    let len = text.len();
    let start = start.min(len);
    let end = end.clamp(start, len);
    let (ls, le) = line_around(text, start);
    if le - ls > LONG_LINE {
        let k = block_of(text, ls, le, start);
        let block_end = block_start(text, ls, le, k + 1);
        return (start, end.min(block_end).max(start));
    }
    if end > le {
        let covers_long_line = text[le..end]
            .split(|&b| is_break(b))
            .any(|line| line.len() > LONG_LINE);
        if covers_long_line || end - start > LONG_SPAN {
            return (start, le);
        }
    }
    (start, end)
}

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        let plain = (context_lines_before == 0 && context_lines_after == 0)
            || !inner
                .data()
                .split(|&b| is_break(b))
                .any(|line| line.len() > LONG_LINE);
        if plain {
            return Ok(Box::new(miette::MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                *inner.span(),
                inner.line(),
                inner.column(),
                inner.line_count(),
            )));
        }
        // A long line is involved: draw a window of the span's first line only.
        let text = self.text.as_bytes();
        let start = span.offset().min(text.len());
        let line = self.text.read_span(&(start, 0).into(), 0, 0)?.line();
        let (ls, le) = line_around(text, start);
        let (a, b) = if le - ls > LONG_LINE {
            let k = block_of(text, ls, le, start);
            (
                block_start(text, ls, le, k.saturating_sub(1)),
                block_start(text, ls, le, k + 2),
            )
        } else {
            (ls, le)
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            &text[a..b],
            (a, b - a).into(),
            line,
            a - ls,
            line,
        )))
    }
}

/// Several diagnostics, reported together.
#[derive(Debug, Clone, Default)]
pub struct Diags(pub Vec<Diag>);

impl Diags {
    pub(crate) fn push(&mut self, d: Diag) {
        self.0.push(d);
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Usage errors exit with 2, model errors with 1.
    pub(crate) fn exit_code(&self) -> i32 {
        if self.0.iter().any(|d| d.usage) {
            exit::USAGE
        } else {
            exit::MODEL_ERROR
        }
    }
}

impl From<Diag> for Diags {
    fn from(d: Diag) -> Self {
        Diags(vec![d])
    }
}

/// A line for the help of a file that is not there: the absolute path it was
/// looked for at, so it is plain which folder a relative path started from
/// (the model's folder, or the current directory).
pub(crate) fn looked_for(path: &std::path::Path) -> String {
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    format!("looked for {}", crate::reader::shown(&full))
}

/// `help`, and where the file was looked for when it is not there.
pub(crate) fn with_looked_for(
    help: String,
    refusal: &crate::reader::Refusal,
    path: &std::path::Path,
) -> String {
    match refusal {
        crate::reader::Refusal::NotFound => format!("{help}\n{}", looked_for(path)),
        _ => help,
    }
}

/// Suggests the closest of `candidates` to `name`, for "did you mean" help.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, c)| d <= (name.len().max(c.len()) / 3).max(1))
        // Ties go to the alphabetically first name, so that the suggestion
        // does not depend on the order of a hash set.
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// Edit distance counting an adjacent transposition as one edit (optimal
/// string alignment), so `mvr` is one step from `mrv`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// Width of diagnostics when not drawn for a terminal, so that logs and
/// the golden files of tests/ui do not depend on the terminal.
const PLAIN_WIDTH: usize = 100;

/// A diagnostic as plain text: no colour, no links, [`PLAIN_WIDTH`] columns.
pub fn render_plain(d: &Diag) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .with_width(PLAIN_WIDTH);
    let d = &*d.printable();
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        out = format!("error[{}]: {}\n", d.code, d.message);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod suggestion_tests {
    use super::did_you_mean;

    /// Suggestions do not depend on the order of the candidates (a hash
    /// set's order changes from run to run): ties go to the first name.
    #[test]
    fn suggestions_are_deterministic() {
        let names = ["cell", "call", "coll", "cull"];
        for k in 0..names.len() {
            let mut rotated = names.to_vec();
            rotated.rotate_left(k);
            assert_eq!(did_you_mean("cxll", rotated.iter().copied()), Some("call"));
            let mut reversed = rotated.clone();
            reversed.reverse();
            assert_eq!(did_you_mean("cxll", reversed.iter().copied()), Some("call"));
        }
        assert_eq!(did_you_mean("zzzzzz", names.iter().copied()), None);
    }
}
