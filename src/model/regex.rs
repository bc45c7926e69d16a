//! Regular expressions over integers, for `regular(x, "regex")` (MiniZinc's
//! `regular(array[int] of var int: x, string: r)`): compiled once, when the
//! model loads, into a [`Dfa`] over classes of values, which lowering
//! unrolls into the same layered graph as the transition-table form
//! (`model/dfa.rs`), so both forms share one propagator.
//!
//! Syntax (docs/globals.md): symbols are integers (`12`, `-3`), separated by
//! whitespace where they would run together; `.` is any value; `[1 3-5]` a
//! class of numbers and ranges (`[-3--1 2]`: a `-` is a sign when it is
//! attached to the number after it only), `[^1 2]` its complement; `( )`
//! groups; postfix `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`; concatenation;
//! and `|`, loosest of all.
//!
//! The textbook route (Aho, Sethi & Ullman, "Compilers", §3.7–3.9):
//! 1. a recursive-descent parse into a tree whose nodes know how many symbol
//!    positions they expand to, so a repeat that would blow up
//!    (`((1{1000}){1000}){1000}`) is refused before anything is built;
//! 2. the integers are cut into classes, the cells between the ends of the
//!    symbols and ranges written (`.` and `[^ ]` are then finite sets of
//!    classes, whatever the domains);
//! 3. Thompson's construction of an ε-NFA, a bounded repeat being copies
//!    (`r{1,3}` is `r(r(r)?)?`, nested so that ε-closures stay small);
//! 4. the subset construction, under caps on states and work, so that an
//!    exponential automaton is refused with a message rather than built;
//! 5. states that cannot reach acceptance are dropped, and the rest merged
//!    by Moore's partition refinement while that stays cheap (a DFA left
//!    unminimised is as correct, only larger).

use super::dfa::{Dfa, NONE};
use rustc_hash::FxHashMap;

/// The most symbol positions an expression may expand to.
pub const MAX_POSITIONS: u64 = 100_000;
/// The most values the layered graph of one `regular(x, r)` may list, over
/// all positions: the values of `x`'s domains that some transition reads
/// (every one of them for `.`).
pub const MAX_LISTED: u64 = 1 << 20;
/// The most states × listed values of that graph. The front end refuses
/// larger ones from the bounds of `x` (`sema/globals.rs`), so the
/// lowering's own checks on the domains are only a safety net.
pub const MAX_GRAPH: u64 = 100_000_000;
/// The most states of the automaton.
pub const MAX_STATES: usize = 100_000;
/// The most cells of the transition table (states × classes).
const MAX_TABLE: usize = 10_000_000;
/// The most elementary steps of the subset construction, under a second's work.
const MAX_WORK: u64 = 200_000_000;
/// The most steps minimisation may take before the DFA is kept as it is.
const MAX_MINIMISE_WORK: u64 = 20_000_000;

/// A compiled expression.
#[derive(Clone, PartialEq, Eq)]
pub struct Regex {
    /// The expression as written.
    pub text: String,
    /// The cuts between classes: `v` is in class `breaks.partition_point(|&b| b <= v)`.
    pub breaks: Vec<i64>,
    pub dfa: Dfa,
    /// For each class, whether some transition reads it (values of the
    /// other classes can never be part of a match).
    pub used: Vec<bool>,
}

impl std::fmt::Debug for Regex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Regex({:?}, {} states)", self.text, self.dfa.states())
    }
}

/// What is wrong with an expression, and where (a character offset, from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    pub at: Option<usize>,
    pub message: String,
}

