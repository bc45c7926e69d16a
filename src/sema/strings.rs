//! Building text and lists: `a ++ b` (strings and lists joined), `join(sep,
//! list)`, `concat(list)`, `show(x)`, `show_int(width, x)`, `format(width,
//! x)`, and the two built-ins that read a solution in output: `fix(x)` and
//! `follow(next, start)`.
//!
//! Text over variables (an interpolated string, `show(x)`) stays a
//! [`Value::Format`] written from each solution, so `"x = " ++ show(x)` works
//! wherever `"x = \(x)"` does. Widths and walks need the values themselves:
//! over variables they are known only after solving, so they are refused
//! at load time, and in `output` they are evaluated from each solution
//! (`output.rs`).

use super::Checker;
use super::format::Pieces;
use super::value::{Array, Value};
use crate::diag::Diag;
use crate::syntax::ast::Span;
use std::rc::Rc;

/// Whether `v` is data known at load time (no variable anywhere in it).
pub(super) fn is_fixed(v: &Value) -> bool {
    match v {
        Value::Term(_) | Value::BoolTerm(_) | Value::Formula(_) | Value::Format(_) => false,
        Value::Array(a) => a.items.iter().all(is_fixed),
        Value::Tuple(t) => t.iter().all(is_fixed),
        Value::Record(r) => r.fields.iter().all(|(_, v)| is_fixed(v)),
        _ => true,
    }
}

