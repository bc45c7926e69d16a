//! Files of integers: `read_table(path)`'s rows (integers separated by
//! commas, semicolons or whitespace, one row a line; blank lines and `#`
//! comments skipped; a header line skipped only when the model says so)
//! and `read_ints(path)`'s flat list (whitespace or commas between them,
//! `#` to the end of the line a comment).

use super::{Error, GoOn, pace, parse_int};
use crate::source::{Source, Span};

/// The rows of a table file, all of one length; `header`: the first row
/// that is not blank is a header, skipped. `go_on` is asked every
/// [`super::CHECK_EVERY`] lines.
pub(crate) fn read_table(
    source: &Source,
    mut header: bool,
    go_on: GoOn,
) -> Result<Vec<Vec<i64>>, Error> {
    let text = &source.text;
    let mut rows: Vec<Vec<i64>> = Vec::new();
    let mut arity = None;
    let mut offset = 0usize;
    // Lines numbered as they are read: counting the newlines before each
    // row made a file of n rows take time in n squared.
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        pace(go_on, index, start)?;
        let line_number = index + 1;
        let body = line.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let fields: Vec<&str> = body
            .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|f| !f.is_empty())
            .collect();
        let parsed: Option<Vec<i64>> = fields.iter().map(|f| parse_int(f)).collect();
        let here = Span::new(start, start + line.trim_end().len());
        if header {
            header = false;
            continue;
        }
        let row = match parsed {
            Some(r) => r,
            None => {
                let bad = fields
                    .iter()
                    .find(|f| parse_int(f).is_none())
                    .unwrap_or(&"");
                return Err(Error::new(
                    "cspi::data::table",
                    format!(
                        "`{}` is not an integer (line {line_number})",
                        crate::reader::shorten(bad, 40)
                    ),
                )
                .label(here, "in this row")
                .help(if rows.is_empty() {
                    "table files hold integers separated by commas or whitespace, one row per line; \
                     if this line is a header, write read_table(path, \"header\")"
                } else {
                    "table files hold integers separated by commas or whitespace, one row per line"
                })
                );
            }
        };
        match arity {
            None => arity = Some(row.len()),
            Some(n) if n != row.len() => {
                return Err(Error::new(
                    "cspi::data::table",
                    format!(
                        "this row has {} values, the first had {n} (line {line_number})",
                        row.len(),
                    ),
                )
                .label(here, "here"));
            }
            _ => {}
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Every integer of a file of integers, in order; `go_on` is asked every
/// [`super::CHECK_EVERY`] lines.
pub(crate) fn read_ints(source: &Source, go_on: GoOn) -> Result<Vec<i64>, Error> {
    let text = &source.text;
    let mut out = Vec::new();
    let mut offset = 0usize;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        pace(go_on, index, start)?;
        let body = line.split('#').next().unwrap_or("");
        let mut at = start;
        for field in body.split_inclusive(|c: char| c == ',' || c.is_whitespace()) {
            let here = at;
            at += field.len();
            let f = field.trim_end_matches(|c: char| c == ',' || c.is_whitespace());
            if f.is_empty() {
                continue;
            }
            let Some(k) = parse_int(f) else {
                return Err(Error::new(
                    "cspi::data::ints",
                    format!(
                        "`{f}` is not an integer (line {})",
                        text[..start].matches('\n').count() + 1
                    ),
                )
                .label(Span::new(here, here + f.len()), "here")
                .help("read_ints(path) reads integers separated by whitespace or commas; `#` starts a comment")
                );
            };
            out.push(k);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> Source {
        Source::new("t.csv", text)
    }

    #[test]
    fn rows_with_comments_blank_lines_and_a_header() {
        let text = "a,b\n1, 2\n\n# note\n3;4 # end\n-5 6\n";
        let rows = read_table(&src(text), true, &mut |_| true).unwrap();
        assert_eq!(rows, vec![vec![1, 2], vec![3, 4], vec![-5, 6]]);
        let e = read_table(&src(text), false, &mut |_| true).err().unwrap();
        assert!(
            e.message.contains("`a` is not an integer (line 1)"),
            "{}",
            e.message
        );
        assert!(e.help.is_some_and(|h| h.contains("header")));
        assert_eq!(e.labels[0].0, Span::new(0, 3));
    }

    #[test]
    fn rows_of_different_lengths_are_refused_at_their_line() {
        let e = read_table(&src("1 2\n3 4 5\n"), false, &mut |_| true)
            .err()
            .unwrap();
        assert!(
            e.message.contains("3 values, the first had 2 (line 2)"),
            "{}",
            e.message
        );
        assert_eq!(e.labels[0].0, Span::new(4, 9));
    }

    #[test]
    fn ints_in_order_with_their_spans() {
        assert_eq!(
            read_ints(&src("1, 2 3\n# c 9\n1_000 -4 # x\n"), &mut |_| true).unwrap(),
            vec![1, 2, 3, 1000, -4]
        );
        let e = read_ints(&src("1 2\n3 x4\n"), &mut |_| true).err().unwrap();
        assert!(
            e.message.contains("`x4` is not an integer (line 2)"),
            "{}",
            e.message
        );
        assert_eq!(e.labels[0].0, Span::new(6, 8));
    }
}
