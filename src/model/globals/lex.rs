//! `lex_less(x, y)` and `lex_lesseq(x, y)`: `x` before `y` (strictly, or
//! not after it) in lexicographic order, for symmetry breaking.

use super::{ArgProblem, ArgValue, Global, Kind, Param, ParamKind, same_length};
use crate::model::GlobalArg;

pub struct Lex {
    pub strict: bool,
}

pub static LEX_LESS: Lex = Lex { strict: true };
pub static LEX_LESSEQ: Lex = Lex { strict: false };

impl Global for Lex {
    fn kind(&self) -> Kind {
        if self.strict {
            Kind::LexLess
        } else {
            Kind::LexLessEq
        }
    }
    fn name(&self) -> &'static str {
        if self.strict {
            "lex_less"
        } else {
            "lex_lesseq"
        }
    }
    fn params(&self) -> &'static [Param] {
        &[
            Param {
                name: "x",
                kind: ParamKind::Terms,
            },
            Param {
                name: "y",
                kind: ParamKind::Terms,
            },
        ]
    }
    fn check(&self, args: &[GlobalArg]) -> Result<(), ArgProblem> {
        same_length(args, &["x", "y"], 0, 1)
    }
    fn holds(&self, args: &[ArgValue]) -> bool {
        holds(args[0].ints(), args[1].ints(), self.strict)
    }
}

/// Whether `x` comes before `y` (`strict`) or not after it.
pub fn holds(x: &[i64], y: &[i64], strict: bool) -> bool {
    if strict { x < y } else { x <= y }
}
