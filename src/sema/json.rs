//! JSON data with the position of every value, so that a diagnostic about a
//! value in a data file points at it.
//!
//! serde_json does the parsing; spans come from its borrowed `RawValue`s,
//! which are slices of the text we parsed: a value's offset is where its
//! slice starts. Each level is parsed into raw items first and each item
//! again, which costs a pass per nesting level: data files nest two or three
//! deep.

use crate::syntax::ast::Span;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// A JSON value and where it is.
#[derive(Debug)]
pub struct Node {
    pub span: Span,
    pub kind: Kind,
}

#[derive(Debug)]
pub enum Kind {
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
    pub fn what(&self) -> &'static str {
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

/// A syntax error: where, and serde_json's message.
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

/// Parses a whole JSON text.
pub fn parse(text: &str) -> Result<Node, ParseError> {
    let raw: &RawValue = serde_json::from_str(text).map_err(|e| error(text, &e))?;
    node(text, raw)
}

fn error(text: &str, e: &serde_json::Error) -> ParseError {
    // serde_json counts lines from 1 and columns (bytes) from 1.
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (line_start + e.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let message = e.to_string();
    // serde_json ends its messages with " at line L column C": the span says it.
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message,
    };
    ParseError {
        span: Span::new(at, end),
        message,
    }
}

fn node(text: &str, raw: &RawValue) -> Result<Node, ParseError> {
    let s = raw.get().trim();
    let start = (s.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let span = Span::new(start, start + s.len());
    let fail = |e: serde_json::Error| ParseError {
        span,
        message: e.to_string(),
    };
    let kind = match s.as_bytes().first() {
        Some(b'{') => {
            let Entries(entries) = serde_json::from_str(s).map_err(fail)?;
            let mut members = Vec::with_capacity(entries.len());
            for (key, value) in entries {
                let value = node(text, value)?;
                let key_span = key_before(text, value.span.start);
                members.push((key, key_span, value));
            }
            Kind::Object(members)
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(s).map_err(fail)?;
            Kind::Array(
                items
                    .into_iter()
                    .map(|i| node(text, i))
                    .collect::<Result<_, _>>()?,
            )
        }
        Some(b'"') => Kind::Str(serde_json::from_str(s).map_err(fail)?),
        Some(b't') => Kind::Bool(true),
        Some(b'f') => Kind::Bool(false),
        Some(b'n') => Kind::Null,
        _ => match s.parse::<i64>() {
            Ok(k) => Kind::Int(k),
            Err(_) => Kind::Number,
        },
    };
    Ok(Node { span, kind })
}

/// The span of the key written before the value starting at `at`:
/// `"key" : value`, found by walking back over the colon.
fn key_before(text: &str, at: usize) -> Span {
    let before = text[..at].trim_end();
    let Some(before) = before.strip_suffix(':') else {
        return Span::new(at, at);
    };
    let before = before.trim_end();
    let end = before.len();
    let bytes = before.as_bytes();
    let mut i = end.saturating_sub(1);
    while i > 0 {
        i -= 1;
        if bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            return Span::new(i, end);
        }
    }
    Span::new(at, at)
}

/// Object members in order, duplicates kept (the checker reports them).
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Entries<'de>, M::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
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
