//! The command line: `cspi solve MODEL [options]`.

use crate::diag::{Diag, Diags, exit};
use crate::engine::search::{Limits, Next};
use crate::model::search::Named;
use crate::model::{Propagation, Restarts, ValSelect, VarSelect};
use crate::output::{human, json};
use crate::sema::ParamOverride;
use crate::solve::{self, Options, Status};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
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
    #[arg(short = 'n', long = "solutions", value_name = "N", conflicts_with_all = ["all", "count"])]
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
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop after this many search nodes (status UNKNOWN).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Re-check every solution against the model with the independent checker.
    #[arg(long)]
    pub check_solutions: bool,
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
        let value = match value.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    errors.push(
                        Diag::new(
                            "cspi::param::file",
                            format!("--param {name}=@{path}: cannot read the file: {e}"),
                        )
                        .help("`@path` reads a parameter's value from a file")
                        .usage(),
                    );
                    continue;
                }
            },
            None => value.to_string(),
        };
        out.push(ParamOverride {
            name: name.trim().to_string(),
            value,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Prints diagnostics on stderr and returns the exit code.
pub fn report(diags: &Diags) -> i32 {
    for d in &diags.0 {
        eprintln!("{:?}", miette::Report::new(d.clone()));
    }
    diags.exit_code()
}

pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Solve(args) => match solve_command(&args) {
            Ok(code) => code,
            Err(diags) => report(&diags),
        },
    }
}

fn solve_command(args: &SolveArgs) -> Result<i32, Diags> {
    let overrides = parse_params(&args.params)?;
    let model = Arc::new(solve::load_file(&args.model, &overrides)?);
    let mut options = Options {
        search: model.search.clone(),
        check: args.check_solutions,
        count_only: args.count,
        no_product_count: args.no_product_count,
        ..Options::default()
    };
    args.strategy.apply(&mut options.search);
    options.limits = Limits {
        solutions: if args.all || args.count {
            None
        } else {
            Some(args.solutions.unwrap_or(1))
        },
        nodes: args.node_limit,
        time: args
            .time_limit
            .filter(|t| *t >= 0.0 && t.is_finite())
            .map(Duration::from_secs_f64),
    };
    let many = args.all || args.solutions.is_some_and(|n| n > 1);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut broken_pipe = false;
    let summary = solve::solve(&model, &options, |values| {
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
    let status = summary.status;
    let text = match args.format {
        Format::Json => json::summary(status, &summary.stats, None) + "\n",
        Format::Human => match status {
            _ if args.count => format!(
                "{} solutions ({})\n",
                summary.stats.solutions,
                status.name()
            ),
            Status::Unsatisfiable => "UNSATISFIABLE\n".to_string(),
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
