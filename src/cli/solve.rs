//! `cspi solve`: load the model, search, report each solution and the end of
//! the run through the chosen reporter. `--each` (each.rs) reuses [`Runner`]
//! once per instance.

use super::interrupt::Interrupt;
use super::params::projection;
use super::{ModelArgs, SolveArgs};
use crate::diag::{Diag, Diags, exit};
use crate::engine::search::{Limits, MemoryLimit, Next};
use crate::engine::stats::{Stats, peak_memory};
use crate::model::{Model, OutputItem};
use crate::output::sink::{Failure, Stdout, eprint};
use crate::output::{Format, Mode, Reporter, RunEnd, StoppedBy, human, plural};
use crate::run::FailedMap;
use crate::sema::ParamOverride;
use crate::solve::{self, Options, Status};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) fn command(args: &SolveArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    if let Some(spec) = &args.each {
        return super::each::command(args, spec, interrupt);
    }
    if !args.each_data.is_empty() {
        return super::each::data_command(args, interrupt);
    }
    if args.try_blocks.is_some() {
        return super::blocks::command(args, interrupt);
    }
    let mut runner = Runner::new(args, interrupt);
    let mut options = args.model.load_options(interrupt)?;
    // The time limit covers loading too: a model can take long to build.
    options.deadline = args.time_limit.and_then(|t| runner.started.checked_add(t));
    // The checker evaluates the constraints as written: built only when asked.
    options.as_written = args.check_solutions;
    let model = match load_or_stopped(&args.model.model, &options)? {
        Ok(model) => model,
        Err(by) => return Ok(runner.stopped_loading(by)),
    };
    runner.only = true;
    let end = runner.run(model)?;
    Ok(runner.exit_code(end.rejected))
}

/// The model, or what stopped its building (the time limit, a signal: an
/// answer, `UNKNOWN`, for the command to give); a model error as an error.
pub(super) fn load_or_stopped<'a>(
    source: impl Into<solve::ModelSource<'a>>,
    options: &solve::LoadOptions,
) -> Result<Result<Model, StoppedBy>, Diags> {
    match solve::load(source, options) {
        Ok(model) => Ok(Ok(model)),
        Err(d) => stopped_loading(&d).map(Err).ok_or(d),
    }
}

/// What stopped a load that ended in `d`, if a limit or a signal did (an
/// answer, `UNKNOWN`, rather than a model error).
pub(super) fn stopped_loading(d: &Diags) -> Option<StoppedBy> {
    match d.0.first().map(|d| d.code) {
        Some(crate::sema::TIME_LIMIT) => Some(StoppedBy::TimeLimit),
        Some(crate::sema::INTERRUPTED) => Some(StoppedBy::Interrupt),
        _ => None,
    }
}

/// What a command without an answer to print (check, bench) does when a
/// signal stopped the building of its model: says so, and exits with the
/// signal's code.
pub(super) fn interrupted_loading(interrupt: &Interrupt) -> i32 {
    eprint("cspi: interrupted while the model was being built\n");
    interrupt.exit_code().unwrap_or(exit::INTERRUPTED)
}

/// The `--param` overrides, after reporting stray words on the command line.
pub(super) fn model_overrides(args: &ModelArgs) -> Result<Vec<ParamOverride>, Diags> {
    if let Some(word) = args.stray.first() {
        let bare = args.params.iter().find(|p| !p.contains('='));
        // `--param n 8 MODEL`: the `8` was taken for the model, the model for a stray word.
        let value = if !args.model.exists() && std::path::Path::new(word).is_file() {
            args.model.display().to_string()
        } else {
            word.clone()
        };
        let d = match bare {
            Some(name) => Diag::new(
                "cspi::param::syntax",
                format!("--param {name} {value}: a parameter and its value are one word"),
            )
            .help(format!("write --param {name}={value}")),
            None => Diag::new(
                "cspi::usage",
                format!("unexpected argument `{word}` after the model file"),
            )
            .help("one model per run; options start with `-` (see cspi solve --help)"),
        };
        return Err(Diags::from(d.usage()));
    }
    super::params::parse_params(&args.params)
}

/// How one run ended, for the caller's exit code and tally.
pub(super) struct Ended {
    pub(crate) status: Status,
    /// The independent checker rejected a solution (a bug).
    pub(crate) rejected: bool,
}

