//! The search specification: which variable to branch on, which value to try
//! first, how hard to propagate. Names are shared by the model's `search` block
//! and the command line's `--var`, `--val` and `--propagation` flags.

use std::fmt;

/// A strategy enum whose variants are known by fixed names.
pub trait Named: Sized + Copy + 'static {
    const ALL: &'static [(&'static str, Self)];
    /// What the option is called, for messages.
    const WHAT: &'static str;

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
    fn name(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::ALL
            .iter()
            .find(|(_, v)| *v == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|(n, _)| *n).collect()
    }
    /// Names other solvers use (Choco, MiniZinc, textbooks) and ours for them.
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[];
    /// Our name for another solver's, ignoring case and `_` versus `-`.
    fn synonym(name: &str) -> Option<&'static str> {
        let key = name.to_ascii_lowercase().replace('_', "-");
        Self::SYNONYMS
            .iter()
            .find(|(other, _)| *other == key)
            .map(|&(_, ours)| ours)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VarSelect {
    /// The first unassigned variable in declaration order.
    #[default]
    Input,
    /// Minimum remaining values (first-fail).
    Mrv,
    /// Most constraints on unassigned variables.
    Degree,
    MrvDegree,
    DegreeMrv,
    /// Smallest domain size over weighted degree; weights grow on failure.
    DomWdeg,
    Random,
    /// Smallest minimum first, ties to the smallest maximum (start times:
    /// earliest start, then earliest latest start).
    Smallest,
    /// The most active variable: activities grow for the variables of each
    /// conflict (with learning) or failing constraint, and decay (VSIDS).
    Activity,
}

impl Named for VarSelect {
    const WHAT: &'static str = "variable selection";
    const ALL: &'static [(&'static str, Self)] = &[
        ("input", VarSelect::Input),
        ("mrv", VarSelect::Mrv),
        ("degree", VarSelect::Degree),
        ("mrv-degree", VarSelect::MrvDegree),
        ("degree-mrv", VarSelect::DegreeMrv),
        ("dom-wdeg", VarSelect::DomWdeg),
        ("random", VarSelect::Random),
        ("smallest", VarSelect::Smallest),
        ("activity", VarSelect::Activity),
    ];
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[
        ("first-fail", "mrv"),
        ("ff", "mrv"),
        ("smallest-domain", "mrv"),
        ("dom", "mrv"),
        ("input-order", "input"),
        ("lex", "input"),
        ("occurrence", "degree"),
        ("most-constrained", "mrv-degree"),
        ("dom-deg", "mrv-degree"),
        ("domwdeg", "dom-wdeg"),
        ("dom-w-deg", "dom-wdeg"),
        ("wdeg", "dom-wdeg"),
        ("smallest-lb", "smallest"),
        ("min-lb", "smallest"),
        ("earliest-start", "smallest"),
        ("vsids", "activity"),
        ("conflict-activity", "activity"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ValSelect {
    /// Smallest value first (lexicographic for words).
    #[default]
    Min,
    Max,
    Random,
    /// Least-constraining value: the value leaving most support in neighbours.
    Lcv,
    /// Words with the best score first (`word;score` dictionaries); ties and
    /// unscored variables go smallest first.
    Score,
    /// For word variables, the word leaving the slots it crosses the most
    /// words (crossword fill); ties by score.
    Fill,
    /// As `Fill`, but one of the two best-rated words, drawn at random
    /// (seeded): restarts then try other words as well as other variables.
    FillRandom,
    /// Halve the domain: `x <= mid`, then `x > mid`.
    Split,
}

impl Named for ValSelect {
    const WHAT: &'static str = "value selection";
    const ALL: &'static [(&'static str, Self)] = &[
        ("min", ValSelect::Min),
        ("max", ValSelect::Max),
        ("random", ValSelect::Random),
        ("lcv", ValSelect::Lcv),
        ("score", ValSelect::Score),
        ("fill", ValSelect::Fill),
        ("fill-random", ValSelect::FillRandom),
        ("split", ValSelect::Split),
    ];
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[
        ("indomain-min", "min"),
        ("indomain", "min"),
        ("smallest", "min"),
        ("indomain-max", "max"),
        ("largest", "max"),
        ("indomain-random", "random"),
        ("least-constraining", "lcv"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Propagation {
    /// Constraints are only checked once all their variables are assigned.
    None,
    /// Each assignment prunes its neighbours' domains, one step.
    Fc,
    /// Every propagator runs to a common fixpoint.
    #[default]
    Ac,
}

impl Named for Propagation {
    const WHAT: &'static str = "propagation level";
    const ALL: &'static [(&'static str, Self)] = &[
        ("none", Propagation::None),
        ("fc", Propagation::Fc),
        ("ac", Propagation::Ac),
    ];
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[
        ("gac", "ac"),
        ("domain", "ac"),
        ("arc-consistency", "ac"),
        ("mac", "ac"),
        ("forward-checking", "fc"),
        ("forward", "fc"),
        ("backtracking", "none"),
        ("bt", "none"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Restarts {
    #[default]
    None,
    /// Restart after `scale * luby(i)` failures.
    Luby,
    /// Restart after `scale * 1.5^i` failures.
    Geometric,
}

impl Named for Restarts {
    const WHAT: &'static str = "restart policy";
    const ALL: &'static [(&'static str, Self)] = &[
        ("none", Restarts::None),
        ("luby", Restarts::Luby),
        ("geometric", Restarts::Geometric),
    ];
}

/// Which remembered value a variable takes first (see
/// `engine/select/val/guided.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Guide {
    /// `solution` when optimising with restarts or LNS, else `none`.
    #[default]
    Auto,
    /// The value selection alone.
    None,
    /// The variable's value in the best solution so far, if still possible.
    Solution,
    /// The value the variable was last given (phase saving).
    Phase,
}

impl Named for Guide {
    const WHAT: &'static str = "value guidance";
    const ALL: &'static [(&'static str, Self)] = &[
        ("auto", Guide::Auto),
        ("none", Guide::None),
        ("solution", Guide::Solution),
        ("phase", Guide::Phase),
    ];
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[
        ("solution-guided", "solution"),
        ("best", "solution"),
        ("phase-saving", "phase"),
        ("last", "phase"),
    ];
}

