//! rigscope: a viewer and inspector for skinned, animated 3D models.
//!
//! The library's public face is [`api`]: load a file into a [`Model`], pose it with an
//! [`Animator`] into a [`Pose`], lint it into [`Finding`]s, render it to RGBA pixels, compare
//! two versions of a rig and write a model back out as glTF; errors are typed ([`LoadError`],
//! [`RenderError`], [`WriteError`]). [`run_command_line`] is the `rigscope` program itself.
//!
//! Behind that face, data flows one way: `asset` turns a file into a `Model`; `anim` samples
//! its clips into a `Pose`; `skin` deforms the meshes with that pose on the CPU; `render` draws
//! it with wgpu (skinning on the GPU or taking the CPU's vertices); `ui` is the egui panel and
//! the viewer state it edits; `app` is the window; `cli` exposes the same pipeline as headless
//! commands; `lint` checks a model's rig for problems; `inspect` works out what the joint
//! browser, the weight views and the pose modes show; `view` is what the panel and the
//! renderer share without a GPU (camera, framing, picking, view toggles, what moves in a
//! frame); `export` writes pictures and videos; `write` writes models back out as glTF; `diff`
//! compares two versions of a rig (joints, binds, meshes, weights, morph targets, materials,
//! clips); `simd` holds the registers and the AVX dispatch of `anim`'s and `skin`'s hot loops;
//! `in_order` shares a list of jobs among a few threads, its results taken in the list's order;
//! `heap_padding` pads the C heap for the program alone.
//! These modules are the crate's own: the `internals` feature makes them public for its tests,
//! benches and tools, and nothing else should depend on them.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

/// Declares the modules behind the facade: public with the `internals` feature (the crate's
/// tests and benches turn it on through a dev-dependency on the crate itself), private to the
/// crate otherwise, so that a program depending on rigscope sees only what this file exports.
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {
        $(
            #[cfg(feature = "internals")]
            pub mod $name;
            #[cfg(not(feature = "internals"))]
            pub(crate) mod $name;
        )*
    };
}

pub mod api;
internal_modules!(
    anim, app, asset, cli, diff, export, inspect, lint, render, skin, ui, view, write
);
mod heap_padding;
mod in_order;
mod simd;
#[cfg(test)]
mod test_shapes;

pub use anim::{Animator, Pose};
pub use asset::{LoadError, LoadErrorKind, Model};
pub use diff::{RigDiff, Tolerance};
pub use lint::{Finding, Rule, Severity};
pub use render::RenderError;
pub use write::{WriteError, WriteOptions, Written};

/// The exit status of a command line clap cannot use (as clap's own).
const USAGE_ERROR: u8 = 2;

/// The `rigscope` program: reads the process's command line, runs the command it names
/// headless (its results on standard output) or, without one, opens the viewer; errors go to
/// standard error in words, without source paths. `main.rs` is only this call.
pub fn run_command_line() -> ExitCode {
    heap_padding::pad_heap();
    let arguments: Vec<OsString> = std::env::args_os().collect();
    if let Some(message) = cli::launch::mistyped_command(&arguments) {
        eprintln!("rigscope: {message}");
        return ExitCode::from(USAGE_ERROR);
    }
    let arguments = cli::Cli::parse_from(arguments);
    let result = match arguments.command {
        Some(command) => run_command(command),
        None if arguments.licenses => print_licenses(),
        None => match cli::launch::missing_display() {
            Some(message) => Err(anyhow::anyhow!(message)),
            None => arguments.viewer_options().and_then(app::run),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rigscope: {}", cli::launch::error_message(&error));
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
    unsafe { render::Gpu::leave_out_vulkan_device_selection() };
    export::output::remove_partial_files_on_signals()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    cli::run(command, &mut out)?;
    Ok(out.flush()?)
}
