//! cspi as a MiniZinc solver: a FlatZinc conformance suite. Each small
//! MiniZinc model below goes through `minizinc` twice, once with Gecode on
//! MiniZinc's standard decompositions (`--solver gecode -G std`: Debian's
//! Gecode library is broken for globals, ../shared/peers/msc/README.md) and
//! once with cspi's solver configuration (share/minizinc/cspi.msc with its
//! library, the executable pointed at the binary under test). Satisfaction:
//! the sets of all solutions must be equal; optimisation: the optimum, both
//! proved; unsatisfiable: both say so.
//!
//! Without `minizinc` on the PATH the tests print `skipped: minizinc not
//! found` and pass, unless `CSPI_REQUIRE_MINIZINC=1` (as `.ci/run` sets,
//! after installing it), where they fail.

use crate::common;

use crate::common::{root, scratch};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether minizinc runs; `false` (after saying so) when it is absent.
fn have_minizinc() -> bool {
    let ok = Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CSPI_REQUIRE_MINIZINC").is_ok_and(|v| v == "1") {
            panic!(
                "minizinc not found, and CSPI_REQUIRE_MINIZINC=1: install it (apt-get install minizinc)"
            );
        }
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "skipped: minizinc not found");
    }
    ok
}

/// A copy of share/minizinc/cspi.msc whose executable runs the binary under
/// test and whose library is the repository's.
fn cspi_msc(dir: &Path) -> PathBuf {
    let shipped = std::fs::read_to_string(root().join("share/minizinc/cspi.msc")).unwrap();
    let script = dir.join("fzn-cspi-test");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec '{}' fzn --check-solutions \"$@\"\n",
            env!("CARGO_BIN_EXE_cspi")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let lib = root().join("share/minizinc/cspi");
    let msc = shipped
        .replace(
            "\"executable\": \"fzn-cspi\"",
            &format!("\"executable\": \"{}\"", script.display()),
        )
        .replace(
            "\"mznlib\": \"cspi\"",
            &format!("\"mznlib\": \"{}\"", lib.display()),
        );
    assert!(msc.contains("fzn-cspi-test") && msc.contains(&*lib.to_string_lossy()));
    let path = dir.join("cspi-test.msc");
    std::fs::write(&path, msc).unwrap();
    path
}

/// What a run printed: its solutions (each the text before `----------`)
/// and its last status line.
#[derive(Debug)]
struct Run {
    solutions: Vec<String>,
    complete: bool,
    unsat: bool,
}

fn run(solver: &[&str], model: &Path) -> Run {
    let out = Command::new("minizinc")
        .args(solver)
        .arg("-a")
        .arg(model)
        .output()
        .expect("run minizinc");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "minizinc {solver:?} failed on {}:\n{stdout}\n{}",
        model.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut solutions = Vec::new();
    let mut current = String::new();
    let (mut complete, mut unsat) = (false, false);
    for line in stdout.lines() {
        match line {
            "----------" => solutions.push(std::mem::take(&mut current)),
            "==========" => complete = true,
            "=====UNSATISFIABLE=====" => unsat = true,
            l if l.starts_with('%') || l.starts_with("=====") => {}
            l => {
                current.push_str(l);
                current.push('\n');
            }
        }
    }
    Run {
        solutions,
        complete,
        unsat,
    }
}

/// Solves `model` with both solvers and compares.
fn conform(name: &str, model: &str) {
    if !have_minizinc() {
        return;
    }
    let dir = scratch(&format!("minizinc-{name}"));
    let path = dir.join(format!("{name}.mzn"));
    std::fs::write(&path, model).unwrap();
    let msc = cspi_msc(&dir);
    let gecode = run(&["--solver", "gecode", "-G", "std"], &path);
    let cspi = run(&["--solver", msc.to_str().unwrap()], &path);
    let optimising = model.contains("minimize") || model.contains("maximize");
    assert_eq!(
        cspi.unsat, gecode.unsat,
        "{name}: unsatisfiable?\ncspi {cspi:?}\ngecode {gecode:?}"
    );
    assert!(
        gecode.complete || gecode.unsat,
        "{name}: Gecode did not finish"
    );
    assert!(
        cspi.complete || cspi.unsat,
        "{name}: cspi did not finish: {cspi:?}"
    );
    if optimising {
        // The last solution holds the optimum; its other values may differ.
        let objective = |r: &Run| {
            r.solutions.last().and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("objective"))
                    .map(str::to_string)
            })
        };
        assert_eq!(objective(&cspi), objective(&gecode), "{name}: optimum");
        assert!(
            objective(&cspi).is_some() || cspi.unsat,
            "{name}: no objective line"
        );
    } else {
        let set = |r: &Run| r.solutions.iter().cloned().collect::<BTreeSet<_>>();
        let (c, g) = (set(&cspi), set(&gecode));
        assert_eq!(
            cspi.solutions.len(),
            c.len(),
            "{name}: cspi printed a solution twice"
        );
        assert_eq!(c.len(), g.len(), "{name}: number of solutions");
        assert_eq!(c, g, "{name}: solutions");
    }
}