impl Regex {
    pub fn compile(text: &str) -> Result<Regex, RegexError> {
        let chars: Vec<char> = text.chars().collect();
        let mut p = Parser {
            s: &chars,
            at: 0,
            depth: 0,
        };
        let tree = p.alternatives()?.node;
        if let Some(c) = p.peek() {
            // Only an unmatched `)` stops the top level early.
            return Err(p.error(p.at, format!("`{c}` without a matching `(`")));
        }
        let mut breaks = Vec::new();
        tree.cuts(&mut breaks);
        breaks.sort_unstable();
        breaks.dedup();
        let mut nfa = Nfa::default();
        let start = nfa.state();
        let accept = nfa.build(&tree, start, &breaks);
        let dfa = minimise(trim(determinise(&nfa, start, accept, breaks.len() + 1)?));
        let k = dfa.classes;
        let used = (0..k)
            .map(|c| (0..dfa.states()).any(|s| dfa.next[s * k + c] != NONE))
            .collect();
        Ok(Regex {
            text: text.to_string(),
            breaks,
            dfa,
            used,
        })
    }

    pub fn class(&self, v: i64) -> u32 {
        class_of(&self.breaks, v)
    }

    /// The values of class `c`, as an inclusive range.
    pub(crate) fn cell(&self, c: u32) -> (i64, i64) {
        let c = c as usize;
        let lo = if c == 0 { i64::MIN } else { self.breaks[c - 1] };
        let hi = self.breaks.get(c).map_or(i64::MAX, |b| b - 1);
        (lo, hi)
    }

    /// Whether the expression matches the whole of `word`.
    pub fn accepts(&self, word: &[i64]) -> bool {
        self.dfa.accepts(word.iter().map(|&v| self.class(v)))
    }

    /// How many values of `lo..=hi` some transition reads, saturating; the
    /// count stops as soon as it passes `cap`.
    pub(crate) fn listed(&self, lo: i64, hi: i64, cap: u64) -> u64 {
        let mut count = 0u64;
        for c in self.class(lo)..=self.class(hi) {
            if self.used[c as usize] {
                let (a, b) = self.cell(c);
                let (a, b) = (a.max(lo), b.min(hi));
                count = count.saturating_add(b.abs_diff(a).saturating_add(1));
                if count > cap {
                    break;
                }
            }
        }
        count
    }
}

fn class_of(breaks: &[i64], v: i64) -> u32 {
    breaks.partition_point(|&b| b <= v) as u32
}

