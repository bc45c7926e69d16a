//! Random models over set variables (`var s: set of lo..hi;`): `card`,
//! `union`, `intersect`, `diff`, `symdiff`, `subset`, `superset`, `==`,
//! `!=`, `in` with a constant or an integer variable, `all_disjoint`,
//! `disjoint`, `partition_set`, constant sets, and all of them reified
//! under `||`, `->` and `!`. Their meaning is written out here over bit
//! masks, independently of cspi: a solution is each set's membership
//! vector (one 0/1 per value it may hold) and the integer `x`. Also sets
//! built from others: comprehensions `{ i + k | i in S where i != x }`, a
//! list of sets indexed by `x`, and `forall`/`exists`/`sum`/`count`/
//! `product` iterating over a set expression (`i in S`).

use super::tape::Tape;
use rand::RngExt;
use std::collections::BTreeSet;

/// The values any set may hold: 0..=MAX_VALUE, bit `v` of a mask.
const MAX_VALUE: i64 = 7;

#[derive(Clone, Debug)]
pub(super) enum SetExpr {
    Var(usize),
    Const(u64),
    Bin(&'static str, Box<SetExpr>, Box<SetExpr>),
    /// `{i + k | i in S where i != x}` (`true`) or `{i + k | i in S}`.
    Comp(i64, Box<SetExpr>, bool),
    /// `{i | i in lo..hi where i in S && i > x}`.
    Filter(i64, i64, Box<SetExpr>),
    /// `[s_a, s_b, ...][x - x0 + 1]`: one set per value of `x`.
    Elem(Vec<usize>, i64),
}

#[derive(Clone, Debug)]
pub(super) enum F {
    Card(SetExpr, &'static str, i64),
    Rel(&'static str, SetExpr, SetExpr),
    /// `x in s` (`None`: the integer variable `x`), or a constant.
    In(Option<i64>, SetExpr, bool),
    AllDisjoint(Vec<usize>),
    /// An aggregate over `i in S`: `forall i in S: i != x`,
    /// `exists i in S: i >= x`, `sum(i in S: i) op k`,
    /// `count(i in S: i > x) op k`, `product(i in S: i) op k`.
    Over(&'static str, SetExpr, &'static str, i64),
    Disjoint(SetExpr, SetExpr),
    Partition(Vec<usize>, u64),
    Or(Box<F>, Box<F>),
    Implies(Box<F>, Box<F>),
    Not(Box<F>),
}

fn mask_text(m: u64) -> String {
    let items: Vec<String> = (0..=MAX_VALUE)
        .filter(|v| m >> v & 1 == 1)
        .map(|v| v.to_string())
        .collect();
    format!("{{{}}}", items.join(", "))
}

impl SetExpr {
    fn text(&self) -> String {
        match self {
            SetExpr::Var(i) => format!("s{i}"),
            SetExpr::Const(m) => mask_text(*m),
            SetExpr::Bin(op, a, b) => format!("({} {op} {})", a.text(), b.text()),
            SetExpr::Comp(k, a, true) => format!("{{i + {k} | i in {} where i != x}}", a.text()),
            SetExpr::Comp(k, a, false) => format!("{{i + {k} | i in {}}}", a.text()),
            SetExpr::Filter(lo, hi, a) => {
                format!("{{i | i in {lo}..{hi} where i in {} && i > x}}", a.text())
            }
            SetExpr::Elem(vars, x0) => format!("{}[x - {x0} + 1]", list(vars)),
        }
    }
    fn eval(&self, sets: &[u64], x: i64) -> u64 {
        match self {
            SetExpr::Var(i) => sets[*i],
            SetExpr::Const(m) => *m,
            SetExpr::Comp(k, a, skip_x) => {
                let a = a.eval(sets, x);
                (0..64)
                    .filter(|&i| a >> i & 1 == 1 && !(*skip_x && i == x))
                    .fold(0, |m, i| m | 1 << (i + k))
            }
            SetExpr::Filter(lo, hi, a) => {
                let a = a.eval(sets, x);
                (*lo..=*hi)
                    .filter(|&i| a >> i & 1 == 1 && i > x)
                    .fold(0, |m, i| m | 1 << i)
            }
            SetExpr::Elem(vars, x0) => sets[vars[(x - x0) as usize]],
            SetExpr::Bin(op, a, b) => {
                let (a, b) = (a.eval(sets, x), b.eval(sets, x));
                match *op {
                    "union" => a | b,
                    "intersect" => a & b,
                    "diff" => a & !b,
                    _ => a ^ b,
                }
            }
        }
    }
}

fn cmp(op: &str, a: i64, b: i64) -> bool {
    match op {
        "==" => a == b,
        "!=" => a != b,
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        _ => a >= b,
    }
}

fn list(vars: &[usize]) -> String {
    let items: Vec<String> = vars.iter().map(|i| format!("s{i}")).collect();
    format!("[{}]", items.join(", "))
}

impl F {
    fn text(&self) -> String {
        match self {
            F::Card(s, op, k) => format!("card({}) {op} {k}", s.text()),
            F::Rel(op, a, b) => format!("{} {op} {}", a.text(), b.text()),
            F::In(x, s, inside) => {
                let x = x.map_or("x".to_string(), |k| k.to_string());
                let op = if *inside { "in" } else { "not in" };
                format!("{x} {op} {}", s.text())
            }
            F::AllDisjoint(v) => format!("all_disjoint({})", list(v)),
            F::Over(agg, s, op, k) => match *agg {
                "forall" => format!("forall i in {}: i != x", s.text()),
                "exists" => format!("exists i in {}: i >= x", s.text()),
                "sum" => format!("sum(i in {}: i) {op} {k}", s.text()),
                "count" => format!("count(i in {}: i > x) {op} {k}", s.text()),
                _ => format!("product(i in {}: i) {op} {k}", s.text()),
            },
            F::Disjoint(a, b) => format!("disjoint({}, {})", a.text(), b.text()),
            F::Partition(v, u) => format!("partition_set({}, {})", list(v), mask_text(*u)),
            F::Or(a, b) => format!("({}) || ({})", a.text(), b.text()),
            F::Implies(a, b) => format!("({}) -> ({})", a.text(), b.text()),
            F::Not(a) => format!("!({})", a.text()),
        }
    }
    fn holds(&self, sets: &[u64], x: i64) -> bool {
        match self {
            F::Card(s, op, k) => cmp(op, s.eval(sets, x).count_ones() as i64, *k),
            F::Over(agg, s, op, k) => {
                let s = s.eval(sets, x);
                let mut members = (0..64i64).filter(|i| s >> i & 1 == 1);
                match *agg {
                    "forall" => members.all(|i| i != x),
                    "exists" => members.any(|i| i >= x),
                    "sum" => cmp(op, members.sum(), *k),
                    "count" => cmp(op, members.filter(|&i| i > x).count() as i64, *k),
                    _ => cmp(op, members.product(), *k),
                }
            }
            F::Rel(op, a, b) => {
                let (a, b) = (a.eval(sets, x), b.eval(sets, x));
                match *op {
                    "subset" => a & !b == 0,
                    "superset" => b & !a == 0,
                    "==" => a == b,
                    _ => a != b,
                }
            }
            F::In(k, s, inside) => {
                let v = k.unwrap_or(x);
                let member = (0..64).contains(&v) && s.eval(sets, x) >> v & 1 == 1;
                member == *inside
            }
            F::AllDisjoint(v) => {
                let mut seen = 0u64;
                v.iter().all(|&i| {
                    let ok = seen & sets[i] == 0;
                    seen |= sets[i];
                    ok
                })
            }
            F::Disjoint(a, b) => a.eval(sets, x) & b.eval(sets, x) == 0,
            F::Partition(v, u) => {
                let mut seen = 0u64;
                let disjoint = v.iter().all(|&i| {
                    let ok = seen & sets[i] == 0;
                    seen |= sets[i];
                    ok
                });
                disjoint && seen == *u
            }
            F::Or(a, b) => a.holds(sets, x) || b.holds(sets, x),
            F::Implies(a, b) => !a.holds(sets, x) || b.holds(sets, x),
            F::Not(a) => !a.holds(sets, x),
        }
    }
}

/// A model: the sets' ranges of values, `x`'s range, the constraints, and
/// an objective to maximise over them (coefficients of each set's card).
pub(super) struct SetModel {
    pub ranges: Vec<(i64, i64)>,
    pub x: (i64, i64),
    pub constraints: Vec<F>,
    pub weights: Vec<i64>,
}

impl SetModel {
    pub(super) fn text(&self) -> String {
        let mut out = String::new();
        for (i, (lo, hi)) in self.ranges.iter().enumerate() {
            out.push_str(&format!("var s{i}: set of {lo}..{hi};\n"));
        }
        out.push_str(&format!("var x in {}..{};\n", self.x.0, self.x.1));
        for c in &self.constraints {
            out.push_str(&format!("constraint {};\n", c.text()));
        }
        out
    }

    /// The objective's text: a weighted sum of the cards, plus `x`.
    pub(super) fn objective(&self) -> String {
        let parts: Vec<String> = self
            .weights
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{w} * card(s{i})"))
            .collect();
        format!("{} + x", parts.join(" + "))
    }

    pub(super) fn objective_value(&self, sets: &[u64], x: i64) -> i64 {
        let cards: i64 = self
            .weights
            .iter()
            .zip(sets)
            .map(|(w, s)| w * s.count_ones() as i64)
            .sum();
        cards + x
    }

    /// Every solution as each set's membership vector over its range, then `x`.
    pub(super) fn brute_force(&self) -> BTreeSet<Vec<i64>> {
        let mut out = BTreeSet::new();
        self.each_solution(|sets, x| {
            out.insert(self.solution_vector(sets, x));
        });
        out
    }

    /// The best objective value by brute force, `None` when unsatisfiable.
    pub(super) fn brute_force_max(&self) -> Option<i64> {
        let mut best = None;
        self.each_solution(|sets, x| {
            let v = self.objective_value(sets, x);
            best = Some(best.map_or(v, |b: i64| b.max(v)));
        });
        best
    }

    fn solution_vector(&self, sets: &[u64], x: i64) -> Vec<i64> {
        let mut v = Vec::new();
        for (s, (lo, hi)) in sets.iter().zip(&self.ranges) {
            for e in *lo..=*hi {
                v.push((s >> e & 1) as i64);
            }
        }
        v.push(x);
        v
    }

    fn each_solution(&self, mut found: impl FnMut(&[u64], i64)) {
        let widths: Vec<u32> = self
            .ranges
            .iter()
            .map(|(lo, hi)| (hi - lo + 1) as u32)
            .collect();
        let total: u32 = widths.iter().sum();
        let mut sets = vec![0u64; self.ranges.len()];
        for bits in 0u64..1 << total {
            let mut rest = bits;
            for (i, (&w, (lo, _))) in widths.iter().zip(&self.ranges).enumerate() {
                sets[i] = (rest & ((1 << w) - 1)) << lo;
                rest >>= w;
            }
            for x in self.x.0..=self.x.1 {
                if self.constraints.iter().all(|c| c.holds(&sets, x)) {
                    found(&sets, x);
                }
            }
        }
    }
}

pub(super) struct Gen {
    rng: Tape,
    sets: usize,
    x: (i64, i64),
}

impl Gen {
    pub(super) fn model(seed: u64) -> SetModel {
        let mut rng = Tape::seeded(seed);
        let sets = rng.random_range(1..=3usize);
        // At most 11 membership bits in all.
        let mut ranges = Vec::new();
        let mut bits = 0;
        for _ in 0..sets {
            let width = rng.random_range(1..=(11 - bits).clamp(1, 5));
            let lo = rng.random_range(0..=MAX_VALUE + 1 - width);
            bits += width;
            ranges.push((lo, lo + width - 1));
        }
        let x0 = rng.random_range(-1..=3);
        let x = (x0, x0 + rng.random_range(0..=3));
        let weights = (0..sets).map(|_| rng.random_range(-3..=3)).collect();
        let mut g = Gen { rng, sets, x };
        let n = g.rng.random_range(1..=4);
        let constraints = (0..n).map(|_| g.formula(1)).collect();
        SetModel {
            ranges,
            x,
            constraints,
            weights,
        }
    }

    fn var(&mut self) -> usize {
        self.rng.random_range(0..self.sets)
    }

    fn mask(&mut self) -> u64 {
        self.rng.random_range(0..1u64 << (MAX_VALUE + 1)) & self.rng.random_range(0..256u64)
    }

    fn set(&mut self, depth: u32) -> SetExpr {
        match self.rng.random_range(0..if depth == 0 { 6 } else { 11 }) {
            0..=3 => SetExpr::Var(self.var()),
            4 => SetExpr::Const(self.mask()),
            5 => {
                let width = (self.x.1 - self.x.0 + 1) as usize;
                let vars = (0..width).map(|_| self.var()).collect();
                SetExpr::Elem(vars, self.x.0)
            }
            8 => {
                let k = self.rng.random_range(0..=2);
                let skip_x = self.rng.random_bool(0.5);
                SetExpr::Comp(k, Box::new(self.set(depth - 1)), skip_x)
            }
            9 => {
                let lo = self.rng.random_range(0..=3);
                let hi = self.rng.random_range(lo..=MAX_VALUE);
                SetExpr::Filter(lo, hi, Box::new(self.set(depth - 1)))
            }
            _ => {
                let op = ["union", "intersect", "diff", "symdiff"][self.rng.random_range(0..4)];
                SetExpr::Bin(
                    op,
                    Box::new(self.set(depth - 1)),
                    Box::new(self.set(depth - 1)),
                )
            }
        }
    }

    fn vars(&mut self) -> Vec<usize> {
        let n = self.rng.random_range(1..=self.sets.max(2));
        (0..n).map(|_| self.var()).collect()
    }

    fn formula(&mut self, depth: u32) -> F {
        let top = if depth == 0 { 8 } else { 11 };
        match self.rng.random_range(0..top) {
            0 | 1 => {
                let op = ["==", "!=", "<", "<=", ">", ">="][self.rng.random_range(0..6)];
                F::Card(self.set(1), op, self.rng.random_range(0..=4))
            }
            2 | 3 => {
                let op = ["subset", "superset", "==", "!="][self.rng.random_range(0..4)];
                F::Rel(op, self.set(1), self.set(1))
            }
            4 | 5 => {
                let x = if self.rng.random_bool(0.5) {
                    None
                } else {
                    Some(self.rng.random_range(-1..=MAX_VALUE + 1))
                };
                F::In(x, self.set(1), self.rng.random_bool(0.7))
            }
            6 => match self.rng.random_range(0..3) {
                0 => F::AllDisjoint(self.vars()),
                1 => F::Disjoint(self.set(1), self.set(1)),
                _ => {
                    let u = self.mask();
                    F::Partition(self.vars(), u)
                }
            },
            7 => match self.rng.random_range(0..6) {
                0 => F::Card(self.set(0), ">=", self.rng.random_range(0..=2)),
                k => {
                    let agg = ["forall", "exists", "sum", "count", "product"][k - 1];
                    let op = ["==", "!=", "<=", ">="][self.rng.random_range(0..4)];
                    let bound = match agg {
                        "sum" => self.rng.random_range(0..=12),
                        "product" => self.rng.random_range(0..=30),
                        _ => self.rng.random_range(0..=3),
                    };
                    F::Over(agg, self.set(1), op, bound)
                }
            },
            8 => F::Or(
                Box::new(self.formula(depth - 1)),
                Box::new(self.formula(depth - 1)),
            ),
            9 => F::Implies(
                Box::new(self.formula(depth - 1)),
                Box::new(self.formula(depth - 1)),
            ),
            _ => F::Not(Box::new(self.formula(depth - 1))),
        }
    }
}
