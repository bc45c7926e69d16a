//! JSON data with the position of every value, so that a diagnostic about a
//! value in a data file points at it.
//!
//! A small parser of our own (RFC 8259): serde_json gives no positions but
//! through borrowed `RawValue`s, and parsing each level into raw items and
//! each item again cost a pass per nesting level, quadratic time on deeply
//! nested arrays (200 KB took 83 s). This one reads every byte once, refuses
//! nesting deeper than [`MAX_DEPTH`], and calls the caller's check every
//! [`CHECK_EVERY`] values, so that the time limit, the stop flag and
//! `--memory-limit` hold while a large file is parsed.

use super::{CHECK_EVERY, GoOn, STOPPED};
use crate::source::Span;

/// The deepest nesting of arrays and objects a JSON value may have: data
/// nests two or three deep, and the checker walks values recursively.
pub(crate) const MAX_DEPTH: usize = 256;

/// A JSON value and where it is.
#[derive(Debug)]
pub(crate) struct Node {
    pub span: Span,
    pub kind: Kind,
}

#[derive(Debug)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Int(i64),
    /// A number that is not a 64-bit integer (a fraction, an exponent, too large).
    Number,
    Str(String),
    Array(Vec<Node>),
    /// Members in the order written, each with the span of its key.
    Object(Vec<(String, Span, Node)>),
}

impl Kind {
    pub(crate) fn what(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Int(_) => "an integer",
            Kind::Number => "a number that is not a 64-bit integer",
            Kind::Str(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }
}

impl Node {
    /// The value of member `key` of an object (the last, when written
    /// twice, as serde_json reads it); `None` for a missing key or a
    /// value that is not an object.
    pub(crate) fn member(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            Kind::Object(members) => members.iter().rev().find(|m| m.0 == key).map(|m| &m.2),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self.kind {
            Kind::Int(n) => u64::try_from(n).ok(),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// A syntax error: where, and what; or that the caller's check stopped
/// the parse (time, memory, signal: the caller knows which).
pub(crate) struct ParseError {
    pub span: Span,
    pub message: String,
}

/// Counts one more value read at byte `at`; every [`CHECK_EVERY`]th asks
/// `check` whether to go on, and a no stops the parse. JSON and `.dzn`
/// (`dzn.rs`) pace their parses with it.
pub(super) fn count_value(values: &mut u64, at: usize, check: GoOn) -> Result<(), ParseError> {
    *values += 1;
    if values.is_multiple_of(CHECK_EVERY as u64) && !check(Span::new(at, at)) {
        return Err(ParseError {
            span: Span::new(at, at),
            message: STOPPED.to_string(),
        });
    }
    Ok(())
}

/// Parses a whole JSON text.
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Result<Node, ParseError> {
    parse_checked(text, &mut |_| true)
}

/// Parses a whole JSON text, calling `check` with the current span every
/// few thousand values; when it says no (`false`), the parse stops.
pub(crate) fn parse_checked(text: &str, check: GoOn) -> Result<Node, ParseError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        values: 0,
        check,
    };
    p.blank();
    let node = p.value(0)?;
    p.blank();
    if p.at < p.bytes.len() {
        return Err(p.fail("trailing characters"));
    }
    Ok(node)
}

struct Parser<'t, 'c> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    values: u64,
    check: &'c mut dyn FnMut(Span) -> bool,
}

impl Parser<'_, '_> {
    /// An error on the character at the current position.
    fn fail(&self, message: &str) -> ParseError {
        // At the end of the text, the last character is blamed.
        let mut at = self.at.min(self.text.len());
        if at == self.text.len() && at > 0 {
            at -= 1;
            while !self.text.is_char_boundary(at) {
                at -= 1;
            }
        }
        let mut end = (at + 1).min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        ParseError {
            span: Span::new(at, end),
            message: message.to_string(),
        }
    }

    fn eof_or(&self, message: &str, eof: &str) -> ParseError {
        if self.at >= self.bytes.len() {
            self.fail(eof)
        } else {
            self.fail(message)
        }
    }

