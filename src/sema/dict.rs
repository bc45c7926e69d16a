//! The dictionary built-ins: `dictionary(path [, min_score [, never]])`
//! (the file read by `formats::dictionary`), `words(dict, n)` and `score(w)`.

use super::Checker;
use super::value::Value;
use crate::diag::Diag;
use crate::formats::dictionary::{
    Dictionary, layered, letter_count, parse_dictionary, parse_keeping,
};
use crate::model::{Formula, GlobalArg, GlobalCall, Term, VarKind};
use crate::syntax::ast::Span;
use std::rc::Rc;

impl Checker<'_> {
    /// `dictionary(path [, min_score [, never]])`; `path` may be a list of
    /// paths, each list laid over the ones before it (`layered`).
    pub(super) fn dictionary_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = || {
            Diag::new(
                "cspi::call",
                "dictionary(path) takes the path of a word list, or a list of paths",
            )
            .label(span, "here")
            .help("an optional second argument is the minimum score, a third the path of a list of words never to use (\"\" for none): dictionary(path, 10, \"never.txt\"); with [path, mine], mine's scores override path's")
        };
        let (paths, pspan, min_score, exclude) = match args {
            [(p, s)] => (p, *s, None, None),
            [(p, s), (Value::Int(m), _)] => (p, *s, Some(*m), None),
            [(p, s), (Value::Int(m), _), (Value::Str(x), xs)] => {
                (p, *s, Some(*m), Some((x.clone(), *xs)))
            }
            _ => return Err(usage()),
        };
        let paths: Vec<&str> = match paths {
            Value::Str(p) => vec![p],
            // A list: its empty paths stand for no list (an unset parameter).
            Value::Array(a) if a.items.iter().all(|v| matches!(v, Value::Str(_))) => a
                .items
                .iter()
                .filter_map(|v| match v {
                    Value::Str(p) if !p.is_empty() => Some(&**p),
                    _ => None,
                })
                .collect(),
            _ => return Err(usage()),
        };
        let mut dict = match paths[..] {
            [] => {
                return Err(
                    Diag::new("cspi::call", "dictionary: every path in the list is empty")
                        .label(pspan, "no word list here")
                        .help("give the path of a word list: dictionary([\"words.txt\", mine])"),
                );
            }
            [path] => {
                let src = self.read_file(path, pspan)?;
                self.parse_paced(&src, |go_on| parse_dictionary(&src, min_score, go_on))?
            }
            _ => {
                // The lists laid over the first keep every word (a low
                // score there demotes the word); the first, often a large
                // published list, keeps below the minimum only the words
                // they name, which they may raise.
                let mut lists = Vec::with_capacity(paths.len());
                let mut named: Vec<String> = Vec::new();
                for (i, path) in paths.iter().enumerate().rev() {
                    let src = self.read_file(path, pspan)?;
                    let list = self.parse_paced(&src, |go_on| {
                        if i > 0 {
                            parse_dictionary(&src, None, go_on)
                        } else {
                            parse_keeping(&src, min_score, Some(&named), go_on)
                        }
                    })?;
                    if i > 0 {
                        named.extend(list.words.iter().cloned());
                        named.sort_unstable();
                        named.dedup();
                    }
                    lists.push(list);
                }
                lists.reverse();
                let dict = layered(lists, min_score);
                if dict.words.is_empty() {
                    return Err(Diag::new(
                        "cspi::data::dictionary",
                        format!("the dictionary `{}` holds no words", dict.name),
                    )
                    .label(pspan, "these word lists")
                    .help("no word reaches the minimum score"));
                }
                dict
            }
        };
        if let Some((x, xspan)) = exclude.filter(|(x, _)| !x.is_empty()) {
            let never_src = self.read_file(&x, xspan)?;
            let never = self.parse_paced(&never_src, |go_on| {
                parse_dictionary(&never_src, None, go_on)
            })?;
            dict.exclude(&never.words);
            if dict.words.is_empty() {
                return Err(Diag::new(
                    "cspi::data::dictionary",
                    format!(
                        "the dictionary `{}` holds no words once `{}` is left out",
                        dict.name, never.name
                    ),
                )
                .label(xspan, "this exclusion list")
                .help("an exclusion list names the words never to use"));
            }
        }
        Ok(Value::Dict(Rc::new(dict)))
    }

    /// `words(dict, n)`: the set of the dictionary's words of `n` letters.
    pub(super) fn words_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let [(Value::Dict(d), _), (Value::Int(n), nspan)] = args else {
            return Err(Diag::new(
                "cspi::call",
                "words(dict, n) takes a dictionary and a word length",
            )
            .label(span, "here")
            .help("load the dictionary first: let d = dictionary(\"words.txt\");"));
        };
        let list = usize::try_from(*n)
            .ok()
            .filter(|&n| n > 0)
            .map(|n| d.words_of_length(n));
        match list {
            Some(l) if !l.words.is_empty() => Ok(Value::Words(l)),
            _ => Err(no_words(d, *n, *nspan)),
        }
    }
}

