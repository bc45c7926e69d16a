//! The command line: `cspi solve MODEL [options]`.

use crate::bench::{self, Combo, Plan};
use crate::diag::{Diag, Diags, exit};
use crate::engine::search::{Limits, Next};
use crate::engine::stats::{Stats, peak_memory};
use crate::model::search::Named;
use crate::model::{Propagation, Restarts, ValSelect, VarSelect};
use crate::output::{human, json};
use crate::sema::ParamOverride;
use crate::solve::{self, Options, Status};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "cspi",
    version,
    about = "A constraint-programming tool: write a .csp model, solve it."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a model: print the first solution, N solutions, all, or the count.
    Solve(SolveArgs),
    /// Solve a model under every combination of strategies and tabulate the statistics.
    Bench(BenchArgs),
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The model file (.csp).
    pub model: PathBuf,
    /// Override a parameter: NAME=VALUE (repeatable).
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Variable selections to compare, comma-separated (default: the model's).
    #[arg(long = "var", value_name = "LIST", value_delimiter = ',', value_parser = named::<VarSelect>)]
    pub var: Vec<VarSelect>,
    /// Value selections to compare, comma-separated (default: the model's).
    #[arg(long = "val", value_name = "LIST", value_delimiter = ',', value_parser = named::<ValSelect>)]
    pub val: Vec<ValSelect>,
    /// Propagation levels to compare, comma-separated (default: the model's).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = named::<Propagation>)]
    pub propagation: Vec<Propagation>,
    /// Runs per combination (random strategies get seeds SEED, SEED+1, ...).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop each run at its first solution instead of counting all.
    #[arg(long)]
    pub first: bool,
    /// Count every solution leaf by leaf, also under `ac` (see docs/crossword.md):
    /// the node counts then compare the levels' search trees like for like.
    #[arg(long)]
    pub no_product_count: bool,
    /// Stop each run after this many seconds (its status is then UNKNOWN).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time_limit: Option<Duration>,
    /// Output format: a Markdown table, or one JSON object per run.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// How models are loaded, shared by `solve` and `bench`.
#[derive(Args, Debug, Default)]
pub struct LoadArgs {
    /// Let the model read files only inside DIR (symbolic links are followed
    /// before the check); for models you do not trust.
    #[arg(long, value_name = "DIR")]
    pub sandbox: Option<PathBuf>,
}

impl LoadArgs {
    pub fn options(&self) -> Result<solve::LoadOptions, Diags> {
        let sandbox = match &self.sandbox {
            None => None,
            Some(dir) => Some(crate::reader::Sandbox::new(dir).map_err(|e| {
                Diags::from(
                    Diag::new("cspi::sandbox", format!("--sandbox: {e}"))
                        .help("give an existing directory")
                        .usage(),
                )
            })?),
        };
        Ok(solve::LoadOptions { sandbox })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The model file (.csp).
    pub model: PathBuf,
    /// Override a parameter: NAME=VALUE (repeatable). A string value `@path` reads the file.
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Stop after N solutions.
    #[arg(short = 'n', long = "solutions", value_name = "N", conflicts_with_all = ["all", "count"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub solutions: Option<u64>,
    /// Print every solution.
    #[arg(long, conflicts_with = "count")]
    pub all: bool,
    /// Count every solution without printing them.
    #[arg(long)]
    pub count: bool,
    /// With --count, count leaf by leaf instead of by product where sound (for tests and benchmarks).
    #[arg(long, requires = "count")]
    pub no_product_count: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Stop after this many seconds (status UNKNOWN).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time_limit: Option<Duration>,
    /// Stop after this many search nodes (status UNKNOWN).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Re-check every solution against the model with the independent checker.
    #[arg(long)]
    pub check_solutions: bool,
    /// Report solutions that differ on these variables or arrays only
    /// (comma-separated names); replaces the model's `project` item.
    #[arg(long, value_name = "VARS")]
    pub project: Option<String>,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Search overrides shared by `solve` and `bench`.
#[derive(Args, Debug, Default)]
pub struct StrategyArgs {
    /// Variable selection: input, mrv, degree, mrv-degree, degree-mrv, dom-wdeg, random.
    #[arg(long = "var", value_name = "NAME", value_parser = named::<VarSelect>)]
    pub var: Option<VarSelect>,
    /// Value selection: min, max, random, lcv.
    #[arg(long = "val", value_name = "NAME", value_parser = named::<ValSelect>)]
    pub val: Option<ValSelect>,
    /// Propagation level: none, fc, ac.
    #[arg(long, value_name = "NAME", value_parser = named::<Propagation>)]
    pub propagation: Option<Propagation>,
    /// Restarts: none, luby, geometric.
    #[arg(long, value_name = "NAME", value_parser = named::<Restarts>)]
    pub restarts: Option<Restarts>,
    /// Seed of the random generator (random heuristics, tie-breaking).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Parses a time limit: a positive number of seconds, at most a year.
fn seconds(s: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= YEAR => Ok(Duration::from_secs_f64(t)),
        Ok(_) => Err(format!(
            "`{s}` is not a time limit: give seconds above 0 and at most {YEAR}"
        )),
        Err(_) => Err(format!(
            "`{s}` is not a number of seconds (such as 10 or 0.5)"
        )),
    }
}

/// Parses a strategy name, listing the valid ones on error.
fn named<T: Named>(s: &str) -> Result<T, String> {
    T::from_name(s).ok_or_else(|| {
        let hint = crate::diag::did_you_mean(s, T::names())
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        format!(
            "unknown {} `{s}`{hint}; valid names: {}",
            T::WHAT,
            T::names().join(", ")
        )
    })
}

impl StrategyArgs {
    pub fn apply(&self, spec: &mut crate::model::SearchSpec) {
        if let Some(v) = self.var {
            spec.var = v;
        }
        if let Some(v) = self.val {
            spec.val = v;
        }
        if let Some(p) = self.propagation {
            spec.propagation = p;
        }
        if let Some(r) = self.restarts {
            spec.restarts = r;
        }
        if let Some(s) = self.seed {
            spec.seed = s;
        }
    }
}

/// The variables named by `--project a,b,c` (variables or whole arrays).
fn projection(model: &crate::model::Model, names: &str) -> Result<Vec<usize>, Diags> {
    let mut vars = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(g) = model.groups.get(name) else {
            let known: Vec<&str> = model.groups.keys().map(String::as_str).collect();
            let mut d = Diag::new(
                "cspi::project",
                format!("--project: the model has no variable or array `{name}`"),
            )
            .usage();
            d = match crate::diag::did_you_mean(name, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("declared: {}", known.join(", "))),
            };
            return Err(Diags::from(d));
        };
        for &v in &g.vars {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    if vars.is_empty() {
        return Err(Diags::from(
            Diag::new(
                "cspi::project",
                "--project needs at least one variable name",
            )
            .usage(),
        ));
    }
    Ok(vars)
}

/// Splits `NAME=VALUE`; a value `@path` is replaced by the file's text.
pub fn parse_params(raw: &[String]) -> Result<Vec<ParamOverride>, Diags> {
    let mut out = Vec::new();
    let mut errors = Diags::default();
    for p in raw {
        let Some((name, value)) = p.split_once('=') else {
            errors.push(
                Diag::new(
                    "cspi::param::syntax",
                    format!("--param {p}: expected NAME=VALUE"),
                )
                .help("for example --param n=4")
                .usage(),
            );
            continue;
        };
        let (value, file) = match value.strip_prefix('@') {
            Some(path) => {
                let path = PathBuf::from(path);
                match crate::reader::read_text(&path, crate::sema::MAX_FILE_BYTES, None) {
                    Ok(text) => (text, Some(path)),
                    Err(r) => {
                        errors.push(
                            Diag::new(
                                "cspi::param::file",
                                format!(
                                    "--param {name}=@{}: cannot read the file: {}",
                                    crate::reader::shown(&path),
                                    r.reason()
                                ),
                            )
                            .help(match r {
                                crate::reader::Refusal::NotFound => "`@path` reads a parameter's \
                                    value from a file; a relative path starts at the current directory"
                                    .to_string(),
                                _ => format!(
                                    "`@path` reads a parameter's value from a file; {}",
                                    r.help("it")
                                ),
                            })
                            .usage(),
                        );
                        continue;
                    }
                }
            }
            None => (value.to_string(), None),
        };
        out.push(ParamOverride {
            name: name.trim().to_string(),
            value,
            file,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Width of diagnostics when stderr is not a terminal, so that logs and the
/// golden files of tests/ui do not depend on the terminal.
const PLAIN_WIDTH: usize = 100;

/// Prints diagnostics on stderr and returns the exit code.
///
/// On a terminal (and without `NO_COLOR`) miette's default handler draws them
/// in colour at the terminal's width; otherwise they are drawn without colour or
/// links at a fixed width.
pub fn report(diags: &Diags) -> i32 {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let pretty = std::io::stderr().is_terminal() && !no_color;
    for d in &diags.0 {
        if pretty {
            eprintln!("{:?}", miette::Report::new(d.clone()));
        } else {
            eprint!("{}", render_plain(d));
        }
    }
    diags.exit_code()
}

/// A diagnostic as plain text: no colour, no links, [`PLAIN_WIDTH`] columns.
pub fn render_plain(d: &Diag) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .with_width(PLAIN_WIDTH);
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        out = format!("error[{}]: {}\n", d.code, d.message);
    }
    out.push('\n');
    out
}

pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Solve(args) => match solve_command(&args) {
            Ok(code) => code,
            Err(diags) => report(&diags),
        },
        Command::Bench(args) => match bench_command(&args) {
            Ok(code) => code,
            Err(diags) => report(&diags),
        },
    }
}

fn solve_command(args: &SolveArgs) -> Result<i32, Diags> {
    let overrides = parse_params(&args.params)?;
    let mut model = solve::load_file_with(&args.model, &overrides, &args.load.options()?)?;
    if let Some(names) = &args.project {
        model.projection = projection(&model, names)?;
    }
    let model = Arc::new(model);
    let mut options = Options {
        search: model.search.clone(),
        check: args.check_solutions,
        count_only: args.count,
        no_product_count: args.no_product_count,
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
        time: args.time_limit,
    };
    let many = args.all || args.solutions.is_some_and(|n| n > 1) || model.objective.is_some();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut broken_pipe = false;
    // The model's `total(...)` outputs, summed over the solutions.
    let mut totals: Vec<(String, i64)> = model
        .output
        .iter()
        .filter_map(|o| match o {
            crate::model::OutputItem::Total { label, .. } => Some((label.clone(), 0)),
            _ => None,
        })
        .collect();
    let mut summary = solve::solve(&model, &options, |values| {
        let mut k = 0;
        for o in &model.output {
            if let crate::model::OutputItem::Total { term, .. } = o {
                let v = term.eval(&model, values).unwrap_or(0);
                totals[k].1 = totals[k].1.saturating_add(v);
                k += 1;
            }
        }
        if args.count {
            return Next::Continue;
        }
        let text = match args.format {
            Format::Json => json::solution(&model, values) + "\n",
            Format::Human => {
                let body = human::solution(&model, values);
                if many {
                    format!("--- solution ---\n{body}")
                } else {
                    body
                }
            }
        };
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            broken_pipe = true;
            return Next::Stop;
        }
        Next::Continue
    });
    if broken_pipe {
        return Ok(exit::OK);
    }
    summary.stats.peak_memory = peak_memory();
    let status = summary.status;
    let text = match args.format {
        Format::Json => {
            json::summary_with_totals(status, &summary.stats, summary.objective, &totals) + "\n"
        }
        Format::Human => match status {
            _ if args.count => format!(
                "{} solutions ({})\n",
                summary.stats.solutions,
                status.name()
            ),
            Status::Unsatisfiable => "UNSATISFIABLE\n".to_string(),
            Status::Optimal => format!("OPTIMAL: objective {}\n", summary.objective.unwrap_or(0)),
            _ if summary.objective.is_some() => format!(
                "{}: best objective {} (optimality not proved)\n",
                status.name(),
                summary.objective.unwrap_or(0)
            ),
            Status::Unknown if summary.stats.solutions == 0 => {
                "UNKNOWN: stopped by a limit before a solution\n".into()
            }
            Status::AllSolutions if many => {
                format!("{} solutions, search complete\n", summary.stats.solutions)
            }
            _ => String::new(),
        },
    };
    let _ = out.write_all(text.as_bytes());
    if args.format == Format::Human {
        for (label, v) in &totals {
            let _ = writeln!(out, "total {label} = {v}");
        }
    }
    let _ = out.flush();
    if args.stats {
        eprint!("{}", human::stats(&summary.stats));
    }
    if !summary.rejected.is_empty() {
        eprintln!(
            "error: the independent checker rejected {} solution(s); this is a bug in cspi, please report it\n  first: {}",
            summary.rejected.len(),
            summary.rejected[0]
        );
        return Ok(exit::INTERNAL);
    }
    Ok(exit::OK)
}

/// The progress line: overwritten in place on a terminal, cleared at the end.
fn progress(stats: &Stats, elapsed: Duration) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    eprint!(
        "\r\x1b[2K{} solutions, {} nodes ({:.0} nodes/s), {:.1} s",
        stats.solutions,
        stats.nodes,
        stats.nodes as f64 / secs,
        secs
    );
}

fn bench_command(args: &BenchArgs) -> Result<i32, Diags> {
    let overrides = parse_params(&args.params)?;
    let model = Arc::new(solve::load_file_with(
        &args.model,
        &overrides,
        &args.load.options()?,
    )?);
    let spec = &model.search;
    let vars = or_default(&args.var, spec.var);
    let vals = or_default(&args.val, spec.val);
    let levels = or_default(&args.propagation, spec.propagation);
    let mut combos = Vec::new();
    for &var in &vars {
        for &val in &vals {
            for &propagation in &levels {
                combos.push(Combo {
                    var,
                    val,
                    propagation,
                });
            }
        }
    }
    let plan = Plan {
        combos,
        runs: args.runs,
        seed: args.seed,
        first_only: args.first,
        product_count: !args.no_product_count,
        time_limit: args.time_limit,
    };
    for combo in &plan.combos {
        let mut spec = model.search.clone();
        spec.val = combo.val;
        solve::check_strategy(&model, &spec).map_err(|d| Diags::from(d.usage()))?;
    }
    let mut out = std::io::stdout();
    if args.format == Format::Human {
        let _ = out.write_all(bench::MARKDOWN_HEADER.as_bytes());
    }
    let rows = bench::run(&model, &plan, |row| {
        let text = match args.format {
            Format::Human => bench::markdown_row(row),
            Format::Json => bench::json_lines(row),
        };
        let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    });
    if let Some(counts) = bench::disagreement(&rows, args.first) {
        let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
        eprintln!(
            "error: the strategies disagree on the number of solutions ({}); this is a bug in cspi, please report it",
            counts.join(" vs ")
        );
        return Ok(exit::INTERNAL);
    }
    Ok(exit::OK)
}

/// The listed values, or the model's own when none are listed.
fn or_default<T: Copy>(list: &[T], default: T) -> Vec<T> {
    if list.is_empty() {
        vec![default]
    } else {
        list.to_vec()
    }
}
