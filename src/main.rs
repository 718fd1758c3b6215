//! The launcher: a command line with a command runs it headless; without one, the viewer opens.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use rigscope::{app, cli};

fn main() -> ExitCode {
    let arguments = cli::Cli::parse();
    let result = match arguments.command {
        Some(command) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            cli::run(command, &mut out).and_then(|()| Ok(out.flush()?))
        }
        None => arguments.viewer_options().and_then(app::run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rigscope: {error:#}");
            ExitCode::FAILURE
        }
    }
}
