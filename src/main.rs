//! The launcher: a command line with a command runs it headless; without one, the viewer opens
//! (all of it in the library's `run_command_line`).

fn main() -> std::process::ExitCode {
    rigscope::run_command_line()
}
