//! The texts cspi reads and the places in them: a [`Source`] (the model or a
//! data file, by name) and a [`Span`] (a byte range). The syntax tree, the
//! model and the diagnostics all point into sources, so this module sits
//! below all of them and depends on nothing.

use std::sync::Arc;

/// A byte range in a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_covers_both_spans_in_either_order() {
        let (a, b) = (Span::new(3, 5), Span::new(8, 12));
        assert_eq!(a.to(b), Span::new(3, 12));
        assert_eq!(b.to(a), Span::new(3, 12));
        assert_eq!(Span::new(2, 9).to(Span::new(4, 5)), Span::new(2, 9));
    }
}
