//! `rigscope --licenses`: the licences of rigscope and of everything compiled into it (the Rust
//! crates of Cargo.lock and the C and C++ libraries they build), which a binary's redistributor
//! must pass on with it. The text is generated from Cargo.lock by `tools/licenses/generate.sh`
//! and embedded at build time, so every binary carries the list it was built from.

use std::io::Write;

/// rigscope's licence and every third-party crate's and library's, with each licence's text.
pub const LICENSES: &str = include_str!("../../assets/THIRD-PARTY-LICENSES.txt");

/// Writes the licences to `out` (standard output for `--licenses`).
pub fn write_licenses(out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(LICENSES.as_bytes())
}
