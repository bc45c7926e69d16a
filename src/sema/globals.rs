//! Calls of the global constraints in the registry (`model/globals/`):
//! arguments checked against each global's declared parameters.

use super::Checker;
use super::value::Value;
use crate::diag::Diag;
use crate::model::globals::{Global, ParamKind};
use crate::model::regex::{MAX_GRAPH, MAX_LISTED, Regex};
use crate::model::{Formula, GlobalArg, GlobalCall, Term};
use crate::syntax::ast::Span;
use std::sync::Arc;

impl Checker<'_> {
    /// `name(args)` for the global constraint `g`.
    pub(super) fn global_call(
        &mut self,
        g: &'static dyn Global,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let params = g.params();
        if args.len() != params.len() {
            // Every form, when the name has several (`regular`).
            let forms: Vec<&dyn Global> = crate::model::globals::forms(g.name()).collect();
            let counts: Vec<String> = forms.iter().map(|f| f.params().len().to_string()).collect();
            let help: Vec<String> = forms.iter().map(|&f| signature(f)).collect();
            return Err(Diag::new(
                "cspi::call",
                format!(
                    "`{}` takes {} argument{}, not {}",
                    g.name(),
                    counts.join(" or "),
                    if params.len() == 1 && forms.len() == 1 {
                        ""
                    } else {
                        "s"
                    },
                    args.len()
                ),
            )
            .label(span, "here")
            .help(help.join("; or ")));
        }
        let mut out = Vec::with_capacity(args.len());
        for (p, (v, s)) in params.iter().zip(args) {
            let wrong = |what: &str| {
                Diag::new(
                    "cspi::type",
                    format!("argument `{}` of `{}` must be {what}", p.name, g.name()),
                )
                .label(*s, format!("this is {}", v.type_name()))
                .help(signature(g))
            };
            let arg = match p.kind {
                // A diagram, or a table's rows as wide as the array before it.
                ParamKind::Mdd => match v {
                    Value::Mdd(m) => GlobalArg::Mdd(m.clone()),
                    Value::Table(_) | Value::Array(_) => {
                        let arity = out.last().map_or(0, crate::model::globals::len);
                        let rows = self.rows(v, *s, arity).map_err(|d| {
                            d.help(format!("`{}` takes rows of {arity} values, one per item of the array before it", g.name()))
                        })?;
                        GlobalArg::Mdd(Arc::new(crate::model::mdd::Mdd::from_rows(arity, &rows)))
                    }
                    _ => return Err(wrong("a trie(...) or the rows of a table")),
                },
                ParamKind::Regex => match v {
                    Value::Str(text) => {
                        let r = self.regex(text, *s)?;
                        self.regex_fits(&r, out.first(), *s)?;
                        GlobalArg::Regex(r)
                    }
                    _ => return Err(wrong("a string (a regular expression)")),
                },
                ParamKind::Term | ParamKind::Int => {
                    let t = v.as_term().ok_or_else(|| wrong("an integer"))?;
                    if p.kind == ParamKind::Int && t.as_const().is_none() {
                        return Err(wrong("an integer known at load time"));
                    }
                    GlobalArg::Term(t)
                }
                ParamKind::Set => {
                    let set = match v {
                        Value::Set(set) | Value::EnumSet(_, set) => Some(set.clone()),
                        _ => None,
                    };
                    let members = match set {
                        Some(set) if set.len() > SET_MEMBERS => {
                            return Err(wrong(&format!("a set of at most {SET_MEMBERS} integers")));
                        }
                        Some(set) => set.iter().collect(),
                        None if matches!(v, Value::Array(_)) => {
                            let items = self.flatten(v, *s)?;
                            items
                                .iter()
                                .map(|i| i.as_term().and_then(|t| t.as_const()))
                                .collect::<Option<Vec<i64>>>()
                                .ok_or_else(|| wrong("a set of integers known at load time"))?
                        }
                        None => return Err(wrong("a set of integers known at load time")),
                    };
                    let mut members = members;
                    members.sort_unstable();
                    members.dedup();
                    GlobalArg::Terms(members.into_iter().map(Term::Const).collect())
                }
                ParamKind::Terms | ParamKind::Ints => {
                    if !matches!(v, Value::Array(_)) {
                        return Err(wrong("an array"));
                    }
                    let items = self.flatten(v, *s)?;
                    let terms = items
                        .iter()
                        .map(Value::as_term)
                        .collect::<Option<Vec<Term>>>()
                        .ok_or_else(|| wrong("an array of integers"))?;
                    if p.kind == ParamKind::Ints && terms.iter().any(|t| t.as_const().is_none()) {
                        return Err(wrong("an array of integers known at load time"));
                    }
                    GlobalArg::Terms(terms)
                }
            };
            out.push(arg);
        }
        if let Err(p) = g.check(&out) {
            return Err(Diag::new("cspi::global::args", p.message)
                .label(args[p.arg].1, "here")
                .help(p.help));
        }
        Ok(Value::from_formula(Formula::Global(GlobalCall {
            def: g,
            args: out,
        })))
    }
}

