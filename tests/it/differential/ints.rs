//! Random integer models: small domains, and constraints of three families
//! (classic shapes, nested arithmetic, tables), each a [`Formula`] that the
//! brute force evaluates directly.

use super::expr::{Formula, Op, Rows, Table, Term, bx, konst, var};
use super::tape::Tape;
use rand::RngExt;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A model: variables `x0..` with their domains, and constraints.
pub(super) struct IntModel {
    pub domains: Vec<Vec<i64>>,
    pub constraints: Vec<Formula>,
}

impl IntModel {
    pub(super) fn text(&self) -> String {
        let mut s = String::new();
        for (i, d) in self.domains.iter().enumerate() {
            let vals: Vec<String> = d.iter().map(i64::to_string).collect();
            let _ = writeln!(s, "var x{i} in {{{}}};", vals.join(", "));
        }
        for c in &self.constraints {
            let _ = writeln!(s, "constraint {};", c.text());
        }
        s
    }

    /// Every solution, by enumerating the cartesian product of the domains.
    pub(super) fn brute_force(&self) -> BTreeSet<Vec<i64>> {
        super::product(&self.domains)
            .filter(|v| self.constraints.iter().all(|c| c.holds(v)))
            .collect()
    }
}

/// The state of one case's generation: its random numbers, its variables'
/// domains, and where its table files go.
pub(super) struct Gen {
    pub rng: Tape,
    pub domains: Vec<Vec<i64>>,
    dir: PathBuf,
    prefix: String,
    files: usize,
}

impl Gen {
    /// Random domains for 2..=`max_vars` variables, the largest cut down
    /// until there are at most `max_space` assignments (the brute force and
    /// the search under `none` visit them all); table files are written to
    /// `dir` under names starting with `prefix`.
    pub(super) fn new(
        seed: u64,
        max_vars: usize,
        max_space: usize,
        dir: &Path,
        prefix: String,
    ) -> Gen {
        let mut rng = Tape::seeded(seed);
        let n = rng.random_range(2..=max_vars);
        let mut domains: Vec<Vec<i64>> = (0..n).map(|_| domain(&mut rng)).collect();
        while domains.iter().map(Vec::len).product::<usize>() > max_space {
            let largest = (0..n)
                .max_by_key(|&i| domains[i].len())
                .expect("two variables");
            domains[largest].pop();
        }
        Gen {
            rng,
            domains,
            dir: dir.to_path_buf(),
            prefix,
            files: 0,
        }
    }

    pub(super) fn model(self, constraints: Vec<Formula>) -> IntModel {
        IntModel {
            domains: self.domains,
            constraints,
        }
    }

    /// A number of things to draw, `lo..=hi`.
    pub(super) fn count(&mut self, lo: usize, hi: usize) -> usize {
        self.rng.random_range(lo..=hi)
    }

    fn var(&mut self) -> usize {
        self.rng.random_range(0..self.domains.len())
    }

    fn op(&mut self) -> Op {
        Op::ALL[self.rng.random_range(0..Op::ALL.len())]
    }

    fn small(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.random_range(lo..=hi)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }
}

