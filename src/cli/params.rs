//! Command-line values: time limits, strategy names, `--param` overrides,
//! `--project` names.

use super::StrategyArgs;
use crate::diag::{Diag, Diags};
use crate::model::search::Named;
use crate::sema::ParamOverride;
use std::time::Duration;

/// Parses a time limit: a positive number of seconds, at most a year.
pub(super) fn seconds(s: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= YEAR => Ok(Duration::from_secs_f64(t)),
        Ok(_) => Err(format!(
            "`{s}` is not a time limit: give seconds above 0 and at most {YEAR}"
        )),
        Err(_) => Err(format!(
            "`{s}` is not a number of seconds (such as 10 or 0.5)"
        )),
    }
}

/// Parses a strategy name, naming ours for another solver's and listing the
/// valid ones on error.
pub(super) fn named<T: Named>(s: &str) -> Result<T, String> {
    T::from_name(s).ok_or_else(|| {
        let hint = match T::synonym(s) {
            Some(ours) => format!(" (cspi calls it `{ours}`)"),
            None => crate::diag::did_you_mean(s, T::names())
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default(),
        };
        format!(
            "unknown {} `{s}`{hint}; valid names: {}",
            T::WHAT,
            T::names().join(", ")
        )
    })
}

/// The help line of a strategy flag, listing the valid names.
pub(super) fn strategy_help<T: Named>(what: &str) -> String {
    format!("{what}: {}", T::names().join(", "))
}

impl StrategyArgs {
    pub(crate) fn apply(&self, spec: &mut crate::model::SearchSpec) {
        if let Some(v) = self.var {
            spec.var = v;
        }
        if let Some(v) = self.val {
            spec.val = v;
        }
        if self.var.is_some() || self.val.is_some() {
            // A choice on the command line applies to every variable.
            spec.phases.clear();
        }
        if let Some(p) = self.propagation {
            spec.propagation = p;
        }
        if let Some(r) = self.restarts {
            spec.restarts = r;
        }
        if let Some(l) = self.lns {
            spec.lns = l;
        }
        if let Some(g) = self.guide {
            spec.guide = g;
        }
        if let Some(s) = self.seed {
            spec.seed = s;
        }
        if let Some(l) = self.learning {
            spec.learning = Some(l);
        }
        if let Some(c) = self.components {
            spec.components = c;
        }
        if let Some(r) = self.restart_nogoods {
            spec.restart_nogoods = Some(r);
        }
    }
}

/// The variables named by `--project a,b,c` (variables or whole arrays).
pub(super) fn projection(model: &crate::model::Model, names: &str) -> Result<Vec<usize>, Diags> {
    let mut vars = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(g) = model.groups.get(name) else {
            let known: Vec<&str> = model.groups.keys().map(String::as_str).collect();
            let mut d = Diag::new(
                "cspi::project",
                format!("--project: the model has no variable or array `{name}`"),
            )
            .usage();
            d = match crate::diag::did_you_mean(name, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("declared: {}", known.join(", "))),
            };
            return Err(Diags::from(d));
        };
        for &v in &g.vars {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    if vars.is_empty() {
        return Err(Diags::from(
            Diag::new(
                "cspi::project",
                "--project needs at least one variable name",
            )
            .usage(),
        ));
    }
    Ok(vars)
}

/// The parameters given as `NAME=@path`, with their files, so that
/// messages name the file rather than repeat its text.
pub(super) fn param_files(raw: &[String]) -> Vec<(String, std::path::PathBuf)> {
    raw.iter()
        .filter_map(|p| {
            let (name, value) = p.split_once('=')?;
            let path = value.strip_prefix('@')?;
            Some((name.trim().to_string(), path.into()))
        })
        .collect()
}

/// Splits `NAME=VALUE`; a value `@path` is replaced by the file's text.
pub(crate) fn parse_params(raw: &[String]) -> Result<Vec<ParamOverride>, Diags> {
    let mut out = Vec::new();
    let mut errors = Diags::default();
    for p in raw {
        let Some((name, value)) = p.split_once('=') else {
            errors.push(
                Diag::new(
                    "cspi::param::syntax",
                    format!("--param {p}: expected NAME=VALUE"),
                )
                .help("for example --param n=4")
                .usage(),
            );
            continue;
        };
        let value = match value.strip_prefix('@') {
            Some(path) => {
                let path = std::path::PathBuf::from(path);
                match crate::reader::read_text(&path, crate::sema::MAX_FILE_BYTES, None) {
                    Ok(text) => text,
                    Err(r) => {
                        errors.push(
                            Diag::new(
                                "cspi::param::file",
                                format!(
                                    "--param {name}=@{}: cannot read the file: {}",
                                    crate::reader::shown(&path),
                                    r.reason()
                                ),
                            )
                            .help(match r {
                                crate::reader::Refusal::NotFound => crate::diag::with_looked_for(
                                    "`@path` reads a parameter's value from a file; a relative \
                                     path starts at the current directory"
                                        .to_string(),
                                    &r,
                                    &path,
                                ),
                                _ => format!(
                                    "`@path` reads a parameter's value from a file; {}",
                                    r.help("it")
                                ),
                            })
                            .usage(),
                        );
                        continue;
                    }
                }
            }
            None => value.to_string(),
        };
        out.push(ParamOverride {
            name: name.trim().to_string(),
            value,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
