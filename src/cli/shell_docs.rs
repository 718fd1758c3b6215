//! The manual pages and the shell completions, made from the command line's own definitions
//! (clap), so they say exactly what the program takes.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use clap::CommandFactory;

use super::Cli;

/// Writes the manual page of `rigscope` (roff) to `out`; with `out_dir`, writes instead a
/// page per command into that folder (`rigscope.1`, `rigscope-render.1`, ...), as a package
/// installs them under `/usr/share/man/man1`.
pub fn man(out_dir: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<()> {
    match out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(Cli::command(), dir)
                .with_context(|| format!("cannot write the manual pages into {}", dir.display()))
        }
        None => Ok(clap_mangen::Man::new(Cli::command()).render(out)?),
    }
}

/// Writes the completion script for `shell` to `out` (for bash, to source or to install as
/// `/usr/share/bash-completion/completions/rigscope`).
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) {
    clap_complete::generate(shell, &mut Cli::command(), "rigscope", out);
}
