//! Every example of docs/globals.md runs: each code block with a constraint
//! loads, solves without error, and an optimisation example proves the
//! optimum its comment states (`// ... N` at the end of the `minimize` line
//! or the line before it, as in `minimize used;  // 3 colours`).

use crate::common;

use crate::common::cspi;

#[test]
fn every_example_of_the_globals_docs_runs() {
    let text = common::read(&common::root().join("docs/globals.md"));
    let dir = common::scratch("globals-docs");
    let mut ran = 0;
    for (k, block) in text.split("```").enumerate().filter(|(k, _)| k % 2 == 1) {
        let body = block.strip_prefix('\n').unwrap_or(block);
        if !body.contains("constraint") {
            continue;
        }
        let path = dir.join(format!("example{k}.csp"));
        std::fs::write(&path, body).expect("write");
        let run = cspi(&[
            "solve",
            path.to_str().expect("a path"),
            "--node-limit",
            "100000",
        ]);
        assert_eq!(run.code, 0, "example {k}:\n{body}\n{}", run.stderr);
        let last = run.stdout.lines().last().unwrap_or("");
        assert!(
            !last.contains("UNSATISFIABLE"),
            "example {k}:\n{body}\n{last}"
        );
        if let Some(line) = body.lines().find(|l| l.starts_with("minimize")) {
            let stated: i64 = line
                .split("//")
                .nth(1)
                .and_then(|c| c.split_whitespace().find_map(|w| w.parse().ok()))
                .unwrap_or_else(|| panic!("example {k}: the minimize line states the optimum"));
            assert_eq!(
                last,
                format!("OPTIMAL: objective {stated}"),
                "example {k}:\n{body}"
            );
        }
        ran += 1;
    }
    assert!(ran >= 9, "only {ran} examples found");
}