    fn blank(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        count_value(&mut self.values, self.at, self.check)?;
        let start = self.at;
        let kind = match self.bytes.get(self.at) {
            None => return Err(self.fail("EOF while parsing a value")),
            Some(b'[') | Some(b'{') if depth >= MAX_DEPTH => {
                return Err(self.fail(&format!(
                    "arrays and objects nest more than {MAX_DEPTH} deep"
                )));
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.blank();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                } else {
                    loop {
                        self.blank();
                        items.push(self.value(depth + 1)?);
                        self.blank();
                        match self.bytes.get(self.at) {
                            Some(b',') => self.at += 1,
                            Some(b']') => {
                                self.at += 1;
                                break;
                            }
                            _ => {
                                return Err(
                                    self.eof_or("expected `,` or `]`", "EOF while parsing a list")
                                );
                            }
                        }
                    }
                }
                Kind::Array(items)
            }
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                self.blank();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.blank();
                        if self.bytes.get(self.at) != Some(&b'"') {
                            return Err(
                                self.eof_or("key must be a string", "EOF while parsing an object")
                            );
                        }
                        let key_start = self.at;
                        let key = self.string()?;
                        let key_span = Span::new(key_start, self.at);
                        self.blank();
                        if self.bytes.get(self.at) != Some(&b':') {
                            return Err(self.eof_or("expected `:`", "EOF while parsing an object"));
                        }
                        self.at += 1;
                        self.blank();
                        let value = self.value(depth + 1)?;
                        members.push((key, key_span, value));
                        self.blank();
                        match self.bytes.get(self.at) {
                            Some(b',') => self.at += 1,
                            Some(b'}') => {
                                self.at += 1;
                                break;
                            }
                            _ => {
                                return Err(self
                                    .eof_or("expected `,` or `}`", "EOF while parsing an object"));
                            }
                        }
                    }
                }
                Kind::Object(members)
            }
            Some(b'"') => Kind::Str(self.string()?),
            Some(b't') => self.word("true", Kind::Bool(true))?,
            Some(b'f') => self.word("false", Kind::Bool(false))?,
            Some(b'n') => self.word("null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.fail("expected value")),
        };
        Ok(Node {
            span: Span::new(start, self.at),
            kind,
        })
    }

    fn word(&mut self, word: &str, kind: Kind) -> Result<Kind, ParseError> {
        for &b in word.as_bytes() {
            if self.bytes.get(self.at) != Some(&b) {
                return Err(self.eof_or("expected ident", "EOF while parsing a value"));
            }
            self.at += 1;
        }
        Ok(kind)
    }

    fn digits(&mut self) -> usize {
        let from = self.at;
        while let Some(b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
        self.at - from
    }

    fn number(&mut self) -> Result<Kind, ParseError> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        let first = self.at;
        if self.digits() == 0 {
            return Err(self.fail("invalid number"));
        }
        if self.bytes[first] == b'0' && self.at - first > 1 {
            self.at = first + 1;
            return Err(self.fail("invalid number"));
        }
        let mut integer = true;
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.fail("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            integer = false;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.fail("invalid number"));
            }
        }
        let written = &self.text[start..self.at];
        Ok(match written.parse::<i64>() {
            Ok(k) if integer => Kind::Int(k),
            _ => Kind::Number,
        })
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut v = 0;
        for _ in 0..4 {
            let d = match self.bytes.get(self.at) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(self.fail("EOF while parsing a string")),
            };
            let Some(d) = d else {
                return Err(self.fail("invalid escape"));
            };
            v = v * 16 + d;
            self.at += 1;
        }
        Ok(v)
    }

    /// A string at the current `"`, its escapes decoded.
    fn string(&mut self) -> Result<String, ParseError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[run..self.at]);
            match self.bytes.get(self.at) {
                None => return Err(self.fail("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = match self.bytes.get(self.at) {
                        None => return Err(self.fail("EOF while parsing a string")),
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                                    return Err(self.fail("lone leading surrogate in hex escape"));
                                }
                                self.at += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.fail("lone leading surrogate in hex escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(c) => out.push(c),
                                None => return Err(self.fail("invalid unicode code point")),
                            }
                            continue;
                        }
                        Some(_) => return Err(self.fail("invalid escape")),
                    };
                    self.at += 1;
                    out.push(c);
                }
                Some(_) => {
                    return Err(self
                        .fail("control character (\\u0000-\\u001F) found while parsing a string"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_at(text: &str, s: Span) -> &str {
        &text[s.start..s.end]
    }

    #[test]
    fn every_value_knows_its_span() {
        let text = "{ \"n\": 3,\n  \"d\" : [1, -2, {\"a\": \"x\"}], \"f\": 2.5 }";
        let root = parse(text).ok().expect("parses");
        let Kind::Object(members) = &root.kind else {
            panic!("an object")
        };
        assert_eq!(members.len(), 3);
        assert_eq!(text_at(text, members[0].1), "\"n\"");
        assert_eq!(text_at(text, members[0].2.span), "3");
        assert_eq!(text_at(text, members[1].1), "\"d\"");
        let Kind::Array(items) = &members[1].2.kind else {
            panic!("an array")
        };
        assert_eq!(text_at(text, items[1].span), "-2");
        assert!(matches!(items[1].kind, Kind::Int(-2)));
        assert_eq!(text_at(text, items[2].span), "{\"a\": \"x\"}");
        assert!(matches!(members[2].2.kind, Kind::Number));
    }

    #[test]
    fn syntax_errors_point_at_the_fault() {
        let text = "{\"a\": [1, 2,, 3]}";
        let e = parse(text).expect_err("an error");
        assert_eq!(&text[e.span.start..e.span.end], ",");
        assert!(!e.message.contains("line"), "{}", e.message);
    }
}

#[cfg(test)]
pub(super) mod more_tests {
    use super::*;

    #[test]
    fn strings_numbers_and_words() {
        let text = r#"["a\"b\u00e9\ud83d\ude00", -0, 12, 1.5, 1e3, 99999999999999999999, true, false, null]"#;
        let root = parse(text).ok().expect("parses");
        let Kind::Array(items) = root.kind else {
            panic!("an array")
        };
        assert!(matches!(&items[0].kind, Kind::Str(s) if s == "a\"b\u{e9}\u{1f600}"));
        assert!(matches!(items[1].kind, Kind::Int(0)));
        assert!(matches!(items[2].kind, Kind::Int(12)));
        assert!(matches!(items[3].kind, Kind::Number));
        assert!(matches!(items[4].kind, Kind::Number));
        assert!(matches!(items[5].kind, Kind::Number));
        assert!(matches!(items[6].kind, Kind::Bool(true)));
        assert!(matches!(items[8].kind, Kind::Null));
    }

    #[test]
    fn malformed_texts_are_refused() {
        for bad in [
            "",
            "[",
            "[1,]",
            "{\"a\" 1}",
            "{1: 2}",
            "01",
            "1.",
            "-",
            "tru",
            "\"a",
            "\"\\x\"",
            "\"\u{1}\"",
            "[1] 2",
            "\"\\ud800\"",
            "{\"a\": 1,}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn nesting_is_capped_and_linear() {
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let Err(e) = parse(&deep) else {
            panic!("refused")
        };
        assert!(e.message.contains("nest"), "{}", e.message);
        assert_eq!(e.span.start, MAX_DEPTH);
    }

    /// A parse of a long text whose check says no at its third call stops
    /// there, and goes through when the check always says yes (also for
    /// `dzn.rs`).
    pub(in crate::formats) fn assert_the_check_stops(
        text: &str,
        parse: impl Fn(&str, GoOn) -> Result<Node, ParseError>,
    ) {
        let mut calls = 0;
        let Err(e) = parse(text, &mut |_| {
            calls += 1;
            calls < 3
        }) else {
            panic!("stopped")
        };
        assert_eq!(e.message, STOPPED);
        assert_eq!(calls, 3);
        assert!(parse(text, &mut |_| true).is_ok());
    }

    #[test]
    fn the_check_stops_a_long_parse() {
        assert_the_check_stops(&format!("[{}1]", "1,".repeat(100_000)), parse_checked);
    }
}
