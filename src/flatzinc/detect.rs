//! Structure MiniZinc flattened away, found again: a machine of a job shop
//! written as pairwise disjunctions, each `(s[a] + d[a] <= s[b]) \/
//! (s[b] + d[b] <= s[a])` flattened into two reified `int_lin_le` and an
//! `array_bool_or` (or a `bool_clause`) of their truth values, becomes a
//! `disjunctive` over the tasks that pairwise exclude each other. The
//! disjunctive is added beside the pairs, which stay: it is implied by
//! them, so it can only prune sooner (edge finding, not-first/not-last),
//! never change the solutions.

use super::ast::{Constraint, Expr, FznAst};
use super::build::{Builder, Val};
use crate::model::globals;
use crate::model::{Formula, GlobalArg, GlobalCall, Term, VarId};
use crate::source::Span;
use rustc_hash::{FxHashMap, FxHashSet};

/// The smallest group of tasks worth a disjunctive: two are the pair itself.
const MIN_TASKS: usize = 3;

/// A task: its start variable and its (positive, fixed) duration.
type Task = (VarId, i64);

/// The redundant disjunctives of the model, with the span of a constraint
/// of each to point at.
pub(super) fn disjunctives(b: &Builder, ast: &FznAst) -> Vec<(Formula, Span)> {
    // Truth value -> the precedence it stands for (or implies): `before`
    // ends before `after` starts.
    let mut precedence: FxHashMap<VarId, (Task, VarId)> = FxHashMap::default();
    for c in &ast.constraints {
        if let Some((r, p)) = reified_precedence(b, c) {
            precedence.insert(r, p);
        }
    }
    if precedence.is_empty() {
        return Vec::new();
    }
    // Pairs of tasks that may not overlap, each with a span.
    let mut edges: FxHashSet<(Task, Task)> = FxHashSet::default();
    let mut first_span: FxHashMap<Task, Span> = FxHashMap::default();
    for c in &ast.constraints {
        let Some([p, q]) = two_truths(b, c) else {
            continue;
        };
        let (Some(&(ta, sb)), Some(&(tb, sa))) = (precedence.get(&p), precedence.get(&q)) else {
            continue;
        };
        // `ta` before `sb`, or `tb` before `sa`: the same two tasks crossed.
        if ta.0 != sa || tb.0 != sb || ta.0 == tb.0 {
            continue;
        }
        edges.insert((ta, tb));
        edges.insert((tb, ta));
        first_span.entry(ta).or_insert(c.span);
        first_span.entry(tb).or_insert(c.span);
    }
    let Some(def) = globals::forms("disjunctive").next() else {
        return Vec::new();
    };
    let mut tasks: Vec<Task> = first_span.keys().copied().collect();
    tasks.sort_unstable();
    let mut neighbours: FxHashMap<Task, Vec<Task>> = FxHashMap::default();
    for &(a, c) in &edges {
        neighbours.entry(a).or_default().push(c);
    }
    // A greedy cover by cliques: each task in one group at most, a group
    // grown while some task excludes every member.
    let mut placed: FxHashSet<Task> = FxHashSet::default();
    let mut out = Vec::new();
    for &seed in &tasks {
        if placed.contains(&seed) {
            continue;
        }
        let mut group = vec![seed];
        let mut candidates = neighbours.get(&seed).cloned().unwrap_or_default();
        candidates.sort_unstable();
        for t in candidates {
            if !placed.contains(&t) && group.iter().all(|&g| edges.contains(&(g, t))) {
                group.push(t);
            }
        }
        if group.len() < MIN_TASKS {
            continue;
        }
        placed.extend(group.iter().copied());
        let span = first_span[&seed];
        let args = vec![
            GlobalArg::Terms(group.iter().map(|&(v, _)| Term::Var(v)).collect()),
            GlobalArg::Terms(group.iter().map(|&(_, d)| Term::Const(d)).collect()),
        ];
        if def.check(&args).is_ok() {
            out.push((Formula::Global(GlobalCall { def, args }), span));
        }
    }
    out
}

/// `int_lin_le_reif([1, -1], [x, y], -d, r)` (or `_imp`, or the
/// coefficients the other way round) with `d > 0`: `r` stands for (or
/// implies) "task `(x, d)` ends before `y` starts".
fn reified_precedence(b: &Builder, c: &Constraint) -> Option<(VarId, (Task, VarId))> {
    if !matches!(c.name.as_str(), "int_lin_le_reif" | "int_lin_le_imp") || c.args.len() != 4 {
        return None;
    }
    let coefs = b.ints(&c.args[0]).ok()?;
    let xs = b.terms(&c.args[1]).ok()?;
    let k = b.int(&c.args[2]).ok()?;
    let Term::Var(r) = b.term(&c.args[3]).ok()? else {
        return None;
    };
    let (Term::Var(x), Term::Var(y)) = (xs.first()?, xs.get(1)?) else {
        return None;
    };
    let (before, after) = match coefs.as_slice() {
        [1, -1] => (*x, *y),
        [-1, 1] => (*y, *x),
        _ => return None,
    };
    // before - after <= k, so before + (-k) <= after.
    let d = k.checked_neg()?;
    (xs.len() == 2 && d > 0 && before != after).then_some((r, ((before, d), after)))
}

