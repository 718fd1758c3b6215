//! The last pass of a frame: the scene's linear HDR image, scaled by the exposure and mapped
//! by the tone curve (shaders/tone_map.wgsl), into the target's displayed image. The window,
//! `render`, `thumbnail` and `sheet` all show that image.

use bytemuck::{Pod, Zeroable};

use super::fullscreen;
use super::layouts::Layouts;
use super::pipelines::DISPLAY_FORMAT;
use crate::view::{Lighting, ToneMapping};

/// `ToneMap` in tone_map.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
struct ToneMapUniform {
    /// x: 2^exposure.
    exposure: [f32; 4],
    /// x: `CURVE_*`.
    curve: [u32; 4],
}

/// `CURVE_*` in tone_map.wgsl.
fn curve(tone_mapping: ToneMapping) -> u32 {
    match tone_mapping {
        ToneMapping::None => 0,
        ToneMapping::PbrNeutral => 1,
        ToneMapping::AcesFilmic => 2,
    }
}

pub struct ToneMap {
    pipeline: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
}

impl ToneMap {
    pub fn new(device: &wgpu::Device, layouts: &Layouts) -> Self {
        let body = [fullscreen::SRGB, include_str!("../../shaders/tone_map.wgsl")].concat();
        let shader = fullscreen::shader(device, "tone map", &body);
        let pipeline = fullscreen::pipeline(device, &shader, "fs_main", &layouts.tone_map, DISPLAY_FORMAT);
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tone map"),
            size: std::mem::size_of::<ToneMapUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self { pipeline, uniform }
    }

    /// The bind group that reads `hdr` (a target's resolved scene).
    pub fn bind_group(&self, device: &wgpu::Device, layouts: &Layouts, hdr: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tone map"),
            layout: &layouts.tone_map,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(hdr),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.uniform.as_entire_binding(),
                },
            ],
        })
    }

    /// Writes this frame's exposure and curve.
    pub fn prepare(&self, queue: &wgpu::Queue, lighting: &Lighting) {
        let uniform = ToneMapUniform {
            exposure: [lighting.exposure_scale(), 0.0, 0.0, 0.0],
            curve: [curve(lighting.tone_mapping), 0, 0, 0],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
    }

    /// Records the pass from `group`'s HDR image into `display`.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, group: &wgpu::BindGroup, display: &wgpu::TextureView) {
        fullscreen::draw(encoder, &self.pipeline, group, display, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_match_the_shader() {
        let shader = include_str!("../../shaders/tone_map.wgsl");
        for (name, tone_mapping) in [
            ("CURVE_NONE", ToneMapping::None),
            ("CURVE_PBR_NEUTRAL", ToneMapping::PbrNeutral),
            ("CURVE_ACES", ToneMapping::AcesFilmic),
        ] {
            let declaration = format!("const {name}: u32 = {}u;", curve(tone_mapping));
            assert!(shader.contains(&declaration), "tone_map.wgsl lacks `{declaration}`");
        }
    }
}
