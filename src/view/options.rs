//! What the scene shows: the toggles the panel and the command line set, read by the renderer.

use super::lighting::{Lighting, ToneMapping};
use super::material_channel::MaterialChannel;
use crate::inspect::VertexView;
use crate::skin::SkinningMethod;

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    pub mesh: bool,
    pub skeleton: bool,
    pub wireframe: bool,
    /// The ground with its grid, and the model's shadow on it.
    pub grid: bool,
    /// Skin on the GPU (true) or on the CPU (false).
    pub gpu_skinning: bool,
    /// Linear blend or dual-quaternion skinning (both paths do both).
    pub skinning_method: SkinningMethod,
    /// Colours from a vertex view (weights, influence counts, repairs, the CPU-vs-GPU
    /// difference) instead of the materials.
    pub vertex_view: Option<VertexView>,
    /// The mesh in its bind pose, translucent, over the posed one.
    pub bind_ghost: bool,
    pub lighting: Lighting,
    /// KHR_materials_variants: the variant whose materials the meshes draw with (an index
    /// into `Model::material_variants`; None: each primitive's own material).
    pub material_variant: Option<usize>,
    /// A crowd's far copies draw coarser copies of their meshes, within half a pixel
    /// (`crowd_detail`); off: every copy draws every triangle.
    pub crowd_detail: bool,
    /// One input of the lighting drawn instead of the lit picture, without tone mapping.
    pub channel: Option<MaterialChannel>,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            mesh: true,
            skeleton: false,
            wireframe: false,
            grid: true,
            gpu_skinning: true,
            skinning_method: SkinningMethod::Linear,
            vertex_view: None,
            bind_ghost: false,
            lighting: Lighting::default(),
            material_variant: None,
            crowd_detail: true,
            channel: None,
        }
    }
}

impl ViewOptions {
    /// Where pictures skin unless told: on the CPU where the adapter rasterises on the CPU
    /// too, on the GPU otherwise. A software rasteriser's vertex shaders run on the same cores,
    /// one thread skinning again for every pass: skinned once on the CPU, BrainStem's picture
    /// costs 0.91 of the CPU time (docs/PERFORMANCE.md), to the same bytes. A `crowd` stays on
    /// the GPU, whose far copies skin only their simplified meshes' vertices (200 Foxes skinned
    /// on the CPU: 1.6 times the frame).
    pub fn gpu_skinning_for(software_adapter: bool, crowd: bool) -> bool {
        !software_adapter || crowd
    }

    /// The lighting as the picture uses it: a material channel is drawn as it is, with no
    /// exposure and no tone curve.
    pub fn shown_lighting(&self) -> Lighting {
        match self.channel {
            Some(_) => Lighting {
                exposure: 0.0,
                tone_mapping: ToneMapping::None,
                ..self.lighting
            },
            None => self.lighting,
        }
    }

    /// The CPU-vs-GPU difference view is shown (it measures both skinnings every frame).
    pub fn measures_skin_difference(&self) -> bool {
        self.vertex_view == Some(VertexView::SkinDifference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_skin_on_the_cpu_only_where_it_rasterises_one_model() {
        assert!(!ViewOptions::gpu_skinning_for(true, false));
        assert!(ViewOptions::gpu_skinning_for(true, true), "a crowd stays on the GPU");
        assert!(ViewOptions::gpu_skinning_for(false, false));
        assert!(ViewOptions::gpu_skinning_for(false, true));
    }
}
