//! `--data FILE`: JSON objects whose members give parameters their values
//! (`{"n": 3, "d": [3, 1, 2]}`), or MiniZinc data files (`.dzn`, `dzn.rs`). Files are read before the model is checked;
//! each member is converted when its parameter is declared (`params.rs`), and
//! a member that names no parameter is reported in the file, with a "did you
//! mean". A path given on the command line is relative to the current directory.

use super::Checker;
use super::params::DataFile;
use crate::diag::{Diag, did_you_mean};
use crate::formats::json::Kind;
use crate::syntax::ast::Span;

impl Checker<'_> {
    /// Pass: the `--data` files, read and parsed before any item.
    pub(super) fn read_data_files(&mut self) {
        for path in self.input.data_files {
            let shown = path.display().to_string();
            self.cli_strings.insert(shown.as_str().into());
            // Named by the person running cspi, so not confined to the sandbox.
            let source = match self.read_file_as(&shown, Span::new(0, 0), None) {
                Ok(s) => s,
                Err(mut d) => {
                    // The path came from the command line: no span in the model.
                    d.labels.clear();
                    d.message = format!("--data: {}", d.message);
                    if d.message.contains("no such file") {
                        d.help = Some(format!(
                            "a path given with --data is relative to the current directory\n{}",
                            crate::diag::looked_for(path)
                        ));
                    }
                    self.errors.push(d.usage());
                    self.data_failed = true;
                    continue;
                }
            };
            // A MiniZinc data file (`.dzn`) gives the same nodes as JSON.
            let dzn = path.extension().is_some_and(|e| e == "dzn");
            let parsed = self.parse_limited(
                &source,
                |go_on| {
                    if dzn {
                        crate::formats::dzn::parse(&source.text, go_on)
                    } else {
                        crate::formats::json::parse_checked(&source.text, go_on)
                    }
                },
                |e| {
                    let (what, help) = if dzn {
                        (
                            "a valid MiniZinc data file",
                            "a .dzn file is `name = value;` items: n = 3; d = [3, 1, 2]; m = [| 1, 2 | 3, 4 |];",
                        )
                    } else {
                        ("valid JSON", "a data file is a JSON object: {\"n\": 3, \"d\": [3, 1, 2]}")
                    };
                    Diag::new("cspi::data::syntax", format!("`{shown}` is not {what}: {}", e.message))
                        .label(e.span, "here")
                        .help(help)
                        .in_source(&source)
                },
            );
            let root = match parsed {
                Ok(r) => r,
                Err(d) => {
                    self.data_failed = true;
                    self.errors.push(d);
                    continue;
                }
            };
            let Kind::Object(members) = root.kind else {
                self.data_failed = true;
                self.errors.push(
                    Diag::new(
                        "cspi::data::syntax",
                        format!(
                            "`{shown}` must hold a JSON object, not {}",
                            root.kind.what()
                        ),
                    )
                    .label(root.span, "here")
                    .help("name each parameter: {\"n\": 3, \"d\": [3, 1, 2]}")
                    .in_source(&source),
                );
                continue;
            };
            let mut seen = std::collections::HashSet::new();
            for (name, span, _) in &members {
                if !seen.insert(name.as_str()) {
                    self.errors.push(
                        Diag::new(
                            "cspi::data::duplicate",
                            format!("`{name}` is given twice in `{shown}`"),
                        )
                        .label(*span, "a second time here")
                        .in_source(&source),
                    );
                }
            }
            self.data.push(DataFile { source, members });
        }
    }

    /// Pass: reports data members that name no parameter of the model.
    pub(super) fn check_data_used(&mut self) {
        let mut errors = Vec::new();
        for file in &self.data {
            for (name, span, _) in &file.members {
                if self.params_seen.contains(name) {
                    continue;
                }
                let what = if self.globals.contains_key(name) {
                    format!("`{name}` is not a parameter of the model")
                } else {
                    format!("the model has no parameter `{name}`")
                };
                let params: Vec<&str> = self.params_seen.iter().map(String::as_str).collect();
                let d = Diag::new("cspi::data::unknown", what).label(*span, "in this data file");
                let d = match did_you_mean(name, params.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None if params.is_empty() => d.help("this model declares no parameters"),
                    None => {
                        let mut names = params.clone();
                        names.sort_unstable();
                        d.help(format!("its parameters are: {}", names.join(", ")))
                    }
                };
                errors.push(d.in_source(&file.source));
            }
        }
        for d in errors {
            self.errors.push(d);
        }
    }
}