/// A range (`lo..lo+k`) or a scattered set, of at most five values.
fn domain(rng: &mut Tape) -> Vec<i64> {
    if rng.random_bool(0.5) {
        let lo = rng.random_range(-2..=2i64);
        (lo..=lo + rng.random_range(0..=4i64)).collect()
    } else {
        let mut v: Vec<i64> = (0..rng.random_range(1..=4))
            .map(|_| rng.random_range(-3..=5i64))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

// ---------------------------------------------------------------------------
// Classic shapes: comparisons, linear sums, all-different, abs, products.

/// One constraint of the shapes the engine lowers directly.
pub(super) fn classic(g: &mut Gen) -> Formula {
    let n = g.domains.len();
    let cmp = |op, a, b| Formula::Cmp(op, a, b);
    match g.rng.random_range(0..7) {
        0 => {
            let mut xs: Vec<usize> = (0..n).filter(|_| g.chance(0.6)).collect();
            if xs.len() < 2 {
                xs = vec![0, 1];
            }
            Formula::AllDiff(xs.into_iter().map(var).collect())
        }
        // x op y + c
        1 => {
            let (x, op, y, c) = (g.var(), g.op(), g.var(), g.small(-2, 2));
            cmp(op, var(x), Term::Add(bx(var(y)), bx(konst(c))))
        }
        // a1 * x1 + a2 * x2 + ... op c
        2 => {
            let terms = (0..g.rng.random_range(1..=3))
                .map(|_| Term::Mul(bx(konst(g.small(-3, 3))), bx(var(g.var()))))
                .reduce(|a, b| Term::Add(bx(a), bx(b)))
                .expect("at least one term");
            let (op, c) = (g.op(), g.small(-5, 5));
            cmp(op, terms, konst(c))
        }
        // (x == a) -> (y != b)
        3 => {
            let p = cmp(Op::Eq, var(g.var()), konst(g.small(-1, 3)));
            let q = cmp(Op::Ne, var(g.var()), konst(g.small(-1, 3)));
            Formula::Implies(bx(p), bx(q))
        }
        // abs(x - y) op c
        4 => {
            let d = Term::Sub(bx(var(g.var())), bx(var(g.var())));
            let (op, c) = (g.op(), g.small(0, 3));
            cmp(op, Term::Abs(bx(d)), konst(c))
        }
        // x * y op c
        5 => {
            let p = Term::Mul(bx(var(g.var())), bx(var(g.var())));
            let (op, c) = (g.op(), g.small(-4, 6));
            cmp(op, p, konst(c))
        }
        // (x == a) || (y == b)
        _ => {
            let p = cmp(Op::Eq, var(g.var()), konst(g.small(-1, 3)));
            let q = cmp(Op::Eq, var(g.var()), konst(g.small(-1, 3)));
            Formula::Or(bx(p), bx(q))
        }
    }
}

// ---------------------------------------------------------------------------
// Arithmetic: random nested terms with min, max, element, `/`, `%`, `^`,
// sum, both counts, if-then-else and truth values, under `!`, `||`, `->`
// and `&&`.

/// One constraint: a comparison of random terms, sometimes inside logic.
pub(super) fn arithmetic(g: &mut Gen) -> Formula {
    let base = |g: &mut Gen| {
        let (a, op, b) = (term(g, 2), g.op(), term(g, 1));
        Formula::Cmp(op, a, b)
    };
    match g.rng.random_range(0..8) {
        0 => Formula::Not(bx(base(g))),
        1 => Formula::Or(bx(base(g)), bx(base(g))),
        2 => Formula::Implies(bx(base(g)), bx(base(g))),
        3 => Formula::And(bx(base(g)), bx(base(g))),
        _ => base(g),
    }
}

/// A random term of at most `depth` levels of operators.
fn term(g: &mut Gen, depth: u32) -> Term {
    if depth == 0 || g.chance(0.3) {
        return leaf(g);
    }
    let d = depth - 1;
    let sub = |g: &mut Gen| bx(term(g, d));
    // With both operands constant, `/`, `%` and `^` are computed at load
    // time, where a zero divisor is an error rather than a false constraint:
    // their left operand always has a variable.
    let varying = |g: &mut Gen| match term(g, d) {
        t if anchored(&t) => bx(t),
        _ => bx(var(g.var())),
    };
    let some = |g: &mut Gen| (0..g.count(1, 3)).map(|_| term(g, d)).collect();
    match g.rng.random_range(0..18) {
        0 => Term::Add(sub(g), sub(g)),
        1 => Term::Sub(sub(g), sub(g)),
        2 => Term::Mul(sub(g), sub(g)),
        3 => Term::Div(varying(g), sub(g)),
        4 => Term::Mod(varying(g), sub(g)),
        // `-` does not take a truth value (a load error); `0 - (x < y)` does.
        5 => match sub(g) {
            t if matches!(*t, Term::Truth(_)) => Term::Sub(bx(konst(0)), t),
            t => Term::Neg(t),
        },
        6 => Term::Abs(sub(g)),
        7 => Term::Min(some(g)),
        8 => Term::Max(some(g)),
        9 | 10 => element(g, d),
        11 => Term::Count((0..g.count(1, 3)).map(|_| small_formula(g, d)).collect()),
        12 => Term::CountEq(some(g), sub(g)),
        13 => Term::Ite(bx(small_formula(g, d)), sub(g), sub(g)),
        14 => Term::Sum(some(g)),
        // A small exponent, or a variable one (negative: undefined). A power
        // of a power can pass 2^63 (`(6 ^ 5) ^ 5`), which cspi refuses at
        // load time: the base holds none.
        15 => match varying(g) {
            t if has_pow(&t) => Term::Pow(bx(var(g.var())), bx(leaf(g))),
            t => Term::Pow(t, bx(leaf(g))),
        },
        _ => Term::Truth(bx(small_formula(g, d))),
    }
}

/// A variable most of the time, else a small constant.
fn leaf(g: &mut Gen) -> Term {
    if g.chance(0.75) {
        var(g.var())
    } else {
        konst(g.small(-3, 4))
    }
}

/// `[items][index]`: constant items (the table-backed lowering) or terms
/// (the `Element` propagator), indexed by a variable, a shifted variable
/// (lowered without an auxiliary variable), or a term. Indexes run past both
/// ends of the list. Term items may be undefined (`/`, `%`, `^`, element):
/// only the selected one has to be defined.
fn element(g: &mut Gen, d: u32) -> Term {
    let len = g.rng.random_range(1..=5);
    let constant = g.chance(0.7);
    let items = (0..len)
        .map(|_| {
            if constant {
                konst(g.small(-3, 5))
            } else {
                term(g, d)
            }
        })
        .collect();
    let index = match g.rng.random_range(0..4) {
        0 | 1 => var(g.var()),
        2 => Term::Add(bx(var(g.var())), bx(konst(g.small(-2, 3)))),
        // A constant index is checked at load time: out of range, an error.
        _ => Some(term(g, d))
            .filter(anchored)
            .unwrap_or_else(|| var(g.var())),
    };
    Term::Element(items, bx(index))
}

/// True when cspi cannot fold the term to a constant at load time: it has a
/// variable that no other part can cancel (`x0 - x0` and `0 * x0` fold).
/// Conservative: false for some terms that do not fold.
fn anchored(t: &Term) -> bool {
    let constant = |t: &Term| !has_var(t);
    match t {
        Term::Var(_) => true,
        Term::Add(a, b) | Term::Sub(a, b) => {
            (anchored(a) && constant(b)) || (constant(a) && anchored(b))
        }
        Term::Mul(a, b) => anchored(a) && anchored(b),
        Term::Div(a, b) | Term::Mod(a, b) | Term::Pow(a, b) => anchored(a) || anchored(b),
        Term::Neg(a) | Term::Abs(a) => anchored(a),
        Term::Min(ts) | Term::Max(ts) => ts.iter().any(anchored),
        Term::Element(_, i) => anchored(i),
        Term::Const(_)
        | Term::Sum(_)
        | Term::Count(_)
        | Term::CountEq(..)
        | Term::Ite(..)
        | Term::Truth(_) => false,
    }
}

/// True when a variable occurs in the term (not looking into formulas).
fn has_var(t: &Term) -> bool {
    match t {
        Term::Var(_) => true,
        Term::Const(_) => false,
        Term::Add(a, b)
        | Term::Sub(a, b)
        | Term::Mul(a, b)
        | Term::Div(a, b)
        | Term::Mod(a, b)
        | Term::Pow(a, b) => has_var(a) || has_var(b),
        Term::Neg(a) | Term::Abs(a) => has_var(a),
        Term::Min(ts) | Term::Max(ts) | Term::Sum(ts) => ts.iter().any(has_var),
        Term::Element(items, i) => has_var(i) || items.iter().any(has_var),
        Term::Count(_) | Term::CountEq(..) | Term::Ite(..) | Term::Truth(_) => true,
    }
}

/// True when a power occurs in the term (not looking into formulas).
fn has_pow(t: &Term) -> bool {
    match t {
        Term::Pow(..) => true,
        Term::Var(_) | Term::Const(_) => false,
        Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) | Term::Div(a, b) | Term::Mod(a, b) => {
            has_pow(a) || has_pow(b)
        }
        Term::Neg(a) | Term::Abs(a) => has_pow(a),
        Term::Min(ts) | Term::Max(ts) | Term::Sum(ts) => ts.iter().any(has_pow),
        Term::Element(items, i) => has_pow(i) || items.iter().any(has_pow),
        Term::Ite(_, a, b) => has_pow(a) || has_pow(b),
        // A number of truths: small whatever they compare.
        Term::CountEq(..) | Term::Count(_) | Term::Truth(_) => false,
    }
}

/// A comparison of small terms, sometimes negated or a table. A negation
/// takes one level of `d`, so that a tape of zeros (a shrunk case replayed
/// past its end) does not nest negations without end.
fn small_formula(g: &mut Gen, d: u32) -> Formula {
    match g.rng.random_range(0..6) {
        0 if d > 0 => Formula::Not(bx(small_formula(g, d - 1))),
        1 => Formula::Table(table(g)),
        _ => {
            let (a, op, b) = (term(g, d), g.op(), term(g, d.saturating_sub(1)));
            Formula::Cmp(op, a, b)
        }
    }
}

// ---------------------------------------------------------------------------
// Tables: allowed or forbidden rows over 1..=3 terms (variables, possibly
// repeated, or small terms), written inline, by a comprehension or in a file.

/// One constraint with a table in it: mostly the table itself, sometimes
/// under `!`, `||` or `->`, where it is checked by evaluation.
pub(super) fn table_constraint(g: &mut Gen) -> Formula {
    let t = Formula::Table(table(g));
    match g.rng.random_range(0..8) {
        0 => Formula::Not(bx(t)),
        1 => Formula::Or(bx(t), bx(classic(g))),
        2 => Formula::Implies(bx(classic(g)), bx(t)),
        _ => t,
    }
}

pub(super) fn table(g: &mut Gen) -> Table {
    let arity = g.rng.random_range(1..=3);
    let terms: Vec<Term> = (0..arity).map(|_| table_term(g)).collect();
    let allowed = g.chance(0.6);
    let (rows, source) = match g.rng.random_range(0..6) {
        0 => comprehension(g, arity),
        1 => {
            let rows = random_rows(g, &terms);
            let (path, header) = write_csv(g, &rows, arity);
            (rows, Rows::File(path, header))
        }
        _ => {
            let lists = g.chance(0.3);
            (random_rows(g, &terms), Rows::Inline { lists })
        }
    };
    Table {
        terms,
        rows,
        allowed,
        source,
    }
}

/// A variable (the same one may come twice), or now and then a small term.
fn table_term(g: &mut Gen) -> Term {
    match g.rng.random_range(0..10) {
        0 => Term::Add(bx(var(g.var())), bx(konst(g.small(-2, 2)))),
        1 => Term::Abs(bx(var(g.var()))),
        _ => var(g.var()),
    }
}

/// Up to eight rows, mostly of values the terms can take; some outside,
/// some repeated; now and then none at all.
fn random_rows(g: &mut Gen, terms: &[Term]) -> Vec<Vec<i64>> {
    if g.chance(0.08) {
        return Vec::new();
    }
    let mut rows: Vec<Vec<i64>> = Vec::new();
    for _ in 0..g.rng.random_range(1..=8) {
        if !rows.is_empty() && g.chance(0.15) {
            let again = rows[g.rng.random_range(0..rows.len())].clone();
            rows.push(again);
            continue;
        }
        let row = terms.iter().map(|t| row_value(g, t)).collect();
        rows.push(row);
    }
    rows
}

fn row_value(g: &mut Gen, t: &Term) -> i64 {
    match t {
        Term::Var(x) if g.chance(0.8) => {
            let d = &g.domains[*x];
            d[g.rng.random_range(0..d.len())]
        }
        _ => g.small(-4, 7),
    }
}

/// Rows built by a comprehension of one of three forms, with its rows
/// computed here:
/// `[a | a in L..H where a % m == r]`,
/// `[(a, b) | a in L..H, b in L2..H2 where a op b + k]`,
/// `[(a, b, a + b) | a in L..H, b in L2..H2]`.
fn comprehension(g: &mut Gen, arity: usize) -> (Vec<Vec<i64>>, Rows) {
    let (lo, hi) = (g.small(-3, 2), g.small(-1, 5));
    let (lo2, hi2) = (g.small(-3, 2), g.small(-1, 5));
    let range = |l: i64, h: i64| l..=h;
    let (rows, text): (Vec<Vec<i64>>, String) = match arity {
        1 => {
            let m = g.small(1, 3);
            let r = g.small(0, m - 1);
            let rows = range(lo, hi)
                .filter(|a| a % m == r)
                .map(|a| vec![a])
                .collect();
            (rows, format!("[a | a in {lo}..{hi} where a % {m} == {r}]"))
        }
        2 => {
            let (op, k) = (g.op(), g.small(-1, 1));
            let rows = range(lo, hi)
                .flat_map(|a| range(lo2, hi2).map(move |b| vec![a, b]))
                .filter(|r| op.holds(r[0], r[1] + k))
                .collect();
            let text = format!(
                "[(a, b) | a in {lo}..{hi}, b in {lo2}..{hi2} where a {} b + {k}]",
                op.text()
            );
            (rows, text)
        }
        _ => {
            let rows = range(lo, hi)
                .flat_map(|a| range(lo2, hi2).map(move |b| vec![a, b, a + b]))
                .collect();
            let text = format!("[(a, b, a + b) | a in {lo}..{hi}, b in {lo2}..{hi2}]");
            (rows, text)
        }
    };
    (rows, Rows::Comprehension(text))
}

/// Writes rows for `read_table` in the forms it accepts: commas, semicolons
/// or whitespace between values, sometimes a header (returned: the model
/// must say so), a byte-order mark, comments, blank lines and CRLF line ends.
fn write_csv(g: &mut Gen, rows: &[Vec<i64>], arity: usize) -> (PathBuf, bool) {
    let sep = [",", ", ", ";", " ", "\t"][g.rng.random_range(0..5)];
    let eol = if g.chance(0.2) { "\r\n" } else { "\n" };
    let mut text = String::new();
    if g.chance(0.2) {
        text.push('\u{FEFF}');
    }
    let header = g.chance(0.3);
    if header {
        let header: Vec<String> = (0..arity).map(|i| format!("col{i}")).collect();
        text += &(header.join(sep) + eol);
    }
    for row in rows {
        if g.chance(0.1) {
            text += &format!("# a comment{eol}{eol}");
        }
        let values: Vec<String> = row.iter().map(i64::to_string).collect();
        text += &values.join(sep);
        if g.chance(0.1) {
            text += " # trailing";
        }
        text += eol;
    }
    let path = g.dir.join(format!("{}-{}.csv", g.prefix, g.files));
    g.files += 1;
    std::fs::write(&path, text).expect("write a table file");
    (path, header)
}