impl Checker<'_> {
    /// `a ++ b`: two texts joined, or two lists one after the other.
    pub(super) fn concat(&mut self, a: Value, b: Value, sa: Span, sb: Span) -> Result<Value, Diag> {
        let text = |v: &Value| matches!(v, Value::Str(_) | Value::Format(_));
        match (&a, &b) {
            (Value::Str(x), Value::Str(y)) => Ok(Value::Str(format!("{x}{y}").into())),
            _ if text(&a) && text(&b) => {
                let mut out = Pieces::default();
                self.write_value(&a, &mut out, sa, false)?;
                self.write_value(&b, &mut out, sb, false)?;
                Ok(out.into_value())
            }
            (Value::Array(x), Value::Array(y)) => {
                self.spend((x.items.len() + y.items.len()) as u64, sa.to(sb))?;
                let items = x.items.iter().chain(y.items.iter()).cloned().collect();
                Ok(Value::Array(Rc::new(Array::list(items))))
            }
            _ => Err(Diag::new(
                "cspi::type",
                format!("`++` cannot join {} and {}", a.type_name(), b.type_name()),
            )
            .label(sa, a.type_name())
            .label(sb, b.type_name())
            .help("`++` joins two strings or two lists; `\"\\(x)\"` or show(x) makes a string of a value")),
        }
    }

    /// The string built-ins, by name (entries of `builtins::BUILTINS`).
    pub(super) fn string_call(
        &mut self,
        name: &str,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = |form: &str| {
            Diag::new("cspi::call", format!("`{name}` is called as {form}"))
                .label(span, "here")
                .help("see docs/language.md, Strings")
        };
        match (name, args) {
            ("join", [(sep, ss), (list, ls)]) => {
                if !matches!(sep, Value::Str(_) | Value::Format(_)) {
                    return Err(Diag::new("cspi::type", "the separator of join is a string")
                        .label(*ss, sep.type_name()));
                }
                self.join(name, sep, *ss, list, *ls)
            }
            ("join", _) => Err(usage("join(separator, list of strings)")),
            ("concat", [(list, ls)]) => self.join(name, &Value::Str("".into()), span, list, *ls),
            ("concat", _) => Err(usage("concat(list of strings)")),
            ("show", [(v, s)]) => {
                let mut out = Pieces::default();
                self.write_value(v, &mut out, *s, false)?;
                Ok(out.into_value())
            }
            ("show", _) => Err(usage("show(value)")),
            ("show_int" | "format", [(w, ws), (v, vs)]) => {
                let Value::Int(width) = w else {
                    return Err(Diag::new("cspi::type", "a width is an integer")
                        .label(*ws, w.type_name())
                        .help("a positive width aligns right, a negative one left"));
                };
                if name == "show_int" && !matches!(v, Value::Int(_) | Value::Term(_)) {
                    return Err(Diag::new(
                        "cspi::type",
                        format!("show_int writes an integer, not {}", v.type_name()),
                    )
                    .label(*vs, "here")
                    .help("format(width, value) pads any value"));
                }
                let text = self.fixed_text(v, *vs, name)?;
                Ok(Value::Str(pad(&text, *width).into()))
            }
            ("show_int", _) => Err(usage("show_int(width, integer)")),
            ("format", _) => Err(usage("format(width, value)")),
            ("fix", [(v, s)]) => {
                if is_fixed(v) {
                    Ok(v.clone())
                } else {
                    Err(after_solving("fix", *s))
                }
            }
            ("fix", _) => Err(usage("fix(x)")),
            ("follow", [(next, ns), (start, ss)]) => self.follow(next, *ns, start, *ss),
            ("follow", _) => Err(usage("follow(next, start)")),
            _ => Err(super::builtins::not_in_table(name, span)),
        }
    }

    /// The text of `v` when it is known now.
    fn fixed_text(&self, v: &Value, span: Span, what: &str) -> Result<String, Diag> {
        if !is_fixed(v) {
            return Err(after_solving(what, span));
        }
        let mut out = Pieces::default();
        self.write_value(v, &mut out, span, false)?;
        match out.into_value() {
            Value::Str(s) => Ok(s.to_string()),
            _ => Err(after_solving(what, span)),
        }
    }

    /// `join(sep, list)`: the strings of the list with `sep` between them
    /// (`name`: `join`, or `concat`, which is `join("", list)`).
    fn join(
        &mut self,
        name: &str,
        sep: &Value,
        ss: Span,
        list: &Value,
        ls: Span,
    ) -> Result<Value, Diag> {
        let Value::Array(a) = list else {
            return Err(Diag::new(
                "cspi::type",
                format!("{name} takes a list of strings, not {}", list.type_name()),
            )
            .label(ls, "here"));
        };
        let mut out = Pieces::default();
        for (i, item) in a.items.iter().enumerate() {
            if !matches!(item, Value::Str(_) | Value::Format(_)) {
                return Err(Diag::new(
                    "cspi::type",
                    format!(
                        "{name} takes a list of strings, but item {} is {}",
                        i + 1,
                        item.type_name()
                    ),
                )
                .label(ls, "this list")
                .help("make strings of values with show(x) or \"\\(x)\""));
            }
            if i > 0 {
                self.write_value(sep, &mut out, ss, false)?;
            }
            self.write_value(item, &mut out, ls, false)?;
        }
        Ok(out.into_value())
    }

    /// `follow(next, start)`: `start`, `next[start]`, `next[next[start]]`,
    /// ... up to the first value seen before (not repeated) or the first
    /// value outside the array's index set (included): a route of a
    /// `circuit` or `subcircuit` successor array, or a path of pointers.
    fn follow(&mut self, next: &Value, ns: Span, start: &Value, ss: Span) -> Result<Value, Diag> {
        let Value::Array(a) = next else {
            return Err(Diag::new(
                "cspi::type",
                format!(
                    "follow takes an array of successors, not {}",
                    next.type_name()
                ),
            )
            .label(ns, "here"));
        };
        if a.dims.len() != 1 {
            return Err(
                Diag::new("cspi::type", "follow takes a one-dimensional array").label(ns, "here"),
            );
        }
        if !is_fixed(next) || !is_fixed(start) {
            return Err(after_solving("follow", ns.to(ss)));
        }
        let as_int = |v: &Value| match v {
            Value::Int(k) | Value::Enum(_, k) => Some(*k),
            _ => None,
        };
        let Some(mut at) = as_int(start) else {
            return Err(
                Diag::new("cspi::type", "follow starts from an integer or enum value")
                    .label(ss, start.type_name()),
            );
        };
        let (lo, hi) = a.dims[0];
        let mut seen = std::collections::HashSet::new();
        let mut walk = Vec::new();
        while seen.insert(at) {
            walk.push(match start {
                Value::Enum(e, _) => Value::Enum(e.clone(), at),
                _ => Value::Int(at),
            });
            if at < lo || at > hi {
                break;
            }
            let item = &a.items[(at - lo) as usize];
            at = as_int(item).ok_or_else(|| {
                Diag::new(
                    "cspi::type",
                    format!(
                        "follow reads integers, but this array holds {}",
                        item.type_name()
                    ),
                )
                .label(ns, "here")
            })?;
            self.tick(ns)?;
        }
        Ok(Value::Array(Rc::new(Array::list(walk))))
    }
}

/// `text` padded with spaces to `width` characters: on the left for a
/// positive width (aligned right), on the right for a negative one.
fn pad(text: &str, width: i64) -> String {
    let len = text.chars().count() as i128;
    let want = (width as i128).abs().min(1 << 16);
    let fill = " ".repeat((want - len).max(0) as usize);
    if width >= 0 {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

/// The error of a built-in that needs values over variables before solving.
fn after_solving(what: &str, span: Span) -> Diag {
    Diag::new(
        "cspi::fix",
        format!("{what}(...) needs values that are known only once the model is solved"),
    )
    .label(span, "this depends on variables")
    .help("use it in `output`, which is evaluated from each solution")
}