/// Runs models and reports them, keeping the output and what stopped it.
pub(super) struct Runner<'a> {
    args: &'a SolveArgs,
    interrupt: &'a Interrupt,
    pub(crate) reporter: Box<dyn Reporter>,
    pub(crate) out: Stdout,
    /// When this run (or instance) started: `--time-limit` counts from here,
    /// loading included.
    pub(crate) started: Instant,
    /// This run is the process's only one: what it built is not freed at
    /// its end ([`Options::ends_the_process`]), as the process exits next.
    pub(crate) only: bool,
}

impl<'a> Runner<'a> {
    pub(super) fn new(args: &'a SolveArgs, interrupt: &'a Interrupt) -> Self {
        Runner {
            args,
            interrupt,
            reporter: args.format.reporter(),
            out: Stdout::new(),
            started: Instant::now(),
            only: false,
        }
    }

    /// The time limit ran out while the model was loading: no answer, as when
    /// it runs out during the search (status UNKNOWN, exit 0).
    pub(super) fn stopped_loading(&mut self, by: StoppedBy) -> i32 {
        eprint(match by {
            StoppedBy::TimeLimit => {
                "cspi: the time limit ran out while the model was being built\n"
            }
            _ => "cspi: interrupted while the model was being built\n",
        });
        let args = self.args;
        let mode = Mode {
            count: args.count,
            many: args.all || args.solutions.is_some_and(|n| n > 1),
            text: args.json_text,
        };
        let stats = Stats::default();
        let end = RunEnd {
            status: Status::Unknown,
            objective: None,
            lex: None,
            stats: &stats,
            totals: &[],
            stopped_by: Some(by),
            part: None,
            threads: &[],
            split: None,
        };
        let text = self.reporter.end(&end, mode);
        self.out.write(&text);
        if args.stats {
            eprint(&human::stats(&stats, None));
        }
        self.exit_code(false)
    }

    /// A crossword the search did not fill: where the search failed when a
    /// limit stopped it (a JSON record before the summary, or lines after
    /// the human status), where to look (`cspi explain`) when it has no fill.
    fn unfilled(&mut self, model: &Model, summary: &solve::Summary, human: bool) {
        let Some((name, layout)) = model.crosswords.first() else {
            return;
        };
        match summary.status {
            _ if summary.stopped_before_a_solution() => {
                if let Some(map) = FailedMap::of(model, name, layout, &summary.stats.blame) {
                    self.out
                        .write(&if human { map.text(5) } else { map.json() });
                }
            }
            Status::Unsatisfiable if human => eprint(
                "cspi: the grid has no fill; `cspi explain` with the same model and parameters draws the letters and crossings that cannot all hold\n",
            ),
            _ => {}
        }
    }

    /// Whether to go on with more work: output works and no signal came.
    pub(super) fn going(&self) -> bool {
        self.out.ok() && !self.interrupt.stopped()
    }

