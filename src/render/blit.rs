//! The scene's displayed image (sRGB-encoded) copied into the window beside the panel: scaled
//! to the viewport with bilinear filtering when the 3D view renders at a lower resolution,
//! and decoded when the window's format is an sRGB one (whose hardware encodes again).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::fullscreen;
use super::layouts::Layouts;

/// How colours change on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// As sampled.
    Copy = 0,
    /// sRGB-encoded in (from a non-sRGB texture), linear out (into an sRGB target).
    DecodeSrgb = 1,
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
        let body = [fullscreen::SRGB, include_str!("../../shaders/blit.wgsl")].concat();
        let shader = fullscreen::shader(device, "blit", &body);
        let pipeline = fullscreen::pipeline(device, &shader, "fs_main", &layouts.blit, target);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("blit"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
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
        fullscreen::draw(encoder, &self.pipeline, source, target, viewport);
    }
}
