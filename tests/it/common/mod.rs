//! Shared test helpers: where the shared data lives, parsers for every sudoku
//! file format in ../shared/data/sudoku, an independent sudoku checker written
//! from the puzzle's rules, and a way to solve a puzzle through the library.
//!
//! The parsers and the checker deliberately share nothing with cspi: the model
//! reads the raw puzzle text itself (through `grid()`), and the tests compare
//! its solutions against givens decoded here.

pub(crate) mod json;
pub(crate) mod regex;
pub(crate) mod sudoku;

use std::path::{Path, PathBuf};

/// The crate root (where Cargo.toml is).
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/data/<rel>` if it exists; otherwise prints the skip notice and
/// returns `None`, so a checkout without the shared data still passes.
pub(crate) fn shared_data(rel: &str) -> Option<PathBuf> {
    let path = root().join("../shared/data").join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: ../shared/data/{rel} not found");
        None
    }
}

/// `count` indices spread evenly over `0..len` (all of them if `len <= count`),
/// always including the first and the last.
pub(crate) fn spread(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    if count <= 1 {
        return vec![0];
    }
    let mut out: Vec<usize> = (0..count).map(|i| i * (len - 1) / (count - 1)).collect();
    out.dedup();
    out
}

/// A model shipped in models/.
pub(crate) fn model(name: &str) -> PathBuf {
    root().join("models").join(name)
}

/// Reads a file as text, panicking with the path on failure.
pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// What one run of the binary produced.
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cspi` with `args` in `dir`, colours off. A run still going after two
/// minutes is killed and fails the test: a hang guard, not a timing check.
pub(crate) fn cspi_in(dir: &Path, args: &[&str]) -> Run {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspi"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cspi");
    // Drain the pipes on threads so a large output cannot block the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("cspi {args:?} hung (killed after 120 s)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code().expect("cspi was killed by a signal"),
        stdout: t_out.join().unwrap().expect("stdout is UTF-8"),
        stderr: t_err.join().unwrap().expect("stderr is UTF-8"),
    }
}

/// Runs `cspi` in the crate root.
pub(crate) fn cspi(args: &[&str]) -> Run {
    cspi_in(&root(), args)
}

/// A fresh scratch directory for one test, under Cargo's target tmpdir.
/// All tests share one process and run at the same time, so a name belongs
/// to the first test that takes it (libtest names each test's thread after
/// the test): another test with the same name would empty its directory.
pub(crate) fn scratch(name: &str) -> PathBuf {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static OWNERS: Mutex<BTreeMap<String, Option<String>>> = Mutex::new(BTreeMap::new());
    let me = std::thread::current().name().map(String::from);
    let mut owners = OWNERS.lock().unwrap_or_else(|e| e.into_inner());
    let owner = owners.entry(name.to_string()).or_insert_with(|| me.clone());
    assert!(
        *owner == me,
        "scratch directory `{name}` belongs to {owner:?}, not to {me:?}"
    );
    drop(owners);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
