//! `cspi solve --try-blocks N`: a crossword no fill is found for, tried
//! again with up to N cheater blocks where a fill is most likely or its search failed most
//! (`crate::cheaters`); each grid searched is reported as it ends, then the
//! first grid that fills, as a picture to save and with its fill.

use super::SolveArgs;
use super::interrupt::Interrupt;
use super::solve::{output_exit, write_picture, write_puz};
use crate::cheaters::{self, Opened, Plan};
use crate::diag::{Diags, exit};
use crate::engine::search::MemoryLimit;
use crate::engine::stats::{Stats, peak_memory};
use crate::output::sink::{Stdout, eprint};
use crate::output::{Format, Mode, RunEnd, StoppedBy, human, plural};
use crate::solve::{self, Status};
use std::sync::Arc;
use std::time::Instant;

/// How many of the most-failed cells (with their twins) are combined: 12
/// give 12 single blocks, 66 pairs and 220 triples.
const POOL: usize = 12;

pub(super) fn command(args: &SolveArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let started = Instant::now();
    let deadline = args.time_limit.and_then(|t| started.checked_add(t));
    let mut load = args.model.load_options(interrupt)?;
    load.deadline = deadline;
    load.as_written = args.check_solutions;
    let parsed = solve::parse(&args.model.model)?;
    let plan = Plan {
        most: args.try_blocks.unwrap_or(1) as usize,
        pool: POOL,
        per_grid: args.time_per_grid,
        nodes: args.node_limit,
        deadline,
        stop: Some(Arc::clone(&interrupt.stop)),
        threads: args.threads.unwrap_or(1) as usize,
        memory: args.model.memory_limit.map(MemoryLimit::new),
    };
    let human = args.format == Format::Human;
    let mut out = Stdout::new();
    let mut stats = Stats::default();
    // The grids searched: one undecided in a round is searched again in
    // the next; the grid as drawn (no new block) comes first.
    let mut grids = std::collections::HashSet::new();
    let mut as_drawn = Status::Unknown;
    let mut rejected: Vec<String> = Vec::new();
    let found = match cheaters::open_up(
        &parsed,
        &load,
        args.check_solutions,
        &plan,
        &|spec| args.strategy.apply(spec),
        |model, tried| {
            if grids.is_empty() {
                as_drawn = tried.status;
            }
            grids.insert(tried.blocks.cells.clone());
            crate::parallel::add(&mut stats, &tried.stats);
            stats.time += tried.stats.time;
            rejected.extend(tried.rejected.iter().cloned());
            out.write(&if human {
                crate::output::blocks::line(model, tried)
            } else {
                crate::output::blocks::record(model, tried)
            });
        },
    ) {
        Ok(found) => found,
        Err(d) => match super::solve::stopped_loading(&d) {
            Some(_) => None,
            None => return Err(d),
        },
    };
    let mut reporter = args.format.reporter();
    let mode = Mode {
        count: false,
        many: false,
        text: args.json_text,
    };
    let memory_stopped = plan.memory.as_ref().is_some_and(MemoryLimit::reached);
    let status = match &found {
        Some(_) => Status::Satisfiable,
        None if as_drawn == Status::Unsatisfiable => Status::Unsatisfiable,
        None => Status::Unknown,
    };
    if let Some(Opened { model, values, .. }) = &found {
        if human && let Some((_, layout)) = model.crosswords.first() {
            out.write(&format!(
                "the grid with its new blocks:\n{}",
                crate::output::blocks::picture(layout)
            ));
        }
        out.write(&reporter.solution(model, values, mode));
    } else if human && grids.len() == 1 && !interrupt.stopped() && !memory_stopped {
        out.write(
            "no cell to try a block at: the search of the grid as drawn failed at none \
             (`cspi explain` shows why it has no fill)\n",
        );
    } else if human {
        out.write(&format!(
            "no grid filled: the grid as drawn and {} with up to {} new {} (each with its twin in a symmetric grid)\n",
            plural(grids.len() as u64 - 1, "grid", "grids"),
            plan.most,
            if plan.most == 1 { "block" } else { "blocks" },
        ));
    }
    stats.peak_memory = peak_memory();
    let stopped_by = if interrupt.stopped() {
        Some(StoppedBy::Interrupt)
    } else if found.is_none() && deadline.is_some_and(|d| Instant::now() >= d) {
        Some(StoppedBy::TimeLimit)
    } else if status == Status::Unknown && memory_stopped {
        Some(StoppedBy::MemoryLimit)
    } else if status == Status::Unknown {
        // No grid filled, and the last was stopped by its own budget.
        Some(StoppedBy::GridBudget)
    } else {
        None
    };
    let end = RunEnd {
        status,
        objective: None,
        lex: None,
        stats: &stats,
        totals: &[],
        stopped_by,
        part: None,
        threads: &[],
        split: None,
    };
    out.write(&reporter.end(&end, mode));
    if args.stats {
        eprint(&human::stats(&stats, None));
    }
    if let Some(Opened { model, values, .. }) = &found {
        if let Some(path) = &args.svg
            && let Some(svg) = crate::output::svg::solution(model, values)
        {
            write_picture(path, "--svg", &svg)?;
        }
        if let Some(path) = &args.ipuz
            && let Some(text) = crate::output::ipuz::solution(model, values)
        {
            write_picture(path, "--ipuz", &text)?;
        }
        if let Some(path) = &args.puz
            && let Some(bytes) = crate::output::puz::solution(model, values)
        {
            write_puz(path, bytes)?;
        }
    }
    if let Some(code) = output_exit(&out) {
        return Ok(code);
    }
    if !rejected.is_empty() {
        super::solve::report_rejected(&rejected);
        return Ok(exit::INTERNAL);
    }
    Ok(interrupt.exit_code().unwrap_or(exit::OK))
}
