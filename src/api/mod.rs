//! The library's facade for programs and the Python module (`python/`): load a model, read
//! what it holds, pose it, lint it, render it, compare two versions and convert to glTF, each
//! through the code the `rigscope` commands run, so that results equal the commands' output.
//! Every call returns the one [`Error`] type.

mod commands;
mod error;
mod pose;
mod summary;

use std::path::Path;

pub use crate::asset::Model;
pub use commands::{LintReport, Picture, RenderOptions, convert, diff, inspect, lint, lint_json, render};
pub use error::Error;
pub use pose::{PoseOptions, PosedModel, PosedPrimitive, pose};
pub use summary::{Avatar, Channel, Clip, Joint, Mesh, Primitive, Skin, Summary, summary, summary_json};

/// Loads a model (any format rigscope reads), as the commands do.
pub fn load(path: &Path) -> Result<Model, Error> {
    crate::asset::load(path).map_err(|error| Error::from_load(&error))
}
