//! Optimisation search against brute force: random small models (tasks on a
//! unary or cumulative resource, a random linear objective) are optimised
//! under every combination of large-neighbourhood search, value guidance and
//! restarts, with several variable selections. Each run must prove the
//! optimum brute force finds (LNS gives complete search half the failures,
//! so small models are proved), every reported solution must pass the
//! independent checker and improve on the one before.

use crate::common;
use cspi::model::search::Named;
use cspi::model::{Guide, LnsKind, Restarts, VarSelect};
use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, Status, load, solve};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// A random model over x0..x{n-1} and its optimum by brute force (`None`
/// when it has no solution).
fn random_model(rng: &mut Xoshiro256PlusPlus) -> (String, Option<i64>) {
    let n = rng.random_range(2..=4usize);
    let doms: Vec<Vec<i64>> = (0..n)
        .map(|_| {
            (0..=5)
                .filter(|_| rng.random_range(0..4) > 0)
                .collect::<Vec<_>>()
        })
        .map(|d: Vec<i64>| if d.is_empty() { vec![0] } else { d })
        .collect();
    let p: Vec<i64> = (0..n).map(|_| rng.random_range(0..=3)).collect();
    let h: Vec<i64> = (0..n).map(|_| rng.random_range(1..=2)).collect();
    let w: Vec<i64> = (0..n).map(|_| rng.random_range(-2..=3)).collect();
    let cumulative = rng.random_range(0..2) == 1;
    let mut src = String::new();
    for (i, d) in doms.iter().enumerate() {
        let vals: Vec<String> = d.iter().map(i64::to_string).collect();
        src += &format!("var x{i} in {{{}}};\n", vals.join(", "));
    }
    let xs: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    if cumulative {
        src += &format!(
            "constraint cumulative([{}], [{}], [{}], 2);\n",
            xs.join(", "),
            list(&p),
            list(&h)
        );
    } else {
        src += &format!(
            "constraint disjunctive([{}], [{}]);\n",
            xs.join(", "),
            list(&p)
        );
    }
    let terms: Vec<String> = (0..n).map(|i| format!("{} * x{i}", w[i])).collect();
    src += &format!("minimize {};\n", terms.join(" + "));
    let holds = |v: &[i64]| {
        if cumulative {
            (0..n).filter(|&i| p[i] > 0).all(|i| {
                let load: i64 = (0..n)
                    .filter(|&j| v[j] <= v[i] && v[i] < v[j] + p[j])
                    .map(|j| h[j])
                    .sum();
                load <= 2
            })
        } else {
            (0..n).all(|i| {
                (i + 1..n)
                    .all(|j| p[i] == 0 || p[j] == 0 || v[i] + p[i] <= v[j] || v[j] + p[j] <= v[i])
            })
        }
    };
    let mut best = None;
    let mut v = vec![0i64; n];
    let mut idx = vec![0usize; n];
    loop {
        for i in 0..n {
            v[i] = doms[i][idx[i]];
        }
        if holds(&v) {
            let obj: i64 = (0..n).map(|i| w[i] * v[i]).sum();
            best = Some(best.map_or(obj, |b: i64| b.min(obj)));
        }
        let mut k = n;
        loop {
            if k == 0 {
                return (src, best);
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < doms[k].len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

#[test]
fn lns_guidance_and_restarts_prove_the_brute_force_optimum() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for case in 0..100 {
        let (src, best) = random_model(&mut rng);
        let model = Arc::new(
            load(ModelSource::text("opt.csp", &src), &LoadOptions::default()).expect("loads"),
        );
        for &(_, lns) in LnsKind::ALL {
            for &(_, guide) in Guide::ALL {
                for restarts in [Restarts::None, Restarts::Luby] {
                    for var in [VarSelect::Input, VarSelect::DomWdeg, VarSelect::Smallest] {
                        let mut options = Options {
                            search: model.search.clone(),
                            check: true,
                            ..Options::default()
                        };
                        options.search.lns = lns;
                        options.search.guide = guide;
                        options.search.restarts = restarts;
                        options.search.var = var;
                        options.search.seed = case;
                        // Half the cases learn nogoods (docs/learning.md).
                        options.search.learning = Some(case % 2 == 1);
                        let s = solve(&model, &options, |_| Next::Continue);
                        let what = format!(
                            "case {case} ({} / {} / {} / {}, learning {}):\n{src}",
                            lns.name(),
                            guide.name(),
                            restarts.name(),
                            var.name(),
                            case % 2 == 1
                        );
                        assert!(s.rejected.is_empty(), "{what}: {:?}", s.rejected);
                        match best {
                            None => assert_eq!(s.status, Status::Unsatisfiable, "{what}"),
                            Some(b) => {
                                assert_eq!(s.status, Status::Optimal, "{what}");
                                assert_eq!(s.objective, Some(b), "{what}");
                            }
                        }
                        let objectives: Vec<i64> =
                            s.stats.improvements.iter().map(|i| i.objective).collect();
                        assert!(
                            objectives.windows(2).all(|w| w[1] < w[0]),
                            "{what}: {objectives:?}"
                        );
                        assert_eq!(objectives.last().copied(), s.objective, "{what}");
                    }
                }
            }
        }
    }
}

/// A random model over x0..x{n-1} (a disjunctive resource) with a
/// lexicographic objective of 2 or 3 random linear components, and its
/// optimal components by brute force (`None` without a solution).
fn random_lex_model(rng: &mut Xoshiro256PlusPlus) -> (String, Option<Vec<i64>>) {
    let n = rng.random_range(2..=4usize);
    let doms: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..=5).filter(|_| rng.random_range(0..4) > 0).collect())
        .map(|d: Vec<i64>| if d.is_empty() { vec![0] } else { d })
        .collect();
    let p: Vec<i64> = (0..n).map(|_| rng.random_range(0..=2)).collect();
    let maximize = rng.random_range(0..2) == 1;
    let parts = rng.random_range(2..=3usize);
    let w: Vec<Vec<i64>> = (0..parts)
        .map(|_| (0..n).map(|_| rng.random_range(-2..=2)).collect())
        .collect();
    let mut src = String::new();
    for (i, d) in doms.iter().enumerate() {
        let vals: Vec<String> = d.iter().map(i64::to_string).collect();
        src += &format!("var x{i} in {{{}}};\n", vals.join(", "));
    }
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let xs: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    src += &format!(
        "constraint disjunctive([{}], [{}]);\n",
        xs.join(", "),
        list(&p)
    );
    let comps: Vec<String> = w
        .iter()
        .map(|wk| {
            let t: Vec<String> = (0..n).map(|i| format!("{} * x{i}", wk[i])).collect();
            t.join(" + ")
        })
        .collect();
    let sense = if maximize { "maximize" } else { "minimize" };
    src += &format!("{sense} lex({});\n", comps.join(", "));
    let holds = |v: &[i64]| {
        (0..n).all(|i| {
            (i + 1..n).all(|j| p[i] == 0 || p[j] == 0 || v[i] + p[i] <= v[j] || v[j] + p[j] <= v[i])
        })
    };
    let mut best: Option<Vec<i64>> = None;
    for v in crate::differential::product(&doms) {
        if !holds(&v) {
            continue;
        }
        let c: Vec<i64> = w
            .iter()
            .map(|wk| (0..n).map(|i| wk[i] * v[i]).sum())
            .collect();
        let better = best
            .as_ref()
            .is_none_or(|b| if maximize { c > *b } else { c < *b });
        if better {
            best = Some(c);
        }
    }
    (src, best)
}

/// `minimize lex(...)` / `maximize lex(...)` prove the brute-force optimum
/// component by component on one thread, on three, with LNS and as the best
/// of the parts of a split; each improvement is lexicographically better.
#[test]
fn lexicographic_objectives_prove_the_brute_force_optimum_in_every_mode() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(26);
    for case in 0..60 {
        let (src, best) = random_lex_model(&mut rng);
        let model = Arc::new(
            load(ModelSource::text("lex.csp", &src), &LoadOptions::default()).expect("loads"),
        );
        let objective = model.objective.clone().expect("an objective");
        let base = Options {
            search: model.search.clone(),
            check: true,
            ..Options::default()
        };
        let mut modes: Vec<(String, Options)> = vec![("one thread".into(), base.clone())];
        modes.push((
            "3 threads".into(),
            Options {
                threads: 3,
                ..base.clone()
            },
        ));
        let mut lns = base.clone();
        lns.search.lns = LnsKind::Mixed;
        lns.search.seed = case;
        modes.push(("lns".into(), lns));
        for (mode, options) in modes {
            let s = solve(&model, &options, |_| Next::Continue);
            let what = format!("case {case} ({mode}):\n{src}");
            assert!(s.rejected.is_empty(), "{what}: {:?}", s.rejected);
            match &best {
                None => assert_eq!(s.status, Status::Unsatisfiable, "{what}"),
                Some(b) => {
                    assert_eq!(s.status, Status::Optimal, "{what}");
                    let got = s.objective.and_then(|o| objective.components(o));
                    assert_eq!(got.as_ref(), Some(b), "{what}");
                }
            }
            let seen: Vec<Vec<i64>> = s
                .stats
                .improvements
                .iter()
                .filter_map(|i| objective.components(i.objective))
                .collect();
            let improving = seen.windows(2).all(|w| {
                if objective.maximize {
                    w[1] > w[0]
                } else {
                    w[1] < w[0]
                }
            });
            assert!(improving, "{what}: {seen:?}");
        }
        // The parts of a split: the best of their optima is the optimum.
        let n = 3;
        let parts: Vec<_> = (1..=n)
            .map(|k| {
                let options = Options {
                    part: Some(cspi::part::Part::whole(k, n)),
                    ..base.clone()
                };
                solve(&model, &options, |_| Next::Continue)
            })
            .collect();
        let found = parts
            .iter()
            .filter_map(|s| s.objective)
            .map(|o| objective.components(o).expect("components"));
        let found = if objective.maximize {
            found.max()
        } else {
            found.min()
        };
        assert_eq!(found, best, "case {case} (parts):\n{src}");
    }
}

