//! Counting globals: `among(n, x, S)` (`n` items of `x` lie in the set `S`),
//! `at_most(n, x, v)`, `at_least(n, x, v)`, `exactly(n, x, v)` (at most, at
//! least, exactly `n` items of `x` equal `v`) and `sequence(x, S, k, low,
//! high)` (every `k` consecutive items of `x` have between `low` and `high`
//! items in `S`: the car-sequencing constraint).

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, consts};
use crate::model::GlobalArg;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

pub struct Among;

impl Global for Among {
    fn kind(&self) -> Kind {
        Kind::Among
    }
    fn name(&self) -> &'static str {
        "among"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("n", ParamKind::Term),
            param("x", ParamKind::Terms),
            param("S", ParamKind::Set),
        ];
        P
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].int(), args[1].ints(), args[2].ints())
    }
}

/// Which bound `n` is on the number of items equal to `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    AtMost,
    AtLeast,
    Exactly,
}

/// `at_most`, `at_least` and `exactly`.
pub struct CountBound(pub Bound);

pub const AT_MOST: CountBound = CountBound(Bound::AtMost);
pub const AT_LEAST: CountBound = CountBound(Bound::AtLeast);
pub const EXACTLY: CountBound = CountBound(Bound::Exactly);

impl Global for CountBound {
    fn kind(&self) -> Kind {
        match self.0 {
            Bound::AtMost => Kind::AtMost,
            Bound::AtLeast => Kind::AtLeast,
            Bound::Exactly => Kind::Exactly,
        }
    }
    fn name(&self) -> &'static str {
        match self.0 {
            Bound::AtMost => "at_most",
            Bound::AtLeast => "at_least",
            Bound::Exactly => "exactly",
        }
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("n", ParamKind::Term),
            param("x", ParamKind::Terms),
            param("v", ParamKind::Int),
        ];
        P
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        let count = args[1]
            .ints()
            .iter()
            .filter(|&&x| x == args[2].int())
            .count() as i64;
        let n = args[0].int();
        match self.0 {
            Bound::AtMost => count <= n,
            Bound::AtLeast => count >= n,
            Bound::Exactly => count == n,
        }
    }
}

pub struct Sequence;

impl Global for Sequence {
    fn kind(&self) -> Kind {
        Kind::Sequence
    }
    fn name(&self) -> &'static str {
        "sequence"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("x", ParamKind::Terms),
            param("S", ParamKind::Set),
            param("k", ParamKind::Int),
            param("low", ParamKind::Int),
            param("high", ParamKind::Int),
        ];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        let k = consts(&args[2])[0];
        if k < 1 {
            return Err(ArgProblem::new(
                2,
                format!("the window `k` is {k}, but it must be at least 1"),
                "`k` is how many consecutive items of `x` each window holds",
            ));
        }
        Ok(())
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        sequence_holds(
            args[0].ints(),
            args[1].ints(),
            args[2].int(),
            args[3].int(),
            args[4].int(),
        )
    }
}

/// Whether `n` items of `x` lie in `set`.
pub fn holds(n: i64, x: &[i64], set: &[i64]) -> bool {
    x.iter().filter(|v| set.contains(v)).count() as i64 == n
}

/// Whether every `k` consecutive items of `x` have between `low` and `high`
/// items in `set` (true when `x` is shorter than `k`).
pub fn sequence_holds(x: &[i64], set: &[i64], k: i64, low: i64, high: i64) -> bool {
    let Ok(k) = usize::try_from(k) else {
        return false;
    };
    k >= 1
        && x.windows(k).all(|w| {
            let c = w.iter().filter(|v| set.contains(v)).count() as i64;
            low <= c && c <= high
        })
}