/// The two truth values of `array_bool_or([p, q], true)` or
/// `bool_clause([p, q], [])`: one of them holds.
fn two_truths(b: &Builder, c: &Constraint) -> Option<[VarId; 2]> {
    let (list, rest): (&Expr, &Expr) = match c.name.as_str() {
        "array_bool_or" if c.args.len() == 2 => (&c.args[0], &c.args[1]),
        "bool_clause" if c.args.len() == 2 => (&c.args[0], &c.args[1]),
        _ => return None,
    };
    match (c.name.as_str(), b.value(rest).ok()?) {
        ("array_bool_or", Val::Bool(true)) => {}
        ("bool_clause", Val::Array(neg)) if neg.is_empty() => {}
        _ => return None,
    }
    let Val::Array(items) = b.value(list).ok()? else {
        return None;
    };
    match items.as_slice() {
        [Val::Var(p), Val::Var(q)] if p != q => Some([*p, *q]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Formula, GlobalArg, Term};

    fn disjunctives(fzn: &str) -> Vec<Vec<(usize, i64)>> {
        let m = crate::flatzinc::load_str("t.fzn", fzn)
            .expect("loads")
            .model;
        m.constraints
            .iter()
            .filter_map(|f| match f {
                Formula::Global(g) if g.def.name() == "disjunctive" => {
                    let (GlobalArg::Terms(s), GlobalArg::Terms(d)) = (&g.args[0], &g.args[1])
                    else {
                        return None;
                    };
                    Some(
                        s.iter()
                            .zip(d)
                            .map(|(s, d)| match (s, d) {
                                (Term::Var(v), Term::Const(k)) => (*v, *k),
                                _ => panic!("a disjunctive of variables and durations"),
                            })
                            .collect(),
                    )
                }
                _ => None,
            })
            .collect()
    }

    /// Three tasks on one machine, written as MiniZinc flattens a job shop's
    /// `no_overlap` pairs (both reified directions, both clause forms).
    const MACHINE: &str = "array [1..2] of int: C = [1,-1];
var 0..20: a; var 0..20: b; var 0..20: c;
var bool: p1 ::var_is_introduced :: is_defined_var; var bool: q1 ::var_is_introduced :: is_defined_var;
var bool: p2; var bool: q2; var bool: p3; var bool: q3;
constraint int_lin_le_reif(C,[a,b],-2,p1) :: defines_var(p1);
constraint int_lin_le_reif(C,[b,a],-3,q1) :: defines_var(q1);
constraint array_bool_or([p1,q1],true);
constraint int_lin_le_reif([-1,1],[c,a],-2,p2);
constraint int_lin_le_imp(C,[c,a],-4,q2);
constraint bool_clause([p2,q2],[]);
constraint int_lin_le_reif(C,[b,c],-3,p3);
constraint int_lin_le_reif(C,[c,b],-4,q3);
constraint array_bool_or([q3,p3],true);
solve satisfy;
";

    #[test]
    fn a_machine_of_pairwise_disjunctions_becomes_a_disjunctive() {
        let found = disjunctives(MACHINE);
        assert_eq!(found.len(), 1, "{found:?}");
        let mut tasks = found[0].clone();
        tasks.sort_unstable();
        // a (duration 2), b (3), c (4): the variables' ids in declaration order.
        assert_eq!(tasks, vec![(0, 2), (1, 3), (2, 4)]);
    }

    #[test]
    fn pairs_that_do_not_cross_are_left_alone() {
        // p3/q3 now both say "b before c": not a disjunction of two orders.
        let fzn = MACHINE.replace(
            "int_lin_le_reif(C,[c,b],-4,q3)",
            "int_lin_le_reif(C,[b,c],-4,q3)",
        );
        assert!(disjunctives(&fzn).is_empty());
        // An or that is only reified says nothing on its own.
        let fzn = MACHINE.replace("array_bool_or([p1,q1],true)", "array_bool_or([p1,q1],p3)");
        assert!(disjunctives(&fzn).is_empty());
    }

    // That the solutions stay those of the pairs is checked against Gecode in
    // tests/it/minizinc.rs (`job_shop_pairs`, `job_shop_pairs_all`).
}
