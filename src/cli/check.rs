//! `cspi check`: load the model without solving it.

use super::CheckArgs;
use super::solve::model_overrides;
use crate::diag::{Diags, exit};
use crate::solve;

pub fn command(args: &CheckArgs) -> Result<i32, Diags> {
    let overrides = model_overrides(&args.model)?;
    let options = args.model.load_options()?;
    let model = solve::load_file_with(&args.model.model, &overrides, &options)?;
    let mut spec = model.search.clone();
    args.strategy.apply(&mut spec);
    solve::check_strategy(&model, &spec).map_err(Diags::from)?;
    Ok(exit::OK)
}