/// The parsed expression.
enum Node {
    /// One value: in one of `ranges`, or when `negated` in none of them
    /// (`.` is the negation of no range).
    Set {
        ranges: Vec<(i64, i64)>,
        negated: bool,
    },
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        inner: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

impl Node {
    /// Adds the class boundaries of every set: each range `lo..=hi` starts a
    /// class at `lo` and another at `hi + 1`.
    fn cuts(&self, out: &mut Vec<i64>) {
        match self {
            Node::Set { ranges, .. } => {
                for &(lo, hi) in ranges {
                    // (No class lies below i64::MIN.)
                    if lo > i64::MIN {
                        out.push(lo);
                    }
                    if let Some(next) = hi.checked_add(1) {
                        out.push(next);
                    }
                }
            }
            Node::Concat(items) | Node::Alt(items) => items.iter().for_each(|n| n.cuts(out)),
            Node::Repeat { inner, .. } => inner.cuts(out),
        }
    }
}

/// A parsed part of the expression: its tree, the number of symbol
/// positions it expands to, and its height (nesting of groups and repeats).
struct Part {
    node: Node,
    size: u64,
    height: u32,
}

/// The deepest nesting of groups and repeats (the compiler recurses on it).
const MAX_HEIGHT: u32 = 200;

type Parsed = Result<Part, RegexError>;

/// Recursive descent over the characters.
struct Parser<'a> {
    s: &'a [char],
    at: usize,
    /// Open parentheses.
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, at: usize, message: impl Into<String>) -> RegexError {
        RegexError {
            at: Some(at),
            message: message.into(),
        }
    }

    /// The next character that is not whitespace (moving past the whitespace).
    fn peek(&mut self) -> Option<char> {
        while self.s.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
        self.s.get(self.at).copied()
    }

    /// Refuses a part that grew too large or too deep at `at`.
    fn check(&self, at: usize, size: u64, height: u32) -> Result<(), RegexError> {
        if size > MAX_POSITIONS {
            return Err(self.error(
                at,
                format!(
                    "the expression grows past {MAX_POSITIONS} symbol positions here, \
                     as a repeat copies what it repeats"
                ),
            ));
        }
        if height > MAX_HEIGHT {
            return Err(self.error(
                at,
                format!("groups and repeats nest more than {MAX_HEIGHT} deep here"),
            ));
        }
        Ok(())
    }

    /// `concat ('|' concat)*`
    fn alternatives(&mut self) -> Parsed {
        let first = self.concatenation()?;
        if self.peek() != Some('|') {
            return Ok(first);
        }
        let (mut size, mut height) = (first.size, first.height + 1);
        let mut items = vec![first.node];
        while self.peek() == Some('|') {
            let bar = self.at;
            self.at += 1;
            if matches!(self.peek(), None | Some('|' | ')')) {
                return Err(self.error(bar, "nothing after `|`"));
            }
            let item = self.concatenation()?;
            size += item.size;
            height = height.max(item.height + 1);
            items.push(item.node);
            self.check(bar, size, height)?;
        }
        // One of several values is one position: `(1|2|3)` is `[1 2 3]`.
        if items
            .iter()
            .all(|n| matches!(n, Node::Set { negated: false, .. }))
        {
            let ranges = items
                .into_iter()
                .flat_map(|n| match n {
                    Node::Set { ranges, .. } => ranges,
                    _ => Vec::new(),
                })
                .collect();
            return Ok(Part {
                node: Node::Set {
                    ranges,
                    negated: false,
                },
                size: 1,
                height: 0,
            });
        }
        Ok(Part {
            node: Node::Alt(items),
            size,
            height,
        })
    }

    /// `repeat+`
    fn concatenation(&mut self) -> Parsed {
        let mut items = Vec::new();
        let (mut size, mut height) = (0, 0);
        loop {
            match self.peek() {
                None | Some('|' | ')') => break,
                _ => {
                    let at = self.at;
                    let item = self.repeat()?;
                    size += item.size;
                    height = height.max(item.height + 1);
                    items.push(item.node);
                    self.check(at, size, height)?;
                }
            }
        }
        if items.len() == 1 {
            return Ok(Part {
                node: items.swap_remove(0),
                size,
                height: height - 1,
            });
        }
        if items.is_empty() {
            let message = match self.peek() {
                None if self.s.iter().all(|c| c.is_whitespace()) => {
                    "the expression is empty: give at least one symbol"
                }
                None => "the expression ends where a symbol is expected",
                Some('|') => "nothing before `|`",
                _ if self.depth == 0 => "`)` without a matching `(`",
                _ => "nothing between `(` and `)`",
            };
            return Err(self.error(self.at, message));
        }
        Ok(Part {
            node: Node::Concat(items),
            size,
            height,
        })
    }

    /// `atom ('*' | '+' | '?' | '{' counts '}')*`
    fn repeat(&mut self) -> Parsed {
        let mut part = self.atom()?;
        loop {
            let c = self.peek();
            let op = self.at;
            let (min, max) = match c {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => self.counts()?,
                _ => return Ok(part),
            };
            if c != Some('{') {
                self.at += 1;
            }
            let copies = u64::from(max.unwrap_or(min).max(1));
            part = Part {
                size: part.size.saturating_mul(copies),
                height: part.height + 1,
                node: Node::Repeat {
                    inner: Box::new(part.node),
                    min,
                    max,
                },
            };
            self.check(op, part.size, part.height)?;
        }
    }

    /// `{n}`, `{n,}` or `{n,m}`, from the `{`.
    fn counts(&mut self) -> Result<(u32, Option<u32>), RegexError> {
        let open = self.at;
        self.at += 1;
        let min = self.count("a repeat count after `{`")?;
        let max = match self.peek() {
            Some('}') => Some(min),
            Some(',') => {
                self.at += 1;
                if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.count("a number or `}` after `,`")?)
                }
            }
            _ => return Err(self.error(self.at, "expected `,` or `}` in the repeat count")),
        };
        if self.peek() != Some('}') {
            return Err(self.error(self.at, "expected `}` to close the repeat count"));
        }
        self.at += 1;
        if let Some(max) = max.filter(|&m| m < min) {
            return Err(self.error(
                open,
                format!("the repeat count {{{min},{max}}} has its minimum above its maximum"),
            ));
        }
        Ok((min, max))
    }

    fn count(&mut self, expected: &str) -> Result<u32, RegexError> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {}
            Some('-') => return Err(self.error(self.at, "a repeat count cannot be negative")),
            _ => return Err(self.error(self.at, format!("expected {expected}"))),
        }
        let from = self.at;
        while self.s.get(self.at).is_some_and(char::is_ascii_digit) {
            self.at += 1;
        }
        let digits: String = self.s[from..self.at].iter().collect();
        digits
            .parse::<u32>()
            .ok()
            .filter(|&n| u64::from(n) <= MAX_POSITIONS)
            .ok_or_else(|| {
                self.error(
                    from,
                    format!("the repeat count {digits} is above {MAX_POSITIONS}"),
                )
            })
    }

    /// A number, a class, `.` or a parenthesised expression.
    fn atom(&mut self) -> Parsed {
        let Some(c) = self.peek() else {
            return Err(self.error(self.at, "the expression ends where a symbol is expected"));
        };
        let at = self.at;
        let set = |ranges, negated| {
            Ok(Part {
                node: Node::Set { ranges, negated },
                size: 1,
                height: 0,
            })
        };
        match c {
            '(' => {
                self.at += 1;
                self.depth += 1;
                if self.depth > MAX_HEIGHT as usize {
                    return Err(self.error(
                        at,
                        format!("parentheses nest more than {MAX_HEIGHT} deep here"),
                    ));
                }
                let inner = self.alternatives()?;
                if self.peek() != Some(')') {
                    return Err(self.error(at, "this `(` is never closed"));
                }
                self.at += 1;
                self.depth -= 1;
                Ok(inner)
            }
            '[' => {
                let (ranges, negated) = self.class()?;
                set(ranges, negated)
            }
            '.' => {
                self.at += 1;
                set(Vec::new(), true)
            }
            c if c == '-' || c.is_ascii_digit() => {
                let v = self.number()?;
                if self.s.get(self.at) == Some(&'-') {
                    return Err(self.error(
                        self.at,
                        "`-` right after a number: write `1 -2` for 1 then -2, \
                         or a class `[1-2]` for a range",
                    ));
                }
                set(vec![(v, v)], false)
            }
            c @ ('*' | '+' | '?' | '{') => {
                Err(self.error(at, format!("`{c}` has nothing to repeat")))
            }
            c @ (']' | '}' | ',' | '^') => Err(self.error(at, format!("unexpected `{c}`"))),
            c => Err(self.error(
                at,
                format!("`{c}` is neither a symbol (an integer) nor an operator"),
            )),
        }
    }

    /// An integer, optionally negative, from the current character.
    fn number(&mut self) -> Result<i64, RegexError> {
        let start = self.at;
        if self.s[self.at] == '-' {
            self.at += 1;
        }
        let digits = self.at;
        while self.s.get(self.at).is_some_and(char::is_ascii_digit) {
            self.at += 1;
        }
        if self.at == digits {
            return Err(self.error(start, "`-` must be followed by digits (a negative number)"));
        }
        let text: String = self.s[start..self.at].iter().collect();
        text.parse()
            .map_err(|_| self.error(start, format!("{text} does not fit in 64 bits")))
    }

    /// `[` `^`? (number (`-` number)?)+ `]`, from the `[`.
    fn class(&mut self) -> Result<(Vec<(i64, i64)>, bool), RegexError> {
        let open = self.at;
        self.at += 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges = Vec::new();
        loop {
            let at = self.at;
            match self.peek() {
                None => return Err(self.error(open, "this `[` is never closed")),
                Some(']') => break,
                Some(c) if c == '-' || c.is_ascii_digit() => {
                    let lo = self.number()?;
                    let mut hi = lo;
                    // `1-4` and `1 - 4` are ranges; in `1 -4` the `-` is a sign.
                    let attached = self.s.get(self.at) == Some(&'-');
                    let sign = !attached
                        && self.peek() == Some('-')
                        && self.s.get(self.at + 1).is_some_and(char::is_ascii_digit);
                    if attached || (self.peek() == Some('-') && !sign) {
                        self.at += 1;
                        match self.peek() {
                            Some(c) if c == '-' || c.is_ascii_digit() => hi = self.number()?,
                            _ => {
                                return Err(self.error(
                                    self.at,
                                    "expected a number after `-`, to end the range",
                                ));
                            }
                        }
                    }
                    if hi < lo {
                        return Err(self.error(
                            at,
                            format!("the range {lo}-{hi} is empty: write it low to high"),
                        ));
                    }
                    ranges.push((lo, hi));
                }
                Some(c) => {
                    return Err(self.error(
                        self.at,
                        format!("`{c}` in a class, which lists numbers and ranges as in [1 3-5]"),
                    ));
                }
            }
        }
        self.at += 1;
        if ranges.is_empty() {
            let message = if negated {
                "the class `[^]` excludes nothing: write `.` for any value"
            } else {
                "the class `[]` is empty: it would match no value"
            };
            return Err(self.error(open, message));
        }
        Ok((ranges, negated))
    }
}

