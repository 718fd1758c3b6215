//! The GPU side of the uniform blocks: `#[repr(C)]` Pod structs that mirror the WGSL structs in
//! `shaders/*.wgsl` field for field. Domain types (glam, `Material`) become these through
//! `from`/`new` functions here, so layout rules stay in one place.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};

use crate::asset::Material;
use crate::asset::model::AlphaMode;

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

/// `Draw` in mesh.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct DrawUniform {
    pub model: [[f32; 4]; 4],
    /// x: 1 = skin on the GPU; y: 1 = flat wireframe colour; z: 1 = dual-quaternion skinning.
    pub flags: [u32; 4],
    pub wire_color: [f32; 4],
}

impl DrawUniform {
    pub fn new(model: Mat4, gpu_skinning: bool, dual_quaternion: bool, wire_color: Option<Vec4>) -> Self {
        Self {
            model: model.to_cols_array_2d(),
            flags: [
                gpu_skinning as u32,
                wire_color.is_some() as u32,
                dual_quaternion as u32,
                0,
            ],
            wire_color: wire_color.unwrap_or(Vec4::ZERO).to_array(),
        }
    }
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

/// Skin influences of one vertex (locations 3 to 6 in mesh.wgsl).
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
    }
}
