//! Everything cspi prints about a run, behind one interface.
//!
//! A [`Reporter`] turns events (a solution, the end of a run, an instance of
//! `--each` starting or failing, the summary of many instances) into text;
//! the caller writes that text through [`sink`], which never panics. Two
//! formats exist: `human.rs` for people and `json.rs` for machines (JSON
//! Lines). A new format is one new file and one arm in [`Format::reporter`].
//!
//! Statistics are named once, in `engine::stats::Stats::fields`; nested
//! arrays are walked once, in `nested.rs`.

pub(crate) mod bench;
pub(crate) mod blocks;
pub(crate) mod chart;
pub(crate) mod explain;
pub(crate) mod fillability;
pub(crate) mod grid_text;
pub mod human;
pub(crate) mod ipuz;
pub mod json;
pub(crate) mod merge;
pub(crate) mod nested;
pub(crate) mod puz;
pub mod report;
pub mod sink;
pub(crate) mod stuck;
pub mod svg;
pub(crate) mod tree;

use crate::engine::stats::Stats;
use crate::model::Model;
use crate::run::Status;
use std::time::Duration;

/// The output formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Grids and `name = value` lines for people.
    Human,
    /// One JSON object per line (JSON Lines).
    Json,
}

impl Format {
    pub(crate) fn reporter(self) -> Box<dyn Reporter> {
        match self {
            Format::Human => Box::new(human::Human::default()),
            Format::Json => Box::new(json::JsonLines::default()),
        }
    }
}

/// What stopped a search before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StoppedBy {
    Interrupt,
    TimeLimit,
    NodeLimit,
    /// `--memory-limit`, once the model was built (building refuses a model
    /// past it with a diagnostic instead).
    MemoryLimit,
    /// The reader of the output went away.
    Output,
    /// `--try-blocks`: every grid's own budget (`--time-per-grid`,
    /// `--node-limit`) ran out before a grid filled.
    GridBudget,
}

impl StoppedBy {
    pub(crate) fn name(self) -> &'static str {
        match self {
            StoppedBy::Interrupt => "interrupt",
            StoppedBy::TimeLimit => "time limit",
            StoppedBy::NodeLimit => "node limit",
            StoppedBy::MemoryLimit => "memory limit",
            StoppedBy::Output => "output closed",
            StoppedBy::GridBudget => "grid budget",
        }
    }
}

/// How the run was asked to report.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mode {
    /// `--count`: no solutions printed, only their number.
    pub(crate) count: bool,
    /// Several solutions may be printed (`-n N`, `--all`, optimisation):
    /// each gets a separator for people.
    pub(crate) many: bool,
    /// `--json-text`: JSON solution records carry the text people would see.
    pub(crate) text: bool,
}

/// The end of one run.
#[derive(Clone, Debug)]
pub(crate) struct RunEnd<'a> {
    pub(crate) status: Status,
    /// With an objective: the best value found (the optimum when `Optimal`).
    pub(crate) objective: Option<i64>,
    /// The objective, when lexicographic: its components are reported too.
    pub(crate) lex: Option<&'a crate::model::Objective>,
    pub(crate) stats: &'a Stats,
    /// The model's `total(...)` outputs, summed over the solutions.
    pub(crate) totals: &'a [(String, i64)],
    /// Why an incomplete search stopped, if a limit or signal did.
    pub(crate) stopped_by: Option<StoppedBy>,
    /// The part of a split this run solved (`--part`).
    pub(crate) part: Option<&'a crate::run::PartInfo>,
    /// Per-thread statistics, when asked for (`--thread-stats`).
    pub(crate) threads: &'a [crate::run::ThreadStats],
    /// The split into sub-problems before the threads searched, with them.
    pub(crate) split: Option<&'a crate::run::ThreadStats>,
}

impl RunEnd<'_> {
    /// The best objective as people read it: `lex(3, 5)` for a
    /// lexicographic one.
    pub(crate) fn shown_objective(&self) -> String {
        let v = self.objective.unwrap_or(0);
        self.lex.map_or_else(|| v.to_string(), |o| o.shown(v))
    }
}

/// What many instances (`--each`) came to.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    pub(crate) instances: u64,
    /// Solutions found (SATISFIABLE, ALL_SOLUTIONS, OPTIMAL).
    pub(crate) solved: u64,
    pub(crate) unsatisfiable: u64,
    pub(crate) unknown: u64,
    /// Instances whose data or model was wrong.
    pub(crate) errors: u64,
    pub(crate) time: Duration,
}

impl Tally {
    pub(crate) fn add(&mut self, status: Status) {
        self.instances += 1;
        match status {
            Status::Unsatisfiable => self.unsatisfiable += 1,
            Status::Unknown => self.unknown += 1,
            _ => self.solved += 1,
        }
    }
}

/// Turns the events of a run into text. Each call returns whole lines.
pub(crate) trait Reporter {
    /// An instance of `--each` begins; later records are tagged with its name.
    fn instance(&mut self, name: &str) -> String;
    /// One solution (one value per model variable).
    fn solution(&mut self, model: &Model, values: &[i64], mode: Mode) -> String;
    /// The end of a run.
    fn end(&mut self, end: &RunEnd, mode: Mode) -> String;
    /// An instance of `--each` failed to load; its diagnostics go to stderr.
    fn instance_error(&mut self, message: &str) -> String;
    /// The summary of `--each`.
    fn tally(&mut self, tally: &Tally) -> String;
}

pub(crate) use crate::diag::plural;

/// A solution count in words: `n solutions`, or `at least n solutions` when
/// it saturated.
pub(crate) fn count_text(n: u64) -> String {
    let words = plural(n, "solution", "solutions");
    if n == crate::engine::stats::SATURATED {
        format!("at least {words}")
    } else {
        words
    }
}
