//! The scene's displayed image (sRGB-encoded) copied into the window beside the panel: scaled
//! to the viewport with bilinear filtering when the 3D view renders at a lower resolution,
//! and decoded when the window's format is an sRGB one (whose hardware encodes again). The two
//! are two entry points, not a branch: a software rasteriser runs both sides of a branch.

use super::fullscreen;
use super::layouts::Layouts;

pub struct Blit {
    pipeline: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
}

impl Blit {
    pub fn new(device: &wgpu::Device, layouts: &Layouts, target: wgpu::TextureFormat) -> Self {
        let body = [fullscreen::SRGB, include_str!("../../shaders/blit.wgsl")].concat();
        let shader = fullscreen::shader(device, "blit", &body);
        let fragment = if target.is_srgb() { "fs_decode" } else { "fs_copy" };
        let pipeline = fullscreen::pipeline(device, &shader, fragment, &layouts.blit, target);
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("blit"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Self { pipeline, sampler }
    }

    /// A bind group reading `source` (made when the source is (re)created).
    pub fn source(&self, device: &wgpu::Device, layouts: &Layouts, source: &wgpu::TextureView) -> wgpu::BindGroup {
        fullscreen::source_group(device, layouts, "blit source", source, &self.sampler)
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
