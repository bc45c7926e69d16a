//! `cspi explain`: why a model has no solution.

use super::ExplainArgs;
use super::interrupt::Interrupt;
use super::solve::model_overrides;
use crate::diag::{Diags, exit};
use crate::solve;

pub fn command(args: &ExplainArgs, _interrupt: &Interrupt) -> Result<i32, Diags> {
    let overrides = model_overrides(&args.model)?;
    let _model = solve::load_file(&args.model.model, &overrides)?;
    Ok(exit::OK)
}
