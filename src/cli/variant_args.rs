//! `--variant NAME` (render and the viewer): draw the model with the materials of one of its
//! KHR_materials_variants variants.

use anyhow::anyhow;
use clap::Args;

use crate::asset::Model;

#[derive(Args, Debug, Default, Clone)]
pub struct VariantArgs {
    /// Draw with the materials of this material variant (KHR_materials_variants), by name;
    /// without it, each mesh's own materials.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
}

impl VariantArgs {
    /// The variant's index in `model` (None without --variant); an unknown name is an error
    /// that lists the model's variants.
    pub fn resolve(&self, model: &Model) -> anyhow::Result<Option<usize>> {
        self.variant
            .as_deref()
            .map(|name| model.find_variant(name).map_err(|e| anyhow!("--variant: {e}")))
            .transpose()
    }
}
