//! `cspi solve MODEL --each NAME=FILE`: one model, many instances. The model
//! is parsed once; each line of FILE (blank lines and `#` comments skipped)
//! becomes `--param NAME=LINE`, or with `--each FILE` each line is a JSON
//! object whose fields become parameters of the same names. Every instance is
//! checked and solved on its own: a bad one gets its diagnostic and the rest
//! still run. Results are tagged `FILE:LINE`; a tally ends the output.
//! `--each-data FILE...` does the same with one data file per instance
//! (tagged by the file's name), a folder standing for its data files.

use super::SolveArgs;
use super::diagnostics::report;
use super::interrupt::Interrupt;
use super::solve::Runner;
use crate::diag::{Diag, Diags, exit};
use crate::output::Tally;
use crate::output::sink::eprint;
use crate::sema::ParamOverride;
use crate::solve;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The largest instance file read (the same bound as a model's data files).
const MAX_FILE_BYTES: u64 = 512 << 20;

/// One instance: its label, its own parameters (or why they could not be
/// read), and its own data file.
struct Instance {
    label: String,
    overrides: Result<Vec<ParamOverride>, Diag>,
    data: Option<PathBuf>,
}

pub(super) fn command(args: &SolveArgs, spec: &str, interrupt: &Interrupt) -> Result<i32, Diags> {
    let (name, path) = match spec.split_once('=') {
        Some((name, path)) => (Some(name.trim()), path),
        None => (None, spec),
    };
    let text = read(path)?;
    let shown = Path::new(path)
        .file_name()
        .map_or(path.to_string(), |f| f.to_string_lossy().into_owned());
    let instances = text
        .lines()
        .enumerate()
        .map(|(k, line)| (k, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(k, line)| Instance {
            label: format!("{shown}:{}", k + 1),
            overrides: instance_overrides(name, line),
            data: None,
        });
    run_all(args, instances, interrupt)
}

/// `--each-data FILE...`: one instance per data file.
pub(super) fn data_command(args: &SolveArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let mut files = Vec::new();
    for path in &args.each_data {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| {
                    Diags::from(
                        Diag::new(
                            "cspi::each::file",
                            format!(
                                "--each-data: cannot list `{}`: {e}",
                                crate::reader::shown(path)
                            ),
                        )
                        .usage(),
                    )
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json" || e == "dzn"))
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(Diags::from(
                    Diag::new(
                        "cspi::each::file",
                        format!(
                            "--each-data: `{}` holds no .json or .dzn file",
                            crate::reader::shown(path)
                        ),
                    )
                    .usage(),
                ));
            }
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    let instances = files.into_iter().map(|file| Instance {
        label: file.file_name().map_or(file.display().to_string(), |f| {
            f.to_string_lossy().into_owned()
        }),
        overrides: Ok(Vec::new()),
        data: Some(file),
    });
    run_all(args, instances, interrupt)
}

/// Loads and solves each instance on its own, then prints the tally.
fn run_all(
    args: &SolveArgs,
    instances: impl Iterator<Item = Instance>,
    interrupt: &Interrupt,
) -> Result<i32, Diags> {
    let mut options = args.model.load_options(interrupt)?;
    let fixed = std::mem::take(&mut options.params);
    options.as_written = args.check_solutions;
    let parsed = solve::parse(&args.model.model)?;
    let start = Instant::now();
    let mut runner = Runner::new(args, interrupt);
    let mut tally = Tally::default();
    let mut rejected = false;
    for instance in instances {
        if !runner.going() {
            break;
        }
        let label = instance.label;
        runner.started = Instant::now();
        let header = runner.reporter.instance(&label);
        runner.out.write(&header);
        // The time limit of each instance covers its loading too.
        let deadline = args.time_limit.and_then(|t| runner.started.checked_add(t));
        let loaded = instance
            .overrides
            .map_err(|d| Diags::from(d.usage()))
            .and_then(|own| {
                let mut params = fixed.clone();
                params.extend(own);
                let mut own_options = solve::LoadOptions {
                    params,
                    deadline,
                    ..options.clone()
                };
                own_options.data_files.extend(instance.data.clone());
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
                // Arrays, records and null: written as JSON, as --param takes them.
                other => other.to_string(),
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
