//! Diagnostics on stderr: in colour on a terminal, plain text elsewhere.

use crate::diag::{Diag, Diags};
use crate::output::sink::eprint;

/// Width of diagnostics when stderr is not a terminal, so that logs and the
/// golden files of tests/ui do not depend on the terminal.
const PLAIN_WIDTH: usize = 100;

/// Prints diagnostics on stderr and returns the exit code.
///
/// On a terminal (and without `NO_COLOR`) miette's default handler draws them
/// in colour at the terminal's width; otherwise they are drawn without colour or
/// links at a fixed width.
pub(crate) fn report(diags: &Diags) -> i32 {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let pretty = std::io::stderr().is_terminal() && !no_color;
    for d in &diags.0 {
        // Never a raw control character on the terminal (see Diag::printable).
        let d = &*d.printable();
        if pretty {
            eprint(&format!("{:?}\n", miette::Report::new(d.clone())));
        } else {
            eprint(&render_plain(d));
        }
    }
    diags.exit_code()
}

/// A diagnostic as plain text: no colour, no links, [`PLAIN_WIDTH`] columns.
pub fn render_plain(d: &Diag) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_links(false)
            .with_width(PLAIN_WIDTH);
    let d = &*d.printable();
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        out = format!("error[{}]: {}\n", d.code, d.message);
    }
    out.push('\n');
    out
}
