//! `--morph MESH:TARGET=WEIGHT`, shared by `render`, `pose` and the viewer: morph-target weights
//! set by hand, replacing the animated ones (the viewer panel's "Override" mode).

use clap::Args;

use crate::anim::Pose;
use crate::asset::Model;
use crate::inspect::morph_lookup::morph_overrides;

#[derive(Args, Debug, Clone, Default)]
pub struct MorphArgs {
    /// Set a morph target's weight, replacing the animated one: MESH by name or index (as
    /// `inspect` lists meshes), TARGET by name or index. Every node drawing the mesh takes it.
    /// Repeat for several targets.
    #[arg(long, value_name = "MESH:TARGET=WEIGHT", allow_hyphen_values = true)]
    pub morph: Vec<String>,
}

impl MorphArgs {
    /// Sets the weights these options name in `pose`.
    pub fn apply(&self, model: &Model, pose: &mut Pose) -> anyhow::Result<()> {
        morph_overrides(model, &self.morph)?.apply(pose);
        Ok(())
    }
}
