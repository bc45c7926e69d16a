//! The command line: `cspi solve | check | explain | bench | completions | man`.
//!
//! This file holds the clap definitions (docs/cli.md lists every flag, and a
//! test holds it to `--help`); each command lives in its own file.

mod bench;
mod blocks;
mod check;
pub mod diagnostics;
mod differ;
mod each;
mod explain;
mod fzn;
pub mod interrupt;
mod merge;
mod params;
mod solve;
mod suggest;

pub(crate) use diagnostics::report;

use crate::model::{Guide, LnsKind, Propagation, Restarts, ValSelect, VarSelect};
use crate::output::Format;
use clap::{Args, Parser, Subcommand};
use interrupt::Interrupt;
use params::{named, seconds, strategy_help};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "cspi",
    version,
    about = "A constraint-programming tool: write a .csp model, solve it.",
    after_help = "Documentation: docs/cli.md, docs/tutorial.md and docs/language.md in the source tree."
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

// Parsed once per run: the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Solve a model: print the first solution, N solutions, all, or the count.
    Solve(SolveArgs),
    /// Check a model without solving it: every error, and warnings.
    Check(CheckArgs),
    /// Explain why a model has no solution: a minimal set of conflicting constraints.
    Explain(ExplainArgs),
    /// Solve a model under every combination of strategies and tabulate the statistics.
    Bench(BenchArgs),
    /// Combine the JSON outputs of `solve --part K/N` runs into one result.
    Merge(MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print a manual page (roff), generated from the same definitions as --help:
    /// cspi's, or a command's (`cspi man solve > cspi-solve.1`).
    Man(ManArgs),
    /// Solve a FlatZinc file as a MiniZinc solver does (docs/minizinc.md).
    Fzn(FznArgs),
    /// Write cspi's MiniZinc solver configuration into MiniZinc's user solver folder.
    MinizincInstall(MinizincInstallArgs),
}

/// `cspi man [COMMAND]`.
#[derive(Args, Debug)]
pub(crate) struct ManArgs {
    /// The command whose page to print (solve, check, explain, ...); cspi's own page without it.
    pub(crate) command: Option<String>,
}

/// `cspi fzn`: MiniZinc's standard solver flags.
#[derive(Args, Debug)]
pub(crate) struct FznArgs {
    /// The FlatZinc file (.fzn), as `minizinc -c` writes it for cspi.
    pub(crate) file: PathBuf,
    /// Satisfaction: print every solution; optimisation: print each better one.
    #[arg(short = 'a', long = "all-solutions")]
    pub(crate) all: bool,
    /// Optimisation: print each better solution as it is found.
    #[arg(short = 'i', long = "intermediate")]
    pub(crate) intermediate: bool,
    /// Stop after N solutions (when optimising: N improvements, no proof).
    #[arg(short = 'n', long = "num-solutions", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) solutions: Option<u64>,
    /// Free search: ignore the model's search annotations.
    #[arg(short = 'f', long = "free-search")]
    pub(crate) free: bool,
    /// Search on N threads (default one).
    #[arg(short = 'p', long = "parallel", value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: Option<u32>,
    /// Seed of the random generator.
    #[arg(short = 'r', long = "random-seed", value_name = "SEED")]
    pub(crate) seed: Option<u64>,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    pub(crate) stats: bool,
    /// Stop after this many milliseconds, printing the best solution found.
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    pub(crate) time_limit: Option<u64>,
    /// Say on stderr what was read and how the search is set up.
    #[arg(short = 'v', long = "verbose")]
    pub(crate) verbose: bool,
    /// Re-check every solution with the independent checker.
    #[arg(long)]
    pub(crate) check_solutions: bool,
    /// Stop after this many search nodes, as -t stops (for measurements that
    /// must not depend on the machine's speed).
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
    /// The most memory lowering and the search may take, such as 512M or 8G:
    /// past it the run stops as -t stops it.
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    pub(crate) memory_limit: Option<u64>,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
}