impl Checker<'_> {
    /// A regular expression compiled, or a diagnostic on the argument that
    /// gave it, saying where in the expression the fault is; on the very
    /// character when the argument is a plain string literal.
    fn regex(&self, text: &str, span: Span) -> Result<Arc<Regex>, Diag> {
        let e = match Regex::compile(text) {
            Ok(r) => return Ok(Arc::new(r)),
            Err(e) => e,
        };
        let written = self.input.source.text.get(span.start..span.end);
        let literal = written == Some(&format!("\"{text}\"")[..]);
        let (message, label) = match e.at {
            // Text from a `--param NAME=@path` file is never shown.
            Some(at) if !literal && self.is_param_file_text(text) => (
                format!(
                    "{} (character {} of the regular expression)",
                    e.message,
                    at + 1
                ),
                format!("character {} of this text from a --param @file", at + 1),
            ),
            Some(at) => {
                let c = text
                    .chars()
                    .nth(at)
                    .map_or("the end".to_string(), |c| format!("`{c}`"));
                let label = if literal {
                    format!("{c}, character {}", at + 1)
                } else {
                    // The expression was computed: show it around the fault.
                    let shown: String = text.chars().skip(at.saturating_sub(30)).take(60).collect();
                    let cut = |b| if b { "…" } else { "" };
                    format!(
                        "{c}, character {} of \"{}{shown}{}\"",
                        at + 1,
                        cut(at > 30),
                        cut(text.chars().count() > at.saturating_sub(30) + 60)
                    )
                };
                (
                    format!(
                        "{} (character {} of the regular expression)",
                        e.message,
                        at + 1
                    ),
                    label,
                )
            }
            None => (e.message, "this regular expression".to_string()),
        };
        let at = match e.at {
            Some(at) if literal => {
                let byte = text.char_indices().nth(at).map_or(text.len(), |(b, _)| b);
                let width = text[byte..].chars().next().map_or(0, char::len_utf8);
                Span {
                    start: span.start + 1 + byte,
                    end: span.start + 1 + byte + width,
                }
            }
            _ => span,
        };
        Err(Diag::new("cspi::global::regex", message)
            .label(at, label)
            .help(REGEX_HELP))
    }
}

impl Checker<'_> {
    /// Refuses an expression whose layered graph over `x` would list too
    /// many values (`.` or `[^ ]` over wide domains), counted from the
    /// bounds of `x`'s terms.
    fn regex_fits(&self, r: &Regex, x: Option<&GlobalArg>, span: Span) -> Result<(), Diag> {
        let Some(GlobalArg::Terms(x)) = x else {
            return Ok(());
        };
        let mut listed = 0u64;
        for t in x {
            let Ok((lo, hi)) = super::range::bounds(t, &self.model) else {
                return Ok(()); // refused elsewhere as too wide for 64 bits
            };
            let (lo, hi) = (
                lo.max(i64::MIN as i128) as i64,
                hi.min(i64::MAX as i128) as i64,
            );
            listed = listed.saturating_add(r.listed(lo, hi, MAX_LISTED - listed));
            if listed > MAX_LISTED {
                break;
            }
        }
        let states = r.dfa.states() as u64;
        if listed <= MAX_LISTED && listed.saturating_mul(states) <= MAX_GRAPH {
            return Ok(());
        }
        let message = if listed > MAX_LISTED {
            format!(
                "over the domains of `x`, this expression's layered graph would list more \
                 than {MAX_LISTED} values"
            )
        } else {
            format!(
                "over the domains of `x`, this expression's layered graph would have {states} \
                 states × {listed} values, more than {MAX_GRAPH}"
            )
        };
        Err(Diag::new("cspi::global::regex", message)
            .label(span, "this regular expression")
            .help(
                "`.` and `[^ ]` stand for every value of the domains of `x`: narrow the \
                 domains, or list the values the expression allows",
            ))
    }
}

/// The most members a set argument may list (`among(n, x, 1..10^9)` is refused).
const SET_MEMBERS: u64 = 1 << 24;

const REGEX_HELP: &str = "symbols are integers separated by spaces; `|` or; `*` `+` `?` \
`{n}` `{n,}` `{n,m}` repeat; `( )` group; `[1 3-5]` one of, `[^1 2]` none of; `.` any value \
(docs/globals.md, `regular`)";

/// `name(params) takes ...`, for messages.
fn signature(g: &dyn Global) -> String {
    let shown: Vec<String> = g
        .params()
        .iter()
        .map(|p| {
            let kind = match p.kind {
                ParamKind::Term => "an integer expression",
                ParamKind::Terms => "an array of integer expressions",
                ParamKind::Int => "an integer known at load time",
                ParamKind::Ints => "an array of integers known at load time",
                ParamKind::Mdd => "a trie(...) of words, or rows of a table",
                ParamKind::Regex => "a regular expression (a string known at load time)",
                ParamKind::Set => "a set of integers known at load time",
            };
            format!("`{}`: {kind}", p.name)
        })
        .collect();
    format!(
        "{}({}) takes {}",
        g.name(),
        param_names(g),
        shown.join("; ")
    )
}

fn param_names(g: &dyn Global) -> String {
    g.params()
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}
