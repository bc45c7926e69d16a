//! `cspi fzn FILE.fzn`: cspi as a FlatZinc solver, with MiniZinc's standard
//! flags and output protocol (solutions, `----------`, `==========`,
//! `=====UNSATISFIABLE=====`, `=====UNKNOWN=====`, `%%%mzn-stat:` lines),
//! each solution flushed as it is found; and `cspi minizinc-install`, which
//! writes the solver configuration into MiniZinc's user solver folder.
//! docs/minizinc.md.

use super::interrupt::Interrupt;
use super::{FznArgs, MinizincInstallArgs};
use crate::diag::{Diag, Diags, exit};
use crate::engine::search::{Limits, MemoryLimit, Next};
use crate::engine::stats::peak_memory;
use crate::flatzinc::{self, output};
use crate::model::{Restarts, VarSelect};
use crate::output::sink::{Stdout, eprint};
use crate::setup;
use crate::solve::{self, Options, Status};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) fn command(args: &FznArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let started = Instant::now();
    let memory = args.memory_limit.map(MemoryLimit::new);
    let Some(fzn) = load_in_time(args, started, interrupt, memory.as_ref()) else {
        // The time limit, the memory limit or a signal came while loading:
        // no answer, a normal end for MiniZinc, as when they come during
        // the search.
        let mut out = Stdout::new();
        out.write(&format!("{}\n", output::UNKNOWN));
        if args.stats {
            let peak = peak_memory().map_or(String::new(), |m| {
                format!("%%%mzn-stat: peakMem={:.2}\n", m as f64 / (1024.0 * 1024.0))
            });
            out.write(&format!(
                "%%%mzn-stat: initTime={:.3}\n%%%mzn-stat: solutions=0\n{peak}%%%mzn-stat-end\n",
                started.elapsed().as_secs_f64()
            ));
        }
        return Ok(super::solve::output_exit(&out).unwrap_or(exit::OK));
    };
    let fzn = fzn?;
    let init_time = started.elapsed();
    let flatzinc::FznModel {
        mut model,
        outputs,
        annotated_search,
        restarts_annotated,
    } = fzn;
    let optimising = model.objective.is_some();
    let enumerating = args.all && !optimising;
    let learning = args
        .strategy
        .learning
        .unwrap_or_else(|| setup::learning(&model, &model.search, optimising));
    if args.free || !annotated_search {
        let scope = std::mem::take(&mut model.search.scope);
        model.search = flatzinc::default_search();
        if learning {
            // The free search of a learning solver: the variables of recent
            // conflicts first (docs/learning.md).
            model.search.var = VarSelect::Activity;
        }
        if !args.free {
            model.search.scope = scope;
        }
    }
    model.search.learning = Some(learning);
    let adaptive = matches!(model.search.var, VarSelect::DomWdeg | VarSelect::Activity);
    if !restarts_annotated && !enumerating && adaptive {
        // dom/wdeg and activity learn from failures: restarts let them use
        // what they learnt.
        model.search.restarts = Restarts::Luby;
    }
    if let Some(seed) = args.seed {
        model.search.seed = seed;
    }
    let model = Arc::new(model);
    let threads = args.threads.map_or(1, |n| n.max(1) as usize);
    let mut options = Options {
        search: model.search.clone(),
        check: args.check_solutions,
        threads,
        // The process exits after this one run: its engines are not freed.
        ends_the_process: true,
        ..Options::default()
    };
    args.strategy.apply(&mut options.search);
    options.limits = Limits {
        solutions: if enumerating || optimising {
            None
        } else {
            Some(args.solutions.unwrap_or(1))
        },
        time: args
            .time_limit
            .map(|ms| Duration::from_millis(ms).saturating_sub(started.elapsed())),
        stop: Some(Arc::clone(&interrupt.stop)),
        nodes: args.node_limit,
        memory,
        ..Limits::default()
    };
    if args.verbose {
        eprint(&format!(
            "%% cspi: {} variables, {} constraints, read in {:.3} s; search {}, restarts {:?}, {} thread(s)\n",
            model.vars.len(),
            model.constraints.len(),
            init_time.as_secs_f64(),
            options.search,
            options.search.restarts,
            threads
        ));
    }
    let mut out = Stdout::new();
    // Optimisation without -a or -i prints the best solution only, at the end.
    let each = !optimising || args.all || args.intermediate;
    let mut best: Option<String> = None;
    let mut printed = 0u64;
    let summary = solve::solve(&model, &options, |values| {
        let text = output::solution(&outputs, values);
        printed += 1;
        if each {
            if !out.write(&text) {
                return Next::Stop;
            }
        } else {
            best = Some(text);
        }
        // -n bounds the solutions found when optimising too (as Gecode's
        // FlatZinc driver does): the run then ends without a proof.
        if args.solutions.is_some_and(|n| printed >= n) {
            return Next::Stop;
        }
        Next::Continue
    });
    if let Some(text) = best {
        out.write(&text);
    }
    let end = match summary.status {
        Status::Unsatisfiable => Some(output::UNSATISFIABLE),
        Status::Optimal | Status::AllSolutions => Some(output::COMPLETE),
        Status::Unknown => Some(output::UNKNOWN),
        Status::Satisfiable => None,
    };
    if let Some(line) = end {
        out.write(&format!("{line}\n"));
    }
    if args.stats {
        let s = &summary.stats;
        let mut text = String::new();
        let mut stat = |name: &str, value: String| {
            text.push_str(&format!("%%%mzn-stat: {name}={value}\n"));
        };
        stat("initTime", format!("{:.3}", init_time.as_secs_f64()));
        stat("solveTime", format!("{:.3}", s.time.as_secs_f64()));
        stat("solutions", s.solutions.to_string());
        stat("variables", model.vars.len().to_string());
        stat("constraints", model.constraints.len().to_string());
        stat("nodes", s.nodes.to_string());
        stat("failures", s.failures.to_string());
        stat("restarts", s.restarts.to_string());
        stat("propagations", s.propagations.to_string());
        stat("peakDepth", s.max_depth.to_string());
        if let Some(o) = summary.objective {
            stat("objective", o.to_string());
        }
        if let Some(m) = peak_memory() {
            stat("peakMem", format!("{:.2}", m as f64 / (1024.0 * 1024.0)));
        }
        text.push_str("%%%mzn-stat-end\n");
        out.write(&text);
    }
    // Nor the model, which the process's exit frees at once.
    std::mem::forget(model);
    if let Some(first) = summary.rejected.first() {
        eprint(&format!(
            "error: the independent checker rejected {} solution(s); this is a bug in cspi, please report it\n  first: {first}\n",
            summary.rejected.len()
        ));
        return Ok(exit::INTERNAL);
    }
    if let Some(code) = super::solve::output_exit(&out) {
        return Ok(code);
    }
    // Stopped by SIGTERM or a time limit, with the best answer printed: a
    // normal end for MiniZinc.
    Ok(exit::OK)
}

