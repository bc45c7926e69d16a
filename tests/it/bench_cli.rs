//! `cspi bench` and the strategy flags, through the binary.

use std::process::Command;

fn cspi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(args)
        .output()
        .expect("cspi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_runs_the_cross_product_and_every_row_counts_the_same() {
    let (code, out, err) = cspi(&[
        "bench",
        "models/n-queens.csp",
        "--param",
        "n=6",
        "--var",
        "input,mrv,dom-wdeg,random",
        "--val",
        "min,lcv",
        "--propagation",
        "none,fc,ac",
        "--runs",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| var"))
        .collect();
    assert_eq!(rows.len(), 4 * 2 * 3, "{out}");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[5], "ALL_SOLUTIONS", "{row}");
        assert_eq!(cells[6], "4", "n-queens 6 has 4 solutions: {row}");
    }
}

#[test]
fn bench_json_has_one_record_per_run() {
    let (code, out, _) = cspi(&[
        "bench",
        "models/n-queens.csp",
        "--param",
        "n=5",
        "--var",
        "mrv,random",
        "--runs",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("{\"type\":\"run\"") && l.contains("\"solutions\":10"))
    );
}

#[test]
fn fewer_nodes_with_propagation_than_without() {
    let (_, out, _) = cspi(&[
        "bench",
        "models/n-queens.csp",
        "--var",
        "mrv",
        "--propagation",
        "none,fc,ac",
        "--format",
        "json",
    ]);
    let nodes: Vec<u64> = out
        .lines()
        .map(|l| {
            let at = l.find("\"nodes\":").expect("nodes") + 8;
            l[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(
        nodes[0] > nodes[1] && nodes[1] > nodes[2],
        "none > fc > ac expected: {nodes:?}"
    );
}

#[test]
fn unknown_strategy_names_list_the_valid_ones() {
    for (flag, bad, valid) in [
        ("--var", "mvr", "mrv"),
        ("--val", "smallest", "lcv"),
        ("--propagation", "full", "fc"),
        ("--restarts", "always", "luby"),
    ] {
        let (code, _, err) = cspi(&["solve", "models/n-queens.csp", flag, bad]);
        assert_eq!(code, 2, "{flag} {bad}: {err}");
        assert!(
            err.contains(bad) && err.contains(valid),
            "{flag} {bad}: {err}"
        );
    }
    let (code, _, err) = cspi(&["bench", "models/n-queens.csp", "--var", "mrv,nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("nope") && err.contains("dom-wdeg"), "{err}");
}

#[test]
fn conflicting_solve_modes_are_usage_errors() {
    let (code, _, err) = cspi(&["solve", "models/n-queens.csp", "--all", "--count"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = cspi(&["solve", "models/n-queens.csp", "-n", "2", "--count"]);
    assert_eq!(code, 2);
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let args = [
        "solve",
        "models/n-queens.csp",
        "--param",
        "n=10",
        "--var",
        "random",
        "--val",
        "random",
        "--seed",
        "42",
        "--count",
        // One thread: with the default (every core) the split of the work
        // between threads depends on the machine's load, and so do the nodes.
        "--threads",
        "1",
        "--format",
        "json",
    ];
    let strip_time = |s: String| {
        s.split("\"time_ms\"")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let (_, a, _) = cspi(&args);
    let (_, b, _) = cspi(&args);
    assert_eq!(strip_time(a.clone()), strip_time(b));
    let mut other = args.to_vec();
    other[9] = "43";
    let (_, c, _) = cspi(&other);
    assert_ne!(
        strip_time(a),
        strip_time(c),
        "another seed should explore differently"
    );
}

#[test]
fn a_strategy_that_does_not_apply_is_refused() {
    let (code, _, err) = cspi(&["solve", "models/n-queens.csp", "--val", "score"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("score") && err.contains("word"), "{err}");
    let (code, _, err) = cspi(&["bench", "models/n-queens.csp", "--val", "min,score"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bench_compares_the_optimum_of_an_optimisation_model() {
    // The strategies find different improving solutions on the way; the
    // optimum (3 colours for the Petersen graph) and its proof must agree.
    let (code, out, err) = cspi(&[
        "bench",
        "models/graph-colouring.csp",
        "--val",
        "min,max",
        "--var",
        "input,dom-wdeg",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| var"))
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells[5], "OPTIMAL", "{row}");
        assert_eq!(cells[7], "3", "the optimum: {row}");
    }
    let (code, out, _) = cspi(&[
        "bench",
        "models/graph-colouring.csp",
        "--val",
        "min,max",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    for line in out.lines() {
        assert!(
            line.contains("\"status\":\"OPTIMAL\",") && line.contains("\"objective\":3,"),
            "{line}"
        );
    }
}
