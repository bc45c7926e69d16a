//! The examples of docs/language.md, run as written.
//!
//! A fenced block whose info string names a file (```` ```csp queens.csp ````,
//! ```` ```json jobs.json ````) is written to that file in a scratch
//! directory (later blocks of the same name replace it); a ```` ```console ````
//! block runs each of its `$ cspi ...` lines there and must show exactly what
//! cspi prints: standard output when it succeeds, the diagnostic (standard
//! error) when it fails. `models/` in a command is the repository's.
//!
//! The doc with every output replaced by what cspi prints is compared with
//! docs/language.md as an expect-test snapshot (`expect_file!`); to rewrite
//! the outputs after a deliberate change:
//!     UPDATE_EXPECT=1 cargo test --release --test it language_docs
//! and review the diff of docs/language.md.

use crate::common;
use expect_test::expect_file;

use std::path::Path;

/// One `$ cspi ...` line and the lines shown after it.
struct Command {
    /// The line as the doc writes it (its quoting kept).
    line: String,
    args: Vec<String>,
    shown: Vec<String>,
}

fn commands(block: &[&str]) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    for line in block {
        match line.strip_prefix("$ cspi ") {
            Some(args) => out.push(Command {
                line: line.to_string(),
                args: split_args(args),
                shown: Vec::new(),
            }),
            None => {
                if let Some(c) = out.last_mut() {
                    c.shown.push(line.to_string());
                }
            }
        }
    }
    out
}

/// Splits a command line on spaces, keeping single-quoted parts whole.
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// What a command prints: stdout on success, stderr otherwise; trailing blank lines dropped.
fn run(dir: &Path, args: &[String]) -> Vec<String> {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = common::cspi_in(dir, &argv);
    assert!(
        !r.stderr.contains("panicked"),
        "cspi {args:?} panicked:\n{}",
        r.stderr
    );
    let text = if r.code == 0 { r.stdout } else { r.stderr };
    let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn the_language_reference_examples_run_as_shown() {
    let root = common::root();
    let doc_path = root.join("docs/language.md");
    let doc = common::read(&doc_path);
    let dir = common::scratch("language-docs");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("models"), dir.join("models")).expect("link models/");

    let lines: Vec<&str> = doc.lines().collect();
    let mut rewritten: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    let (mut files, mut runs) = (0, 0);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        rewritten.push(line.to_string());
        i += 1;
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let start = i;
        while i < lines.len() && !lines[i].starts_with("```") {
            i += 1;
        }
        let block = &lines[start..i];
        let mut words = info.split_whitespace();
        match (words.next(), words.next()) {
            (Some("console"), _) if block.iter().any(|l| l.starts_with("$ cspi ")) => {
                for c in commands(block) {
                    runs += 1;
                    let got = run(&dir, &c.args);
                    rewritten.push(c.line.clone());
                    if same_output(&c.args, &c.shown, &got) {
                        // The doc's order where the order is free (`--all`).
                        rewritten.extend(c.shown.iter().cloned());
                    } else {
                        rewritten.extend(got.iter().cloned());
                        failures.push(format!(
                            "$ cspi {}\n--- the doc shows:\n{}\n--- cspi prints:\n{}",
                            c.args.join(" "),
                            c.shown.join("\n"),
                            got.join("\n")
                        ));
                    }
                }
            }
            (Some(_), Some(name)) => {
                files += 1;
                std::fs::write(dir.join(name), block.join("\n") + "\n").expect("write example");
                rewritten.extend(block.iter().map(|l| l.to_string()));
            }
            _ => rewritten.extend(block.iter().map(|l| l.to_string())),
        }
        if i < lines.len() {
            rewritten.push(lines[i].to_string());
            i += 1;
        }
    }
    assert!(
        files >= 10 && runs >= 10,
        "only {files} files and {runs} commands in the doc"
    );
    if !failures.is_empty() {
        eprintln!(
            "{} example(s) of docs/language.md differ (UPDATE_EXPECT=1 rewrites them):\n\n{}",
            failures.len(),
            failures.join("\n\n")
        );
    }
    let mut text = rewritten.join("\n");
    text.push('\n');
    expect_file![doc_path].assert_eq(&text);
}

/// Whether cspi printed what the doc shows. `--all` searches on every core,
/// so its solutions may come in any order: the lines are compared as a
/// multiset.
fn same_output(args: &[String], shown: &[String], got: &[String]) -> bool {
    if !args.iter().any(|a| a == "--all") {
        return shown == got;
    }
    let sorted = |lines: &[String]| {
        let mut v = lines.to_vec();
        v.sort();
        v
    };
    sorted(shown) == sorted(got)
}