    /// Solves one loaded model and reports it.
    pub(super) fn run(&mut self, mut model: Model) -> Result<Ended, Diags> {
        let args = self.args;
        if !self.out.ok() {
            // Nobody can read the results (a closed stdout): do not search.
            return Ok(Ended {
                status: Status::Unknown,
                rejected: false,
            });
        }
        if let Some(names) = &args.project {
            model.projection = projection(&model, names)?;
        }
        for (given, flag) in [
            (args.ipuz.is_some(), "--ipuz"),
            (args.puz.is_some(), "--puz"),
        ] {
            if given && !crate::output::ipuz::drawable(&model) {
                return Err(Diags::from(
                    Diag::new(
                        "cspi::ipuz",
                        format!("{flag}: this model outputs no crossword"),
                    )
                    .help("the crossword is written from an output item naming it: `output xw;`")
                    .usage(),
                ));
            }
        }
        if args.svg.is_some() && !crate::output::svg::drawable(&model) {
            return Err(Diags::from(
                Diag::new("cspi::svg", "--svg: this model draws no picture")
                    .help(
                        "pictures are drawn from output items: `output grid(cell);` for a 2-D \
                         array, a crossword's name, `board(q);` for queens, `path(cell, cells, cols);`",
                    )
                    .usage(),
            ));
        }
        let model = Arc::new(model);
        let mut options = Options {
            search: model.search.clone(),
            check: args.check_solutions,
            count_only: args.count,
            no_product_count: args.no_product_count,
            threads: if args.tree.is_some() {
                1
            } else {
                threads(args, model.objective.is_some())
            },
            part: args.part,
            // Threads the user did not ask for start only if one thread
            // has not finished in a moment.
            probe: (args.threads.is_none() && args.tree.is_none()).then_some(solve::Probe::DEFAULT),
            tree: args.tree.as_ref().map(|_| TREE_CAP),
            ends_the_process: self.only,
            ..Options::default()
        };
        args.strategy.apply(&mut options.search);
        solve::check_strategy(&model, &options.search).map_err(|d| {
            // The command line's fault if it chose the strategy, else the model's.
            Diags::from(if args.strategy.val.is_some() {
                d.usage()
            } else {
                d
            })
        })?;
        options.limits = Limits {
            progress: std::io::stderr()
                .is_terminal()
                .then_some(progress as fn(&Stats, Duration)),
            // Optimisation runs to the proof of optimality unless told otherwise.
            solutions: if args.all
                || args.count
                || (model.objective.is_some() && args.solutions.is_none())
            {
                None
            } else {
                Some(args.solutions.unwrap_or(1))
            },
            nodes: args.node_limit,
            time: args
                .time_limit
                .map(|t| t.saturating_sub(self.started.elapsed())),
            stop: Some(Arc::clone(&self.interrupt.stop)),
            // Only when asked: the default bounds the building alone, as
            // each worker thread holds its own copy of the propagators.
            memory: args.model.memory_limit.map(MemoryLimit::new),
        };
        // After the limits: the fingerprint holds the kind of run.
        if let (Some(file), Some(part)) = (&args.part_log, options.part) {
            options.part_log = Some(Arc::new(open_part_log(&model, &options, file, part)?));
        }
        if args.suggest.is_some() || args.fillability || args.fillability_svg.is_some() {
            let text = super::suggest::run(args, &model, &options.limits)?;
            self.out.write(&text);
            return Ok(Ended {
                status: Status::Unknown,
                rejected: false,
            });
        }
        let mode = Mode {
            count: args.count,
            many: args.all || args.solutions.is_some_and(|n| n > 1) || model.objective.is_some(),
            text: args.json_text,
        };
        // The model's `total(...)` outputs, summed over the solutions.
        let mut totals: Vec<(String, i64)> = model
            .output
            .iter()
            .filter_map(|o| match o {
                OutputItem::Total { label, .. } => Some((label.clone(), 0)),
                _ => None,
            })
            .collect();
        let (reporter, out) = (&mut self.reporter, &mut self.out);
        let mut last: Option<Vec<i64>> = None;
        let on_solution = |values: &[i64]| {
            if args.svg.is_some() || args.ipuz.is_some() || args.puz.is_some() {
                last = Some(values.to_vec());
            }
            let mut k = 0;
            for o in &model.output {
                if let OutputItem::Total { term, .. } = o {
                    let v = term.eval(&model, values).unwrap_or(0);
                    totals[k].1 = totals[k].1.saturating_add(v);
                    k += 1;
                }
            }
            if mode.count {
                return Next::Continue;
            }
            if out.write(&reporter.solution(&model, values, mode)) {
                Next::Continue
            } else {
                Next::Stop
            }
        };
        let mut summary = match args.differ {
            Some(k) => super::differ::solve(
                &model,
                &options,
                k,
                args.solutions.unwrap_or(1),
                on_solution,
            ),
            None => solve::solve(&model, &options, on_solution),
        };
        if options.limits.progress.is_some() {
            eprint("\r\x1b[2K");
        }
        summary.stats.peak_memory = peak_memory();
        // Every sub-problem of the part ended: no run needs their nogoods.
        if let Some(log) = options.part_log.as_ref().filter(|_| {
            !summary.stopped
                && matches!(summary.status, Status::Unsatisfiable | Status::AllSolutions)
        }) {
            log.ended();
        }
        if let Some(file) = options.part_log.as_ref().and_then(|l| l.behind()) {
            eprint(&format!(
                "cspi: warning: the part log {} lacks some of this run's empty sub-problems (a write failed): a run taking it up searches them again\n",
                file.display()
            ));
        }
        let stopped_by = if !self.out.ok() {
            Some(StoppedBy::Output)
        } else if self.interrupt.stopped() {
            Some(StoppedBy::Interrupt)
        } else if !summary.stopped {
            None
        } else if options
            .limits
            .memory
            .as_ref()
            .is_some_and(MemoryLimit::reached)
        {
            Some(StoppedBy::MemoryLimit)
        } else if args.time_limit.is_some_and(|t| self.started.elapsed() >= t) {
            // Before the node count: on several threads the nodes add up
            // past the limit that each sub-problem is held to alone.
            Some(StoppedBy::TimeLimit)
        } else if args.node_limit.is_some_and(|n| summary.stats.nodes >= n) {
            Some(StoppedBy::NodeLimit)
        } else {
            Some(StoppedBy::TimeLimit)
        };
        let lex = model.objective.as_ref().filter(|o| !o.lex.is_empty());
        let end = RunEnd {
            status: summary.status,
            objective: summary.objective,
            lex,
            stats: &summary.stats,
            totals: &totals,
            stopped_by,
            part: summary.part.as_ref(),
            threads: if args.thread_stats {
                &summary.threads
            } else {
                &[]
            },
            split: summary.split.as_ref().filter(|_| args.thread_stats),
        };
        let human = args.format == Format::Human;
        if !human {
            self.unfilled(&model, &summary, human);
        }
        let text = self.reporter.end(&end, mode);
        self.out.write(&text);
        if human {
            self.unfilled(&model, &summary, human);
        }
        if args.stats {
            eprint(&human::stats(&summary.stats, lex));
        }
        if args.thread_stats {
            eprint(&human::thread_stats(
                summary.split.as_ref(),
                &summary.threads,
            ));
        }
        if let Some(path) = &args.svg {
            match last
                .as_deref()
                .and_then(|v| crate::output::svg::solution(&model, v))
            {
                Some(svg) => write_picture(path, "--svg", &svg)?,
                // A crossword stopped before a fill: where its search failed.
                None => match stuck_picture(&model, &summary) {
                    Some(svg) => write_picture(path, "--svg", &svg)?,
                    None => eprint("cspi: no solution, so nothing to draw for --svg\n"),
                },
            }
        }
        if let Some(path) = &args.ipuz {
            match last
                .as_deref()
                .and_then(|v| crate::output::ipuz::solution(&model, v))
            {
                Some(text) => write_picture(path, "--ipuz", &text)?,
                None => eprint("cspi: no solution, so nothing to write for --ipuz\n"),
            }
        }
        if let Some(path) = &args.puz {
            match last
                .as_deref()
                .and_then(|v| crate::output::puz::solution(&model, v))
            {
                Some(bytes) => write_puz(path, bytes)?,
                None => eprint("cspi: no solution, so nothing to write for --puz\n"),
            }
        }
        if let (Some(path), Some(log)) = (&args.tree, &summary.tree) {
            let tree = crate::output::tree::Tree::new(&model, log);
            let title = format!("{}: {}", args.model.model.display(), options.search);
            let text = if path.extension().is_some_and(|e| e == "dot") {
                crate::output::tree::dot(&tree, &title)
            } else {
                crate::output::tree::svg(&tree, &title)
            };
            write_picture(path, "--tree", &text)?;
            if tree.truncated {
                eprint(&format!(
                    "cspi: the search tree has more than {TREE_CAP} branches: {} shows the first {TREE_CAP} \
                     (a smaller instance, -n 1 or --node-limit draws a whole tree)\n",
                    path.display()
                ));
            }
        }
        report_rejected(&summary.rejected);
        let ended = Ended {
            status: summary.status,
            rejected: !summary.rejected.is_empty(),
        };
        if self.only {
            // The process exits next: not freeing the model saves its time.
            std::mem::forget(model);
        }
        Ok(ended)
    }