#[derive(Args, Debug)]
pub(crate) struct MinizincInstallArgs {
    /// The folder to write into (default ~/.minizinc/solvers, where MiniZinc looks).
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

/// The model and its parameters, shared by every command that loads a model.
#[derive(Args, Debug)]
pub(crate) struct ModelArgs {
    /// The model file (.csp).
    pub(crate) model: PathBuf,
    /// Override a parameter: NAME=VALUE (repeatable). A string value `@path` reads the file;
    /// arrays and records are written as JSON (`d=[3,1,2]`).
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE")]
    pub(crate) params: Vec<String>,
    /// Read parameters from a JSON data file (repeatable; later files win, --param wins over all).
    #[arg(long = "data", value_name = "FILE")]
    pub(crate) data: Vec<PathBuf>,
    /// Stray words after the options, such as the `8` of `--param n 8`: reported with a hint.
    #[arg(hide = true, value_name = "EXTRA")]
    pub(crate) stray: Vec<String>,
    /// Let the model read files only inside DIR (symbolic links are followed
    /// before the check); for models you do not trust.
    #[arg(long, value_name = "DIR")]
    pub(crate) sandbox: Option<PathBuf>,
    /// The most memory the run may take, such as 512M or 8G: building the model is refused
    /// with a diagnostic where it crosses the limit (default 1G); lowering and the search,
    /// when the limit is given, stop there as at the time limit.
    #[arg(long, value_name = "SIZE", value_parser = crate::memory::parse_size)]
    pub(crate) memory_limit: Option<u64>,
}

impl ModelArgs {
    /// How the model is loaded: its parameters, data, sandbox and bounds,
    /// and the first Ctrl-C heard while it is built (every command that
    /// loads a model takes its options here, so none can miss one).
    pub(crate) fn load_options(
        &self,
        interrupt: &Interrupt,
    ) -> Result<crate::solve::LoadOptions, crate::diag::Diags> {
        let params = solve::model_overrides(self)?;
        let sandbox = match &self.sandbox {
            None => None,
            Some(dir) => Some(crate::reader::Sandbox::new(dir).map_err(|e| {
                crate::diag::Diag::new("cspi::sandbox", format!("--sandbox: {e}"))
                    .help("give an existing directory")
                    .usage()
            })?),
        };
        Ok(crate::solve::LoadOptions {
            params,
            sandbox,
            param_files: params::param_files(&self.params),
            data_files: self.data.clone(),
            memory_limit: Some(self.memory_limit.unwrap_or(crate::memory::DEFAULT_LIMIT)),
            deadline: None,
            stop: Some(std::sync::Arc::clone(&interrupt.stop)),
            as_written: false,
            blocks: Vec::new(),
        })
    }
}

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) model: ModelArgs,
    /// Solve once per line of FILE, giving the line to parameter NAME; `--each FILE.jsonl`
    /// gives each JSON record's fields to the parameters of the same names.
    #[arg(long, value_name = "NAME=FILE", conflicts_with = "each_data")]
    pub(crate) each: Option<String>,
    /// Solve once per data file (JSON or .dzn), each instance reported on its own; a
    /// folder stands for its .json and .dzn files, in name order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(crate) each_data: Vec<PathBuf>,
    /// Stop after N solutions.
    #[arg(short = 'n', long = "solutions", value_name = "N", conflicts_with_all = ["all", "count"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) solutions: Option<u64>,
    /// Print every solution.
    #[arg(long, conflicts_with = "count")]
    pub(crate) all: bool,
    /// Count every solution without printing them.
    #[arg(long)]
    pub(crate) count: bool,
    /// With --count, count leaf by leaf instead of by product where sound (for tests and benchmarks).
    #[arg(long, requires = "count")]
    pub(crate) no_product_count: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// With --format json, add to each solution the text it prints for people
    /// (`"text"`), its `output` included.
    #[arg(long)]
    pub(crate) json_text: bool,
    /// Print search statistics on stderr.
    #[arg(long)]
    pub(crate) stats: bool,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
    /// Stop after this many seconds (status UNKNOWN, or SATISFIABLE with the best
    /// solution when optimising); with --each, per instance.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub(crate) time_limit: Option<Duration>,
    /// Stop after this many search nodes (status UNKNOWN).
    #[arg(long, value_name = "N")]
    pub(crate) node_limit: Option<u64>,
    /// Re-check every solution against the model with the independent checker.
    #[arg(long)]
    pub(crate) check_solutions: bool,
    /// Report solutions that differ on these variables or arrays only
    /// (comma-separated names); replaces the model's `project` item.
    #[arg(long, value_name = "VARS")]
    pub(crate) project: Option<String>,
    /// Search on N threads (default: every core for --count, --all and
    /// optimisation once one thread has not finished in 0.25 s; one for the
    /// first solutions and with --node-limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: Option<u32>,
    /// Solve only the K-th of N parts of a deterministic split (1 <= K <= N),
    /// or with K/N:J/M the J-th of M sub-parts of part K (K/N:J/M:I/L, ...;
    /// J/Me splits every sub-problem of the piece, not only its first ones);
    /// combine the parts' JSON output with `cspi merge` (docs/distributed.md).
    #[arg(long, value_name = "K/N", value_parser = crate::part::Part::parse)]
    pub(crate) part: Option<crate::part::Part>,
    /// With --part: record each sub-problem of the part searched to its end
    /// without a solution in FILE, and skip those FILE records from an
    /// earlier run of the same part, which so takes up where it was cut off
    /// (no objective; docs/distributed.md).
    #[arg(long, value_name = "FILE", requires = "part")]
    pub(crate) part_log: Option<PathBuf>,
    /// Report statistics per thread too (--stats, and the JSON summary).
    #[arg(long)]
    pub(crate) thread_stats: bool,
    /// Draw the last solution reported (the best one when optimising) as SVG in FILE:
    /// grids, crosswords, `board(...)`, `path(...)` (docs/cli.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "each", "each_data"])]
    pub(crate) svg: Option<PathBuf>,
    /// Write the last solution reported (the best one when optimising) as an
    /// .ipuz crossword in FILE (docs/crossword.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "each"])]
    pub(crate) ipuz: Option<PathBuf>,
    /// Write the last solution reported (the best one when optimising) as an
    /// Across Lite .puz crossword in FILE (docs/crossword.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "each"])]
    pub(crate) puz: Option<PathBuf>,
    /// With -n N: each solution differs from every earlier one in at least K
    /// of the primary variables (K entries of a crossword); each is found
    /// by a new search that forbids the earlier ones' neighbourhoods.
    #[arg(long, value_name = "K", conflicts_with_all = ["all", "count", "each", "part"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) differ: Option<u64>,
    /// Instead of solving: the best-scored values of this variable (a crossword
    /// slot, such as xw[5]), each with its exact number of solutions.
    #[arg(long, value_name = "VAR", conflicts_with_all = ["all", "count", "each", "part", "differ"])]
    pub(crate) suggest: Option<String>,
    /// With --suggest: how many values to count.
    #[arg(long, value_name = "N", default_value_t = 10, requires = "suggest")]
    pub(crate) top: usize,
    /// Instead of solving: the crossword's fillability map, the fewest words
    /// each cell's entries keep after propagation.
    #[arg(long, conflicts_with_all = ["all", "count", "each", "part", "differ"])]
    pub(crate) fillability: bool,
    /// Instead of solving: draw the fillability map as SVG in FILE.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "count", "each", "part", "differ"])]
    pub(crate) fillability_svg: Option<PathBuf>,
    /// When no fill is found: try the crossword with up to N cheater blocks
    /// (each with its 180° twin in a symmetric grid) at the cells where the
    /// search failed most, and report the first grid that fills. With
    /// --threads N, N grids are searched at once.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=3),
          conflicts_with_all = ["all", "count", "each", "each_data", "part", "differ", "suggest",
                                "fillability", "fillability_svg", "tree", "solutions", "project"])]
    pub(crate) try_blocks: Option<u64>,
    /// With --try-blocks: the seconds each grid is searched for, the grid
    /// as drawn first (--time-limit bounds them all).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "5", requires = "try_blocks")]
    pub(crate) time_per_grid: Duration,
    /// Draw the search tree in FILE: SVG (`.svg`) or Graphviz (`.dot`); one thread,
    /// and at most a few hundred nodes are drawn (docs/cli.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["each", "each_data", "threads", "part"])]
    pub(crate) tree: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub(crate) model: ModelArgs,
    #[command(flatten)]
    pub(crate) strategy: StrategyArgs,
    /// Treat warnings as errors (exit 1 when there is any).
    #[arg(long)]
    pub(crate) deny_warnings: bool,
}

