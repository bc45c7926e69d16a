//! What a run is, as plain data: the options it is given, how it ended
//! ([`Status`], [`Summary`]) and what its threads and parts did. The
//! library's callers, the parallel and distributed runs and `output/` all
//! read these types; none of them is defined where a run is carried out, so
//! printing a summary needs nothing of the code that produced it.

use crate::engine::search::Outcome;
pub use crate::engine::search::{Limits, MemoryLimit};
/// The engine's types a summary holds: the first decisions (`Summary::trace`) and the statistics.
pub use crate::engine::select::{Branch, Decision};
use crate::engine::split::{Path, Spread, SubProblems};
pub use crate::engine::stats::{Improvement, Stats};
use crate::model::{Model, Propagation, SearchSpec, ValSelect, VarSelect};
use indexmap::IndexMap;
use std::sync::Arc;
use std::time::Duration;

/// The stack of a thread that parses, loads, lowers or searches a model, as
/// the binary's pipeline thread has (a virtual reservation only): the
/// parser and the checker recurse as deep as the model's expressions go.
pub(crate) const WORKER_STACK: usize = 1 << 30;

/// The final state of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Satisfiable,
    Unsatisfiable,
    AllSolutions,
    Optimal,
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Satisfiable => "SATISFIABLE",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::AllSolutions => "ALL_SOLUTIONS",
            Status::Optimal => "OPTIMAL",
            Status::Unknown => "UNKNOWN",
        }
    }
}

pub struct Summary {
    pub status: Status,
    /// What each thread did, when several searched (`Options::threads`).
    pub threads: Vec<ThreadStats>,
    /// The split into sub-problems before the threads searched (also counted
    /// in `stats`).
    pub split: Option<ThreadStats>,
    /// Which part of a split this run solved (`Options::part`).
    pub part: Option<PartInfo>,
    /// With an objective: the best value found (the optimum when `Optimal`).
    pub objective: Option<i64>,
    pub stats: Stats,
    /// Solutions the independent checker rejected (only with `check`); always a bug.
    pub rejected: Vec<String>,
    /// The first decisions, when [`Options::trace`] asked for them.
    pub trace: Vec<Decision>,
    /// Whether a limit or the caller stopped the search before it was complete.
    pub stopped: bool,
    /// The search tree, when [`Options::tree`] asked for it.
    pub(crate) tree: Option<crate::engine::tree::TreeLog>,
}

impl Summary {
    /// A limit (or the caller) stopped the search before any solution:
    /// nothing is proved, and a crossword's map of where its search failed
    /// ([`Stats::blame`]) is what there is to show.
    pub fn stopped_before_a_solution(&self) -> bool {
        self.status == Status::Unknown && self.stats.solutions == 0
    }
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Replaces the model's search block where set.
    pub search: SearchSpec,
    pub limits: Limits,
    /// Re-check every solution against the model with the independent checker.
    pub check: bool,
    /// Only count solutions: `on_solution` is not called (unless `check` is set,
    /// which needs every solution's values).
    pub count_only: bool,
    /// With `count_only`, count every solution leaf by leaf rather than by
    /// product where sound (for tests and benchmarks).
    pub no_product_count: bool,
    /// Record the first N decisions in [`Summary::trace`].
    pub trace: Option<usize>,
    /// Record the search tree, N events at most, in [`Summary::tree`] (one thread only).
    pub tree: Option<usize>,
    /// Search on this many threads (0 or 1: one, the search as it always was;
    /// more: embarrassingly parallel search, `parallel.rs`).
    pub threads: usize,
    /// Solve only this part of a deterministic split (`src/part.rs`).
    pub part: Option<Part>,
    /// With `part`: the log of its empty sub-problems, skipped when recorded
    /// before and recorded as they end (`src/part_log.rs`).
    pub part_log: Option<Arc<crate::part_log::PartLog>>,
    /// Hold every range domain by its bounds only, however narrow (tests of
    /// interval domains: the answers must not change).
    pub bounds_only: bool,
    /// With several threads, first search on one within this budget (see
    /// [`Probe`]): set by the command line when the number of threads was
    /// its own choice, not the user's.
    pub probe: Option<Probe>,
    /// The process exits once this run is reported (the command line's one
    /// run): the engines are not freed at its end. Freeing 1.4 GB of
    /// propagators took 0.9 s, past the time limit that had stopped the run.
    /// Never for a library caller, nor for a run among many in one process.
    pub ends_the_process: bool,
}

