//! Solutions projected on some variables (`project`): under `fc` and `none`,
//! the other variables must still have values that satisfy every
//! constraint. A variable fixed by forward checking (not by a decision) once
//! escaped the check of its constraints with the other projected-out
//! variables: Boggle under `fc` printed words whose cells were not adjacent.

use crate::common;

/// The count of `text` under each propagation level.
fn counts(dir: &str, text: &str) -> Vec<String> {
    let path = common::scratch(dir).join("model.csp");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    ["none", "fc", "ac"]
        .iter()
        .map(|level| {
            let r = common::cspi(&["solve", p, "--count", "--propagation", level]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            r.stdout.lines().last().unwrap_or("").to_string()
        })
        .collect()
}

#[test]
fn values_fixed_by_pruning_are_checked_against_each_other() {
    // a decides b and c (b = c = 2 - a), which b != c forbids: no solution.
    let text = "var x in 0..1;\nvar a in 0..2;\nvar b in 0..2;\nvar c in 0..2;\n\
                constraint x <= a;\nconstraint a + b == 2;\nconstraint a + c == 2;\n\
                constraint b != c;\nproject x;\n";
    for got in counts("projection-unsat", text) {
        assert_eq!(got, "0 solutions (UNSATISFIABLE)");
    }
}

#[test]
fn a_rejected_completion_tries_the_next_one() {
    // a = 0 gives b = c = 2, which b != c rejects; a = 1 gives b = 1, c = 0.
    // So x = 0 and x = 1 have a completion (x <= a), x = 2 none.
    let text = "var x in 0..2;\nvar a in 0..2;\nvar b in 0..2;\nvar c in 0..2;\n\
                constraint x <= a;\nconstraint a + b == 2;\nconstraint c == 2 - 2 * a;\n\
                constraint b != c;\nproject x;\n";
    for got in counts("projection-next", text) {
        assert_eq!(got, "2 solutions (ALL_SOLUTIONS)");
    }
}