/// A random small job shop (3 or 4 jobs of 2 or 3 tasks, a machine either
/// unary or of capacity 2 with task heights 1 or 2), as a model.
fn random_job_shop(rng: &mut Xoshiro256PlusPlus) -> String {
    let n = rng.random_range(3..=4usize);
    let m = rng.random_range(2..=3usize);
    let dur: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..m).map(|_| rng.random_range(1..=5)).collect())
        .collect();
    let machine: Vec<Vec<usize>> = (0..n)
        .map(|_| (0..m).map(|_| rng.random_range(0..m)).collect())
        .collect();
    let horizon: i64 = dur.iter().flatten().sum();
    let mut src =
        format!("var s[1..{n}, 1..{m}] in 0..{horizon};\nvar makespan in 0..{horizon};\n");
    for (j, row) in dur.iter().enumerate() {
        for (k, d) in row.iter().enumerate() {
            let next = if k + 1 < m {
                format!("s[{}, {}]", j + 1, k + 2)
            } else {
                "makespan".into()
            };
            src += &format!("constraint s[{}, {}] + {d} <= {next};\n", j + 1, k + 1);
        }
    }
    for r in 0..m {
        let on: Vec<(usize, usize)> = (0..n)
            .flat_map(|j| (0..m).map(move |k| (j, k)))
            .filter(|&(j, k)| machine[j][k] == r)
            .collect();
        let starts: Vec<String> = on
            .iter()
            .map(|&(j, k)| format!("s[{}, {}]", j + 1, k + 1))
            .collect();
        let durs: Vec<String> = on.iter().map(|&(j, k)| dur[j][k].to_string()).collect();
        if rng.random_range(0..3) == 0 {
            let heights: Vec<String> = on
                .iter()
                .map(|_| rng.random_range(1..=2).to_string())
                .collect();
            src += &format!(
                "constraint cumulative([{}], [{}], [{}], 2);\n",
                starts.join(", "),
                durs.join(", "),
                heights.join(", ")
            );
        } else {
            src += &format!(
                "constraint disjunctive([{}], [{}]);\n",
                starts.join(", "),
                durs.join(", ")
            );
        }
    }
    src + "minimize makespan;\n"
}

