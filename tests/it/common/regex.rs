//! An oracle for `regular(x, "regex")`, sharing nothing with cspi's
//! compiler (`model/regex.rs`): random small expressions as trees, printed
//! in the syntax of docs/globals.md, and a backtracking matcher on the trees.

/// A regular expression over integers.
#[derive(Clone, Debug)]
pub(crate) enum Re {
    Sym(i64),
    /// `.`
    Any,
    /// `[...]` or `[^...]`: inclusive ranges, and whether negated.
    Class(Vec<(i64, i64)>, bool),
    Cat(Vec<Re>),
    Alt(Vec<Re>),
    /// `r{min,max}`, `max` `None` for no bound.
    Rep(Box<Re>, u32, Option<u32>),
}

impl Re {
    /// A random expression over `symbols`, nested at most `depth` deep;
    /// `int(lo, hi)` draws from `lo..=hi`.
    pub(crate) fn random(int: &mut impl FnMut(i64, i64) -> i64, symbols: &[i64], depth: u32) -> Re {
        let sym = |int: &mut dyn FnMut(i64, i64) -> i64| {
            symbols[int(0, symbols.len() as i64 - 1) as usize]
        };
        let leaf = depth == 0 || int(0, 2) == 0;
        if leaf {
            return match int(0, 9) {
                0 => Re::Any,
                1..=3 => {
                    let items = (0..int(1, 2))
                        .map(|_| {
                            let (a, b) = (sym(int), sym(int));
                            if int(0, 1) == 0 {
                                (a, a)
                            } else {
                                (a.min(b), a.max(b))
                            }
                        })
                        .collect();
                    Re::Class(items, int(0, 3) == 0)
                }
                _ => Re::Sym(sym(int)),
            };
        }
        match int(0, 2) {
            0 => Re::Cat(
                (0..int(2, 3))
                    .map(|_| Re::random(int, symbols, depth - 1))
                    .collect(),
            ),
            1 => Re::Alt(
                (0..int(2, 3))
                    .map(|_| Re::random(int, symbols, depth - 1))
                    .collect(),
            ),
            _ => {
                let inner = Box::new(Re::random(int, symbols, depth - 1));
                let (min, max) = match int(0, 5) {
                    0 => (0, None),
                    1 => (1, None),
                    2 => (0, Some(1)),
                    3 => {
                        let n = int(0, 3) as u32;
                        (n, Some(n))
                    }
                    4 => (int(0, 2) as u32, None),
                    _ => {
                        let n = int(0, 2) as u32;
                        (n, Some(n + int(0, 2) as u32))
                    }
                };
                Re::Rep(inner, min, max)
            }
        }
    }

    /// The expression in cspi's syntax.
    pub(crate) fn text(&self) -> String {
        match self {
            Re::Sym(v) => v.to_string(),
            Re::Any => ".".to_string(),
            Re::Class(items, negated) => {
                let items: Vec<String> = items
                    .iter()
                    .map(|&(a, b)| {
                        if a == b {
                            a.to_string()
                        } else {
                            format!("{a}-{b}")
                        }
                    })
                    .collect();
                format!("[{}{}]", if *negated { "^" } else { "" }, items.join(" "))
            }
            Re::Cat(items) => items
                .iter()
                .map(|r| match r {
                    Re::Alt(_) => format!("({})", r.text()),
                    _ => r.text(),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Re::Alt(items) => items.iter().map(Re::text).collect::<Vec<_>>().join("|"),
            Re::Rep(inner, min, max) => {
                let body = match **inner {
                    Re::Cat(_) | Re::Alt(_) => format!("({})", inner.text()),
                    _ => inner.text(),
                };
                let op = match (min, max) {
                    (0, None) => "*".to_string(),
                    (1, None) => "+".to_string(),
                    (0, Some(1)) => "?".to_string(),
                    (n, None) => format!("{{{n},}}"),
                    (n, Some(m)) if n == m => format!("{{{n}}}"),
                    (n, Some(m)) => format!("{{{n},{m}}}"),
                };
                format!("{body}{op}")
            }
        }
    }

    /// Whether the expression matches the whole of `word`.
    pub(crate) fn matches(&self, word: &[i64]) -> bool {
        self.at(word, 0, &mut |end| end == word.len())
    }

    /// Matches from `i`, calling `then` with each place a match may end
    /// until it returns true (backtracking by continuations).
    fn at(&self, w: &[i64], i: usize, then: &mut dyn FnMut(usize) -> bool) -> bool {
        match self {
            Re::Sym(v) => w.get(i) == Some(v) && then(i + 1),
            Re::Any => i < w.len() && then(i + 1),
            Re::Class(items, negated) => {
                i < w.len()
                    && items.iter().any(|&(a, b)| (a..=b).contains(&w[i])) != *negated
                    && then(i + 1)
            }
            Re::Cat(items) => cat(items, w, i, then),
            Re::Alt(items) => items.iter().any(|r| r.at(w, i, then)),
            Re::Rep(inner, min, max) => rep(inner, *min, *max, 0, w, i, then),
        }
    }
}

fn cat(items: &[Re], w: &[i64], i: usize, then: &mut dyn FnMut(usize) -> bool) -> bool {
    match items.split_first() {
        None => then(i),
        Some((first, rest)) => first.at(w, i, &mut |j| cat(rest, w, j, then)),
    }
}

/// `done` copies matched so far; a copy past the minimum must consume
/// something, so that `(1?)*` terminates.
fn rep(
    inner: &Re,
    min: u32,
    max: Option<u32>,
    done: u32,
    w: &[i64],
    i: usize,
    then: &mut dyn FnMut(usize) -> bool,
) -> bool {
    if max.is_none_or(|m| done < m)
        && inner.at(w, i, &mut |j| {
            (j > i || done < min) && rep(inner, min, max, done + 1, w, j, then)
        })
    {
        return true;
    }
    done >= min && then(i)
}

/// Every word of length `0..=max_len` over `alphabet`.
pub(crate) fn words(alphabet: &[i64], max_len: usize) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..max_len {
        last = last
            .iter()
            .flat_map(|w: &Vec<i64>| {
                alphabet.iter().map(move |&a| {
                    let mut w = w.clone();
                    w.push(a);
                    w
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}
