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
//!
//! `--part K/N:J/M` (a part too long to run at once): part K's sub-problems
//! are split again (`split::split_from`, into at least
//! [`SUBPROBLEMS_PER_PART`] × M) and dealt round robin to M sub-parts, of
//! which this process keeps the J-th; `K/N:J/M:I/L` splits that sub-part's
//! again, and so on ([`MAX_NEST`] levels). They carry the same fingerprint,
//! and `cspi merge` combines the sub-parts of each level into their part.

use crate::fnv::Fnv;
use crate::model::{Model, VarKind, WordList};
use crate::run::Options;
pub use crate::run::{MAX_NEST, Part, PartInfo, SubPart};
use std::fmt::{self, Write};
use std::sync::Arc;

/// Sub-problems per part that the split aims at, so that parts come out
/// of similar size. Every part computes the whole split, so its cost grows
/// with N times this: with 32, a 64-part split of n-queens 13 cost 22 % more
/// CPU in all than one run, with 8 it costs 2.5–5 %, and the longest part is
/// 1.4 times the mean. A cluster gets the 30 or more sub-problems per worker
/// that EPS asks for from N >= 4 W parts (docs/distributed.md).
pub(crate) const SUBPROBLEMS_PER_PART: usize = 8;

/// The fingerprint of a run split into `n` parts: FNV-1a (64 bits) over a
/// description of everything the split and the answer depend on, and
/// nothing else (not the paths of data files, not the thread count).
pub(crate) fn fingerprint(model: &Model, options: &Options, n: usize) -> String {
    let mut h = Fnv::new();
    let _ = describe(&mut h, model, options, n);
    format!("{:016x}", h.finish())
}

fn describe(h: &mut Fnv, model: &Model, options: &Options, n: usize) -> fmt::Result {
    write!(
        h,
        "cspi {}|split {}|parts {n}|",
        env!("CARGO_PKG_VERSION"),
        crate::engine::split::VERSION
    )?;
    // The slots of one length share one list: it is written out the first
    // time and named by its number after (a crossword of 375,000 slots
    // once spent 40 s writing the same list again and again).
    let mut lists: Vec<&Arc<WordList>> = Vec::new();
    for v in &model.vars {
        write!(h, "var {:?} {}|", v.domain, v.aux)?;
        if let VarKind::Word(list) = &v.kind {
            match lists.iter().position(|l| Arc::ptr_eq(l, list)) {
                Some(k) => write!(h, "words #{k}|")?,
                None => {
                    lists.push(list);
                    write!(h, "words {:?} {:?}|", list.words, list.scores)?;
                }
            }
        }
    }
    for (name, g) in &model.groups {
        write!(h, "group {name} {:?} {:?} {:?}|", g.dims, g.vars, g.set)?;
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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Domain, Variable};
    use crate::source::Span;

    fn list(words: &[&str]) -> Arc<WordList> {
        Arc::new(WordList {
            name: "d".into(),
            words: words.iter().map(|w| w.to_string()).collect(),
            scores: Vec::new(),
        })
    }

    fn slots(lists: &[&Arc<WordList>]) -> Model {
        let mut m = Model::default();
        for (i, l) in lists.iter().enumerate() {
            m.add_var(Variable {
                name: format!("w{i}"),
                domain: Domain::Range(0, l.words.len() as i64 - 1),
                kind: VarKind::Word(Arc::clone(l)),
                aux: false,
                span: Span::new(0, 0),
            });
        }
        m
    }

    /// A list shared by several slots is written once and named after, so
    /// the fingerprint still tells every slot's list apart.
    #[test]
    fn a_shared_list_is_written_once_and_still_told_apart() {
        let (a, b) = (list(&["cab", "dog"]), list(&["cab", "dot"]));
        let o = Options::default();
        let shared = fingerprint(&slots(&[&a, &a, &a]), &o, 3);
        assert_eq!(shared, fingerprint(&slots(&[&a, &a, &a]), &o, 3));
        assert_ne!(shared, fingerprint(&slots(&[&a, &a, &b]), &o, 3));
        assert_ne!(shared, fingerprint(&slots(&[&a, &b, &a]), &o, 3));
        assert_ne!(
            fingerprint(&slots(&[&a, &b, &a]), &o, 3),
            fingerprint(&slots(&[&a, &b, &b]), &o, 3)
        );
    }
}