/// Learning against no learning on random small job shops: the same
/// optimum proved under complete search and under LNS, every schedule
/// checked, each better than the one before. Deep enough for backjumps,
/// conflicts below the current level (the bound tightened by a solution)
/// and nogoods under the fixings of neighbourhoods.
#[test]
fn learning_proves_the_optima_of_random_job_shops() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    let (mut learned, mut backjumps) = (0, 0);
    for case in 0..100 {
        let src = random_job_shop(&mut rng);
        let model = Arc::new(
            load(ModelSource::text("shop.csp", &src), &LoadOptions::default()).expect("loads"),
        );
        let mut reference = None;
        // The last: a portfolio of two threads trading short nogoods.
        for (learning, lns, var, restarts, threads) in [
            (false, LnsKind::None, VarSelect::Input, Restarts::None, 1),
            (true, LnsKind::None, VarSelect::Input, Restarts::None, 1),
            (true, LnsKind::None, VarSelect::DomWdeg, Restarts::Luby, 1),
            (true, LnsKind::Mixed, VarSelect::DomWdeg, Restarts::Luby, 1),
            (
                true,
                LnsKind::Random,
                VarSelect::Smallest,
                Restarts::None,
                1,
            ),
            (true, LnsKind::None, VarSelect::Activity, Restarts::Luby, 1),
            (true, LnsKind::Mixed, VarSelect::Activity, Restarts::Luby, 2),
        ] {
            let mut options = Options {
                search: model.search.clone(),
                check: true,
                threads,
                ..Options::default()
            };
            options.search.learning = Some(learning);
            options.search.lns = lns;
            options.search.var = var;
            options.search.restarts = restarts;
            options.search.seed = case;
            let s = solve(&model, &options, |_| Next::Continue);
            learned += s.stats.learned;
            backjumps += s.stats.backjumps;
            let what = format!(
                "case {case} (learning {learning}, {} / {} / {}, {threads} threads):\n{src}",
                lns.name(),
                var.name(),
                restarts.name()
            );
            assert!(s.rejected.is_empty(), "{what}: {:?}", s.rejected);
            assert_eq!(s.status, Status::Optimal, "{what}");
            let objectives: Vec<i64> = s.stats.improvements.iter().map(|i| i.objective).collect();
            assert!(
                objectives.windows(2).all(|w| w[1] < w[0]),
                "{what}: {objectives:?}"
            );
            match reference {
                None => reference = s.objective,
                Some(b) => assert_eq!(s.objective, Some(b), "{what}"),
            }
        }
    }
    assert!(
        learned > 100 && backjumps > 10,
        "learned {learned}, backjumps {backjumps}"
    );
}

