use clap::Parser;
use cspi::diag::exit;

fn main() {
    // A panic is a bug in cspi, never the user's fault: say so, and exit with
    // a code distinct from model errors.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("internal error: {info}");
        eprintln!(
            "This is a bug in cspi. Please report it with the model and the command line that caused it."
        );
    }));
    let cli = match cspi::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    let code = std::panic::catch_unwind(|| cspi::cli::run(cli)).unwrap_or(exit::INTERNAL);
    std::process::exit(code);
}
