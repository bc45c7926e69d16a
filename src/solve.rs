//! The pipeline as a library: load a model (parse and check), then solve it,
//! handing each solution to the caller.

use crate::diag::{Diag, Diags, Source};
pub use crate::engine::search::Next;
use crate::engine::search::lns::Lns;
use crate::engine::search::{Outcome, Search};
use crate::lower::lower_until;
use crate::model::{Model, SearchSpec};
pub use crate::run::{Limits, MemoryLimit, Options, Probe, Status, Summary};
use crate::run::{counts_only, status};
use crate::sema;
pub use crate::sema::LoadOptions;
pub use crate::sema::ParamOverride;
use crate::setup::{Reception, primary, strategy};
use crate::syntax;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The largest model file cspi reads.
const MAX_MODEL_BYTES: u64 = 64 << 20;

/// Where a model's text comes from: a file, text in memory (relative paths
/// in it resolve against `dir`), or a model already parsed (`--each` checks
/// one parse against many sets of parameters).
#[derive(Clone, Copy)]
pub enum ModelSource<'a> {
    File(&'a Path),
    Text {
        name: &'a str,
        text: &'a str,
        dir: &'a Path,
    },
    Parsed(&'a Parsed),
}

impl<'a> ModelSource<'a> {
    /// Model text named `name` (for messages); relative paths in it resolve
    /// against the working directory.
    pub fn text(name: &'a str, text: &'a str) -> Self {
        ModelSource::Text {
            name,
            text,
            dir: Path::new("."),
        }
    }

    /// Model text whose relative paths resolve against `dir`.
    pub fn text_in(name: &'a str, text: &'a str, dir: &'a Path) -> Self {
        ModelSource::Text { name, text, dir }
    }
}

impl<'a> From<&'a Path> for ModelSource<'a> {
    fn from(path: &'a Path) -> Self {
        ModelSource::File(path)
    }
}

impl<'a> From<&'a PathBuf> for ModelSource<'a> {
    fn from(path: &'a PathBuf) -> Self {
        ModelSource::File(path)
    }
}

impl<'a> From<&'a Parsed> for ModelSource<'a> {
    fn from(parsed: &'a Parsed) -> Self {
        ModelSource::Parsed(parsed)
    }
}

/// Reads, parses and checks a model under `options` (parameters, data
/// files, sandbox, bounds): the one way into a [`Model`].
pub fn load<'a>(source: impl Into<ModelSource<'a>>, options: &LoadOptions) -> Result<Model, Diags> {
    match source.into() {
        ModelSource::Parsed(parsed) => parsed.check(options),
        other => parse(other)?.check(options),
    }
}

/// Whether `d` says the model has no solution because a word or a length
/// is missing from its word list (an entry no word fits), rather than that
/// it is wrong or a limit stopped its building.
pub fn no_words(d: &Diags) -> bool {
    d.0.first().is_some_and(|d| d.code == sema::NO_WORDS)
}

/// A model parsed once, to be checked against many sets of parameters
/// (`cspi solve --each`) without parsing it again.
pub struct Parsed {
    pub(crate) source: Source,
    pub(crate) ast: syntax::ast::Model,
    /// Where relative paths in the model resolve.
    pub(crate) dir: PathBuf,
}

impl Parsed {
    /// The model's text and name, for diagnostics and explanations.
    pub fn source(&self) -> &Source {
        &self.source
    }

    fn check(&self, options: &LoadOptions) -> Result<Model, Diags> {
        let input = sema::Input {
            source: &self.source,
            model_dir: self.dir.clone(),
            overrides: &options.params,
            data_files: &options.data_files,
            options,
            memory: crate::memory::Mark::now(),
        };
        sema::check(&input, &self.ast)
    }
}

/// Reads (a file through the one reader, `crate::reader`) and parses a
/// model, to be checked later through [`load`].
pub fn parse<'a>(source: impl Into<ModelSource<'a>>) -> Result<Parsed, Diags> {
    match source.into() {
        ModelSource::File(path) => parse_file(path),
        ModelSource::Text { name, text, dir } => parse_str(name, text, dir),
        ModelSource::Parsed(parsed) => Ok(Parsed {
            source: parsed.source.clone(),
            ast: parsed.ast.clone(),
            dir: parsed.dir.clone(),
        }),
    }
}

fn parse_file(path: &Path) -> Result<Parsed, Diags> {
    let shown = crate::reader::shown(path);
    let text = crate::reader::read_text(path, MAX_MODEL_BYTES, None).map_err(|r| {
        Diags::from(
            Diag::new(
                "cspi::file",
                format!("cannot read model `{shown}`: {}", r.reason()),
            )
            .help(crate::diag::with_looked_for(
                r.help("model files"),
                &r,
                path,
            ))
            .usage(),
        )
    })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse_str(&shown, &text, &dir)
}

fn parse_str(name: &str, text: &str, dir: &Path) -> Result<Parsed, Diags> {
    let source = Source::new(name, text);
    let ast = syntax::parse(text)
        .map_err(|ds| Diags(ds.0.into_iter().map(|d| d.in_source(&source)).collect()))?;
    Ok(Parsed {
        source,
        ast,
        dir: dir.to_path_buf(),
    })
}

/// Checks that the search strategy applies to the model's variables: value
/// selection by score needs word variables whose dictionary has scores.
pub fn check_strategy(model: &Model, spec: &SearchSpec) -> Result<(), Diag> {
    use crate::model::{ValSelect, VarKind};
    let scored = model.vars.iter().any(|v| match &v.kind {
        VarKind::Word(list) => !list.scores.is_empty(),
        _ => false,
    });
    if spec.val == ValSelect::Score && !scored {
        return Err(Diag::new(
            "cspi::search::not_applicable",
            "value selection `score` needs word variables over a dictionary with scores",
        )
        .help("give the dictionary `word;score` lines, or choose min, max, random or lcv"));
    }
    Ok(())
}

