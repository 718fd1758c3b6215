//! `--clips-from FILE...` (several files, or repeated), shared by `pose`, `render`, `sheet` and the viewer: the
//! clips of another glTF/GLB file added to the model, retargeted onto its rig by joint name
//! (see `asset::clips_from`).

use std::path::PathBuf;

use clap::Args;

use crate::asset::{self, ClipsFromReport, Model};
use crate::view::counted;

#[derive(Args, Debug, Default, Clone)]
pub struct ClipsFromArgs {
    /// Add the clips of other model files, retargeted onto this model's rig by joint name
    /// (named "CLIP (FILE)"): several files after it, or the option repeated.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub clips_from: Vec<PathBuf>,
}

impl ClipsFromArgs {
    /// Adds each file's clips to `model`, saying on standard error how the joints paired. A
    /// file that cannot be loaded, has no clips or no matching joint is an error.
    pub fn apply(&self, model: &mut Model) -> anyhow::Result<()> {
        for file in &self.clips_from {
            let report = asset::add_clips_from(model, file)?;
            eprintln!("{}", summary(&report));
        }
        Ok(())
    }
}

/// "Xbot.glb: added 7 clips; 65 joints paired, 2 of the model's and 3 of the file's unpaired".
pub fn summary(report: &ClipsFromReport) -> String {
    format!(
        "{}: added {}; {} paired, {} of the model's and {} of the file's unpaired",
        report.file.display(),
        counted(report.clips.len(), "clip", "clips"),
        counted(report.matched.len(), "joint", "joints"),
        report.unmatched_target.len(),
        report.unmatched_source.len(),
    )
}
