//! `regular`, in MiniZinc's two forms:
//! - `regular(x, Q, S, d, q0, F)`: the sequence `x` is accepted by a
//!   deterministic finite automaton: states `1..Q`, symbols `1..S`,
//!   `d[(q - 1) * S + s]` the state after reading `s` in `q` (0: no
//!   transition), start state `q0`, accepting states `F`;
//! - `regular(x, r)`: `x` matches the regular expression `r`, a string
//!   known at load time, compiled into an automaton by `model/regex.rs`
//!   when the model loads.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, consts, len};
use crate::model::GlobalArg;

pub struct Regular;

/// `regular(x, r)`: `x` matches the regular expression `r`.
pub struct RegularRegex;

const fn param(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

const NAMES: [&str; 6] = ["x", "Q", "S", "d", "q0", "F"];

/// Whether the automaton accepts `x`.
pub(crate) fn accepts(q: i64, s: i64, d: &[i64], q0: i64, f: &[i64], x: &[i64]) -> bool {
    let mut state = q0;
    for &v in x {
        if !(1..=s).contains(&v) || !(1..=q).contains(&state) {
            return false;
        }
        state = d[((state - 1) * s + v - 1) as usize];
    }
    f.contains(&state)
}

impl Global for Regular {
    fn kind(&self) -> Kind {
        Kind::Regular
    }
    fn name(&self) -> &'static str {
        "regular"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[
            param("x", ParamKind::Terms),
            param("Q", ParamKind::Int),
            param("S", ParamKind::Int),
            param("d", ParamKind::Ints),
            param("q0", ParamKind::Int),
            param("F", ParamKind::Ints),
        ];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        let one = |i: usize| consts(&args[i])[0];
        let (q, s, q0) = (one(1), one(2), one(4));
        for (i, k, what) in [(1, q, "states"), (2, s, "symbols")] {
            if !(1..=1 << 20).contains(&k) {
                return Err(ArgProblem::new(
                    i,
                    format!("an automaton has 1 to 2^20 {what}, not {k}"),
                    format!("`{}` is the number of {what}", NAMES[i]),
                ));
            }
        }
        if len(&args[3]) as i64 != q * s {
            return Err(ArgProblem::new(
                3,
                format!("`d` has {} items but Q × S = {}", len(&args[3]), q * s),
                "d[(q - 1) * S + s] is the state after symbol s in state q (0 for none): Q × S items",
            ));
        }
        if let Some((i, t)) = consts(&args[3])
            .into_iter()
            .enumerate()
            .find(|&(_, t)| !(0..=q).contains(&t))
        {
            return Err(ArgProblem::new(
                3,
                format!("item {} of `d` is {t}, not a state (1..{q}) or 0", i + 1),
                "transitions go to a state 1..Q, or 0 when there is none",
            ));
        }
        if !(1..=q).contains(&q0) {
            return Err(ArgProblem::new(
                4,
                format!("the start state {q0} is not in 1..{q}"),
                "q0 is one of the states 1..Q",
            ));
        }
        if let Some(f) = consts(&args[5]).into_iter().find(|f| !(1..=q).contains(f)) {
            return Err(ArgProblem::new(
                5,
                format!("accepting state {f} is not in 1..{q}"),
                "F lists states 1..Q",
            ));
        }
        if (len(&args[0]) as u64).saturating_mul(q as u64) > 50_000_000 {
            return Err(ArgProblem::new(
                0,
                format!(
                    "{} positions × {q} states is too large a layered graph",
                    len(&args[0])
                ),
                "the layered graph has one node per position and state: at most 5·10⁷",
            ));
        }
        Ok(())
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        accepts(
            args[1].int(),
            args[2].int(),
            args[3].ints(),
            args[4].int(),
            args[5].ints(),
            args[0].ints(),
        )
    }
}

impl Global for RegularRegex {
    fn kind(&self) -> Kind {
        Kind::RegularRegex
    }
    fn name(&self) -> &'static str {
        "regular"
    }
    fn params(&self) -> &'static [Param] {
        const P: &[Param] = &[param("x", ParamKind::Terms), param("r", ParamKind::Regex)];
        P
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        let GlobalArg::Regex(r) = &args[1] else {
            return Ok(());
        };
        let (n, q) = (len(&args[0]) as u64, r.dfa.states() as u64);
        if n.saturating_mul(q) > 50_000_000 {
            return Err(ArgProblem::new(
                1,
                format!(
                    "{n} positions × {q} states of this expression's automaton is too large a layered graph"
                ),
                "the layered graph has one node per position and state: at most 5·10⁷",
            ));
        }
        Ok(())
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        match &args[1] {
            ArgValue::Regex(r) => r.accepts(args[0].ints()),
            _ => false,
        }
    }
}
