//! Full-screen copies between textures with a colour-encoding conversion: the scene (sRGB
//! texture, sampled as linear) into the window image (gamma-encoded, which egui expects), and
//! the window image onto the surface.

use std::borrow::Cow;

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::layouts::Layouts;

/// How colours change on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// As sampled.
    Copy = 0,
    /// Linear in, sRGB-encoded out (into a non-sRGB target).
    EncodeSrgb = 1,
    /// sRGB-encoded in (from a non-sRGB texture), linear out (into an sRGB target).
    DecodeSrgb = 2,
}

/// `Output` in blit.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct BlitUniform {
    flags: [u32; 4],
}

pub struct Blit {
    pipeline: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
}

impl Blit {
    pub fn new(device: &wgpu::Device, layouts: &Layouts, target: wgpu::TextureFormat) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("blit"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(include_str!("../../shaders/blit.wgsl"))),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("blit"),
            bind_group_layouts: &[Some(&layouts.blit)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("blit"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: target,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("blit"),
            ..Default::default()
        });
        Self { pipeline, sampler }
    }

    /// A bind group reading `source` with `encoding` (made when the source is (re)created).
    pub fn source(
        &self,
        device: &wgpu::Device,
        layouts: &Layouts,
        source: &wgpu::TextureView,
        encoding: Encoding,
    ) -> wgpu::BindGroup {
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("blit"),
            contents: bytemuck::bytes_of(&BlitUniform {
                flags: [encoding as u32, 0, 0, 0],
            }),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("blit source"),
            layout: &layouts.blit,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(source),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: uniform.as_entire_binding(),
                },
            ],
        })
    }

    /// Clears `target` and draws `source` over `viewport` (x, y, width, height in pixels), or
    /// over all of it.
    pub fn draw(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        source: &wgpu::BindGroup,
        target: &wgpu::TextureView,
        viewport: Option<[u32; 4]>,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("blit"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        if let Some([x, y, width, height]) = viewport {
            pass.set_viewport(x as f32, y as f32, width as f32, height as f32, 0.0, 1.0);
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, source, &[]);
        pass.draw(0..3, 0..1);
    }
}
