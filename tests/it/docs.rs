//! The docs hold to the binary and the grammar: docs/cli.md lists every
//! command and flag of `--help` (and no flag that does not exist), every
//! command of docs/tutorial.md runs and prints what the tutorial shows,
//! every grammar rule quoted in docs/ is the rule in grammar/cspi.pest, and
//! every relative link of the README and docs/ names a file that exists.

use crate::common;

use clap::CommandFactory;
use cspi::cli::Cli;
use std::collections::BTreeSet;

/// The commands and their long flags, as clap declares them (hidden ones
/// left out): the docs must follow the parser, not a list kept by hand.
fn declared() -> Vec<(String, BTreeSet<String>)> {
    let mut cli = Cli::command();
    cli.build();
    cli.get_subcommands()
        .filter(|c| c.get_name() != "help" && !c.is_hide_set())
        .map(|c| {
            let flags = c
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .flat_map(|a| {
                    let aliases = a.get_visible_aliases().unwrap_or_default();
                    a.get_long().into_iter().chain(aliases)
                })
                .filter(|long| !["help", "version"].contains(long))
                .map(|long| format!("--{long}"))
                .collect();
            (c.get_name().to_string(), flags)
        })
        .collect()
}

/// The long flags (`--name`) in a text.
fn flags(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("--") {
        let start = i + at;
        let mut end = start + 2;
        while end < b.len() && (b[end].is_ascii_lowercase() || b[end] == b'-') {
            end += 1;
        }
        let before_ok =
            start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'-');
        if before_ok && end > start + 2 && !text[start..end].ends_with('-') {
            out.insert(text[start..end].to_string());
        }
        i = end.max(start + 2);
    }
    out
}

#[test]
fn cli_md_lists_every_command_and_flag() {
    let doc = common::read(&common::root().join("docs/cli.md"));
    let commands = declared();
    assert!(commands.len() >= 6, "{} commands", commands.len());
    let mut all = BTreeSet::new();
    for (cmd, flags) in &commands {
        assert!(
            doc.contains(&format!("cspi {cmd}")),
            "docs/cli.md lacks `cspi {cmd}`"
        );
        for flag in flags {
            assert!(
                doc.contains(&format!("`{flag}")) || doc.contains(&format!(", `{flag}")),
                "docs/cli.md does not document `{flag}` of `cspi {cmd}`"
            );
            all.insert(flag.clone());
        }
    }
    // And nothing stale: every flag the doc names exists.
    for flag in flags(&doc) {
        if ["--help", "--version", "--release", "--path", "--ignored"].contains(&flag.as_str()) {
            continue;
        }
        assert!(
            all.contains(&flag),
            "docs/cli.md names `{flag}`, which no command has"
        );
    }
    // The binary's help shows what clap declares.
    let r = common::cspi(&["--help"]);
    for (cmd, _) in &commands {
        assert!(r.stdout.contains(cmd.as_str()), "cspi --help lacks {cmd}");
    }
}

/// The `$ cspi ...` commands of a Markdown file and the lines shown after each.
fn commands(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_block = false;
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            current = None;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ cspi ") {
            out.push((cmd.to_string(), Vec::new()));
            current = Some(out.len() - 1);
        } else if let Some(k) = current {
            out[k].1.push(line.to_string());
        }
    }
    out
}

#[test]
fn every_tutorial_command_runs_and_prints_what_it_shows() {
    let text = common::read(&common::root().join("docs/tutorial.md"));
    let cases = commands(&text);
    assert!(cases.len() >= 12, "{} commands", cases.len());
    runs_and_prints_what_it_shows(cases);
}

/// docs/crossword.md walks a constructor from an empty grid to a quality
/// fill with a theme entry; every step of it runs as shown.
#[test]
fn every_crossword_command_runs_and_prints_what_it_shows() {
    let text = common::read(&common::root().join("docs/crossword.md"));
    let cases = commands(&text);
    assert!(cases.len() >= 7, "{} commands", cases.len());
    runs_and_prints_what_it_shows(cases);
}

