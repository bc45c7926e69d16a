#![deny(clippy::unwrap_used, clippy::expect_used)]

use clap::Parser;
use cspi::diag::exit;
use cspi::output::sink::eprint;
use std::sync::atomic::{AtomicBool, Ordering};

/// Counts live heap bytes, so that `--memory-limit` bounds building a model by bytes.
#[global_allocator]
static ALLOCATOR: cspi::memory::Counting = cspi::memory::Counting;

/// Whether descriptor 1 was closed when the process started. Only a
/// constructor that runs before the Rust runtime can tell: the runtime then
/// opens `/dev/null` read-write on a closed standard descriptor, which looks
/// exactly like a `/dev/null` the caller chose (`subprocess.DEVNULL`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

#[cfg(target_os = "linux")]
extern "C" fn record_stdout() {
    const F_GETFD: i32 = 1;
    unsafe extern "C" {
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }
    // SAFETY: F_GETFD only reads the flags of descriptor 1; -1 means it is not open.
    let closed = unsafe { fcntl(1, F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Stack of the thread that runs the pipeline.
const STACK_BYTES: usize = 1 << 30;

fn main() {
    cspi::memory::tune_heap();
    cspi::output::sink::set_stdout_closed_at_start(STDOUT_CLOSED.load(Ordering::Relaxed));
    // A panic is a bug in cspi, never the user's fault: say so, and exit with
    // a code distinct from model errors. The hook must not panic itself (a
    // full or closed stderr), or the process would abort.
    std::panic::set_hook(Box::new(|info| {
        eprint(&format!(
            "internal error: {info}\n\
             This is a bug in cspi. Please report it with the model and the command line that caused it.\n"
        ));
    }));
    let cli = match cspi::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    // Installed before any work, so the first Ctrl-C always stops the search gracefully.
    let interrupt = cspi::cli::interrupt::Interrupt::install();
    // The parser and evaluator recurse on expression trees; a large stack
    // (reserved, not committed) lets long operator chains through safely.
    let worker = std::thread::Builder::new()
        .name("cspi".into())
        .stack_size(STACK_BYTES)
        .spawn(move || cspi::cli::run(cli, &interrupt));
    let code = match worker {
        Ok(handle) => handle.join().unwrap_or(exit::INTERNAL),
        Err(e) => {
            eprint(&format!(
                "internal error: cannot start the solver thread: {e}\n"
            ));
            exit::INTERNAL
        }
    };
    std::process::exit(code);
}
