//! Paints egui's meshes with wgpu: its textures (the font atlas, images), one vertex and one
//! index buffer that grow as needed, and a pipeline whose shader has no branches
//! (shaders/egui.wgsl says why: on a software rasteriser egui's own renderer cost more than
//! the 3D view).

use std::collections::HashMap;

use egui::epaint::{Primitive, Vertex};
use egui::{ClippedPrimitive, TextureId, TexturesDelta};

use crate::render::Gpu;

/// Bytes of one vertex: position and texture coordinates (2 × 2 f32), colour (4 × u8).
const VERTEX_BYTES: u64 = std::mem::size_of::<Vertex>() as u64;

pub struct EguiPainter {
    pipeline: wgpu::RenderPipeline,
    screen: wgpu::Buffer,
    screen_group: wgpu::BindGroup,
    image_layout: wgpu::BindGroupLayout,
    textures: HashMap<TextureId, Image>,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    /// Where each mesh of the frame lies in `vertices` and `indices` (byte offsets), reused.
    ranges: Vec<(u64, u64)>,
    /// The frame's vertices and indices gathered for one write each, reused.
    vertex_bytes: Vec<u8>,
    index_bytes: Vec<u8>,
}

struct Image {
    texture: wgpu::Texture,
    group: wgpu::BindGroup,
}

impl EguiPainter {
    /// A painter drawing into targets of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let screen = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("egui screen"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui screen"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let screen_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("egui screen"),
            layout: &screen_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: screen.as_entire_binding(),
            }],
        });
        let image_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui image"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let pipeline = pipeline(device, format, &[&screen_layout, &image_layout]);
        Self {
            pipeline,
            screen,
            screen_group,
            image_layout,
            textures: HashMap::new(),
            vertices: geometry_buffer(device, "egui vertices", wgpu::BufferUsages::VERTEX, 1 << 16),
            indices: geometry_buffer(device, "egui indices", wgpu::BufferUsages::INDEX, 1 << 16),
            ranges: Vec::new(),
            vertex_bytes: Vec::new(),
            index_bytes: Vec::new(),
        }
    }

    /// Creates and updates the textures `delta` sets (those it frees go in `free_textures`,
    /// after the frame that last used them).
    pub fn set_textures(&mut self, gpu: &Gpu, delta: &TexturesDelta) {
        for (id, image_delta) in delta
            .set
            .iter()
            .flat_map(|(id, deltas)| deltas.iter().map(move |d| (id, d)))
        {
            let egui::ImageData::Color(image) = &image_delta.image;
            let [width, height] = image.size.map(|side| side as u32);
            let size = wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            };
            let origin = match image_delta.pos {
                Some([x, y]) => wgpu::Origin3d {
                    x: x as u32,
                    y: y as u32,
                    z: 0,
                },
                None => {
                    let image = self.image(&gpu.device, size, image_delta.options);
                    self.textures.insert(*id, image);
                    wgpu::Origin3d::ZERO
                }
            };
            let Some(Image { texture, .. }) = self.textures.get(id) else {
                continue;
            };
            gpu.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: 0,
                    origin,
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(&image.pixels),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * width),
                    rows_per_image: Some(height),
                },
                size,
            );
        }
    }

    pub fn free_textures(&mut self, ids: &[TextureId]) {
        for id in ids {
            self.textures.remove(id);
        }
    }

    /// Draws `jobs` over `target` (`size` pixels, `pixels_per_point`) in `encoder`.
    pub fn paint(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        jobs: &[ClippedPrimitive],
        (width, height): (u32, u32),
        pixels_per_point: f32,
    ) {
        let points = [
            width as f32 / pixels_per_point,
            height as f32 / pixels_per_point,
            0.0,
            0.0,
        ];
        gpu.queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&points));
        self.upload_meshes(gpu, jobs);
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.screen_group, &[]);
        let meshes = jobs.iter().filter_map(|job| match &job.primitive {
            Primitive::Mesh(mesh) => Some((job.clip_rect, mesh)),
            Primitive::Callback(_) => None,
        });
        for ((clip, mesh), &(vertex_at, index_at)) in meshes.zip(&self.ranges) {
            let Some([x, y, w, h]) = scissor(clip, pixels_per_point, (width, height)) else {
                continue;
            };
            let Some(image) = self.textures.get(&mesh.texture_id) else {
                continue;
            };
            pass.set_scissor_rect(x, y, w, h);
            pass.set_bind_group(1, &image.group, &[]);
            let vertex_end = vertex_at + mesh.vertices.len() as u64 * VERTEX_BYTES;
            pass.set_vertex_buffer(0, self.vertices.slice(vertex_at..vertex_end));
            let index_end = index_at + mesh.indices.len() as u64 * 4;
            pass.set_index_buffer(self.indices.slice(index_at..index_end), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..mesh.indices.len() as u32, 0, 0..1);
        }
    }

    /// Writes every mesh's vertices and indices one after another, growing the buffers first
    /// when they are too small.
    fn upload_meshes(&mut self, gpu: &Gpu, jobs: &[ClippedPrimitive]) {
        let meshes = || {
            jobs.iter().filter_map(|job| match &job.primitive {
                Primitive::Mesh(mesh) => Some(mesh),
                Primitive::Callback(_) => None,
            })
        };
        let vertex_bytes: u64 = meshes().map(|mesh| mesh.vertices.len() as u64 * VERTEX_BYTES).sum();
        let index_bytes: u64 = meshes().map(|mesh| mesh.indices.len() as u64 * 4).sum();
        let device = &gpu.device;
        if vertex_bytes > self.vertices.size() {
            let size = vertex_bytes.next_power_of_two();
            self.vertices = geometry_buffer(device, "egui vertices", wgpu::BufferUsages::VERTEX, size);
        }
        if index_bytes > self.indices.size() {
            let size = index_bytes.next_power_of_two();
            self.indices = geometry_buffer(device, "egui indices", wgpu::BufferUsages::INDEX, size);
        }
        // Gathered first, then written in one go each: every `write_buffer` stages a copy.
        self.ranges.clear();
        self.vertex_bytes.clear();
        self.index_bytes.clear();
        for mesh in meshes() {
            self.ranges
                .push((self.vertex_bytes.len() as u64, self.index_bytes.len() as u64));
            self.vertex_bytes
                .extend_from_slice(bytemuck::cast_slice(&mesh.vertices));
            self.index_bytes.extend_from_slice(bytemuck::cast_slice(&mesh.indices));
        }
        gpu.queue.write_buffer(&self.vertices, 0, &self.vertex_bytes);
        gpu.queue.write_buffer(&self.indices, 0, &self.index_bytes);
    }

    fn image(&self, device: &wgpu::Device, size: wgpu::Extent3d, options: egui::TextureOptions) -> Image {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("egui image"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            // egui's colours are sRGB-encoded and blended that way.
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let filter = |filter: egui::TextureFilter| match filter {
            egui::TextureFilter::Nearest => wgpu::FilterMode::Nearest,
            egui::TextureFilter::Linear => wgpu::FilterMode::Linear,
        };
        let address = match options.wrap_mode {
            egui::TextureWrapMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
            egui::TextureWrapMode::Repeat => wgpu::AddressMode::Repeat,
            egui::TextureWrapMode::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("egui image"),
            address_mode_u: address,
            address_mode_v: address,
            mag_filter: filter(options.magnification),
            min_filter: filter(options.minification),
            ..Default::default()
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("egui image"),
            layout: &self.image_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        Image { texture, group }
    }
}

fn pipeline(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    layouts: &[&wgpu::BindGroupLayout],
) -> wgpu::RenderPipeline {
    let source = [
        include_str!("../../shaders/srgb.wgsl"),
        include_str!("../../shaders/egui.wgsl"),
    ]
    .concat();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("egui"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("egui"),
        bind_group_layouts: &layouts.iter().map(|layout| Some(*layout)).collect::<Vec<_>>(),
        immediate_size: 0,
    });
    // Premultiplied alpha, as egui blends.
    let blend = wgpu::BlendState {
        color: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
        alpha: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("egui"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: VERTEX_BYTES,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Unorm8x4],
            })],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(if format.is_srgb() { "fs_linear" } else { "fs_encoded" }),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(blend),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