/// The README's examples are what a newcomer types first.
#[test]
fn every_readme_command_runs_and_prints_what_it_shows() {
    let text = common::read(&common::root().join("README.md"));
    let cases = commands(&text);
    assert!(cases.len() >= 4, "{} commands", cases.len());
    runs_and_prints_what_it_shows(cases);
}

/// Runs each command from the repository's root; its output must hold the
/// shown lines in order.
fn runs_and_prints_what_it_shows(cases: Vec<(String, Vec<String>)>) {
    for (cmd, shown) in cases {
        let args: Vec<&str> = cmd.split_whitespace().collect();
        let r = common::cspi(&args);
        assert_eq!(r.code, 0, "cspi {cmd}: {}", r.stderr);
        // The shown lines, in order; `...` skips lines, a line ending in
        // `...` is matched by its beginning.
        let actual: Vec<&str> = r.stdout.lines().collect();
        let mut at = 0;
        for want in shown.iter().filter(|l| l.trim() != "...") {
            let (prefix, whole) = match want.strip_suffix("...") {
                Some(p) => (p, false),
                None => (want.as_str(), true),
            };
            let found = actual[at..].iter().position(|l| {
                if whole {
                    *l == prefix
                } else {
                    l.starts_with(prefix)
                }
            });
            match found {
                Some(k) => at += k + 1,
                None => panic!(
                    "cspi {cmd}: the tutorial shows\n{want}\nbut the output is\n{}",
                    r.stdout
                ),
            }
        }
    }
}

/// Whitespace collapsed, `//` comments dropped.
fn normal(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(k) if !l[..k].contains('"') => &l[..k],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Grammar rules quoted in code blocks: from `name = {` (or `_{`, `@{`, `${`)
/// to the line before the next rule or the block's end.
fn quoted_rules(text: &str) -> Vec<String> {
    let is_rule = |l: &str| {
        let t = l.trim_start();
        let Some((name, rest)) = t.split_once('=') else {
            return false;
        };
        let rest = rest.trim_start();
        name.trim()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.trim().is_empty()
            && ["{", "_{", "@{", "${", "!{"]
                .iter()
                .any(|o| rest.starts_with(o))
    };
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            out.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if is_rule(line) {
            out.extend(current.take());
            current = Some(line.to_string());
        } else if let Some(c) = current.as_mut() {
            if line.trim().is_empty() {
                out.extend(current.take());
            } else {
                c.push('\n');
                c.push_str(line);
            }
        }
    }
    out.extend(current);
    out
}

#[test]
fn grammar_excerpts_in_the_docs_match_the_grammar() {
    let grammar = normal(&common::read(&common::root().join("grammar/cspi.pest")));
    let mut checked = 0;
    for entry in std::fs::read_dir(common::root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        for rule in quoted_rules(&common::read(&path)) {
            let n = normal(&rule);
            assert!(
                grammar.contains(&n),
                "{} quotes a rule that grammar/cspi.pest does not have:\n{rule}",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} rules quoted");
}

/// Every relative link of the README and docs/ (`[text](path)`) names a
/// file or folder that exists: docs move (crossword.md's record went to
/// crossword-measured.md) and a link left behind would break silently.
#[test]
fn every_relative_link_names_a_file_that_exists() {
    let root = common::root();
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    assert!(files.len() > 10, "{} files", files.len());
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        let text = common::read(file);
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let link = &rest[..end];
            let target = link.split('#').next().unwrap_or("");
            let external = ["http://", "https://", "mailto:"]
                .iter()
                .any(|p| link.starts_with(p));
            if external || target.is_empty() || target.contains(char::is_whitespace) {
                continue;
            }
            checked += 1;
            if !file.parent().unwrap().join(target).exists() {
                broken.push(format!("{}: {link}", file.display()));
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}
