//! Set variables through the command line: a projection on a set, a search
//! scope naming one, a typed `var set of int` parameter, sets of an enum in
//! text and JSON, and a set written from the solution in `output`. Their
//! counts are worked out here by brute force over the subsets; the random
//! models are in `differential/sets.rs`.

use crate::common;

/// The subsets of `values`.
fn subsets(values: &[i64]) -> Vec<Vec<i64>> {
    (0..1u32 << values.len())
        .map(|m| {
            (0..values.len())
                .filter(|&i| m >> i & 1 == 1)
                .map(|i| values[i])
                .collect()
        })
        .collect()
}

fn run(dir: &str, text: &str, args: &[&str]) -> common::Run {
    let path = common::scratch(dir).join("model.csp");
    std::fs::write(&path, text).unwrap();
    let mut all = vec!["solve", path.to_str().unwrap()];
    all.extend(args);
    let r = common::cspi(&all);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r
}

#[test]
fn projections_scopes_and_typed_parameters_name_set_variables() {
    let text = "var s: set of 1..4;\nvar t: set of 1..4;\nvar x in 1..4;\n\
                predicate small(a: var set of int) = card(a) <= 2;\n\
                function both(a, b) = a intersect b;\n\
                constraint small(s) && x in s union t && card(both(s, t)) == 1;\n\
                search s: var mrv;\n";
    let (mut on_s, mut on_t, mut all) = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
        0,
    );
    let sets = subsets(&[1, 2, 3, 4]);
    for s in &sets {
        for t in &sets {
            for x in 1..=4 {
                let common = s.iter().filter(|e| t.contains(e)).count();
                if s.len() <= 2 && (s.contains(&x) || t.contains(&x)) && common == 1 {
                    on_s.insert(s.clone());
                    on_t.insert(t.clone());
                    all += 1;
                }
            }
        }
    }
    let count = |args: &[&str]| {
        let mut a = vec!["--count"];
        a.extend(args);
        run("sets-projection", text, &a).stdout
    };
    assert_eq!(count(&[]), format!("{all} solutions (ALL_SOLUTIONS)\n"));
    assert_eq!(
        count(&["--project", "s"]),
        format!("{} solutions (ALL_SOLUTIONS)\n", on_s.len())
    );
    assert_eq!(
        count(&["--project", "t"]),
        format!("{} solutions (ALL_SOLUTIONS)\n", on_t.len())
    );
    let projected = format!("{text}project t;\n");
    assert_eq!(
        run("sets-projection-item", &projected, &["--count"]).stdout,
        format!("{} solutions (ALL_SOLUTIONS)\n", on_t.len())
    );
}

#[test]
fn sets_of_an_enum_print_by_name_in_text_json_and_output() {
    let text = "enum Colour = {red, green, blue};\nvar s: set of Colour;\n\
                var t[1..2]: set of 1..3;\n\
                constraint card(s) == 2 && green in s;\nconstraint t[1] == {1, 3} && t[2] == {};\n\
                output s, t, \"s = \\(s), t[1] diff {3} = \\(t[1] diff {3})\";\n";
    let r = run("sets-enum", text, &[]);
    assert_eq!(
        r.stdout,
        "s = {green, blue}\nt = [{1, 3}, {}]\ns = {green, blue}, t[1] diff {3} = {1}\n"
    );
    let r = run("sets-enum-json", text, &["--format", "json"]);
    let first = r.stdout.lines().next().unwrap_or("");
    assert_eq!(
        first,
        r#"{"type":"solution","values":{"s":["green","blue"],"t":[[1,3],[]]}}"#
    );
    let r = run("sets-enum-count", text, &["--count"]);
    assert_eq!(r.stdout, "2 solutions (ALL_SOLUTIONS)\n");
}

/// A 2-D array of set variables indexed by variables that may leave it
/// (`c[r, k]` undefined there: `undefined -> q` holds when `q` does, and
/// `!` keeps it undefined), a set comprehension over integer variables, and
/// a top-level `forall` with a `where` over variables, against brute force.
#[test]
fn variable_indices_into_sets_comprehensions_and_where_over_variables() {
    let text = "var c[1..2, 1..2]: set of 1..2;\nvar r in 0..2;\nvar k in 1..3;\n\
                var y[1..2] in 0..3;\n\
                constraint (1 in c[r, k]) -> card({y[i] | i in 1..2}) == 1;\n\
                constraint forall i in 1..2 where y[i] > 1: i in c[1, 1];\n\
                constraint !(2 in c[r, k]) || r == 0;\n";
    let mut expected = 0;
    for bits in 0u32..1 << 8 {
        // c[a][b] holds v when bit (a * 2 + b) * 2 + (v - 1) is set, from 0.
        let has = |a: i64, b: i64, v: i64| bits >> (((a - 1) * 2 + (b - 1)) * 2 + v - 1) & 1 == 1;
        for r in 0..=2 {
            for k in 1..=3 {
                for y1 in 0..=3 {
                    for y2 in 0..=3 {
                        let inside = (1..=2).contains(&r) && (1..=2).contains(&k);
                        let one = y1 == y2;
                        let first = if inside { !has(r, k, 1) || one } else { one };
                        let second = [y1, y2]
                            .iter()
                            .zip(1..)
                            .all(|(y, i)| *y <= 1 || has(1, 1, i));
                        let third = (inside && !has(r, k, 2)) || r == 0;
                        if first && second && third {
                            expected += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(
        run("sets-element-2d", text, &["--count"]).stdout,
        format!("{expected} solutions (ALL_SOLUTIONS)\n")
    );
}
