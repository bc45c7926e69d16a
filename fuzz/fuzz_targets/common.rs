//! What the file-writing fuzz targets share: a scratch folder of their own
//! and the checked solve every target ends with.
#![allow(dead_code)] // each target uses its own part

use cspi::model::Model;
use cspi::solve::{Limits, LoadOptions, MemoryLimit, Next, Options, solve};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Counts live heap bytes, as the command does, so that the limits below
/// read real bytes.
#[global_allocator]
static ALLOCATOR: cspi::memory::Counting = cspi::memory::Counting;

/// The heap loading may take, and then solving: the command bounds loading
/// by default (1 GiB) and solving on request, and a model asking for more
/// is answered by its diagnostic or `UNKNOWN`, where libFuzzer would stop
/// the run at 2 GB of memory (a declaration of 20 million variables once).
const LOAD_MEMORY: u64 = 256 << 20;
const SOLVE_MEMORY: u64 = 768 << 20;

/// Loading as the command loads, bounded in bytes (not in time: a slow
/// load is a finding).
pub fn load_options() -> LoadOptions {
    LoadOptions {
        memory_limit: Some(LOAD_MEMORY),
        ..LoadOptions::default()
    }
}

/// The solve limits of every target.
pub fn limits(time: std::time::Duration) -> Limits {
    Limits {
        nodes: Some(2_000),
        // Heavy nodes (LCV tries each value through each propagator of a
        // large model) take milliseconds each under the coverage build: the
        // wall-time bound keeps a slow but finite input under the 10 s hang
        // limit, while a hang inside one node still trips it.
        time: Some(time),
        solutions: Some(20),
        memory: Some(MemoryLimit::new(SOLVE_MEMORY)),
        ..Limits::default()
    }
}

/// FNV-1a: a stable hash, so that a finding replays with the same choices.
pub fn hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A folder of this process for the files written from each input.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("cspi-fuzz-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    })
}

/// Solves `model` with its own search, a node limit and the independent
/// checker on: a rejected solution is a finding.
pub fn solve_checked(model: Model) {
    let model = Arc::new(model);
    let options = Options {
        search: model.search.clone(),
        check: true,
        limits: limits(std::time::Duration::from_secs(4)),
        ..Options::default()
    };
    let summary = solve(&model, &options, |_| Next::Continue);
    assert!(
        summary.rejected.is_empty(),
        "checker rejected a solution: {:?}",
        summary.rejected
    );
}
