//! The Python package (python/): built and installed into a virtual
//! environment under target/ the way a user installs it (`pip install
//! ./python`, PyO3 and maturin, one release build of the extension, kept
//! in `target/python` between runs), then its pytest suite
//! (python/tests, including the walk-through of docs/python.md) runs
//! against the bundled models.
//!
//! The same environment holds puzpy, an outside reader and writer of Across
//! Lite `.puz` files, against which cspi's are checked.
//!
//! Without Python 3, venv or pip (or without PyPI, for maturin and pytest)
//! the test prints `skipped: ...` and passes, unless `CSPI_REQUIRE_PYTHON=1`
//! (as `.ci/run` sets), where it fails. `CSPI_PYTHON` names the interpreter
//! that makes the virtual environment (default `python3`).

use crate::common::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skip_or_fail(why: &str) {
    let message = format!("skipped: the Python package's tests: {why}");
    if std::env::var("CSPI_REQUIRE_PYTHON").is_ok_and(|v| v == "1") {
        panic!("{message} (CSPI_REQUIRE_PYTHON=1)");
    }
    // Straight to the process's stderr: the harness hides a passing test's output.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
}

fn run(cmd: &mut Command) -> Result<Output, String> {
    let shown = format!("{cmd:?}");
    match cmd.output() {
        Ok(out) if out.status.success() => Ok(out),
        Ok(out) => Err(format!(
            "{shown} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Err(format!("cannot run {shown}: {e}")),
    }
}

/// The virtual environment's interpreter, made (with pytest, maturin and
/// puzpy) if needed; once per run, since two tests here use it at once.
fn venv() -> Result<PathBuf, String> {
    static VENV: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    VENV.get_or_init(make_venv).clone()
}

fn make_venv() -> Result<PathBuf, String> {
    let dir = root().join("target/python-venv");
    let python = dir.join("bin/python");
    if !python.exists() {
        let base = std::env::var("CSPI_PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(&base).arg("-m").arg("venv").arg(&dir))?;
    }
    let ready = Command::new(&python)
        .args(["-c", "import pytest, maturin, puz"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ready {
        run(Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "pytest",
            "maturin>=1.5,<2",
            // puzpy: an outside reader of Across Lite .puz files, as strict as
            // Across Lite (every checksum), for `puz_files_agree_with_puzpy`.
            "puzpy>=0.7,<1",
        ]))?;
    }
    Ok(python)
}

/// `pip install ./python`, building the extension in target/python.
fn install(python: &Path) -> Result<(), String> {
    // The environment's bin/ first on PATH, where pip's build hook looks for maturin.
    let bin = python.parent().expect("bin/").to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    run(Command::new(python)
        .current_dir(root())
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", root().join("target/python"))
        // maturin is in the environment already: no download per run.
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-build-isolation",
            "--force-reinstall",
            "--no-deps",
            "./python",
        ]))
    .map(|_| ())
}

#[test]
fn the_python_package_passes_its_tests() {
    let python = match venv() {
        Ok(p) => p,
        Err(why) => return skip_or_fail(&why),
    };
    if let Err(why) = install(&python) {
        // Python works but the package does not build: that is a failure.
        panic!("pip install ./python: {why}");
    }
    let out = Command::new(&python)
        .current_dir(root())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .output()
        .expect("run pytest");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pytest failed:\n{text}");
    assert!(text.contains(" passed"), "{text}");
    println!("{text}");
}

/// `.puz` files against puzpy, a reader and writer as strict as Across Lite
/// (it checks every checksum): what `--puz` writes loads there with the
/// fill's grid and an entry per clue, and a partly filled grid that puzpy
/// writes (title, clues and notes too) is read by cspi with exactly the
/// blocks and letters of the same grid drawn as a picture: the same count
/// of fills.
#[test]
fn puz_files_agree_with_puzpy() {
    let python = match venv() {
        Ok(p) => p,
        Err(why) => return skip_or_fail(&why),
    };
    let dir = std::env::temp_dir().join(format!("cspi-puz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = |name: &str| dir.join(name).display().to_string();
    let model = root().join("models/crossword.csp").display().to_string();
    let solve = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cspi"))
            .current_dir(root())
            .arg("solve")
            .arg(&model)
            .args(args)
            .output()
            .expect("run cspi");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let grid = "grid=models/data/crossword-empty.txt";
    solve(&[
        "--param",
        grid,
        "--puz",
        &path("fill.puz"),
        "--ipuz",
        &path("fill.ipuz"),
    ]);
    let py = |code: &str| {
        let out = run(Command::new(&python).args(["-c", code]).current_dir(&dir))
            .unwrap_or_else(|e| panic!("{e}"));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    // cspi's file, read by puzpy, against the same fill written as ipuz.
    let read = py(
        "import puz; p = puz.read('fill.puz'); print(p.width, p.height, p.solution, len(p.clues))",
    );
    let ipuz: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("fill.ipuz")).unwrap()).unwrap();
    let cells: String = ipuz["solution"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|c| match c.as_str().unwrap() {
            "#" => ".".to_string(),
            l => l.to_string(),
        })
        .collect();
    let clues = ipuz["clues"]["Across"].as_array().unwrap().len()
        + ipuz["clues"]["Down"].as_array().unwrap().len();
    assert_eq!(read, format!("5 5 {cells} {clues}"));
    // puzpy's file: the fill's top row kept, the rest blanked; cspi's count
    // of fills from it equals its count from the same grid as a picture.
    let picture = py("import puz\n\
         p = puz.read('fill.puz')\n\
         p.solution = p.solution[:5] + ''.join('.' if c == '.' else '-' for c in p.solution[5:])\n\
         p.fill = ''.join('.' if c == '.' else '-' for c in p.solution)\n\
         p.title, p.author, p.copyright, p.notes = 'Mine', 'Me', '(c) me', 'a note'\n\
         p.clues = ['clue %d' % i for i in range(len(p.clues))]\n\
         p.save('mine.puz')\n\
         q = puz.read('mine.puz')\n\
         s = q.solution.replace('-', '*').replace('.', '#').replace('*', '.')\n\
         print('\\n'.join(s[i:i + 5] for i in range(0, 25, 5)))");
    std::fs::write(dir.join("mine.txt"), format!("{picture}\n")).unwrap();
    let from_puz = solve(&["--param", &format!("grid={}", path("mine.puz")), "--count"]);
    let from_picture = solve(&["--param", &format!("grid={}", path("mine.txt")), "--count"]);
    assert!(from_puz.contains("solutions"), "{from_puz}");
    assert_eq!(from_puz, from_picture);
    assert!(!from_puz.trim_start().starts_with("0 "), "{from_puz}");
    let _ = std::fs::remove_dir_all(&dir);
}
