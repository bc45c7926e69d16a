//! `cspi solve --part K/N` and `cspi merge`: a split into 8 parts, each run
//! as its own process, merged back into the count, the solution set or the
//! optimum of one whole run; parts that do not belong together refused.

use crate::common::json;
use crate::common::json::JsonRead;
use crate::common::{Run, cspi, scratch, shared_data};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Runs the `n` parts of `args` (a `cspi solve` command line) as separate
/// processes, each output in its own file under `dir`.
fn run_parts(dir: &Path, args: &[&str], n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| run_piece(dir, args, &format!("{k}/{n}")))
        .collect()
}

/// Runs the part or sub-part `part` (`K/N`, `K/N:J/M`, ...) of `args`, its
/// output into a file of `dir` named after it.
fn run_piece(dir: &Path, args: &[&str], part: &str) -> PathBuf {
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--part", part, "--format", "json", "--threads", "1"]);
    let r = cspi(&a);
    assert_eq!(r.code, 0, "part {part}: {}", r.stderr);
    let file = dir.join(format!("part-{}.jsonl", part.replace(['/', ':'], "_")));
    std::fs::write(&file, &r.stdout).unwrap();
    file
}

fn merge(files: &[PathBuf], json_out: bool) -> Run {
    let mut a = vec!["merge".to_string()];
    a.extend(files.iter().map(|f| f.display().to_string()));
    if json_out {
        a.extend(["--format".into(), "json".into()]);
    }
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    cspi(&refs)
}

fn summary(r: &Run) -> serde_json::Value {
    assert_eq!(r.code, 0, "{}", r.stderr);
    json::parse(r.stdout.lines().last().unwrap()).unwrap()
}

#[test]
fn eight_parts_merge_into_the_whole_count() {
    let dir = scratch("distributed-count");
    let files = run_parts(
        &dir,
        &["solve", "models/n-queens.csp", "--param", "n=10", "--count"],
        8,
    );
    let s = summary(&merge(&files, true));
    assert_eq!(s["solutions"].int(), 724);
    assert_eq!(s["status"].str(), "ALL_SOLUTIONS");
    assert_eq!(s["parts"].int(), 8);
    let human = merge(&files, false);
    assert!(
        human.stdout.starts_with("724 solutions (ALL_SOLUTIONS)"),
        "{}",
        human.stdout
    );
    // Every part did some of the work, and the statistics are their sums.
    let nodes: i64 = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            json::parse(text.lines().last().unwrap()).unwrap()["stats"]["nodes"].int()
        })
        .sum();
    assert_eq!(s["stats"]["nodes"].int(), nodes);
}

#[test]
fn eight_parts_of_a_crossword_merge_into_its_count() {
    let Some(data) = shared_data("crossword") else {
        return;
    };
    let dir = scratch("distributed-crossword");
    let slots = format!("slots={}", data.join("puzzle-2.txt").display());
    let dict = format!("dict={}", data.join("words-1000.txt").display());
    let args = [
        "solve",
        "models/crossword-slots.csp",
        "--param",
        &slots,
        "--param",
        &dict,
        "--count",
    ];
    let files = run_parts(&dir, &args, 8);
    assert_eq!(summary(&merge(&files, true))["solutions"].int(), 20593);
}

/// `merge --partial` while a split goes on: the parts that ended, their
/// count as the count so far, the rest named; a part still running (no
/// summary yet) left out with a warning. Without `--partial` the same files
/// are refused.
#[test]
fn a_partial_merge_reports_the_split_so_far() {
    let dir = scratch("distributed-partial");
    let base = ["solve", "models/n-queens.csp", "--param", "n=10", "--count"];
    let ended: Vec<PathBuf> = ["1/8", "2/8", "5/8"]
        .iter()
        .map(|k| run_piece(&dir, &base, k))
        .collect();
    let count_of = |f: &PathBuf| {
        let text = std::fs::read_to_string(f).unwrap();
        json::parse(text.lines().last().unwrap()).unwrap()["solutions"].int()
    };
    let so_far: i64 = ended.iter().map(count_of).sum();
    assert!(so_far > 0 && so_far < 724);
    let running = dir.join("part-3_8.jsonl");
    std::fs::write(&running, "").unwrap();
    let mut files = ended.clone();
    files.push(running.clone());
    let partial = |json_out: bool| {
        let mut a = vec!["merge".to_string(), "--partial".to_string()];
        a.extend(files.iter().map(|f| f.display().to_string()));
        if json_out {
            a.extend(["--format".into(), "json".into()]);
        }
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        cspi(&refs)
    };
    let r = partial(true);
    let s = summary(&r);
    assert_eq!(s["status"].str(), "UNKNOWN");
    assert_eq!(s["solutions"].int(), so_far);
    assert_eq!(s["parts"].int(), 3);
    assert_eq!(s["missing"], serde_json::json!(["3", "4", "6 to 8"]));
    assert!(
        r.stderr.contains("part-3_8.jsonl` has no summary yet"),
        "{}",
        r.stderr
    );
    let human = partial(false);
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(
        human
            .stdout
            .contains("merged 3 of 8 parts; missing: 3, 4, 6 to 8"),
        "{}",
        human.stdout
    );
    let whole = merge(&ended, false);
    assert_ne!(whole.code, 0);
    assert!(
        whole.stderr.contains("parts are 3, 4, 6 to 8 of 8 missing"),
        "{}",
        whole.stderr
    );
}

