//! Memory, counted in bytes: a global allocator that keeps the number of live
//! heap bytes, so that building a model can be bounded by what it really
//! costs (`--memory-limit`). Counting steps (array items, comprehension
//! steps) says little about bytes: 22 nested `exists` in a 464-byte model
//! took gigabytes within the step budget.
//!
//! The count is one relaxed atomic addition per allocation and per release,
//! next to the cost of the allocation itself.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Bytes this thread allocated less those it released (a block released
    /// by another thread counts there): a model built on one thread while
    /// others build theirs is measured by what it takes alone ([`Mark`]).
    static OWN: Cell<i64> = const { Cell::new(0) };
}

/// Adds `bytes` (negative: released) to this thread's count. A `const`
/// thread-local without a destructor is always there, so this never fails.
fn own(bytes: i64) {
    let _ = OWN.try_with(|c| c.set(c.get().wrapping_add(bytes)));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// count is bookkeeping only.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
            own(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
            own(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        own(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
            own(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

/// Lets all threads but the main one allocate from one glibc arena (the
/// main thread keeps its own), instead of one arena per thread, and lets
/// heaps grow by 4 MiB at a time.
///
/// Why: the worker threads of `--threads` lower the same model, so with an
/// arena each (heaps aligned on 64 MiB) their hot data lie at the same
/// offsets in different heaps, and two such threads slowed each other by up
/// to 40% on the AMD EPYC machines we measure on (crossword enumeration on
/// two threads: 3.87 to 5.36 s of CPU from run to run, against 3.80 s on one
/// thread; separate processes never slowed). In one arena their data
/// interleave: 3.81 to 3.84 s, run after run. The search allocates nothing
/// on its hot path, so sharing the arena costs no lock contention there.
/// Call it before starting any thread; elsewhere than glibc it does nothing.
pub fn tune_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets tunables of the allocator; it is called
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        // The pipeline thread's arena grows its heap by what each
        // allocation lacks plus this pad, one mprotect call each time:
        // 705 calls to load the 8-puzzle model with the default 128 KiB,
        // 9 with 4 MiB (pages are still only committed when touched).
        libc::mallopt(libc::M_TOP_PAD, 4 << 20);
    }
}

/// Heap bytes in use by the whole process right now.
pub(crate) fn live_bytes() -> u64 {
    LIVE.load(Ordering::Relaxed) as u64
}

/// The heap when a model's building began, on the thread building it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    live: u64,
    own: i64,
}

impl Mark {
    pub(crate) fn now() -> Mark {
        Mark {
            live: live_bytes(),
            own: OWN.try_with(Cell::get).unwrap_or(0),
        }
    }

    /// The heap in use as this thread's building sees it: the process's at
    /// the mark, and what this thread added since. What other threads
    /// allocate meanwhile (their own models, `--try-blocks --threads`, or a
    /// Python program's threads) does not count against this one.
    pub(crate) fn used(&self) -> u64 {
        let added = OWN.try_with(Cell::get).unwrap_or(self.own) - self.own;
        self.live.saturating_add_signed(added)
    }
}

/// How much memory building a model may take unless `--memory-limit` says
/// otherwise: far more than any bundled model needs (the largest take tens
/// of MiB), and well below what a desktop machine has.
pub(crate) const DEFAULT_LIMIT: u64 = 1 << 30;

/// A size for messages: `512 MiB`, `2 GiB`, or bytes.
pub(crate) fn shown(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else if bytes == 1 {
        "1 byte".to_string()
    } else {
        format!("{bytes} bytes")
    }
}

/// Parses a size such as `512M`, `2G`, `1.5GiB`, `4096` (bytes) or `64k`.
/// Units are powers of 1024.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "`{text}` is not a size; write for example 512M or 4G"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size; write for example 512M or 4G"))?;
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes < (1u64 << 62) as f64) {
        return Err(format!("`{text}` is not a usable size"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static COUNTING: Counting = Counting;

    #[test]
    fn sizes_parse_in_powers_of_1024() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("64 kb"), Ok(64 << 10));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("1e30").is_err());
    }

    #[test]
    fn sizes_show_in_the_largest_whole_unit() {
        assert_eq!(shown(1), "1 byte");
        assert_eq!(shown(1024), "1024 bytes");
        assert_eq!(shown(512 << 20), "512 MiB");
        assert_eq!(shown(3 << 29), "1536 MiB");
        assert_eq!(shown(8 << 30), "8 GiB");
    }

    #[test]
    fn live_bytes_follow_allocations() {
        // Other tests allocate concurrently: look for the growth of a large
        // block, with a wide margin.
        let before = live_bytes();
        let block = vec![1u8; 64 << 20];
        let during = live_bytes();
        assert!(during >= before + (48 << 20), "{before} -> {during}");
        drop(block);
    }

    #[test]
    fn a_mark_counts_its_own_thread_only() {
        let mark = Mark::now();
        let theirs = std::thread::spawn(|| vec![1u8; 64 << 20]).join().unwrap();
        assert!(
            mark.used() < mark.live + (16 << 20),
            "another thread's block counted"
        );
        let mine = vec![1u8; 64 << 20];
        assert!(
            mark.used() >= mark.live + (64 << 20),
            "this thread's block not counted"
        );
        drop(mine);
        assert!(
            mark.used() < mark.live + (16 << 20),
            "a released block still counted"
        );
        drop(theirs);
    }
}
