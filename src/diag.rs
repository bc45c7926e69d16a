//! User-facing errors: one diagnostic type with a code, a message, labelled
//! spans in a source (the model or a data file) and a help line.
//!
//! The front end collects every error it can before giving up; the engine never
//! produces user-facing errors.

use crate::syntax::ast::Span;
use miette::{Diagnostic, LabeledSpan, SourceCode};
use std::fmt;
use std::sync::Arc;

/// A text that diagnostics can point into: the model file or a data file.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        Source {
            name: name.into(),
            text: text.into(),
        }
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
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
    pub source: Option<Source>,
    /// Whether the fault lies in the command line rather than the model.
    pub usage: bool,
    /// A warning (`cspi check`): the model is valid but probably not meant.
    pub warning: bool,
}

impl Diag {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
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
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push((span, text.into()));
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn in_source(mut self, source: &Source) -> Self {
        if self.source.is_none() {
            self.source = Some(source.clone());
        }
        self
    }
    pub fn usage(mut self) -> Self {
        self.usage = true;
        self
    }
    pub fn warning(mut self) -> Self {
        self.warning = true;
        self
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
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
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() || self.source.is_none() {
            return None;
        }
        let len = self.source.as_ref().map_or(0, |s| s.text.len());
        Some(Box::new(self.labels.iter().map(move |(span, text)| {
            let start = span.start.min(len);
            let end = span.end.clamp(start, len);
            LabeledSpan::new_with_span(Some(text.clone()), (start, end - start))
        })))
    }
}

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Several diagnostics, reported together.
#[derive(Debug, Clone, Default)]
pub struct Diags(pub Vec<Diag>);

impl Diags {
    pub fn push(&mut self, d: Diag) {
        self.0.push(d);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Usage errors exit with 2, model errors with 1.
    pub fn exit_code(&self) -> i32 {
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
