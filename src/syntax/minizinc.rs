//! Syntax errors that come from writing MiniZinc. cspi's language looks like
//! MiniZinc but differs in places where a MiniZinc user types from habit;
//! each habit is recognised where the parser stopped and answered with the
//! way cspi writes it, built from the user's own text where possible.

use super::ast::{Ident, Span, TypeExpr, TypeKind};
use super::errors::{item_around, skip_trivia};
use crate::diag::Diag;

/// A diagnostic for a MiniZinc habit at `at`, where the parser stopped
/// wanting `expected` (readable rule names).
pub(super) fn habit(text: &str, at: usize, expected: &[&str]) -> Option<Diag> {
    operator(text, at, expected)
        .or_else(|| item_habit(text, at))
        .or_else(|| set_before_name(text, at))
        .or_else(|| domain_before_name(text, at))
        .or_else(|| quantifier_as_call(text, at))
        .or_else(|| aggregate_with_body_outside(text, at))
}

/// `/\`, `\/`, `=` for `==`, `div` and `mod`.
fn operator(text: &str, at: usize, expected: &[&str]) -> Option<Diag> {
    let rest = text.get(at..)?;
    let before = &text[..at];
    let wants_operator = expected.contains(&"an operator");
    let word = |w: &str| {
        rest.strip_prefix(w)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    };
    let (span, theirs, ours, what) = if rest.starts_with("\\/") {
        (Span::new(at, at + 2), "\\/", "||", "disjunction")
    } else if rest.starts_with("/\\") {
        (Span::new(at, at + 2), "/\\", "&&", "conjunction")
    } else if rest.starts_with('\\') && before.ends_with('/') {
        // `/` was read as a division; the parser stopped at the `\`.
        (Span::new(at - 1, at + 1), "/\\", "&&", "conjunction")
    } else if wants_operator && rest.starts_with('=') && !rest.starts_with("==") {
        return Some(
            Diag::new(
                "cspi::syntax",
                "syntax error: `=` does not compare; write `==`",
            )
            .label(Span::new(at, at + 1), "MiniZinc's equality")
            .help(
                "a constraint compares with `==` (`constraint x == 3;`); `=` only gives \
                     a value to a param, let, enum or type",
            ),
        );
    } else if wants_operator && word("div") {
        (Span::new(at, at + 3), "div", "/", "integer division")
    } else if wants_operator && word("mod") {
        (Span::new(at, at + 3), "mod", "%", "remainder")
    } else {
        return None;
    };
    Some(
        Diag::new(
            "cspi::syntax",
            format!("syntax error: cspi writes {what} as `{ours}`"),
        )
        .label(span, format!("MiniZinc's `{theirs}`"))
        .help(format!("write `{ours}` instead of `{theirs}`")),
    )
}

/// Items MiniZinc has and cspi writes otherwise: `solve ...;`, `include`,
/// `int: n = 8;`, `array[1..n] of var 1..n: q;`, `%` comments.
fn item_habit(text: &str, at: usize) -> Option<Diag> {
    let (start, end) = item_around(text, at);
    if skip_trivia(text, start) != at {
        return None;
    }
    let item = text[at..end].trim_end().trim_end_matches(';').trim_end();
    let span = Span::new(at, at + item.len().max(1));
    if item.starts_with('%') {
        let line = item.lines().next().unwrap_or(item);
        return Some(
            Diag::new("cspi::syntax", "syntax error: comments start with `//`")
                .label(Span::new(at, at + line.len()), "a MiniZinc comment")
                .help("write `// ...` for a line comment, `/* ... */` for a block"),
        );
    }
    let word: &str = &item[..item
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(item.len())];
    let after = item[word.len()..].trim_start();
    match word {
        "solve" => Some(solve_item(after, span)),
        "include" => Some(
            Diag::new("cspi::syntax", "syntax error: cspi has no `include`")
                .label(span, "not needed")
                .help("remove this line: the global constraints are built in (docs/globals.md)"),
        ),
        "int" | "bool" | "string" | "float" | "set" | "array" | "par" => declaration(item, span),
        _ => None,
    }
}

