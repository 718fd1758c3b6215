//! The launcher: a command line with a command runs it headless; without one, the viewer opens.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use rigscope::cli::launch;
use rigscope::export::output;
use rigscope::render::Gpu;
use rigscope::{app, cli};

/// The exit status of a command line clap cannot use (as clap's own).
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let arguments: Vec<OsString> = std::env::args_os().collect();
    if let Some(message) = launch::mistyped_command(&arguments) {
        eprintln!("rigscope: {message}");
        return ExitCode::from(USAGE_ERROR);
    }
    let arguments = cli::Cli::parse_from(arguments);
    let result = match arguments.command {
        Some(command) => run_command(command),
        None if arguments.licenses => print_licenses(),
        None => match launch::missing_display() {
            Some(message) => Err(anyhow::anyhow!(message)),
            None => arguments.viewer_options().and_then(app::run),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rigscope: {}", launch::error_message(&error));
            ExitCode::from(cli::exit_status(&error))
        }
    }
}

/// `--licenses`: the licences embedded at build time, on standard output. A pager or `head`
/// that stops reading early is no error.
fn print_licenses() -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli::licenses::write_licenses(&mut out).and_then(|()| out.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => Ok(result?),
    }
}

/// Runs a headless command, its results on standard output.
fn run_command(command: cli::Command) -> anyhow::Result<()> {
    // SAFETY: no other thread has started yet (parsing the command line starts none).
    unsafe { Gpu::leave_out_vulkan_device_selection() };
    output::remove_partial_files_on_signals()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    cli::run(command, &mut out)?;
    Ok(out.flush()?)
}
