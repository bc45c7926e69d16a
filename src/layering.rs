//! The layering of docs/ARCHITECTURE.md, checked: every path in `src/`
//! that names another top-level module (`crate::x`, or `cspi::x` in the
//! binary) must be an edge of [`ALLOWED`], and [`ALLOWED`] has no cycle.
//! A module that imports one above it fails `cargo test`, so the layers
//! cannot drift from the picture again.

/// Each top-level module of `src/` and the modules it may name, lowest
/// layers first. A module may always name itself.
pub(crate) const ALLOWED: &[(&str, &[&str])] = &[
    // Leaves: they name no other module.
    ("layering", &[]),
    ("source", &[]),
    ("num", &[]),
    ("memory", &[]),
    ("reader", &[]),
    ("fnv", &[]),
    ("diag", &["source", "reader"]),
    // The front end: text to syntax tree.
    ("syntax", &["source", "diag"]),
    // The model, pure data (with the globals' definitions).
    ("model", &["source", "num"]),
    // The solver; it names no concrete constraint of the model's.
    ("engine", &["source", "num", "memory", "model"]),
    // Model to engine.
    ("lower", &["source", "num", "model", "engine"]),
    // The data files' formats, read into data; their errors are their own
    // (`formats::Error`), which the checker turns into diagnostics.
    ("formats", &["source", "reader", "fnv", "model"]),
    // The checker: syntax tree to model.
    (
        "sema",
        &[
            "source", "num", "memory", "reader", "diag", "syntax", "model", "formats",
        ],
    ),
    // The FlatZinc front end: FlatZinc to model.
    (
        "flatzinc",
        &["source", "num", "reader", "diag", "syntax", "model"],
    ),
    // A part's log of its empty sub-problems, which a run's options carry.
    ("part_log", &["fnv", "engine"]),
    // A run as plain data, then what every run sets up, then the runs.
    ("run", &["model", "engine", "part_log"]),
    ("setup", &["model", "engine", "run"]),
    ("part", &["source", "fnv", "model", "engine", "run"]),
    (
        "parallel",
        &["model", "engine", "lower", "run", "setup", "part"],
    ),
    (
        "solve",
        &[
            "source", "memory", "diag", "reader", "syntax", "sema", "model", "engine", "lower",
            "run", "setup", "part", "parallel",
        ],
    ),
    // Printing reads the model and a run's data, never the code that ran it;
    // a file format it writes is the reader's own module (`formats::puz`).
    (
        "output",
        &["source", "diag", "model", "formats", "engine", "run"],
    ),
    // Commands' libraries, over the API.
    ("explain", &["model", "engine", "run", "solve"]),
    ("suggest", &["model", "engine", "lower", "setup", "run"]),
    ("merge", &["engine", "run"]),
    (
        "cheaters",
        &[
            "memory", "diag", "model", "engine", "run", "solve", "explain",
        ],
    ),
    ("bench", &["model", "engine", "run", "solve", "output"]),
    // The command line may name anything below it.
    (
        "cli",
        &[
            "source", "num", "memory", "reader", "diag", "syntax", "model", "engine", "lower",
            "formats", "sema", "flatzinc", "run", "setup", "part", "part_log", "parallel", "solve",
            "output", "explain", "merge", "bench", "suggest", "cheaters",
        ],
    ),
    // The binary.
    ("main", &["memory", "diag", "output", "cli"]),
];

