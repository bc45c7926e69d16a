//! `--part-log FILE`: the sub-problems of a part searched to their end
//! without a solution, recorded as each ends, so that a part cut off (a
//! sitting's end, a lost machine) takes up where it stopped instead of from
//! its start (docs/distributed.md).
//!
//! The file is JSON Lines: a header naming the part and the fingerprint of
//! its split, a `start` line for each run that opened it, and one line per
//! empty sub-problem: its index among the part's sub-problems, a hash of
//! its path of decisions and the CPU seconds the run had used by then. A sub-problem is skipped only when both match
//! (the same part, split the same way, on as many threads): anything else
//! is searched again. Only sub-problems without a solution are recorded,
//! and only for a search without objective, so skipping one drops no
//! solution and changes no count: the part's answer is the same as a run
//! from its start; only its statistics lack the work done before.
//!
//! A sub-problem can itself take longer than a run lasts. Beside the log,
//! `FILE.nogoods` keeps the nogoods its restarts record (each says a
//! branch was searched through without a solution; `search/refuted.rs`), a
//! line per restart, under the same sub-problem's index and path hash. The
//! next run gives them to that sub-problem's search, which then does not
//! search those branches again: a sub-problem of hours ends over several
//! runs. They hold below the sub-problem's node, in the model and split
//! the fingerprint names, so they are used only there; those of
//! sub-problems since ended are dropped when the log is opened.

use crate::engine::props::restart_nogoods::DecLit;
use crate::engine::select::{Branch, Decision};
use crate::fnv::Fnv;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nogoods by sub-problem: (index, path hash).
type Refuted = FxHashMap<(usize, u64), Vec<Vec<DecLit>>>;

/// A part's log, open for appending; what earlier runs recorded.
#[derive(Debug)]
pub struct PartLog {
    path: PathBuf,
    /// Empty sub-problems recorded before: (index, hash of the path); one
    /// index may come with several paths, from runs on other thread counts.
    recorded: FxHashSet<(usize, u64)>,
    file: Mutex<File>,
    /// A record could not be written: the log is behind (time lost on
    /// resuming, never an answer).
    failed: AtomicBool,
    /// The nogoods earlier runs' restarts recorded in sub-problems they did
    /// not end, by (index, path hash), until that sub-problem's search takes them.
    refuted: Mutex<Refuted>,
    /// `FILE.nogoods`, open for appending once this run records in it.
    refuted_file: Mutex<Option<File>>,
    /// The header a new `FILE.nogoods` starts with.
    refuted_header: String,
}

