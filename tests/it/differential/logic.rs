//! Random models over booleans, enums and user predicates: `bool` and enum
//! variables next to integers, `<->`, `xor`, `->`, `!`, `in` / `not in`,
//! reified comparisons and all-differents, truth values counted as 0/1,
//! `exists`/`forall` over data, and calls of predicates and functions defined
//! in the model. The meaning of each construct is written out here, in Rust,
//! independently of cspi's front end and model: a `bool` variable is 0 or 1,
//! an enum member is its position from 1, and every term is defined.

use super::tape::Tape;
use rand::RngExt;
use std::collections::BTreeSet;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Bool,
    Int(i64, i64),
    /// A member of the model's enum `E`.
    Enum,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

const OPS: [Op; 6] = [Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge];

impl Op {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
    fn text(self) -> &'static str {
        ["==", "!=", "<", "<=", ">", ">="][self as usize]
    }
}

/// An integer term: over integer variables, parameters of a definition,
/// and truth values used as 0/1.
#[derive(Clone, Debug)]
pub(super) enum Term {
    Const(i64),
    Var(usize),
    Param(usize),
    Add(Box<Term>, Box<Term>),
    Scale(i64, Box<Term>),
    /// A truth value as a number.
    Truth(Box<L>),
    /// `count([...])`: how many hold.
    Count(Vec<L>),
    /// A call of the model's function `f{k}`.
    Call(usize, Vec<Term>),
}

/// A truth value.
#[derive(Clone, Debug)]
pub(super) enum L {
    /// A `bool` variable.
    BVar(usize),
    Cmp(Op, Term, Term),
    /// Two enum variables, or an enum variable and a member (`Err(k)`).
    EnumCmp(Op, usize, Result<usize, i64>),
    /// `t in {values}` or `t in lo..hi` (`range`), or with `negated`, `not in`.
    In {
        t: Term,
        values: Vec<i64>,
        range: bool,
        negated: bool,
    },
    /// An enum variable in a set of members.
    EnumIn(usize, Vec<i64>, bool),
    AllDiff(Vec<Term>),
    Not(Box<L>),
    And(Box<L>, Box<L>),
    Or(Box<L>, Box<L>),
    Implies(Box<L>, Box<L>),
    Iff(Box<L>, Box<L>),
    Xor(Box<L>, Box<L>),
    /// `exists k in 1..n: [l1, ..., ln][k]` (or `forall`): quantifiers over data.
    Quant(bool, Vec<L>),
    /// A call of the model's predicate `p{k}`.
    Call(usize, Vec<Term>),
}

/// A definition: `predicate p{k}(u0, u1) = body;` or `function f{k}(u0, u1) = body;`.
pub(super) struct Defs {
    pub predicates: Vec<L>,
    pub functions: Vec<Term>,
}

pub(super) struct LogicModel {
    pub kinds: Vec<Kind>,
    pub enum_size: i64,
    pub defs: Defs,
    pub constraints: Vec<L>,
}

impl Term {
    fn eval(&self, v: &[i64], p: &[i64], d: &Defs) -> i64 {
        match self {
            Term::Const(k) => *k,
            Term::Var(x) => v[*x],
            Term::Param(i) => p[*i],
            Term::Add(a, b) => a.eval(v, p, d) + b.eval(v, p, d),
            Term::Scale(c, a) => c * a.eval(v, p, d),
            Term::Truth(l) => i64::from(l.eval(v, p, d)),
            Term::Count(ls) => ls.iter().filter(|l| l.eval(v, p, d)).count() as i64,
            Term::Call(f, args) => {
                let a: Vec<i64> = args.iter().map(|t| t.eval(v, p, d)).collect();
                d.functions[*f].eval(v, &a, d)
            }
        }
    }

    fn text(&self) -> String {
        match self {
            Term::Const(k) => k.to_string(),
            Term::Var(x) => format!("x{x}"),
            Term::Param(i) => format!("u{i}"),
            Term::Add(a, b) => format!("({} + {})", a.text(), b.text()),
            Term::Scale(c, a) => format!("({c} * {})", a.text()),
            Term::Truth(l) => format!("({})", l.text()),
            Term::Count(ls) => format!("count([{}])", join(ls.iter().map(L::text))),
            Term::Call(f, args) => format!("f{f}({})", join(args.iter().map(Term::text))),
        }
    }
}

