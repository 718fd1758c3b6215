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
    use crate::app::surface::offscreen_image;

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

    /// The painter's pixels against a reference frame drawn on the CPU from the same egui
    /// meshes by the contract egui states (vertex colour times texture, both sRGB-encoded and
    /// premultiplied, blended `src + dst·(1 − αsrc)` in that encoding, clipped to each mesh's
    /// rectangle): text, buttons, a slider, a translucent rectangle over an opaque one.
    #[test]
    fn the_panel_is_painted_as_egui_s_meshes_say() {
        let gpu = crate::render::Gpu::headless().expect("a graphics adapter");
        let (width, height, pixels_per_point) = (320u32, 200u32, 1.25);
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(width as f32, height as f32) / pixels_per_point,
            )),
            ..Default::default()
        };
        ctx.set_pixels_per_point(pixels_per_point);
        let output = ctx.run_ui(input, |ui| {
            ui.label("rigscope: Fox.glb, 1728 vertices");
            let _ = ui.button("Open… (Ctrl+O)");
            ui.add(egui::Slider::new(&mut 0.25f32, 0.0..=5.0).text("cross-fade (s)"));
            let painter = ui.painter();
            let opaque = egui::Rect::from_min_size(egui::pos2(150.0, 100.0), egui::vec2(60.0, 40.0));
            painter.rect_filled(opaque, 0.0, egui::Color32::from_rgb(200, 60, 30));
            let over = opaque.translate(egui::vec2(30.0, 20.0));
            painter.rect_filled(over, 0.0, egui::Color32::from_rgba_unmultiplied(40, 90, 220, 128));
        });
        let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
        let background = [30u8, 32, 36, 255];

        let mut painter = EguiPainter::new(&gpu.device, wgpu::TextureFormat::Rgba8Unorm);
        painter.set_textures(&gpu, &output.textures_delta);
        let target = offscreen_image(&gpu.device, wgpu::TextureFormat::Rgba8Unorm, width, height);
        let view = target.create_view(&Default::default());
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let clear = background.map(|c| c as f64 / 255.0);
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: clear[0],
                        g: clear[1],
                        b: clear[2],
                        a: clear[3],
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        painter.paint(&gpu, &mut encoder, &view, &jobs, (width, height), pixels_per_point);
        gpu.queue.submit([encoder.finish()]);
        let painted = crate::render::capture::read_rgba(&gpu, &target).unwrap();

        let mut textures = output.textures_delta;
        let reference = reference_frame(&jobs, &textures, (width, height), pixels_per_point, background);
        textures.clear();
        let (mut differing, mut total) = (0usize, 0u64);
        let mut drawn = 0usize;
        for (a, b) in painted.pixels().zip(reference.pixels()) {
            let most = (0..3).map(|c| a[c].abs_diff(b[c])).max().unwrap();
            total += u64::from(most);
            differing += usize::from(most > 4);
            drawn += usize::from((0..3).any(|c| b[c].abs_diff(background[c]) > 24));
        }
        let pixels = (width * height) as usize;
        assert!(drawn > pixels / 20, "the frame shows the panel ({drawn} pixels drawn)");
        // Colours within rounding; a centre on a triangle's edge may go to either side.
        assert!(differing * 200 < drawn, "{differing} of {drawn} drawn pixels differ");
        let mean = total as f64 / pixels as f64;
        assert!(mean < 0.1, "mean difference {mean} levels");
        // The translucent rectangle: egui's premultiplied blend in sRGB encoding, exactly.
        let inside = painted.get_pixel((195.0 * pixels_per_point) as u32, (130.0 * pixels_per_point) as u32);
        let alpha = 128.0 / 255.0;
        let expected = [40.0, 90.0, 220.0].map(|c: f32| (c * alpha).round() / 255.0);
        for (channel, (source, under)) in expected.iter().zip([200.0, 60.0, 30.0]).enumerate() {
            let want = ((source + under / 255.0 * (1.0 - alpha)) * 255.0).round();
            assert!(
                (f32::from(inside[channel]) - want).abs() <= 2.0,
                "channel {channel}: {inside:?}"
            );
        }
    }

    /// egui's meshes drawn on the CPU: each triangle's pixels (centres inside, each centre by
    /// one triangle), colours interpolated, the texture sampled bilinearly.
    fn reference_frame(
        jobs: &[ClippedPrimitive],
        textures: &TexturesDelta,
        (width, height): (u32, u32),
        pixels_per_point: f32,
        background: [u8; 4],
    ) -> image::RgbaImage {
        let mut images: HashMap<TextureId, egui::ColorImage> = HashMap::new();
        for (id, deltas) in &textures.set {
            for delta in deltas {
                let egui::ImageData::Color(patch) = &delta.image;
                match delta.pos {
                    None => {
                        images.insert(*id, (**patch).clone());
                    }
                    Some([x, y]) => {
                        let image = images.get_mut(id).expect("a patch of a texture set before");
                        for row in 0..patch.size[1] {
                            for column in 0..patch.size[0] {
                                let to = (y + row) * image.size[0] + x + column;
                                image.pixels[to] = patch.pixels[row * patch.size[0] + column];
                            }
                        }
                    }
                }
            }
        }
        let mut frame = vec![background.map(|c| c as f32 / 255.0); (width * height) as usize];
        for job in jobs {
            let Primitive::Mesh(mesh) = &job.primitive else {
                continue;
            };
            let Some([cx, cy, cw, ch]) = scissor(job.clip_rect, pixels_per_point, (width, height)) else {
                continue;
            };
            let image = &images[&mesh.texture_id];
            for triangle in mesh.indices.chunks_exact(3) {
                let v = [0, 1, 2].map(|k| &mesh.vertices[triangle[k] as usize]);
                let p = v.map(|v| (v.pos.x * pixels_per_point, v.pos.y * pixels_per_point));
                let area = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1);
                if area.abs() < 1e-9 {
                    continue;
                }
                let (x0, x1) = (
                    p.iter().map(|p| p.0).fold(f32::MAX, f32::min),
                    p.iter().map(|p| p.0).fold(f32::MIN, f32::max),
                );
                let (y0, y1) = (
                    p.iter().map(|p| p.1).fold(f32::MAX, f32::min),
                    p.iter().map(|p| p.1).fold(f32::MIN, f32::max),
                );
                let xs = (x0.floor().max(cx as f32) as u32)..(x1.ceil().min((cx + cw) as f32) as u32);
                for y in (y0.floor().max(cy as f32) as u32)..(y1.ceil().min((cy + ch) as f32) as u32) {
                    for x in xs.clone() {
                        // Just off the centre, so that a centre on an edge two triangles share
                        // is drawn by one of them, not both (the GPU's top-left rule).
                        let (px, py) = (x as f32 + 0.5 + 1e-4, y as f32 + 0.5 + 2e-4);
                        let edge = |a: (f32, f32), b: (f32, f32)| (b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0);
                        let w = [edge(p[1], p[2]), edge(p[2], p[0]), edge(p[0], p[1])].map(|e| e / area);
                        if w.iter().any(|&w| w < 0.0) {
                            continue;
                        }
                        let colour = |k: usize| {
                            (0..3)
                                .map(|i| w[i] * v[i].color.to_array()[k] as f32 / 255.0)
                                .sum::<f32>()
                        };
                        let u = (0..3).map(|i| w[i] * v[i].uv.x).sum::<f32>();
                        let t = (0..3).map(|i| w[i] * v[i].uv.y).sum::<f32>();
                        let texel = bilinear(image, u, t);
                        let source: [f32; 4] = std::array::from_fn(|k| colour(k) * texel[k]);
                        let pixel = &mut frame[(y * width + x) as usize];
                        for k in 0..4 {
                            pixel[k] = source[k] + pixel[k] * (1.0 - source[3]);
                        }
                    }
                }
            }
        }
        image::RgbaImage::from_fn(width, height, |x, y| {
            image::Rgba(frame[(y * width + x) as usize].map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8))
        })
    }

    /// `image` at texture coordinates `(u, v)`, bilinear with clamped edges, in 0..1.
    fn bilinear(image: &egui::ColorImage, u: f32, v: f32) -> [f32; 4] {
        let [w, h] = image.size;
        let (x, y) = (u * w as f32 - 0.5, v * h as f32 - 0.5);
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let at = |x: f32, y: f32| {
            let (x, y) = ((x.max(0.0) as usize).min(w - 1), (y.max(0.0) as usize).min(h - 1));
            image.pixels[y * w + x].to_array().map(|c| c as f32 / 255.0)
        };
        let (a, b, c, d) = (at(x0, y0), at(x0 + 1.0, y0), at(x0, y0 + 1.0), at(x0 + 1.0, y0 + 1.0));
        std::array::from_fn(|k| (a[k] * (1.0 - fx) + b[k] * fx) * (1.0 - fy) + (c[k] * (1.0 - fx) + d[k] * fx) * fy)
    }

    /// Times this painter against egui-wgpu's renderer on the viewer's panel (Fox open, every
    /// section open) at 1280 x 800: the milliseconds a frame of painting takes from recording
    /// to the GPU's end, median of 60. A measurement, not a check: run it with
    /// `cargo test --lib painters_cost -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn painters_cost() {
        let gpu = crate::render::Gpu::headless().expect("a graphics adapter");
        let (width, height) = (1280u32, 800u32);
        let format = wgpu::TextureFormat::Rgba8Unorm;
        let ctx = egui::Context::default();
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(width as f32, height as f32),
            )),
            ..Default::default()
        };
        let model = crate::asset::sample_gltf("Fox/glTF-Binary/Fox.glb");
        let mut state = crate::ui::ViewerState::new(model);
        let status = crate::ui::RenderStatus::default();
        let mut textures = TexturesDelta::default();
        let mut jobs = Vec::new();
        for _ in 0..3 {
            let output = ctx.run_ui(input(), |ui| {
                crate::ui::panel::show(ui, &mut state, &status);
            });
            textures.append(output.textures_delta);
            jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
        }
        let target = offscreen_image(&gpu.device, format, width, height);
        let view = target.create_view(&Default::default());
        let time = |paint: &mut dyn FnMut(&mut wgpu::CommandEncoder)| {
            let mut frames: Vec<f64> = (0..60)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let mut encoder = gpu.device.create_command_encoder(&Default::default());
                    paint(&mut encoder);
                    gpu.queue.submit([encoder.finish()]);
                    let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
                    start.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            frames.sort_by(f64::total_cmp);
            frames[frames.len() / 2]
        };

        let mut ours = EguiPainter::new(&gpu.device, format);
        ours.set_textures(&gpu, &textures);
        let ours_ms = time(&mut |encoder| ours.paint(&gpu, encoder, &view, &jobs, (width, height), 1.0));

        let mut theirs = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        for (id, deltas) in &textures.set {
            for delta in deltas {
                theirs.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [width, height],
            pixels_per_point: 1.0,
        };
        let theirs_ms = time(&mut |encoder| {
            theirs.update_buffers(&gpu.device, &gpu.queue, encoder, &jobs, &screen);
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            theirs.render(&mut pass, &jobs, &screen);
        });
        textures.clear();
        println!(
            "{{\"adapter\":\"{}\",\"triangles\":{},\"rigscope_painter_ms\":{ours_ms:.3},\"egui_wgpu_ms\":{theirs_ms:.3}}}",
            gpu.describe(),
            jobs.iter()
                .map(|job| match &job.primitive {
                    Primitive::Mesh(mesh) => mesh.indices.len() / 3,
                    Primitive::Callback(_) => 0,
                })
                .sum::<usize>()
        );
    }
}