/// A set of classes, as sorted, disjoint inclusive ranges.
type Classes = Vec<(u32, u32)>;

/// Thompson's ε-NFA: each state has ε-edges and at most one edge, on a set
/// of classes, to a target.
#[derive(Default)]
struct Nfa {
    eps: Vec<Vec<u32>>,
    on: Vec<Option<(Classes, u32)>>,
}

impl Nfa {
    fn state(&mut self) -> u32 {
        self.eps.push(Vec::new());
        self.on.push(None);
        (self.eps.len() - 1) as u32
    }

    fn eps(&mut self, from: u32, to: u32) {
        self.eps[from as usize].push(to);
    }

    /// Builds `node` from state `from` (which has no edges on classes) and
    /// returns the state it ends in, a new state without edges. Loops go back
    /// to states of their own, never to `from`, so that what follows a loop
    /// cannot re-enter it.
    fn build(&mut self, node: &Node, from: u32, breaks: &[i64]) -> u32 {
        match node {
            Node::Set { ranges, negated } => {
                let to = self.state();
                let classes = class_ranges(ranges, *negated, breaks);
                self.on[from as usize] = Some((classes, to));
                to
            }
            Node::Concat(items) => items
                .iter()
                .fold(from, |at, item| self.build(item, at, breaks)),
            Node::Alt(items) => {
                let end = self.state();
                for item in items {
                    let start = self.state();
                    self.eps(from, start);
                    let e = self.build(item, start, breaks);
                    self.eps(e, end);
                }
                end
            }
            Node::Repeat { inner, min, max } => {
                let mut at = from;
                let plain = if max.is_none() {
                    (*min).max(1) - 1
                } else {
                    *min
                };
                for _ in 0..plain {
                    at = self.build(inner, at, breaks);
                }
                match max {
                    None => {
                        // A copy that may run again, and for `*` be skipped.
                        let head = self.state();
                        let out = self.state();
                        self.eps(at, head);
                        if *min == 0 {
                            self.eps(head, out);
                        }
                        let e = self.build(inner, head, breaks);
                        self.eps(e, head);
                        self.eps(e, out);
                        out
                    }
                    Some(max) => {
                        // Optional copies, nested: each may end the repeat.
                        let end = self.state();
                        for _ in *min..*max {
                            self.eps(at, end);
                            at = self.build(inner, at, breaks);
                        }
                        self.eps(at, end);
                        end
                    }
                }
            }
        }
    }
}

