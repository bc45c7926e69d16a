//! The FlatZinc front end: MiniZinc compiles a model into FlatZinc, and this
//! module reads it into the same [`Model`] a `.csp` file builds, so that
//! every engine feature (threads, parts, LNS, the checker, statistics)
//! applies. `parse.rs` runs `grammar/flatzinc.pest`, `build.rs` declares
//! the variables, `builtins.rs` turns each constraint into a formula,
//! `detect.rs` finds structure MiniZinc flattened away (a job
//! shop's disjunctive), `views.rs` turns variables that a linear equality
//! of two variables defines into views, `search.rs` reads the search annotations and `output.rs` writes
//! solutions as MiniZinc expects them. docs/minizinc.md.

pub(crate) mod ast;
mod build;
mod builtins;
mod detect;
pub mod output;
mod parse;
mod search;
mod views;

pub use search::default_spec as default_search;

use crate::diag::{Diag, Diags, Source};
use crate::model::{Model, VarId};
use std::path::Path;

/// The largest FlatZinc file cspi reads.
const MAX_FZN_BYTES: u64 = 1 << 30;

/// A value MiniZinc asked to see: a variable or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutValue {
    Var(VarId),
    /// `a * x + b`: a variable that became a view of `x`.
    View(i64, VarId, i64),
    Const(i64),
}

/// One `output_var` or `output_array` item.
#[derive(Clone, Debug)]
pub struct Output {
    pub(crate) name: String,
    /// Printed as `true`/`false`.
    pub(crate) bool: bool,
    /// The index ranges of an array (`None`: a single value).
    pub(crate) dims: Option<Vec<(i64, i64)>>,
    pub(crate) items: Vec<OutValue>,
}

/// A FlatZinc model read: the model, and what to print of each solution.
#[derive(Debug)]
pub struct FznModel {
    pub model: Model,
    pub outputs: Vec<Output>,
    /// The solve item had a search annotation (`-f` lets cspi ignore it).
    pub(crate) annotated_search: bool,
    /// The search annotations asked for restarts.
    pub(crate) restarts_annotated: bool,
}

/// Reads a FlatZinc file.
pub(crate) fn load_file(path: &Path) -> Result<FznModel, Diags> {
    let shown = crate::reader::shown(path);
    let text = crate::reader::read_text(path, MAX_FZN_BYTES, None).map_err(|r| {
        Diags::from(
            Diag::new(
                "cspi::file",
                format!("cannot read FlatZinc file `{shown}`: {}", r.reason()),
            )
            .help(r.help("FlatZinc files"))
            .usage(),
        )
    })?;
    load_str(&shown, &text)
}

/// Reads FlatZinc text; `name` names it in diagnostics.
pub fn load_str(name: &str, text: &str) -> Result<FznModel, Diags> {
    let source = Source::new(name, text);
    let in_source = |ds: Diags| Diags(ds.0.into_iter().map(|d| d.in_source(&source)).collect());
    let ast = parse::parse(text).map_err(|d| in_source(Diags::from(d)))?;
    build::build(&ast).map_err(in_source)
}
