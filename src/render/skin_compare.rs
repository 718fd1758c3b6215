//! The CPU-vs-GPU difference view: the GPU's skinning of every vertex is drawn into a texture
//! that keeps its float bits (one texel per vertex, by the same vertex-stage code the mesh pipelines use), read
//! back, and compared with the CPU deformer's vertices. Each vertex's distance becomes its
//! vertex view value on a logarithmic scale of the model's size. This is a read-back with its
//! own submission: the frame runs it before it records its passes, never inside them.

use anyhow::{anyhow, bail};
use wgpu::util::DeviceExt;

use super::capture::map_for_reading;
use super::draw_uniforms::DrawSlot;
use super::gpu::Gpu;
use super::layouts::Layouts;
use super::model_buffers::ModelBuffers;
use super::pipelines::{MESH_BUFFERS, skinning_shader};
use super::uniforms::CaptureUniform;
use crate::inspect::SkinDifference;
use crate::inspect::skin_difference::{NOT_MEASURED, heat_value};
use crate::skin::Deformer;

/// Texels per row of the capture texture (16 bytes each: rows stay 256-byte aligned).
const WIDTH: u32 = 256;
/// The positions' bits, as unsigned integers: integer targets are renderable everywhere
/// (float ones are not on OpenGL ES), and bits come back exactly.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;
/// The pipeline that writes skinned positions to texels (made when the view is first shown).
pub struct SkinCompare {
    pipeline: wgpu::RenderPipeline,
}

/// A model's capture texture, its readback buffer and each draw's first texel.
pub struct CaptureTarget {
    view: wgpu::TextureView,
    texture: wgpu::Texture,
    readback: wgpu::Buffer,
    height: u32,
    /// Per draw: the capture group giving its first texel, for the draws the GPU skins.
    groups: Vec<Option<(wgpu::BindGroup, u32)>>,
}

