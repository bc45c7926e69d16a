//! `cspi explain`: why a model has no solution, as one diagnostic with a
//! label on the source of each constraint of a minimal conflict (the
//! algorithm is in `crate::explain`).

use super::ExplainArgs;
use super::diagnostics::render_plain;
use super::interrupt::Interrupt;
use super::solve::{model_overrides, output_exit};
use crate::diag::{Diag, Diags, Source, exit};
use crate::explain::{Explanation, explain};
use crate::model::{Model, Origin};
use crate::output::Format;
use crate::output::json::string;
use crate::output::sink::Stdout;
use crate::solve;
use std::io::IsTerminal;
use std::sync::Arc;

pub(super) fn command(args: &ExplainArgs, interrupt: &Interrupt) -> Result<i32, Diags> {
    let options = solve::LoadOptions {
        params: model_overrides(&args.model)?,
        data_files: args.model.data.clone(),
        ..solve::LoadOptions::default()
    };
    let parsed = solve::parse(&args.model.model)?;
    let model = solve::load(&parsed, &options)?;
    let answer = explain(&model, args.time_limit, Some(Arc::clone(&interrupt.stop)));
    let text = match args.format {
        Format::Human => human(&model, &parsed.source, &answer),
        Format::Json => json(&model, &parsed.source, &answer),
    };
    let mut out = Stdout::new();
    out.write(&text);
    if let Some(code) = output_exit(&out) {
        return Ok(code);
    }
    Ok(interrupt.exit_code().unwrap_or(exit::OK))
}

/// The conflict as one diagnostic; other answers as one line.
fn human(model: &Model, source: &Source, answer: &Explanation) -> String {
    let Explanation::Conflict {
        constraints,
        minimal,
        ..
    } = answer
    else {
        return match answer {
            Explanation::Satisfiable => {
                "SATISFIABLE: the model has a solution; nothing to explain\n"
            }
            _ => "UNKNOWN: the time limit came before the model was shown unsatisfiable\n",
        }
        .to_string();
    };
    let origins: Vec<&Origin> = constraints
        .iter()
        .filter_map(|&i| model.origins.get(i))
        .collect();
    let data: Vec<&str> = {
        let mut d: Vec<&str> = origins
            .iter()
            .flat_map(|o| o.data.iter().map(String::as_str))
            .collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    let n = constraints.len();
    let mut d = Diag::new(
        "cspi::explain",
        if n == 1 {
            "UNSATISFIABLE: this constraint can never hold".to_string()
        } else {
            format!("UNSATISFIABLE: these {n} constraints cannot all hold together")
        },
    );
    // One label per source span, listing the instances written there.
    let mut spans: Vec<(crate::source::Span, Vec<String>)> = Vec::new();
    for o in &origins {
        let mut what = o.bindings_text();
        if !o.data.is_empty() {
            let from = format!("data: {}", o.data.join(", "));
            what = if what.is_empty() {
                from
            } else {
                format!("{what} ({from})")
            };
        }
        match spans.iter_mut().find(|(s, _)| *s == o.span) {
            Some((_, list)) => list.push(what),
            None => spans.push((o.span, vec![what])),
        }
    }
    for (span, list) in spans {
        let list: Vec<String> = list.into_iter().filter(|w| !w.is_empty()).collect();
        let text = match list.len() {
            0 => "this constraint".to_string(),
            1..=6 => list.join("; "),
            k => format!("{}; ... ({k} instances)", list[..5].join("; ")),
        };
        d = d.label(span, text);
    }
    let proof = if *minimal {
        "without any one of them the others have a solution"
    } else {
        "found within the time limit; it may not be minimal"
    };
    d = d.help(if data.is_empty() {
        format!("{proof}: relax or remove one of them")
    } else {
        format!(
            "{proof}; the data ({}) contradicts the rules: check it first",
            data.join(", ")
        )
    });
    d = d.in_source(source);
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if std::io::stdout().is_terminal() && !no_color {
        format!("{:?}\n", miette::Report::new(d))
    } else {
        render_plain(&d)
    }
}

/// `{"type":"explanation",...}`: the answer and each constraint's source line,
/// text, bindings and data.
fn json(model: &Model, source: &Source, answer: &Explanation) -> String {
    let mut out = String::from("{\"type\":\"explanation\",\"status\":");
    let (constraints, minimal, checks) = match answer {
        Explanation::Satisfiable => ("SATISFIABLE", None, None),
        Explanation::Unknown => ("UNKNOWN", None, None),
        Explanation::Conflict {
            constraints,
            minimal,
            checks,
        } => (
            "UNSATISFIABLE",
            Some((constraints, *minimal)),
            Some(*checks),
        ),
    };
    string(&mut out, constraints);
    if let (Some((list, minimal)), Some(checks)) = (minimal, checks) {
        out.push_str(&format!(
            ",\"minimal\":{minimal},\"checks\":{checks},\"constraints\":["
        ));
        for (k, &i) in list.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str(&format!("{{\"index\":{i}"));
            if let Some(o) = model.origins.get(i) {
                let text = source.text.get(o.span.start..o.span.end).unwrap_or("");
                let line = source.text[..o.span.start.min(source.text.len())]
                    .matches('\n')
                    .count()
                    + 1;
                out.push_str(&format!(",\"line\":{line},\"text\":"));
                string(&mut out, text);
                out.push_str(",\"bindings\":{");
                for (j, (name, value)) in o.bindings.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    string(&mut out, name);
                    out.push(':');
                    string(&mut out, value);
                }
                out.push_str("},\"data\":[");
                for (j, name) in o.data.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    string(&mut out, name);
                }
                out.push(']');
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push_str("}\n");
    out
}
