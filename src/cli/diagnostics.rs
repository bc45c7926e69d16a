//! Diagnostics on stderr: in colour on a terminal, plain text elsewhere.

use crate::diag::Diags;
use crate::output::sink::eprint;

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

pub use crate::diag::render_plain;
