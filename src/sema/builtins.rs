//! Built-in functions: constraints (`alldifferent`), arithmetic (`abs`, `min`,
//! `max`, `sum`, `count`), and data (`grid`, `read`, `length`).

use super::Checker;
use super::dict::letter_count;
use super::value::Value;
use crate::diag::{Diag, did_you_mean};
use crate::model::{CmpOp, Formula, Term, VarKind, WordList};
use crate::syntax::ast::{Ident, Span};
use std::rc::Rc;
use std::sync::Arc;

/// Every built-in function name, for "did you mean" help.
const BUILTINS: &[&str] = &[
    "alldifferent",
    "all_different",
    "abs",
    "min",
    "max",
    "sum",
    "product",
    "count",
    "length",
    "grid",
    "read",
    "read_table",
    "read_ints",
    "table",
    "forbidden",
    "digits",
    "assert",
    "split",
    "int",
    "upper",
    "tokens",
    "word_table",
    "trie",
    "columns",
    "dictionary",
    "words",
    "score",
    "ord",
    "card",
    "lines",
    "starts_with",
    "ends_with",
    "all_disjoint",
    "disjoint",
    "partition_set",
];

/// Whether `name` is a built-in function (or an output form), which a
/// user function may not redefine. (`sqrt`, `floor`, `ceil` and `round`
/// came later: a user function of one of those names takes its place.)
pub(super) fn is_builtin(name: &str) -> bool {
    BUILTINS.contains(&name)
        || super::strings::STRING_BUILTINS.contains(&name)
        || matches!(
            name,
            "spell" | "total" | "quality" | "slots" | "picture" | "read_table" | "grid"
        )
}

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        name: &Ident,
        args: Vec<(Value, Span)>,
        span: Span,
    ) -> Result<Value, Diag> {
        // An argument whose definition failed was reported there.
        if args.iter().any(|(v, _)| has_poison(v)) {
            return Ok(Value::Poison);
        }
        if let Some(r) = self.text_builtin(&name.name, &args, span) {
            return r;
        }
        if let Some(r) = self.string_builtin(&name.name, &args, span) {
            return r;
        }
        if let Some(r) = self.set_builtin(&name.name, &args, span) {
            return r;
        }
        match name.name.as_str() {
            "alldifferent" | "all_different" => {
                let terms = self.terms_of_args(&args, span)?;
                if let Some(f) = self.word_alldifferent(&terms, span)? {
                    return Ok(Value::from_formula(f));
                }
                Ok(Value::from_formula(if terms.len() < 2 {
                    Formula::Const(true)
                } else {
                    alldifferent(terms)
                }))
            }
            // ⌊√x⌋ of a constant (`round(sqrt(x))` in `rounding.rs`).
            "sqrt" if !self.functions.contains_key("sqrt") => match args.as_slice() {
                [(v, s)] => self.sqrt_of(v.clone(), super::rounding::Rounding::Floor, *s),
                _ => Err(super::rounding::sqrt_arity(span)),
            },
            "abs" => {
                let [(v, s)] = args.as_slice() else {
                    return Err(arity(name, 1, span));
                };
                match v {
                    Value::Int(k) => Ok(Value::Int(k.checked_abs().ok_or_else(|| {
                        Diag::new("cspi::arith::overflow", "integer overflow").label(*s, "here")
                    })?)),
                    v => Ok(Value::from_term(Term::Abs(Box::new(self.term(v, *s)?)))),
                }
            }
            "min" | "max" => {
                let terms = self.terms_of_args(&args, span)?;
                if terms.is_empty() {
                    return Err(Diag::new(
                        "cspi::arith::empty",
                        format!("{} of nothing", name.name),
                    )
                    .label(span, "no values"));
                }
                let consts: Option<Vec<i64>> = terms.iter().map(Term::as_const).collect();
                Ok(match (consts, name.name.as_str()) {
                    (Some(ks), "min") => Value::Int(ks.into_iter().min().unwrap_or(0)),
                    (Some(ks), _) => Value::Int(ks.into_iter().max().unwrap_or(0)),
                    (None, "min") => Value::Term(Rc::new(Term::Min(terms))),
                    (None, _) => Value::Term(Rc::new(Term::Max(terms))),
                })
            }
            "sum" => {
                let terms = self.terms_of_args(&args, span)?;
                Ok(self.untyped(Value::from_term(
                    self.linear(terms.into_iter().map(|t| (1, t)).collect(), 0),
                )))
            }
            "product" => {
                let terms = self.terms_of_args(&args, span)?;
                let mut acc = Value::Int(1);
                for t in terms {
                    acc = self.binary(
                        crate::syntax::ast::BinOp::Mul,
                        acc,
                        Value::from_term(t),
                        span,
                        span,
                    )?;
                }
                Ok(acc)
            }
            "count" => {
                // count(list): how many are true; count(list, v): how many equal v.
                match args.as_slice() {
                    [list] => {
                        let items = self.flatten(&list.0, list.1)?;
                        let mut parts = Vec::new();
                        for it in items {
                            if !it.is_formula() {
                                return Err(Diag::new(
                                    "cspi::type",
                                    "count(list) counts truth values",
                                )
                                .label(list.1, "here"));
                            }
                            parts.push(it.into_term().unwrap_or(Term::Const(0)));
                        }
                        Ok(Value::from_term(
                            self.linear(parts.into_iter().map(|t| (1, t)).collect(), 0),
                        ))
                    }
                    [list, (v, s)] => {
                        let target = self.term(v, *s)?;
                        let terms = self.terms_of(&list.0, list.1)?;
                        let parts = terms
                            .into_iter()
                            .map(|t| {
                                let f = match (&t, &target) {
                                    (Term::Const(a), Term::Const(b)) => Formula::Const(a == b),
                                    _ => Formula::Cmp(CmpOp::Eq, t, target.clone()),
                                };
                                (
                                    1,
                                    Value::from_formula(f).as_term().unwrap_or(Term::Const(0)),
                                )
                            })
                            .collect();
                        Ok(Value::from_term(self.linear(parts, 0)))
                    }
                    _ => Err(arity(name, 2, span)),
                }
            }
            "ord" => match args.as_slice() {
                [(Value::Enum(_, k), _)] => Ok(Value::Int(*k)),
                [(v @ Value::Term(t), s)] if v.enum_type(&self.model).is_some() => {
                    let _ = s;
                    // A sum of one term: the same values, no longer typed by the enum.
                    Ok(Value::Term(Rc::new(Term::Linear(
                        vec![(1, (**t).clone())],
                        0,
                    ))))
                }
                [(v, s)] => Err(Diag::new(
                    "cspi::type",
                    format!("ord(x) takes an enum value, not {}", v.type_name()),
                )
                .label(*s, "here")),
                _ => Err(arity(name, 1, span)),
            },
            "length" | "card" => {
                let [(v, s)] = args.as_slice() else {
                    return Err(arity(name, 1, span));
                };
                Ok(Value::Int(match v {
                    Value::Str(x) => x.chars().count() as i64,
                    Value::Array(a) => a.items.len() as i64,
                    Value::Set(set) | Value::EnumSet(_, set) => set.len() as i64,
                    Value::Record(r) => r.fields.len() as i64,
                    Value::Tuple(t) => t.len() as i64,
                    Value::Table(t) => t.len() as i64,
                    Value::Mdd(m) => m.rows as i64,
                    other => {
                        return Err(Diag::new(
                            "cspi::type",
                            format!("length of {}?", other.type_name()),
                        )
                        .label(*s, "here"));
                    }
                }))
            }
            "grid" => self.grid_builtin(&args, span),
            "table" => self.table_builtin(&args, true, span),
            "forbidden" => self.table_builtin(&args, false, span),
            "read_table" => self.read_table_builtin(&args, span),
            "read_ints" => self.read_ints_builtin(&args, span),
            "digits" => self.digits_builtin(&args, span),
            // assert(condition, message): a check of the data at load time.
            "assert" => match args.as_slice() {
                [(Value::Bool(true), _), (Value::Str(_), _)] => Ok(Value::Bool(true)),
                [(Value::Bool(false), cspan), (Value::Str(msg), _)] => {
                    Err(Diag::new("cspi::assert", msg.to_string())
                        .label(*cspan, "this does not hold"))
                }
                [(_, cspan), (Value::Str(_), _)] => Err(Diag::new(
                    "cspi::assert",
                    "assert(condition, message) needs a condition known at load time",
                )
                .label(*cspan, "this depends on variables")),
                _ => Err(Diag::new(
                    "cspi::call",
                    "assert(condition, message) takes a truth value and a string",
                )
                .label(span, "here")),
            },
            "dictionary" => self.dictionary_builtin(&args, span),
            "words" => self.words_builtin(&args, span),
            "score" => self.score_builtin(&args, span),
            "max_shared_substring" if args.len() == 2 => self.max_shared_substring_builtin(&args, span),
            "read" => {
                let [(Value::Str(path), s)] = args.as_slice() else {
                    return Err(
                        Diag::new("cspi::call", "read(path) takes one string").label(span, "here")
                    );
                };
                let text = self.read_file(path, *s)?;
                Ok(Value::Str(Rc::from(&*text.text)))
            }
            other => {
                if let Some(g) = crate::model::globals::find(other, args.len()) {
                    return self.global_call(g, &args, span);
                }
                if let Some(d) = self.used_before_declaration(other, name.span) {
                    return Err(d);
                }
                let d = Diag::new(
                    "cspi::name::function",
                    format!("unknown function `{}`", name.name),
                )
                .label(name.span, "not a built-in function");
                let names = BUILTINS
                    .iter()
                    .copied()
                    .chain(super::strings::STRING_BUILTINS.iter().copied())
                    .chain(["sqrt", "floor", "ceil", "round"])
                    .chain(crate::model::globals::names());
                Err(match did_you_mean(&name.name, names) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help("see docs/language.md for the built-in functions"),
                })
            }
        }
    }

    /// `alldifferent` over word variables: their values are indices into
    /// per-length word lists, so it is posted once per list (words of
    /// different lengths differ anyway). `None` when no word variable is involved.
    fn word_alldifferent(&self, terms: &[Term], span: Span) -> Result<Option<Formula>, Diag> {
        let list_of = |t: &Term| match t {
            Term::Var(v) => match &self.model.vars[*v].kind {
                VarKind::Word(l) => Some((*v, l.clone())),
                _ => None,
            },
            _ => None,
        };
        let words: Vec<_> = terms.iter().filter_map(list_of).collect();
        if words.is_empty() {
            return Ok(None);
        }
        if words.len() != terms.len() {
            return Err(Diag::new(
                "cspi::type",
                "alldifferent over words takes word variables only",
            )
            .label(span, "this mixes words with numbers or expressions"));
        }
        let mut groups: Vec<(Arc<WordList>, Vec<Term>)> = Vec::new();
        for (v, list) in words {
            match groups.iter_mut().find(|(l, _)| Arc::ptr_eq(l, &list)) {
                Some((_, g)) => g.push(Term::Var(v)),
                None => {
                    let len = list.words.first().map(|w| letter_count(w));
                    if groups
                        .iter()
                        .any(|(l, _)| l.words.first().map(|w| letter_count(w)) == len)
                    {
                        return Err(Diag::new(
                            "cspi::type",
                            "alldifferent compares words of one dictionary only",
                        )
                        .label(
                            span,
                            "these words of one length come from different word sets",
                        )
                        .help("take every word variable's set from the same dictionary"));
                    }
                    groups.push((list, vec![Term::Var(v)]));
                }
            }
        }
        let parts: Vec<Formula> = groups
            .into_iter()
            .filter(|(_, g)| g.len() >= 2)
            .map(|(_, g)| Formula::AllDifferent(g))
            .collect();
        Ok(Some(match parts.len() {
            0 => Formula::Const(true),
            1 => parts.into_iter().next().unwrap_or(Formula::Const(true)),
            _ => Formula::And(parts),
        }))
    }

    fn term(&self, v: &Value, span: Span) -> Result<Term, Diag> {
        v.as_term().ok_or_else(|| {
            Diag::new(
                "cspi::type",
                format!("expected an integer expression, found {}", v.type_name()),
            )
            .label(span, "here")
        })
    }

    /// The items of arrays (nested arrays flattened), or the value itself.
    pub(super) fn flatten(&self, v: &Value, _span: Span) -> Result<Vec<Value>, Diag> {
        fn walk(v: &Value, out: &mut Vec<Value>) {
            match v {
                Value::Array(a) => a.items.iter().for_each(|x| walk(x, out)),
                other => out.push(other.clone()),
            }
        }
        let mut out = Vec::new();
        walk(v, &mut out);
        Ok(out)
    }

    pub(super) fn terms_of(&self, v: &Value, span: Span) -> Result<Vec<Term>, Diag> {
        match v {
            Value::Set(s) if s.len() <= super::MAX_DOMAIN => {
                Ok(s.iter().map(Term::Const).collect())
            }
            _ => self
                .flatten(v, span)?
                .iter()
                .map(|x| self.term(x, span))
                .collect(),
        }
    }

    /// Arguments as one list of terms: `f(a, b, c)` or `f([a, b, c])` or `f(array)`.
    fn terms_of_args(&self, args: &[(Value, Span)], _span: Span) -> Result<Vec<Term>, Diag> {
        let mut out = Vec::new();
        for (v, s) in args {
            out.extend(self.terms_of(v, *s)?);
        }
        Ok(out)
    }
}

/// Whether a value is, or an array holds, a value whose definition failed.
fn has_poison(v: &Value) -> bool {
    match v {
        Value::Poison => true,
        Value::Array(a) => a.items.iter().any(has_poison),
        _ => false,
    }
}

/// `alldifferent`, with the constant members checked at once.
fn alldifferent(terms: Vec<Term>) -> Formula {
    let mut consts: Vec<i64> = terms.iter().filter_map(Term::as_const).collect();
    let known = consts.len() == terms.len();
    consts.sort_unstable();
    if consts.windows(2).any(|w| w[0] == w[1]) {
        return Formula::Const(false);
    }
    if known {
        return Formula::Const(true);
    }
    Formula::AllDifferent(terms)
}

fn arity(name: &Ident, n: usize, span: Span) -> Diag {
    Diag::new(
        "cspi::call",
        format!(
            "`{}` takes {n} argument{}",
            name.name,
            if n == 1 { "" } else { "s" }
        ),
    )
    .label(span, "here")
    .help("see docs/language.md for the built-in functions and their arguments")
}
