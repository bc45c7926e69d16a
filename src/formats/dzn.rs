//! MiniZinc data files (`.dzn`) for `--data`: `name = value;` items read
//! into the same spanned nodes as a JSON data file (`json.rs`), so that the
//! parameters of a `.csp` model take them the same way. Values: integers,
//! `true`/`false`, strings, arrays `[...]` (one dimension), two-dimensional
//! arrays `[| a, b | c, d |]` (rows), ranges `lo..hi` and sets `{...}` of
//! integers (as arrays of their members), and names (enum members, as
//! strings), and records `(name: value, ...)` (MiniZinc 2.7's record
//! literals, as JSON objects). `array2d(1..2, 1..3, [...])` is read as its
//! rows.

use super::GoOn;
use super::json::{Kind, Node, ParseError, count_value};
use crate::source::Span;

/// Parses a whole `.dzn` text into an object of its items, calling `check`
/// with the current span every few thousand values; when it says no
/// (`false`: a loading limit), the parse stops.
pub(crate) fn parse(text: &str, check: GoOn) -> Result<Node, ParseError> {
    let mut p = Parser {
        text,
        at: 0,
        values: 0,
        check,
    };
    let mut members = Vec::new();
    loop {
        p.skip();
        if p.at >= text.len() {
            break;
        }
        let start = p.at;
        let name = p
            .ident()
            .ok_or_else(|| p.error("expected `name = value;`"))?;
        let key = Span::new(start, p.at);
        p.expect("=")?;
        let value = p.value()?;
        p.skip();
        if p.at < text.len() {
            p.expect(";")?;
        }
        members.push((name, key, value));
    }
    Ok(Node {
        span: Span::new(0, text.len()),
        kind: Kind::Object(members),
    })
}

struct Parser<'t, 'c> {
    text: &'t str,
    at: usize,
    /// Values read so far, and the caller's check (see [`parse`]).
    values: u64,
    check: &'c mut dyn FnMut(Span) -> bool,
}

