//! A dictionary compiled into a decision diagram (a DAWG) for the `mdd`
//! global, once, with an on-disk cache: the data side of `trie(words,
//! symbols, max)` (`sema/trie.rs`).
//!
//! Each word is cut into the symbols (code i is `symbols[i]`, longest
//! first), words that cannot be cut or are longer than `max` are left out,
//! and the rows are padded with 0 to the longest kept word.
//!
//! Compiling a large dictionary costs more than reading it (264,061 words:
//! about 0.5 s), so the compiled diagram of a text, all its words, is kept in
//! a cache file named by a hash of its inputs (the text, the symbols and the
//! format version), then cut to `max` symbols (`Mdd::truncated`), in `$CSPI_CACHE_DIR`, else `$XDG_CACHE_HOME/cspi`, else
//! `~/.cache/cspi` (`CSPI_CACHE_DIR=off` disables it). A later run reads it
//! back in a few milliseconds. A cache file that is missing, unreadable,
//! truncated or inconsistent is ignored and rebuilt; failing to write one
//! is not an error. Never next to the dictionary, which may be read-only.

use super::symbols::Symbols;
use crate::fnv::Fnv;
use crate::model::mdd::Mdd;
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"CSPIMDD1";

/// The diagram of every word of `text` (whitespace-separated), read from
/// the cache or compiled and cached, then cut to `max` symbols.
pub(crate) fn compile_cached(text: &str, symbols: &[String], max: usize) -> Mdd {
    let key = cache_key(text, symbols);
    let all = read_cache(key).unwrap_or_else(|| {
        let m = compile(text.split_ascii_whitespace(), symbols, usize::MAX);
        write_cache(key, &m);
        m
    });
    if max >= all.arity {
        all
    } else {
        all.truncated(max, 0)
    }
}

/// The diagram of the words (see the module doc).
pub(crate) fn compile<'a>(
    words: impl Iterator<Item = &'a str>,
    symbols: &[String],
    max: usize,
) -> Mdd {
    let cutter = Symbols::new(symbols);
    let mut rows: Vec<Vec<i64>> = Vec::new();
    let mut width = 0;
    for w in words {
        if let Some(r) = cutter.cut(w)
            && !r.is_empty()
            && r.len() <= max
        {
            width = width.max(r.len());
            rows.push(r);
        }
    }
    // Codes 0 (the padding) to symbols.len(): the values are their own codes.
    let values: Vec<i64> = (0..=symbols.len() as i64).collect();
    let mut flat = Vec::with_capacity(rows.len() * width);
    for r in &rows {
        flat.extend(r.iter().map(|&c| c as u32));
        flat.extend(std::iter::repeat_n(0, width - r.len()));
    }
    Mdd::from_codes(width, values, flat, rows.len())
}

fn cache_key(text: &str, symbols: &[String]) -> u64 {
    let mut h = Fnv::new();
    h.bytes(MAGIC)
        .bytes(&(text.len() as u64).to_le_bytes())
        .bytes(text.as_bytes());
    for s in symbols {
        h.bytes(s.as_bytes()).bytes(&[0]);
    }
    h.finish()
}

fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("CSPI_CACHE_DIR") {
        return (d != "off").then(|| PathBuf::from(d));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("cspi"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("cspi"))
}

fn cache_file(key: u64) -> Option<PathBuf> {
    Some(cache_dir()?.join(format!("mdd-{key:016x}.bin")))
}