macro_rules! conformance {
    ($($name:ident: $model:expr;)*) => {
        $(#[test] fn $name() { conform(stringify!($name), $model); })*
    };
}

conformance! {
    int_linear: "
        array[1..3] of var -2..3: x;
        constraint 2*x[1] - 3*x[2] + x[3] <= 2;
        constraint x[1] + x[2] != 1;
        constraint (3*x[1] + x[3] = x[2] + 1) \\/ x[1] = 0;
        constraint x[3] > x[1] -> x[2] < 2;
        solve satisfy;";
    int_compare_reif: "
        var -3..3: a; var -3..3: b; var bool: p;
        constraint p <-> (a < b);
        constraint (a = b) \\/ (a >= 2 /\\ b != 0) \\/ p;
        constraint not (a > 1 /\\ b > 1);
        solve satisfy;";
    int_arithmetic: "
        var -3..3: a; var -3..3: b; var -9..9: c;
        constraint c = a * b \\/ (b != 0 /\\ c = a div b);
        constraint c != a mod 2 + 1 \\/ a = 0;
        constraint abs(a) + min(a, b) - max(a, b) <= 1;
        constraint pow(b, 2) <= 4;
        solve satisfy;";
    int_div_mod_signs: "
        var -7..7: a; var -3..3: b; var -7..7: q; var -7..7: r;
        constraint b != 0 /\\ q = a div b /\\ r = a mod b /\\ a >= 5;
        solve satisfy;";
    element_and_extrema: "
        array[1..5] of int: t = [3, 1, 4, 1, 5];
        var 1..5: i; var 0..9: v; var 1..3: j;
        array[1..3] of var 0..2: y;
        constraint v = t[i];
        constraint y[j] = 2 /\\ y[4 - j] = v mod 3;
        constraint max(y) - min(y) = 1 \\/ v = 5;
        solve satisfy;";
    bool_logic: "
        var bool: p; var bool: q; var bool: r;
        array[1..4] of var bool: bs;
        constraint (p -> q) \\/ r;
        constraint p xor r;
        constraint xorall(bs) = q;
        constraint bool2int(p) + bool2int(q) + sum(i in 1..4)(bool2int(bs[i])) = 3;
        constraint exists(bs) -> forall([p, not bs[2]]);
        constraint (bs[1] /\\ bs[3]) \\/ (not bs[1] /\\ not q);
        solve satisfy;";
    bool_linear: "
        array[1..5] of var bool: b; var 0..5: k;
        constraint sum(i in 1..5)(i * bool2int(b[i])) = 7;
        constraint sum(i in 1..5)(bool2int(b[i])) = k;
        constraint b[1] <= b[2] /\\ (b[3] < b[4] \\/ b[5] = b[1]);
        solve satisfy;";
    set_membership: "
        var 1..10: x; var 1..10: y;
        constraint x in {2, 3, 5, 7};
        constraint (y in {1, 4, 9}) <-> (x > 3);
        constraint y in 2..9 \\/ x = 2;
        solve satisfy;";
    output_arrays: "
        array[1..2, 0..2] of var 0..1: g;
        array[1..3] of var bool: f;
        constraint forall(i in 1..2)(sum(j in 0..2)(g[i, j]) = i);
        constraint forall(j in 1..3)(f[j] <-> g[2, j - 1] = 1);
        solve satisfy;";
    all_different: "
        include \"globals.mzn\";
        array[1..4] of var 1..5: x;
        constraint all_different(x);
        constraint x[1] + x[2] = x[3] + 1;
        solve satisfy;";
    all_different_unsat: "
        include \"globals.mzn\";
        array[1..5] of var 1..4: x;
        constraint all_different(x);
        solve satisfy;";
    count_and_nvalue: "
        include \"globals.mzn\";
        array[1..4] of var 1..3: x; var 0..4: c; var 1..3: n;
        constraint count(x, 2) = c /\\ c >= 1;
        constraint nvalue(n, x) /\\ n <= 2;
        solve satisfy;";
    among: "
        include \"globals.mzn\";
        array[1..4] of var 1..5: x; var 0..4: n;
        constraint among(n, x, {2, 4}) /\\ n >= 2;
        constraint among(1, [x[1], x[2]], 3..5);
        solve satisfy;";
    global_cardinality: "
        include \"globals.mzn\";
        array[1..4] of var 1..4: x;
        array[1..2] of var 0..4: c;
        constraint global_cardinality(x, [1, 3], c);
        constraint c[1] = 2 /\\ x[1] < x[4];
        solve satisfy;";
    global_cardinality_closed: "
        include \"globals.mzn\";
        array[1..4] of var 0..4: x;
        array[1..2] of var 0..4: c;
        constraint global_cardinality_closed(x, [1, 3], c);
        constraint x[2] >= x[3];
        solve satisfy;";
    global_cardinality_low_up: "
        include \"globals.mzn\";
        array[1..5] of var 0..3: x;
        constraint global_cardinality_low_up(x, [1, 2, 3], [1, 0, 2], [2, 1, 5]);
        constraint x[1] <= x[2];
        solve satisfy;";
    global_cardinality_low_up_closed: "
        include \"globals.mzn\";
        array[1..4] of var 0..4: x;
        constraint global_cardinality_low_up_closed(x, [1, 3, 4], [0, 1, 1], [2, 2, 3]);
        constraint x[2] != x[3];
        solve satisfy;";
    magic_sequence_by_counts: "
        array[0..5] of var 0..5: s;
        constraint forall(i in 0..5)(s[i] = count(j in 0..5)(s[j] = i));
        solve satisfy;";
    magic_sequence_by_global_cardinality: "
        include \"globals.mzn\";
        int: n = 7;
        array[0..n-1] of var 0..n-1: s;
        constraint global_cardinality(s, array1d(0..n-1, [i | i in 0..n-1]), s);
        solve satisfy;";
    inverse_offset: "
        include \"globals.mzn\";
        array[0..3] of var 1..4: f;
        array[1..4] of var 0..3: g;
        constraint inverse(f, g);
        constraint f[0] != 1 /\\ g[2] > 1;
        solve satisfy;";
    circuit_zero_based: "
        include \"globals.mzn\";
        array[0..4] of var 0..4: s;
        constraint circuit(s);
        constraint s[0] != 1;
        solve satisfy;";
    subcircuit: "
        include \"globals.mzn\";
        array[1..4] of var 1..4: s;
        constraint subcircuit(s);
        solve satisfy;";
    table: "
        include \"globals.mzn\";
        array[1..3] of var 0..3: x;
        constraint table(x, [| 0, 1, 2 | 1, 1, 1 | 2, 0, 3 | 3, 3, 3 | 1, 2, 0 |]);
        constraint x[1] != x[3] \\/ x[2] = 1;
        solve satisfy;";
    regular: "
        include \"globals.mzn\";
        % words over {1, 2} without two 2s in a row
        array[1..5] of var 1..2: x;
        constraint regular(x, 2, 2, [| 1, 2 | 1, 0 |], 1, 1..2);
        solve satisfy;";
    lex: "
        include \"globals.mzn\";
        array[1..3] of var 0..2: x; array[1..3] of var 0..2: y; array[1..2] of var 0..2: z;
        constraint lex_less(x, y) /\\ lex_lesseq(z, x);
        constraint sum(x) = 2 /\\ sum(y) = 3 /\\ y[1] = z[1];
        solve satisfy;";
    lex_bool: "
        include \"globals.mzn\";
        array[1..3] of var bool: x; array[1..3] of var bool: y; array[1..2] of var bool: z;
        constraint lex_less(x, y) /\\ lex_lesseq(y, x ++ [true]) /\\ lex_lesseq(z, [x[2], y[1]]);
        solve satisfy;";
    job_shop_pairs: "
        % the pairwise disjunctions of a job shop, which cspi reads as a disjunctive
        array[1..4] of int: d = [2, 3, 1, 2];
        array[1..4] of var 0..6: s;
        var 0..8: objective;
        constraint forall(i, j in 1..4 where i < j)(s[i] + d[i] <= s[j] \\/ s[j] + d[j] <= s[i]);
        constraint forall(i in 1..4)(s[i] + d[i] <= objective);
        constraint s[1] + d[1] <= s[3];
        solve minimize objective;";
    job_shop_pairs_all: "
        array[1..4] of int: d = [2, 3, 1, 2];
        array[1..4] of var 0..5: s;
        constraint forall(i, j in 1..4 where i < j)(s[i] + d[i] <= s[j] \\/ s[j] + d[j] <= s[i]);
        constraint s[2] + d[2] <= s[4];
        solve satisfy;";
    seq_search_phases: "
        array[1..3] of var 1..3: x; array[1..3] of var 1..3: y;
        constraint sum(x) + sum(y) <= 11 /\\ x[1] != y[1];
        solve :: seq_search([int_search(y, first_fail, indomain_max, complete),
                             int_search(x, input_order, indomain_min, complete)]) satisfy;";
    bin_packing_load: "
        include \"globals.mzn\";
        array[1..4] of var 1..3: bin;
        array[1..3] of var 0..9: load;
        constraint bin_packing_load(load, bin, [2, 3, 1, 4]);
        constraint load[1] >= load[2] /\\ load[2] >= 1;
        solve satisfy;";
    bin_packing_capacity: "
        include \"globals.mzn\";
        array[1..4] of var 0..2: bin;
        constraint bin_packing(5, bin, [2, 3, 1, 4]);
        constraint bin_packing_capa([4, 6, 5], [b + 1 | b in bin], [2, 3, 1, 4]);
        solve satisfy;";
    cumulative_optimum: "
        include \"globals.mzn\";
        array[1..4] of var 0..10: s;
        var 0..20: objective;
        constraint cumulative(s, [3, 2, 4, 2], [2, 1, 2, 2], 3);
        constraint objective = max(i in 1..4)(s[i] + [3, 2, 4, 2][i]);
        solve minimize objective;";
    disjunctive_optimum: "
        include \"globals.mzn\";
        array[1..4] of var 0..12: s;
        var 0..30: objective;
        constraint disjunctive(s, [3, 2, 4, 1]);
        constraint s[2] >= s[1] + 3;
        constraint disjunctive_strict([s[1], s[4]], [3, 1]);
        constraint objective = sum(i in 1..4)(s[i]);
        solve minimize objective;";
    knapsack_maximum: "
        array[1..5] of var 0..3: x; var int: objective;
        constraint sum(i in 1..5)([3, 4, 5, 2, 7][i] * x[i]) <= 17;
        constraint objective = sum(i in 1..5)([4, 5, 7, 2, 9][i] * x[i]);
        solve maximize objective;";
    search_annotations: "
        array[1..4] of var 1..4: x; var bool: b; var int: objective;
        constraint x[1] + x[2] > x[3] /\\ (b -> x[4] = 1);
        constraint objective = x[1] * 2 - x[3] + bool2int(b);
        solve :: seq_search([int_search(x, first_fail, indomain_max, complete),
                             bool_search([b], input_order, indomain_min, complete)])
              maximize objective;";
    views_offset_element: "
        % element indices x + 1, which MiniZinc defines by int_lin_eq and cspi makes views
        array[1..6] of int: t = [3, 1, 4, 1, 5, 9];
        array[1..3] of var 0..5: x; var 0..9: v;
        constraint forall(i in 1..3)(t[x[i] + 1] >= 3);
        constraint v = t[x[1] + 1] + t[x[2] + 1] - 4;
        constraint x[3] != x[1];
        solve satisfy;";
    views_scaled_negative_chained: "
        % views a * x + b with negative and scaled coefficients, declared domains that cut
        % the expression's range, and a view of a view (u + 1)
        var -3..3: a; var -3..3: b; var -4..4: c;
        var 0..7: w = 3 - 2 * a;
        var 0..12: u = 4 * b;
        var -6..2: e = -c - 2;
        constraint w * b <= u - 1 \\/ max(w, u) = 7;
        constraint abs(e) + min(u, w) >= 3;
        constraint [1, 5, 2, 8, 3][w div 2 + 1] != e + 4;
        solve satisfy;";
    views_in_the_objective: "
        array[1..4] of var 0..9: s; var 0..40: objective;
        constraint forall(i in 1..3)(s[i] + 2 <= s[i + 1] \\/ s[i + 1] + 3 <= s[i]);
        constraint objective = max(i in 1..4)(10 - 2 * s[i]) + [4, 2, 7, 1, 3, 8, 5, 6, 9, 0][s[2] + 1];
        solve minimize objective;";
    unsat_optimisation: "
        var 0..5: x; var 0..5: y; var int: objective;
        constraint x + y = 11;
        constraint objective = x;
        solve minimize objective;";
}

/// FlatZinc text straight to `cspi fzn`, without minizinc.
fn fzn(text: &str, flags: &[&str]) -> (i32, String, String) {
    // A directory per call: the tests run at once, and two may pass texts
    // of the same length.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("fzn-{call}"));
    let path = dir.join("m.fzn");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .arg("fzn")
        .args(flags)
        .arg(&path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn protocol_of_a_small_satisfaction_model() {
    let text = "var 1..3: x :: output_var;\nvar bool: b :: output_var;\n\
        array [1..2] of var int: a :: output_array([1..2]) = [x, 7];\n\
        constraint int_le_reif(x, 1, b);\nconstraint int_ne(x, 2);\nsolve satisfy;\n";
    let (code, out, err) = fzn(text, &["-a"]);
    assert_eq!(code, 0, "{err}");
    let solutions: BTreeSet<&str> = out
        .split("----------\n")
        .filter(|s| !s.starts_with("=="))
        .collect();
    let expected: BTreeSet<&str> = [
        "x = 1;\nb = true;\na = array1d(1..2, [1, 7]);\n",
        "x = 3;\nb = false;\na = array1d(1..2, [3, 7]);\n",
    ]
    .into();
    assert_eq!(solutions, expected, "{out}");
    assert!(out.ends_with("----------\n==========\n"), "{out}");
    let (_, out, _) = fzn(text, &[]);
    assert_eq!(out.matches("----------").count(), 1);
    assert!(
        !out.contains("=========="),
        "one solution of several is not complete: {out}"
    );
    let (_, out, _) = fzn(text, &["-n", "2", "-s"]);
    assert!(
        out.contains("%%%mzn-stat: nodes=") && out.contains("%%%mzn-stat-end"),
        "{out}"
    );
}

/// `--memory-limit` ends a run as `-t` does (`=====UNKNOWN=====`, exit 0)
/// when lowering or the search crosses it; the same model under a limit it
/// fits is solved. Through MiniZinc too: the solver configuration declares
/// the flag, so `minizinc --solver cspi --memory-limit 1K` hands it on.
#[test]
fn the_memory_limit_ends_a_run_as_the_time_limit_does() {
    // Nine pigeons, eight holes, pairwise different: thousands of nodes
    // (the limit is asked every 16) to show that there is no solution.
    let mut text = String::new();
    for i in 1..=9 {
        text += &format!("var 1..8: x{i} :: output_var;\n");
    }
    for i in 1..=9 {
        for j in i + 1..=9 {
            text += &format!("constraint int_ne(x{i}, x{j});\n");
        }
    }
    text += "solve satisfy;\n";
    let (code, out, err) = fzn(&text, &["--memory-limit", "1K"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "=====UNKNOWN=====\n", "{err}");
    let (code, out, err) = fzn(&text, &["--memory-limit", "1G"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "=====UNSATISFIABLE=====\n", "{err}");
    // A file whose reading alone takes some 200 MB (100,000 variables in a
    // chain of `int_ne`): the limit stops the reading, not only what comes
    // after it (the peak was 406 MB at `--memory-limit 30M` for twice this).
    let mut big = String::new();
    for i in 0..100_000 {
        big += &format!("var 1..8: x{i};\n");
    }
    for i in 1..100_000 {
        big += &format!("constraint int_ne(x{}, x{i});\n", i - 1);
    }
    big += "solve satisfy;\n";
    let (code, out, err) = fzn(&big, &["--memory-limit", "20M", "-s"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("=====UNKNOWN=====\n"), "{out}{err}");
    let peak: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("%%%mzn-stat: peakMem="))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no peakMem in {out}"));
    assert!(peak < 80.0, "{peak} MB at --memory-limit 20M\n{out}");
    // An array of a million variables without a value: the limit stops it
    // as it grows (it was once reserved at once, 32 TB for 10^12 items,
    // and the process aborted).
    let many = "array [1..1000000] of var 1..3: x :: output_array([1..1000000]);\nsolve satisfy;\n";
    let (code, out, err) = fzn(many, &["--memory-limit", "20M"]);
    assert_eq!((code, out.as_str()), (0, "=====UNKNOWN=====\n"), "{err}");
    // Beyond what an array without a value may make, a diagnostic at once,
    // with no limit given (the fuzzer's 10^15 items ran out of memory).
    for (items, words) in [("1000000000000", "var 1..3"), ("100000", "var 1..65536")] {
        let huge = format!(
            "array [1..{items}] of {words}: x :: output_array([1..{items}]);\nsolve satisfy;\n"
        );
        let (code, out, err) = fzn(&huge, &[]);
        assert_eq!((code, out.as_str()), (1, ""), "{err}");
        assert!(
            err.contains("cspi::fzn::too_large") && err.contains("has no value"),
            "{err}"
        );
    }
    if !have_minizinc() {
        return;
    }
    let dir = scratch("minizinc-memory-limit");
    let msc = cspi_msc(&dir);
    let model = dir.join("m.mzn");
    std::fs::write(
        &model,
        "array [1..9] of var 1..8: x;\nconstraint forall (i, j in 1..9 where i < j) (x[i] != x[j]);\nsolve satisfy;\n",
    )
    .unwrap();
    for (limit, says) in [
        ("1K", "=====UNKNOWN====="),
        ("1G", "=====UNSATISFIABLE====="),
    ] {
        let out = Command::new("minizinc")
            .args(["--solver", msc.to_str().unwrap(), "--memory-limit", limit])
            .arg(&model)
            .output()
            .expect("run minizinc");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains(says),
            "{limit}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A `seq_search` is searched in phases, each with its own choices: the
/// first solution follows the phases' order and value choices.
#[test]
fn seq_search_takes_each_phase_in_order_with_its_choices() {
    let model = |phases: &str| {
        format!(
            "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n\
             constraint int_lin_le([1, 1], [x, y], 4);\n\
             solve :: seq_search([{phases}]) satisfy;\n"
        )
    };
    let first = |phases: &str| fzn(&model(phases), &[]).1;
    // y first, largest value: then x can only be 1.
    assert_eq!(
        first(
            "int_search([y], input_order, indomain_max, complete), \
             int_search([x], input_order, indomain_max, complete)"
        ),
        "x = 1;\ny = 3;\n----------\n"
    );
    // x first, smallest value; then y by its own choice, the largest left.
    assert_eq!(
        first(
            "int_search([x], input_order, indomain_min, complete), \
             int_search([y], input_order, indomain_max, complete)"
        ),
        "x = 1;\ny = 3;\n----------\n"
    );
    assert_eq!(
        first(
            "int_search([x], input_order, indomain_max, complete), \
             int_search([y], input_order, indomain_min, complete)"
        ),
        "x = 3;\ny = 1;\n----------\n"
    );
    // -f drops the annotations, and every solution is still found.
    let (code, out, _) = fzn(
        &model("int_search([y], input_order, indomain_max, complete)"),
        &["-a", "-f"],
    );
    assert_eq!(code, 0);
    assert_eq!(out.matches("----------").count(), 6, "{out}");
}

/// With learning, the free search (no annotation, or `-f`) branches on
/// activity with Luby restarts when optimising; an annotation is still
/// followed as written; the optimum is the same.
#[test]
fn learning_makes_activity_the_free_search() {
    let model = |ann: &str| {
        format!(
            "var 0..9: x :: output_var;\nvar 0..9: y :: output_var;\n\
             constraint int_lin_le([1, 1], [x, y], 12);\nconstraint int_ne(x, y);\n\
             solve {ann} maximize x;\n"
        )
    };
    let annotated = model(":: int_search([y, x], input_order, indomain_max, complete)");
    let cases = [
        (
            model(""),
            &["--learning", "on"][..],
            "var activity",
            "restarts Luby",
        ),
        (
            annotated.clone(),
            &["--learning", "on", "-f"][..],
            "var activity",
            "restarts Luby",
        ),
        (
            annotated.clone(),
            &["--learning", "on"][..],
            "var input, val max",
            "restarts None",
        ),
        (model(""), &[][..], "var dom-wdeg", "restarts Luby"),
    ];
    for (text, flags, search, restarts) in cases {
        let flags: Vec<&str> = flags.iter().copied().chain(["-v"]).collect();
        let (code, out, err) = fzn(&text, &flags);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(search) && err.contains(restarts),
            "{flags:?}: {err}"
        );
        assert!(out.starts_with("x = 9;\ny = "), "{flags:?}: {out}");
        assert!(out.ends_with("----------\n==========\n"), "{out}");
    }
}

/// FlatZinc with views (variables defined by `int_lin_eq` of two
/// variables) gives the same solutions as the same text without the
/// `defines_var` annotations, where every variable is a variable of its own.
fn same_as_without_views(text: &str, flags: &[&str]) -> String {
    let plain = text
        .replace(":: is_defined_var", "")
        .replace(":: defines_var(", ":: cspi_unused(");
    let mut with_check = vec!["--check-solutions"];
    with_check.extend(flags);
    let (code, out, err) = fzn(text, &with_check);
    assert_eq!(code, 0, "{err}");
    let (code, plain_out, err) = fzn(&plain, &with_check);
    assert_eq!(code, 0, "{err}");
    let set = |o: &str| {
        o.split("----------\n")
            .map(str::to_string)
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(set(&out), set(&plain_out), "{text}");
    assert_eq!(
        out.matches("----------").count(),
        plain_out.matches("----------").count(),
        "{text}"
    );
    out
}

/// A view keeps the declared domain of its variable, prints its value, and
/// counts each solution once; a division that is not exact stays a
/// constraint.
#[test]
fn views_keep_domains_outputs_and_counts() {
    let text = "var 0..9: x :: output_var;\n\
        var 2..5: y :: output_var :: is_defined_var;\n\
        var -20..20: w :: output_var :: is_defined_var;\n\
        var 0..20: v :: output_var :: is_defined_var;\n\
        var {5, 8, 14}: h :: is_defined_var;\n\
        var int: g :: is_defined_var;\n\
        array [1..2] of var int: a :: output_array([1..2]) = [g, h];\n\
        constraint int_lin_eq([1, -1], [x, y], -1) :: defines_var(y);\n\
        constraint int_lin_eq([2, 6], [w, x], 14) :: defines_var(w);\n\
        constraint int_lin_eq([2, 3], [v, x], 12) :: defines_var(v);\n\
        constraint int_lin_eq([3, -1], [x, h], -2) :: defines_var(h);\n\
        constraint int_lin_eq([-1, 1], [g, y], 0) :: domain :: defines_var(g);\n\
        solve satisfy;\n";
    // y = x + 1 in 2..5: x in 1..4; w = 7 - 3x; 2v = 12 - 3x: x even;
    // h = 3x + 2 in {5, 8, 14}: x in {1, 2, 4}; g = y.
    let out = same_as_without_views(text, &["-a"]);
    let solutions: BTreeSet<&str> = out
        .split("----------\n")
        .filter(|s| !s.starts_with("=="))
        .collect();
    let expected: BTreeSet<&str> = [
        "x = 2;\ny = 3;\nw = 1;\nv = 3;\na = array1d(1..2, [3, 8]);\n",
        "x = 4;\ny = 5;\nw = -5;\nv = 0;\na = array1d(1..2, [5, 14]);\n",
    ]
    .into();
    assert_eq!(solutions, expected, "{out}");
    assert!(out.ends_with("==========\n"), "{out}");
    // The view's domain alone makes it unsatisfiable.
    let unsat = "var 0..3: x;\nvar 10..12: y :: output_var :: is_defined_var;\n\
        constraint int_lin_eq([1, -1], [x, y], -1) :: defines_var(y);\nsolve satisfy;\n";
    let (code, out, _) = fzn(unsat, &["-a"]);
    assert_eq!((code, out.as_str()), (0, "=====UNSATISFIABLE=====\n"));
}

/// Views in an objective, a search annotation, a reified constraint and a
/// chain of views; views of a constant.
#[test]
fn views_in_objectives_searches_and_reified_constraints() {
    let text = "var -3..3: x :: output_var;\nvar -3..3: z :: output_var;\n\
        var int: k = 4;\n\
        var -10..10: y :: output_var :: is_defined_var;\n\
        var -10..10: u :: output_var :: is_defined_var;\n\
        var -10..10: c :: output_var :: is_defined_var;\n\
        var bool: b :: output_var;\n\
        constraint int_lin_eq([-2, -1], [x, y], -1) :: defines_var(y);\n\
        constraint int_lin_eq([1, -1], [y, u], 3) :: defines_var(u);\n\
        constraint int_lin_eq([1, -1], [k, c], 1) :: defines_var(c);\n\
        constraint int_lin_le_reif([1, 1], [u, z], 0, b);\n\
        constraint int_lin_eq_imp([1, 1], [y, z], 2, b);\n\
        constraint int_ne(x, z);\n";
    // y = 1 - 2x, u = y - 3, c = 3.
    same_as_without_views(&format!("{text}solve satisfy;\n"), &["-a"]);
    let out = same_as_without_views(
        &format!(
            "{text}solve :: int_search([u, y, z], input_order, indomain_min, complete) maximize u;\n"
        ),
        &[],
    );
    assert!(
        out.contains("u = 4;") && out.ends_with("==========\n"),
        "{out}"
    );
}

/// `bool2int` views: the number is its truth value itself, in sums,
/// reified constraints, outputs (a number, the truth value still `true`),
/// a narrowed declared domain and a constant; the same answers and counts
/// as with a variable and an equality each.
#[test]
fn bool2int_views_keep_outputs_domains_and_counts() {
    let text = "var bool: b1;\nvar bool: b2;\nvar bool: b3;\nvar bool: p :: output_var;\n\
        var bool: t = true;\n\
        array [1..3] of var bool: b :: output_array([1..3]) = [b1, b2, b3];\n\
        var 0..1: y1 :: output_var :: is_defined_var;\n\
        var 0..1: y2 :: is_defined_var;\nvar 1..1: y3 :: is_defined_var;\n\
        var 0..1: yt :: output_var :: is_defined_var;\n\
        constraint bool2int(b1, y1) :: defines_var(y1);\n\
        constraint bool2int(b2, y2) :: defines_var(y2);\n\
        constraint bool2int(p, y3) :: defines_var(y3);\n\
        constraint bool2int(t, yt) :: defines_var(yt);\n\
        constraint int_lin_le_reif([1, 1, 1], [y1, y2, yt], 2, b3);\n\
        constraint int_lin_le([1, -1], [y1, y2], 0);\n\
        solve satisfy;\n";
    let out = same_as_without_views(text, &["-a"]);
    // p is true (y3 in 1..1); y1 <= y2; b3 <-> y1 + y2 + 1 <= 2.
    let solutions: BTreeSet<&str> = out
        .split("----------\n")
        .filter(|s| !s.starts_with("=="))
        .collect();
    let expected: BTreeSet<&str> = [
        "p = true;\nb = array1d(1..3, [false, false, true]);\ny1 = 0;\nyt = 1;\n",
        "p = true;\nb = array1d(1..3, [false, true, true]);\ny1 = 0;\nyt = 1;\n",
        "p = true;\nb = array1d(1..3, [true, true, false]);\ny1 = 1;\nyt = 1;\n",
    ]
    .into();
    assert_eq!(solutions, expected, "{out}");
}

#[test]
fn protocol_of_optimisation_and_unsatisfiability() {
    let text = "var 0..9: x :: output_var;\nvar 0..9: y;\n\
        constraint int_lin_le([1, 1], [x, y], 12);\nconstraint int_lin_eq([1, -2], [x, y], 0);\n\
        solve maximize x;\n";
    let (_, out, _) = fzn(text, &[]);
    assert_eq!(out, "x = 8;\n----------\n==========\n");
    let (_, out, _) = fzn(text, &["-a"]);
    assert!(out.ends_with("x = 8;\n----------\n==========\n"), "{out}");
    let unsat = "var 0..3: x;\nconstraint int_lt(x, 0);\nsolve satisfy;\n";
    let (code, out, _) = fzn(unsat, &[]);
    assert_eq!((code, out.as_str()), (0, "=====UNSATISFIABLE=====\n"));
}

#[test]
fn n_bounds_the_solutions_of_an_optimisation_too() {
    // Each improvement of x by one: -n 2 stops after two, without a proof.
    let text = "var 0..9: x :: output_var;\n\
        solve :: int_search([x], input_order, indomain_min, complete) maximize x;\n";
    let (code, out, _) = fzn(text, &["-a", "-n", "2"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "x = 0;\n----------\nx = 1;\n----------\n")
    );
    let (code, out, _) = fzn(text, &["-n", "2"]);
    assert_eq!((code, out.as_str()), (0, "x = 1;\n----------\n"));
    let (_, out, _) = fzn(text, &["-a"]);
    assert_eq!(out.matches("----------").count(), 10, "{out}");
    assert!(out.ends_with("x = 9;\n----------\n==========\n"), "{out}");
}

#[test]
fn floats_and_set_variables_are_refused_with_their_line() {
    for (text, word) in [
        ("var float: f;\nsolve satisfy;\n", "float variable"),
        ("var set of 1..3: s;\nsolve satisfy;\n", "set variable"),
        (
            "var 1..3: x;\nconstraint float_le(1.0, 2.0);\nsolve satisfy;\n",
            "float constraint",
        ),
        (
            "var 1..3: x;\nconstraint my_global(x);\nsolve satisfy;\n",
            "not a FlatZinc builtin",
        ),
        (
            "var 1..3: x;\nconstraint int_le(x y);\nsolve satisfy;\n",
            "syntax",
        ),
        (
            "var 1..3: x;\nconstraint int_le(x, z);\nsolve satisfy;\n",
            "not declared",
        ),
    ] {
        let (code, out, err) = fzn(text, &[]);
        assert_eq!(code, 1, "{text}: {err}");
        assert!(out.is_empty(), "{text}: printed {out}");
        assert!(err.contains(word), "{text}: {err}");
        assert!(
            err.contains(":2:") || err.contains(":1:"),
            "{text}: no line in {err}"
        );
    }
}

/// An unknown constraint called thousands of times gives one diagnostic
/// with the count, not thousands.
#[test]
fn a_repeated_unknown_constraint_is_reported_once_with_its_count() {
    let mut text = String::from("var 1..3: x;\n");
    for i in 0..3000 {
        text.push_str(&format!("constraint my_global(x, {i});\n"));
    }
    text.push_str("constraint other_global(x);\nsolve satisfy;\n");
    let (code, out, err) = fzn(&text, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.matches("`my_global` is not a FlatZinc builtin").count(),
        1,
        "{err}"
    );
    assert!(err.contains("(3000 times; the first is shown)"), "{err}");
    assert!(err.contains(":2:"), "the first call's line: {err}");
    assert_eq!(err.matches("`other_global` is not").count(), 1, "{err}");
    assert!(err.lines().count() < 60, "{err}");
}

#[test]
fn the_shipped_configuration_names_its_parts() {
    let msc = std::fs::read_to_string(root().join("share/minizinc/cspi.msc")).unwrap();
    let v = common::json::parse(&msc).expect("cspi.msc is JSON");
    let flags = format!("{v:?}");
    for f in ["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t", "-v"] {
        assert!(flags.contains(&format!("\"{f}\"")), "stdFlags lacks {f}");
    }
    assert!(root().join("share/minizinc/fzn-cspi").is_file());
    assert!(
        root()
            .join("share/minizinc/cspi/redefinitions.mzn")
            .is_file()
    );
}

#[test]
fn minizinc_md_lists_every_flag_of_fzn() {
    let doc = std::fs::read_to_string(root().join("docs/minizinc.md")).unwrap();
    for cmd in ["fzn", "minizinc-install"] {
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args([cmd, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        for word in help.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']') {
            if word.starts_with("--") && word.len() > 2 && word != "--help" {
                assert!(
                    doc.contains(&format!("`{word}")),
                    "docs/minizinc.md lacks `{word}` of cspi {cmd}"
                );
            }
        }
    }
}

/// A 0/1 knapsack of 60 items: improving solutions come at once, the proof
/// of optimality takes far longer than the test waits.
fn long_knapsack() -> String {
    let mut seed: u64 = 12345;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % 90 + 10
    };
    let n = 60;
    let w: Vec<String> = (0..n).map(|_| next().to_string()).collect();
    let v: Vec<String> = (0..n).map(|_| next().to_string()).collect();
    let xs: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
    let mut t = String::new();
    for x in &xs {
        t.push_str(&format!("var 0..1: {x};\n"));
    }
    t.push_str("var 0..100000: value :: output_var;\n");
    t.push_str(&format!(
        "constraint int_lin_le([{}], [{}], 1000);\n",
        w.join(","),
        xs.join(",")
    ));
    t.push_str(&format!(
        "constraint int_lin_eq([{},-1], [{},value], 0);\n",
        v.join(","),
        xs.join(",")
    ));
    t.push_str("solve maximize value;\n");
    t
}

#[test]
fn a_signal_or_the_time_limit_ends_the_run_with_the_best_solution() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("fzn-signal");
    let path = dir.join("knapsack.fzn");
    std::fs::write(&path, long_knapsack()).unwrap();
    // SIGTERM after the first solution: the run ends normally, the
    // solutions printed, no claim of completeness.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(["fzn", "-a", "--lns", "none", "--restarts", "none"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("----------") {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    let status = child.wait().unwrap();
    let all = seen + &rest;
    assert!(status.success(), "{status:?}\n{all}");
    assert!(all.ends_with("----------\n"), "{all}");
    assert!(!all.contains("=========="), "{all}");
    // A time limit without -a: the best solution, once, at the end.
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(["fzn", "-t", "500"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert_eq!(text.matches("----------").count(), 1, "{text}");
    assert!(
        text.starts_with("value = ") && text.ends_with("----------\n"),
        "{text}"
    );
}

/// `--data FILE.dzn` gives a `.csp` model the same parameters as the JSON
/// file with the same values.
#[test]
fn dzn_data_files_give_the_same_answers_as_json() {
    let dir = scratch("dzn-data");
    let model = dir.join("m.csp");
    std::fs::write(
        &model,
        "param n = 2;\nparam w = [1, 1];\nparam grid[1..2, 1..2]: int = [[0, 0], [0, 0]];\n\
         param s: set of int = {1};\nparam on: bool = false;\nvar x[1..n] in 0..5;\n\
         constraint sum([w[i] * x[i] | i in 1..n]) == grid[1, 2] + grid[2, 1];\n\
         constraint x[1] in s || on;\n",
    )
    .unwrap();
    let dzn = dir.join("d.dzn");
    std::fs::write(
        &dzn,
        "% the same data as d.json\nn = 3;\nw = [1, 2, 3];\ngrid = [| 1, 2 | 3, 4 |];\ns = 1..2;\non = false;\n",
    )
    .unwrap();
    let json = dir.join("d.json");
    std::fs::write(
        &json,
        r#"{"n": 3, "w": [1, 2, 3], "grid": [[1, 2], [3, 4]], "s": [1, 2], "on": false}"#,
    )
    .unwrap();
    let solve = |data: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .args(["solve", "--all"])
            .arg(&model)
            .arg("--data")
            .arg(data)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (a, b) = (solve(&dzn), solve(&json));
    assert_eq!(a, b);
    assert!(
        a.contains("x = [1, 2, 0]") && a.contains("x = [2, 0, 1]"),
        "{a}"
    );
    std::fs::write(&dzn, "n = 3;\nw = [1, 2 3];\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .arg("solve")
        .arg(&model)
        .arg("--data")
        .arg(&dzn)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a valid MiniZinc data file") && err.contains(":2:"),
        "{err}"
    );
}
