//! `cspi solve --try-blocks N`: a crossword no fill is found for, tried
//! again with up to N cheater blocks where its search failed most
//! (`crate::cheaters`); each grid searched is reported as it ends, then the
//! first grid that fills, as a picture to save and with its fill.

use super::SolveArgs;
use super::interrupt::Interrupt;
use super::solve::{output_exit, write_picture};
use crate::cheaters::{self, Opened, Plan, Tried};
use crate::diag::{Diags, exit};
use crate::engine::stats::{Stats, peak_memory};
use crate::model::{CrosswordLayout, Model};
use crate::output::sink::{Stdout, eprint};
use crate::output::{Format, Mode, RunEnd, StoppedBy, human, plural};
use crate::solve::{self, Status};
use std::fmt::Write;
use std::sync::Arc;
use std::time::Instant;

/// How many of the most-failed cells (with their twins) are combined: 12
/// give 12 single blocks, 66 pairs and 220 triples.
const POOL: usize = 12;

pub(super) fn command(args: &SolveArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let started = Instant::now();
    let deadline = args.time_limit.and_then(|t| started.checked_add(t));
    let mut load = args.model.load_options()?;
    load.deadline = deadline;
    load.stop = Some(Arc::clone(&interrupt.stop));
    load.as_written = args.check_solutions;
    let parsed = solve::parse(&args.model.model)?;
    let plan = Plan {
        most: args.try_blocks.unwrap_or(1) as usize,
        pool: POOL,
        per_grid: args.time_per_grid,
        nodes: args.node_limit,
        deadline,
        stop: Some(Arc::clone(&interrupt.stop)),
    };
    let human = args.format == Format::Human;
    let mut out = Stdout::new();
    let mut stats = Stats::default();
    let mut grids = 0u64;
    let mut as_drawn = Status::Unknown;
    let mut rejected: Vec<String> = Vec::new();
    let found = match cheaters::open_up(
        &parsed,
        &load,
        args.check_solutions,
        &plan,
        &|spec| args.strategy.apply(spec),
        |model, tried| {
            if grids == 0 {
                as_drawn = tried.status;
            }
            grids += 1;
            stats.nodes += tried.nodes;
            stats.time += tried.time;
            rejected.extend(tried.rejected.iter().cloned());
            out.write(&if human {
                line(model, tried)
            } else {
                record(model, tried)
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
    let status = match &found {
        Some(_) => Status::Satisfiable,
        None if as_drawn == Status::Unsatisfiable => Status::Unsatisfiable,
        None => Status::Unknown,
    };
    if let Some(Opened { model, values, .. }) = &found {
        if human && let Some((_, layout)) = model.crosswords.first() {
            out.write(&format!(
                "the grid with its new blocks:\n{}",
                picture(layout)
            ));
        }
        out.write(&reporter.solution(model, values, mode));
    } else if human && grids == 1 && !interrupt.stopped() {
        out.write(
            "no cell to try a block at: the search of the grid as drawn failed at none \
             (`cspi explain` shows why it has no fill)\n",
        );
    } else if human {
        out.write(&format!(
            "no grid filled: the grid as drawn and {} with up to {} new {} (each with its twin in a symmetric grid) where its search failed most\n",
            plural(grids - 1, "grid", "grids"),
            plan.most,
            if plan.most == 1 { "block" } else { "blocks" },
        ));
    }
    stats.solutions = u64::from(found.is_some());
    stats.peak_memory = peak_memory();
    let stopped_by = if interrupt.stopped() {
        Some(StoppedBy::Interrupt)
    } else if found.is_none() && deadline.is_some_and(|d| Instant::now() >= d) {
        Some(StoppedBy::TimeLimit)
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
    }
    if let Some(code) = output_exit(&out) {
        return Ok(code);
    }
    if let Some(first) = rejected.first() {
        eprint(&format!(
            "error: the independent checker rejected {}; this is a bug in cspi, please report it\n  first: {first}\n",
            plural(rejected.len() as u64, "solution", "solutions"),
        ));
        return Ok(exit::INTERNAL);
    }
    Ok(interrupt.exit_code().unwrap_or(exit::OK))
}

/// The blocks of a grid tried, as constructors say it: `row 9, column 4`,
/// rows and columns from 1.
fn places(model: &Model, tried: &Tried) -> Vec<(usize, usize)> {
    let width = model.crosswords.first().map_or(1, |(_, l)| l.width);
    tried
        .blocks
        .cells
        .iter()
        .map(|&c| (c / width + 1, c % width + 1))
        .collect()
}

/// One line for people: which grid, how its search ended.
fn line(model: &Model, tried: &Tried) -> String {
    let which = match places(model, tried).as_slice() {
        [] => "the grid as drawn".to_string(),
        cells => {
            let cells: Vec<String> = cells
                .iter()
                .map(|(r, c)| format!("row {r}, column {c}"))
                .collect();
            format!("blocks at {}", cells.join("; "))
        }
    };
    let nodes = plural(tried.nodes, "node", "nodes");
    let secs = tried.time.as_secs_f64();
    let how = match (&tried.unbuilt, tried.status) {
        (Some(why), _) => format!("no fill: {why}"),
        (None, Status::Satisfiable) => format!("filled in {secs:.1} s ({nodes})"),
        (None, Status::Unsatisfiable) => format!("none exists ({nodes})"),
        _ => format!("no fill found in {secs:.1} s ({nodes})"),
    };
    format!("{which}: {how}\n")
}

/// One JSON record: `{"type":"grid","blocks":[[row,column],...],"status":...}`.
fn record(model: &Model, tried: &Tried) -> String {
    #[derive(serde::Serialize)]
    struct Grid<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        blocks: Vec<(usize, usize)>,
        status: &'static str,
        nodes: u64,
        seconds: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        unbuilt: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        picture: Option<&'a str>,
    }
    let picture = (tried.status == Status::Satisfiable)
        .then(|| model.crosswords.first().map(|(_, l)| picture(l)))
        .flatten();
    crate::output::json::to_json(&Grid {
        kind: "grid",
        blocks: places(model, tried),
        status: tried.status.name(),
        nodes: tried.nodes,
        seconds: tried.time.as_secs_f64(),
        unbuilt: tried.unbuilt.as_deref(),
        picture: picture.as_deref(),
    }) + "\n"
}

/// The grid as a picture file writes it: `#` a block, a given letter, `*`
/// a cell of a marked region, `.` any other open cell.
fn picture(layout: &CrosswordLayout) -> String {
    let marked = layout.region != layout.open;
    let mut out = String::new();
    for y in 0..layout.height {
        for x in 0..layout.width {
            let c = y * layout.width + x;
            out.push(match layout.given[c] {
                _ if !layout.open[c] => '#',
                Some(letter) => letter,
                None if marked && layout.region[c] => '*',
                None => '.',
            });
        }
        let _ = writeln!(out);
    }
    out
}
