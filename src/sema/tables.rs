//! Table constraints and their data: `table(vars, rows)` and
//! `forbidden(vars, rows)`, with rows written inline (`[(1, 2), (2, 3)]`),
//! built by a comprehension, or read from a file by `read_table(path)`
//! (integers separated by commas, semicolons or whitespace, one row a line;
//! blank lines and `#` comments are skipped). A header line is skipped only
//! when the model says there is one, `read_table(path, "header")`: guessing
//! from the first row would silently drop a row whose first value is
//! unreadable, such as one behind a byte-order mark.

use super::Checker;
use super::value::{Array, Value};
use crate::diag::Diag;
use crate::formats::table;
use crate::model::{Formula, Term};
use crate::syntax::ast::Span;
use std::rc::Rc;
use std::sync::Arc;

/// How many converted arrays of rows are remembered.
const MEMO_ROWS: usize = 8;

impl Checker<'_> {
    /// `table(vars, rows)` (allowed) or `forbidden(vars, rows)`.
    pub(super) fn table_builtin(
        &mut self,
        args: &[(Value, Span)],
        allowed: bool,
        span: Span,
    ) -> Result<Value, Diag> {
        let what = if allowed { "table" } else { "forbidden" };
        let [(vars, vspan), (rows, rspan)] = args else {
            return Err(Diag::new(
                "cspi::call",
                format!(
                    "`{what}` takes the variables and the rows: {what}([x, y], [(1, 2), (2, 1)])"
                ),
            )
            .label(span, "here"));
        };
        let terms: Vec<Term> = self
            .flatten(vars, *vspan)?
            .iter()
            .map(|v| {
                v.as_term().ok_or_else(|| {
                    Diag::new(
                        "cspi::type",
                        format!(
                            "`{what}` needs integer variables or expressions, found {}",
                            v.type_name()
                        ),
                    )
                    .label(*vspan, "here")
                })
            })
            .collect::<Result<_, _>>()?;
        let tuples = self.rows(rows, *rspan, terms.len())?;
        // Constant folding: with every term known the constraint is decided now.
        let consts: Option<Vec<i64>> = terms.iter().map(Term::as_const).collect();
        if let Some(row) = consts {
            return Ok(Value::Bool(tuples.contains(&row) == allowed));
        }
        if tuples.is_empty() {
            return Ok(Value::Bool(!allowed));
        }
        Ok(Value::from_formula(Formula::Table {
            terms,
            tuples,
            allowed,
        }))
    }

    /// Rows of `arity` integers from a table value or a list of tuples/lists.
    pub(super) fn rows(
        &mut self,
        v: &Value,
        span: Span,
        arity: usize,
    ) -> Result<Arc<Vec<Vec<i64>>>, Diag> {
        let wrong = |i: usize, len: usize| {
            Diag::new(
                "cspi::table::arity",
                format!(
                    "row {} has {len} values but the table has {arity} variables",
                    i + 1
                ),
            )
            .label(span, "these rows")
        };
        match v {
            Value::Table(t) => {
                if let Some((i, r)) = t.iter().enumerate().find(|(_, r)| r.len() != arity) {
                    return Err(wrong(i, r.len()));
                }
                Ok(t.clone())
            }
            Value::Array(a) => {
                if let Some((_, rows)) = self.table_rows.iter().find(|(b, _)| Rc::ptr_eq(a, b))
                    && rows.first().is_none_or(|r| r.len() == arity)
                {
                    return Ok(rows.clone());
                }
                let rows = self.convert_rows(a, span, arity)?;
                // A few distinct arrays of rows at most: keep the latest ones.
                if self.table_rows.len() == MEMO_ROWS {
                    self.table_rows.remove(0);
                }
                self.table_rows.push((a.clone(), rows.clone()));
                Ok(rows)
            }
            other => Err(Diag::new(
                "cspi::type",
                format!(
                    "the rows of a table are a list of tuples or read_table(path), not {}",
                    other.type_name()
                ),
            )
            .label(span, "here")),
        }
    }

    /// The rows of an array of tuples (or lists), checked.
    fn convert_rows(
        &mut self,
        a: &Array,
        span: Span,
        arity: usize,
    ) -> Result<Arc<Vec<Vec<i64>>>, Diag> {
        let wrong = |i: usize, len: usize| {
            Diag::new(
                "cspi::table::arity",
                format!(
                    "row {} has {len} values but the table has {arity} variables",
                    i + 1
                ),
            )
            .label(span, "these rows")
        };
        self.spend((a.items.len() * arity) as u64, span)?;
        let mut out = Vec::with_capacity(a.items.len());
        for (i, item) in a.items.iter().enumerate() {
            let parts: Vec<Value> = match item {
                Value::Tuple(t) => t.to_vec(),
                Value::Array(r) => r.items.clone(),
                Value::Int(_) if arity == 1 => vec![item.clone()],
                other => {
                    return Err(Diag::new(
                        "cspi::table::row",
                        format!(
                            "row {} is {}, not a tuple of integers",
                            i + 1,
                            other.type_name()
                        ),
                    )
                    .label(span, "these rows"));
                }
            };
            if parts.len() != arity {
                return Err(wrong(i, parts.len()));
            }
            let row = parts
                .iter()
                .map(|p| match p {
                    Value::Int(k) => Ok(*k),
                    Value::Bool(b) => Ok(i64::from(*b)),
                    other => Err(Diag::new(
                        "cspi::table::row",
                        format!(
                            "row {} holds {}; rows hold known integers",
                            i + 1,
                            other.type_name()
                        ),
                    )
                    .label(span, "these rows")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.push(row);
        }
        Ok(Arc::new(out))
    }

    /// `read_table(path)` or `read_table(path, "header")`: a file of integer rows.
    pub(super) fn read_table_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = || {
            Diag::new(
                "cspi::call",
                "read_table(path) takes the path of a file of integer rows",
            )
            .label(span, "here")
            .help("if the file's first line is a header, say so: read_table(path, \"header\")")
        };
        let (path, pspan, header) = match args {
            [(Value::Str(path), pspan)] => (path, pspan, false),
            [(Value::Str(path), pspan), (Value::Str(opt), _)] if &**opt == "header" => {
                (path, pspan, true)
            }
            [_, (other, ospan)] if matches!(args[0].0, Value::Str(_)) => {
                return Err(Diag::new(
                    "cspi::call",
                    format!(
                        "the second argument of read_table is the option \"header\", not {}",
                        match other {
                            Value::Str(s) => format!("\"{}\"", crate::reader::shorten(s, 40)),
                            v => v.type_name().to_string(),
                        }
                    ),
                )
                .label(*ospan, "here")
                .help(
                    "write read_table(path, \"header\") when the file's first line is a header",
                ));
            }
            _ => return Err(usage()),
        };
        let source = self.read_file(path, *pspan)?;
        let rows = self.parse_paced(&source, |go_on| table::read_table(&source, header, go_on))?;
        let arity = rows.first().map_or(0, Vec::len);
        self.spend((rows.len() * arity) as u64, span)?;
        Ok(Value::Table(Arc::new(rows)))
    }

    /// `read_ints(path)`: every integer of a file in order, as a list;
    /// whitespace and commas separate them, `#` starts a comment to the end
    /// of the line (instance files such as the job-shop benchmarks).
    pub(super) fn read_ints_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let [(Value::Str(path), pspan)] = args else {
            return Err(
                Diag::new("cspi::call", "read_ints(path) takes one string").label(span, "here")
            );
        };
        let source = self.read_file(path, *pspan)?;
        let out: Vec<Value> = self
            .parse_paced(&source, |go_on| table::read_ints(&source, go_on))?
            .into_iter()
            .map(Value::Int)
            .collect();
        self.spend(out.len() as u64, span)?;
        Ok(Value::Array(Rc::new(Array::list(out))))
    }

    /// `digits(text)`: the decimal digits of a string, in order, as a list.
    pub(super) fn digits_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let [(Value::Str(s), sspan)] = args else {
            return Err(
                Diag::new("cspi::call", "digits(text) takes one string").label(span, "here")
            );
        };
        let mut out = Vec::new();
        for c in s.chars().filter(|c| !c.is_whitespace()) {
            let Some(d) = c.to_digit(10) else {
                return Err(
                    Diag::new("cspi::data::digits", format!("`{c}` is not a digit"))
                        .label(*sspan, "in this string")
                        .help(
                            "digits(text) reads a string of decimal digits such as \"123456780\"",
                        ),
                );
            };
            out.push(Value::Int(i64::from(d)));
        }
        self.spend(out.len() as u64, span)?;
        Ok(Value::Array(Rc::new(Array::list(out))))
    }
}
