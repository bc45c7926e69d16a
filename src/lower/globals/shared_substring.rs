//! `max_shared_substring(k, lengths, letters)`: when the letters are those
//! of whole word variables, in order (as `max_shared_substring(xw, k)`
//! writes them), the gram propagator `engine/props/shared_substring.rs`
//! over the variables; otherwise nothing here (the constraint is then
//! evaluated once its letters are known).

use super::{Lowering, consts};
use crate::engine::propagator::Propagator;
use crate::engine::props::shared_substring::SharedSubstrings;
use crate::lower::Lower;
use crate::model::{GlobalArg, Term, VarKind};

pub(super) struct MaxSharedSubstring;

impl Lowering for MaxSharedSubstring {
    fn propagator(&self, l: &mut Lower, args: &[GlobalArg]) -> Option<Box<dyn Propagator>> {
        let k = usize::try_from(*consts(&args[0]).first()?).ok()?;
        let lengths = consts(&args[1]);
        let GlobalArg::Terms(letters) = &args[2] else {
            return None;
        };
        let (mut vars, mut lists) = (Vec::new(), Vec::new());
        let mut at = 0usize;
        for &n in &lengths {
            let n = usize::try_from(n).ok()?;
            let Term::Letter(v, 0) = letters.get(at)? else {
                return None;
            };
            let whole = (0..n).all(|i| letters.get(at + i) == Some(&Term::Letter(*v, i)));
            let VarKind::Word(list) = &l.model.vars[*v].kind else {
                return None;
            };
            let len = list.words.first().map(|w| w.chars().count());
            if !whole || len != Some(n) || !l.engine.doms.is_bitset(*v) {
                return None;
            }
            vars.push(*v);
            lists.push(list.clone());
            at += n;
        }
        Some(Box::new(SharedSubstrings::new(
            &mut l.engine.doms,
            vars,
            &lists,
            k,
        )))
    }
}
