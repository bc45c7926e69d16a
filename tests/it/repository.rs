//! The repository itself: no file carries leftover merge-conflict markers
//! (several people merge into main; a marker in a doc or a model would pass
//! every other test).

use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn no_conflict_markers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "docs",
        "grammar",
        "models",
        "benches",
        "scripts",
        "fuzz/fuzz_targets",
    ] {
        walk(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    files.push(root.join("Cargo.toml"));
    let mut bad = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            if line.starts_with("<<<<<<< ") || line.starts_with(">>>>>>> ") || line == "=======" {
                bad.push(format!("{}:{}", f.display(), i + 1));
            }
        }
    }
    assert!(bad.is_empty(), "merge-conflict markers at {bad:?}");
}
