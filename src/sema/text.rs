//! Text built-ins for word puzzles: splitting and converting strings, and
//! turning words into rows of token codes for table constraints.
//!
//! - `split(text)`: the whitespace-separated words of a string, as a list;
//! - `int(text)`: a string's integer value;
//! - `upper(text)`: the string in upper case;
//! - `tokens(text, symbols)`: the codes of the text cut into symbols (code i is
//!   `symbols[i]`, longest symbol first), as a list; an error if it cannot be cut;
//! - `word_table(words, symbols, max)`: a table with one row per word that can be
//!   cut into at most `max` symbols, its codes padded with 0 to the longest row;
//!   words that cannot be cut (a `Q` without its `U` when only `QU` is a symbol)
//!   are left out;
//! - `trie(words, symbols, max)`: the same rows as `word_table`, as a decision
//!   diagram for the `mdd` constraint, cached on disk (`trie.rs`);
//! - `columns(table)`: the number of values in each row of a table (or diagram).

use super::Checker;
use super::value::{Array, Value};
use crate::diag::Diag;
use crate::formats::symbols::Symbols;
use crate::syntax::ast::Span;
use std::rc::Rc;
use std::sync::Arc;

impl Checker<'_> {
    pub(super) fn strings(&self, v: &Value, span: Span, what: &str) -> Result<Vec<String>, Diag> {
        self.flatten(v, span)?
            .into_iter()
            .map(|x| match x {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(Diag::new(
                    "cspi::type",
                    format!("{what} must be strings, found {}", other.type_name()),
                )
                .label(span, "here")),
            })
            .collect()
    }

    /// The text built-ins, by name (entries of `builtins::BUILTINS`).
    pub(super) fn text_builtin(
        &mut self,
        name: &str,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let one_string = |what: &str| -> Result<Rc<str>, Diag> {
            match args {
                [(Value::Str(s), _)] => Ok(s.clone()),
                _ => Err(
                    Diag::new("cspi::call", format!("{what}(text) takes one string"))
                        .label(span, "here"),
                ),
            }
        };
        match name {
            "split" => one_string("split").and_then(|s| {
                let words: Vec<Value> = s
                    .split_whitespace()
                    .map(|w| Value::Str(Rc::from(w)))
                    .collect();
                self.spend(words.len() as u64, span)?;
                Ok(Value::Array(Rc::new(Array::list(words))))
            }),
            "int" => one_string("int").and_then(|s| {
                crate::formats::parse_int(s.trim())
                    .map(Value::Int)
                    .ok_or_else(|| {
                        let what = if self.is_param_file_text(&s) {
                            "text from a --param @file".to_string()
                        } else {
                            format!("`{}`", crate::reader::shorten(&s, 60))
                        };
                        Diag::new("cspi::data::int", format!("{what} is not an integer"))
                            .label(span, "here")
                    })
            }),
            "upper" => one_string("upper").map(|s| Value::Str(Rc::from(s.to_uppercase()))),
            "lines" => one_string("lines").map(|s| {
                let lines = s.lines().map(|l| Value::Str(Rc::from(l))).collect();
                Value::Array(Rc::new(Array::list(lines)))
            }),
            "starts_with" | "ends_with" => match args {
                [(Value::Str(s), _), (Value::Str(p), _)] => {
                    Ok(Value::Bool(if name == "starts_with" {
                        s.starts_with(&**p)
                    } else {
                        s.ends_with(&**p)
                    }))
                }
                _ => Err(Diag::new(
                    "cspi::call",
                    format!("{name}(text, part) takes two strings"),
                )
                .label(span, "here")),
            },
            "tokens" => self.tokens_builtin(args, span),
            "word_table" => self.word_table_builtin(args, span),
            "trie" => self.trie_builtin(args, span),
            "columns" => match args {
                [(Value::Table(t), _)] => Ok(Value::Int(t.first().map_or(0, Vec::len) as i64)),
                [(Value::Mdd(m), _)] => Ok(Value::Int(m.arity as i64)),
                _ => {
                    Err(Diag::new("cspi::call", "columns(table) takes a table").label(span, "here"))
                }
            },
            _ => Err(super::builtins::not_in_table(name, span)),
        }
    }

    fn tokens_builtin(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let [(Value::Str(text), tspan), (syms, sspan)] = args else {
            return Err(Diag::new(
                "cspi::call",
                "tokens(text, symbols) takes a string and a list of strings",
            )
            .label(span, "here"));
        };
        let symbols = self.strings(syms, *sspan, "symbols")?;
        let codes = Symbols::new(&symbols).cut(text).ok_or_else(|| {
            Diag::new(
                "cspi::data::tokens",
                format!("`{text}` cannot be cut into the symbols"),
            )
            .label(*tspan, "this text")
            .help(format!("symbols: {}", symbols.join(" ")))
        })?;
        Ok(Value::Array(Rc::new(Array::list(
            codes.into_iter().map(Value::Int).collect(),
        ))))
    }

    fn word_table_builtin(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let [(words, wspan), (syms, sspan), (Value::Int(max), _)] = args else {
            return Err(Diag::new(
                "cspi::call",
                "word_table(words, symbols, max) takes a list of words, a list of symbols and a length",
            )
            .label(span, "here"));
        };
        let symbols = self.strings(syms, *sspan, "symbols")?;
        let words = self.strings(words, *wspan, "words")?;
        let max = (*max).max(0) as usize;
        let cutter = Symbols::new(&symbols);
        let mut rows: Vec<Vec<i64>> = words
            .iter()
            .filter_map(|w| cutter.cut(w))
            .filter(|r| !r.is_empty() && r.len() <= max)
            .collect();
        let width = rows.iter().map(Vec::len).max().unwrap_or(0);
        self.spend((rows.len() * width) as u64, span)?;
        for r in &mut rows {
            r.resize(width, 0);
        }
        Ok(Value::Table(Arc::new(rows)))
    }
}
