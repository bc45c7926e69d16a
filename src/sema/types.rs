//! Types of data and of function parameters: `int`, `bool`, `string`, enums,
//! `array of T`, `set of T`, tuples, records, and `var T` for values that may
//! depend on variables. Types are checked where values enter the model
//! from outside (parameters from the command line and data files) and where
//! they enter a function; everything else is checked by the operations.

use super::Checker;
use super::value::{IntSet, Value};
use crate::diag::{Diag, did_you_mean};
use crate::model::EnumType;
use crate::syntax::ast::{TypeExpr, TypeKind};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Type {
    Int,
    Bool,
    Str,
    Enum(Arc<EnumType>),
    /// A list of any length, indexed from 1.
    Array(Box<Type>),
    Set(Box<Type>),
    Tuple(Vec<Type>),
    Record(Vec<(String, Type)>),
    /// A value that may depend on variables.
    Var(Box<Type>),
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |f: &mut std::fmt::Formatter<'_>, ts: &mut dyn Iterator<Item = String>| {
            write!(f, "({})", ts.collect::<Vec<_>>().join(", "))
        };
        match self {
            Type::Int => f.write_str("int"),
            Type::Bool => f.write_str("bool"),
            Type::Str => f.write_str("string"),
            Type::Enum(e) => f.write_str(&e.name),
            Type::Array(t) => write!(f, "array of {t}"),
            Type::Set(t) => write!(f, "set of {t}"),
            Type::Tuple(ts) => list(f, &mut ts.iter().map(ToString::to_string)),
            Type::Record(fs) => list(f, &mut fs.iter().map(|(n, t)| format!("{n}: {t}"))),
            Type::Var(t) => write!(f, "var {t}"),
        }
    }
}

impl Type {
    /// Whether `v` is a value of this type.
    pub(crate) fn accepts(&self, v: &Value, model: &crate::model::Model) -> bool {
        match (self, v) {
            (_, Value::Poison) => true,
            (Type::Int, Value::Int(_))
            | (Type::Bool, Value::Bool(_))
            | (Type::Str, Value::Str(_)) => true,
            (Type::Enum(e), Value::Enum(f, _)) => e == f,
            (Type::Array(t), Value::Array(a)) => a.items.iter().all(|i| t.accepts(i, model)),
            (Type::Set(t), Value::Set(_)) => **t == Type::Int,
            (Type::Set(t), Value::EnumSet(e, _)) => **t == Type::Enum(e.clone()),
            (Type::Tuple(ts), Value::Tuple(vs)) => {
                ts.len() == vs.len() && ts.iter().zip(vs.iter()).all(|(t, v)| t.accepts(v, model))
            }
            (Type::Record(fs), Value::Record(r)) => {
                fs.len() == r.fields.len()
                    && fs
                        .iter()
                        .all(|(n, t)| r.get(n).is_some_and(|v| t.accepts(v, model)))
            }
            (Type::Var(t), v) => match (&**t, v) {
                (Type::Int, Value::Term(_)) => v.enum_type(model).is_none(),
                (Type::Bool, Value::BoolTerm(_) | Value::Formula(_)) => true,
                (Type::Enum(e), Value::Term(_)) => v.enum_type(model).as_ref() == Some(e),
                // `var set of int`: a set variable (or a set built from them).
                (Type::Set(elem), Value::SetVar(s)) => match (&**elem, &s.of_enum) {
                    (Type::Int, None) => true,
                    (Type::Enum(e), Some(f)) => e == f,
                    _ => false,
                },
                (inner, v) => inner.accepts(v, model),
            },
            _ => false,
        }
    }

    /// The type of a parameter's default value, for reading a new value of
    /// the same type (arrays of any length, with as many dimensions).
    pub(crate) fn of_value(v: &Value) -> Option<(Type, usize)> {
        Some(match v {
            Value::Array(a) => {
                let item = match a.items.first() {
                    Some(i) => Type::of_value(i)?.0,
                    None => Type::Int,
                };
                (item, a.dims.len())
            }
            v => (Type::of_scalar(v)?, 0),
        })
    }

