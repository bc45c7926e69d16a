//! `cspi bench`: the cross product of strategies, one table row per
//! combination, the running row shown on stderr.

use super::BenchArgs;
use super::interrupt::Interrupt;
use super::solve::{interrupted_loading, load_or_stopped, output_exit};
use crate::bench::{self, Combo, Plan};
use crate::diag::{Diags, exit};
use crate::engine::search::MemoryLimit;
use crate::model::search::Named;
use crate::output::Format;
use crate::output::sink::{Stdout, eprint};
use crate::solve;
use std::io::IsTerminal;
use std::sync::Arc;

pub(super) fn command(args: &BenchArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let options = args.model.load_options(interrupt)?;
    let Ok(model) = load_or_stopped(&args.model.model, &options)? else {
        return Ok(interrupted_loading(interrupt));
    };
    let model = Arc::new(model);
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
        time_limit: Some(args.time_limit),
        stop: Some(Arc::clone(&interrupt.stop)),
        memory: args.model.memory_limit.map(MemoryLimit::new),
    };
    for combo in &plan.combos {
        let mut spec = model.search.clone();
        spec.val = combo.val;
        solve::check_strategy(&model, &spec).map_err(|d| Diags::from(d.usage()))?;
    }
    let mut out = Stdout::new();
    if args.format == Format::Human {
        out.write(crate::output::bench::MARKDOWN_HEADER);
    }
    let total = plan.combos.len() as u64 * u64::from(plan.runs);
    let mut started = 0u64;
    let show_progress = std::io::stderr().is_terminal();
    let rows = bench::run(
        &model,
        &plan,
        |c, k| {
            started += 1;
            if show_progress {
                eprint(&format!(
                    "\r\x1b[2Krun {started}/{total}: var {}, val {}, propagation {}, run {}",
                    c.var.name(),
                    c.val.name(),
                    c.propagation.name(),
                    k + 1
                ));
            }
        },
        |row| {
            if show_progress {
                eprint("\r\x1b[2K");
            }
            let text = match args.format {
                Format::Human => crate::output::bench::markdown_row(row),
                Format::Json => crate::output::bench::json_lines(row),
            };
            out.write(&text);
        },
    );
    if show_progress {
        eprint("\r\x1b[2K");
    }
    if let Some(code) = output_exit(&out) {
        return Ok(code);
    }
    if let Some(path) = &args.plot {
        let bars: Vec<crate::output::chart::Bar> = rows
            .iter()
            .map(|r| {
                let n = r.runs.len().max(1) as f64;
                crate::output::chart::Bar {
                    label: format!(
                        "{} / {} / {}",
                        r.combo.var.name(),
                        r.combo.val.name(),
                        r.combo.propagation.name()
                    ),
                    nodes: r.runs.iter().map(|x| x.nodes as f64).sum::<f64>() / n,
                    time_ms: r.runs.iter().map(|x| x.time_ms).sum::<f64>() / n,
                }
            })
            .collect();
        let title = format!(
            "{}: nodes and time per strategy (var / val / propagation){}",
            args.model.model.display(),
            if args.runs > 1 {
                ", mean of the runs"
            } else {
                ""
            }
        );
        super::solve::write_picture(path, "--plot", &crate::output::chart::svg(&bars, &title))?;
    }
    if let Some(what) = bench::disagreement(&rows, args.first, model.objective.is_some()) {
        eprint(&format!(
            "error: the strategies disagree ({what}); this is a bug in cspi, please report it\n"
        ));
        return Ok(exit::INTERNAL);
    }
    Ok(interrupt.exit_code().unwrap_or(exit::OK))
}

/// The listed values, or the model's own when none are listed.
fn or_default<T: Copy>(list: &[T], default: T) -> Vec<T> {
    if list.is_empty() {
        vec![default]
    } else {
        list.to_vec()
    }
}
