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
    /// How many arguments it takes: the fewest and the most. A call with
    /// another number is refused here, from the table, before its function
    /// runs; the function checks what the arguments are.
    pub arity: (usize, usize),
    /// How it is called, as docs/language.md writes it: the help of a call
    /// with the wrong number of arguments.
    pub forms: &'static str,
    pub check: Check,
}

/// Any number of arguments (`sum(a, b, c)`, or one array).
const ANY: (usize, usize) = (0, usize::MAX);

const fn builtin(
    name: &'static str,
    arity: (usize, usize),
    forms: &'static str,
    check: Check,
) -> Builtin {
    Builtin {
        name,
        arity,
        forms,
        check,
    }
}

/// Every built-in function, in the order "did you mean" lists them.
pub(super) const BUILTINS: &[Builtin] = &[
    builtin("alldifferent", ANY, "alldifferent(x)", |cx, _, a, s| {
        cx.alldifferent_call(a, s)
    }),
    builtin("all_different", ANY, "all_different(x)", |cx, _, a, s| {
        cx.alldifferent_call(a, s)
    }),
    builtin("abs", (1, 1), "abs(x)", |cx, n, a, s| cx.abs_call(n, a, s)),
    builtin("min", ANY, "min(x) or min(a, b, ...)", |cx, n, a, s| {
        cx.min_max_call(n, a, s)
    }),
    builtin("max", ANY, "max(x) or max(a, b, ...)", |cx, n, a, s| {
        cx.min_max_call(n, a, s)
    }),
    builtin("sum", ANY, "sum(x)", |cx, _, a, s| cx.sum_call(a, s)),
    builtin("product", ANY, "product(x)", |cx, _, a, s| {
        cx.product_call(a, s)
    }),
    builtin(
        "count",
        (1, 2),
        "count(list) or count(list, value)",
        |cx, n, a, s| cx.count_call(n, a, s),
    ),
    builtin("length", (1, 1), "length(x)", |cx, n, a, s| {
        cx.length_call(n, a, s)
    }),
    builtin(
        "grid",
        (2, 3),
        "grid(text, N) or grid(text, N, symbols)",
        |cx, _, a, s| cx.grid_builtin(a, s),
    ),
    builtin("read", (1, 1), "read(path)", |cx, _, a, s| {
        cx.read_call(a, s)
    }),
    builtin(
        "read_table",
        (1, 2),
        "read_table(path) or read_table(path, \"header\")",
        |cx, _, a, s| cx.read_table_builtin(a, s),
    ),
    builtin("read_ints", (1, 1), "read_ints(path)", |cx, _, a, s| {
        cx.read_ints_builtin(a, s)
    }),
    builtin("table", (2, 2), "table(variables, rows)", |cx, _, a, s| {
        cx.table_builtin(a, true, s)
    }),
    builtin(
        "forbidden",
        (2, 2),
        "forbidden(variables, rows)",
        |cx, _, a, s| cx.table_builtin(a, false, s),
    ),
    builtin("digits", (1, 1), "digits(text)", |cx, _, a, s| {
        cx.digits_builtin(a, s)
    }),
    builtin(
        "assert",
        (2, 2),
        "assert(condition, message)",
        |_, _, a, s| assert_call(a, s),
    ),
    builtin("split", (1, 1), "split(text)", text),
    builtin("int", (1, 1), "int(text)", text),
    builtin("upper", (1, 1), "upper(text)", text),
    builtin("tokens", (2, 2), "tokens(text, symbols)", text),
    builtin(
        "word_table",
        (3, 3),
        "word_table(words, symbols, max)",
        text,
    ),
    builtin("trie", (3, 3), "trie(words, symbols, max)", text),
    builtin("columns", (1, 1), "columns(table)", text),
    builtin(
        "dictionary",
        (1, 3),
        "dictionary(path), dictionary(path, min_score) or dictionary(path, min_score, exclude)",
        |cx, _, a, s| cx.dictionary_builtin(a, s),
    ),
    builtin("words", (2, 2), "words(dict, n)", |cx, _, a, s| {
        cx.words_builtin(a, s)
    }),
    builtin("score", (1, 1), "score(w)", |cx, _, a, s| {
        cx.score_builtin(a, s)
    }),
    builtin(
        "max_shared_substring",
        (2, 3),
        "max_shared_substring(words, k) or max_shared_substring(k, lengths, letters)",
        |cx, _, a, s| cx.max_shared_substring_builtin(a, s),
    ),
    builtin("ord", (1, 1), "ord(x)", |cx, n, a, s| cx.ord_call(n, a, s)),
    builtin("card", (1, 1), "card(s)", |cx, n, a, s| {
        cx.length_call(n, a, s)
    }),
    builtin("lines", (1, 1), "lines(text)", text),
    builtin("starts_with", (2, 2), "starts_with(text, part)", text),
    builtin("ends_with", (2, 2), "ends_with(text, part)", text),
    builtin("all_disjoint", (1, 1), "all_disjoint(S)", sets),
    builtin("disjoint", (2, 2), "disjoint(a, b)", sets),
    builtin("partition_set", (2, 2), "partition_set(S, universe)", sets),
    builtin("join", (2, 2), "join(separator, list of strings)", strings),
    builtin("concat", (1, 1), "concat(list of strings)", strings),
    builtin("show", (1, 1), "show(value)", strings),
    builtin("show_int", (2, 2), "show_int(width, integer)", strings),
    builtin("format", (2, 2), "format(width, value)", strings),
    builtin("fix", (1, 1), "fix(x)", strings),
    builtin("follow", (2, 2), "follow(next, start)", strings),
    // ⌊√x⌋ of a constant (`round(sqrt(x))` in `rounding.rs`).
    builtin(
        "sqrt",
        (1, 1),
        "sqrt(x)",
        |cx, name, args, span| match args {
            // A user function `sqrt` takes the name (its calls do not come here).
            _ if cx.functions.contains_key("sqrt") => cx.unknown_function(name),
            [(v, s)] => cx.sqrt_of(v.clone(), super::rounding::Rounding::Floor, *s),
            _ => Err(wrong_count("sqrt", args.len(), span)),
        },
    ),
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
            let (fewest, most) = b.arity;
            if !(fewest..=most).contains(&args.len()) && !self.functions.contains_key(b.name) {
                return Err(wrong_count(b.name, args.len(), span));
            }
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
            return Err(wrong_count(&name.name, args.len(), span));
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
            _ => Err(wrong_count(&name.name, args.len(), span)),
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
            _ => Err(wrong_count(&name.name, args.len(), span)),
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
            return Err(wrong_count(&name.name, args.len(), span));
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

/// A call of the built-in `name` with `given` arguments, which its entry
/// in [`BUILTINS`] does not allow: how many it takes, and its forms.
pub(super) fn wrong_count(name: &str, given: usize, span: Span) -> Diag {
    let Some(b) = find(name) else {
        return not_in_table(name, span);
    };
    let takes = match b.arity {
        (n, m) if n == m => crate::diag::plural(n as u64, "argument", "arguments"),
        (n, usize::MAX) => format!("{n} or more arguments"),
        (n, m) if m == n + 1 => format!("{n} or {m} arguments"),
        (n, m) => format!("{n} to {m} arguments"),
    };
    Diag::new("cspi::call", format!("`{name}` takes {takes}, not {given}"))
        .label(span, "here")
        .help(format!(
            "{}; see docs/language.md for the built-in functions",
            b.forms
        ))
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
            // Each form the table writes takes a number of arguments the
            // table allows, and the forms show the fewest and the most.
            let (fewest, most) = b.arity;
            let mut counts = Vec::new();
            let open = format!("{}(", b.name);
            for (at, _) in b.forms.match_indices(&open) {
                let inner = &b.forms[at + open.len()..];
                let inner = &inner[..inner.find(')').unwrap()];
                counts.push(if inner.contains("...") {
                    usize::MAX
                } else {
                    inner.split(", ").count()
                });
            }
            assert!(!counts.is_empty(), "{}: no form", b.name);
            for &n in &counts {
                assert!(
                    n == usize::MAX || (fewest..=most).contains(&n),
                    "{}: {n} arguments",
                    b.name
                );
            }
            if b.arity != ANY {
                assert!(
                    counts.contains(&fewest) && counts.contains(&most),
                    "{}",
                    b.name
                );
            }
            assert!(fewest <= most, "{}", b.name);
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

    #[test]
    fn a_wrong_number_of_arguments_is_refused_from_the_table() {
        let at = Span::new(0, 1);
        let d = wrong_count("abs", 2, at);
        assert_eq!(d.message, "`abs` takes 1 argument, not 2");
        assert!(d.help.is_some_and(|h| h.starts_with("abs(x);")));
        assert_eq!(
            wrong_count("count", 3, at).message,
            "`count` takes 1 or 2 arguments, not 3"
        );
        assert_eq!(
            wrong_count("dictionary", 0, at).message,
            "`dictionary` takes 1 to 3 arguments, not 0"
        );
        assert_eq!(
            wrong_count("tokens", 1, at).message,
            "`tokens` takes 2 arguments, not 1"
        );
    }
}
