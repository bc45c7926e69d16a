//! Built-in functions, as one table ([`BUILTINS`]: each name with the
//! checker's function for a call with evaluated arguments), and the common
//! ones: constraints (`alldifferent`), arithmetic (`abs`, `min`, `max`,
//! `sum`, `product`, `count`), `length`, `ord`, `assert` and `read`. The
//! others live with their subject (`text.rs`, `strings.rs`, `sets.rs`,
//! `tables.rs`, `dict.rs`, `data.rs`, `trie.rs`); `floor`, `ceil` and
//! `round` read their argument unevaluated (`rounding.rs`), and global
//! constraints come from their own registry (`model::globals`).

use super::Checker;
use super::value::Value;
use crate::diag::{Diag, did_you_mean};
use crate::formats::dictionary::letter_count;
use crate::model::{CmpOp, Formula, Term, VarKind, WordList};
use crate::syntax::ast::{Ident, Span};
use std::rc::Rc;
use std::sync::Arc;

/// The checker's function of a built-in: the call's name, its evaluated
/// arguments with their spans, and the call's span. Each checks its own
/// arguments, with a message of its own.
type Check = fn(&mut Checker<'_>, &Ident, &[(Value, Span)], Span) -> Result<Value, Diag>;

/// A built-in function.
pub(super) struct Builtin {
    pub name: &'static str,
    pub check: Check,
}

const fn builtin(name: &'static str, check: Check) -> Builtin {
    Builtin { name, check }
}

/// Every built-in function, in the order "did you mean" lists them.
pub(super) const BUILTINS: &[Builtin] = &[
    builtin("alldifferent", |cx, _, a, s| cx.alldifferent_call(a, s)),
    builtin("all_different", |cx, _, a, s| cx.alldifferent_call(a, s)),
    builtin("abs", |cx, n, a, s| cx.abs_call(n, a, s)),
    builtin("min", |cx, n, a, s| cx.min_max_call(n, a, s)),
    builtin("max", |cx, n, a, s| cx.min_max_call(n, a, s)),
    builtin("sum", |cx, _, a, s| cx.sum_call(a, s)),
    builtin("product", |cx, _, a, s| cx.product_call(a, s)),
    builtin("count", |cx, n, a, s| cx.count_call(n, a, s)),
    builtin("length", |cx, n, a, s| cx.length_call(n, a, s)),
    builtin("grid", |cx, _, a, s| cx.grid_builtin(a, s)),
    builtin("read", |cx, _, a, s| cx.read_call(a, s)),
    builtin("read_table", |cx, _, a, s| cx.read_table_builtin(a, s)),
    builtin("read_ints", |cx, _, a, s| cx.read_ints_builtin(a, s)),
    builtin("table", |cx, _, a, s| cx.table_builtin(a, true, s)),
    builtin("forbidden", |cx, _, a, s| cx.table_builtin(a, false, s)),
    builtin("digits", |cx, _, a, s| cx.digits_builtin(a, s)),
    builtin("assert", |_, _, a, s| assert_call(a, s)),
    builtin("split", text),
    builtin("int", text),
    builtin("upper", text),
    builtin("tokens", text),
    builtin("word_table", text),
    builtin("trie", text),
    builtin("columns", text),
    builtin("dictionary", |cx, _, a, s| cx.dictionary_builtin(a, s)),
    builtin("words", |cx, _, a, s| cx.words_builtin(a, s)),
    builtin("score", |cx, _, a, s| cx.score_builtin(a, s)),
    builtin("max_shared_substring", |cx, _, a, s| {
        cx.max_shared_substring_builtin(a, s)
    }),
    builtin("ord", |cx, n, a, s| cx.ord_call(n, a, s)),
    builtin("card", |cx, n, a, s| cx.length_call(n, a, s)),
    builtin("lines", text),
    builtin("starts_with", text),
    builtin("ends_with", text),
    builtin("all_disjoint", sets),
    builtin("disjoint", sets),
    builtin("partition_set", sets),
    builtin("join", strings),
    builtin("concat", strings),
    builtin("show", strings),
    builtin("show_int", strings),
    builtin("format", strings),
    builtin("fix", strings),
    builtin("follow", strings),
    // ⌊√x⌋ of a constant (`round(sqrt(x))` in `rounding.rs`).
    builtin("sqrt", |cx, name, args, span| match args {
        // A user function `sqrt` takes the name (its calls do not come here).
        _ if cx.functions.contains_key("sqrt") => cx.unknown_function(name),
        [(v, s)] => cx.sqrt_of(v.clone(), super::rounding::Rounding::Floor, *s),
        _ => Err(super::rounding::sqrt_arity(span)),
    }),
];

/// The names a user function may take, replacing the built-in: they came
/// after models that define functions of these names.
const REDEFINABLE: &[&str] = &["sqrt", "floor", "ceil", "round"];

/// The names of output forms and crossword items, which no function may take.
const RESERVED: &[&str] = &["spell", "total", "quality", "slots", "picture"];

fn text(
    cx: &mut Checker<'_>,
    name: &Ident,
    args: &[(Value, Span)],
    span: Span,
) -> Result<Value, Diag> {
    cx.text_builtin(&name.name, args, span)
}

fn strings(
    cx: &mut Checker<'_>,
    name: &Ident,
    args: &[(Value, Span)],
    span: Span,
) -> Result<Value, Diag> {
    cx.string_call(&name.name, args, span)
}

fn sets(
    cx: &mut Checker<'_>,
    name: &Ident,
    args: &[(Value, Span)],
    span: Span,
) -> Result<Value, Diag> {
    cx.set_builtin(&name.name, args, span)
}

/// A name that reached a subject's built-ins without being one of them (a
/// table entry that names the wrong function): unknown, never a panic.
pub(super) fn not_in_table(name: &str, span: Span) -> Diag {
    Diag::new("cspi::name::function", format!("unknown function `{name}`"))
        .label(span, "not a built-in function")
}

/// The built-in of this name.
fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// Whether `name` is a built-in function (or an output form), which a
/// user function may not redefine. (`sqrt`, `floor`, `ceil` and `round`
/// came later: a user function of one of those names takes its place.)
pub(super) fn is_builtin(name: &str) -> bool {
    (find(name).is_some() && !REDEFINABLE.contains(&name)) || RESERVED.contains(&name)
}

impl Checker<'_> {
    /// A call of a built-in function or a global constraint, its arguments
    /// evaluated.
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
        if let Some(b) = find(&name.name) {
            return (b.check)(self, name, &args, span);
        }
        if let Some(g) = crate::model::globals::find(&name.name, args.len()) {
            return self.global_call(g, &args, span);
        }
        self.unknown_function(name)
    }

    /// The error for a name that is no function: declared later, or a
    /// misspelling.
    fn unknown_function(&self, name: &Ident) -> Result<Value, Diag> {
        if let Some(d) = self.used_before_declaration(&name.name, name.span) {
            return Err(d);
        }
        let d = Diag::new(
            "cspi::name::function",
            format!("unknown function `{}`", name.name),
        )
        .label(name.span, "not a built-in function");
        let names = BUILTINS
            .iter()
            .map(|b| b.name)
            .chain(["floor", "ceil", "round"])
            .chain(crate::model::globals::names());
        Err(match did_you_mean(&name.name, names) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help("see docs/language.md for the built-in functions"),
        })
    }

    fn alldifferent_call(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let terms = self.terms_of_args(args, span)?;
        if let Some(f) = self.word_alldifferent(&terms, span)? {
            return Ok(Value::from_formula(f));
        }
        Ok(Value::from_formula(if terms.len() < 2 {
            Formula::Const(true)
        } else {
            alldifferent(terms)
        }))
    }

    fn abs_call(
        &mut self,
        name: &Ident,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let [(v, s)] = args else {
            return Err(arity(name, 1, span));
        };
        match v {
            Value::Int(k) => Ok(Value::Int(k.checked_abs().ok_or_else(|| {
                Diag::new("cspi::arith::overflow", "integer overflow").label(*s, "here")
            })?)),
            v => Ok(Value::from_term(Term::Abs(Box::new(self.term(v, *s)?)))),
        }
    }

    fn min_max_call(
        &mut self,
        name: &Ident,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let terms = self.terms_of_args(args, span)?;
        if terms.is_empty() {
            return Err(
                Diag::new("cspi::arith::empty", format!("{} of nothing", name.name))
                    .label(span, "no values"),
            );
        }
        let consts: Option<Vec<i64>> = terms.iter().map(Term::as_const).collect();
        Ok(match (consts, name.name.as_str()) {
            (Some(ks), "min") => Value::Int(ks.into_iter().min().unwrap_or(0)),
            (Some(ks), _) => Value::Int(ks.into_iter().max().unwrap_or(0)),
            (None, "min") => Value::Term(Rc::new(Term::Min(terms))),
            (None, _) => Value::Term(Rc::new(Term::Max(terms))),
        })
    }

    fn sum_call(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let terms = self.terms_of_args(args, span)?;
        Ok(self.untyped(Value::from_term(
            self.linear(terms.into_iter().map(|t| (1, t)).collect(), 0),
        )))
    }

    fn product_call(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let terms = self.terms_of_args(args, span)?;
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

    /// `count(list)`: how many are true; `count(list, v)`: how many equal v.
    fn count_call(
        &mut self,
        name: &Ident,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        match args {
            [list] => {
                let items = self.flatten(&list.0, list.1)?;
                let mut parts = Vec::new();
                for it in items {
                    if !it.is_formula() {
                        return Err(Diag::new("cspi::type", "count(list) counts truth values")
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

    fn ord_call(
        &mut self,
        name: &Ident,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        match args {
            [(Value::Enum(_, k), _)] => Ok(Value::Int(*k)),
            [(v @ Value::Term(t), _)] if v.enum_type(&self.model).is_some() => {
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
        }
    }

    /// `length(x)` or `card(x)`: the size of a value; of a set variable, a
    /// sum (`sets.rs`).
    fn length_call(
        &mut self,
        name: &Ident,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let [(v, s)] = args else {
            return Err(arity(name, 1, span));
        };
        Ok(Value::Int(match v {
            Value::SetVar(set) => return Ok(self.card_of(set)),
            Value::Str(x) => x.chars().count() as i64,
            Value::Array(a) => a.items.len() as i64,
            Value::Set(set) | Value::EnumSet(_, set) => set.len() as i64,
            Value::Record(r) => r.fields.len() as i64,
            Value::Tuple(t) => t.len() as i64,
            Value::Table(t) => t.len() as i64,
            Value::Mdd(m) => m.rows as i64,
            other => {
                return Err(
                    Diag::new("cspi::type", format!("length of {}?", other.type_name()))
                        .label(*s, "here"),
                );
            }
        }))
    }

    /// `read(path)`: the text of a file.
    fn read_call(&mut self, args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
        let [(Value::Str(path), s)] = args else {
            return Err(Diag::new("cspi::call", "read(path) takes one string").label(span, "here"));
        };
        let text = self.read_file(path, *s)?;
        Ok(Value::Str(Rc::from(&*text.text)))
    }
}

/// `assert(condition, message)`: a check of the data at load time.
fn assert_call(args: &[(Value, Span)], span: Span) -> Result<Value, Diag> {
    match args {
        [(Value::Bool(true), _), (Value::Str(_), _)] => Ok(Value::Bool(true)),
        [(Value::Bool(false), cspan), (Value::Str(msg), _)] => {
            Err(Diag::new("cspi::assert", msg.to_string()).label(*cspan, "this does not hold"))
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
    }
}

impl Checker<'_> {
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

    pub(super) fn term(&self, v: &Value, span: Span) -> Result<Term, Diag> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_once_and_documented() {
        let docs: String = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/docs"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
            .collect();
        for (i, b) in BUILTINS.iter().enumerate() {
            assert!(
                BUILTINS[..i].iter().all(|o| o.name != b.name),
                "{} twice",
                b.name
            );
            // `all_different` is `alldifferent` as MiniZinc spells it.
            assert!(
                b.name == "all_different" || docs.contains(&format!("{}(", b.name)),
                "{} is not in docs/",
                b.name
            );
        }
        assert!(is_builtin("sum") && is_builtin("card") && is_builtin("join"));
        assert!(is_builtin("spell") && !is_builtin("sqrt") && !is_builtin("round"));
        assert!(!is_builtin("circuit"), "a global, not a built-in");
    }
}