/// `solve satisfy;`, `solve minimize e;`, `solve :: int_search(...) satisfy;`.
fn solve_item(after: &str, span: Span) -> Diag {
    let d = Diag::new("cspi::syntax", "syntax error: cspi has no `solve` item")
        .label(span, "MiniZinc's solve item");
    let goal = after.rsplit("::").next().unwrap_or(after).trim();
    let objective = ["minimize", "maximize"]
        .into_iter()
        .find_map(|k| Some((k, goal.split_once(k)?.1.trim())));
    match objective {
        Some((kind, e)) if !e.is_empty() => d.help(format!(
            "write the objective as an item of its own: `{kind} {e};`"
        )),
        _ if after.starts_with("::") => d.help(
            "remove it: `cspi solve` searches; choose the strategy with an item such as \
             `search var mrv, val min;`",
        ),
        _ => d.help(
            "remove it: `cspi solve` looks for a solution (`--all` for every one); a `search` \
             item chooses the strategy",
        ),
    }
}

/// A MiniZinc declaration `TYPE: NAME [= VALUE]`, as a cspi `param` or `var`.
fn declaration(item: &str, span: Span) -> Option<Diag> {
    let colon = top_level_colon(item)?;
    let (ty, rest) = (item[..colon].trim(), item[colon + 1..].trim());
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..name_len];
    if name.is_empty() {
        return None;
    }
    let value = rest[name_len..].trim().strip_prefix('=').map(str::trim);
    // `array[I] of T`: the index sets go after the name.
    let (index, elem) = match ty.strip_prefix("array") {
        Some(a) => {
            let a = a.trim_start().strip_prefix('[')?;
            let close = a.find(']')?;
            let elem = a[close + 1..].trim_start().strip_prefix("of")?.trim();
            (format!("[{}]", a[..close].trim()), elem)
        }
        None => (String::new(), ty),
    };
    let (written, note) = match elem.strip_prefix("var ") {
        Some(domain) => match domain.trim() {
            "bool" => (format!("var {name}{index}: bool;"), ""),
            "int" => (
                format!("var {name}{index} in 0..100;"),
                " with the values it may take",
            ),
            domain => (format!("var {name}{index} in {domain};"), ""),
        },
        None => match value {
            Some(v) => (format!("param {name} = {v};"), ""),
            None => (
                format!("param {name}{index}: {elem};"),
                ", its value given by --param or --data",
            ),
        },
    };
    let what = if elem.starts_with("var ") {
        "syntax error: cspi declares variables as `var NAME in DOMAIN`"
    } else {
        "syntax error: cspi declares parameters with `param`"
    };
    Some(
        Diag::new("cspi::syntax", what)
            .label(span, "a MiniZinc declaration")
            .help(format!("write `{written}`{note}")),
    )
}

/// `var 1..n: x;`: MiniZinc puts the domain before the name.
fn domain_before_name(text: &str, at: usize) -> Option<Diag> {
    let (start, end) = item_around(text, at);
    let begin = skip_trivia(text, start);
    let after_var = text[begin..].strip_prefix("var")?;
    if !after_var.starts_with(char::is_whitespace) || skip_trivia(text, begin + 3) != at {
        return None;
    }
    let item = text[at..end].trim_end().trim_end_matches(';').trim_end();
    let colon = top_level_colon(item)?;
    let (domain, rest) = (item[..colon].trim(), item[colon + 1..].trim());
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if name_len == 0 {
        return None;
    }
    let name = &rest[..name_len];
    Some(
        Diag::new(
            "cspi::syntax",
            "syntax error: the variable's name comes first",
        )
        .label(
            Span::new(at, at + colon),
            "MiniZinc's order: the domain, then the name",
        )
        .help(format!("write `var {name} in {domain};`")),
    )
}