/// Large-neighbourhood search for optimisation (`engine/search/lns.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LnsKind {
    /// Plain branch and bound.
    #[default]
    None,
    /// Fix a random share of the variables to the best solution's values.
    Random,
    /// Fix variables one by one, each next to the last through propagation.
    Propagation,
    /// Alternate the random and propagation-guided neighbourhoods.
    Mixed,
}

impl Named for LnsKind {
    const WHAT: &'static str = "large-neighbourhood search";
    const ALL: &'static [(&'static str, Self)] = &[
        ("none", LnsKind::None),
        ("random", LnsKind::Random),
        ("propagation", LnsKind::Propagation),
        ("mixed", LnsKind::Mixed),
    ];
    const SYNONYMS: &'static [(&'static str, &'static str)] = &[
        ("pg", "propagation"),
        ("pgn", "propagation"),
        ("propagation-guided", "propagation"),
        ("rand", "random"),
        ("off", "none"),
    ];
}

/// The search block of a model, before command-line overrides.
#[derive(Clone, Debug, Default)]
pub struct SearchSpec {
    pub var: VarSelect,
    pub val: ValSelect,
    pub propagation: Propagation,
    pub restarts: Restarts,
    /// Solution-guided value choice or phase saving.
    pub guide: Guide,
    /// Large-neighbourhood search (optimisation only).
    pub lns: LnsKind,
    /// Break variable-selection ties at random instead of by input order.
    pub random_ties: bool,
    pub seed: u64,
    /// Variables to branch on first, in this order; the rest follow.
    pub scope: Vec<super::VarId>,
    /// Learn nogoods from failures (docs/learning.md); `None`: the default
    /// for the kind of run (`setup::learning`).
    pub learning: Option<bool>,
    /// A sequence of searches, each over its own variables with its own
    /// choices (FlatZinc's `seq_search`): the search branches on the first
    /// phase's variables until they are all assigned, then the next
    /// phase's, and so on; `var` and `val` take the rest. Empty: one phase.
    pub phases: Vec<SearchPhase>,
    /// Search for a first solution by components (`components on`,
    /// docs/search.md): a node whose open variables fall apart, all-different
    /// aside, has each part searched on its own.
    pub components: bool,
    /// Keep the branches a restart leaves as nogoods (`restart_nogoods
    /// on|off`, docs/search.md); `None`: on.
    pub restart_nogoods: Option<bool>,
}

/// One phase of a sequential search (see [`SearchSpec::phases`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchPhase {
    pub vars: Vec<super::VarId>,
    pub var: VarSelect,
    pub val: ValSelect,
}

impl fmt::Display for SearchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "var {}, val {}, propagation {}",
            self.var.name(),
            self.val.name(),
            self.propagation.name()
        )
    }
}