/// The modules that `text` (Rust source) names by a path from the crate's
/// root: `crate::x`, each name of a group `crate::{x::A, y}` and, with
/// `outside` (the binary), `cspi::x`; comments, strings and character
/// literals are skipped. `depth` is how many `super`s lead from the file to
/// the crate's root (`src/model/term.rs`: 2), so that `super::super::x`
/// there names `x` too (0: `super` is not followed). Each with its line, in
/// the order they appear.
pub(crate) fn named_modules(text: &str, outside: bool, depth: usize) -> Vec<(usize, String)> {
    let code = code_only(text);
    let roots: &[&str] = if outside {
        &["cspi::", "crate::"]
    } else {
        &["crate::"]
    };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found: Vec<(usize, String)> = Vec::new();
    for root in roots {
        for (at, _) in code.match_indices(root) {
            if !code[..at].chars().next_back().is_some_and(ident) {
                names_after(&code, at + root.len(), &mut found);
            }
        }
    }
    if depth > 0 {
        // A chain of `super`s that climbs to the root (or, from a module
        // inside the file, perhaps not quite: a top-level module's name
        // after it is counted all the same, which errs on the strict side).
        for (at, _) in code.match_indices("super::") {
            if code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| ident(c) || c == ':')
            {
                continue;
            }
            let mut end = at;
            let mut n = 0;
            while code[end..].starts_with("super::") {
                n += 1;
                end += "super::".len();
            }
            if n >= depth {
                let mut names = Vec::new();
                names_after(&code, end, &mut names);
                found.extend(
                    names
                        .into_iter()
                        .filter(|(_, name)| ALLOWED.iter().any(|(m, _)| m == name)),
                );
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(at, name)| (code[..at].matches('\n').count() + 1, name))
        .collect()
}

/// The first segment of the path that starts at `at`, or of each path of
/// the group `{...}` there, with its offset.
fn names_after(code: &str, at: usize, out: &mut Vec<(usize, String)>) {
    let name_at = |at: usize| -> String {
        code[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let rest = &code[at..];
    let start = at + (rest.len() - rest.trim_start().len());
    if !code[start..].starts_with('{') {
        let name = name_at(start);
        if !name.is_empty() {
            out.push((start, name));
        }
        return;
    }
    // A group: the first name of each item at its own level.
    let mut level = 0;
    let mut item_start = true;
    for (i, c) in code[start..].char_indices() {
        match c {
            '{' => {
                level += 1;
                item_start = level == 1;
            }
            '}' => {
                level -= 1;
                if level == 0 {
                    return;
                }
            }
            ',' if level == 1 => item_start = true,
            c if c.is_whitespace() => {}
            _ if item_start => {
                item_start = false;
                let name = name_at(start + i);
                if !name.is_empty() && name != "self" {
                    out.push((start + i, name));
                }
            }
            _ => {}
        }
    }
}

/// `text` with comments, string and character literals blanked out (line
/// breaks kept, so that line numbers stay right).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = 0;
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if let Some(hashes) = raw_string_start(rest) {
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let open = hashes + 2 + usize::from(rest[0] == b'b');
            let end = rest[open..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(rest.len(), |p| open + p + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' && char_literal_len(rest).is_some() {
            let end = char_literal_len(rest).unwrap_or(1);
            blank(&mut out, &rest[..end]);
            i += end;
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// The number of `#`s of a raw string starting here (`r"`, `r#"`, `br"`).
fn raw_string_start(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s);
    let s = s.strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|&&c| c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of a character literal starting here, `None` for a lifetime.
fn char_literal_len(s: &[u8]) -> Option<usize> {
    if s.get(1) == Some(&b'\\') {
        let close = s.get(3..)?.iter().position(|&c| c == b'\'')?;
        return Some(close + 4);
    }
    let n = s.len().min(6);
    let text = (1..=n)
        .rev()
        .find_map(|k| std::str::from_utf8(&s[..k]).ok())?;
    let mut chars = text.chars();
    chars.next();
    let c = chars.next()?;
    (chars.next() == Some('\'')).then_some(2 + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn allowed(module: &str) -> Option<&'static [&'static str]> {
        ALLOWED.iter().find(|(m, _)| *m == module).map(|(_, a)| *a)
    }

    /// Every `.rs` file under `dir`.
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The top-level module a file of `src/` belongs to (`None`: `lib.rs`).
    fn module_of(src: &Path, file: &Path) -> Option<String> {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.components().next()?.as_os_str().to_str()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (name != "lib").then(|| name.to_string())
    }

    /// How many `super`s lead from a file of `src/` to the crate's root:
    /// the segments of its module path (`model/term.rs` is
    /// `crate::model::term`: 2; `model/mod.rs` is `crate::model`: 1).
    fn depth(src: &Path, file: &Path) -> usize {
        let rel = file.strip_prefix(src).unwrap();
        let n = rel.components().count();
        if rel.file_name().is_some_and(|f| f == "mod.rs") {
            n - 1
        } else {
            n
        }
    }

    /// The imports of `src/` that break the layering, as messages.
    fn violations(src: &Path) -> Vec<String> {
        let mut files = Vec::new();
        sources(src, &mut files);
        files.sort();
        let mut bad = Vec::new();
        for file in &files {
            let Some(module) = module_of(src, file) else {
                continue;
            };
            let Some(may) = allowed(&module) else {
                bad.push(format!(
                    "{}: module `{module}` is not in layering::ALLOWED (add it, with the modules it may name, and to docs/ARCHITECTURE.md)",
                    file.display()
                ));
                continue;
            };
            let text = std::fs::read_to_string(file).unwrap();
            for (line, named) in named_modules(&text, module == "main", depth(src, file)) {
                if named != module && !may.contains(&named.as_str()) {
                    bad.push(format!(
                        "{}:{line}: `{module}` names `{named}`, which it may not (layering::ALLOWED, docs/ARCHITECTURE.md)",
                        file.display()
                    ));
                }
            }
        }
        bad
    }

    #[test]
    fn no_module_names_one_it_may_not() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let bad = violations(&src);
        assert!(
            bad.is_empty(),
            "imports against the layering:\n{}",
            bad.join("\n")
        );
    }

    #[test]
    fn the_allowed_edges_have_no_cycle_and_point_down() {
        // Each module may name only modules listed before it, so the
        // table is its own topological order.
        for (i, (module, may)) in ALLOWED.iter().enumerate() {
            for m in *may {
                let at = ALLOWED.iter().position(|(n, _)| n == m);
                assert!(
                    at.is_some_and(|j| j < i),
                    "`{module}` may name `{m}`, which is not listed before it"
                );
            }
        }
    }

    #[test]
    fn an_upward_import_is_found() {
        let dir = std::env::temp_dir().join(format!("cspi-layering-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("model")).unwrap();
        std::fs::write(
            dir.join("model/mod.rs"),
            "//! crate::engine in a comment\nuse crate::source::Span;\nconst S: &str = \"crate::solve\";\nuse crate::lower::Lower;\n",
        )
        .unwrap();
        // Through a group and through `super`s that climb to the root.
        std::fs::write(
            dir.join("model/term.rs"),
            "use super::super::{source::Span, engine::Engine};\nuse crate::{num, solve::load};\n",
        )
        .unwrap();
        std::fs::write(dir.join("lib.rs"), "pub mod model;\n").unwrap();
        let bad = violations(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert!(
            bad[0].contains("mod.rs:4: `model` names `lower`"),
            "{}",
            bad[0]
        );
        assert!(
            bad[1].contains("term.rs:1: `model` names `engine`"),
            "{}",
            bad[1]
        );
        assert!(
            bad[2].contains("term.rs:2: `model` names `solve`"),
            "{}",
            bad[2]
        );
    }

    #[test]
    fn groups_and_climbing_supers_are_imports() {
        let text = "use crate::{\n    engine::Engine,\n    model::{Model, VarId},\n    self,\n};\n";
        assert_eq!(
            named_modules(text, false, 0),
            [(2, "engine".to_string()), (3, "model".to_string())]
        );
        // From `src/model/term.rs` (depth 2): one `super` stays in `model`,
        // two reach the root; a name that is no top-level module is not one.
        let text = "use super::Term;\nuse super::super::lower::Lower;\nuse super::super::{engine, Thing};\n";
        assert_eq!(
            named_modules(text, false, 2),
            [(2, "lower".to_string()), (3, "engine".to_string())]
        );
        assert!(named_modules(text, false, 0).is_empty());
    }

    #[test]
    fn paths_in_comments_strings_and_chars_are_not_imports() {
        let text = "let c = '\"'; let q = '\\''; // crate::a\nlet s = r#\"crate::b\"#; /* crate::c */ use crate::d::E;\nfn f<'a>(x: &'a str) -> crate::e::F { crate::f::g() }\n";
        let named: Vec<(usize, String)> = named_modules(text, false, 0);
        let names: Vec<&str> = named.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["d", "e", "f"]);
        assert_eq!(named[0].0, 2);
        assert!(named_modules("xcrate::a::b", false, 0).is_empty());
        assert_eq!(named_modules("use cspi::cli;", true, 0)[0].1, "cli");
        assert!(named_modules("use cspi::cli;", false, 0).is_empty());
    }
}