/// `var set of 1..n: s;`, MiniZinc's order for a set variable: cspi names
/// the variable first, `var s: set of 1..n;`.
fn set_before_name(text: &str, at: usize) -> Option<Diag> {
    let (start, end) = item_around(text, at);
    let begin = skip_trivia(text, start);
    let item = text
        .get(begin..end)?
        .trim_end()
        .trim_end_matches(';')
        .trim_end();
    let words: Vec<&str> = item.splitn(3, char::is_whitespace).collect();
    if words.len() < 3 || words[0] != "var" || words[1] != "set" || !words[2].starts_with("of") {
        return None;
    }
    let colon = top_level_colon(item)?;
    let (domain, name) = (item[4..colon].trim(), item[colon + 1..].trim());
    let name_len = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    if name_len == 0 {
        return None;
    }
    Some(
        Diag::new(
            "cspi::syntax",
            "syntax error: the variable's name comes first",
        )
        .label(
            Span::new(begin + 4, begin + colon),
            "MiniZinc's order: the type, then the name",
        )
        .help(format!("write `var {}: {domain};`", &name[..name_len])),
    )
}

/// `var int: x;` and `var bool: b;` parse as a variable named `int` of type
/// `x`: refused, with the order cspi uses.
pub(super) fn type_before_name(name: &Ident, ty: &TypeExpr) -> Result<(), Diag> {
    let TypeKind::Named(second) = &ty.kind else {
        return Ok(());
    };
    let written = match name.name.as_str() {
        "bool" => format!("write `var {}: bool;`", second.name),
        "int" => format!(
            "write `var {} in 0..100;` with the values it may take",
            second.name
        ),
        _ => return Ok(()),
    };
    Err(Diag::new(
        "cspi::syntax",
        "syntax error: the variable's name comes first",
    )
    .label(
        name.span.to(second.span),
        "MiniZinc's order: the type, then the name",
    )
    .help(written))
}

/// The first `:` outside brackets (`::` annotations excluded).
fn top_level_colon(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b':' if depth == 0 && b.get(i + 1) != Some(&b':') && (i == 0 || b[i - 1] != b':') => {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// `forall(i in S)(c)` or `forall([...])`, as MiniZinc writes them: ours
/// take generators and a body after a colon.
fn quantifier_as_call(text: &str, at: usize) -> Option<Diag> {
    if !text.get(at..)?.starts_with('(') {
        return None;
    }
    let before = text[..at].trim_end();
    let word = ["forall", "exists"].into_iter().find(|w| {
        before.ends_with(w)
            && !before[..before.len() - w.len()]
                .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })?;
    let start = before.len() - word.len();
    Some(
        Diag::new(
            "cspi::syntax",
            format!("syntax error: `{word}` is not a function"),
        )
        .label(Span::new(start, before.len()), "followed by `(`")
        .help(format!(
            "write `{word} i in 1..n: x[i] < x[i + 1]` (generators, a colon, then the body)"
        )),
    )
}

/// `sum(i in S)(e)`, as MiniZinc writes aggregates: ours put the body
/// inside, after a colon.
fn aggregate_with_body_outside(text: &str, at: usize) -> Option<Diag> {
    let rest = text.get(at..)?;
    // The parser stops at the `)` closing the generators, or at the `(` after it.
    let at = match rest.strip_prefix(')') {
        Some(after) => at + (rest.len() - after.trim_start().len()),
        None => at,
    };
    if !text.get(at..)?.starts_with('(') {
        return None;
    }
    let before = text[..at].trim_end();
    let inner_end = before.len().checked_sub(1)?;
    if !before.ends_with(')') {
        return None;
    }
    // The `(` that the `)` closes.
    let mut depth = 0usize;
    let open = before[..inner_end]
        .char_indices()
        .rev()
        .find_map(|(i, c)| {
            match c {
                ')' => depth += 1,
                '(' if depth == 0 => return Some(i),
                '(' => depth -= 1,
                _ => {}
            }
            None
        })?;
    let generators = &before[open + 1..inner_end];
    // Just after the last character that is not part of a name (which may
    // be wider than a byte).
    let name_start = before[..open]
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[name_start..open];
    const AGGREGATES: [&str; 5] = ["sum", "product", "count", "min", "max"];
    if !AGGREGATES.contains(&name) || !generators.contains(" in ") {
        return None;
    }
    Some(
        Diag::new(
            "cspi::syntax",
            format!("syntax error: the body of `{name}` goes inside its parentheses"),
        )
        .label(Span::new(name_start, before.len()), "generators without a body")
        .help(format!(
            "write `{name}({generators}: ...)`, the body after a colon, as in `sum(i in 1..n: x[i])`"
        )),
    )
}