/// How long a run that may use several threads first searches on one
/// thread, and how many nodes at most. Most models people solve are done
/// sooner: then the answer is the one-thread run's, without starting
/// threads that would each lower the model again and split it (the 47
/// 8-puzzles, 0.1 s at most each, took 2.3 times the CPU on two threads). A
/// run still going after that starts over on every thread, and the probe's
/// work is lost (a quarter of a second at most: 3% of counting n-queens 14
/// on two threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub time: Duration,
    pub nodes: u64,
    /// The most solution values held back, 64 MiB of them by default: a
    /// model with many quick solutions of many variables, listed with
    /// `--all`, could otherwise hold gigabytes while the probe lasts. Past
    /// it the probe ends there and the threads take over.
    pub held: usize,
}

impl Probe {
    pub const DEFAULT: Probe = Probe {
        time: Duration::from_millis(250),
        nodes: 1_000_000,
        held: 1 << 23,
    };
}

/// Whether a search only counts (never reads solutions): optimisation
/// and checking read every solution.
pub(crate) fn counts_only(model: &Model, options: &Options) -> bool {
    options.count_only && !options.check && model.objective.is_none()
}

/// The status of a run from how its search ended.
pub(crate) fn status(outcome: Outcome, solutions: u64, optimising: bool) -> Status {
    match (outcome, solutions) {
        (Outcome::Exhausted, 0) => Status::Unsatisfiable,
        (Outcome::Exhausted, _) if optimising => Status::Optimal,
        (Outcome::Exhausted, _) => Status::AllSolutions,
        (Outcome::SolutionLimit, _) => Status::Satisfiable,
        // A limit stopped branch and bound: the best solution stands, unproved.
        (Outcome::Interrupted, n) if n > 0 && optimising => Status::Satisfiable,
        (Outcome::Interrupted, _) => Status::Unknown,
    }
}

/// What one thread did.
#[derive(Clone, Debug, Default)]
pub struct ThreadStats {
    /// Sub-problems it searched.
    pub subproblems: u64,
    /// Time spent searching them.
    pub busy: Duration,
    pub stats: Stats,
}

/// How deep sub-parts nest (`K/N:J/M:I/L...`): deep enough that a piece
/// held by one long sub-problem can be split, level by level, until its
/// pieces fit a sitting (`run-parts.py --stall`; themeless15's proof met
/// one that still ran past 20 minutes four levels down, and with a shorter
/// stall reached seven levels).
pub const MAX_NEST: usize = 16;

/// The most parts (N) of a split, or sub-parts (M) of a part: a split
/// holds every sub-problem's path at once (docs/distributed.md).
pub const MAX_PARTS: usize = 1 << 20;

/// The K-th of N parts, `1 <= k <= n`; `K/N:J/M` is the J-th of M parts of
/// part K, split further (a part too long to run in one sitting), and so on
/// down to [`MAX_NEST`] levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub k: usize,
    pub n: usize,
    /// The sub-part at each level, outermost first: `subs[..depth]`.
    subs: [SubPart; MAX_NEST],
    depth: usize,
}

/// The J-th of M parts of a (sub-)part's sub-problems, `1 <= k <= n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubPart {
    pub k: usize,
    pub n: usize,
    /// `J/Me`: the split gives every sub-problem of the piece its share of
    /// the children ([`Spread::Even`]), where `J/M` lets the first ones take
    /// them all ([`Spread::First`]).
    pub even: bool,
}

impl Part {
    /// The K-th of N parts, whole.
    pub fn whole(k: usize, n: usize) -> Part {
        Part {
            k,
            n,
            subs: [SubPart::default(); MAX_NEST],
            depth: 0,
        }
    }

    /// This part's (or sub-part's) sub-part `sub`, one level down.
    pub fn within(mut self, sub: SubPart) -> Result<Part, String> {
        if self.depth == MAX_NEST {
            return Err(format!(
                "sub-parts nest at most {MAX_NEST} deep: split a part into more sub-parts instead"
            ));
        }
        if sub.k == 0 || sub.k > sub.n {
            return Err(format!(
                "sub-parts are numbered from 1 to {}; {} is not one of them",
                sub.n, sub.k
            ));
        }
        self.subs[self.depth] = sub;
        self.depth += 1;
        Ok(self)
    }

