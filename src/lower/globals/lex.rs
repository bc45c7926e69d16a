//! `lex_less(x, y)` and `lex_lesseq(x, y)`: `x` before `y` (strictly, or
//! not after it) in lexicographic order, for symmetry breaking. Propagated
//! by `engine/props/lex.rs` (domain consistency on distinct variables).

use super::{ArgProblem, ArgValue, Global, Param, ParamKind, same_length};
use crate::engine::props::lex::{Lex as Prop, holds};
use crate::lower::Lower;
use crate::model::GlobalArg;

pub struct Lex {
    pub strict: bool,
}

pub static LEX_LESS: Lex = Lex { strict: true };
pub static LEX_LESSEQ: Lex = Lex { strict: false };

impl Global for Lex {
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
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[0])?;
        let y = l.vars_of(&args[1])?;
        l.engine.add_prop(Box::new(Prop::new(&x, &y, self.strict)));
        Some(())
    }
}
