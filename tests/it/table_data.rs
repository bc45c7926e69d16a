//! Table data: rows inline, by comprehension and from files (CSV with a header,
//! whitespace, comments), the diagnostics for bad rows, constant folding, and
//! the `--project` flag on the command line.

use cspi::solve::Next;
use cspi::solve::{LoadOptions, ModelSource, Options, load, solve};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

fn count(text: &str, dir: &Path) -> u64 {
    let m = Arc::new(
        load(
            ModelSource::text_in("t.csp", text, dir),
            &LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let mut o = Options {
        search: m.search.clone(),
        check: true,
        ..Options::default()
    };
    o.limits.solutions = None;
    let s = solve(&m, &o, |_| Next::Continue);
    assert!(s.rejected.is_empty());
    s.stats.solutions
}

fn error(text: &str, dir: &Path) -> String {
    match load(
        ModelSource::text_in("t.csp", text, dir),
        &LoadOptions::default(),
    ) {
        Ok(_) => panic!("expected an error for {text}"),
        Err(e) => format!("{e:?}"),
    }
}

#[test]
fn rows_from_files_inline_and_comprehensions_agree() {
    let dir = std::env::temp_dir().join(format!("cspi-table-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.csv"),
        "x,y\n1,2\n2,3\n\n# a comment\n3,1  # trailing\n2,3\n",
    )
    .unwrap();
    std::fs::write(dir.join("b.txt"), "1 2\n2\t3\n3 1\n").unwrap();
    let vars = "var x in 0..3;\nvar y in 0..3;\n";
    for rows in [
        "read_table(\"a.csv\", \"header\")",
        "read_table(\"b.txt\")",
        "[(1, 2), (2, 3), (3, 1)]",
        "[(a, a % 3 + 1) | a in 1..3]",
    ] {
        assert_eq!(
            count(&format!("{vars}constraint table([x, y], {rows});"), &dir),
            3,
            "{rows}"
        );
        assert_eq!(
            count(
                &format!("{vars}constraint forbidden([x, y], {rows});"),
                &dir
            ),
            13,
            "{rows}"
        );
    }
    // Expressions in the scope, and folding of known tuples.
    assert_eq!(
        count(
            &format!("{vars}constraint table([x + 1, 2 * y], [(2, 4), (3, 0), (9, 9)]);"),
            &dir
        ),
        2
    );
    assert_eq!(
        count(&format!("{vars}constraint table([1, 2], [(1, 2)]);"), &dir),
        16
    );
    assert_eq!(
        count(&format!("{vars}constraint table([1, 3], [(1, 2)]);"), &dir),
        0
    );
    assert_eq!(
        count(&format!("{vars}constraint table([x, y], []);"), &dir),
        0
    );
    assert_eq!(
        count(&format!("{vars}constraint forbidden([x, y], []);"), &dir),
        16
    );
    std::fs::write(dir.join("bad.csv"), "1,2\n3,x\n").unwrap();
    std::fs::write(dir.join("ragged.csv"), "1,2\n3\n").unwrap();
    let e = error(
        &format!("{vars}constraint table([x, y], read_table(\"bad.csv\"));"),
        &dir,
    );
    assert!(e.contains("`x` is not an integer (line 2)"), "{e}");
    let e = error(
        &format!("{vars}constraint table([x, y], read_table(\"ragged.csv\"));"),
        &dir,
    );
    assert!(e.contains("this row has 1 values, the first had 2"), "{e}");
    let e = error(
        &format!("{vars}constraint table([x, y], [(1, 2), (1, 2, 3)]);"),
        &dir,
    );
    assert!(e.contains("row 2 has 3 values"), "{e}");
    let e = error(
        &format!("{vars}constraint table([x, y], read_table(\"missing.csv\"));"),
        &dir,
    );
    assert!(e.contains("cannot read"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn project_flag_counts_each_projection_once() {
    let dir = std::env::temp_dir().join(format!("cspi-project-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("m.csp");
    std::fs::write(
        &model,
        "var x in 0..3;\nvar y in 0..3;\nconstraint x + y <= 3;\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .arg("solve")
            .arg(&model)
            .args(["--count", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, out, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(out.contains("\"solutions\":10"), "{out}");
    let (_, out, _) = run(&["--project", "x"]);
    assert!(out.contains("\"solutions\":4"), "{out}");
    let (code, _, err) = run(&["--project", "z"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no variable or array `z`"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A variable in two columns takes one value: only rows that agree in both
/// can match. Compact-Table used to keep the row `(1, 1, 2)` for `x = 1`
/// under `ac`, having removed `x = 2` while filtering the first column.
#[test]
fn a_variable_in_two_columns_takes_one_value() {
    let dir = Path::new(".");
    for level in ["none", "fc", "ac"] {
        let vars = format!("var x in 1..2;\nvar y in 1..2;\nsearch propagation {level};\n");
        for (constraint, want) in [
            ("table([x, y, x], [(1, 1, 2)])", 0),
            ("table([x, y, x], [(1, 1, 2), (2, 1, 2)])", 1),
            ("table([x, x], [(1, 2), (2, 2)])", 2),
            ("forbidden([x, y, x], [(1, 1, 1), (2, 2, 1)])", 3),
        ] {
            let text = format!("{vars}constraint {constraint};");
            assert_eq!(count(&text, dir), want, "{text}");
        }
    }
}

/// A spreadsheet writes a byte-order mark before the first value: that row
/// must count (it used to be taken for a header and dropped). Headers are
/// skipped only when the model says so.
#[test]
fn byte_order_marks_and_headers() {
    let dir = std::env::temp_dir().join(format!("cspi-table-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vars = "var x in 0..3;\nvar y in 0..3;\n";
    std::fs::write(dir.join("bom.csv"), "\u{FEFF}1,2\r\n2,3\r\n").unwrap();
    std::fs::write(dir.join("bom-header.csv"), "\u{FEFF}x,y\n1,2\n2,3\n").unwrap();
    let table = |file: &str| format!("{vars}constraint table([x, y], read_table({file}));");
    assert_eq!(count(&table("\"bom.csv\""), &dir), 2);
    assert_eq!(count(&table("\"bom-header.csv\", \"header\""), &dir), 2);
    // With the option, the first line goes whatever it holds.
    assert_eq!(count(&table("\"bom.csv\", \"header\""), &dir), 1);
    let e = error(&table("\"bom-header.csv\""), &dir);
    assert!(e.contains("`x` is not an integer (line 1)"), "{e}");
    assert!(e.contains("read_table(path, \\\"header\\\")"), "{e}");
    let e = error(&table("\"bom.csv\", \"headers\""), &dir);
    assert!(e.contains("the option \\\"header\\\""), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