    /// The exit code once the work is done: a lost output first, then a bug,
    /// then an interrupt, else 0.
    pub(super) fn exit_code(&self, rejected: bool) -> i32 {
        if let Some(code) = output_exit(&self.out) {
            return code;
        }
        if rejected {
            return exit::INTERNAL;
        }
        self.interrupt.exit_code().unwrap_or(exit::OK)
    }
}

/// Says on stderr that the independent checker rejected solutions (a bug), if it did.
pub(super) fn report_rejected(rejected: &[String]) {
    if let Some(first) = rejected.first() {
        eprint(&format!(
            "error: the independent checker rejected {}; this is a bug in cspi, please report it\n  first: {first}\n",
            plural(rejected.len() as u64, "solution", "solutions"),
        ));
    }
}

/// The most branches `--tree` draws: a tree a person can still read.
pub(super) const TREE_CAP: usize = 400;

/// Writes a picture (or any generated file) for `flag`, saying why it could not.
pub(super) fn write_picture(path: &std::path::Path, flag: &str, text: &str) -> Result<(), Diags> {
    write_file(path, flag, text.as_bytes())
}

/// `--puz`: the file, or why the format cannot hold the fill.
pub(super) fn write_puz(
    path: &std::path::Path,
    bytes: Result<Vec<u8>, String>,
) -> Result<(), Diags> {
    match bytes {
        Ok(bytes) => write_file(path, "--puz", &bytes),
        Err(why) => Err(Diags::from(
            Diag::new(
                "cspi::file",
                format!("--puz: cannot write `{}`", path.display()),
            )
            .help(why),
        )),
    }
}

