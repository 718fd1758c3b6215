//! `--morph MESH:TARGET=WEIGHT`, shared by `render`, `pose` and the viewer: morph-target weights
//! set by hand, replacing the animated ones (the viewer panel's "Override" mode).

use clap::Args;

use crate::anim::{MorphOverride, Pose};
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
    /// The weights these options set, for `model`'s poses. Fails on a spec that is not
    /// `MESH:TARGET=WEIGHT` or names a mesh or target that is not there (listing those that
    /// are).
    pub fn overrides(&self, model: &Model) -> anyhow::Result<MorphOverride> {
        morph_overrides(model, &self.morph)
    }

    /// Sets the weights these options name in `pose`.
    pub fn apply(&self, model: &Model, pose: &mut Pose) -> anyhow::Result<()> {
        self.overrides(model)?.apply(pose);
        Ok(())
    }
}
