//! Where text goes, without ever panicking on a write error.
//!
//! `print!` and `eprint!` panic when a write fails, and a panic while the
//! panic hook writes to a broken stderr aborts the process. Every line cspi
//! writes goes through here instead:
//!
//! - results go to [`Stdout`], which remembers the first failure so the search
//!   can stop: a reader that went away (`| head -1`) ends the run quietly, any
//!   other failure (a full disk, a closed stdout) is an error exit;
//! - messages go to [`eprint`], which drops what stderr cannot take: there is
//!   nowhere left to report that failure.

use std::io::{self, BufWriter, ErrorKind, Write};

/// Why results stopped being written.
#[derive(Debug)]
pub enum Failure {
    /// The reader closed the pipe: nobody wants more, which is not an error.
    ReaderGone,
    /// The results were lost: a full disk, a closed stdout, an I/O error.
    Lost(io::Error),
}

/// Standard output for results, line-buffered by hand: each call to
/// [`Stdout::write`] is one whole record (a JSON line, a solution), flushed
/// at once so that a reader sees whole lines and an interrupted run loses none.
pub struct Stdout {
    out: BufWriter<io::Stdout>,
    failure: Option<Failure>,
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Stdout {
    pub fn new() -> Self {
        let failure = stdout_closed().then(|| {
            Failure::Lost(io::Error::new(
                ErrorKind::BrokenPipe,
                "standard output is closed",
            ))
        });
        Stdout {
            out: BufWriter::new(io::stdout()),
            failure,
        }
    }

    /// Writes and flushes one record; false once output has failed (the
    /// caller stops its work: nobody can read the rest).
    pub fn write(&mut self, text: &str) -> bool {
        if self.failure.is_some() {
            return false;
        }
        if let Err(e) = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
        {
            self.failure = Some(match e.kind() {
                ErrorKind::BrokenPipe => Failure::ReaderGone,
                _ => Failure::Lost(e),
            });
            return false;
        }
        true
    }

    /// Whether output still works.
    pub fn ok(&self) -> bool {
        self.failure.is_none()
    }

    /// The first failure, if any.
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }
}

/// Writes a message to stderr, dropping it if stderr cannot take it.
pub fn eprint(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Whether stdout was closed when cspi started. The Rust runtime puts
/// `/dev/null` (opened read-write) on a closed standard descriptor, so writes
/// to it would succeed and the results vanish; a shell's `>/dev/null` opens it
/// write-only. Linux tells which through /proc; elsewhere this says false.
fn stdout_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target != std::path::Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 == 0o2) // O_ACCMODE == O_RDWR
}
