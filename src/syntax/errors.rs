//! Syntax errors as diagnostics that say what to write: pest's error turned
//! into readable rule names, the common slips recognised (a missing `;`, an
//! unclosed comment, MiniZinc's habits in `minizinc.rs`), and every syntax
//! error of a file found in one run by skipping the item that failed and
//! parsing again.

use super::ast::Span;
use super::parse::Rule;
use crate::diag::{Diag, Diags};

/// The most syntax errors reported for one file: past a few, later ones are
/// often echoes of the first.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Every syntax error of `text`, starting from the parser's first one.
///
/// After each error, the item holding it (from the end of the previous item
/// to the next `;`) is blanked out, byte for byte so that spans still point
/// into the original text, and the text is parsed again.
pub(super) fn all(
    text: &str,
    first: pest::error::Error<Rule>,
    reparse: impl Fn(&str) -> Option<pest::error::Error<Rule>>,
) -> Diags {
    let mut diags = Diags::default();
    let mut current = text.to_string();
    let mut error = first;
    let mut last_at = None;
    while diags.0.len() < MAX_SYNTAX_ERRORS {
        let at = position(&error);
        if last_at.is_some_and(|last| at <= last) {
            break;
        }
        last_at = Some(at);
        let d = syntax_error(error, &current);
        let unclosed_comment = d.message.contains("comment is never closed");
        diags.push(d);
        if unclosed_comment || at >= current.len() {
            break; // the rest of the file is inside the comment, or nothing is left
        }
        let (start, mut end) = item_around(&current, at);
        if current[at..].starts_with('%') {
            // A MiniZinc comment ends at the end of its line, not at a `;`.
            end = at + current[at..].find('\n').unwrap_or(current.len() - at);
        }
        current = blank(&current, start, end);
        match reparse(&current) {
            Some(next) => error = next,
            None => break,
        }
    }
    diags
}

/// Where pest stopped.
fn position(e: &pest::error::Error<Rule>) -> usize {
    match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((a, _)) => a,
    }
}

/// The byte positions of the `;` that end items: outside comments and strings.
pub(super) fn item_ends(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b';' => out.push(i),
            _ => {}
        }
        i += 1;
    }
    out
}

/// The item that holds position `at`: from just after the previous item's
/// `;` to just after the next `;` (or the end of the text).
pub(super) fn item_around(text: &str, at: usize) -> (usize, usize) {
    let ends = item_ends(text);
    let start = ends.iter().rev().find(|&&e| e < at).map_or(0, |&e| e + 1);
    let end = ends
        .iter()
        .find(|&&e| e >= at)
        .map_or(text.len(), |&e| e + 1);
    (start, end)
}

/// The first position at or after `at` that is not whitespace or a comment.
pub(super) fn skip_trivia(text: &str, mut at: usize) -> usize {
    loop {
        let rest = &text[at.min(text.len())..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            at += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if let Some(body) = trimmed.strip_prefix("/*") {
            at += body.find("*/").map_or(trimmed.len(), |e| e + 4);
        } else {
            return at;
        }
    }
}

/// `text` with the bytes `start..end` turned into spaces (newlines kept).
fn blank(text: &str, start: usize, end: usize) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for b in &mut bytes[start..end] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
    // Whole characters were replaced, byte by byte, by ASCII spaces.
    String::from_utf8(bytes).unwrap_or_default()
}

/// Turns a pest error into a diagnostic with readable rule names.
pub(super) fn syntax_error(e: pest::error::Error<Rule>, text: &str) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let span = match e.location {
        InputLocation::Pos(p) => Span::new(p, p + 1),
        InputLocation::Span((a, b)) => Span::new(a, b.max(a + 1)),
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().filter_map(|r| rule_name(*r)).collect();
            names.sort_unstable();
            names.dedup();
            names
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    if text.get(span.start..).is_some_and(|r| r.starts_with("/*")) {
        return Diag::new("cspi::syntax", "syntax error: this comment is never closed")
            .label(
                Span::new(span.start, span.start + 2),
                "the comment starts here",
            )
            .help("end a block comment with `*/`; comments do not nest");
    }
    if let Some(d) = super::minizinc::habit(text, span.start, &expected) {
        return d;
    }
    // Only where an expression could have ended: the parser wanted an operator.
    if expected.contains(&"an operator")
        && let Some(d) = missing_semicolon(text, span.start)
    {
        return d;
    }
    let message = match expected.as_slice() {
        [] => "syntax error".to_string(),
        [one] => format!("syntax error: expected {one}"),
        many => format!("syntax error: expected one of {}", many.join(", ")),
    };
    Diag::new("cspi::syntax", message)
        .label(span, "here")
        .help("see docs/language.md for the grammar; items end with `;`")
}

/// The most common slip: an item not ended by `;`, so the parser stumbles on
/// the keyword of the next item. Point at the end of the unfinished item.
fn missing_semicolon(text: &str, at: usize) -> Option<Diag> {
    const ITEM_KEYWORDS: &[&str] = &[
        "param",
        "let",
        "var",
        "constraint",
        "search",
        "output",
        "minimize",
        "maximize",
        "project",
        "enum",
        "type",
        "predicate",
        "function",
    ];
    let rest = text.get(at..)?;
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !ITEM_KEYWORDS.contains(&word.as_str()) {
        return None;
    }
    let before = text[..at].trim_end();
    if before.is_empty() || before.ends_with(';') {
        return None;
    }
    let end = before.len();
    let start = before[..end].char_indices().last().map_or(0, |(i, _)| i);
    Some(
        Diag::new(
            "cspi::syntax",
            format!("syntax error: expected `;` before `{word}`"),
        )
        .label(Span::new(start, end), "this item is not ended by `;`")
        .help("every item (param, let, var, constraint, search, output, ...) ends with `;`"),
    )
}

/// Readable names for pest's rules, `None` for rules that never help a user.
fn rule_name(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::param_item => "`param`",
        Rule::let_item => "`let`",
        Rule::var_item => "`var`",
        Rule::constraint_item => "`constraint`",
        Rule::search_item => "`search`",
        Rule::output_item => "`output`",
        Rule::objective_item => "`minimize` or `maximize`",
        Rule::project_item => "`project`",
        Rule::enum_item => "`enum`",
        Rule::type_item => "`type`",
        Rule::predicate_item => "`predicate`",
        Rule::function_item => "`function`",
        Rule::type_expr | Rule::array_type | Rule::set_type | Rule::tuple_type => "a type",
        Rule::record_type => "a type",
        Rule::fn_params | Rule::fn_param => "a parameter name",
        Rule::expr | Rule::primary | Rule::prefix => "an expression",
        Rule::infix => "an operator",
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::string => "a string",
        Rule::index_sets => "`[`",
        Rule::index => "`[`",
        Rule::search_opt => "a search option",
        Rule::search_word => "a strategy name",
        Rule::search_key => "a search option",
        Rule::generators | Rule::generator | Rule::comp_args => "`name in ...`",
        Rule::kw_in => "`in`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::expr_list => "an expression",
        Rule::implies | Rule::or | Rule::and | Rule::iff | Rule::xor => "an operator",
        Rule::in_op | Rule::not_in => "an operator",
        Rule::subset | Rule::superset | Rule::union | Rule::diff | Rule::symdiff => "an operator",
        Rule::intersect => "an operator",
        Rule::eq | Rule::ne | Rule::lt | Rule::le | Rule::gt | Rule::ge => "an operator",
        Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::modulo
        | Rule::pow
        | Rule::range_op => "an operator",
        _ => return None,
    })
}