/// The classes of a set, as sorted disjoint ranges of class numbers (a
/// range of values is a range of classes, its ends being cuts).
fn class_ranges(ranges: &[(i64, i64)], negated: bool, breaks: &[i64]) -> Classes {
    let mut inside: Classes = ranges
        .iter()
        .map(|&(lo, hi)| (class_of(breaks, lo), class_of(breaks, hi)))
        .collect();
    inside.sort_unstable();
    let mut merged: Classes = Vec::with_capacity(inside.len());
    for (a, b) in inside {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    if !negated {
        return merged;
    }
    // The gaps between them, up to the last class.
    let last = breaks.len() as u32;
    let mut out = Vec::with_capacity(merged.len() + 1);
    let mut from = 0;
    for (a, b) in merged {
        if a > from {
            out.push((from, a - 1));
        }
        from = b + 1;
    }
    if from <= last {
        out.push((from, last));
    }
    out
}

fn too_complex(what: String) -> RegexError {
    RegexError {
        at: None,
        message: format!(
            "the automaton of this expression is too large ({what}); \
             simplify the expression or use the transition-table form"
        ),
    }
}

/// The subset construction: one DFA state per ε-closed set of NFA states,
/// keyed by its important states only (those with an edge on classes, and
/// the accepting one: Aho, Sethi & Ullman §3.9), which alone decide what
/// the set does next.
fn determinise(nfa: &Nfa, start: u32, accept: u32, classes: usize) -> Result<Dfa, RegexError> {
    let mut seen = vec![0u32; nfa.eps.len()];
    let mut stamp = 0;
    let mut work = 0u64;
    // The important states of the ε-closure of `set`, sorted.
    let mut close = |set: &mut Vec<u32>, work: &mut u64| {
        stamp += 1;
        let mut stack = std::mem::take(set);
        stack.iter().for_each(|&s| seen[s as usize] = stamp);
        while let Some(s) = stack.pop() {
            *work += 1;
            if nfa.on[s as usize].is_some() || s == accept {
                set.push(s);
            }
            for &t in &nfa.eps[s as usize] {
                if seen[t as usize] != stamp {
                    seen[t as usize] = stamp;
                    stack.push(t);
                }
            }
        }
        set.sort_unstable();
    };
    let mut first = vec![start];
    close(&mut first, &mut work);
    let mut sets = vec![first.clone()];
    let mut ids: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
    ids.insert(first, 0);
    let mut next: Vec<u32> = Vec::new();
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); classes];
    // Per DFA state: the state each bucket of targets led to (`.` and
    // classes give many classes the same bucket).
    let mut led: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
    let mut i = 0;
    while i < sets.len() {
        for &s in &sets[i] {
            if let Some((ranges, t)) = &nfa.on[s as usize] {
                for &(a, b) in ranges {
                    for c in a..=b {
                        buckets[c as usize].push(*t);
                    }
                    work += u64::from(b - a + 1);
                }
            }
        }
        work += classes as u64;
        led.clear();
        for bucket in &mut buckets {
            if bucket.is_empty() {
                next.push(NONE);
                continue;
            }
            if let Some(&id) = led.get(bucket.as_slice()) {
                next.push(id);
                bucket.clear();
                continue;
            }
            let targets = bucket.clone();
            close(bucket, &mut work);
            let id = match ids.get(bucket.as_slice()) {
                Some(&id) => id,
                None => {
                    let id = sets.len() as u32;
                    sets.push(bucket.clone());
                    ids.insert(bucket.clone(), id);
                    id
                }
            };
            led.insert(targets, id);
            next.push(id);
            bucket.clear();
            if work > MAX_WORK {
                return Err(too_complex(format!("{} states and counting", sets.len())));
            }
        }
        if sets.len() > MAX_STATES {
            return Err(too_complex(format!("more than {MAX_STATES} states")));
        }
        if sets.len().saturating_mul(classes) > MAX_TABLE {
            return Err(too_complex(format!(
                "{} states × {classes} classes of values",
                sets.len()
            )));
        }
        i += 1;
    }
    Ok(Dfa {
        classes,
        start: 0,
        next,
        accepting: sets
            .iter()
            .map(|s| s.binary_search(&accept).is_ok())
            .collect(),
    })
}