/// Loads the FlatZinc file on a thread of its own while this one watches
/// the clock, the heap and the interrupt flag: the parser reads a file in
/// one piece, and an 85 MB file once ran 22 s past `-t 500`, a 10 MB one
/// to 406 MB past `--memory-limit 30M`. `None` when a limit or a signal
/// came first (the loading thread is left to the end of the process); a
/// panic while loading is raised again here.
fn load_in_time(
    args: &FznArgs,
    started: Instant,
    interrupt: &Interrupt,
    memory: Option<&MemoryLimit>,
) -> Option<Result<flatzinc::FznModel, Diags>> {
    use std::sync::mpsc::{RecvTimeoutError, channel};
    let (tx, rx) = channel();
    let path = args.file.clone();
    let loader = std::thread::Builder::new()
        .name("fzn-load".into())
        .stack_size(crate::run::WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(flatzinc::load_file(&path));
        });
    let Ok(loader) = loader else {
        return Some(flatzinc::load_file(&args.file));
    };
    let deadline = args
        .time_limit
        .map(|ms| started + Duration::from_millis(ms));
    loop {
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok(loaded) => return Some(loaded),
            Err(RecvTimeoutError::Disconnected) => match loader.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the loader sends before it ends"),
            },
            Err(RecvTimeoutError::Timeout) => {
                if interrupt.stopped()
                    || deadline.is_some_and(|d| Instant::now() >= d)
                    || crate::engine::search::over_memory(memory)
                {
                    return None;
                }
            }
        }
    }
}

