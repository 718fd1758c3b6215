//! Where the vertex stage reads a skin's matrices from, chosen once per device.

use std::borrow::Cow;

/// A skin's matrices in the vertex stage (`skin_matrix` in the shaders).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkinSource {
    /// The `pose` (joint model matrices) and `inv_bind_pose` uniform arrays, `max_joints`
    /// long, multiplied per vertex: what every adapter offers. Skins with more joints are
    /// skinned on the CPU.
    UniformArrays { max_joints: usize },
    /// The palette the CPU computes each frame (model matrix times inverse bind matrix per
    /// skin joint) in a storage buffer: any number of joints, no product per vertex. Used where
    /// the adapter allows storage buffers in the vertex stage.
    StoragePalette,
}

/// Joints per uniform array that fit the device's uniform buffers (capped at 1024).
pub fn max_uniform_joints(limits: &wgpu::Limits) -> usize {
    (limits.max_uniform_buffer_binding_size / 64).clamp(1, 1024) as usize
}

impl SkinSource {
    /// The storage palette where `adapter` reads storage buffers in the vertex stage, else
    /// the uniform arrays as long as its uniform buffers allow.
    pub fn for_adapter(adapter: &wgpu::Adapter) -> Self {
        let vertex_storage = adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::VERTEX_STORAGE);
        if vertex_storage && adapter.limits().max_storage_buffers_per_shader_stage > 0 {
            Self::StoragePalette
        } else {
            Self::UniformArrays {
                max_joints: max_uniform_joints(&adapter.limits()),
            }
        }
    }

    /// Whether a skin of `joints` joints is skinned on the GPU from this source.
    pub fn fits(&self, joints: usize) -> bool {
        match self {
            Self::UniformArrays { max_joints } => joints <= *max_joints,
            Self::StoragePalette => true,
        }
    }

    /// The WGSL that declares the skin's bindings and `skin_matrix`.
    pub fn wgsl(&self) -> Cow<'static, str> {
        match self {
            Self::UniformArrays { max_joints } => Cow::Owned(
                include_str!("../../shaders/skin_uniform_arrays.wgsl")
                    .replace("__MAX_JOINTS__", &max_joints.to_string()),
            ),
            Self::StoragePalette => Cow::Borrowed(include_str!("../../shaders/skin_storage_palette.wgsl")),
        }
    }

    /// Group 1's entries for the skin's matrices (the draw uniform is binding 2).
    pub fn layout_entries(&self) -> Vec<wgpu::BindGroupLayoutEntry> {
        let buffer = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        match self {
            Self::UniformArrays { .. } => vec![
                buffer(0, wgpu::BufferBindingType::Uniform),
                buffer(1, wgpu::BufferBindingType::Uniform),
            ],
            Self::StoragePalette => vec![buffer(0, wgpu::BufferBindingType::Storage { read_only: true })],
        }
    }

    /// Short description for the panel and notes.
    pub fn describe(&self) -> String {
        match self {
            Self::UniformArrays { max_joints } => {
                format!("GPU skinning from uniform arrays ({max_joints} joints a skin)")
            }
            Self::StoragePalette => "GPU skinning from a storage buffer (any number of joints)".to_string(),
        }
    }
}