/// `--restart-nogoods off` (and `restart_nogoods off` in the search block)
/// turns off the nogoods restarts record: the same optimum, proved, with
/// none recorded, where the default records some.
#[test]
fn restart_nogoods_can_be_turned_off() {
    let golomb = common::model("golomb.csp");
    let golomb = golomb.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            golomb,
            "--param",
            "m=7",
            "--var",
            "dom-wdeg",
            "--restarts",
            "luby",
            "--seed",
            "3",
            "--stats",
        ];
        args.extend_from_slice(extra);
        let r = common::cspi(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(
            r.stdout.contains("OPTIMAL: objective 25"),
            "{args:?}: {}",
            r.stdout
        );
        // The statistics go to standard error.
        r.stderr
            .lines()
            .find_map(|l| l.trim().strip_prefix("restart_nogoods:"))
            .map_or(0, |n| n.trim().parse::<u64>().unwrap())
    };
    assert!(run(&[]) > 0);
    assert_eq!(run(&["--restart-nogoods", "off"]), 0);
    // The same in the search block.
    let dir = common::scratch("restart_nogoods_can_be_turned_off");
    for (switch, recorded) in [("on", true), ("off", false)] {
        let text = common::read(std::path::Path::new(golomb)).replace(
            "search var input, val min;",
            &format!(
                "search var dom-wdeg, val min, restarts luby, seed 3, restart_nogoods {switch};"
            ),
        );
        let model = dir.join(format!("golomb-{switch}.csp"));
        std::fs::write(&model, text).unwrap();
        let r = common::cspi(&[
            "solve",
            model.to_str().unwrap(),
            "--param",
            "m=7",
            "--stats",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("OPTIMAL: objective 25"), "{}", r.stdout);
        assert_eq!(
            r.stderr.contains("restart_nogoods:"),
            recorded,
            "{}",
            r.stderr
        );
    }
}