#[test]
fn parts_of_every_solution_merge_into_the_whole_set() {
    let dir = scratch("distributed-all");
    let base = ["solve", "models/n-queens.csp", "--param", "n=7", "--all"];
    let files = run_parts(&dir, &base, 8);
    let merged = merge(&files, true);
    let s = summary(&merged);
    let lines: Vec<&str> = merged.stdout.lines().collect();
    let got: BTreeSet<&str> = lines[..lines.len() - 1].iter().copied().collect();
    assert_eq!(got.len(), lines.len() - 1, "a solution came twice");
    let whole = cspi(&[&base[..], &["--format", "json", "--threads", "1"]].concat());
    let wl: Vec<&str> = whole.stdout.lines().collect();
    let want: BTreeSet<&str> = wl[..wl.len() - 1].iter().copied().collect();
    assert_eq!(got, want);
    assert_eq!(s["solutions"].int(), 40);
}

#[test]
fn parts_of_an_optimisation_merge_into_the_proved_optimum() {
    let dir = scratch("distributed-optimum");
    let base = ["solve", "models/knapsack.csp", "--param", "capacity=100"];
    let files = run_parts(&dir, &base, 8);
    let merged = merge(&files, true);
    let s = summary(&merged);
    let whole = cspi(&[&base[..], &["--format", "json"]].concat());
    let w = json::parse(whole.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(s["status"].str(), "OPTIMAL");
    assert_eq!(s["objective"].int(), w["objective"].int());
    // The best part's best solution comes with it.
    let best = json::parse(merged.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(best["objective"].int(), w["objective"].int());
}

/// The search of the pigeons' tests with restarts: dom/wdeg, random values.
const RANDOM_SEARCH: [&str; 6] = ["--var", "dom-wdeg", "--val", "random", "--seed", "5"];

/// Writes into `dir` a model with 8! solutions, all with `x[1] = 8` and
/// `z = 9`; below `x[1] <= 7` it is a pigeonhole (ten pigeons, nine holes).
fn pigeons(dir: &Path) -> PathBuf {
    let model = dir.join("pigeons.csp");
    std::fs::write(
        &model,
        "var x[1..9] in 0..8;\nvar z in 0..9;\n\
         constraint forall i, j in 1..9 where i < j: x[i] != x[j];\n\
         constraint forall i in 1..9: x[i] != z;\n\
         constraint x[1] <= 7 -> z <= 8;\n",
    )
    .unwrap();
    model
}

/// A search for one solution with restarts, in parts and sub-parts, as the
/// long crossword proof runs (docs/crossword-measured.md): each piece says
/// `SATISFIABLE`, with a solution of its own, exactly when the same piece
/// searched without restarts for every solution finds one, so no restart
/// nor any nogood of one loses a piece's solution or claims one it lacks.
/// Ten variables, all different: `z` may take 9 only when `x[1] == 8`, so
/// the pieces below `x[1] <= 7` are pigeonholes (ten into nine values)
/// that take thousands of failures, and hundreds of restarts, to refute.
#[test]
fn pieces_of_a_first_solution_search_with_restarts_agree_with_the_same_pieces_enumerated() {
    let dir = scratch("distributed-restarts");
    let model = pigeons(&dir).display().to_string();
    let base = [
        &["solve", &model, "--check-solutions", "--format", "json"][..],
        &RANDOM_SEARCH,
    ]
    .concat();
    let pieces: Vec<String> = (1..=8)
        .map(|k| format!("{k}/8"))
        .chain((1..=3).map(|j| format!("1/8:{j}/3")))
        .chain((1..=3).map(|j| format!("1/8:{j}/3e")))
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    let mut refuted_after_restarts = 0;
    for piece in &pieces {
        let run = |extra: &[&str]| cspi(&[&base[..], extra, &["--part", piece]].concat());
        let first = run(&["--restarts", "luby", "-n", "1"]);
        let every = run(&["--restarts", "none", "-n", "1000000"]);
        let (one, all) = (summary(&first), summary(&every));
        for key in ["subproblems", "of"] {
            assert_eq!(
                one["part"][key], all["part"][key],
                "{piece}: the same split"
            );
        }
        let count = all["solutions"].int();
        counts.insert(piece.as_str(), count);
        let want = if count > 0 {
            "SATISFIABLE"
        } else {
            "UNSATISFIABLE"
        };
        assert_eq!(one["status"].str(), want, "{piece}: {count} solutions");
        if count > 0 {
            let found = first.stdout.lines().next().unwrap();
            assert!(every.stdout.lines().any(|l| l == found), "{piece}: {found}");
        } else if one["stats"]["restarts"].int() > 0 {
            refuted_after_restarts += 1;
        }
    }
    // x[1] = 8, z = 9 and the 8! orders of 0..7; part 1's sub-parts hold
    // exactly part 1's, split either way.
    let sum = |which: &dyn Fn(&str) -> bool| -> i64 {
        let pieces = counts.iter().filter(|(p, _)| which(p));
        pieces.map(|(_, c)| c).sum()
    };
    assert_eq!(
        sum(&|p| !p.contains(':')),
        40320,
        "the parts' counts: {counts:?}"
    );
    let first = sum(&|p| p.contains(':') && !p.ends_with('e'));
    assert_eq!(first, counts["1/8"], "part 1's sub-parts: {counts:?}");
    let even = sum(&|p| p.ends_with('e'));
    assert_eq!(even, counts["1/8"], "part 1's even sub-parts: {counts:?}");
    assert!(refuted_after_restarts >= 4, "{refuted_after_restarts}");
}

#[test]
fn a_part_cut_off_takes_up_from_its_log_with_the_same_answer() {
    let dir = scratch("distributed-part-log");
    // Part 1 of 2 has no solution, part 2 holds all 8! of them.
    let model = pigeons(&dir).display().to_string();
    // One thread unless told: the split is refined for the threads.
    let run = |part: &str, log: &Path, extra: &[&str]| {
        let base = ["solve", &model, "--part", part, "--format", "json"];
        let log = ["--part-log", log.to_str().unwrap()];
        let one: &[&str] = if extra.contains(&"--threads") {
            &[]
        } else {
            &["--threads", "1"]
        };
        cspi(&[&base[..], &log, extra, one].concat())
    };
    let empties = |log: &Path| {
        let text = std::fs::read_to_string(log).unwrap();
        text.lines().filter(|l| l.contains("\"empty\"")).count()
    };
    for (part, mode, answer, count) in [
        ("1/2", "--count", "UNSATISFIABLE", 0),
        ("2/2", "--count", "ALL_SOLUTIONS", 40320),
        ("2/2", "-n", "SATISFIABLE", 1),
        ("1/2", "-n", "UNSATISFIABLE", 0),
    ] {
        let log = dir.join(format!("{}{mode}.log", part.replace('/', "-")));
        let mode: &[&str] = if mode == "-n" { &["-n", "1"] } else { &[mode] };
        let whole = summary(&run(part, &dir.join("scratch.log"), mode));
        let _ = std::fs::remove_file(dir.join("scratch.log"));
        // Cut off by a node limit after some sub-problems, then taken up.
        let cut = summary(&run(
            part,
            &log,
            &[mode, &["--node-limit", "100000"]].concat(),
        ));
        assert_eq!(cut["status"].str(), "UNKNOWN", "{part} {mode:?}");
        let recorded = empties(&log);
        assert!(recorded > 0, "{part} {mode:?}: nothing recorded");
        // The log names the part and its run as the part's output does.
        let text = std::fs::read_to_string(&log).unwrap();
        let header = json::parse(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["part"].str(), part);
        assert_eq!(
            header["fingerprint"].str(),
            cut["part"]["fingerprint"].str()
        );
        let again = summary(&run(part, &log, mode));
        assert_eq!(again["status"].str(), answer, "{part} {mode:?}");
        assert_eq!(again["solutions"].int(), count, "{part} {mode:?}");
        assert_eq!(again["part"]["resumed"].int() as usize, recorded);
        assert!(
            again["stats"]["nodes"].int() < whole["stats"]["nodes"].int(),
            "{part} {mode:?}: the recorded sub-problems were searched again"
        );
        assert_eq!(whole["solutions"].int(), count, "{part} {mode:?}");
        // A sub-problem with a solution is never recorded: the same
        // answer again, from the log as it now stands.
        let third = summary(&run(part, &log, mode));
        assert_eq!(third["solutions"].int(), count, "{part} {mode:?}");
        assert_eq!(third["status"].str(), answer, "{part} {mode:?}");
        if count == 0 {
            let n = third["part"]["subproblems"].int();
            assert_eq!(third["part"]["resumed"].int(), n, "{part} {mode:?}");
        }
        // On two threads the sub-problems are others: searched again, with
        // the same answer.
        let two = summary(&run(part, &log, &[mode, &["--threads", "2"]].concat()));
        assert_eq!(
            two["solutions"].int(),
            count,
            "{part} {mode:?} on two threads"
        );
        assert!(two["part"].get("resumed").is_none(), "{part} {mode:?}");
    }
    // A log is its part's, of the same run: another part's, or one of a
    // changed model or search, is refused.
    let log = dir.join("1-2--count.log");
    for (part, extra) in [("2/2", "--count"), ("1/2", "--all")] {
        let r = run(part, &log, &[extra]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.contains("is the log of part 1/2"), "{}", r.stderr);
    }
    let not_a_log = dir.join("part.jsonl");
    std::fs::write(&not_a_log, "{\"type\":\"summary\"}\n").unwrap();
    let r = run("1/2", &not_a_log, &["--count"]);
    assert!(
        r.code != 0 && r.stderr.contains("is not a part log"),
        "{}",
        r.stderr
    );
    // Optimising, a sub-problem ended under another's bound may hold
    // solutions: the log is refused before any search.
    let optimising = dir.join("opt.csp");
    std::fs::write(&optimising, "var x in 1..9;\nminimize x;\n").unwrap();
    let r = cspi(&[
        "solve",
        optimising.to_str().unwrap(),
        "--part",
        "1/2",
        "--part-log",
        dir.join("opt.log").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("without objective"), "{}", r.stderr);
    // Without --part there is no part to log.
    let r = cspi(&["solve", "models/n-queens.csp", "--part-log", "x.log"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// A sub-problem longer than a run: each run cut off inside it keeps its
/// restarts' nogoods beside the part log (`FILE.nogoods`), and the next run
/// takes them in, so runs of 3,000 nodes each end part 2 of the pigeons,
/// whose sub-problems take some 12,000 nodes each, with the answer a whole
/// run gives, and find part 1's solutions after its pigeonholes. Without
/// the nogoods, such runs repeat the same 3,000 nodes and never end it.
#[test]
fn a_sub_problem_longer_than_a_run_ends_over_several_runs() {
    let dir = scratch("distributed-part-nogoods");
    let model = pigeons(&dir).display().to_string();
    let run = |part: &str, log: &Path, extra: &[&str]| {
        let base = ["solve", &model, "--restarts", "luby", "--threads", "1"];
        let part = ["--format", "json", "--part", part, "--part-log"];
        let log = [log.to_str().unwrap()];
        summary(&cspi(
            &[&base[..], &RANDOM_SEARCH, &part, &log, extra].concat(),
        ))
    };
    let side = |log: &Path| {
        let mut name = log.as_os_str().to_owned();
        name.push(".nogoods");
        PathBuf::from(name)
    };
    let empties = |log: &Path| {
        let text = std::fs::read_to_string(log).unwrap();
        text.lines().filter(|l| l.contains("\"empty\"")).count()
    };
    for (part, answer, count) in [("2/8", "UNSATISFIABLE", 0), ("1/8", "SATISFIABLE", 1)] {
        let mode = ["-n", "1", "--check-solutions"];
        let whole = run(part, &dir.join(format!("whole-{}.log", &part[..1])), &mode);
        assert_eq!(whole["status"].str(), answer, "{part}");
        assert_eq!(whole["solutions"].int(), count, "{part}");
        let log = dir.join(format!("cut-{}.log", &part[..1]));
        let cut = [&mode[..], &["--node-limit", "3000"]].concat();
        let mut runs = 0;
        let last = loop {
            runs += 1;
            let r = run(part, &log, &cut);
            if r["status"].str() != "UNKNOWN" || runs == 200 {
                break r;
            }
            assert!(side(&log).exists(), "{part}: run {runs} kept no nogoods");
        };
        assert_eq!(last["status"].str(), answer, "{part}, after {runs} runs");
        assert_eq!(last["solutions"].int(), count, "{part}, after {runs} runs");
        assert!(
            runs > 3,
            "{part}: {runs} runs, so no sub-problem was longer than one"
        );
        // A part ended whole needs none of them any more.
        if count == 0 {
            assert!(
                !side(&log).exists(),
                "{part}: nogoods left for ended sub-problems"
            );
        }
    }
    // Without them each run searches the same 3,000 nodes again.
    let log = dir.join("forgetful.log");
    for _ in 0..3 {
        let _ = std::fs::remove_file(side(&log));
        let r = run("2/8", &log, &["-n", "1", "--node-limit", "3000"]);
        assert_eq!(r["status"].str(), "UNKNOWN");
        assert_eq!(empties(&log), 0);
    }
}

/// Runs part `k/n` split into `m` sub-parts (`--part K/N:J/M`), each output
/// in its own file under `dir`.
fn run_sub_parts(dir: &Path, args: &[&str], k: usize, n: usize, m: usize) -> Vec<PathBuf> {
    (1..=m)
        .map(|j| run_piece(dir, args, &format!("{k}/{n}:{j}/{m}")))
        .collect()
}

/// A part too long to run at once is split into sub-parts (`--part
/// K/N:J/M`): they cover the part's sub-problems exactly, so the part's
/// count, solutions and optimum come out of them, and `cspi merge` takes
/// them in its place: counting, listing every solution and optimising.
#[test]
fn sub_parts_merge_into_their_part() {
    let dir = scratch("distributed-sub-parts");
    let sum = |files: &[PathBuf]| -> i64 {
        files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f).unwrap();
                json::parse(text.lines().last().unwrap()).unwrap()["solutions"].int()
            })
            .sum()
    };
    let count = ["solve", "models/n-queens.csp", "--param", "n=10", "--count"];
    let whole = run_parts(&dir, &count, 4);
    let subs = run_sub_parts(&dir, &count, 3, 4, 5);
    assert_eq!(sum(&subs), sum(&whole[2..3]));
    assert!(sum(&whole[2..3]) > 0);
    let mut files = vec![whole[0].clone(), whole[1].clone(), whole[3].clone()];
    files.extend(subs.iter().cloned());
    let s = summary(&merge(&files, true));
    assert_eq!(
        (s["solutions"].int(), s["status"].str()),
        (724, "ALL_SOLUTIONS")
    );
    // The sub-parts say which they are.
    let text = std::fs::read_to_string(&subs[1]).unwrap();
    let own = json::parse(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        (own["part"]["sub"]["k"].int(), own["part"]["sub"]["n"].int()),
        (2, 5)
    );
    // A sub-part split again (`3/4:1/5:J/2`) stands for it.
    let deeper: Vec<PathBuf> = (1..=2)
        .map(|j| run_piece(&dir, &count, &format!("3/4:1/5:{j}/2")))
        .collect();
    assert_eq!(sum(&deeper), sum(&subs[0..1]));
    let mut nested: Vec<PathBuf> = files.iter().filter(|f| **f != subs[0]).cloned().collect();
    let others = nested.clone();
    nested.extend(deeper);
    let s = summary(&merge(&nested, true));
    assert_eq!(s["solutions"].int(), 724);
    // So does one split with its children spread evenly (`3/4:1/5:J/3e`,
    // every sub-problem of 3/4:1/5 split, not only its first ones): other
    // pieces, the same solutions.
    let even: Vec<PathBuf> = (1..=3)
        .map(|j| run_piece(&dir, &count, &format!("3/4:1/5:{j}/3e")))
        .collect();
    assert_eq!(sum(&even), sum(&subs[0..1]));
    let text = std::fs::read_to_string(&even[2]).unwrap();
    let own = json::parse(text.lines().last().unwrap()).unwrap();
    let level = &own["part"]["sub"]["sub"];
    assert_eq!((level["k"].int(), level["n"].int()), (3, 3));
    assert!(level["even"].as_bool().unwrap_or(false), "{own}");
    let mut spread = others.clone();
    spread.extend(even);
    let s = summary(&merge(&spread, true));
    assert_eq!(s["solutions"].int(), 724);
    // Without one of them the part is incomplete, and merge says so.
    files.pop();
    let r = merge(&files, false);
    assert!(
        r.code == 1 && r.stderr.contains("3/4:5/5 missing"),
        "{}",
        r.stderr
    );

    let all_dir = dir.join("all");
    std::fs::create_dir_all(&all_dir).unwrap();
    let all = ["solve", "models/n-queens.csp", "--param", "n=7", "--all"];
    let mut files = vec![run_parts(&all_dir, &all, 2).remove(0)];
    files.extend(run_sub_parts(&all_dir, &all, 2, 2, 3));
    let merged = merge(&files, true);
    let lines: Vec<&str> = merged.stdout.lines().collect();
    let got: BTreeSet<&str> = lines[..lines.len() - 1].iter().copied().collect();
    assert_eq!(got.len(), 40, "{}", merged.stdout);
    assert_eq!(summary(&merged)["solutions"].int(), 40);

    let best_dir = dir.join("best");
    std::fs::create_dir_all(&best_dir).unwrap();
    let best = ["solve", "models/knapsack.csp", "--param", "capacity=100"];
    let mut files = vec![run_parts(&best_dir, &best, 2).remove(0)];
    files.extend(run_sub_parts(&best_dir, &best, 2, 2, 4));
    let s = summary(&merge(&files, true));
    let w = cspi(&[&best[..], &["--format", "json"]].concat());
    let w = json::parse(w.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(s["status"].str(), "OPTIMAL");
    assert_eq!(s["objective"].int(), w["objective"].int());
}

#[test]
fn parts_that_do_not_belong_together_are_refused() {
    let dir = scratch("distributed-refused");
    let a = run_parts(
        &dir.join(""),
        &["solve", "models/n-queens.csp", "--param", "n=6", "--count"],
        2,
    );
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let b = run_parts(
        &other,
        &["solve", "models/n-queens.csp", "--param", "n=7", "--count"],
        2,
    );
    let r = merge(&[a[0].clone(), b[1].clone()], false);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("do not belong together"), "{}", r.stderr);
    let r = merge(&[a[0].clone()], false);
    assert!(
        r.code == 1 && r.stderr.contains("part is 2 of 2 missing"),
        "{}",
        r.stderr
    );
    let r = merge(&[a[0].clone(), a[0].clone()], false);
    assert!(
        r.code == 1 && r.stderr.contains("appears twice"),
        "{}",
        r.stderr
    );
    // A plain run is not a part.
    let plain = dir.join("plain.jsonl");
    let r = cspi(&[
        "solve",
        "models/n-queens.csp",
        "--count",
        "--format",
        "json",
    ]);
    std::fs::write(&plain, r.stdout).unwrap();
    let r = merge(&[plain], false);
    assert!(r.code == 1 && r.stderr.contains("--part"), "{}", r.stderr);
    let too_deep = format!("1/4{}", ":1/2".repeat(cspi::part::MAX_NEST + 1));
    for bad in [
        "0/4",
        "5/4",
        "3",
        "x/2",
        "1/4:0/2",
        "1/4:3/2",
        "1/4e",
        "1/4:1/2ee",
        "1/4:1e/2",
        &too_deep,
    ] {
        let r = cspi(&["solve", "models/n-queens.csp", "--part", bad]);
        assert_eq!(r.code, 2, "--part {bad}: {}", r.stderr);
    }
}

/// scripts/run-parts.py, the resumable runner of a split on one machine:
/// the merged count is the whole count; a part that stopped early (its
/// summary UNKNOWN) runs again and only it; a model with no solution
/// merges to UNSATISFIABLE. Needs python3 (as the Python package does):
/// without it the test says so, and fails under `CSPI_REQUIRE_PYTHON=1`.
/// Whether python3 runs here; when it does not, says which test it skips
/// (and fails the test when CSPI_REQUIRE_PYTHON=1, as in CI).
fn has_python(what: &str) -> bool {
    let probe = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if probe.is_ok_and(|o| o.status.success()) {
        return true;
    }
    let message = format!("{what} NOT TESTED: no python3");
    if std::env::var("CSPI_REQUIRE_PYTHON").is_ok_and(|v| v == "1") {
        panic!("{message}");
    }
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
    false
}

/// Runs a Python script of the repository: `python3 ROOT/script args...`.
fn python<S: AsRef<std::ffi::OsStr>>(
    script: &str,
    args: impl IntoIterator<Item = S>,
) -> std::process::Output {
    std::process::Command::new("python3")
        .arg(crate::common::root().join(script))
        .args(args)
        .output()
        .expect("run python3")
}

/// What a script run printed, once it is checked to have succeeded.
fn succeeded(out: &std::process::Output) -> String {
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    said
}

/// The proof's figures (`proofs/themeless15/status.py`): a part ends whole
/// as one piece or as every sub-part of its split, its CPU summed over them;
/// a piece begun and not ended is named with what its log holds.
#[test]
fn the_proofs_status_counts_parts_ended_whole_and_their_cpu() {
    if !has_python("PROOF STATUS") {
        return;
    }
    let dir = scratch("proof-status");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let unsat = "{\"type\":\"summary\",\"status\":\"UNSATISFIABLE\",\"solutions\":0}\n";
    let put = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    put("part-1.jsonl", unsat);
    put("part-1.cpu", "10.0\n");
    // Part 2 cut off, run as two sub-parts (split evenly, `J/2e`): one
    // ended, one begun.
    put("part-2.jsonl", "");
    put("part-2.1-of-2e.jsonl", unsat);
    put("part-2.1-of-2e.cpu", "3.0\n");
    put("part-2.2-of-2e.jsonl", "");
    put(
        "part-2.2-of-2e.log",
        "{\"type\":\"part-log\"}\n{\"type\":\"start\"}\n{\"type\":\"empty\",\"index\":0,\"path\":\"1\"}\n",
    );
    let status = || {
        let args = ["--dir", dir.to_str().unwrap(), "--parts", "3"];
        succeeded(&python("proofs/themeless15/status.py", args))
    };
    let first = status();
    assert!(
        first.starts_with("1 of 3 parts ended whole, every one without a fill"),
        "{first}"
    );
    assert!(first.contains("over the 1 timed: 10 s in all"), "{first}");
    assert!(
        first.contains(
            "begun, not ended: part-2.2-of-2e.jsonl (its log: 1 sub-problem ended empty, 1 run)"
        ),
        "{first}"
    );
    put("part-2.2-of-2e.jsonl", unsat);
    put("part-2.2-of-2e.cpu", "5.0\n");
    let second = status();
    assert!(second.starts_with("2 of 3 parts ended whole"), "{second}");
    assert!(
        second.contains("over the 2 timed: 18 s in all, median 9 s, mean 9 s, longest 10 s"),
        "{second}"
    );
    assert!(!second.contains("begun"), "{second}");
    // A part with a fill is not counted as one without.
    put(
        "part-3.jsonl",
        "{\"type\":\"summary\",\"status\":\"SATISFIABLE\",\"solutions\":1}\n",
    );
    let third = status();
    assert!(
        third.starts_with("3 of 3 parts ended whole, statuses"),
        "{third}"
    );
}

/// A fresh `dir` holding a stand-in for cspi that spins on part 1 of 2
/// (CPU, no records; bounded, so that a runner that failed to stop it leaves
/// no spinner behind for long) and hands every other piece to cspi.
fn spinner_on_part_1(dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let spin = dir.join("spin-on-part-1.sh");
    std::fs::write(
        &spin,
        format!(
            "#!/bin/sh\ncase \" $* \" in *\" --part 1/2 \"*) i=0; while [ $i -lt 200000000 ]; do i=$((i+1)); done;; esac\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_cspi")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&spin, std::fs::Permissions::from_mode(0o755)).unwrap();
    spin
}

/// Counts n-queens 8 in two parts through `run-parts.py --logs --resplit 2
/// --stall S`, with `spin` standing in for cspi: what it said.
fn run_parts_spinning(parts: &Path, spin: &Path, stall: &str) -> String {
    let queens = crate::common::model("n-queens.csp");
    let (parts, spin, queens) = (
        parts.to_str().unwrap(),
        spin.to_str().unwrap(),
        queens.to_str().unwrap(),
    );
    let args = [
        "--dir",
        parts,
        "--parts",
        "2",
        "--jobs",
        "2",
        "--logs",
        "--resplit",
        "2",
        "--stall",
        stall,
        "--cspi",
        spin,
        "--",
        "solve",
        queens,
        "--count",
        "--threads",
        "1",
    ];
    succeeded(&python("scripts/run-parts.py", args))
}

/// A stalled piece's stall clock outlives a sitting: the runner keeps beside
/// the piece (.stall) the CPU it spent since its log's last record, and a
/// later sitting that takes the piece up from the same record counts it. Here
/// a kept 999.5 s, against `--stall 1000`, splits the piece within a second
/// of its CPU; a kept figure for another record count is ignored.
#[test]
fn run_parts_counts_a_cut_off_stall_in_the_next_sitting() {
    if !has_python("RUN-PARTS --STALL") {
        return;
    }
    let dir = scratch("run-parts-stall-kept");
    let spin = spinner_on_part_1(&dir);
    let parts = dir.join("parts");
    std::fs::create_dir_all(&parts).unwrap();
    // Part 1 was taken up from its log before (one sub-problem recorded in
    // its last run, so it is not split at the start), then cut off.
    std::fs::write(
        parts.join("part-1.log"),
        concat!(
            r#"{"fingerprint":"0","part":"1/2","type":"part-log"}"#,
            "\n",
            r#"{"type":"start"}"#,
            "\n",
            r#"{"type":"empty","index":0,"path":"0","cpu":0.1}"#,
            "\n"
        ),
    )
    .unwrap();
    let kept = |records| format!(r#"{{"records": {records}, "cpu": 999.5}}"#);
    std::fs::write(parts.join("part-1.stall"), kept(1)).unwrap();
    std::fs::write(parts.join("part-2.stall"), kept(7)).unwrap();
    let said = run_parts_spinning(&parts, &spin, "1000");
    assert!(
        said.contains("part 1/2: no sub-problem ended in 1000 s of CPU; run as 2 sub-parts"),
        "{said}"
    );
    assert!(said.contains("part 2/2: ALL_SOLUTIONS"), "{said}");
    assert!(said.contains("92 solutions (ALL_SOLUTIONS)"), "{said}");
    // A piece's .stall goes when it ends.
    assert!(!parts.join("part-1.stall").exists(), "{said}");
    assert!(!parts.join("part-2.stall").exists(), "{said}");
}

/// `run-parts.py --stall S`: a piece that records no sub-problem ended for S
/// seconds of its CPU is stopped and run as sub-parts at once, and the run
/// still merges into the whole answer. The stall is made certain, whatever
/// the machine's speed, by a stand-in for cspi that spins on part 1.
#[test]
fn run_parts_splits_a_stalled_piece_at_once() {
    if !has_python("RUN-PARTS --STALL") {
        return;
    }
    let dir = scratch("run-parts-stall");
    let spin = spinner_on_part_1(&dir);
    let parts = dir.join("parts");
    let said = run_parts_spinning(&parts, &spin, "1");
    let parts_dir = parts.to_str().unwrap();
    assert!(
        said.contains("part 1/2: no sub-problem ended in 1 s of CPU; run as 2 sub-parts"),
        "{said}"
    );
    assert!(
        said.contains("part 1/2:1/2e: ALL_SOLUTIONS")
            && said.contains("part 1/2:2/2e: ALL_SOLUTIONS"),
        "{said}"
    );
    assert!(said.contains("92 solutions (ALL_SOLUTIONS)"), "{said}");
    assert!(parts.join("part-1.2-of-2e.log").exists(), "{said}");
    // Without --resplit (or --logs) there is nothing to split it into.
    let refused = python(
        "scripts/run-parts.py",
        [
            "--dir", parts_dir, "--parts", "2", "--logs", "--stall", "1", "--", "solve", "m.csp",
        ],
    );
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--stall S needs --logs and --resplit M"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn run_parts_resumes_and_merges_into_the_whole_run() {
    if !has_python("RUN-PARTS") {
        return;
    }
    let dir = scratch("run-parts");
    let _ = std::fs::remove_dir_all(&dir);
    let queens = crate::common::model("n-queens.csp");
    let run_split = |out: &Path, model: &Path, more: &[&str], split: &[&str]| {
        let mut args = vec![
            "--dir",
            out.to_str().unwrap(),
            "--parts",
            "4",
            "--jobs",
            "2",
        ];
        args.extend_from_slice(split);
        args.extend(["--cspi", env!("CARGO_BIN_EXE_cspi"), "--", "solve"]);
        args.push(model.to_str().unwrap());
        args.extend_from_slice(more);
        succeeded(&python("scripts/run-parts.py", args))
    };
    let run = |out: &Path, model: &Path, more: &[&str]| run_split(out, model, more, &[]);
    let parts = dir.join("queens");
    let first = run(&parts, &queens, &["--param", "n=8", "--count"]);
    assert!(first.starts_with("0 of 4 parts finished before"), "{first}");
    assert!(first.contains("92 solutions (ALL_SOLUTIONS)"), "{first}");
    // Each finished part's CPU is kept, for the estimate of later sittings.
    for k in 1..=4 {
        let cpu = std::fs::read_to_string(parts.join(format!("part-{k}.cpu"))).unwrap();
        assert!(cpu.trim().parse::<f64>().is_ok_and(|t| t >= 0.0), "{cpu}");
    }
    assert!(first.contains("over the 4 timed"), "{first}");
    // Part 3 as a run stopped by its node limit leaves it: it runs again, alone.
    let stopped = cspi(&[
        "solve",
        queens.to_str().unwrap(),
        "--param",
        "n=8",
        "--count",
        "--part",
        "3/4",
        "--node-limit",
        "1",
        "--format",
        "json",
    ]);
    // Stopped in the split, and it says by what (a part other than the
    // first once dropped the split's nodes, and blamed the time limit).
    assert!(
        stopped
            .stdout
            .contains("\"status\":\"UNKNOWN\",\"solutions\":0,\"stopped_by\":\"node limit\""),
        "{}",
        stopped.stdout
    );
    std::fs::write(parts.join("part-3.jsonl"), &stopped.stdout).unwrap();
    let again = run(&parts, &queens, &["--param", "n=8", "--count"]);
    assert!(
        again.starts_with("3 of 4 parts finished before; 1 to run"),
        "{again}"
    );
    assert!(again.contains("part 3/4: ALL_SOLUTIONS"), "{again}");
    // The estimate counts the parts timed in the sitting before too.
    assert!(
        again.contains("mean") && again.contains("over the 4 timed"),
        "{again}"
    );
    assert!(again.contains("92 solutions (ALL_SOLUTIONS)"), "{again}");
    let unsat = dir.join("unsat.csp");
    std::fs::write(
        &unsat,
        "var x in 1..9;\nconstraint x > 4;\nconstraint x < 3;\n",
    )
    .unwrap();
    let none = run(&dir.join("unsat"), &unsat, &[]);
    assert!(none.contains("UNSATISFIABLE"), "{none}");
    // A search for one solution is answered by the first part that finds
    // one: the rest are stopped or never started, and the partial merge
    // gives the solution; a later sitting runs nothing.
    let one = dir.join("one");
    let found = run(&one, &queens, &["--param", "n=8"]);
    assert!(
        found.contains("found a solution: the run is answered"),
        "{found}"
    );
    assert!(
        found.contains("1 solution (SATISFIABLE)") || found.contains("2 solutions (SATISFIABLE)"),
        "{found}"
    );
    assert!(found.contains("of 4 parts; missing: "), "{found}");
    assert!(!one.join("part-4.jsonl").exists(), "{found}");
    let again = run(&one, &queens, &["--param", "n=8"]);
    assert!(
        again.contains("found a solution before: the run is answered"),
        "{again}"
    );
    assert!(again.contains("(SATISFIABLE)"), "{again}");
    // A part stopped early and split for its next sitting: its sub-parts
    // run, and merge in its place; a part finished whole is not split.
    std::fs::write(parts.join("part-2.jsonl"), &stopped.stdout).unwrap();
    // Its first sub-part split again, evenly (`--split 2:1:2e`, `--part
    // 2/4:1/3:I/2e`).
    let split = ["--split", "2:3", "--split", "4:2", "--split", "2:1:2e"];
    let again = run_split(&parts, &queens, &["--param", "n=8", "--count"], &split);
    assert!(
        again.starts_with("3 of 4 parts finished before; 4 to run"),
        "{again}"
    );
    assert!(again.contains("part 2/4:3/3: ALL_SOLUTIONS"), "{again}");
    assert!(
        again.contains("part 2/4:1/3:2/2e: ALL_SOLUTIONS"),
        "{again}"
    );
    assert!(
        !again.contains("part 2/4:1/3: ") && !again.contains("part 4/4:"),
        "{again}"
    );
    assert!(again.contains("92 solutions (ALL_SOLUTIONS)"), "{again}");
    assert!(parts.join("part-2.1-of-3.2-of-2e.jsonl").exists());
    // Taken up with `--resplit` and no `--split`: part 2 keeps the split its
    // files show (`J/3`), and its sub-part cut off now is split evenly.
    std::fs::write(parts.join("part-2.2-of-3.jsonl"), "").unwrap();
    let again = run_split(
        &parts,
        &queens,
        &["--param", "n=8", "--count"],
        &["--resplit", "2"],
    );
    assert!(
        again.contains("part 2/4:2/3:1/2e: ALL_SOLUTIONS")
            && again.contains("part 2/4:2/3:2/2e: ALL_SOLUTIONS"),
        "{again}"
    );
    assert!(again.contains("92 solutions (ALL_SOLUTIONS)"), "{again}");
    // What a sitting's end cut off (a file without a summary) runs as
    // sub-parts at the next (`--resplit M`); a sub-part cut off in turn is
    // split again, and the part keeps the number it was split into.
    let cut = dir.join("cut");
    let count = ["--param", "n=8", "--count"];
    run(&cut, &queens, &count);
    // Cuts `file` off, resumes with `--resplit m`: `runs` pieces run, the
    // whole count merged, and what it said.
    let resume = |file: &str, m: &str, runs: usize, piece: &str| {
        std::fs::write(cut.join(file), "").unwrap();
        let again = run_split(&cut, &queens, &count, &["--resplit", m]);
        let start = format!("3 of 4 parts finished before; {runs} to run");
        assert!(again.starts_with(&start), "{again}");
        assert!(
            again.contains(&format!("part {piece}: ALL_SOLUTIONS")),
            "{again}"
        );
        assert!(again.contains("92 solutions (ALL_SOLUTIONS)"), "{again}");
        again
    };
    // Split so, a piece's children are spread evenly (`J/Me`): a piece cut
    // off in one of its last sub-problems has that one split too.
    resume("part-3.jsonl", "2", 2, "3/4:2/2e");
    let again = resume("part-3.1-of-2e.jsonl", "3", 3, "3/4:1/2e:3/3e");
    assert!(!again.contains("part 3/4:2/2e"), "{again}");
    // A part that ended on an error of cspi's is not split: it runs whole.
    std::fs::write(cut.join("part-4.err"), "  × cannot read model `m.csp`\n").unwrap();
    let again = resume("part-4.jsonl", "2", 1, "4/4");
    assert!(!cut.join("part-4.1-of-2.jsonl").exists(), "{again}");
    // With `--logs` each piece keeps its empty sub-problems (`--part-log`):
    // one cut off after some of them takes up from there, whole, where
    // `--resplit` would have split it; one whose last run recorded nothing
    // (cut off inside a sub-problem) is split as before.
    let pigeons = pigeons(&dir);
    let logged = dir.join("logged");
    let count = ["--count", "--threads", "1"];
    let first = run_split(&logged, &pigeons, &count, &["--logs"]);
    assert!(first.contains("40320 solutions (ALL_SOLUTIONS)"), "{first}");
    assert!(logged.join("part-3.log").exists(), "{first}");
    let log1 = logged.join("part-1.log");
    std::fs::remove_file(&log1).unwrap();
    let stopped = cspi(&[
        "solve",
        pigeons.to_str().unwrap(),
        "--count",
        "--threads",
        "1",
        "--part",
        "1/4",
        "--part-log",
        log1.to_str().unwrap(),
        "--node-limit",
        "60000",
        "--format",
        "json",
    ]);
    assert!(
        stopped.stdout.contains("\"stopped_by\":\"node limit\""),
        "{}",
        stopped.stdout
    );
    assert!(
        std::fs::read_to_string(&log1)
            .unwrap()
            .contains("\"empty\"")
    );
    std::fs::write(logged.join("part-1.jsonl"), &stopped.stdout).unwrap();
    // Each record carries the CPU its run had spent; the runner counts the
    // last one of each earlier run in the part's time (a record of no
    // sub-problem stands in for a long run here).
    let mut text = std::fs::read_to_string(&log1).unwrap();
    assert!(text.contains("\"cpu\":"), "{text}");
    text.push_str("{\"type\":\"empty\",\"index\":99999,\"path\":\"0\",\"cpu\":7.5}\n");
    std::fs::write(&log1, text).unwrap();
    let resume = ["--logs", "--resplit", "2"];
    let again = run_split(&logged, &pigeons, &count, &resume);
    assert!(
        again.starts_with("3 of 4 parts finished before; 1 to run"),
        "{again}"
    );
    assert!(again.contains("part 1/4: ALL_SOLUTIONS"), "{again}");
    assert!(again.contains(" and 7.5 s in earlier runs"), "{again}");
    let cpu1: f64 = std::fs::read_to_string(logged.join("part-1.cpu"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(cpu1 >= 7.5, "{cpu1}");
    assert!(again.contains("40320 solutions (ALL_SOLUTIONS)"), "{again}");
    let summary1 = std::fs::read_to_string(logged.join("part-1.jsonl")).unwrap();
    assert!(summary1.contains("\"resumed\":"), "{summary1}");
    // A run that started and recorded nothing before it was cut off.
    let mut text = std::fs::read_to_string(&log1).unwrap();
    text.push_str("{\"type\":\"start\"}\n");
    std::fs::write(&log1, text).unwrap();
    std::fs::write(logged.join("part-1.jsonl"), "").unwrap();
    let again = run_split(&logged, &pigeons, &count, &resume);
    assert!(
        again.starts_with("3 of 4 parts finished before; 2 to run"),
        "{again}"
    );
    assert!(
        again.contains("part 1/4:1/2e: ") && again.contains("part 1/4:2/2e: "),
        "{again}"
    );
    assert!(again.contains("40320 solutions (ALL_SOLUTIONS)"), "{again}");
    assert!(logged.join("part-1.2-of-2e.log").exists(), "{again}");
}

/// A piece that cannot run (here a data file that is not there) stops the
/// runner with cspi's exit code: every other part would fail alike, each
/// leaving an empty output.
#[test]
fn run_parts_stops_at_a_run_that_cannot_start() {
    if !has_python("RUN-PARTS REFUSED") {
        return;
    }
    let dir = scratch("run-parts-refused");
    let _ = std::fs::remove_dir_all(&dir);
    let model = crate::common::model("crossword.csp");
    let missing = dir.join("no-such-list.txt");
    let out = python(
        "scripts/run-parts.py",
        [
            "--dir",
            dir.to_str().unwrap(),
            "--parts",
            "8",
            "--jobs",
            "1",
            "--cspi",
            env!("CARGO_BIN_EXE_cspi"),
            "--",
            "solve",
            model.to_str().unwrap(),
            "--param",
            &format!("dict={}", missing.display()),
        ],
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("part 1/8: not finished (exit 1") && said.contains("could not run"),
        "{said}"
    );
    assert!(!said.contains("part 2/8"), "{said}");
    let err = std::fs::read_to_string(dir.join("part-1.err")).unwrap();
    assert!(err.contains("no-such-list.txt"), "{err}");
}
