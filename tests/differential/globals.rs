//! Global constraints against their decompositions: for random small
//! instances of each global, the model with the global and the same model
//! written with plain constraints (its decomposition) must both have exactly
//! the solutions that brute force finds with the global's meaning evaluated
//! here in Rust — under every variable selection, value selection and
//! propagation level (`check_every_strategy`).

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The meaning of a constraint on the values of `x0..`.
pub type Holds = Box<dyn Fn(&[i64]) -> bool>;

/// Makes one random instance of a global.
pub type Generator = fn(&mut Draw) -> Case;

/// One random instance: variables `x0..` with their domains, the constraint
/// written with the global and as its decomposition, and its meaning.
pub struct Case {
    pub domains: Vec<Vec<i64>>,
    pub global: String,
    pub decomposition: String,
    pub holds: Holds,
}

impl Case {
    fn header(&self) -> String {
        let mut s = String::new();
        for (i, d) in self.domains.iter().enumerate() {
            let vals: Vec<String> = d.iter().map(i64::to_string).collect();
            let _ = writeln!(s, "var x{i} in {{{}}};", vals.join(", "));
        }
        s
    }

    /// Both models against brute force under every strategy.
    pub fn check(&self, seed: u64, label: &str) {
        let expected: BTreeSet<Vec<i64>> = crate::product(&self.domains)
            .filter(|v| (self.holds)(v))
            .collect();
        let n = self.domains.len();
        for (kind, body) in [
            ("global", &self.global),
            ("decomposition", &self.decomposition),
        ] {
            let src = format!("{}{body}", self.header());
            let what = format!("{label} ({kind}), seed {seed}:\n{src}");
            crate::check_int_source(&src, n, &expected, seed, &what);
        }
    }
}

/// Random numbers for one case.
pub struct Draw(pub Xoshiro256PlusPlus);

impl Draw {
    pub fn new(seed: u64) -> Self {
        Draw(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.0.random_range(lo..=hi)
    }
    /// A random non-empty subset of `lo..=hi`.
    pub fn domain(&mut self, lo: i64, hi: i64) -> Vec<i64> {
        let mut d: Vec<i64> = (lo..=hi)
            .filter(|_| self.0.random_range(0..4) > 0)
            .collect();
        if d.is_empty() {
            d.push(self.int(lo, hi));
        }
        d
    }
    /// Domains for `n` variables, cut down to at most `max_space` assignments.
    pub fn domains(&mut self, n: usize, lo: i64, hi: i64, max_space: usize) -> Vec<Vec<i64>> {
        let mut ds: Vec<Vec<i64>> = (0..n).map(|_| self.domain(lo, hi)).collect();
        while ds.iter().map(Vec::len).product::<usize>() > max_space {
            let largest = (0..n).max_by_key(|&i| ds[i].len()).expect("a variable");
            ds[largest].pop();
        }
        ds
    }
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

fn xs(range: std::ops::Range<usize>) -> String {
    list(range.map(|i| format!("x{i}")))
}

fn ints(v: &[i64]) -> String {
    list(v.iter().map(i64::to_string))
}

/// `disjunctive(s, p)`: pairwise, one task before the other.
pub fn disjunctive(d: &mut Draw) -> Case {
    let n = d.int(2, 4) as usize;
    let domains = d.domains(n, 0, 5, 400);
    let p: Vec<i64> = (0..n).map(|_| d.int(0, 3)).collect();
    let mut parts = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if p[i] > 0 && p[j] > 0 {
                parts.push(format!(
                    "(x{i} + {} <= x{j} || x{j} + {} <= x{i})",
                    p[i], p[j]
                ));
            }
        }
    }
    let global = format!("constraint disjunctive({}, {});\n", xs(0..n), ints(&p));
    let decomposition = decomposition(parts);
    Case {
        domains,
        global,
        decomposition,
        holds: Box::new(move |v| {
            (0..n).all(|i| {
                (i + 1..n)
                    .all(|j| p[i] == 0 || p[j] == 0 || v[i] + p[i] <= v[j] || v[j] + p[j] <= v[i])
            })
        }),
    }
}

/// `cumulative(s, p, h, c)`: at each task's start, the tasks running fit.
pub fn cumulative(d: &mut Draw) -> Case {
    let n = d.int(2, 3) as usize;
    let mut domains = d.domains(n, 0, 4, 150);
    domains.push(d.domain(0, 4));
    let p: Vec<i64> = (0..n).map(|_| d.int(0, 3)).collect();
    let h: Vec<i64> = (0..n).map(|_| d.int(0, 3)).collect();
    let mut parts = Vec::new();
    for i in (0..n).filter(|&i| p[i] > 0 && h[i] > 0) {
        let load: Vec<String> = (0..n)
            .map(|j| format!("{} * (x{j} <= x{i} && x{i} < x{j} + {})", h[j], p[j]))
            .collect();
        parts.push(format!("{} <= x{n}", load.join(" + ")));
    }
    let global = format!(
        "constraint cumulative({}, {}, {}, x{n});\n",
        xs(0..n),
        ints(&p),
        ints(&h)
    );
    Case {
        domains,
        global,
        decomposition: decomposition(parts),
        holds: Box::new(move |v| {
            (0..n).filter(|&i| p[i] > 0 && h[i] > 0).all(|i| {
                let load: i64 = (0..n)
                    .filter(|&j| v[j] <= v[i] && v[i] < v[j] + p[j])
                    .map(|j| h[j])
                    .sum();
                load <= v[n]
            })
        }),
    }
}

/// The parts as one constraint each (`true` when there are none).
fn decomposition(parts: Vec<String>) -> String {
    if parts.is_empty() {
        return "constraint true;\n".to_string();
    }
    parts.iter().map(|p| format!("constraint {p};\n")).collect()
}
