//! Search statistics, defined once (docs/statistics.md) and rendered in one place.

use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Decisions taken: each left branch (`x = v`) and each right branch (`x != v`).
    pub nodes: u64,
    /// Nodes whose propagation failed.
    pub failures: u64,
    /// Times the search undid a decision to try another branch.
    pub backtracks: u64,
    /// The deepest decision stack seen, in decisions.
    pub max_depth: u64,
    /// Propagator executions.
    pub propagations: u64,
    /// Solutions found or counted, saturating at [`SATURATED`]: that value
    /// means "at least that many" (a count of `2^64` or more, which counting
    /// by components reaches on a few dozen free variables).
    pub solutions: u64,
    pub restarts: u64,
    /// Nogoods recorded at restarts: the refuted branches of the paths
    /// they left (`engine/search/refuted.rs`).
    pub restart_nogoods: u64,
    /// Neighbourhoods searched by large-neighbourhood search.
    pub lns_iterations: u64,
    pub time: Duration,
    /// Learning: failures analysed, nogoods learned, their total length,
    /// backjumps over more than one level, and the time spent in analysis
    /// (explanations included).
    pub conflicts: u64,
    pub learned: u64,
    pub learned_literals: u64,
    pub backjumps: u64,
    pub analysis_time: Duration,
    /// Nogoods received from the other searches of a portfolio.
    pub imported: u64,
    /// Optimisation: each better solution's objective and when it was found.
    pub improvements: Vec<Improvement>,
    /// Where the search failed: each failure of a propagator adds `1 / k`
    /// to each of its `k` variables (indexed by variable; shorter when the
    /// last ones never failed). `solve` draws it over a crossword it could
    /// not fill.
    pub blame: Vec<f64>,
    /// Peak resident memory of the process in bytes, where the OS tells it.
    /// Left `None` by `solve` (reading it costs more than solving a small
    /// model); the CLI fills it in before printing statistics.
    pub peak_memory: Option<u64>,
}

impl Stats {
    /// Name and value of each statistic, in a fixed order, for every renderer.
    pub fn fields(&self) -> Vec<(&'static str, u64)> {
        let mut f = vec![
            ("nodes", self.nodes),
            ("failures", self.failures),
            ("backtracks", self.backtracks),
            ("max_depth", self.max_depth),
            ("propagations", self.propagations),
            ("solutions", self.solutions),
            ("restarts", self.restarts),
            ("time_ms", self.time.as_millis() as u64),
        ];
        if self.conflicts > 0 {
            f.push(("conflicts", self.conflicts));
            f.push(("learned", self.learned));
            f.push((
                "learned_avg_length",
                self.learned_literals.checked_div(self.learned).unwrap_or(0),
            ));
            f.push(("backjumps", self.backjumps));
            f.push(("analysis_ms", self.analysis_time.as_millis() as u64));
        }
        if self.restart_nogoods > 0 {
            f.push(("restart_nogoods", self.restart_nogoods));
        }
        if self.imported > 0 {
            f.push(("imported", self.imported));
        }
        if self.lns_iterations > 0 {
            f.push(("lns_iterations", self.lns_iterations));
        }
        if let Some(m) = self.peak_memory {
            f.push(("peak_memory_kb", m / 1024));
        }
        f
    }
}

/// A solution count that reached it does not fit 64 bits: it reads "at
/// least this many", never as exact.
pub(crate) const SATURATED: u64 = u64::MAX;

/// A better solution found while optimising.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Improvement {
    /// The objective's value (as the model states it, maximised or minimised).
    pub objective: i64,
    /// Time since the search began.
    pub time: Duration,
}

/// The process's peak resident set size (Linux: VmHWM in /proc/self/status).
pub(crate) fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
