//! Names used before their declaration. A model is read from top to bottom,
//! so a name declared further down is unknown where it is used; the checker
//! knows every declaration of the file beforehand and says where the name is
//! declared instead of calling it unknown.

use super::Checker;
use crate::diag::Diag;
use crate::syntax::ast::{Item, Span};
use std::collections::HashMap;

/// Where each name of the model is declared (the first declaration of a name).
pub(super) fn declarations(items: &[Item]) -> HashMap<String, Span> {
    let mut out = HashMap::new();
    let mut add = |name: &str, span: Span| {
        out.entry(name.to_string()).or_insert(span);
    };
    for item in items {
        match item {
            Item::Param { name, .. }
            | Item::Let { name, .. }
            | Item::Var { name, .. }
            | Item::Type { name, .. }
            | Item::Crossword { name, .. } => add(&name.name, name.span),
            Item::Enum { name, members } => {
                add(&name.name, name.span);
                for m in members {
                    add(&m.name, m.span);
                }
            }
            Item::Function(f) => add(&f.name.name, f.name.span),
            _ => {}
        }
    }
    out
}

impl Checker<'_> {
    /// The diagnostic for `name`, unknown at `used`, when the model declares
    /// it elsewhere: later in the file, or in the item that uses it.
    pub(super) fn used_before_declaration(&self, name: &str, used: Span) -> Option<Diag> {
        let &declared = self.declared.get(name)?;
        let line = self.line_of(declared.start);
        let d = if declared.start < used.start {
            // The declaration comes first, so the use is inside its own item.
            Diag::new(
                "cspi::name::order",
                format!("`{name}` is used in its own declaration"),
            )
            .label(used, "used here")
            .label(declared, format!("declared here, on line {line}"))
            .help(format!(
                "a declaration cannot refer to itself; give `{name}` its value from names declared above it"
            ))
        } else {
            Diag::new(
                "cspi::name::order",
                format!("`{name}` is used before its declaration on line {line}"),
            )
            .label(used, "used here")
            .label(declared, format!("declared later, on line {line}"))
            .help(format!(
                "a model is read from top to bottom: move the declaration of `{name}` above this use"
            ))
        };
        Some(d)
    }

    /// The line (from 1) of a byte position in the model.
    fn line_of(&self, at: usize) -> usize {
        let text = &self.input.source.text;
        text.get(..at).map_or(0, |t| t.matches('\n').count()) + 1
    }
}
