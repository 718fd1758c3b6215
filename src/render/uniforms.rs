//! The GPU side of the uniform blocks: `#[repr(C)]` Pod structs that mirror the WGSL structs in
//! `shaders/*.wgsl` field for field. Domain types (glam, `Material`) become these through
//! `from`/`new` functions here, so layout rules stay in one place.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};

use crate::asset::Material;
use crate::asset::model::AlphaMode;
use crate::inspect::Ramp;
use crate::skin::SkinningMethod;

/// `Frame` in frame.wgsl (shared by every scene shader).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct FrameUniform {
    pub view_proj: [[f32; 4]; 4],
    pub light_view_proj: [[f32; 4]; 4],
    pub camera_position: [f32; 4],
    /// xyz: direction towards the key light.
    pub light_direction: [f32; 4],
    /// x: 1 when the shadow map is used, y: its texel size.
    pub shadow: [f32; 4],
}

impl FrameUniform {
    pub fn new(
        view_proj: Mat4,
        light_view_proj: Mat4,
        camera: Vec3,
        light_direction: Vec3,
        shadow_texel: Option<f32>,
    ) -> Self {
        Self {
            view_proj: view_proj.to_cols_array_2d(),
            light_view_proj: light_view_proj.to_cols_array_2d(),
            camera_position: camera.extend(1.0).to_array(),
            light_direction: light_direction.normalize().extend(0.0).to_array(),
            shadow: [shadow_texel.map_or(0.0, |_| 1.0), shadow_texel.unwrap_or(0.0), 0.0, 0.0],
        }
    }
}

/// `Draw` in skinning.wgsl; its `skinning`, `style` and `ramp` take the values of
/// [`Skinning`], [`Look`] and [`Ramp`], which name the shader's constants.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct DrawUniform {
    pub model: [[f32; 4]; 4],
    pub skinning: u32,
    pub style: u32,
    pub ramp: u32,
    pub unused: u32,
    pub wire_color: [f32; 4],
}

/// How a draw's vertices reach world space (`SKINNING_*` in skinning.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skinning {
    /// By the draw's model matrix: static meshes, and vertices the CPU skinned.
    None = 0,
    /// Linear blend skinning on the GPU.
    Linear = 1,
    /// Dual-quaternion skinning on the GPU.
    DualQuaternion = 2,
}

impl Skinning {
    /// The GPU skins the draw (`on_gpu`) by `method`, or does not.
    pub fn on_gpu(on_gpu: bool, method: SkinningMethod) -> Self {
        match (on_gpu, method) {
            (false, _) => Self::None,
            (true, SkinningMethod::Linear) => Self::Linear,
            (true, SkinningMethod::DualQuaternion) => Self::DualQuaternion,
        }
    }
}

/// How a draw looks (`STYLE_*` and `RAMP_*` in skinning.wgsl).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Look {
    /// Lit with its material.
    Lit,
    /// Flat, in this colour (the wireframe).
    Wire(Vec4),
    /// Translucent in this colour, stronger at the outline (the bind-pose ghost).
    Ghost(Vec4),
    /// Colours from the vertex view's values.
    View(Ramp),
}

/// `STYLE_*` in skinning.wgsl.
const STYLE_LIT: u32 = 0;
const STYLE_WIRE: u32 = 1;
const STYLE_GHOST: u32 = 2;
/// `RAMP_NONE` in skinning.wgsl (the others are `Ramp`'s values).
const RAMP_NONE: u32 = 0;

impl DrawUniform {
    pub fn new(model: Mat4, skinning: Skinning, look: Look) -> Self {
        let (style, color, ramp) = match look {
            Look::Lit => (STYLE_LIT, Vec4::ZERO, RAMP_NONE),
            Look::Wire(color) => (STYLE_WIRE, color, RAMP_NONE),
            Look::Ghost(color) => (STYLE_GHOST, color, RAMP_NONE),
            Look::View(ramp) => (STYLE_LIT, Vec4::ZERO, ramp as u32),
        };
        Self {
            model: model.to_cols_array_2d(),
            skinning: skinning as u32,
            style,
            ramp,
            unused: 0,
            wire_color: color.to_array(),
        }
    }
}

/// `Capture` in skin_capture.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CaptureUniform {
    /// x: texture width, y: texture height, z: the texel of the draw's first vertex.
    pub params: [u32; 4],
}

/// `Material` in mesh.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct MaterialUniform {
    pub base_color: [f32; 4],
    /// x: metallic, y: roughness, z: normal scale, w: alpha cutoff (MASK).
    pub factors: [f32; 4],
    /// x: base colour, y: metallic-roughness, z: normal texture present (1) or not (0);
    /// w: alpha mode (0 opaque, 1 mask, 2 blend).
    pub textures: [u32; 4],
}

impl MaterialUniform {
    /// `textures` says which of the material's textures could be loaded.
    pub fn new(material: &Material, textures: [bool; 3]) -> Self {
        let (mode, cutoff) = match material.alpha {
            AlphaMode::Opaque => (0, 0.0),
            AlphaMode::Mask { cutoff } => (1, cutoff),
            AlphaMode::Blend => (2, 0.0),
        };
        Self {
            base_color: material.base_color.to_array(),
            factors: [material.metallic, material.roughness, material.normal_scale, cutoff],
            textures: [textures[0] as u32, textures[1] as u32, textures[2] as u32, mode],
        }
    }
}

/// `Ground` in ground.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct GroundUniform {
    /// x: height, y: half size, z: grid spacing, w: unused.
    pub params: [f32; 4],
}

/// A vertex of the skeleton overlay (`VertexIn` in overlay.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct OverlayVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
    pub offset: [f32; 2],
}

/// Skin influences of one vertex (locations 3 to 6 in skinning.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct InfluenceVertex {
    pub joints: [u16; 4],
    pub joints_extra: [u16; 4],
    pub weights: [f32; 4],
    pub weights_extra: [f32; 4],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_wgsl_layouts() {
        // WGSL: mat4x4 = 64 bytes, vec4 = 16; structs round up to 16.
        assert_eq!(std::mem::size_of::<FrameUniform>(), 64 * 2 + 16 * 3);
        assert_eq!(std::mem::size_of::<DrawUniform>(), 64 + 16 + 16);
        assert_eq!(std::mem::size_of::<MaterialUniform>(), 48);
        assert_eq!(std::mem::size_of::<GroundUniform>(), 16);
        assert_eq!(std::mem::size_of::<InfluenceVertex>(), 48);
        assert_eq!(std::mem::size_of::<CaptureUniform>(), 16);
    }

    #[test]
    fn draw_constants_match_the_shader() {
        let shader = include_str!("../../shaders/skinning.wgsl");
        for (name, value) in [
            ("SKINNING_NONE", Skinning::None as u32),
            ("SKINNING_LINEAR", Skinning::Linear as u32),
            ("SKINNING_DUAL_QUAT", Skinning::DualQuaternion as u32),
            ("STYLE_LIT", STYLE_LIT),
            ("STYLE_WIRE", STYLE_WIRE),
            ("STYLE_GHOST", STYLE_GHOST),
            ("RAMP_NONE", RAMP_NONE),
            ("RAMP_HEAT", Ramp::Heat as u32),
            ("RAMP_COUNT", Ramp::Count as u32),
            ("RAMP_FLAG", Ramp::Flag as u32),
        ] {
            let declaration = format!("const {name}: u32 = {value}u;");
            assert!(shader.contains(&declaration), "skinning.wgsl lacks `{declaration}`");
        }
    }
}
