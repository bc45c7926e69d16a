//! Global constraints against their decompositions: for random small
//! instances of each global, the model with the global and the same model
//! written with plain constraints (its decomposition) must both have exactly
//! the solutions that brute force finds with the global's meaning evaluated
//! here in Rust — under every variable selection, value selection and
//! propagation level (`check_every_strategy`).

use super::tape::Tape;
use crate::common::regex::Re;
use rand::RngExt;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The meaning of a constraint on the values of `x0..`.
pub(super) type Holds = Box<dyn Fn(&[i64]) -> bool>;

/// Makes one random instance of a global.
pub(super) type Generator = fn(&mut Draw) -> Case;

/// One random instance: variables `x0..` with their domains, the constraint
/// written with the global and as its decomposition, and its meaning.
pub(super) struct Case {
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
    pub(super) fn check(&self, seed: u64, label: &str) {
        let expected: BTreeSet<Vec<i64>> = super::product(&self.domains)
            .filter(|v| (self.holds)(v))
            .collect();
        let n = self.domains.len();
        for (kind, body) in [
            ("global", &self.global),
            ("decomposition", &self.decomposition),
        ] {
            let src = format!("{}{body}", self.header());
            let what = format!("{label} ({kind}), seed {seed}:\n{src}");
            super::check_int_source(&src, n, &expected, seed, &what);
        }
    }
}

/// Random numbers for one case.
pub(super) struct Draw(pub Tape);

impl Draw {
    pub(super) fn new(seed: u64) -> Self {
        Draw(Tape::seeded(seed))
    }
    pub(super) fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.0.random_range(lo..=hi)
    }
    /// A random non-empty subset of `lo..=hi`.
    pub(super) fn domain(&mut self, lo: i64, hi: i64) -> Vec<i64> {
        let mut d: Vec<i64> = (lo..=hi)
            .filter(|_| self.0.random_range(0..4) > 0)
            .collect();
        if d.is_empty() {
            d.push(self.int(lo, hi));
        }
        d
    }
    /// Domains for `n` variables, cut down to at most `max_space` assignments.
    pub(super) fn domains(
        &mut self,
        n: usize,
        lo: i64,
        hi: i64,
        max_space: usize,
    ) -> Vec<Vec<i64>> {
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

/// `alldifferent(x)`: pairwise `!=`.
pub(super) fn alldifferent(d: &mut Draw) -> Case {
    let n = d.int(2, 4) as usize;
    let domains = d.domains(n, 0, 4, 400);
    let parts = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| format!("x{i} != x{j}")))
        .collect();
    Case {
        domains,
        global: format!("constraint alldifferent({});\n", xs(0..n)),
        decomposition: decomposition(parts),
        holds: Box::new(move |v| (0..n).all(|i| (i + 1..n).all(|j| v[i] != v[j]))),
    }
}

