//! `--part K/N`: one part of a deterministic split, so that N processes on
//! any machines solve a model together without exchanging anything but
//! their results (docs/distributed.md).
//!
//! Every process lowers the same model, splits it the same way
//! (`engine/split.rs`, into at least [`SUBPROBLEMS_PER_PART`] × N
//! sub-problems) and keeps the sub-problems `K-1, K-1+N, K-1+2N, ...`
//! (round robin, so that neighbouring sub-problems, often alike in size, go
//! to different parts). Its summary carries a fingerprint of the model, its
//! parameters, the strategy, the kind of run and N: `cspi merge` combines
//! only parts with the same fingerprint, and needs each K once.

use crate::engine::split::Path;
use crate::model::{Model, VarKind};
use crate::solve::Options;
use std::fmt::{self, Write};

/// Sub-problems per part that the split aims at, so that parts come out
/// of similar size. Every part computes the whole split, so its cost grows
/// with N times this: with 32, a 64-part split of n-queens 13 cost 22 % more
/// CPU in all than one run, with 8 it costs 2.5–5 %, and the longest part is
/// 1.4 times the mean. A cluster gets the 30 or more sub-problems per worker
/// that EPS asks for from N >= 4 W parts (docs/distributed.md).
pub const SUBPROBLEMS_PER_PART: usize = 8;

/// The K-th of N parts, `1 <= k <= n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub k: usize,
    pub n: usize,
}

impl Part {
    /// Reads `K/N`.
    pub fn parse(s: &str) -> Result<Part, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N (the K-th of N parts, such as 3/64)"))?;
        let num = |t: &str, what: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{t}` is not a {what} in `{s}`"))
        };
        let (k, n) = (num(k, "part number")?, num(n, "number of parts")?);
        if n == 0 || n > 1 << 20 {
            return Err(format!(
                "the number of parts must be from 1 to 1048576, not {n}"
            ));
        }
        if k == 0 || k > n {
            return Err(format!(
                "parts are numbered from 1 to {n}; {k} is not one of them"
            ));
        }
        Ok(Part { k, n })
    }

    /// This part's sub-problems, from the whole split's.
    pub fn select(self, all: Vec<Path>) -> Vec<Path> {
        all.into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.n == self.k - 1)
            .map(|(_, p)| p)
            .collect()
    }
}

/// What a part's summary says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartInfo {
    pub part: Part,
    /// Of the model, parameters, strategy, kind of run and N (hex).
    pub fingerprint: String,
    /// Sub-problems in this part, and in the whole split.
    pub subproblems: usize,
    pub total_subproblems: usize,
    /// `minimize` or `maximize` with an objective, for `cspi merge`.
    pub sense: Option<&'static str>,
}

/// The fingerprint of a run split into `n` parts: FNV-1a (64 bits) over a
/// description of everything the split and the answer depend on, and
/// nothing else (not the paths of data files, not the thread count).
pub fn fingerprint(model: &Model, options: &Options, n: usize) -> String {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let _ = describe(&mut h, model, options, n);
    format!("{:016x}", h.0)
}

fn describe(h: &mut Fnv, model: &Model, options: &Options, n: usize) -> fmt::Result {
    write!(h, "cspi {}|parts {n}|", env!("CARGO_PKG_VERSION"))?;
    for v in &model.vars {
        write!(h, "var {:?} {}|", v.domain, v.aux)?;
        if let VarKind::Word(list) = &v.kind {
            write!(h, "words {:?} {:?}|", list.words, list.scores)?;
        }
    }
    for (name, g) in &model.groups {
        write!(h, "group {name} {:?} {:?}|", g.dims, g.vars)?;
    }
    for c in &model.constraints {
        write!(h, "constraint {c:?}|")?;
    }
    write!(h, "objective {:?}|", model.objective)?;
    write!(h, "projection {:?}|", model.projection)?;
    write!(h, "search {:?}|", options.search)?;
    write!(
        h,
        "count {} solutions {:?}",
        options.count_only, options.limits.solutions
    )
}

/// FNV-1a, written to as text: stable across machines and Rust versions.
struct Fnv(u64);

impl Write for Fnv {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_read_and_checked() {
        assert_eq!(Part::parse("3/64"), Ok(Part { k: 3, n: 64 }));
        assert!(Part::parse("0/4").unwrap_err().contains("from 1 to 4"));
        assert!(Part::parse("5/4").is_err());
        assert!(Part::parse("1/0").is_err());
        assert!(Part::parse("2").unwrap_err().contains("K/N"));
        assert!(Part::parse("a/4").is_err());
    }

    #[test]
    fn parts_take_every_nth_sub_problem() {
        let all: Vec<Path> = (0..10).map(|_| Vec::new()).collect();
        let sizes: Vec<usize> = (1..=3)
            .map(|k| Part { k, n: 3 }.select(all.clone()).len())
            .collect();
        assert_eq!(sizes, [4, 3, 3]);
    }
}
