//! `enum Colour = {red, green, blue};` and `type Job = (machine: int, duration: int);`.
//!
//! An enum's members are names for the integers 1..n, typed: they compare
//! with members of the same enum only, index arrays declared over the enum
//! (`var house[Colour] in 1..5`), serve as domains (`var c in Colour`,
//! `var c: Colour`), and are printed by name. The enum's name stands for
//! the set of all its members, so `forall c in Colour` iterates over them.

use super::Checker;
use super::value::{IntSet, Value};
use crate::diag::Diag;
use crate::model::EnumType;
use crate::syntax::ast::{Ident, TypeExpr};
use std::sync::Arc;

impl Checker<'_> {
    pub(super) fn define_enum(&mut self, name: &Ident, members: &[Ident]) -> Result<(), Diag> {
        if self.types.contains_key(&name.name) || self.enums.contains_key(&name.name) {
            return Err(duplicate_type(name));
        }
        for (i, m) in members.iter().enumerate() {
            if members[..i].iter().any(|x| x.name == m.name) {
                return Err(Diag::new(
                    "cspi::name::duplicate",
                    format!("`{}` is listed twice in enum `{}`", m.name, name.name),
                )
                .label(m.span, "a second time here"));
            }
        }
        let e = Arc::new(EnumType {
            name: name.name.clone(),
            members: members.iter().map(|m| m.name.clone()).collect(),
        });
        self.define(
            name,
            Value::EnumSet(e.clone(), IntSet::Range(1, members.len() as i64)),
        )?;
        self.enums.insert(name.name.clone(), e.clone());
        for (k, m) in members.iter().enumerate() {
            self.define(m, Value::Enum(e.clone(), k as i64 + 1))?;
        }
        Ok(())
    }

    pub(super) fn define_type(&mut self, name: &Ident, ty: &TypeExpr) -> Result<(), Diag> {
        if self.types.contains_key(&name.name)
            || self.enums.contains_key(&name.name)
            || matches!(name.name.as_str(), "int" | "bool" | "string")
        {
            return Err(duplicate_type(name));
        }
        let t = self.resolve_type(ty)?;
        if t.has_var() {
            return Err(Diag::new(
                "cspi::type",
                "a named type describes data: it cannot be `var`",
            )
            .label(ty.span, "here"));
        }
        self.types.insert(name.name.clone(), t);
        Ok(())
    }
}

fn duplicate_type(name: &Ident) -> Diag {
    Diag::new(
        "cspi::name::duplicate",
        format!("type `{}` is already defined", name.name),
    )
    .label(name.span, "defined again here")
    .help("every enum and type needs its own name")
}
