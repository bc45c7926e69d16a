//! Every constraint of a model knows where it came from: its source text, the
//! comprehension binding that produced it, and the data it reads.

use crate::common;

use cspi::solve::{LoadOptions, load};

#[test]
fn every_bundled_model_has_one_origin_per_constraint() {
    for entry in std::fs::read_dir(common::root().join("models")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csp") {
            continue;
        }
        let Ok(model) = load(&path, &LoadOptions::default()) else {
            continue; // a model whose default data lives in ../shared
        };
        assert_eq!(
            model.origins.len(),
            model.constraints.len(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn sudoku_givens_are_data_and_the_rules_are_not() {
    let path = common::model("sudoku.csp");
    let text = common::read(&path);
    let model = load(&path, &LoadOptions::default()).unwrap();
    let mut givens = 0;
    for (f, o) in model.constraints.iter().zip(&model.origins) {
        let source = &text[o.span.start..o.span.end];
        if source.starts_with("cell[r, c] == given[r, c]") {
            givens += 1;
            assert!(o.data.contains(&"puzzle".to_string()), "{f:?}");
            let names: Vec<&str> = o.bindings.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["r", "c"]);
        } else {
            assert!(source.starts_with("alldifferent("), "{source}");
            assert!(o.data.is_empty(), "the rules read no data: {source}");
        }
    }
    // Inkala's puzzle has 21 givens.
    assert_eq!(givens, 21);
    let first_row = model
        .origins
        .iter()
        .find(|o| text[o.span.start..o.span.end].starts_with("alldifferent(cell[r, ..])"))
        .unwrap();
    assert_eq!(first_row.bindings_text(), "r = 1");
}

#[test]
fn a_parameter_from_the_command_line_is_data() {
    let path = common::model("n-queens.csp");
    let over = [cspi::solve::ParamOverride {
        name: "n".into(),
        value: "5".into(),
    }];
    let model = load(&path, &LoadOptions::with_params(&over)).unwrap();
    assert!(model.origins.iter().any(|o| o.data == ["n"]));
}