    /// The sub-part at each level, outermost first (none for a whole part).
    pub fn subs(&self) -> &[SubPart] {
        &self.subs[..self.depth]
    }

    /// Reads `K/N`, `K/N:J/M`, `K/N:J/M:I/L`, ...
    pub fn parse(s: &str) -> Result<Part, String> {
        let mut levels = s.split(':');
        let (k, n) = index(levels.next().unwrap_or(""), s)?;
        levels.try_fold(Part::whole(k, n), |part, t| {
            let (t, even) = match t.strip_suffix('e') {
                Some(t) => (t, true),
                None => (t, false),
            };
            let (k, n) = index(t, s)?;
            part.within(SubPart { k, n, even })
        })
    }

    /// This part's sub-problems, from the whole split's.
    pub(crate) fn select(self, all: &SubProblems) -> Vec<Path> {
        all.every_nth(self.k, self.n)
    }
}

impl SubPart {
    /// How the split of its piece spreads the children over the piece's
    /// sub-problems.
    pub(crate) fn spread(self) -> Spread {
        if self.even {
            Spread::Even
        } else {
            Spread::First
        }
    }

    /// This sub-part's sub-problems, from its part's split further.
    pub(crate) fn select(self, all: &SubProblems) -> Vec<Path> {
        all.every_nth(self.k, self.n)
    }
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)?;
        self.subs().iter().try_for_each(|sub| {
            let even = if sub.even { "e" } else { "" };
            write!(f, ":{}/{}{even}", sub.k, sub.n)
        })
    }
}