#[derive(Args, Debug)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    pub(crate) model: ModelArgs,
    /// Give up after this many seconds and show the smallest conflict found so far.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "60")]
    pub(crate) time_limit: Duration,
    /// Output format: a diagnostic for people, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
}

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    pub(crate) model: ModelArgs,
    /// Variable selections to compare, comma-separated (default: the model's).
    #[arg(long = "var", value_name = "LIST", value_delimiter = ',', value_parser = named::<VarSelect>)]
    pub(crate) var: Vec<VarSelect>,
    /// Value selections to compare, comma-separated (default: the model's).
    #[arg(long = "val", value_name = "LIST", value_delimiter = ',', value_parser = named::<ValSelect>)]
    pub(crate) val: Vec<ValSelect>,
    /// Propagation levels to compare, comma-separated (default: the model's).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = named::<Propagation>)]
    pub(crate) propagation: Vec<Propagation>,
    /// Runs per combination (random strategies get seeds SEED, SEED+1, ...).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) runs: u32,
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Stop each run at its first solution instead of counting all.
    #[arg(long)]
    pub(crate) first: bool,
    /// Count every solution leaf by leaf, also under `ac` (see docs/crossword.md):
    /// the node counts then compare the levels' search trees like for like.
    #[arg(long)]
    pub(crate) no_product_count: bool,
    /// Stop each run after this many seconds (its status is then UNKNOWN).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "10")]
    pub(crate) time_limit: Duration,
    /// Output format: a Markdown table, or one JSON object per run.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Also draw a chart of nodes and time per strategy as SVG in FILE.
    #[arg(long, value_name = "FILE")]
    pub(crate) plot: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The parts' JSON Lines outputs (`solve ... --part K/N --format json`), one file each.
    #[arg(required = true, value_name = "PART")]
    pub(crate) parts: Vec<PathBuf>,
    /// Merge although parts are missing, as a split goes on: a solution found
    /// holds for the whole, a count is a lower bound and a best objective is
    /// not proved; UNSATISFIABLE, OPTIMAL and all solutions need every part.
    /// Names the parts missing.
    #[arg(long)]
    pub(crate) partial: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
}

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    pub(crate) shell: clap_complete::Shell,
}

