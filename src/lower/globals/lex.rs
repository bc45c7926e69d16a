//! `lex_less(x, y)` and `lex_lesseq(x, y)`: `x` before `y` (strictly, or
//! not after it) in lexicographic order, for symmetry breaking. Propagated
//! by `engine/props/lex.rs` (domain consistency on distinct variables).

use super::Lowering;
use crate::engine::props::lex::Lex as Prop;
use crate::lower::Lower;
use crate::model::GlobalArg;

pub(super) struct Lex {
    pub(crate) strict: bool,
}

impl Lowering for Lex {
    fn lower(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<()> {
        let x = l.vars_of(&args[0])?;
        let y = l.vars_of(&args[1])?;
        l.engine.add_prop(Box::new(Prop::new(&x, &y, self.strict)));
        Some(())
    }
}
