//! `trie(words, symbols, max)`: a dictionary compiled into a decision
//! diagram (a DAWG) for the `mdd` global, once, with an on-disk cache
//! (`formats/dawg.rs`, whose doc says where and how).
//!
//! `words` is a text of whitespace-separated words (`read(dict)`, the fast
//! path) or a list of strings. Each word is cut into the symbols (code i is
//! `symbols[i]`, longest symbol first, as `tokens` does), words that cannot
//! be cut or have more than `max` symbols are left out, and the rows are
//! padded with 0 to the longest kept word, as `word_table` does; the diagram
//! shares the words' prefixes and suffixes (`model/mdd.rs`).

use super::Checker;
use super::value::Value;
use crate::diag::Diag;
use crate::formats::dawg;
use crate::syntax::ast::Span;
use std::sync::Arc;

impl Checker<'_> {
    pub(super) fn trie_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = || {
            Diag::new(
                "cspi::call",
                "trie(words, symbols, max) takes a text of words or a list of words, a list of symbols and a length",
            )
            .label(span, "here")
            .help("for example trie(read(\"words.txt\"), [\"A\", \"B\"], 16)")
        };
        let [(words, wspan), (syms, sspan), (Value::Int(max), mspan)] = args else {
            return Err(usage());
        };
        if *max < 1 {
            return Err(Diag::new(
                "cspi::call",
                format!("a trie's words have at least one symbol, not at most {max}"),
            )
            .label(*mspan, "here")
            .help("max is the most symbols a word may have; longer words are left out"));
        }
        let symbols = self.strings(syms, *sspan, "symbols")?;
        if symbols.is_empty() || symbols.iter().any(|s| s.is_empty()) {
            return Err(
                Diag::new("cspi::call", "the symbols must be non-empty strings")
                    .label(*sspan, "here")
                    .help("symbols are the pieces words are cut into, such as [\"A\", \"B\", \"QU\"]; code i is symbols[i]"),
            );
        }
        let max = (*max).min(1 << 20) as usize;
        let mdd = match words {
            // Every word is compiled and cached; then cut to `max`.
            Value::Str(text) => dawg::compile_cached(text, &symbols, max),
            _ => {
                let list = self.strings(words, *wspan, "words")?;
                dawg::compile(list.iter().map(String::as_str), &symbols, max)
            }
        };
        self.spend(mdd.label.len() as u64, span)?;
        Ok(Value::Mdd(Arc::new(mdd)))
    }
}
