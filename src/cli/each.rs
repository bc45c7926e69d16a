//! `cspi solve MODEL --each NAME=FILE`: one model, many instances. The model
//! is parsed once; each line of FILE (blank lines and `#` comments skipped)
//! becomes `--param NAME=LINE`, or with `--each FILE` each line is a JSON
//! object whose fields become parameters of the same names. Every instance is
//! checked and solved on its own: a bad one gets its diagnostic and the rest
//! still run. Results are tagged `FILE:LINE`; a tally ends the output.

use super::SolveArgs;
use super::diagnostics::report;
use super::interrupt::Interrupt;
use super::solve::Runner;
use crate::diag::{Diag, Diags, exit};
use crate::output::Tally;
use crate::output::sink::eprint;
use crate::sema::ParamOverride;
use crate::solve;
use std::path::Path;
use std::time::Instant;

/// The largest instance file read (the same bound as a model's data files).
const MAX_FILE_BYTES: u64 = 512 << 20;

pub(super) fn command(args: &SolveArgs, spec: &str, interrupt: &Interrupt) -> Result<i32, Diags> {
    let (name, path) = match spec.split_once('=') {
        Some((name, path)) => (Some(name.trim()), path),
        None => (None, spec),
    };
    let mut options = args.model.load_options()?;
    let fixed = std::mem::take(&mut options.params);
    options.as_written = args.check_solutions;
    options.stop = Some(std::sync::Arc::clone(&interrupt.stop));
    let text = read(path)?;
    let parsed = solve::parse(&args.model.model)?;
    let shown = Path::new(path)
        .file_name()
        .map_or(path.to_string(), |f| f.to_string_lossy().into_owned());
    let start = Instant::now();
    let mut runner = Runner::new(args, interrupt);
    let mut tally = Tally::default();
    let mut rejected = false;
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !runner.going() {
            break;
        }
        let label = format!("{shown}:{}", k + 1);
        runner.started = Instant::now();
        let header = runner.reporter.instance(&label);
        runner.out.write(&header);
        // The time limit of each instance covers its loading too.
        let deadline = args.time_limit.and_then(|t| runner.started.checked_add(t));
        let loaded = instance_overrides(name, line)
            .map_err(|d| Diags::from(d.usage()))
            .and_then(|own| {
                let mut params = fixed.clone();
                params.extend(own);
                let own_options = solve::LoadOptions {
                    params,
                    deadline,
                    ..options.clone()
                };
                solve::load(&parsed, &own_options)
            });
        let stopped = loaded
            .as_ref()
            .err()
            .and_then(super::solve::stopped_loading);
        let ended = match (loaded, stopped) {
            (Err(_), Some(by)) => {
                runner.stopped_loading(by);
                Ok(super::solve::Ended {
                    status: solve::Status::Unknown,
                    rejected: false,
                })
            }
            (loaded, _) => loaded.and_then(|model| runner.run(model)),
        };
        match ended {
            Ok(end) => {
                tally.add(end.status);
                rejected |= end.rejected;
            }
            Err(diags) => {
                tally.instances += 1;
                tally.errors += 1;
                eprint(&format!("error in instance {label}:\n"));
                report(&diags);
                let first = diags.0.first().map_or("", |d| d.message.as_str());
                let text = runner.reporter.instance_error(first);
                runner.out.write(&text);
            }
        }
    }
    tally.time = start.elapsed();
    let text = runner.reporter.tally(&tally);
    runner.out.write(&text);
    let code = runner.exit_code(rejected);
    Ok(if code == exit::OK && tally.errors > 0 {
        exit::MODEL_ERROR
    } else {
        code
    })
}

/// The parameters of one instance: `NAME=line`, or a JSON record's fields.
fn instance_overrides(name: Option<&str>, line: &str) -> Result<Vec<ParamOverride>, Diag> {
    if let Some(name) = name {
        return Ok(vec![ParamOverride {
            name: name.to_string(),
            value: line.to_string(),
        }]);
    }
    let bad = |what: String| {
        Diag::new("cspi::each::record", what).help(
            "with --each FILE, each line is a JSON object such as {\"n\": 8, \"puzzle\": \"...\"}; \
             write --each NAME=FILE to give each whole line to parameter NAME",
        )
    };
    let record: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(line).map_err(|e| bad(format!("not a JSON object: {e}")))?;
    record
        .into_iter()
        .map(|(key, value)| {
            let value = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                other => {
                    return Err(bad(format!(
                        "field `{key}` is {other}; a parameter is a string, a number or a boolean"
                    )));
                }
            };
            Ok(ParamOverride { name: key, value })
        })
        .collect()
}

/// Reads the instance file through the one reader, with the path in every error.
fn read(path: &str) -> Result<String, Diags> {
    crate::reader::read_text(Path::new(path), MAX_FILE_BYTES, None).map_err(|r| {
        let shown =
            std::path::absolute(path).map_or(path.to_string(), |p| crate::reader::shown(&p));
        Diags::from(
            Diag::new(
                "cspi::each::file",
                format!(
                    "--each: cannot read `{}` ({shown}): {}",
                    crate::reader::shown(Path::new(path)),
                    r.reason()
                ),
            )
            .help("--each NAME=FILE reads one instance per line of FILE")
            .usage(),
        )
    })
}