impl Checker<'_> {
    /// `score(w)`: the score of word variable `w`'s word in its list (`maximize sum([score(xw[i]) | i in 1..length(xw)])`).
    pub(super) fn score_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = |why: &str| {
            Diag::new("cspi::call", format!("score(w) takes a word variable{why}"))
                .label(span, "here")
                .help("for example: maximize sum([score(xw[i]) | i in 1..length(xw)]);")
        };
        let [(Value::Term(t), _)] = args else {
            return Err(usage(""));
        };
        let Term::Var(v) = **t else {
            return Err(usage(""));
        };
        let VarKind::Word(list) = &self.model.vars[v].kind else {
            return Err(usage(", not an integer"));
        };
        if list.scores.len() != list.words.len() {
            return Err(usage(" over a dictionary with scores (`word;score` lines)"));
        }
        Ok(Value::Term(Rc::new(Term::Score(v))))
    }

    /// `max_shared_substring(xw, k)`: no two of the word variables `xw`
    /// share a substring of more than `k` letters; the global
    /// `max_shared_substring(k, lengths, letters)` over their letters (a
    /// call with three arguments is that global itself).
    pub(super) fn max_shared_substring_builtin(
        &mut self,
        args: &[(Value, Span)],
        span: Span,
    ) -> Result<Value, Diag> {
        let usage = |why: &str| {
            Diag::new(
                "cspi::call",
                format!("max_shared_substring(words, k) takes word variables and an integer{why}"),
            )
            .label(span, "here")
            .help("for example: constraint max_shared_substring(xw, 4);")
        };
        if args.len() == 3 {
            return self.global_call(&crate::model::globals::MaxSharedSubstring, args, span);
        }
        let [(words, ws), (k, ks)] = args else {
            return Err(usage(""));
        };
        let Value::Int(k) = *k else {
            return Err(
                usage(", known at load time").label(*ks, "not an integer known at load time")
            );
        };
        if k < 0 {
            return Err(usage(" of at least 0").label(*ks, "negative"));
        }
        let (mut lengths, mut letters) = (Vec::new(), Vec::new());
        for t in self.terms_of(words, *ws)? {
            let Term::Var(v) = t else {
                return Err(usage("").label(*ws, "not word variables"));
            };
            let VarKind::Word(list) = &self.model.vars[v].kind else {
                return Err(usage("").label(*ws, "not word variables"));
            };
            let n = list.words.first().map_or(0, |w| letter_count(w));
            lengths.push(Term::Const(n as i64));
            letters.extend((0..n).map(|i| Term::Letter(v, i)));
        }
        Ok(Value::from_formula(Formula::Global(GlobalCall {
            def: &crate::model::globals::MaxSharedSubstring,
            args: vec![
                GlobalArg::Term(Term::Const(k)),
                GlobalArg::Terms(lengths),
                GlobalArg::Terms(letters),
            ],
        })))
    }
}

/// The dictionary has no word of length `n`.
pub(crate) fn no_words(d: &Dictionary, n: i64, span: Span) -> Diag {
    Diag::new(
        super::NO_WORDS,
        format!("the dictionary `{}` has no word of length {n}", d.name),
    )
    .label(span, "this length")
    .help(format!("its words have lengths {}", lengths(d)))
}

/// The lengths of the dictionary's words, shortest first: `3, 4, 5`.
pub(crate) fn lengths(d: &Dictionary) -> String {
    let mut lengths: Vec<usize> = d.words.iter().map(|w| letter_count(w)).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let shown: Vec<String> = lengths.iter().map(usize::to_string).collect();
    shown.join(", ")
}
