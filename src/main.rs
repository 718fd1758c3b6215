use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use rigscope::cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rigscope: {error:#}");
            ExitCode::FAILURE
        }
    }
}
