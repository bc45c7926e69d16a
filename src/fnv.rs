//! FNV-1a, 64 bits: a hash stable across builds and machines (unlike the
//! standard hasher), for what is written to files and read back: a split's
//! fingerprint, a part log's path hashes and checksums, the word-list cache.

use std::fmt;

/// The hash state; feed it bytes (or text through `write!`), then read
/// [`Fnv::finish`].
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
    }

    /// The hash of `bytes` alone.
    pub(crate) fn of(bytes: &[u8]) -> u64 {
        Fnv::new().bytes(bytes).finish()
    }
}

impl fmt::Write for Fnv {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.bytes(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a 64: files written by one build
    /// must hash alike in the next.
    #[test]
    fn matches_the_published_vectors() {
        assert_eq!(Fnv::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv::of(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv::of(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