/// `disjunctive(s, p)`: pairwise, one task before the other.
pub(super) fn disjunctive(d: &mut Draw) -> Case {
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
pub(super) fn cumulative(d: &mut Draw) -> Case {
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

/// `x` applied `k` times from node `i` (0-based), as nested element terms
/// over the successor array `xs` (1-based values).
fn successor_power(xs: &str, i: usize, k: usize) -> String {
    let mut t = format!("x{i}");
    for _ in 1..k {
        t = format!("{xs}[{t}]");
    }
    t
}

/// `circuit(x)`: all different, and no node returns to itself in fewer
/// than n steps (nodes as positions 1..n of the successor array).
pub(super) fn circuit(d: &mut Draw) -> Case {
    let n = d.int(1, 4) as usize;
    let domains = d.domains(n, 0, n as i64 + 1, 600);
    let arr = xs(0..n);
    let mut parts = vec![format!("alldifferent({arr})")];
    for i in 0..n {
        parts.push(format!("x{i} >= 1 && x{i} <= {n}"));
        for k in 1..n {
            parts.push(format!("{} != {}", successor_power(&arr, i, k), i + 1));
        }
    }
    Case {
        domains,
        global: format!("constraint circuit({arr});\n"),
        decomposition: decomposition(parts),
        holds: Box::new(|v| cspi::model::globals::holds::circuit(v, false)),
    }
}

/// `subcircuit(x)`: all different, and a node in the circuit comes back to
/// itself after exactly as many steps as there are nodes in the circuit.
pub(super) fn subcircuit(d: &mut Draw) -> Case {
    let n = d.int(1, 4) as usize;
    let domains = d.domains(n, 0, n as i64 + 1, 600);
    let arr = xs(0..n);
    let inside: Vec<String> = (0..n).map(|j| format!("(x{j} != {})", j + 1)).collect();
    let inside = inside.join(" + ");
    let mut parts = vec![format!("alldifferent({arr})")];
    for i in 0..n {
        parts.push(format!("x{i} >= 1 && x{i} <= {n}"));
        for k in 1..n {
            parts.push(format!(
                "x{i} == {} || ({} == {} -> {k} == {inside})",
                i + 1,
                successor_power(&arr, i, k),
                i + 1
            ));
        }
    }
    Case {
        domains,
        global: format!("constraint subcircuit({arr});\n"),
        decomposition: decomposition(parts),
        holds: Box::new(|v| cspi::model::globals::holds::circuit(v, true)),
    }
}

/// `inverse(f, g)`: `f[i] = j` exactly when `g[j] = i`, values in 1..n.
pub(super) fn inverse(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let domains = d.domains(2 * n, 0, n as i64 + 1, 600);
    let mut parts = Vec::new();
    for i in 0..2 * n {
        parts.push(format!("x{i} >= 1 && x{i} <= {n}"));
    }
    for i in 0..n {
        for j in 0..n {
            let (f, g) = (
                format!("x{i} == {}", j + 1),
                format!("x{} == {}", n + j, i + 1),
            );
            parts.push(format!("({f}) -> ({g})"));
            parts.push(format!("({g}) -> ({f})"));
        }
    }
    Case {
        domains,
        global: format!("constraint inverse({}, {});\n", xs(0..n), xs(n..2 * n)),
        decomposition: decomposition(parts),
        holds: Box::new(move |v| cspi::model::globals::holds::inverse(&v[..n], &v[n..])),
    }
}

/// `global_cardinality(x, v, c)`: each count is a sum of truth values.
pub(super) fn global_cardinality(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let k = d.int(1, 2) as usize;
    let mut domains = d.domains(n, -1, 2, 80);
    for _ in 0..k {
        domains.push(d.domain(0, 3));
    }
    // Distinct values, each drawn from those left (not by rejection: a
    // shrinking tape replays zeros, which would draw the same value forever).
    let mut left: Vec<i64> = (-1..=2).collect();
    let values: Vec<i64> = (0..k)
        .map(|_| left.remove(d.int(0, left.len() as i64 - 1) as usize))
        .collect();
    let parts = (0..k)
        .map(|c| {
            let sum: Vec<String> = (0..n).map(|i| format!("(x{i} == {})", values[c])).collect();
            format!("x{} == {}", n + c, sum.join(" + "))
        })
        .collect();
    let vals = values.clone();
    Case {
        domains,
        global: format!(
            "constraint global_cardinality({}, {}, {});\n",
            xs(0..n),
            ints(&values),
            xs(n..n + k)
        ),
        decomposition: decomposition(parts),
        holds: Box::new(move |v| {
            cspi::model::globals::holds::global_cardinality(&v[..n], &vals, &v[n..])
        }),
    }
}

/// Counts over the same terms, as a magic sequence has them: each
/// `y == (x0 == v) + (x1 == v) + ...`, `y` a counted variable itself or
/// another one, values possibly repeated. Lowering posts them together as
/// one global cardinality with `y` as the count; the decomposition doubles
/// each side, which keeps every count apart (an auxiliary count and a sum).
pub(super) fn count_family(d: &mut Draw) -> Case {
    let n = d.int(3, 4) as usize;
    let k = d.int(1, 3) as usize;
    let mut domains = d.domains(n, -1, 3, 60);
    let mut counts = Vec::new();
    for _ in 0..k {
        let v = d.int(-1, 3);
        let y = if d.int(0, 1) == 0 {
            d.int(0, n as i64 - 1) as usize
        } else {
            domains.push(d.domain(0, 3));
            domains.len() - 1
        };
        counts.push((v, y));
    }
    let sum = |v: i64, coef: &str| -> String {
        let terms: Vec<String> = (0..n).map(|i| format!("{coef}(x{i} == {v})")).collect();
        terms.join(" + ")
    };
    let global = counts
        .iter()
        .map(|&(v, y)| format!("constraint x{y} == {};\n", sum(v, "")))
        .collect();
    let parts = counts
        .iter()
        .map(|&(v, y)| format!("2 * x{y} == {}", sum(v, "2 * ")))
        .collect();
    Case {
        domains,
        global,
        decomposition: decomposition(parts),
        holds: Box::new(move |x| {
            counts
                .iter()
                .all(|&(v, y)| x[y] == x[..n].iter().filter(|&&t| t == v).count() as i64)
        }),
    }
}

/// `nvalue(n, x)`: one plus the items that differ from every earlier one.
pub(super) fn nvalue(d: &mut Draw) -> Case {
    let n = d.int(1, 4) as usize;
    let mut domains = vec![d.domain(0, 4)];
    domains.extend(d.domains(n, -1, 3, 300));
    let new: Vec<String> = (2..=n)
        .map(|i| {
            let differs: Vec<String> = (1..i).map(|j| format!("x{i} != x{j}")).collect();
            format!("({})", differs.join(" && "))
        })
        .collect();
    let count = std::iter::once("1".to_string())
        .chain(new)
        .collect::<Vec<_>>()
        .join(" + ");
    Case {
        domains,
        global: format!("constraint nvalue(x0, {});\n", xs(1..n + 1)),
        decomposition: decomposition(vec![format!("x0 == {count}")]),
        holds: Box::new(|v| cspi::model::globals::holds::nvalue(v[0], &v[1..])),
    }
}

/// `bin_packing(load, bin, w)`: each load is a weighted sum of truth values.
pub(super) fn bin_packing(d: &mut Draw) -> Case {
    let m = d.int(1, 2) as usize;
    let items = d.int(1, 3) as usize;
    let mut domains = d.domains(m, 0, 5, 36);
    domains.extend(d.domains(items, 0, 3, 27));
    let w: Vec<i64> = (0..items).map(|_| d.int(0, 3)).collect();
    let mut parts = Vec::new();
    for i in 0..items {
        parts.push(format!("x{0} >= 1 && x{0} <= {m}", m + i));
    }
    for b in 0..m {
        let sum: Vec<String> = (0..items)
            .map(|i| format!("{} * (x{} == {})", w[i], m + i, b + 1))
            .collect();
        parts.push(format!("x{b} == {}", sum.join(" + ")));
    }
    let weights = w.clone();
    Case {
        domains,
        global: format!(
            "constraint bin_packing({}, {}, {});\n",
            xs(0..m),
            xs(m..m + items),
            ints(&w)
        ),
        decomposition: decomposition(parts),
        holds: Box::new(move |v| {
            cspi::model::globals::holds::bin_packing(&v[..m], &v[m..], &weights)
        }),
    }
}

/// `lex_less(x, y)` / `lex_lesseq(x, y)`: the nested comparison.
pub(super) fn lex(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let strict = d.int(0, 1) == 1;
    let domains = d.domains(2 * n, 0, 3, 600);
    let mut text = if strict { "false" } else { "true" }.to_string();
    for i in (0..n).rev() {
        text = format!("(x{i} < x{} || (x{i} == x{} && {text}))", n + i, n + i);
    }
    let name = if strict { "lex_less" } else { "lex_lesseq" };
    Case {
        domains,
        global: format!("constraint {name}({}, {});\n", xs(0..n), xs(n..2 * n)),
        decomposition: decomposition(vec![text]),
        holds: Box::new(move |v| cspi::model::globals::holds::lex(&v[..n], &v[n..], strict)),
    }
}

/// `m[i, j] == z` for a constant matrix against the flat element with the
/// index ranges checked.
pub(super) fn element2d(d: &mut Draw) -> Case {
    let (rows, cols) = (d.int(1, 3) as usize, d.int(1, 3) as usize);
    let m: Vec<Vec<i64>> = (0..rows)
        .map(|_| (0..cols).map(|_| d.int(-1, 3)).collect())
        .collect();
    let domains = vec![
        d.domain(0, rows as i64 + 1),
        d.domain(0, cols as i64 + 1),
        d.domain(-1, 3),
    ];
    let rows_text: Vec<String> = m.iter().map(|r| ints(r)).collect();
    let global = format!(
        "param m[1..{rows}, 1..{cols}]: int = [{}];\nconstraint m[x0, x1] == x2;\n",
        rows_text.join(", ")
    );
    let flat: Vec<i64> = m.iter().flatten().copied().collect();
    let decomposition = format!(
        "constraint x0 >= 1 && x0 <= {rows} && x1 >= 1 && x1 <= {cols} && {}[(x0 - 1) * {cols} + x1] == x2;\n",
        ints(&flat)
    );
    Case {
        domains,
        global,
        decomposition,
        holds: Box::new(move |v| {
            (1..=rows as i64).contains(&v[0])
                && (1..=cols as i64).contains(&v[1])
                && m[(v[0] - 1) as usize][(v[1] - 1) as usize] == v[2]
        }),
    }
}

/// The disjunction of the rows: `x` equals one of them.
fn one_of_rows(rows: &[Vec<i64>], n: usize) -> String {
    if rows.is_empty() {
        return "constraint false;\n".to_string();
    }
    let alts: Vec<String> = rows
        .iter()
        .map(|r| {
            let eqs: Vec<String> = (0..n).map(|i| format!("x{i} == {}", r[i])).collect();
            format!("({})", eqs.join(" && "))
        })
        .collect();
    format!("constraint {};\n", alts.join(" || "))
}

/// `mdd(x, rows)` of a random table, or of `trie(words, symbols, n)` of
/// random words: `x` is one of the rows, written as a disjunction.
pub(super) fn mdd(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let domains = d.domains(n, -1, 3, 300);
    let (global, rows) = if d.int(0, 1) == 0 {
        let rows: Vec<Vec<i64>> = (0..d.int(0, 6))
            .map(|_| (0..n).map(|_| d.int(-1, 3)).collect())
            .collect();
        let lists = list(rows.iter().map(|r| ints(r)));
        (format!("constraint mdd({}, {lists});\n", xs(0..n)), rows)
    } else {
        // Words over A, B, C (codes 1, 2, 3; 0 pads), at most n symbols,
        // at least one of them as long as n so that the trie has n columns.
        let letters = ["A", "B", "C"];
        let mut words = vec![
            (0..n)
                .map(|_| letters[d.int(0, 2) as usize])
                .collect::<String>(),
        ];
        for _ in 0..d.int(0, 5) {
            let len = d.int(1, n as i64 + 1) as usize; // n + 1: left out
            words.push((0..len).map(|_| letters[d.int(0, 2) as usize]).collect());
        }
        let rows: Vec<Vec<i64>> = words
            .iter()
            .filter(|w| w.len() <= n)
            .map(|w| {
                let mut r: Vec<i64> = w.bytes().map(|b| (b - b'A' + 1) as i64).collect();
                r.resize(n, 0);
                r
            })
            .collect();
        let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
        (
            format!(
                "constraint mdd({}, trie([{}], [\"A\", \"B\", \"C\"], {n}));\n",
                xs(0..n),
                quoted.join(", ")
            ),
            rows,
        )
    };
    let decomposition = one_of_rows(&rows, n);
    Case {
        domains,
        global,
        decomposition,
        holds: Box::new(move |v| rows.iter().any(|r| r == v)),
    }
}

/// `regular(x, Q, S, d, q0, F)` of a random automaton: `x` is one of the
/// words it accepts (enumerated here), written as a disjunction.
pub(super) fn regular(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let (q, s) = (d.int(1, 3), d.int(1, 3));
    let delta: Vec<i64> = (0..q * s).map(|_| d.int(0, q)).collect();
    let q0 = d.int(1, q);
    let f: Vec<i64> = (1..=q).filter(|_| d.int(0, 1) == 1).collect();
    let domains = d.domains(n, 0, s + 1, 300);
    let accepts = {
        let (delta, f) = (delta.clone(), f.clone());
        move |x: &[i64]| {
            let mut state = q0;
            for &v in x {
                if !(1..=s).contains(&v) || state == 0 {
                    return false;
                }
                state = delta[((state - 1) * s + v - 1) as usize];
            }
            f.contains(&state)
        }
    };
    let all: Vec<Vec<i64>> = super::product(&vec![(1..=s).collect::<Vec<i64>>(); n])
        .filter(|x| accepts(x))
        .collect();
    let decomposition = one_of_rows(&all, n);
    Case {
        domains,
        global: format!(
            "constraint regular({}, {q}, {s}, {}, {q0}, {});\n",
            xs(0..n),
            ints(&delta),
            ints(&f)
        ),
        decomposition,
        holds: Box::new(accepts),
    }
}

/// `regular(x, r)` of a random regular expression over -1..2 (`.` and
/// `[^ ]` included; `common/regex.rs`): `x` is one of the words the
/// backtracking matcher accepts, written as a disjunction. The expression
/// reaches the model as a literal, a parameter, or by interpolation.
pub(super) fn regular_regex(d: &mut Draw) -> Case {
    let n = d.int(1, 3) as usize;
    let domains = d.domains(n, -2, 3, 300);
    let re = Re::random(&mut |lo, hi| d.int(lo, hi), &[-1, 0, 1, 2], 3);
    let text = re.text();
    let x = xs(0..n);
    let global = match d.int(0, 2) {
        0 => format!("constraint regular({x}, \"{text}\");\n"),
        1 => format!("param r = \"{text}\";\nconstraint regular({x}, r);\n"),
        _ => format!("param r = \"{text}\";\nconstraint regular({x}, \"(\\(r))\");\n"),
    };
    let rows: Vec<Vec<i64>> = super::product(&domains).filter(|w| re.matches(w)).collect();
    Case {
        decomposition: one_of_rows(&rows, n),
        domains,
        global,
        holds: Box::new(move |w| re.matches(w)),
    }
}

/// `x{i}` lies in `set`, as a plain formula (`false` for an empty set).
fn member(i: usize, set: &[i64]) -> String {
    if set.is_empty() {
        return "false".to_string();
    }
    let each: Vec<String> = set.iter().map(|v| format!("x{i} == {v}")).collect();
    format!("({})", each.join(" || "))
}

/// A random set of values in `lo..=hi`, written `{a, b}` (possibly empty).
fn draw_set(d: &mut Draw, lo: i64, hi: i64) -> (Vec<i64>, String) {
    let set: Vec<i64> = (lo..=hi).filter(|_| d.int(0, 2) == 0).collect();
    let shown: Vec<String> = set.iter().map(i64::to_string).collect();
    let text = format!("{{{}}}", shown.join(", "));
    (set, text)
}

/// `among(n, x, S)`: `n` is the sum of the memberships.
pub(super) fn among(d: &mut Draw) -> Case {
    let n = d.int(1, 4) as usize;
    let mut domains = vec![d.domain(-1, 4)];
    domains.extend(d.domains(n, -2, 3, 300));
    let (set, text) = draw_set(d, -2, 3);
    let sum: Vec<String> = (1..=n).map(|i| member(i, &set)).collect();
    Case {
        domains,
        global: format!("constraint among(x0, {}, {text});\n", xs(1..n + 1)),
        decomposition: decomposition(vec![format!("x0 == {}", sum.join(" + "))]),
        holds: Box::new(move |v| cspi::model::globals::holds::among(v[0], &v[1..], &set)),
    }
}

/// `at_most`, `at_least`, `exactly(n, x, v)`: a count compared with `n`.
pub(super) fn count_bound(d: &mut Draw) -> Case {
    let n = d.int(1, 4) as usize;
    let mut domains = vec![d.domain(-1, 4)];
    domains.extend(d.domains(n, -1, 2, 300));
    let v = d.int(-1, 2);
    let (name, op) =
        [("at_most", "<="), ("at_least", ">="), ("exactly", "==")][d.int(0, 2) as usize];
    let sum: Vec<String> = (1..=n).map(|i| format!("(x{i} == {v})")).collect();
    // Half the time `n` is a constant.
    let (bound, held) = if d.int(0, 1) == 0 {
        ("x0".to_string(), None)
    } else {
        let k = d.int(-1, n as i64 + 1);
        (k.to_string(), Some(k))
    };
    Case {
        domains,
        global: format!("constraint {name}({bound}, {}, {v});\n", xs(1..n + 1)),
        decomposition: decomposition(vec![format!("{} {op} {bound}", sum.join(" + "))]),
        holds: Box::new(move |u| {
            let count = u[1..].iter().filter(|&&x| x == v).count() as i64;
            let n = held.unwrap_or(u[0]);
            match op {
                "<=" => count <= n,
                ">=" => count >= n,
                _ => count == n,
            }
        }),
    }
}

/// `sequence(x, S, k, low, high)`: each window's memberships summed.
pub(super) fn sequence(d: &mut Draw) -> Case {
    let n = d.int(1, 6) as usize;
    let domains = d.domains(n, 0, 3, 400);
    let (set, text) = draw_set(d, 0, 3);
    let k = d.int(1, 4);
    let low = d.int(-1, 2);
    let high = d.int(low, 3);
    let parts = (0..n)
        .filter(|&i| i + k as usize <= n)
        .map(|i| {
            let sum: Vec<String> = (i..i + k as usize).map(|j| member(j, &set)).collect();
            format!("{} in {low}..{high}", sum.join(" + "))
        })
        .collect();
    Case {
        domains,
        global: format!(
            "constraint sequence({}, {text}, {k}, {low}, {high});\n",
            xs(0..n)
        ),
        decomposition: decomposition(parts),
        holds: Box::new(move |v| cspi::model::globals::holds::sequence(v, &set, k, low, high)),
    }
}