impl SkinCompare {
    pub fn new(gpu: &Gpu, layouts: &Layouts) -> anyhow::Result<Self> {
        let features = gpu.adapter.get_texture_format_features(FORMAT);
        if !features.allowed_usages.contains(wgpu::TextureUsages::RENDER_ATTACHMENT) {
            bail!(
                "this graphics device cannot render to 32-bit integer textures, so the GPU's skinning cannot be read back"
            );
        }
        let device = &gpu.device;
        let shader = skinning_shader(
            device,
            "skin capture",
            layouts.skin_source,
            include_str!("../../shaders/skin_capture.wgsl"),
        );
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skin capture"),
            bind_group_layouts: &[None, Some(&layouts.draw), Some(&layouts.capture)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("skin capture"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_capture"),
                compilation_options: Default::default(),
                buffers: &MESH_BUFFERS,
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::PointList,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_capture"),
                compilation_options: Default::default(),
                targets: &[Some(FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        Ok(Self { pipeline })
    }

    /// Skins every draw the GPU can skin (with the uniforms and matrices `buffers` last
    /// uploaded), reads the result back and compares it with `deformer`'s vertices (which must
    /// be posed for those draws); writes each vertex's distance into the draw's vertex view
    /// values. `size` scales the colours.
    pub fn measure(
        &self,
        gpu: &Gpu,
        buffers: &mut ModelBuffers,
        target: &CaptureTarget,
        deformer: &Deformer,
        size: f32,
    ) -> anyhow::Result<SkinDifference> {
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("skin capture"),
        });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("skin capture"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target.view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&self.pipeline);
            for (index, (draw, group)) in buffers.draws.iter().zip(&target.groups).enumerate() {
                let Some((group, _)) = group else { continue };
                let (vertex_buffers, _) = buffers.vertex_buffers(index, DrawSlot::Capture, true);
                for (slot, buffer) in vertex_buffers.into_iter().enumerate() {
                    pass.set_vertex_buffer(slot as u32, buffer.slice(..));
                }
                let offset = buffers.uniforms.offset(index, DrawSlot::Capture);
                pass.set_bind_group(1, buffers.skins.group(draw.skin), &[offset]);
                pass.set_bind_group(2, group, &[]);
                pass.draw(0..draw.vertex_count as u32, 0..1);
            }
        }
        let bytes_per_row = WIDTH * 16;
        encoder.copy_texture_to_buffer(
            target.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &target.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(bytes_per_row),
                    rows_per_image: None,
                },
            },
            wgpu::Extent3d {
                width: WIDTH,
                height: target.height,
                depth_or_array_layers: 1,
            },
        );
        gpu.queue.submit([encoder.finish()]);
        let slice = target.readback.slice(..);
        map_for_reading(gpu, slice, "the GPU's skinning")?;
        let mut difference = SkinDifference {
            size,
            ..SkinDifference::default()
        };
        let mut sum = 0.0f64;
        {
            let mapped = slice
                .get_mapped_range()
                .map_err(|e| anyhow!("cannot read the GPU's skinning back: {e:?}"))?;
            let texels: &[[f32; 4]] = bytemuck::cast_slice(&mapped);
            // (The bits of f32 written as u32: read back as f32 they are the positions.)
            let scale = size.max(f32::MIN_POSITIVE);
            for (index, posed) in deformer.primitives().iter().enumerate() {
                buffers.write_difference_values(&gpu.queue, index, |draw, values| {
                    values.fill(NOT_MEASURED);
                    match &target.groups[index] {
                        Some((_, first)) => {
                            let gpu_positions = &texels[*first as usize..][..draw.vertex_count];
                            for (vertex, ((value, gpu), cpu)) in
                                values.iter_mut().zip(gpu_positions).zip(&posed.positions).enumerate()
                            {
                                let distance = glam::Vec3::new(gpu[0], gpu[1], gpu[2]).distance(*cpu);
                                // NaN on either side counts as infinitely far.
                                let distance = if distance.is_nan() { f32::INFINITY } else { distance };
                                if distance > difference.max || difference.worst.is_none() {
                                    difference.max = distance;
                                    difference.worst = Some((index, vertex));
                                }
                                sum += distance as f64;
                                *value = heat_value(distance / scale);
                            }
                            difference.vertices += draw.vertex_count;
                        }
                        None => difference.cpu_only += usize::from(draw.skin.is_some() && draw.vertex_count > 0),
                    }
                });
            }
        }
        target.readback.unmap();
        difference.mean = if difference.vertices > 0 {
            (sum / difference.vertices as f64) as f32
        } else {
            0.0
        };
        Ok(difference)
    }
}

impl CaptureTarget {
    /// A texel for every vertex of the draws in `buffers` that the GPU skins.
    pub fn new(gpu: &Gpu, layouts: &Layouts, buffers: &ModelBuffers) -> anyhow::Result<Self> {
        let device = &gpu.device;
        let mut next = 0u32;
        let mut firsts = Vec::new();
        for draw in &buffers.draws {
            let skinned_on_gpu = draw.gpu_skinnable && draw.vertex_count > 0;
            firsts.push(skinned_on_gpu.then_some(next));
            if skinned_on_gpu {
                // Each draw starts on a new row.
                next += (draw.vertex_count as u32).div_ceil(WIDTH) * WIDTH;
            }
        }
        let height = (next / WIDTH).max(1);
        let max_side = device.limits().max_texture_dimension_2d;
        if height > max_side {
            bail!(
                "{} skinned vertices are more than the difference view can read back ({} on this device)",
                next,
                WIDTH * max_side
            );
        }
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("skin capture"),
            size: wgpu::Extent3d {
                width: WIDTH,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skin capture readback"),
            size: u64::from(WIDTH * 16 * height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let groups = firsts
            .into_iter()
            .map(|first| {
                first.map(|first| {
                    let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("capture"),
                        contents: bytemuck::bytes_of(&CaptureUniform {
                            params: [WIDTH, height, first, 0],
                        }),
                        usage: wgpu::BufferUsages::UNIFORM,
                    });
                    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("capture"),
                        layout: &layouts.capture,
                        entries: &[wgpu::BindGroupEntry {
                            binding: 0,
                            resource: uniform.as_entire_binding(),
                        }],
                    });
                    (group, first)
                })
            })
            .collect();
        Ok(Self {
            view: texture.create_view(&Default::default()),
            texture,
            readback,
            height,
            groups,
        })
    }
}
