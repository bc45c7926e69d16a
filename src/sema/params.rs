//! Parameters and their values: the default written in the model, a
//! `--param NAME=VALUE` from the command line, or a member of a JSON data
//! file (`--data FILE`, repeatable). The command line wins over data files,
//! a later data file over an earlier one, and either over the default, which
//! is then not evaluated at all.
//!
//! A parameter declared with a type (`param d[1..n]: int;`) takes values of
//! that type and shape; one declared by its default alone takes values of the
//! default's type. Integers, booleans, strings and enum values are written
//! plainly on the command line (`--param n=8`, `--param c=red`); arrays,
//! sets, tuples and records as JSON (`--param d=[3,1,2]`). Every mismatch is
//! reported where the value was written: in the data file, or in the
//! command-line value.

use super::Checker;
use super::types::{Type, set_value};
use super::value::{Array, IntSet, Record, Value};
use crate::diag::{Diag, Source, did_you_mean};
use crate::formats::json::{Kind, Node};
use crate::model::EnumType;
use crate::syntax::ast::{Expr, Ident, Span, TypeExpr};
use std::rc::Rc;
use std::sync::Arc;

/// One dimension of an array parameter: its index range (any length from 1
/// when the declaration does not fix it) and the enum that indexes it.
#[derive(Clone, Debug)]
pub(super) struct Dim {
    pub range: Option<(i64, i64)>,
    pub index: Option<Arc<EnumType>>,
}

/// A data file, parsed, and the parameters it gives.
pub(crate) struct DataFile {
    pub source: Source,
    pub members: Vec<(String, Span, Node)>,
}