/// Reads one `K/N` of the part `whole`.
fn index(t: &str, whole: &str) -> Result<(usize, usize), String> {
    let (k, n) = t.split_once('/').ok_or_else(|| {
        format!("`{whole}` is not K/N (the K-th of N parts, such as 3/64) or K/N:J/M")
    })?;
    let num = |t: &str, what: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{t}` is not a {what} in `{whole}`"))
    };
    let (k, n) = (num(k, "part number")?, num(n, "number of parts")?);
    if n == 0 || n > MAX_PARTS {
        return Err(format!(
            "the number of parts must be from 1 to {MAX_PARTS}, not {n}"
        ));
    }
    if k == 0 || k > n {
        return Err(format!(
            "parts are numbered from 1 to {n}; {k} is not one of them"
        ));
    }
    Ok((k, n))
}

/// What a part's summary says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartInfo {
    pub part: Part,
    /// Of the model, parameters, strategy, kind of run and N (hex).
    pub fingerprint: String,
    /// Sub-problems in this part, and in the whole split.
    pub subproblems: usize,
    pub total_subproblems: usize,
    /// Sub-problems skipped as recorded empty by an earlier run
    /// (`--part-log`): their work is not in this run's statistics.
    pub resumed: usize,
    /// `minimize` or `maximize` with an objective, for `cspi merge`.
    pub sense: Option<&'static str>,
}

/// The answer of `cspi explain` (`crate::explain`): why a model has no
/// solution, or that it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// The model has a solution: nothing to explain.
    Satisfiable,
    /// The whole model could not be decided within the time limit.
    Unknown,
    /// These constraints (indices into `Model::constraints`, increasing)
    /// cannot all hold.
    Conflict {
        constraints: Vec<usize>,
        /// Every constraint was shown necessary (no check timed out, no limit hit).
        minimal: bool,
        /// Satisfiability checks run.
        checks: u64,
    },
}

/// The combined result of the parts of a split (`cspi merge`, `crate::merge`);
/// `output::merge` prints it.
pub(crate) struct Merged {
    /// The solution records to print: every part's, or the best one.
    pub solutions: Vec<String>,
    pub status: &'static str,
    /// The solutions counted (with an objective, the records kept).
    pub count: u64,
    /// The best objective, with a lexicographic objective's components as
    /// the best part gave them (`objective_lex`).
    pub objective: Option<(i64, Option<serde_json::Value>)>,
    /// The parts merged, of how many (N).
    pub parts: usize,
    pub of: u64,
    /// A partial merge's missing parts and sub-parts, runs of them as
    /// `first to last` (`merge::merge`); empty when every part is there.
    pub missing: Vec<String>,
    /// The fingerprint the parts share.
    pub fingerprint: String,
    /// The parts' `totals` and `stats` summed field by field (the deepest
    /// depth, the largest memory), in the order of the parts' records.
    pub totals: Option<IndexMap<String, i64>>,
    pub stats: Option<IndexMap<String, i64>>,
    /// Where the searches of a crossword failed, over the parts a limit
    /// stopped before a fill, when no part filled it.
    pub failed: Option<FailedMap>,
}

/// Cells to turn into blocks in a crossword (`cspi solve --try-blocks`,
/// `crate::cheaters`), row-major, with their share of the failures of
/// the search of the grid as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockSet {
    pub cells: Vec<usize>,
    pub share: f64,
}

impl BlockSet {
    /// The cells as (row, column) from 0, in a grid `width` cells wide.
    pub fn places(&self, width: usize) -> Vec<(usize, usize)> {
        self.cells.iter().map(|&c| (c / width, c % width)).collect()
    }
}

/// One grid searched: the blocks added (none for the grid as drawn) and how
/// its search ended (`Satisfiable`, `Unsatisfiable` or, stopped by the
/// budget, `Unknown`).
#[derive(Clone, Debug)]
pub struct Tried {
    pub blocks: BlockSet,
    pub status: Status,
    /// Its search's statistics (`time` the search's, loading aside).
    pub stats: Stats,
    /// Fills the independent checker rejected (with `check`): a bug.
    pub rejected: Vec<String>,
    /// Why the grid could not be built (an entry no word of the list
    /// fits): it has no fill, and was not searched.
    pub unbuilt: Option<String>,
    /// Its search was stopped because a grid searched beside it filled
    /// (`--threads`).
    pub cut_short: bool,
}

/// One candidate value of the variable `cspi solve --suggest` asks about
/// (`crate::suggest`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub value: i64,
    /// The score of its word, for word variables over a scored list.
    pub score: Option<i64>,
    /// The exact number of solutions with this value; `None` when a limit
    /// stopped the count.
    pub count: Option<u64>,
}

/// The candidates of one variable, and the values every variable keeps.
#[derive(Clone, Debug, Default)]
pub struct Suggestions {
    /// Values left in each variable's domain after propagation at the root
    /// (all 0 when the root fails: no solution at all).
    pub sizes: Vec<u64>,
    /// The candidates counted, best score first (then by value).
    pub candidates: Vec<Candidate>,
    /// Candidates left after propagation, counted or not.
    pub left: u64,
    /// A limit or the stop flag ended the lowering or the root's
    /// propagation: nothing is known, `sizes` and `candidates` are empty.
    pub stopped: bool,
}

/// `{"type":"failed",...}`, the map as a record: the grid's name, each
/// cell's share of the failures (`null` for a block), every entry blamed
/// with its share, most first, and the failures blamed in all (the weight
/// of this map when `cspi merge` combines the maps of a split's parts).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename = "failed")]
pub(crate) struct FailedMap {
    pub grid: String,
    pub cells: Vec<Vec<Option<f64>>>,
    pub entries: Vec<FailedEntry>,
    /// Absent from the records of builds before `cspi merge` read them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<f64>,
}

/// An entry of a [`FailedMap`]: its name, its place, its share of the failures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct FailedEntry {
    pub name: String,
    pub row: usize,
    pub column: usize,
    pub length: usize,
    pub across: bool,
    pub share: f64,
}

impl FailedMap {
    /// The maps of the parts of one split as one: each part's shares
    /// weighed by the failures it blamed; `None` without maps, or when
    /// they are not of one grid.
    pub(crate) fn merge(maps: &[FailedMap]) -> Option<FailedMap> {
        let first = maps.first()?;
        let shape = |m: &FailedMap| {
            (
                m.grid.clone(),
                m.cells.iter().map(Vec::len).collect::<Vec<_>>(),
            )
        };
        if maps.iter().any(|m| shape(m) != shape(first)) {
            return None;
        }
        // A record without its failures weighs as much as the others' mean.
        let known: Vec<f64> = maps.iter().filter_map(|m| m.failures).collect();
        let mean = if known.is_empty() {
            1.0
        } else {
            known.iter().sum::<f64>() / known.len() as f64
        };
        let weight: Vec<f64> = maps.iter().map(|m| m.failures.unwrap_or(mean)).collect();
        let total: f64 = weight.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut cells = first.cells.clone();
        for (y, row) in cells.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                if cell.is_some() {
                    let sum = maps
                        .iter()
                        .zip(&weight)
                        .map(|(m, w)| m.cells[y][x].unwrap_or(0.0) * w)
                        .sum::<f64>();
                    *cell = Some(sum / total);
                }
            }
        }
        let mut entries: Vec<FailedEntry> = Vec::new();
        for (m, w) in maps.iter().zip(&weight) {
            for e in &m.entries {
                match entries.iter_mut().find(|x| x.name == e.name) {
                    Some(x) => x.share += e.share * w / total,
                    None => entries.push(FailedEntry {
                        share: e.share * w / total,
                        ..e.clone()
                    }),
                }
            }
        }
        entries.sort_by(|a, b| b.share.total_cmp(&a.share));
        Some(FailedMap {
            grid: first.grid.clone(),
            cells,
            entries,
            failures: Some(total),
        })
    }
}

/// One combination of strategies (`cspi bench`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Combo {
    pub var: VarSelect,
    pub val: ValSelect,
    pub propagation: Propagation,
}

/// The measurements of one run of `cspi bench`.
#[derive(Clone, Debug)]
pub(crate) struct BenchRun {
    pub status: Status,
    /// The best objective found (the optimum when the status is `OPTIMAL`).
    pub objective: Option<i64>,
    pub solutions: u64,
    pub nodes: u64,
    pub failures: u64,
    pub max_depth: u64,
    pub propagations: u64,
    pub time_ms: f64,
}

/// All runs of one combination of `cspi bench`.
#[derive(Clone, Debug)]
pub(crate) struct BenchRow {
    pub combo: Combo,
    pub runs: Vec<BenchRun>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_read_and_checked() {
        assert_eq!(Part::parse("3/64"), Ok(Part::whole(3, 64)));
        assert_eq!(
            Part::parse("3/64:2/16"),
            Part::whole(3, 64).within(SubPart {
                k: 2,
                n: 16,
                even: false
            })
        );
        assert_eq!(
            Part::parse("3/64:2/16").map(|p| p.to_string()),
            Ok("3/64:2/16".into())
        );
        let deep = Part::parse("3/64:2/16:5/8e").unwrap();
        assert_eq!(
            deep.subs(),
            [
                SubPart {
                    k: 2,
                    n: 16,
                    even: false
                },
                SubPart {
                    k: 5,
                    n: 8,
                    even: true
                }
            ]
        );
        assert_eq!(deep.to_string(), "3/64:2/16:5/8e");
        assert_eq!(deep.subs()[1].spread(), Spread::Even);
        assert!(
            Part::parse("3/64e").is_err(),
            "the parts of the whole are not sub-parts"
        );
        assert!(Part::parse("3/64:1/2ee").is_err());
        assert!(Part::parse("3/64:1e/2").is_err());
        assert!(Part::parse("3/64:0/16").is_err());
        assert!(Part::parse("3/64:2").is_err());
        let nested = |levels: usize| format!("1/2{}", ":1/2".repeat(levels));
        assert!(Part::parse(&nested(MAX_NEST)).is_ok());
        let too_deep = Part::parse(&nested(MAX_NEST + 1));
        assert!(
            too_deep
                .unwrap_err()
                .contains(&format!("at most {MAX_NEST} deep"))
        );
        assert!(Part::parse("0/4").unwrap_err().contains("from 1 to 4"));
        assert!(Part::parse("5/4").is_err());
        assert!(Part::parse("1/0").is_err());
        assert!(Part::parse("2").unwrap_err().contains("K/N"));
        assert!(Part::parse("a/4").is_err());
    }

    #[test]
    fn parts_take_every_nth_sub_problem() {
        let decision = |v| Decision {
            var: 0,
            branch: Branch::Assign(v),
            right: false,
        };
        let all: Vec<Path> = (0..10).map(|v| vec![decision(v)]).collect();
        let tree = SubProblems::from_paths(all);
        let firsts = |k| -> Vec<i64> {
            let paths = Part::whole(k, 3).select(&tree);
            paths
                .iter()
                .map(|p| match p[0].branch {
                    Branch::Assign(v) => v,
                    Branch::AtMost(v) => -v,
                })
                .collect()
        };
        assert_eq!(firsts(1), [0, 3, 6, 9]);
        assert_eq!(firsts(2), [1, 4, 7]);
        assert_eq!(firsts(3), [2, 5, 8]);
    }
}