fn encode(key: u64, m: &Mdd) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(64 + 8 * m.values.len() + 4 * (m.first.len() + 2 * m.label.len()));
    out.extend_from_slice(MAGIC);
    for n in [
        key,
        m.arity as u64,
        m.rows,
        m.values.len() as u64,
        m.first.len() as u64,
        m.label.len() as u64,
    ] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    for v in &m.values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for list in [&m.first, &m.label, &m.target] {
        for x in list {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = Fnv::of(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The diagram in `bytes`, if they are a well-formed cache file for `key`.
fn decode(key: u64, bytes: &[u8]) -> Option<Mdd> {
    let body_len = bytes.len().checked_sub(8)?;
    let (body, sum) = bytes.split_at(body_len);
    if Fnv::of(body).to_le_bytes() != sum || !body.starts_with(MAGIC) {
        return None;
    }
    let mut at = MAGIC.len();
    let u64_at = |at: &mut usize| -> Option<u64> {
        let b = body.get(*at..*at + 8)?;
        *at += 8;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    };
    let header: Vec<u64> = (0..6).map(|_| u64_at(&mut at)).collect::<Option<_>>()?;
    let [k, arity, rows, nvalues, nfirst, nedges] = header[..] else {
        return None;
    };
    let need = 8u64
        .checked_mul(nvalues)?
        .checked_add(4u64.checked_mul(nfirst)?)?
        .checked_add(8u64.checked_mul(nedges)?)?;
    if k != key || need != (body.len() - at) as u64 {
        return None;
    }
    let values: Vec<i64> = body[at..at + 8 * nvalues as usize]
        .chunks_exact(8)
        .map(|c| {
            let mut b = [0; 8];
            b.copy_from_slice(c);
            i64::from_le_bytes(b)
        })
        .collect();
    at += 8 * nvalues as usize;
    let mut u32s = |n: u64| -> Vec<u32> {
        let v = body[at..at + 4 * n as usize]
            .chunks_exact(4)
            .map(|c| {
                let mut b = [0; 4];
                b.copy_from_slice(c);
                u32::from_le_bytes(b)
            })
            .collect();
        at += 4 * n as usize;
        v
    };
    let (first, label, target) = (u32s(nfirst), u32s(nedges), u32s(nedges));
    let m = Mdd {
        arity: arity as usize,
        values,
        first,
        label,
        target,
        rows,
    };
    well_formed(&m).then_some(m)
}

/// The invariants the propagator relies on: edges in range, children
/// before parents (so no cycle), every path of the root `arity` long.
fn well_formed(m: &Mdd) -> bool {
    let nodes = m.first.len().saturating_sub(1);
    if nodes < 2 && !(nodes == 1 && m.arity == 0)
        || m.first[0] != 0
        || m.first[1] != 0
        || m.first.last().copied().unwrap_or(0) as usize != m.label.len()
        || m.first.windows(2).any(|w| w[0] > w[1])
        || !m.values.windows(2).all(|w| w[0] < w[1])
    {
        return false;
    }
    // height[n]: the length of every path from n to the terminal.
    let mut height = vec![0usize; nodes];
    for n in 1..nodes {
        let (a, b) = (m.first[n] as usize, m.first[n + 1] as usize);
        let mut h = None;
        for e in a..b {
            let t = m.target[e] as usize;
            if t >= n
                || m.label[e] as usize >= m.values.len()
                || (e > a && m.label[e - 1] >= m.label[e])
            {
                return false;
            }
            if *h.get_or_insert(height[t] + 1) != height[t] + 1 {
                return false;
            }
        }
        height[n] = h.unwrap_or(0);
    }
    m.rows == 0 || height[nodes - 1] == m.arity
}

/// The largest cache file read back (a diagram of the largest dictionary
/// fits many times over).
const MAX_CACHE_BYTES: u64 = 1 << 30;

fn read_cache(key: u64) -> Option<Mdd> {
    // Through the one reader: a FIFO, device or link loop left in the cache
    // folder is refused, not waited on (it once hung every later run).
    let bytes = crate::reader::read_bytes(&cache_file(key)?, MAX_CACHE_BYTES, None).ok()?;
    decode(key, &bytes)
}

fn write_cache(key: u64, m: &Mdd) {
    let Some(path) = cache_file(key) else { return };
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    // Written aside, then renamed: a reader never sees half a file.
    let tmp = dir.join(format!("mdd-{key:016x}.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, encode(key, m)).is_ok() && std::fs::rename(&tmp, &path).is_ok() {
        return;
    }
    let _ = std::fs::remove_file(&tmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syms(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_are_cut_padded_and_filtered() {
        let s = syms(&["A", "B", "QU", "T"]);
        let m = compile("TAB QUA BAT QA A TABBAT".split_ascii_whitespace(), &s, 3);
        // QA cannot be cut; TABBAT is too long.
        assert_eq!(
            m.rows(),
            vec![vec![1, 0, 0], vec![2, 1, 4], vec![3, 1, 0], vec![4, 1, 2]]
        );
    }

    #[test]
    fn cache_files_round_trip_and_refuse_damage() {
        let s = syms(&["A", "B", "C"]);
        let m = compile("ABC AB CAB BA C".split_ascii_whitespace(), &s, 4);
        let bytes = encode(7, &m);
        assert_eq!(decode(7, &bytes), Some(m.clone()));
        assert_eq!(decode(8, &bytes), None, "another key");
        assert_eq!(decode(7, &bytes[..bytes.len() - 1]), None, "truncated");
        for i in (0..bytes.len()).step_by(3) {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert_eq!(decode(7, &bad), None, "byte {i} flipped");
        }
        // A wrong structure with a right checksum is refused too.
        let mut cyclic = m.clone();
        let last = cyclic.target.len() - 1;
        cyclic.target[last] = cyclic.root();
        assert_eq!(decode(7, &encode(7, &cyclic)), None);
    }

    #[test]
    fn keys_depend_on_every_input() {
        let s = syms(&["A", "B"]);
        let k = cache_key("AB BA", &s);
        assert_ne!(k, cache_key("AB BA ", &s));
        assert_ne!(k, cache_key("AB BA", &syms(&["A", "C"])));
        assert_ne!(k, cache_key("AB", &syms(&["A", "B BA"])));
    }
}