impl Checker<'_> {
    pub(super) fn param(
        &mut self,
        name: &Ident,
        index_sets: &[Expr],
        ty: Option<&TypeExpr>,
        default: Option<&Expr>,
    ) -> Result<(), Diag> {
        self.params_seen.insert(name.name.clone());
        let value = match self.param_value(name, index_sets, ty, default) {
            Ok(v) => v,
            Err(d) => {
                // Defined as poison, so later uses stay quiet.
                let d = d.in_source(self.input.source);
                self.errors.push(d);
                Value::Poison
            }
        };
        // Provenance for `cspi explain`: a parameter given from outside (or
        // holding text) is data.
        let given = self.input.overrides.iter().any(|o| o.name == name.name)
            || self.data_member(&name.name).is_some();
        let text = matches!(&value, Value::Str(s) if !s.is_empty());
        match default {
            Some(e) => self.note_data(&name.name, e, given || text),
            None => {
                self.data_deps
                    .insert(name.name.clone(), vec![name.name.clone()]);
            }
        }
        self.define(name, value)
    }

    fn param_value(
        &mut self,
        name: &Ident,
        index_sets: &[Expr],
        ty: Option<&TypeExpr>,
        default: Option<&Expr>,
    ) -> Result<Value, Diag> {
        let over = self
            .input
            .overrides
            .iter()
            .rev()
            .find(|o| o.name == name.name)
            .cloned();
        let data = self.data_member(&name.name);
        let ty_expr = ty;
        let declared = match ty {
            Some(t) => {
                let ty = self.resolve_type(t)?;
                if ty.has_var() {
                    return Err(Diag::new(
                        "cspi::type",
                        format!("parameter `{}` cannot be `var`", name.name),
                    )
                    .label(
                        t.span,
                        "a parameter is data, known when the model is loaded",
                    )
                    .help("declare a variable with `var` instead"));
                }
                let Some(dims) = self.dims_of(index_sets)? else {
                    return Ok(Value::Poison);
                };
                Some((ty, dims))
            }
            None if !index_sets.is_empty() => {
                return Err(Diag::new(
                    "cspi::param::type",
                    format!(
                        "array parameter `{}` needs the type of its items",
                        name.name
                    ),
                )
                .label(name.span, "no type")
                .help(format!("for example `param {}[1..n]: int;`", name.name)));
            }
            None => None,
        };
        // Without a declared type the default gives it, so it is evaluated first.
        let (ty, dims) = match declared {
            Some((ty, dims)) => (ty, dims),
            None => {
                let Some(default) = default else {
                    return Err(Diag::new(
                        "cspi::param::type",
                        format!("parameter `{}` has neither a type nor a default", name.name),
                    )
                    .label(name.span, "declared here")
                    .help(format!(
                        "write `param {0}: int;` (given by --param or --data) or `param {0} = 3;`",
                        name.name
                    )));
                };
                let v = self.eval(default)?;
                if over.is_none() && data.is_none() {
                    return Ok(v);
                }
                match (&v, Type::of_value(&v)) {
                    (Value::Poison, _) => return Ok(Value::Poison),
                    (_, Some((ty, n))) => {
                        let dims = vec![
                            Dim {
                                range: None,
                                index: None
                            };
                            n
                        ];
                        (ty, dims)
                    }
                    (v, None) => {
                        return Err(Diag::new(
                            "cspi::param::type",
                            format!(
                                "parameter `{}` is {}, which cannot be given from outside",
                                name.name,
                                v.type_name()
                            ),
                        )
                        .label(name.span, "declared here")
                        .usage());
                    }
                }
            }
        };
        // Diagnostics about the value recall the declaration.
        let declared = |d: Diag| {
            if d.help.is_some() {
                return d;
            }
            let shape: Vec<String> = dims
                .iter()
                .map(|d| match (&d.index, d.range) {
                    (Some(e), _) => e.name.clone(),
                    (None, Some((lo, hi))) => format!("{lo}..{hi}"),
                    (None, None) => "..".to_string(),
                })
                .collect();
            let shape = if shape.is_empty() {
                String::new()
            } else {
                format!("[{}]", shape.join(", "))
            };
            d.help(format!("`{}{shape}` is declared {ty}", name.name))
        };
        if let Some(o) = over {
            // Blame the declared type, or the default that gives the type.
            let blame = match (ty_expr, default) {
                (Some(t), _) => (t.span, ""),
                (None, Some(e)) => (e.span, " here"),
                (None, None) => (name.span, ""),
            };
            let options = self.input.options;
            if options.param_file(&o.name).is_some() {
                self.secret_texts.push(o.value.as_str().into());
            }
            return self
                .param_from_text(&o, &ty, &dims, blame)
                .map_err(|d| match options.param_file(&o.name) {
                    Some(path) => withheld(d, &o, path),
                    None => d,
                })
                .map_err(declared);
        }
        if let Some((file, member)) = data {
            let source = self.data[file].source.clone();
            return self
                .data_value(file, member, &ty, &dims)
                .map_err(|d| declared(d).in_source(&source));
        }
        match default {
            Some(e) => {
                let v = self.eval(e)?;
                self.conform(v, &ty, &dims, e.span)
            }
            // A data file that could not be read was reported: stay quiet.
            None if self.data_failed => Ok(Value::Poison),
            None => Err(Diag::new(
                "cspi::param::missing",
                format!("parameter `{}` has no value", name.name),
            )
            .label(name.span, "declared without a default")
            .help(format!(
                "give it on the command line (--param {}=...) or in a data file (--data FILE)",
                name.name
            ))),
        }
    }

    /// The last data file member naming `name`: (file, member) indices.
    fn data_member(&self, name: &str) -> Option<(usize, usize)> {
        self.data.iter().enumerate().rev().find_map(|(f, file)| {
            file.members
                .iter()
                .rposition(|(n, _, _)| n == name)
                .map(|m| (f, m))
        })
    }

    fn data_value(
        &mut self,
        file: usize,
        member: usize,
        ty: &Type,
        dims: &[Dim],
    ) -> Result<Value, Diag> {
        // The data files stay as they are while checking; take the node out
        // for the conversion and put it back.
        let node = std::mem::replace(
            &mut self.data[file].members[member].2,
            Node {
                span: Span::new(0, 0),
                kind: Kind::Null,
            },
        );
        let r = self.value_of_json(&node, ty, dims);
        self.data[file].members[member].2 = node;
        r
    }

    /// The index sets of a declaration as dimensions; `None` when one of
    /// them failed earlier (and was reported).
    pub(super) fn dims_of(&mut self, index_sets: &[Expr]) -> Result<Option<Vec<Dim>>, Diag> {
        let mut dims = Vec::with_capacity(index_sets.len());
        for e in index_sets {
            dims.push(match self.eval(e)? {
                Value::Set(IntSet::Range(lo, hi)) => Dim {
                    range: Some((lo, hi.max(lo - 1))),
                    index: None,
                },
                Value::Int(n) => Dim {
                    range: Some((1, n.max(0))),
                    index: None,
                },
                Value::EnumSet(en, IntSet::Range(lo, hi)) => Dim {
                    range: Some((lo, hi.max(lo - 1))),
                    index: Some(en),
                },
                Value::Poison => return Ok(None),
                other => {
                    return Err(Diag::new(
                        "cspi::type",
                        format!(
                            "an index set must be a range or an enum, not {}",
                            other.type_name()
                        ),
                    )
                    .label(e.span, "expected a range such as 1..9, or an enum"));
                }
            });
        }
        Ok(Some(dims))
    }

    /// A `--param` value, read by the type of the parameter.
    fn param_from_text(
        &mut self,
        o: &super::ParamOverride,
        ty: &Type,
        dims: &[Dim],
        (blame, here): (Span, &str),
    ) -> Result<Value, Diag> {
        let bad = |what: String| {
            let of = if here.is_empty() {
                "the parameter"
            } else {
                "its default"
            };
            Diag::new(
                "cspi::param::type",
                format!(
                    "--param {}={}: expected {what}",
                    o.name,
                    self.input.options.shown_value(o)
                ),
            )
            .label(blame, format!("`{}` is {what}{here}", o.name))
            .help(format!(
                "the value of --param {} must have the type of {of}",
                o.name
            ))
            .usage()
        };
        if dims.is_empty() {
            match ty {
                Type::Int => {
                    return crate::formats::parse_int(&o.value)
                        .map(Value::Int)
                        .ok_or_else(|| bad("an integer".into()));
                }
                Type::Bool => {
                    return match o.value.trim() {
                        "true" => Ok(Value::Bool(true)),
                        "false" => Ok(Value::Bool(false)),
                        _ => Err(bad("`true` or `false`".into())),
                    };
                }
                Type::Str => {
                    let text: Rc<str> = o.value.as_str().into();
                    self.cli_strings.insert(text.clone());
                    if let Some(file) = self.input.options.param_file(&o.name) {
                        self.file_texts
                            .insert(text.clone(), (o.name.clone(), file.clone()));
                    }
                    return Ok(Value::Str(text));
                }
                Type::Enum(e) => {
                    let v = o.value.trim().trim_matches('"');
                    return match e.members.iter().position(|m| m == v) {
                        Some(k) => Ok(Value::Enum(e.clone(), k as i64 + 1)),
                        None => Err(unknown_member(e, v, None)
                            .label(blame, format!("`{}` is a {}{here}", o.name, e.name))
                            .usage()),
                    };
                }
                _ => {}
            }
        }
        // Arrays, sets, tuples and records: JSON, with diagnostics pointing into it.
        let source = Source::new(format!("--param {}", o.name), o.value.as_str());
        let input = self.input;
        let mut limit = None;
        let parsed = crate::formats::json::parse_checked(&o.value, &mut |span| {
            let within = input
                .memory_within(span)
                .and_then(|()| input.options.in_time(span));
            within.map_err(|d| limit = Some(d)).is_ok()
        });
        let node = parsed.map_err(|e| {
            if let Some(d) = limit.take() {
                return d;
            }
            Diag::new(
                "cspi::param::syntax",
                format!("--param {}: the value is not JSON: {}", o.name, e.message),
            )
            .label(e.span, "here")
            .help("write arrays as [1, 2, 3], records as {\"name\": value}")
            .in_source(&source)
            .usage()
        })?;
        self.value_of_json(&node, ty, dims)
            .map_err(|d| d.in_source(&source).usage())
    }

    /// Converts data to a value of the type, shaped by the dimensions.
    pub(super) fn value_of_json(
        &mut self,
        node: &Node,
        ty: &Type,
        dims: &[Dim],
    ) -> Result<Value, Diag> {
        if dims.is_empty() {
            return self.json_item(node, ty);
        }
        let mut dims = dims.to_vec();
        let mut items = Vec::new();
        self.json_rows(node, ty, &mut dims, 0, &mut items)?;
        let ranges = dims.iter().map(|d| d.range.unwrap_or((1, 0))).collect();
        let index_enums = dims.iter().map(|d| d.index.clone()).collect();
        Ok(Value::Array(Rc::new(Array {
            dims: ranges,
            items,
            index_enums,
        })))
    }

    /// The items of dimension `d` and those below it, row-major.
    fn json_rows(
        &mut self,
        node: &Node,
        ty: &Type,
        dims: &mut [Dim],
        d: usize,
        out: &mut Vec<Value>,
    ) -> Result<(), Diag> {
        if d == dims.len() {
            out.push(self.json_item(node, ty)?);
            return Ok(());
        }
        let rows: Vec<&Node> = match (&node.kind, &dims[d].index) {
            (Kind::Array(items), _) => items.iter().collect(),
            // An enum-indexed dimension may be an object keyed by member.
            (Kind::Object(members), Some(e)) => {
                let (lo, hi) = dims[d].range.unwrap_or((1, e.members.len() as i64));
                let mut rows = Vec::new();
                for k in lo..=hi {
                    let m = e.member(k);
                    let found = members.iter().find(|(n, _, _)| *n == m);
                    rows.push(
                        &found
                            .ok_or_else(|| {
                                Diag::new("cspi::data::missing", format!("no value for `{m}`"))
                                    .label(node.span, format!("this has no member \"{m}\""))
                                    .help(format!(
                                        "give a value for each member of `{}` in {lo}..{hi}",
                                        e.name
                                    ))
                            })?
                            .2,
                    );
                }
                if let Some((n, s, _)) = members
                    .iter()
                    .find(|(n, _, _)| !(lo..=hi).any(|k| e.member(k) == *n))
                {
                    return Err(unknown_member(e, n, None).label(*s, "not a member here"));
                }
                rows
            }
            (other, _) => {
                return Err(Diag::new(
                    "cspi::data::type",
                    format!("expected an array, found {}", other.what()),
                )
                .label(node.span, "here")
                .help(format!(
                    "this parameter has {} dimension(s): nest that many arrays",
                    dims.len()
                )));
            }
        };
        let len = rows.len() as i64;
        match dims[d].range {
            Some((lo, hi)) if hi - lo + 1 != len => {
                return Err(Diag::new(
                    "cspi::data::length",
                    format!(
                        "expected {}, found {len}",
                        crate::diag::plural((hi - lo + 1) as u64, "value", "values")
                    ),
                )
                .label(
                    node.span,
                    crate::diag::plural(len as u64, "value", "values"),
                )
                .help(format!("the index set is {lo}..{hi}")));
            }
            Some(_) => {}
            None => dims[d].range = Some((1, len)),
        }
        self.spend(len as u64, node.span)?;
        for row in rows {
            self.json_rows(row, ty, dims, d + 1, out)?;
        }
        Ok(())
    }

    fn json_item(&mut self, node: &Node, ty: &Type) -> Result<Value, Diag> {
        let wrong = |want: &str| {
            Diag::new(
                "cspi::data::type",
                format!("expected {want}, found {}", node.kind.what()),
            )
            .label(node.span, "here")
        };
        Ok(match (ty, &node.kind) {
            (Type::Int, Kind::Int(k)) => Value::Int(*k),
            (Type::Int, _) => return Err(wrong("an integer")),
            (Type::Bool, Kind::Bool(b)) => Value::Bool(*b),
            (Type::Bool, _) => return Err(wrong("true or false")),
            (Type::Str, Kind::Str(s)) => Value::Str(s.as_str().into()),
            (Type::Str, _) => return Err(wrong("a string")),
            (Type::Enum(e), Kind::Str(s)) => match e.members.iter().position(|m| m == s) {
                Some(k) => Value::Enum(e.clone(), k as i64 + 1),
                None => return Err(unknown_member(e, s, Some(node.span))),
            },
            (Type::Enum(e), _) => {
                return Err(wrong(&format!("a member of `{}` (a string)", e.name)));
            }
            (Type::Array(t), Kind::Array(items)) => {
                self.spend(items.len() as u64, node.span)?;
                let vals = items
                    .iter()
                    .map(|i| self.json_item(i, t))
                    .collect::<Result<_, _>>()?;
                Value::Array(Rc::new(Array::list(vals)))
            }
            (Type::Array(t), _) => return Err(wrong(&format!("an array of {t}"))),
            (Type::Set(t), Kind::Array(items)) => {
                self.spend(items.len() as u64, node.span)?;
                let mut vals = Vec::with_capacity(items.len());
                for i in items {
                    match self.json_item(i, t)? {
                        Value::Int(k) | Value::Enum(_, k) => vals.push(k),
                        _ => return Err(wrong("a set of integers")),
                    }
                }
                let e = match &**t {
                    Type::Enum(e) => Some(e.clone()),
                    _ => None,
                };
                set_value(vals, e)
            }
            (Type::Set(t), _) => return Err(wrong(&format!("a set of {t}, written as an array"))),
            (Type::Tuple(ts), Kind::Array(items)) if ts.len() == items.len() => {
                let vals = ts
                    .iter()
                    .zip(items)
                    .map(|(t, i)| self.json_item(i, t))
                    .collect::<Result<Vec<_>, _>>()?;
                Value::Tuple(Rc::new(vals))
            }
            (Type::Tuple(ts), _) => {
                return Err(wrong(&format!(
                    "a tuple of {} values, written as an array",
                    ts.len()
                )));
            }
            (Type::Record(fields), Kind::Object(members)) => {
                let mut out = Vec::with_capacity(fields.len());
                for (i, (n, s, _)) in members.iter().enumerate() {
                    if members[..i].iter().any(|(m, _, _)| m == n) {
                        return Err(Diag::new(
                            "cspi::data::duplicate",
                            format!("field `{n}` is given twice"),
                        )
                        .label(*s, "a second time here"));
                    }
                    if !fields.iter().any(|(f, _)| f == n) {
                        let names: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
                        let d = Diag::new("cspi::data::field", format!("unknown field `{n}`"))
                            .label(*s, "not a field of this record");
                        return Err(match did_you_mean(n, names.iter().copied()) {
                            Some(x) => d.help(format!("did you mean `{x}`?")),
                            None => d.help(format!("the fields are: {}", names.join(", "))),
                        });
                    }
                }
                for (f, t) in fields {
                    let Some((_, _, v)) = members.iter().find(|(n, _, _)| n == f) else {
                        return Err(Diag::new(
                            "cspi::data::missing",
                            format!("field `{f}` is missing"),
                        )
                        .label(node.span, format!("this record has no `{f}`"))
                        .help(format!("the record type is {ty}")));
                    };
                    out.push((f.clone(), self.json_item(v, t)?));
                }
                Value::Record(Rc::new(Record { fields: out }))
            }
            (Type::Record(_), _) => {
                return Err(wrong(&format!("a record {ty}, written as an object")));
            }
            (Type::Var(_), _) => return Err(wrong("data")),
        })
    }

    /// A default value checked against the declared type and shape, with
    /// the declared index sets (nested lists become a 2-D array).
    pub(super) fn conform(
        &mut self,
        v: Value,
        ty: &Type,
        dims: &[Dim],
        span: Span,
    ) -> Result<Value, Diag> {
        if matches!(v, Value::Poison) {
            return Ok(v);
        }
        let mismatch = |what: String| {
            Diag::new(
                "cspi::param::type",
                format!("the default does not fit the declaration: {what}"),
            )
            .label(span, "this default")
        };
        if dims.is_empty() {
            if !ty.accepts(&v, &self.model) {
                return Err(mismatch(format!("expected {ty}, found {}", v.type_name())));
            }
            return Ok(v);
        }
        // Flatten nested lists to the declared number of dimensions.
        let mut items = vec![v];
        for d in dims {
            let mut next = Vec::new();
            for item in items {
                let Value::Array(a) = item else {
                    return Err(mismatch(format!("expected {} nested arrays", dims.len())));
                };
                let len = a.items.len() as i64;
                if let Some((lo, hi)) = d.range
                    && hi - lo + 1 != len
                {
                    return Err(mismatch(format!(
                        "expected {} in a row, found {len}",
                        crate::diag::plural((hi - lo + 1) as u64, "value", "values")
                    )));
                }
                next.extend(a.items.iter().cloned());
            }
            items = next;
        }
        if let Some(bad) = items.iter().find(|i| !ty.accepts(i, &self.model)) {
            return Err(mismatch(format!(
                "expected items of type {ty}, found {}",
                bad.type_name()
            )));
        }
        Ok(Value::Array(Rc::new(Array {
            dims: dims.iter().map(|d| d.range.unwrap_or((1, 0))).collect(),
            items,
            index_enums: dims.iter().map(|d| d.index.clone()).collect(),
        })))
    }
}

