//! `cspi explain`'s answer (`run::Explanation`) as people and machines read
//! it: a conflict as one diagnostic with a label on the source of each of
//! its constraints, other answers as one line; or one JSON object.

use super::json::to_json;
use crate::diag::Diag;
use crate::model::{Formula, Model, Origin, Term};
use crate::run::Explanation;
use crate::source::Source;
use serde::Serialize;
use std::fmt::Write;

/// The conflict as one diagnostic, pointing into `source`; another answer
/// as the line that says it.
pub(crate) fn human(
    model: &Model,
    source: &Source,
    answer: &Explanation,
) -> Result<Diag, &'static str> {
    let Explanation::Conflict {
        constraints,
        minimal,
        ..
    } = answer
    else {
        return Err(match answer {
            Explanation::Satisfiable => {
                "SATISFIABLE: the model has a solution; nothing to explain\n"
            }
            _ => {
                "UNKNOWN: a limit (time, memory or interrupt) came before the model was shown unsatisfiable\n"
            }
        });
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
    Ok(d)
}

/// A conflict on a crossword drawn on its grid, for each crossword it
/// touches: a given letter it needs in capitals, `+` a crossing it needs,
/// `.` the other open cells, other given letters in lower case; then the
/// entries through its cells. Empty for other answers and other models.
pub(crate) fn crossword_pictures(model: &Model, answer: &Explanation) -> String {
    let Explanation::Conflict { constraints, .. } = answer else {
        return String::new();
    };
    let mut out = String::new();
    for (k, (name, layout)) in model.crosswords.iter().enumerate() {
        // Per cell: 1 a crossing of the conflict, 2 a given letter of it;
        // and the word variables those constrain.
        let mut marks = vec![0u8; layout.width * layout.height];
        let mut vars = Vec::new();
        for &i in constraints {
            if let Some((which, c)) = model.origins.get(i).and_then(|o| o.cell)
                && which == k
            {
                let Formula::Cmp(_, a, b) = &model.constraints[i] else {
                    continue;
                };
                marks[c] |= if let Term::Const(_) = b { 2 } else { 1 };
                for t in [a, b] {
                    if let Term::Letter(v, _) = t {
                        vars.push(*v);
                    }
                }
            }
        }
        if marks.iter().all(|&m| m == 0) {
            continue;
        }
        let _ = writeln!(
            out,
            "the conflict on the grid of {name}: its given letters in capitals, + its crossings, . the other open cells"
        );
        out += &super::grid_text::draw(layout, |c| match (layout.given[c], marks[c]) {
            (Some(l), m) if m & 2 != 0 => l.to_uppercase().next().unwrap_or(l),
            (Some(l), _) => l,
            (None, 0) => '.',
            (None, _) => '+',
        });
        let through: Vec<_> = layout
            .slots
            .iter()
            .filter(|s| vars.contains(&s.var))
            .map(|s| (s, String::new()))
            .collect();
        let label = if through.len() == 1 {
            "this entry with the letters marked cannot be filled".to_string()
        } else {
            format!(
                "these {} entries with the letters marked cannot all be filled",
                through.len()
            )
        };
        out += &super::grid_text::entries(model, &label, &through);
    }
    out
}

/// `{"type":"explanation",...}`: the answer and each constraint's source
/// line, text, bindings and data.
#[derive(Serialize)]
struct Json<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    checks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraints: Option<Vec<Constraint<'a>>>,
}

/// One constraint of a conflict; where it was written when it is known.
#[derive(Serialize)]
struct Constraint<'a> {
    index: usize,
    #[serde(flatten)]
    written: Option<Written<'a>>,
}

#[derive(Serialize)]
struct Written<'a> {
    line: usize,
    text: &'a str,
    #[serde(serialize_with = "as_object")]
    bindings: &'a [(String, String)],
    data: &'a [String],
}

/// Pairs as one JSON object, in their order.
fn as_object<S: serde::Serializer>(pairs: &&[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// The answer as one JSON line.
pub(crate) fn json(model: &Model, source: &Source, answer: &Explanation) -> String {
    let written = |o: &'_ Origin| {
        let text = source.text.get(o.span.start..o.span.end).unwrap_or("");
        let line = source.text[..o.span.start.min(source.text.len())]
            .matches('\n')
            .count()
            + 1;
        (line, text)
    };
    let record = match answer {
        Explanation::Satisfiable | Explanation::Unknown => Json {
            kind: "explanation",
            status: if *answer == Explanation::Satisfiable {
                "SATISFIABLE"
            } else {
                "UNKNOWN"
            },
            minimal: None,
            checks: None,
            constraints: None,
        },
        Explanation::Conflict {
            constraints,
            minimal,
            checks,
        } => Json {
            kind: "explanation",
            status: "UNSATISFIABLE",
            minimal: Some(*minimal),
            checks: Some(*checks),
            constraints: Some(
                constraints
                    .iter()
                    .map(|&index| Constraint {
                        index,
                        written: model.origins.get(index).map(|o| {
                            let (line, text) = written(o);
                            Written {
                                line,
                                text,
                                bindings: &o.bindings,
                                data: &o.data,
                            }
                        }),
                    })
                    .collect(),
            ),
        },
    };
    to_json(&record) + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn json_as_written_by_hand_before() {
        let source = Source::new("m.csp", "var 1..3: x;\nconstraint x \u{c} < 1;\n");
        let mut model = Model::default();
        model.origins.push(Origin {
            span: Span::new(24, 31),
            bindings: vec![("i".into(), "1".into()), ("j".into(), "\"a\"".into())],
            data: vec!["d.json".into()],
            cell: None,
        });
        let answer = Explanation::Conflict {
            constraints: vec![0, 1],
            minimal: true,
            checks: 3,
        };
        assert_eq!(
            json(&model, &source, &answer),
            "{\"type\":\"explanation\",\"status\":\"UNSATISFIABLE\",\"minimal\":true,\"checks\":3,\
             \"constraints\":[{\"index\":0,\"line\":2,\"text\":\"x \\u000c < 1\",\
             \"bindings\":{\"i\":\"1\",\"j\":\"\\\"a\\\"\"},\"data\":[\"d.json\"]},{\"index\":1}]}\n"
        );
        assert_eq!(
            json(&model, &source, &Explanation::Unknown),
            "{\"type\":\"explanation\",\"status\":\"UNKNOWN\"}\n"
        );
        assert!(human(&model, &source, &Explanation::Satisfiable).is_err());
        let d = human(&model, &source, &answer).unwrap();
        assert_eq!(d.labels.len(), 1);
        assert!(d.message.contains("these 2 constraints"), "{}", d.message);
    }
}
