//! `cspi merge PART...`: reads the JSON Lines outputs of `cspi solve --part
//! K/N` runs and prints the combined result (`crate::merge`).

use super::MergeArgs;
use crate::diag::{Diag, Diags, exit};
use crate::merge::{self, PartOutput};
use crate::output::Format;
use crate::output::sink::Stdout;

pub(super) fn command(args: &MergeArgs) -> Result<i32, Diags> {
    let fail = |msg: String, help: &str| Diags::from(Diag::new("cspi::merge", msg).help(help));
    let mut parts: Vec<PartOutput> = Vec::new();
    for path in &args.parts {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            fail(
                format!("cannot read `{shown}`: {e}"),
                "give the files written by `cspi solve ... --part K/N --format json`",
            )
        })?;
        if args.partial && merge::unfinished(&text) {
            let d = Diag::new(
                "cspi::merge",
                format!("`{shown}` has no summary yet: left out of the partial merge"),
            )
            .help("a part still running writes its summary when it ends");
            super::diagnostics::report(&Diags::from(d.warning()));
            continue;
        }
        parts.push(
            merge::read_part(&shown, &text)
                .map_err(|m| fail(m, "each file must hold one part's `--format json` output"))?,
        );
    }
    let merged = merge::merge(&parts, args.partial).map_err(|m| {
        fail(
            m,
            "merge the N outputs of one split: the same model, parameters and flags, --part 1/N to N/N",
        )
    })?;
    let mut out = Stdout::new();
    for s in &merged.solutions {
        out.write(&format!("{s}\n"));
    }
    let end = match args.format {
        Format::Json => {
            let map = merged.failed.as_ref().map(|m| m.json()).unwrap_or_default();
            format!("{map}{}\n", crate::output::merge::json(&merged))
        }
        Format::Human => crate::output::merge::human(&merged),
    };
    out.write(&end);
    Ok(super::solve::output_exit(&out).unwrap_or(exit::OK))
}