impl L {
    fn eval(&self, v: &[i64], p: &[i64], d: &Defs) -> bool {
        let t = |x: &Term| x.eval(v, p, d);
        match self {
            L::BVar(x) => v[*x] == 1,
            L::Cmp(op, a, b) => op.holds(t(a), t(b)),
            L::EnumCmp(op, x, Ok(y)) => op.holds(v[*x], v[*y]),
            L::EnumCmp(op, x, Err(k)) => op.holds(v[*x], *k),
            L::In {
                t: x,
                values,
                range,
                negated,
            } => {
                let x = t(x);
                let inside = if *range {
                    values[0] <= x && x <= values[1]
                } else {
                    values.contains(&x)
                };
                inside != *negated
            }
            L::EnumIn(x, members, negated) => members.contains(&v[*x]) != *negated,
            L::AllDiff(ts) => {
                let vals: Vec<i64> = ts.iter().map(t).collect();
                vals.iter().collect::<BTreeSet<_>>().len() == vals.len()
            }
            L::Not(a) => !a.eval(v, p, d),
            L::And(a, b) => a.eval(v, p, d) && b.eval(v, p, d),
            L::Or(a, b) => a.eval(v, p, d) || b.eval(v, p, d),
            L::Implies(a, b) => !a.eval(v, p, d) || b.eval(v, p, d),
            L::Iff(a, b) => a.eval(v, p, d) == b.eval(v, p, d),
            L::Xor(a, b) => a.eval(v, p, d) != b.eval(v, p, d),
            L::Quant(true, ls) => ls.iter().all(|l| l.eval(v, p, d)),
            L::Quant(false, ls) => ls.iter().any(|l| l.eval(v, p, d)),
            L::Call(k, args) => {
                let a: Vec<i64> = args.iter().map(t).collect();
                d.predicates[*k].eval(v, &a, d)
            }
        }
    }

    fn text(&self) -> String {
        let bin = |a: &L, op: &str, b: &L| format!("({} {op} {})", a.text(), b.text());
        match self {
            L::BVar(x) => format!("x{x}"),
            L::Cmp(op, a, b) => format!("({} {} {})", a.text(), op.text(), b.text()),
            L::EnumCmp(op, x, Ok(y)) => format!("(x{x} {} x{y})", op.text()),
            L::EnumCmp(op, x, Err(k)) => format!("(x{x} {} {})", op.text(), member(*k)),
            L::In {
                t,
                values,
                range,
                negated,
            } => {
                let set = if *range {
                    format!("{}..{}", values[0], values[1])
                } else {
                    format!("{{{}}}", join(values.iter().map(i64::to_string)))
                };
                let op = if *negated { "not in" } else { "in" };
                format!("({} {op} {set})", t.text())
            }
            L::EnumIn(x, members, negated) => {
                let op = if *negated { "not in" } else { "in" };
                format!(
                    "(x{x} {op} {{{}}})",
                    join(members.iter().map(|&k| member(k)))
                )
            }
            L::AllDiff(ts) => format!("alldifferent([{}])", join(ts.iter().map(Term::text))),
            L::Not(a) => format!("!{}", a.text()),
            L::And(a, b) => bin(a, "&&", b),
            L::Or(a, b) => bin(a, "||", b),
            L::Implies(a, b) => bin(a, "->", b),
            L::Iff(a, b) => bin(a, "<->", b),
            L::Xor(a, b) => bin(a, "xor", b),
            L::Quant(all, ls) => format!(
                "({} k in 1..{}: [{}][k])",
                if *all { "forall" } else { "exists" },
                ls.len(),
                join(ls.iter().map(L::text))
            ),
            L::Call(k, args) => format!("p{k}({})", join(args.iter().map(Term::text))),
        }
    }
}

