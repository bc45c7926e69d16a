//! Field access: `job.duration` on a record, `t.1` on a tuple.

use super::Checker;
use super::value::Value;
use crate::diag::{Diag, did_you_mean};
use crate::syntax::ast::{Ident, Span};

impl Checker<'_> {
    pub(super) fn field(
        &mut self,
        base: Value,
        name: &Ident,
        base_span: Span,
    ) -> Result<Value, Diag> {
        match &base {
            Value::Poison => Ok(Value::Poison),
            Value::Record(r) => r.get(&name.name).cloned().ok_or_else(|| {
                let names: Vec<&str> = r.fields.iter().map(|(n, _)| n.as_str()).collect();
                let d = Diag::new(
                    "cspi::name::field",
                    format!("the record has no field `{}`", name.name),
                )
                .label(name.span, "no such field");
                match did_you_mean(&name.name, names.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help(format!("its fields are: {}", names.join(", "))),
                }
            }),
            Value::Tuple(t) => {
                let k: Option<usize> = name.name.parse().ok();
                k.and_then(|k| k.checked_sub(1))
                    .and_then(|k| t.get(k))
                    .cloned()
                    .ok_or_else(|| {
                        Diag::new(
                            "cspi::index",
                            format!("a tuple of {} items has no item `{}`", t.len(), name.name),
                        )
                        .label(name.span, "here")
                        .help(format!("its items are .1 to .{}", t.len()))
                    })
            }
            other => Err(Diag::new(
                "cspi::type",
                format!(
                    "`.{}` takes a field of a record or tuple, not {}",
                    name.name,
                    other.type_name()
                ),
            )
            .label(base_span, "not a record")),
        }
    }
}