/// The files of the solver library, written by `cspi minizinc-install`.
/// (A test holds this list to the folder.)
const LIBRARY: &[(&str, &str)] = &[
    (
        "cspi_globals.mzn",
        include_str!("../../share/minizinc/cspi/cspi_globals.mzn"),
    ),
    (
        "fzn_all_different_int.mzn",
        include_str!("../../share/minizinc/cspi/fzn_all_different_int.mzn"),
    ),
    (
        "fzn_among.mzn",
        include_str!("../../share/minizinc/cspi/fzn_among.mzn"),
    ),
    (
        "fzn_bin_packing.mzn",
        include_str!("../../share/minizinc/cspi/fzn_bin_packing.mzn"),
    ),
    (
        "fzn_bin_packing_capa.mzn",
        include_str!("../../share/minizinc/cspi/fzn_bin_packing_capa.mzn"),
    ),
    (
        "fzn_bin_packing_load.mzn",
        include_str!("../../share/minizinc/cspi/fzn_bin_packing_load.mzn"),
    ),
    (
        "fzn_circuit.mzn",
        include_str!("../../share/minizinc/cspi/fzn_circuit.mzn"),
    ),
    (
        "fzn_count_eq.mzn",
        include_str!("../../share/minizinc/cspi/fzn_count_eq.mzn"),
    ),
    (
        "fzn_count_eq_par.mzn",
        include_str!("../../share/minizinc/cspi/fzn_count_eq_par.mzn"),
    ),
    (
        "fzn_cumulative.mzn",
        include_str!("../../share/minizinc/cspi/fzn_cumulative.mzn"),
    ),
    (
        "fzn_disjunctive.mzn",
        include_str!("../../share/minizinc/cspi/fzn_disjunctive.mzn"),
    ),
    (
        "fzn_disjunctive_strict.mzn",
        include_str!("../../share/minizinc/cspi/fzn_disjunctive_strict.mzn"),
    ),
    (
        "fzn_global_cardinality.mzn",
        include_str!("../../share/minizinc/cspi/fzn_global_cardinality.mzn"),
    ),
    (
        "fzn_global_cardinality_closed.mzn",
        include_str!("../../share/minizinc/cspi/fzn_global_cardinality_closed.mzn"),
    ),
    (
        "fzn_global_cardinality_low_up.mzn",
        include_str!("../../share/minizinc/cspi/fzn_global_cardinality_low_up.mzn"),
    ),
    (
        "fzn_inverse.mzn",
        include_str!("../../share/minizinc/cspi/fzn_inverse.mzn"),
    ),
    (
        "fzn_lex_less_bool.mzn",
        include_str!("../../share/minizinc/cspi/fzn_lex_less_bool.mzn"),
    ),
    (
        "fzn_lex_less_int.mzn",
        include_str!("../../share/minizinc/cspi/fzn_lex_less_int.mzn"),
    ),
    (
        "fzn_lex_lesseq_bool.mzn",
        include_str!("../../share/minizinc/cspi/fzn_lex_lesseq_bool.mzn"),
    ),
    (
        "fzn_lex_lesseq_int.mzn",
        include_str!("../../share/minizinc/cspi/fzn_lex_lesseq_int.mzn"),
    ),
    (
        "fzn_nvalue.mzn",
        include_str!("../../share/minizinc/cspi/fzn_nvalue.mzn"),
    ),
    (
        "fzn_regular.mzn",
        include_str!("../../share/minizinc/cspi/fzn_regular.mzn"),
    ),
    (
        "fzn_subcircuit.mzn",
        include_str!("../../share/minizinc/cspi/fzn_subcircuit.mzn"),
    ),
    (
        "fzn_table_int.mzn",
        include_str!("../../share/minizinc/cspi/fzn_table_int.mzn"),
    ),
    (
        "redefinitions.mzn",
        include_str!("../../share/minizinc/cspi/redefinitions.mzn"),
    ),
];

const MSC: &str = include_str!("../../share/minizinc/cspi.msc");

pub(super) fn install(args: &MinizincInstallArgs) -> Result<i32, Diags> {
    let fail = |what: String, e: std::io::Error| {
        Diags::from(Diag::new("cspi::install", format!("{what}: {e}")).usage())
    };
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => {
            let Some(home) = std::env::var_os("HOME") else {
                return Err(Diags::from(
                    Diag::new("cspi::install", "HOME is not set")
                        .help("give the folder with --dir")
                        .usage(),
                ));
            };
            std::path::PathBuf::from(home)
                .join(".minizinc")
                .join("solvers")
        }
    };
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| fail("cannot find the cspi binary".into(), e))?;
    let lib = dir.join("cspi");
    std::fs::create_dir_all(&lib)
        .map_err(|e| fail(format!("cannot create {}", lib.display()), e))?;
    for (name, text) in LIBRARY {
        let path = lib.join(name);
        std::fs::write(&path, text)
            .map_err(|e| fail(format!("cannot write {}", path.display()), e))?;
    }
    let script = dir.join("fzn-cspi");
    let quoted = exe.display().to_string().replace('\'', "'\\''");
    std::fs::write(
        &script,
        format!("#!/bin/sh\n# cspi as a FlatZinc solver (written by `cspi minizinc-install`).\nexec '{quoted}' fzn \"$@\"\n"),
    )
    .map_err(|e| fail(format!("cannot write {}", script.display()), e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| fail(format!("cannot make {} executable", script.display()), e))?;
    }
    let msc = dir.join("cspi.msc");
    std::fs::write(&msc, MSC).map_err(|e| fail(format!("cannot write {}", msc.display()), e))?;
    let mut out = Stdout::new();
    out.write(&format!(
        "wrote {} (library {}, executable {} -> {})\nrun: minizinc --solver cspi model.mzn data.dzn\n",
        msc.display(),
        lib.display(),
        script.display(),
        exe.display()
    ));
    Ok(super::solve::output_exit(&out).unwrap_or(exit::OK))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_library_list_is_the_folder() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/share/minizinc/cspi");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let listed: Vec<&str> = super::LIBRARY.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names, listed,
            "list every file of share/minizinc/cspi in LIBRARY"
        );
    }
}