fn member(k: i64) -> String {
    format!("e{k}")
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

impl LogicModel {
    pub(super) fn text(&self) -> String {
        let mut s = String::new();
        if self.kinds.iter().any(|k| matches!(k, Kind::Enum)) {
            let members: Vec<String> = (1..=self.enum_size).map(member).collect();
            let _ = writeln!(s, "enum E = {{{}}};", members.join(", "));
        }
        for (k, f) in self.defs.functions.iter().enumerate() {
            let _ = writeln!(s, "function f{k}(u0, u1) = {};", f.text());
        }
        for (k, p) in self.defs.predicates.iter().enumerate() {
            let _ = writeln!(s, "predicate p{k}(u0, u1) = {};", p.text());
        }
        for (i, k) in self.kinds.iter().enumerate() {
            let _ = match k {
                Kind::Bool => writeln!(s, "var x{i}: bool;"),
                Kind::Int(lo, hi) => writeln!(s, "var x{i} in {lo}..{hi};"),
                Kind::Enum => writeln!(s, "var x{i}: E;"),
            };
        }
        for c in &self.constraints {
            let _ = writeln!(s, "constraint {};", c.text());
        }
        s
    }

    pub(super) fn domains(&self) -> Vec<Vec<i64>> {
        self.kinds
            .iter()
            .map(|k| match k {
                Kind::Bool => vec![0, 1],
                Kind::Int(lo, hi) => (*lo..=*hi).collect(),
                Kind::Enum => (1..=self.enum_size).collect(),
            })
            .collect()
    }

    pub(super) fn brute_force(&self) -> BTreeSet<Vec<i64>> {
        let domains = self.domains();
        super::product(&domains)
            .filter(|v| self.constraints.iter().all(|c| c.eval(v, &[], &self.defs)))
            .collect()
    }
}

/// Draws one model.
pub(super) struct Gen {
    rng: Tape,
    kinds: Vec<Kind>,
    enum_size: i64,
    /// Arity 2 everywhere: the number of definitions of each sort.
    predicates: usize,
    functions: usize,
}

impl Gen {
    pub(super) fn model(seed: u64, max_space: usize) -> LogicModel {
        let mut rng = Tape::seeded(seed);
        let enum_size = rng.random_range(2..=4);
        let n = rng.random_range(2..=5);
        let mut kinds: Vec<Kind> = (0..n)
            .map(|_| match rng.random_range(0..3) {
                0 => Kind::Bool,
                1 => {
                    let lo = rng.random_range(-2..=2);
                    Kind::Int(lo, lo + rng.random_range(0..=3))
                }
                _ => Kind::Enum,
            })
            .collect();
        let space = |kinds: &[Kind]| -> usize {
            kinds
                .iter()
                .map(|k| match k {
                    Kind::Bool => 2,
                    Kind::Int(lo, hi) => (hi - lo + 1) as usize,
                    Kind::Enum => enum_size as usize,
                })
                .product()
        };
        while space(&kinds) > max_space {
            kinds.pop();
        }
        let mut g = Gen {
            rng,
            kinds,
            enum_size,
            predicates: 0,
            functions: 0,
        };
        // Definitions over parameters u0, u1 (integers): no variables inside.
        let mut defs = Defs {
            predicates: Vec::new(),
            functions: Vec::new(),
        };
        for _ in 0..g.rng.random_range(0..=2) {
            defs.functions.push(g.param_term());
        }
        g.functions = defs.functions.len();
        for _ in 0..g.rng.random_range(0..=2) {
            let body = g.param_formula(2);
            defs.predicates.push(body);
        }
        g.predicates = defs.predicates.len();
        let constraints = (0..g.rng.random_range(1..=3))
            .map(|_| g.formula(3))
            .collect();
        LogicModel {
            kinds: g.kinds,
            enum_size,
            defs,
            constraints,
        }
    }

    fn pick(&mut self, want: fn(&Kind) -> bool) -> Option<usize> {
        let ids: Vec<usize> = (0..self.kinds.len())
            .filter(|&i| want(&self.kinds[i]))
            .collect();
        (!ids.is_empty()).then(|| ids[self.rng.random_range(0..ids.len())])
    }

    fn op(&mut self) -> Op {
        OPS[self.rng.random_range(0..OPS.len())]
    }

    /// An integer term over the integer and boolean variables.
    fn term(&mut self, depth: u32) -> Term {
        let choice = if depth == 0 {
            self.rng.random_range(0..2)
        } else {
            self.rng.random_range(0..6)
        };
        match choice {
            0 => Term::Const(self.rng.random_range(-2..=3)),
            1 => match self.pick(|k| !matches!(k, Kind::Enum)) {
                Some(x) => Term::Var(x),
                None => Term::Const(1),
            },
            2 => Term::Add(
                Box::new(self.term(depth - 1)),
                Box::new(self.term(depth - 1)),
            ),
            3 => Term::Truth(Box::new(self.formula(depth - 1))),
            4 => Term::Count(
                (0..self.rng.random_range(1..=3))
                    .map(|_| self.formula(depth - 1))
                    .collect(),
            ),
            _ if self.functions > 0 => {
                let f = self.rng.random_range(0..self.functions);
                Term::Call(f, vec![self.term(depth - 1), self.term(depth - 1)])
            }
            _ => Term::Scale(
                self.rng.random_range(-2..=2),
                Box::new(self.term(depth - 1)),
            ),
        }
    }

    fn param_term(&mut self) -> Term {
        let p = |g: &mut Gen| {
            if g.rng.random_bool(0.7) {
                Term::Param(g.rng.random_range(0..2))
            } else {
                Term::Const(g.rng.random_range(-1..=2))
            }
        };
        match self.rng.random_range(0..3) {
            0 => Term::Add(Box::new(p(self)), Box::new(p(self))),
            1 => Term::Scale(self.rng.random_range(-2..=2), Box::new(p(self))),
            _ => p(self),
        }
    }

    /// A predicate body: comparisons and connectives over the parameters.
    fn param_formula(&mut self, depth: u32) -> L {
        match self.rng.random_range(0..if depth == 0 { 2 } else { 5 }) {
            0 | 1 => L::Cmp(self.op(), self.param_term(), self.param_term()),
            2 => L::Iff(
                Box::new(self.param_formula(depth - 1)),
                Box::new(self.param_formula(depth - 1)),
            ),
            3 => L::Or(
                Box::new(self.param_formula(depth - 1)),
                Box::new(self.param_formula(depth - 1)),
            ),
            _ => L::In {
                t: self.param_term(),
                values: vec![-1, 1, 2],
                range: false,
                negated: self.rng.random_bool(0.5),
            },
        }
    }

    fn members(&mut self) -> Vec<i64> {
        let mut m: Vec<i64> = (1..=self.enum_size)
            .filter(|_| self.rng.random_bool(0.5))
            .collect();
        if m.is_empty() {
            m.push(1);
        }
        m
    }

    fn formula(&mut self, depth: u32) -> L {
        let leaf = depth == 0 || self.rng.random_bool(0.3);
        let choice = if leaf {
            self.rng.random_range(0..5)
        } else {
            self.rng.random_range(5..14)
        };
        let sub = |g: &mut Gen| Box::new(g.formula(depth.saturating_sub(1)));
        match choice {
            0 => match self.pick(|k| matches!(k, Kind::Bool)) {
                Some(b) => L::BVar(b),
                None => L::Cmp(self.op(), self.term(0), self.term(0)),
            },
            1 => L::Cmp(self.op(), self.term(1), self.term(0)),
            2 => match self.pick(|k| matches!(k, Kind::Enum)) {
                Some(x) => {
                    let other = match self.pick(|k| matches!(k, Kind::Enum)) {
                        Some(y) if self.rng.random_bool(0.5) => Ok(y),
                        _ => Err(self.rng.random_range(1..=self.enum_size)),
                    };
                    L::EnumCmp(self.op(), x, other)
                }
                None => L::Cmp(self.op(), self.term(0), self.term(0)),
            },
            3 => {
                let range = self.rng.random_bool(0.4);
                let values = if range {
                    let lo = self.rng.random_range(-2..=2);
                    vec![lo, lo + self.rng.random_range(0..=2)]
                } else {
                    let mut v: Vec<i64> = (0..self.rng.random_range(1..=3))
                        .map(|_| self.rng.random_range(-2..=3))
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                };
                L::In {
                    t: self.term(1),
                    values,
                    range,
                    negated: self.rng.random_bool(0.4),
                }
            }
            4 => match self.pick(|k| matches!(k, Kind::Enum)) {
                Some(x) => {
                    let m = self.members();
                    L::EnumIn(x, m, self.rng.random_bool(0.4))
                }
                None => L::Cmp(self.op(), self.term(0), self.term(0)),
            },
            5 => L::Not(sub(self)),
            6 => L::And(sub(self), sub(self)),
            7 => L::Or(sub(self), sub(self)),
            8 => L::Implies(sub(self), sub(self)),
            9 => L::Iff(sub(self), sub(self)),
            10 => L::Xor(sub(self), sub(self)),
            11 => {
                let all = self.rng.random_bool(0.5);
                L::Quant(
                    all,
                    (0..self.rng.random_range(1..=3))
                        .map(|_| self.formula(depth - 1))
                        .collect(),
                )
            }
            12 => L::AllDiff(
                (0..self.rng.random_range(2..=3))
                    .map(|_| self.term(1))
                    .collect(),
            ),
            _ if self.predicates > 0 => {
                let k = self.rng.random_range(0..self.predicates);
                L::Call(k, vec![self.term(1), self.term(1)])
            }
            _ => L::Iff(
                Box::new(L::Cmp(self.op(), self.term(1), self.term(0))),
                sub(self),
            ),
        }
    }
}