impl PartLog {
    /// Opens (or creates) the log of `part` (`K/N`, `K/N:J/M`, ...), whose
    /// split has `fingerprint`: an existing log must be this part's, of the
    /// same run.
    pub fn open(path: &Path, part: &str, fingerprint: &str) -> Result<PartLog, String> {
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("cannot open the part log {shown}: {e}"))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| format!("cannot read the part log {shown}: {e}"))?;
        let mut recorded = FxHashSet::default();
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let mut out = String::new();
        match lines.next() {
            None => {
                let header = serde_json::json!({
                    "type": "part-log", "part": part, "fingerprint": fingerprint,
                });
                let _ = writeln!(out, "{header}");
            }
            Some(first) => {
                let header: serde_json::Value = serde_json::from_str(first)
                    .ok()
                    .filter(|h: &serde_json::Value| h["type"] == "part-log")
                    .ok_or_else(|| {
                        format!(
                            "{shown} is not a part log (its first line is no `part-log` header)"
                        )
                    })?;
                if header["part"] != part || header["fingerprint"] != fingerprint {
                    return Err(format!(
                        "{shown} is the log of part {} (fingerprint {}), not of this run's part \
                         {part} (fingerprint {fingerprint}): give each part, and each run, its own log",
                        header["part"].as_str().unwrap_or("?"),
                        header["fingerprint"].as_str().unwrap_or("?")
                    ));
                }
                // A line cut short by a kill does not parse: it is passed over.
                for line in lines {
                    if let Some(e) = entry(line) {
                        recorded.insert(e);
                    }
                }
                if !text.ends_with('\n') {
                    out.push('\n');
                }
            }
        }
        out.push_str("{\"type\":\"start\"}\n");
        file.seek(SeekFrom::End(0))
            .and_then(|_| file.write_all(out.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write the part log {shown}: {e}"))?;
        let refuted_header = serde_json::json!({
            "type": "part-nogoods", "part": part, "fingerprint": fingerprint,
        })
        .to_string();
        let refuted = read_refuted(&nogoods_path(path), &refuted_header, &recorded);
        Ok(PartLog {
            path: path.to_path_buf(),
            recorded,
            file: Mutex::new(file),
            failed: AtomicBool::new(false),
            refuted: Mutex::new(refuted),
            refuted_file: Mutex::new(None),
            refuted_header,
        })
    }

    /// Takes the nogoods earlier runs recorded in the sub-problem `index`
    /// reached by `path` (none when they recorded none).
    pub(crate) fn refuted(&self, index: usize, path: &[Decision]) -> Vec<Vec<DecLit>> {
        self.refuted
            .lock()
            .ok()
            .and_then(|mut r| r.remove(&(index, path_hash(path))))
            .unwrap_or_default()
    }

    /// Keeps in `FILE.nogoods` the nogoods one restart of the sub-problem
    /// `index`, reached by `path`, recorded: one line, written whole, with
    /// a checksum of the nogoods (a digit changed in a damaged file would
    /// still parse, and could cut solutions).
    pub(crate) fn record_refuted(&self, index: usize, path: &[Decision], nogoods: &[Vec<DecLit>]) {
        let mut text = String::new();
        for (i, nogood) in nogoods.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            for (j, lit) in nogood.iter().enumerate() {
                let sep = if j > 0 { " " } else { "" };
                let _ = match *lit {
                    DecLit::Eq(x, v) => write!(text, "{sep}{x}={v}"),
                    DecLit::Le(x, v) => write!(text, "{sep}{x}<={v}"),
                };
            }
        }
        let key = (index, path_hash(path));
        let line = format!(
            "{{\"index\":{index},\"path\":\"{:016x}\",\"nogoods\":\"{text}\",\"sum\":\"{:016x}\"}}\n",
            key.1,
            refuted_sum(key, &text),
        );
        let written = self.refuted_file.lock().is_ok_and(|mut f| {
            if f.is_none() {
                *f = open_refuted(&nogoods_path(&self.path), &self.refuted_header);
            }
            f.as_mut()
                .is_some_and(|f| f.write_all(line.as_bytes()).is_ok())
        });
        if !written {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the sub-problem `index`, reached by `path`, was recorded empty.
    pub(crate) fn recorded(&self, index: usize, path: &[Decision]) -> bool {
        self.recorded.contains(&(index, path_hash(path)))
    }

    /// How many empty sub-problems earlier runs recorded.
    pub fn recorded_before(&self) -> usize {
        self.recorded.len()
    }

    /// Records the sub-problem `index`, reached by `path`, as searched to its
    /// end without a solution. The line is written at once, whole.
    /// The line also carries the process's CPU seconds so far, so that a
    /// runner can count what a run cut off had spent up to its last record.
    pub(crate) fn record(&self, index: usize, path: &[Decision]) {
        let cpu = cpu_seconds().map_or(String::new(), |c| format!(",\"cpu\":{c:.1}"));
        let line = format!(
            "{{\"type\":\"empty\",\"index\":{index},\"path\":\"{:016x}\"{cpu}}}\n",
            path_hash(path)
        );
        let written = match self.file.lock() {
            Ok(mut f) => f
                .write_all(line.as_bytes())
                .and_then(|()| f.flush())
                .is_ok(),
            Err(_) => false,
        };
        if !written {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// The part ended, every sub-problem searched: `FILE.nogoods` goes.
    pub fn ended(&self) {
        if let Ok(mut f) = self.refuted_file.lock() {
            *f = None;
        }
        let _ = std::fs::remove_file(nogoods_path(&self.path));
    }

    /// The log's file, and whether a record could not be written to it.
    pub fn behind(&self) -> Option<&Path> {
        self.failed
            .load(Ordering::Relaxed)
            .then_some(self.path.as_path())
    }
}

/// Where a log's restart nogoods are kept: beside it, `.nogoods` added.
fn nogoods_path(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_owned();
    name.push(".nogoods");
    PathBuf::from(name)
}

/// Opens `FILE.nogoods` for appending, starting it with `header` when new.
fn open_refuted(path: &Path, header: &str) -> Option<File> {
    let mut f = OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .ok()?;
    if f.metadata().ok()?.len() == 0 {
        f.write_all(format!("{header}\n").as_bytes()).ok()?;
    }
    Some(f)
}

/// The nogoods kept in `path` for sub-problems not `ended`, when its header
/// is `header` (the same part and split); the file is rewritten with those
/// alone, or removed when none is left (or it belongs to another run).
fn read_refuted(path: &Path, header: &str, ended: &FxHashSet<(usize, u64)>) -> Refuted {
    let mut kept = Refuted::default();
    let Ok(text) = std::fs::read_to_string(path) else {
        return kept;
    };
    let mut lines = text.lines();
    let same_run = lines.next().is_some_and(|first| {
        serde_json::from_str::<serde_json::Value>(first).ok()
            == serde_json::from_str::<serde_json::Value>(header).ok()
    });
    let mut out = format!("{header}\n");
    if same_run {
        for line in lines {
            // A line cut short by a kill does not parse: it is passed over.
            let Some((key, nogoods)) = refuted_entry(line) else {
                continue;
            };
            if ended.contains(&key) {
                continue;
            }
            out.push_str(line);
            out.push('\n');
            kept.entry(key).or_insert_with(Vec::new).extend(nogoods);
        }
    }
    let _ = if kept.is_empty() {
        std::fs::remove_file(path)
    } else {
        let tmp = nogoods_path(path);
        std::fs::write(&tmp, out).and_then(|()| std::fs::rename(&tmp, path))
    };
    kept
}

/// A nogoods line's sub-problem (index and path hash) and nogoods.
#[allow(clippy::type_complexity)]
fn refuted_entry(line: &str) -> Option<((usize, u64), Vec<Vec<DecLit>>)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let index = usize::try_from(v["index"].as_u64()?).ok()?;
    let hash = u64::from_str_radix(v["path"].as_str()?, 16).ok()?;
    let text = v["nogoods"].as_str()?;
    if u64::from_str_radix(v["sum"].as_str()?, 16).ok()? != refuted_sum((index, hash), text) {
        return None;
    }
    let nogoods = text
        .split(',')
        .map(|nogood| nogood.split(' ').map(literal).collect::<Option<Vec<_>>>())
        .collect::<Option<Vec<_>>>()?;
    Some(((index, hash), nogoods))
}

/// A literal as [`PartLog::record_refuted`] writes it: `x=v` or `x<=v`.
fn literal(text: &str) -> Option<DecLit> {
    if let Some((x, v)) = text.split_once("<=") {
        return Some(DecLit::Le(x.parse().ok()?, v.parse().ok()?));
    }
    let (x, v) = text.split_once('=')?;
    Some(DecLit::Eq(x.parse().ok()?, v.parse().ok()?))
}

/// An `empty` line's index and path hash.
fn entry(line: &str) -> Option<(usize, u64)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    if v["type"] != "empty" {
        return None;
    }
    let index = usize::try_from(v["index"].as_u64()?).ok()?;
    let hash = u64::from_str_radix(v["path"].as_str()?, 16).ok()?;
    Some((index, hash))
}

/// The CPU seconds (user and system, every thread) this process has used.
#[cfg(unix)]
fn cpu_seconds() -> Option<f64> {
    // SAFETY: an all-zero `rusage` is valid, and `getrusage` only writes it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, exclusively borrowed `rusage`.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(secs(usage.ru_utime) + secs(usage.ru_stime))
}

#[cfg(not(unix))]
fn cpu_seconds() -> Option<f64> {
    None
}

/// FNV-1a over a path's decisions.
fn path_hash(path: &[Decision]) -> u64 {
    let mut h = Fnv::new();
    for d in path {
        let (kind, value) = match d.branch {
            Branch::Assign(v) => (0, v),
            Branch::AtMost(v) => (1, v),
        };
        h.bytes(&(d.var as u64).to_le_bytes())
            .bytes(&(kind | u64::from(d.right) << 1).to_le_bytes())
            .bytes(&(value as u64).to_le_bytes());
    }
    h.finish()
}

/// The checksum of a nogoods line: its sub-problem and nogoods.
fn refuted_sum((index, hash): (usize, u64), nogoods: &str) -> u64 {
    let mut h = Fnv::new();
    let _ = write!(h, "{index} {hash:016x} {nogoods}");
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cspi-part-log-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    fn d(var: usize, v: i64, right: bool) -> Decision {
        Decision {
            var,
            branch: Branch::Assign(v),
            right,
        }
    }

    #[test]
    fn records_survive_and_are_matched_by_index_and_path() {
        let path = temp("a.log");
        let part = "3/8";
        let (p0, p1) = (vec![d(0, 1, false)], vec![d(0, 1, true), d(0, 2, false)]);
        let log = PartLog::open(&path, part, "f00d").unwrap();
        assert_eq!(log.recorded_before(), 0);
        log.record(0, &p0);
        log.record(1, &p1);
        drop(log);
        let log = PartLog::open(&path, part, "f00d").unwrap();
        assert_eq!(log.recorded_before(), 2);
        assert!(log.recorded(0, &p0) && log.recorded(1, &p1));
        // Another path at the same index (another split) is searched again,
        // and once recorded both are kept.
        assert!(!log.recorded(0, &p1));
        log.record(0, &p1);
        drop(log);
        let log = PartLog::open(&path, part, "f00d").unwrap();
        assert!(log.recorded(0, &p0) && log.recorded(0, &p1));
        assert!(!log.recorded(2, &p0));
        assert!(log.behind().is_none());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().filter(|l| l.contains("start")).count(), 3);
        // Each record carries the process's CPU so far, never less than the one before.
        let cpu: Vec<f64> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["cpu"].as_f64())
            .collect();
        assert_eq!(cpu.len(), 3);
        assert!(cpu.windows(2).all(|w| w[0] <= w[1]), "{cpu:?}");
    }

    #[test]
    fn a_log_of_another_part_or_run_is_refused() {
        let path = temp("b.log");
        drop(PartLog::open(&path, "3/8", "f00d").unwrap());
        let e = PartLog::open(&path, "4/8", "f00d").unwrap_err();
        assert!(e.contains("not of this run's part 4/8"), "{e}");
        let e = PartLog::open(&path, "3/8", "beef").unwrap_err();
        assert!(e.contains("fingerprint beef"), "{e}");
        let other = temp("c.log");
        std::fs::write(&other, "{\"type\":\"summary\"}\n").unwrap();
        let e = PartLog::open(&other, "3/8", "f00d").unwrap_err();
        assert!(e.contains("not a part log"), "{e}");
    }

    #[test]
    fn a_line_cut_short_is_passed_over_and_the_next_starts_on_its_own_line() {
        let path = temp("d.log");
        let part = "1/2";
        let p = vec![d(4, 7, false)];
        drop(PartLog::open(&path, part, "f").unwrap());
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"type\":\"empty\",\"index\":0,\"pa")
            .unwrap();
        drop(f);
        let log = PartLog::open(&path, part, "f").unwrap();
        assert_eq!(log.recorded_before(), 0);
        log.record(0, &p);
        drop(log);
        let log = PartLog::open(&path, part, "f").unwrap();
        assert!(log.recorded(0, &p));
    }

    #[test]
    fn restart_nogoods_survive_for_sub_problems_not_ended_and_only_for_this_run() {
        let path = temp("e.log");
        let side = nogoods_path(&path);
        let _ = std::fs::remove_file(&side);
        let (p0, p1) = (vec![d(0, 1, false)], vec![d(0, 1, true)]);
        let a = vec![DecLit::Eq(3, 7), DecLit::Le(4, -2)];
        let b = vec![DecLit::Eq(5, i64::MIN)];
        let log = PartLog::open(&path, "1/2", "f").unwrap();
        assert!(log.refuted(0, &p0).is_empty());
        log.record_refuted(0, &p0, std::slice::from_ref(&a));
        log.record_refuted(0, &p0, &[b.clone(), a.clone()]);
        log.record_refuted(1, &p1, std::slice::from_ref(&b));
        drop(log);
        // A line cut short by a kill is passed over.
        let mut f = OpenOptions::new().append(true).open(&side).unwrap();
        f.write_all(b"{\"index\":1,\"path\":\"0\",\"nogoods\":\"3=")
            .unwrap();
        drop(f);
        let log = PartLog::open(&path, "1/2", "f").unwrap();
        assert_eq!(log.refuted(0, &p0), vec![a.clone(), b.clone(), a.clone()]);
        // Taken once; kept by index and path alike.
        assert!(log.refuted(0, &p0).is_empty());
        assert!(log.refuted(0, &p1).is_empty());
        assert!(log.behind().is_none());
        // Sub-problem 0 ends: its nogoods go when the log is next opened.
        log.record(0, &p0);
        drop(log);
        let log = PartLog::open(&path, "1/2", "f").unwrap();
        assert!(log.refuted(0, &p0).is_empty());
        assert_eq!(log.refuted(1, &p1), vec![b.clone()]);
        drop(log);
        let text = std::fs::read_to_string(&side).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        // Another run's nogoods (another split) are dropped, file and all.
        let other = temp("f.log");
        std::fs::copy(&side, nogoods_path(&other)).unwrap();
        let log = PartLog::open(&other, "1/2", "beef").unwrap();
        assert!(log.refuted(1, &p1).is_empty());
        assert!(!nogoods_path(&other).exists());
        // Once every sub-problem with nogoods has ended, the file goes too.
        let log = PartLog::open(&path, "1/2", "f").unwrap();
        log.record(1, &p1);
        drop(log);
        drop(PartLog::open(&path, "1/2", "f").unwrap());
        assert!(!side.exists());
    }

    /// A damaged `FILE.nogoods`, cut at any byte or with any byte changed,
    /// opens without a panic and gives back whole lines as recorded, or
    /// nothing: a changed digit is caught by the line's checksum.
    #[test]
    fn a_damaged_nogoods_file_gives_back_only_lines_as_recorded() {
        let path = temp("g.log");
        let side = nogoods_path(&path);
        let _ = std::fs::remove_file(&side);
        let p0 = vec![d(0, 1, false)];
        let a = vec![DecLit::Eq(3, 7), DecLit::Le(4, -2)];
        let b = vec![DecLit::Eq(5, 12)];
        let log = PartLog::open(&path, "1/2", "f").unwrap();
        log.record_refuted(0, &p0, &[a.clone(), b.clone()]);
        log.record_refuted(0, &p0, std::slice::from_ref(&b));
        drop(log);
        let whole = std::fs::read(&side).unwrap();
        let (first, second) = (vec![a.clone(), b.clone()], vec![b.clone()]);
        let both = [first.clone(), second.clone()].concat();
        let mut taken = 0;
        let mut check = |bytes: &[u8]| {
            std::fs::write(&side, bytes).unwrap();
            let got = PartLog::open(&path, "1/2", "f").unwrap().refuted(0, &p0);
            assert!(
                [&both, &first, &second, &Vec::new()].contains(&&got),
                "{:?} gave {got:?}",
                String::from_utf8_lossy(bytes)
            );
            taken += usize::from(!got.is_empty());
        };
        check(&whole);
        for cut in 0..whole.len() {
            check(&whole[..cut]);
        }
        for i in 0..whole.len() {
            for delta in [1u8, 2, 9, 128] {
                let mut w = whole.clone();
                w[i] = w[i].wrapping_add(delta);
                check(&w);
            }
        }
        // The lines left whole are taken.
        assert!(taken > whole.len() * 2, "{taken}");
    }

    #[test]
    fn paths_differing_in_any_field_hash_apart() {
        let base = [d(1, 5, false)];
        let others = [
            [d(2, 5, false)],
            [d(1, 6, false)],
            [d(1, 5, true)],
            [Decision {
                var: 1,
                branch: Branch::AtMost(5),
                right: false,
            }],
        ];
        for o in &others {
            assert_ne!(path_hash(&base), path_hash(o), "{o:?}");
        }
        assert_ne!(path_hash(&base), path_hash(&[base[0], base[0]]));
    }
}