fn geometry_buffer(device: &wgpu::Device, label: &str, usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: usage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// `clip` (points) in pixels of a `width` x `height` target, as x, y, width, height; `None`
/// when nothing of it is inside.
fn scissor(clip: egui::Rect, pixels_per_point: f32, (width, height): (u32, u32)) -> Option<[u32; 4]> {
    let to_pixels = |value: f32, limit: u32| ((value * pixels_per_point).round().max(0.0) as u32).min(limit);
    let (left, top) = (to_pixels(clip.min.x, width), to_pixels(clip.min.y, height));
    let (right, bottom) = (to_pixels(clip.max.x, width), to_pixels(clip.max.y, height));
    (right > left && bottom > top).then(|| [left, top, right - left, bottom - top])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scissors_are_clamped_to_the_target_and_empty_ones_skipped() {
        let rect = |x0, y0, x1, y1| egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1));
        assert_eq!(
            scissor(rect(10.0, 5.0, 50.0, 25.0), 2.0, (1000, 1000)),
            Some([20, 10, 80, 40])
        );
        assert_eq!(
            scissor(rect(-10.0, -5.0, 500.0, 25.0), 1.0, (100, 100)),
            Some([0, 0, 100, 25])
        );
        assert_eq!(scissor(rect(200.0, 0.0, 300.0, 10.0), 1.0, (100, 100)), None);
        assert_eq!(scissor(rect(10.0, 10.0, 10.0, 20.0), 1.0, (100, 100)), None);
    }
}
