//! `mdd(x, diagram)`: `x` spells one row of a decision diagram, a dictionary
//! compiled by `trie(words, symbols, max)` (`sema/trie.rs`) or the rows of a
//! table.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, len};
use crate::model::GlobalArg;

pub struct MddGlobal;

impl Global for MddGlobal {
    fn kind(&self) -> Kind {
        Kind::Mdd
    }
    fn name(&self) -> &'static str {
        "mdd"
    }
    fn params(&self) -> &'static [Param] {
        &[
            Param {
                name: "x",
                kind: ParamKind::Terms,
            },
            Param {
                name: "diagram",
                kind: ParamKind::Mdd,
            },
        ]
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        let (n, arity) = (len(&args[0]), len(&args[1]));
        if n == arity {
            return Ok(());
        }
        Err(ArgProblem::new(
            1,
            format!("the diagram's rows have {arity} values but `x` has {n} items"),
            "give one variable per position: with trie(words, symbols, max), `x` has columns(trie) items",
        ))
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        match &args[1] {
            ArgValue::Mdd(m) => m.contains(args[0].ints()),
            _ => false,
        }
    }
}