    fn of_scalar(v: &Value) -> Option<Type> {
        Some(match v {
            Value::Int(_) => Type::Int,
            Value::Bool(_) => Type::Bool,
            Value::Str(_) => Type::Str,
            Value::Enum(e, _) => Type::Enum(e.clone()),
            Value::Set(_) => Type::Set(Box::new(Type::Int)),
            Value::EnumSet(e, _) => Type::Set(Box::new(Type::Enum(e.clone()))),
            Value::Array(a) => Type::Array(Box::new(match a.items.first() {
                Some(i) => Type::of_scalar(i)?,
                None => Type::Int,
            })),
            Value::Tuple(t) => Type::Tuple(t.iter().map(Type::of_scalar).collect::<Option<_>>()?),
            Value::Record(r) => Type::Record(
                r.fields
                    .iter()
                    .map(|(n, v)| Some((n.clone(), Type::of_scalar(v)?)))
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }

    /// Whether a value of this type may mention variables.
    pub(crate) fn has_var(&self) -> bool {
        match self {
            Type::Var(_) => true,
            Type::Array(t) | Type::Set(t) => t.has_var(),
            Type::Tuple(ts) => ts.iter().any(Type::has_var),
            Type::Record(fs) => fs.iter().any(|(_, t)| t.has_var()),
            _ => false,
        }
    }
}

/// An integer set read from data, of members of `e` if given.
pub(super) fn set_value(values: Vec<i64>, e: Option<Arc<EnumType>>) -> Value {
    let set = IntSet::from_values(values);
    match e {
        Some(e) => Value::EnumSet(e, set),
        None => Value::Set(set),
    }
}

impl Checker<'_> {
    /// The type a type expression names.
    pub(super) fn resolve_type(&self, t: &TypeExpr) -> Result<Type, Diag> {
        Ok(match &t.kind {
            TypeKind::Named(name) => match name.name.as_str() {
                "int" => Type::Int,
                "bool" => Type::Bool,
                "string" => Type::Str,
                n => match (self.enums.get(n), self.types.get(n)) {
                    (Some(e), _) => Type::Enum(e.clone()),
                    (_, Some(t)) => t.clone(),
                    _ => {
                        if let Some(d) = self.used_before_declaration(n, name.span) {
                            return Err(d);
                        }
                        let known = ["int", "bool", "string"]
                            .into_iter()
                            .chain(self.enums.keys().map(String::as_str))
                            .chain(self.types.keys().map(String::as_str));
                        let d = Diag::new("cspi::name::type", format!("unknown type `{n}`"))
                            .label(name.span, "not a type");
                        return Err(match did_you_mean(n, known) {
                            Some(s) => d.help(format!("did you mean `{s}`?")),
                            None => d.help(
                                "types are int, bool, string, enums, `type` names, `array of T`, `set of T`, tuples and records",
                            ),
                        });
                    }
                },
            },
            TypeKind::Var(inner) => Type::Var(Box::new(self.resolve_type(inner)?)),
            TypeKind::Array(inner) => Type::Array(Box::new(self.resolve_type(inner)?)),
            TypeKind::Set(inner) => {
                let elem = self.resolve_type(inner)?;
                if !matches!(elem, Type::Int | Type::Enum(_)) {
                    return Err(Diag::new(
                        "cspi::type",
                        format!("a set holds integers or enum values, not {elem}"),
                    )
                    .label(inner.span, "here"));
                }
                Type::Set(Box::new(elem))
            }
            TypeKind::Tuple(items) => Type::Tuple(
                items
                    .iter()
                    .map(|i| self.resolve_type(i))
                    .collect::<Result<_, _>>()?,
            ),
            TypeKind::Record(fields) => {
                let mut out: Vec<(String, Type)> = Vec::new();
                for (name, ty) in fields {
                    if out.iter().any(|(n, _)| *n == name.name) {
                        return Err(Diag::new(
                            "cspi::name::duplicate",
                            format!("the record type has two fields `{}`", name.name),
                        )
                        .label(name.span, "a second time here"));
                    }
                    out.push((name.name.clone(), self.resolve_type(ty)?));
                }
                Type::Record(out)
            }
        })
    }
}