/// Drops the states from which no accepting state can be reached (the start
/// stays, as a state without transitions when nothing is accepted).
fn trim(dfa: Dfa) -> Dfa {
    let (q, k) = (dfa.states(), dfa.classes);
    let mut into: Vec<Vec<u32>> = vec![Vec::new(); q];
    for s in 0..q {
        for c in 0..k {
            let t = dfa.next[s * k + c];
            if t != NONE {
                into[t as usize].push(s as u32);
            }
        }
    }
    let mut live = dfa.accepting.clone();
    let mut stack: Vec<u32> = (0..q as u32).filter(|&s| live[s as usize]).collect();
    while let Some(t) = stack.pop() {
        for &s in &into[t as usize] {
            if !live[s as usize] {
                live[s as usize] = true;
                stack.push(s);
            }
        }
    }
    live[dfa.start as usize] = true;
    let mut id = vec![NONE; q];
    let mut n = 0;
    for s in 0..q {
        if live[s] {
            id[s] = n;
            n += 1;
        }
    }
    let remap = |t: u32| if t == NONE { NONE } else { id[t as usize] };
    Dfa {
        classes: k,
        start: id[dfa.start as usize],
        next: (0..q)
            .filter(|&s| live[s])
            .flat_map(|s| dfa.next[s * k..(s + 1) * k].iter().map(|&t| remap(t)))
            .collect(),
        accepting: (0..q)
            .filter(|&s| live[s])
            .map(|s| dfa.accepting[s])
            .collect(),
    }
}