/// Solves the model; `on_solution` receives each solution (one value per
/// model variable) and may stop the search. With an objective, the search is
/// branch and bound: each solution handed over is strictly better than the
/// one before, and an exhausted search proves the last one optimal.
pub fn solve(
    model: &Arc<Model>,
    options: &Options,
    mut on_solution: impl FnMut(&[i64]) -> Next,
) -> Summary {
    if let Some(budget) = options
        .probe
        .filter(|_| options.threads > 1 && options.part.is_none())
    {
        let start = Instant::now();
        if let Some(summary) = probe(model, options, budget, &mut on_solution) {
            return summary;
        }
        return crate::parallel::solve_from(model, options, start, on_solution);
    }
    if options.threads > 1 || options.part.is_some() {
        return crate::parallel::solve(model, options, on_solution);
    }
    one_thread(model, options, on_solution)
}

/// Searches on one thread within the probe's budget (or the user's limits,
/// when smaller), holding the solutions back: the run, its solutions handed
/// over, when it ended on its own (complete, a solution limit, the user's
/// limits or stop); `None` when the probe's budget ran out first, and
/// nothing was handed over.
fn probe(
    model: &Arc<Model>,
    options: &Options,
    budget: Probe,
    on_solution: &mut impl FnMut(&[i64]) -> Next,
) -> Option<Summary> {
    let mut o = options.clone();
    o.threads = 1;
    // The threads may take over: the probe's engine is freed.
    o.ends_the_process = false;
    let user = (options.limits.time, options.limits.nodes);
    o.limits.time = Some(user.0.map_or(budget.time, |t| t.min(budget.time)));
    o.limits.nodes = Some(user.1.map_or(budget.nodes, |n| n.min(budget.nodes)));
    let mut held: Vec<Vec<i64>> = Vec::new();
    let mut held_values = 0;
    let mut summary = one_thread(model, &o, |values| {
        held_values += values.len().max(1);
        if held_values > budget.held {
            return Next::Stop;
        }
        held.push(values.to_vec());
        Next::Continue
    });
    let user_stop = options
        .limits
        .stop
        .as_ref()
        .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let users_limit = user
        .0
        .is_some_and(|t| t <= budget.time && summary.stats.time >= t)
        || user
            .1
            .is_some_and(|n| n <= budget.nodes && summary.stats.nodes >= n);
    if summary.stopped && !user_stop && !users_limit {
        return None;
    }
    for values in &held {
        if on_solution(values) == Next::Stop {
            summary.stopped = true;
            summary.status = status(
                Outcome::Interrupted,
                summary.stats.solutions,
                model.objective.is_some(),
            );
            break;
        }
    }
    Some(summary)
}

/// The search on one thread, as it always was.
fn one_thread(
    model: &Arc<Model>,
    options: &Options,
    mut on_solution: impl FnMut(&[i64]) -> Next,
) -> Summary {
    let start = Instant::now();
    let spec = options.search.clone();
    // The limits hold while the model is lowered too, and the search gets
    // what lowering left of the time.
    let mut go_on = options.limits.go_on_from(start);
    let posted = lower_until(model, spec.propagation, options.bounds_only, &mut go_on);
    let mut limits = options.limits.clone();
    limits.time = limits.time.map(|t| t.saturating_sub(start.elapsed()));
    let mut engine = posted.engine;
    let crossings = Arc::new(posted.crossings);
    let goal = model.objective.as_ref();
    let mut reception = Reception::new(model, options.check, start);
    let mut trace = Vec::new();
    let mut tree = None;
    let mut lns_iterations = 0;
    let outcome = if posted.stopped {
        Outcome::Interrupted
    } else if posted.consistent {
        let mut search = Search::new(
            &mut engine,
            strategy(model, &spec, goal.is_some() && posted.objective.is_some()),
            &primary(model),
            crossings,
            limits,
        );
        if let Some(n) = options.trace {
            search.trace(n);
        }
        if let Some(n) = options.tree {
            search.record_tree(n);
        }
        if let Some(o) = posted.objective {
            search.minimize(o);
            search.lns(Lns::new(spec.lns));
        }
        if counts_only(model, options) {
            search.count_only(!options.no_product_count);
        }
        let outcome = search.run(|values| {
            if reception.take(values) {
                on_solution(values)
            } else {
                Next::Continue
            }
        });
        trace = search.decisions().to_vec();
        tree = search.take_tree();
        lns_iterations = search.lns_iterations();
        if options.ends_the_process {
            // With the crossings of a crossword (freed with it otherwise).
            std::mem::forget(search);
        }
        outcome
    } else {
        engine.stats.failures += 1;
        Outcome::Exhausted
    };
    let mut stats = std::mem::take(&mut engine.stats);
    if options.ends_the_process {
        std::mem::forget(engine);
    }
    if goal.is_some() {
        // Solutions that did not improve the objective were not reported.
        stats.solutions = reception.reported;
    }
    stats.time = start.elapsed();
    stats.improvements = std::mem::take(&mut reception.improvements);
    stats.lns_iterations = lns_iterations;
    Summary {
        status: status(outcome, stats.solutions, goal.is_some()),
        objective: reception.best,
        stats,
        rejected: reception.rejected,
        trace,
        threads: Vec::new(),
        split: None,
        part: None,
        stopped: outcome == Outcome::Interrupted,
        tree,
    }
}
