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
use std::sync::atomic::{AtomicBool, Ordering};

/// Why results stopped being written.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The reader closed the pipe: nobody wants more, which is not an error.
    ReaderGone,
    /// The results were lost: a full disk, a closed stdout, an I/O error.
    Lost(io::Error),
}

/// Standard output for results, line-buffered by hand: each call to
/// [`Stdout::write`] is one whole record (a JSON line, a solution), flushed
/// at once so that a reader sees whole lines and an interrupted run loses none.
pub(crate) struct Stdout {
    out: BufWriter<io::Stdout>,
    failure: Option<Failure>,
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Stdout {
    pub(crate) fn new() -> Self {
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
    pub(crate) fn write(&mut self, text: &str) -> bool {
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
    pub(crate) fn ok(&self) -> bool {
        self.failure.is_none()
    }

    /// The first failure, if any.
    pub(crate) fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }
}

/// Writes a message to stderr, dropping it if stderr cannot take it.
pub fn eprint(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Whether stdout was closed when the process started, as the binary saw it
/// before the Rust runtime put `/dev/null` on the closed descriptor (after
/// that, a closed stdout and a `/dev/null` that the caller chose, such as
/// Python's `subprocess.DEVNULL`, look the same). Set once by `main`.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records that stdout was closed at start (see `main.rs`).
pub fn set_stdout_closed_at_start(closed: bool) {
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

fn stdout_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}
