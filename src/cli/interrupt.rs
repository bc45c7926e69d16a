//! Ctrl-C and SIGTERM: the first one stops the search as a limit does (the
//! run still prints what it found, its statistics and its summary); a second
//! one exits at once, with the shell's code for the signal (128 + its number).
//!
//! signal-hook does the signal-safe part: its handlers only store to atomics.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The flag the search polls, and which signal set it.
#[derive(Clone, Debug)]
pub struct Interrupt {
    pub(crate) stop: Arc<AtomicBool>,
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers. Without them (registration failed) signals keep
    /// their default action and kill the process, as before.
    pub fn install() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let signal = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // Registered first, so it runs before `stop` is set: it exits only
            // on the second signal.
            let _ = flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&stop));
            let _ = flag::register(sig, Arc::clone(&stop));
            let _ = flag::register_usize(sig, Arc::clone(&signal), sig as usize);
        }
        Interrupt { stop, signal }
    }

    /// The exit code of a run that a signal stopped: 130 for SIGINT, 143 for
    /// SIGTERM; `None` when no signal came.
    pub(crate) fn exit_code(&self) -> Option<i32> {
        if !self.stop.load(Ordering::Relaxed) {
            return None;
        }
        match self.signal.load(Ordering::Relaxed) {
            0 => Some(128 + SIGINT),
            s => Some(128 + s as i32),
        }
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}
