//! `max_shared_substring(k, lengths, letters)`: no two entries share a
//! substring of more than `k` letters, the constructors' "no long shared
//! substrings" (`ingrid_core --max-shared-substring k`). The entries are
//! given by their letters, `letters` cut into words of `lengths`, so the
//! meaning is on letters, independent of any word list. Models call it as
//! `max_shared_substring(xw, k)` over word variables (`sema/builtins.rs`
//! spells out their letters).

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, at_least, consts};
use crate::model::GlobalArg;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct MaxSharedSubstring;

const NAMES: [&str; 3] = ["k", "lengths", "letters"];

impl Global for MaxSharedSubstring {
    fn kind(&self) -> Kind {
        Kind::MaxSharedSubstring
    }
    fn name(&self) -> &'static str {
        "max_shared_substring"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("k", ParamKind::Int),
            param("lengths", ParamKind::Ints),
            param("letters", ParamKind::Terms),
        ];
        P
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].int(), args[1].ints(), args[2].ints())
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        at_least(args, &NAMES, 0, 0, "a substring length")?;
        at_least(args, &NAMES, 1, 0, "a word length")?;
        let total: i64 = consts(&args[1]).iter().sum();
        if total != super::len(&args[2]) as i64 {
            return Err(ArgProblem::new(
                2,
                format!(
                    "`letters` has {} items but the lengths add up to {total}",
                    super::len(&args[2])
                ),
                "give every letter of every entry, entry after entry",
            ));
        }
        Ok(())
    }
}

/// Whether no two of the words (`letters` cut by `lengths`) share a
/// substring longer than `k` letters.
pub(crate) fn holds(k: i64, lengths: &[i64], letters: &[i64]) -> bool {
    let mut words = Vec::with_capacity(lengths.len());
    let mut at = 0usize;
    for &n in lengths {
        let n = n.max(0) as usize;
        let Some(w) = letters.get(at..at + n) else {
            return false;
        };
        words.push(w);
        at += n;
    }
    let w = usize::try_from(k).unwrap_or(0) + 1;
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            if a.windows(w).any(|s| b.windows(w).any(|t| s == t)) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(s: &str) -> Vec<i64> {
        s.chars().map(|c| c as i64).collect()
    }

    #[test]
    fn shared_runs_longer_than_k_break_it() {
        let (a, b) = (word("stone"), word("tones"));
        let letters: Vec<i64> = a.iter().chain(&b).copied().collect();
        // "tone" is shared: 4 letters.
        assert!(!holds(3, &[5, 5], &letters));
        assert!(holds(4, &[5, 5], &letters));
        // Within one entry a repeat does not count.
        assert!(holds(1, &[6], &word("tartar")));
    }
}