/// Search overrides shared by `solve` and `check`.
#[derive(Args, Debug, Default)]
pub(crate) struct StrategyArgs {
    #[arg(long = "var", value_name = "NAME", value_parser = named::<VarSelect>,
          help = strategy_help::<VarSelect>("Variable selection"))]
    pub(crate) var: Option<VarSelect>,
    #[arg(long = "val", value_name = "NAME", value_parser = named::<ValSelect>,
          help = strategy_help::<ValSelect>("Value selection"))]
    pub(crate) val: Option<ValSelect>,
    #[arg(long, value_name = "NAME", value_parser = named::<Propagation>,
          help = strategy_help::<Propagation>("Propagation level"))]
    pub(crate) propagation: Option<Propagation>,
    #[arg(long, value_name = "NAME", value_parser = named::<Restarts>,
          help = strategy_help::<Restarts>("Restarts"))]
    pub(crate) restarts: Option<Restarts>,
    #[arg(long, value_name = "NAME", value_parser = named::<LnsKind>,
          help = strategy_help::<LnsKind>("Large-neighbourhood search when optimising"))]
    pub(crate) lns: Option<LnsKind>,
    #[arg(long, value_name = "NAME", value_parser = named::<Guide>,
          help = strategy_help::<Guide>("Value guidance (solution-guided, phase saving)"))]
    pub(crate) guide: Option<Guide>,
    /// Seed of the random generator (random heuristics, tie-breaking).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Learn nogoods from failures (lazy clause generation, docs/learning.md).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub(crate) learning: Option<bool>,
    /// Search for a first solution by components (docs/search.md).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub(crate) components: Option<bool>,
    /// Keep the branches a restart leaves as nogoods (docs/search.md; on by default).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub(crate) restart_nogoods: Option<bool>,
}

/// `on` or `off`.
fn on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected `on` or `off`, not `{s}`")),
    }
}

pub fn run(cli: Cli, interrupt: &Interrupt) -> i32 {
    let result = match cli.command {
        Command::Solve(args) => solve::command(&args, interrupt),
        Command::Check(args) => check::command(&args, interrupt),
        Command::Explain(args) => explain::command(&args, interrupt),
        Command::Bench(args) => bench::command(&args, interrupt),
        Command::Merge(args) => merge::command(&args),
        Command::Completions(args) => Ok(completions(args.shell)),
        Command::Man(args) => man(args.command.as_deref()),
        Command::Fzn(args) => fzn::command(&args, interrupt),
        Command::MinizincInstall(args) => fzn::install(&args),
    };
    result.unwrap_or_else(|diags| report(&diags))
}

/// `cspi completions SHELL`: the completion script on stdout.
fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "cspi", &mut buf);
    write_out(&buf)
}

/// `cspi man [COMMAND]`: a manual page on stdout, cspi's or a command's
/// (named `cspi-COMMAND`, as its SEE ALSO entry names it).
fn man(command: Option<&str>) -> Result<i32, crate::diag::Diags> {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                let names: Vec<&str> = cli
                    .get_subcommands()
                    .map(|c| c.get_name())
                    .filter(|n| *n != "help")
                    .collect();
                return Err(crate::diag::Diags::from(
                    crate::diag::Diag::new(
                        "cspi::usage",
                        format!("cspi man: there is no command `{name}`"),
                    )
                    .help(format!("the commands are: {}", names.join(", ")))
                    .usage(),
                ));
            };
            let title: &'static str = Box::leak(format!("cspi-{name}").into_boxed_str());
            sub.clone().name(title).bin_name(title)
        }
    };
    let mut buf = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut buf) {
        crate::output::sink::eprint(&format!("error: cannot render the manual page: {e}\n"));
        return Ok(crate::diag::exit::INTERNAL);
    }
    Ok(write_out(&buf))
}

/// Writes generated text to stdout; the exit code says whether it got there.
fn write_out(bytes: &[u8]) -> i32 {
    let mut out = crate::output::sink::Stdout::new();
    out.write(&String::from_utf8_lossy(bytes));
    solve::output_exit(&out).unwrap_or(crate::diag::exit::OK)
}
