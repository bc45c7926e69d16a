//! `cspi explain`: why a model has no solution, as one diagnostic with a
//! label on the source of each constraint of a minimal conflict (the
//! algorithm is in `crate::explain`).

use super::ExplainArgs;
use super::interrupt::Interrupt;
use super::solve::{load_or_stopped, output_exit};
use crate::diag::{Diags, Source, exit};
use crate::engine::search::{Limits, MemoryLimit};
use crate::explain::{Explanation, explain};
use crate::model::Model;
use crate::output::sink::Stdout;
use crate::output::{self, Format};
use crate::solve;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Instant;

pub(super) fn command(args: &ExplainArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let started = Instant::now();
    // Loaded as `cspi solve` loads it (sandbox, `@file` parameters, the
    // memory limit), with the time limit and Ctrl-C heard while it builds.
    let mut options = args.model.load_options(interrupt)?;
    options.deadline = started.checked_add(args.time_limit);
    let parsed = solve::parse(&args.model.model)?;
    let limits = Limits {
        stop: Some(Arc::clone(&interrupt.stop)),
        memory: args.model.memory_limit.map(MemoryLimit::new),
        ..Limits::default()
    };
    let (model, answer) = match load_or_stopped(&parsed, &options)? {
        Ok(model) => {
            let time = args.time_limit.saturating_sub(started.elapsed());
            let answer = explain(&model, time, &limits);
            (model, answer)
        }
        Err(_) => (Model::default(), Explanation::Unknown),
    };
    let text = match args.format {
        Format::Human => human(&model, &parsed.source, &answer),
        Format::Json => output::explain::json(&model, &parsed.source, &answer),
    };
    let mut out = Stdout::new();
    out.write(&text);
    if let Some(code) = output_exit(&out) {
        return Ok(code);
    }
    Ok(interrupt.exit_code().unwrap_or(exit::OK))
}

/// The conflict as one diagnostic (coloured on a terminal); other answers
/// as one line.
fn human(model: &Model, source: &Source, answer: &Explanation) -> String {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if std::io::stdout().is_terminal()
        && !no_color
        && let Ok(d) = output::explain::human(model, source, answer)
    {
        return format!("{:?}\n", miette::Report::new(d))
            + &output::explain::crossword_pictures(model, answer);
    }
    output::report::explanation_text(model, source, answer)
}