impl<'t> Parser<'t, '_> {
    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    /// Skips blanks and `%` comments.
    fn skip(&mut self) {
        loop {
            let r = self.rest();
            let trimmed = r.trim_start();
            self.at += r.len() - trimmed.len();
            if trimmed.starts_with('%') {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                self.at += trimmed.find("*/").map_or(trimmed.len(), |i| i + 2);
            } else {
                return;
            }
        }
    }

    fn error(&self, message: &str) -> ParseError {
        let end = (self.at + 1).min(self.text.len());
        ParseError {
            span: Span::new(self.at.min(end), end),
            message: message.to_string(),
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip();
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> Result<(), ParseError> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(&format!("expected `{token}`")))
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.skip();
        let r = self.rest();
        let n = r
            .char_indices()
            .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
            .map_or(r.len(), |(i, _)| i);
        if n == 0 {
            return None;
        }
        let s = r[..n].to_string();
        self.at += n;
        Some(s)
    }

    fn int(&mut self) -> Option<Result<i64, ParseError>> {
        self.skip();
        let r = self.rest();
        let neg = r.starts_with('-');
        let digits = r[usize::from(neg)..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(r.len() - usize::from(neg));
        if digits == 0 {
            return None;
        }
        let n = usize::from(neg) + digits;
        let parsed = r[..n].parse::<i64>();
        let start = self.at;
        self.at += n;
        Some(parsed.map_err(|_| ParseError {
            span: Span::new(start, self.at),
            message: "the integer does not fit in 64 bits".into(),
        }))
    }

    fn value(&mut self) -> Result<Node, ParseError> {
        self.skip();
        count_value(&mut self.values, self.at, self.check)?;
        let start = self.at;
        let node = |kind, p: &Self| Node {
            span: Span::new(start, p.at),
            kind,
        };
        if self.eat("[|") {
            let mut rows = Vec::new();
            let mut row = Vec::new();
            let mut row_start = self.at;
            loop {
                if self.eat("|]") {
                    break;
                }
                if self.eat("|") {
                    rows.push(Node {
                        span: Span::new(row_start, self.at),
                        kind: Kind::Array(std::mem::take(&mut row)),
                    });
                    row_start = self.at;
                    continue;
                }
                row.push(self.value()?);
                if !self.eat(",") && !self.rest().trim_start().starts_with('|') {
                    return Err(self.error("expected `,`, `|` or `|]` in a two-dimensional array"));
                }
            }
            if !row.is_empty() {
                rows.push(Node {
                    span: Span::new(row_start, self.at),
                    kind: Kind::Array(row),
                });
            }
            return Ok(node(Kind::Array(rows), self));
        }
        if self.eat("[") {
            let items = self.items("]")?;
            return Ok(node(Kind::Array(items), self));
        }
        if self.eat("{") {
            let items = self.items("}")?;
            return Ok(node(Kind::Array(items), self));
        }
        if self.eat("(") {
            return Ok(node(Kind::Object(self.fields()?), self));
        }
        if self.eat("\"") {
            let r = self.rest();
            let Some(end) = r.find('"') else {
                return Err(self.error("the string is never closed"));
            };
            let s = r[..end].to_string();
            self.at += end + 1;
            return Ok(node(Kind::Str(s), self));
        }
        if let Some(k) = self.int() {
            let k = k?;
            if self.eat("..") {
                let hi = self
                    .int()
                    .ok_or_else(|| self.error("expected the end of the range"))??;
                if hi as i128 - k as i128 > 1 << 24 {
                    return Err(self.error("the range is too large to list"));
                }
                let items = (k..=hi)
                    .map(|v| Node {
                        span: Span::new(start, self.at),
                        kind: Kind::Int(v),
                    })
                    .collect();
                return Ok(node(Kind::Array(items), self));
            }
            return Ok(node(Kind::Int(k), self));
        }
        if let Some(name) = self.ident() {
            match name.as_str() {
                "true" | "false" => return Ok(node(Kind::Bool(name == "true"), self)),
                "array1d" | "array2d" => return self.array_nd(start, name == "array2d"),
                _ => return Ok(node(Kind::Str(name), self)),
            }
        }
        Err(self
            .error("expected a value: an integer, true, false, a string, [...], {...} or lo..hi"))
    }

    /// `array1d(1..n, [...])` as its items, `array2d(r, c, [...])` as rows.
    fn array_nd(&mut self, start: usize, two: bool) -> Result<Node, ParseError> {
        self.expect("(")?;
        let first = self.value()?;
        let cols = if two {
            self.expect(",")?;
            match self.value()?.kind {
                Kind::Array(v) => v.len(),
                _ => return Err(self.error("array2d takes two index ranges")),
            }
        } else {
            0
        };
        let _ = first;
        self.expect(",")?;
        let items = match self.value()?.kind {
            Kind::Array(v) => v,
            _ => return Err(self.error("expected the array's items")),
        };
        self.expect(")")?;
        let span = Span::new(start, self.at);
        if !two {
            return Ok(Node {
                span,
                kind: Kind::Array(items),
            });
        }
        if cols == 0 || items.len() % cols != 0 {
            return Err(self.error("array2d's items do not fill its rows"));
        }
        let mut rows = Vec::new();
        let mut it = items.into_iter();
        loop {
            let row: Vec<Node> = it.by_ref().take(cols).collect();
            if row.is_empty() {
                break;
            }
            rows.push(Node {
                span,
                kind: Kind::Array(row),
            });
        }
        Ok(Node {
            span,
            kind: Kind::Array(rows),
        })
    }

    /// A record's `name: value` fields, after its `(`, through its `)`.
    fn fields(&mut self) -> Result<Vec<(String, Span, Node)>, ParseError> {
        let mut fields = Vec::new();
        loop {
            if self.eat(")") {
                return Ok(fields);
            }
            self.skip();
            let start = self.at;
            let name = self
                .ident()
                .ok_or_else(|| self.error("expected a record field `name: value`"))?;
            let key = Span::new(start, self.at);
            self.expect(":")?;
            fields.push((name, key, self.value()?));
            if !self.eat(",") {
                self.expect(")")?;
                return Ok(fields);
            }
        }
    }

    fn items(&mut self, close: &str) -> Result<Vec<Node>, ParseError> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            items.push(self.value()?);
            if !self.eat(",") {
                self.expect(close)?;
                return Ok(items);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(n: &Node) -> String {
        match &n.kind {
            Kind::Int(k) => k.to_string(),
            Kind::Bool(b) => b.to_string(),
            Kind::Str(s) => format!("'{s}'"),
            Kind::Array(v) => format!("[{}]", v.iter().map(show).collect::<Vec<_>>().join(",")),
            Kind::Object(m) => {
                let fields: Vec<String> = m
                    .iter()
                    .map(|(k, _, v)| format!("{k}={}", show(v)))
                    .collect();
                format!("{{{}}}", fields.join(";"))
            }
            _ => "?".into(),
        }
    }

    #[test]
    fn reads_every_kind_of_value() {
        let text = "n = 3; % size\nb = true;\nname = \"ft06\";\nd = [3, -1, 2];\n\
            m = [| 1, 2 | 3, 4 |];\nr = 2..4;\ns = {1, 5};\ne = {red, blue};\n\
            a = array2d(1..2, 1..2, [5, 6, 7, 8]);\nlast = 1";
        let node = parse(text, &mut |_| true).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(
            show(&node),
            "{n=3;b=true;name='ft06';d=[3,-1,2];m=[[1,2],[3,4]];r=[2,3,4];s=[1,5];e=['red','blue'];a=[[5,6],[7,8]];last=1}"
        );
    }

    #[test]
    fn reads_records_as_objects() {
        let text = "job = (name: \"a\", d: [3, 4], at: (x: 1, y: -2));\nall = [(k: 1), (k: 2,)];";
        let node = parse(text, &mut |_| true).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(
            show(&node),
            "{job={name='a';d=[3,4];at={x=1;y=-2}};all=[{k=1},{k=2}]}"
        );
    }

    #[test]
    fn the_check_stops_a_long_parse() {
        let text = format!("d = [{}1];", "1,".repeat(100_000));
        crate::formats::json::more_tests::assert_the_check_stops(&text, parse);
    }

    #[test]
    fn errors_point_at_the_text() {
        for bad in [
            "n = ;",
            "n 3;",
            "m = [| 1, 2 | 3 ;",
            "s = \"open;",
            "r = (a 1);",
            "r = (a: 1;",
            "r = (1: 2);",
        ] {
            let e = parse(bad, &mut |_| true)
                .err()
                .unwrap_or_else(|| panic!("{bad} parsed"));
            assert!(e.span.start <= bad.len(), "{bad}");
        }
    }
}