/// Moore's partition refinement: states start split by acceptance and are
/// split again by the blocks their transitions lead to, until nothing
/// changes. Each round costs states × classes, and a chain of `n` states
/// takes `n` rounds: past [`MAX_MINIMISE_WORK`] the DFA is returned as it is.
fn minimise(dfa: Dfa) -> Dfa {
    let (q, k) = (dfa.states(), dfa.classes);
    let mut block: Vec<u32> = dfa.accepting.iter().map(|&a| u32::from(a)).collect();
    let mut blocks =
        1 + usize::from(dfa.accepting.contains(&true) && dfa.accepting.contains(&false));
    let mut work = 0u64;
    let mut signatures = vec![0u32; q * (k + 1)];
    loop {
        // A state's signature: its block, then the blocks it goes to.
        for (s, sig) in signatures.chunks_exact_mut(k + 1).enumerate() {
            sig[0] = block[s];
            for (c, t) in sig[1..].iter_mut().zip(&dfa.next[s * k..(s + 1) * k]) {
                *c = if *t == NONE { NONE } else { block[*t as usize] };
            }
        }
        let mut ids: FxHashMap<&[u32], u32> = FxHashMap::default();
        let refined: Vec<u32> = signatures
            .chunks_exact(k + 1)
            .map(|sig| {
                let n = ids.len() as u32;
                *ids.entry(sig).or_insert(n)
            })
            .collect();
        work += signatures.len() as u64;
        let count = ids.len();
        block = refined;
        if count == blocks {
            break;
        }
        blocks = count;
        if work > MAX_MINIMISE_WORK {
            return dfa;
        }
    }
    // One state per block, numbered by their first member.
    let mut next = vec![NONE; blocks * k];
    let mut accepting = vec![false; blocks];
    for s in 0..q {
        let b = block[s] as usize;
        accepting[b] = dfa.accepting[s];
        for c in 0..k {
            let t = dfa.next[s * k + c];
            next[b * k + c] = if t == NONE { NONE } else { block[t as usize] };
        }
    }
    Dfa {
        classes: k,
        start: block[dfa.start as usize],
        next,
        accepting,
    }
}

#[cfg(test)]
mod tests;
