//! `solve --suggest VAR` and `--fillability`: the candidates of one variable
//! with their exact counts, and the crossword's fillability map, instead of
//! a search for solutions (the computation is `crate::suggest`).

use super::{Format, SolveArgs};
use crate::diag::{Diag, Diags};
use crate::engine::search::Limits;
use crate::model::Model;
use crate::output::fillability;
use std::sync::Arc;

/// Runs the suggestions and the map the flags ask for; the text to print.
pub(super) fn run(args: &SolveArgs, model: &Arc<Model>, limits: &Limits) -> Result<String, Diags> {
    let var = match &args.suggest {
        None => None,
        Some(name) => Some(
            (0..model.vars.len())
                .find(|&v| !model.vars[v].aux && model.vars[v].name == *name)
                .ok_or_else(|| {
                    let names = model
                        .vars
                        .iter()
                        .filter(|v| !v.aux)
                        .map(|v| v.name.as_str());
                    let d = Diag::new(
                        "cspi::suggest",
                        format!("--suggest: the model has no variable `{name}`"),
                    )
                    .usage();
                    Diags::from(match crate::diag::did_you_mean(name, names) {
                        Some(s) => d.help(format!("did you mean `{s}`?")),
                        None => d.help("name one variable as the output writes it, such as xw[5]"),
                    })
                })?,
        ),
    };
    // The first crossword, as in Python's `fillability()`, whether or not
    // the model outputs it.
    let first = model.crosswords.first();
    let wants_map = args.fillability || args.fillability_svg.is_some();
    if wants_map && first.is_none() {
        return Err(Diags::from(
            Diag::new(
                "cspi::suggest",
                "--fillability: this model has no crossword",
            )
            .help("the map is drawn over a crossword grid: `crossword xw = picture(grid, words);`")
            .usage(),
        ));
    }
    // One thread unless asked: counting the values one after another
    // shares one cache of parts.
    let threads = args.threads.map_or(1, |n| n as usize);
    let s = crate::suggest::suggest(model, var, args.top, limits, threads);
    let json = args.format == Format::Json;
    let mut out = String::new();
    if let Some(v) = var {
        out += &if json {
            crate::output::report::suggestions_json(model, v, &s)
        } else {
            crate::output::report::suggestions_text(model, v, &s)
        };
    }
    if s.stopped && wants_map {
        out.push_str(if json {
            "{\"type\":\"fillability\",\"stopped\":true}\n"
        } else {
            "fillability: UNKNOWN, a limit stopped the run before the model was propagated\n"
        });
        if args.fillability_svg.is_some() {
            crate::output::sink::eprint(
                "cspi: --fillability-svg: nothing drawn, a limit stopped the run first\n",
            );
        }
        return Ok(out);
    }
    if let Some((grid, layout)) = first.filter(|_| wants_map) {
        if args.fillability && json {
            out.push_str(&fillability::json(model, grid, layout, &s.sizes));
        } else if args.fillability {
            out.push_str(&fillability::text(model, layout, &s.sizes, 5));
        }
        if let Some(path) = &args.fillability_svg {
            super::solve::write_picture(
                path,
                "--fillability-svg",
                &fillability::svg(layout, &s.sizes),
            )?;
        }
    }
    Ok(out)
}
