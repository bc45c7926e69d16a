//! Property test: the table propagator (Compact-Table, allowed and forbidden
//! tuples) reaches exactly generalised arc consistency, compared with a
//! brute-force filter written from the definition, on random tables and
//! random domain reductions, including after backtracking. Through
//! lowering, as a model's table constraint reaches the engine.

use super::lower as post;
use crate::engine::Engine;
use crate::model::{Domain, Formula, Model, Propagation, Term, VarKind, Variable};
use crate::source::Span;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::sync::Arc;

/// GAC domains by definition: a value stays if some allowed combination of
/// current values (a listed row for allowed tables, an unlisted one for
/// forbidden tables) gives it to its variable. Empty domains everywhere when
/// no combination is left.
fn brute_force(doms: &[Vec<i64>], rows: &HashSet<Vec<i64>>, allowed: bool) -> Vec<Vec<i64>> {
    let n = doms.len();
    let mut keep: Vec<HashSet<i64>> = vec![HashSet::new(); n];
    let mut idx = vec![0usize; n];
    if doms.iter().any(|d| d.is_empty()) {
        return vec![Vec::new(); n];
    }
    loop {
        let combo: Vec<i64> = (0..n).map(|i| doms[i][idx[i]]).collect();
        if rows.contains(&combo) == allowed {
            for i in 0..n {
                keep[i].insert(combo[i]);
            }
        }
        let mut i = 0;
        loop {
            if i == n {
                let mut out: Vec<Vec<i64>> = keep
                    .into_iter()
                    .map(|s| {
                        let mut v: Vec<i64> = s.into_iter().collect();
                        v.sort_unstable();
                        v
                    })
                    .collect();
                if out.iter().any(Vec::is_empty) {
                    out = vec![Vec::new(); n];
                }
                return out;
            }
            idx[i] += 1;
            if idx[i] < doms[i].len() {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}

fn model(doms: &[Vec<i64>], rows: &[Vec<i64>], allowed: bool) -> Model {
    let mut m = Model::default();
    let vars: Vec<usize> = doms
        .iter()
        .enumerate()
        .map(|(i, d)| {
            m.add_var(Variable {
                name: format!("x{i}"),
                domain: Domain::of_values(d.clone()).unwrap(),
                kind: VarKind::Int,
                aux: false,
                span: Span::new(0, 0),
            })
        })
        .collect();
    m.constraints.push(Formula::Table {
        terms: vars.iter().map(|&v| Term::Var(v)).collect(),
        tuples: Arc::new(rows.to_vec()),
        allowed,
    });
    m
}

fn random_case(rng: &mut Xoshiro256PlusPlus) -> (Vec<Vec<i64>>, Vec<Vec<i64>>, bool) {
    let n = rng.random_range(2..5usize);
    let doms: Vec<Vec<i64>> = (0..n)
        .map(|_| {
            let lo = rng.random_range(-3..3i64);
            let size = rng.random_range(1..6i64);
            (lo..lo + size)
                .filter(|_| rng.random_range(0..5) > 0)
                .collect::<Vec<_>>()
        })
        .map(|d: Vec<i64>| if d.is_empty() { vec![0] } else { d })
        .collect();
    let nrows = rng.random_range(0..80usize);
    // Rows may repeat and may hold values outside the domains.
    let rows = (0..nrows)
        .map(|_| (0..n).map(|_| rng.random_range(-4..8i64)).collect())
        .collect();
    (doms, rows, rng.random_range(0..2) == 0)
}

fn engine_domains(e: &Engine, n: usize) -> Vec<Vec<i64>> {
    (0..n).map(|v| e.doms.values(v).collect()).collect()
}

#[test]
fn compact_table_is_exactly_gac() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2016);
    let mut checked = 0;
    for _ in 0..1500 {
        let (doms, rows, allowed) = random_case(&mut rng);
        let n = doms.len();
        let set: HashSet<Vec<i64>> = rows.iter().cloned().collect();
        let m = Arc::new(model(&doms, &rows, allowed));
        let mut posted = post(&m, Propagation::Ac);
        assert!(posted.consistent);
        let e = &mut posted.engine;
        // Half the time another propagator got there first: one value is gone
        // from one variable before the table's first call.
        let mut doms = doms.clone();
        if rng.random_range(0..2) == 0 {
            let v = rng.random_range(0..n);
            if doms[v].len() > 1 {
                let x = doms[v][rng.random_range(0..doms[v].len())];
                e.doms.remove(v, x).expect("not the last value");
                doms[v].retain(|&y| y != x);
            }
        }
        let expect = brute_force(&doms, &set, allowed);
        let ok = e.propagate_root().is_ok();
        if !ok {
            assert!(
                expect.iter().all(Vec::is_empty),
                "failed but {expect:?} is GAC"
            );
            continue;
        }
        let root = engine_domains(e, n);
        assert_eq!(
            root, expect,
            "root: doms {doms:?} rows {rows:?} allowed {allowed}"
        );
        // Random removals at a few depths, then back: the state must follow.
        let mut stack = Vec::new();
        let mut current = root.clone();
        for _ in 0..4 {
            let cp = e.doms.checkpoint();
            stack.push((cp, current.clone()));
            let v = rng.random_range(0..n);
            let vals: Vec<i64> = e.doms.values(v).collect();
            let x = vals[rng.random_range(0..vals.len())];
            let mut reduced = current.clone();
            reduced[v].retain(|&y| y != x);
            let expect = brute_force(&reduced, &set, allowed);
            let ok = e.doms.remove(v, x).is_ok() && e.fixpoint().is_ok();
            if !ok {
                assert!(
                    expect.iter().all(Vec::is_empty),
                    "failed, but {expect:?} is GAC"
                );
                break;
            }
            current = engine_domains(e, n);
            assert_eq!(current, expect, "after removing {x} from x{v}");
            checked += 1;
        }
        while let Some((cp, before)) = stack.pop() {
            e.doms.restore(cp);
            assert_eq!(engine_domains(e, n), before, "after backtracking");
        }
    }
    assert!(checked > 500, "too few non-trivial cases: {checked}");
}
