//! Every skin's matrices on the GPU, as the skin source wants them, and group 1 of the
//! skinning shaders (those matrices and the draw uniforms) per skin.

use glam::Mat4;
use wgpu::util::DeviceExt;

use super::draw_uniforms::DrawUniforms;
use super::layouts::Layouts;
use super::skin_source::SkinSource;
use crate::asset::Model;
use crate::skin::Deformer;

/// One skin's matrices: the `pose` array (with `inv_bind_pose` written once beside it), or
/// the palette.
struct SkinBuffers {
    matrices: wgpu::Buffer,
    /// The `inv_bind_pose` array (uniform arrays only); a crowd's groups bind it too.
    inverse_bind: Option<wgpu::Buffer>,
    group: wgpu::BindGroup,
    /// The skin fits the skin source (else the GPU never reads these buffers).
    fits: bool,
}

/// Group 1 of the skinning shaders: the skin's matrices (and, for uniform arrays, their
/// inverse bind matrices) and the draw uniforms.
pub fn skin_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    label: &str,
    (matrices, inverse_bind): (&wgpu::Buffer, Option<&wgpu::Buffer>),
    draw_uniforms: wgpu::BindingResource<'_>,
) -> wgpu::BindGroup {
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: matrices.as_entire_binding(),
    }];
    if let Some(inverse_bind) = inverse_bind {
        entries.push(wgpu::BindGroupEntry {
            binding: 1,
            resource: inverse_bind.as_entire_binding(),
        });
    }
    entries.push(wgpu::BindGroupEntry {
        binding: 2,
        resource: draw_uniforms,
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &layouts.draw,
        entries: &entries,
    })
}

pub struct GpuSkins {
    source: SkinSource,
    skins: Vec<SkinBuffers>,
    /// Group 1 for draws without a skin: identity matrices they never read.
    unskinned: wgpu::BindGroup,
    /// The `pose` array being assembled (uniform arrays only), kept so frames do not allocate.
    pose_scratch: Vec<Mat4>,
}

impl GpuSkins {
    /// Buffers for every skin of `model`, laid out for `layouts`' skin source; `notes` learns
    /// which skins the GPU cannot skin.
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        model: &Model,
        draw_uniforms: &DrawUniforms,
        notes: &mut Vec<String>,
    ) -> Self {
        let source = layouts.skin_source;
        // Matrices in a skin's buffers: uniform arrays are exactly as long as the shader
        // declares them (a longer binding would pass the device's limit); a palette holds
        // every joint of its skin.
        let length = |joints: usize| match source {
            SkinSource::UniformArrays { max_joints } => max_joints,
            SkinSource::StoragePalette => joints,
        };
        let group = |matrices: &wgpu::Buffer, inverse_bind: Option<&wgpu::Buffer>| {
            skin_group(
                device,
                layouts,
                "skin",
                (matrices, inverse_bind),
                draw_uniforms.binding(),
            )
        };
        // Buffers of `length` matrices (at least one: empty bindings are not allowed), starting
        // with as many of `matrices` as fit.
        let matrix_buffer = |label: &str, matrices: &[Mat4], length: usize, usage: wgpu::BufferUsages| {
            let mut contents = vec![Mat4::IDENTITY; length.max(1)];
            let written = matrices.len().min(contents.len());
            contents[..written].copy_from_slice(&matrices[..written]);
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&contents),
                usage: usage | wgpu::BufferUsages::COPY_DST,
            })
        };
        let usage = match source {
            SkinSource::UniformArrays { .. } => wgpu::BufferUsages::UNIFORM,
            SkinSource::StoragePalette => wgpu::BufferUsages::STORAGE,
        };
        let inverse_bind_of = |matrices: &[Mat4]| {
            matches!(source, SkinSource::UniformArrays { .. })
                .then(|| matrix_buffer("inv_bind_pose", matrices, length(matrices.len()), usage))
        };
        let skins = model
            .skins
            .iter()
            .map(|skin| {
                let joints = skin.joints.len();
                let fits = source.fits(joints);
                if !fits {
                    notes.push(format!(
                        "skin '{}' has {joints} joints, more than the {} the GPU's uniform arrays hold: it is skinned on the CPU",
                        skin.name,
                        length(0)
                    ));
                }
                let matrices = matrix_buffer("skin matrices", &[], length(joints), usage);
                let inverse_bind = inverse_bind_of(&skin.inverse_bind);
                SkinBuffers {
                    group: group(&matrices, inverse_bind.as_ref()),
                    matrices,
                    inverse_bind,
                    fits,
                }
            })
            .collect();
        let identity = matrix_buffer("unskinned", &[], length(0), usage);
        let unskinned = group(&identity, inverse_bind_of(&[]).as_ref());
        Self {
            source,
            skins,
            unskinned,
            // The `pose` array is assembled only for uniform arrays.
            pose_scratch: vec![Mat4::IDENTITY; length(0)],
        }
    }

    /// Group 1 for a draw of `skin` (or of none).
    pub fn group(&self, skin: Option<usize>) -> &wgpu::BindGroup {
        skin.map_or(&self.unskinned, |s| &self.skins[s].group)
    }

    /// Skin `skin`'s `inv_bind_pose` array (uniform arrays only).
    pub fn inverse_bind(&self, skin: usize) -> Option<&wgpu::Buffer> {
        self.skins[skin].inverse_bind.as_ref()
    }

    /// Whether `skin` fits the skin source, so the GPU can skin with its matrices.
    pub fn fits(&self, skin: usize) -> bool {
        self.skins[skin].fits
    }

    /// Writes this frame's matrices of every skin the GPU skins: the joints' model matrices
    /// into the `pose` arrays, or the deformer's palettes (computed from the same matrices).
    pub fn upload(&mut self, queue: &wgpu::Queue, model: &Model, model_matrices: &[Mat4], deformer: &Deformer) {
        for (index, (skin, buffers)) in model.skins.iter().zip(&self.skins).enumerate() {
            if !buffers.fits || skin.joints.is_empty() {
                continue;
            }
            let matrices: &[Mat4] = match self.source {
                SkinSource::UniformArrays { .. } => {
                    for (slot, &joint) in self.pose_scratch.iter_mut().zip(&skin.joints) {
                        *slot = model_matrices[joint];
                    }
                    &self.pose_scratch[..skin.joints.len()]
                }
                SkinSource::StoragePalette => deformer.palette(index),
            };
            queue.write_buffer(&buffers.matrices, 0, bytemuck::cast_slice(matrices));
        }
    }
}