/// `red2` is not a member of `Colour`.
/// A diagnostic about the value of `--param NAME=@path`, rebuilt so that it
/// repeats nothing of the file's text (docs/language.md): the message says
/// only that the text is not a value of the parameter, and where in the file
/// (line and column) when the fault was found in it; labels on the model stay.
fn withheld(d: Diag, o: &super::ParamOverride, path: &std::path::Path) -> Diag {
    let in_file = d.source.is_some();
    let at = d
        .labels
        .first()
        .filter(|_| in_file)
        .map(|(s, _)| {
            let before = o.value.get(..s.start).unwrap_or("");
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!(" (line {line}, column {column})")
        })
        .unwrap_or_default();
    // A message that names the value `@path` (a type mismatch) says nothing
    // of the text, and says more than the generic one.
    let named = format!("--param {}=@", o.name);
    let message = if !in_file && d.message.starts_with(&named) {
        d.message.clone()
    } else {
        format!(
            "--param {}=@{}: the file's text is not a value of `{}`{at}",
            o.name,
            crate::reader::shown(path),
            o.name
        )
    };
    let mut out = Diag::new(d.code, message);
    if !in_file {
        out.labels = d.labels;
    }
    out.usage()
}

pub(super) fn unknown_member(e: &EnumType, name: &str, at: Option<Span>) -> Diag {
    let d = Diag::new(
        "cspi::enum::unknown",
        format!("`{name}` is not a member of enum `{}`", e.name),
    );
    let d = match at {
        Some(s) => d.label(s, "unknown member"),
        None => d,
    };
    match did_you_mean(name, e.members.iter().map(String::as_str)) {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => d.help(format!(
            "the members of `{}` are: {}",
            e.name,
            e.members.join(", ")
        )),
    }
}
