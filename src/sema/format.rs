//! Formatted text: `"queen in row \(i): column \(q[i])"`.
//!
//! Each interpolated value is written the way the language writes it:
//! integers in decimal, `true`/`false`, enum members and words by name,
//! arrays as `[a, b]`, sets as `{a, b}`, tuples as `(a, b)`, records as
//! `(name: v, ...)`. Parts known at load time become text at once; parts
//! that depend on variables stay [`FormatPiece::Value`]s and are written
//! from each solution, so a string without variables is a plain string and
//! one with variables is a [`Value::Format`], usable in `output`.

use super::Checker;
use super::value::{IntSet, Value};
use crate::diag::Diag;
use crate::model::{EnumType, FormatPiece};
use crate::syntax::ast::{FmtPart, Span};
use std::rc::Rc;

/// Pieces with adjacent texts merged.
#[derive(Default)]
pub(super) struct Pieces(pub Vec<FormatPiece>);

impl Pieces {
    fn text(&mut self, t: &str) {
        if let Some(FormatPiece::Text(last)) = self.0.last_mut() {
            last.push_str(t);
        } else if !t.is_empty() {
            self.0.push(FormatPiece::Text(t.to_string()));
        }
    }

    /// The value: a plain string when nothing depends on the solution.
    pub(super) fn into_value(self) -> Value {
        match self.0.as_slice() {
            [] => Value::Str("".into()),
            [FormatPiece::Text(t)] => Value::Str(t.as_str().into()),
            _ => Value::Format(Rc::new(self.0)),
        }
    }
}

impl Checker<'_> {
    /// `"... \(e) ..."`.
    pub(super) fn format(&mut self, parts: &[FmtPart]) -> Result<Value, Diag> {
        let mut out = Pieces::default();
        for part in parts {
            match part {
                FmtPart::Text(t) => out.text(t),
                FmtPart::Expr(e) => {
                    let v = self.eval(e)?;
                    if matches!(v, Value::Poison) {
                        return Ok(Value::Poison);
                    }
                    self.write_value(&v, &mut out, e.span, false)?;
                }
            }
        }
        Ok(out.into_value())
    }

    /// Appends how `v` is written; strings are written as they are at the
    /// top and quoted inside collections.
    pub(super) fn write_value(
        &self,
        v: &Value,
        out: &mut Pieces,
        span: Span,
        nested: bool,
    ) -> Result<(), Diag> {
        let list = |out: &mut Pieces, items: &mut dyn Iterator<Item = &Value>, open, close| {
            out.text(open);
            for (i, item) in items.enumerate() {
                if i > 0 {
                    out.text(", ");
                }
                self.write_value(item, out, span, true)?;
            }
            out.text(close);
            Ok::<(), Diag>(())
        };
        match v {
            Value::Int(k) => out.text(&k.to_string()),
            Value::Bool(b) => out.text(&b.to_string()),
            Value::Str(s) if nested => out.text(&format!("{s:?}")),
            Value::Str(s) => out.text(s),
            Value::Enum(e, k) => out.text(&e.member(*k)),
            Value::Set(s) => out.text(&set_text(s, None)),
            Value::EnumSet(e, s) => out.text(&set_text(s, Some(e))),
            Value::Array(a) => list(out, &mut a.items.iter(), "[", "]")?,
            Value::Tuple(t) => list(out, &mut t.iter(), "(", ")")?,
            Value::Record(r) => {
                out.text("(");
                for (i, (name, item)) in r.fields.iter().enumerate() {
                    if i > 0 {
                        out.text(", ");
                    }
                    out.text(&format!("{name}: "));
                    self.write_value(item, out, span, true)?;
                }
                out.text(")");
            }
            Value::Format(pieces) => {
                for p in pieces.iter() {
                    match p {
                        FormatPiece::Text(t) => out.text(t),
                        p => out.0.push(p.clone()),
                    }
                }
            }
            Value::Term(_) | Value::BoolTerm(_) | Value::Formula(_) => {
                let display = v.display(&self.model);
                let term = v.as_term().unwrap_or(crate::model::Term::Const(0));
                out.0.push(FormatPiece::Value(term, display));
            }
            Value::Poison => {}
            Value::SetVar(_) => {
                return Err(Diag::new(
                    "cspi::output",
                    "a set variable is written as text only in `output`",
                )
                .label(span, "a set over variables")
                .help("`output` writes it from each solution; elsewhere use card(s) or `x in s`"));
            }
            other => {
                return Err(Diag::new(
                    "cspi::type",
                    format!("cannot write {} as text", other.type_name()),
                )
                .label(span, "here")
                .help("text can show numbers, truth values, strings, enum values, variables, and arrays, sets, tuples and records of them"));
            }
        }
        Ok(())
    }
}

/// `{1, 3, 5}`, `1..9`, `{red, blue}`.
fn set_text(s: &IntSet, e: Option<&std::sync::Arc<EnumType>>) -> String {
    match (s, e) {
        (IntSet::Range(lo, hi), None) => format!("{lo}..{hi}"),
        _ => {
            let names: Vec<String> = s
                .iter()
                .take(1000)
                .map(|k| e.map_or_else(|| k.to_string(), |e| e.member(k)))
                .collect();
            let more = if s.len() > 1000 { ", ..." } else { "" };
            format!("{{{}{more}}}", names.join(", "))
        }
    }
}