fn write_file(path: &std::path::Path, flag: &str, bytes: &[u8]) -> Result<(), Diags> {
    std::fs::write(path, bytes).map_err(|e| {
        Diags::from(Diag::new(
            "cspi::file",
            format!("{flag}: cannot write `{}`: {e}", path.display()),
        ))
    })
}

/// The number of threads: as asked, else every core when the whole search
/// space is explored (counting, every solution, optimisation), else one —
/// for the first solutions, one thread finds the solution the model's
/// strategy leads to first, the same on every run; a node limit is there to
/// make runs repeatable.
fn threads(args: &SolveArgs, optimising: bool) -> usize {
    if let Some(n) = args.threads {
        return n as usize;
    }
    let whole = args.count || args.all || (optimising && args.solutions.is_none());
    if !whole || args.node_limit.is_some() {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The exit code an output failure calls for, after saying what happened: a
/// reader that went away is a quiet success, lost results an error.
pub(super) fn output_exit(out: &Stdout) -> Option<i32> {
    match out.failure()? {
        Failure::ReaderGone => Some(exit::OK),
        Failure::Lost(e) => {
            eprint(&format!(
                "error: cannot write the results to standard output: {e}\n"
            ));
            Some(exit::OUTPUT)
        }
    }
}

/// The progress line: overwritten in place on a terminal, cleared at the end.
fn progress(stats: &Stats, elapsed: Duration) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    eprint(&format!(
        "\r\x1b[2K{}, {} ({:.0} nodes/s), {:.1} s",
        crate::output::count_text(stats.solutions),
        plural(stats.nodes, "node", "nodes"),
        stats.nodes as f64 / secs,
        secs
    ));
}

/// The map of where the search of a crossword failed, as a picture, when a
/// limit stopped it before a fill.
fn stuck_picture(model: &Model, summary: &solve::Summary) -> Option<String> {
    if !summary.stopped_before_a_solution() {
        return None;
    }
    let (name, layout) = model.crosswords.first()?;
    Some(FailedMap::of(model, name, layout, &summary.stats.blame)?.svg(layout))
}

/// The log of `part`'s empty sub-problems (`--part-log`), opened or created.
fn open_part_log(
    model: &Model,
    options: &Options,
    file: &std::path::Path,
    part: crate::part::Part,
) -> Result<crate::part_log::PartLog, Diags> {
    if model.objective.is_some() {
        return Err(Diags::from(
            Diag::new(
                "cspi::part-log",
                "--part-log records the empty sub-problems of a search without objective",
            )
            .help(
                "an optimising part's sub-problem ends under the bound the others found, \
                 so one without a solution there may hold solutions: run the part whole",
            )
            .usage(),
        ));
    }
    let fingerprint = crate::part::fingerprint(model, options, part.n);
    crate::part_log::PartLog::open(file, &part.to_string(), &fingerprint)
        .map_err(|e| Diags::from(Diag::new("cspi::part-log", e)))
}
