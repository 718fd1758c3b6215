//! The last pass of a frame: the scene's linear HDR image, scaled by the exposure and mapped
//! by the tone curve (shaders/tone_map.wgsl), into the target's displayed image. The window,
//! `render`, `thumbnail` and `sheet` all show that image. Each curve is a pipeline of its own
//! (an entry point), not a branch: a software rasteriser runs both sides of a branch.

use super::fullscreen;
use super::layouts::Layouts;
use super::pipelines::DISPLAY_FORMAT;
use crate::view::{Lighting, ToneMapping};

/// The curves, in the order of `ToneMap::pipelines`, with their entry points in tone_map.wgsl.
const CURVES: [(ToneMapping, &str); 3] = [
    (ToneMapping::None, "fs_no_curve"),
    (ToneMapping::PbrNeutral, "fs_pbr_neutral"),
    (ToneMapping::AcesFilmic, "fs_aces_filmic"),
];

pub struct ToneMap {
    pipelines: [wgpu::RenderPipeline; 3],
    /// `ToneMap` in tone_map.wgsl: x is 2^exposure.
    exposure: wgpu::Buffer,
}

impl ToneMap {
    pub fn new(device: &wgpu::Device, layouts: &Layouts) -> Self {
        let body = [fullscreen::SRGB, include_str!("../../shaders/tone_map.wgsl")].concat();
        let shader = fullscreen::shader(device, "tone map", &body);
        let pipelines =
            CURVES.map(|(_, entry)| fullscreen::pipeline(device, &shader, entry, &layouts.tone_map, DISPLAY_FORMAT));
        let exposure = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tone map"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self { pipelines, exposure }
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
                    resource: self.exposure.as_entire_binding(),
                },
            ],
        })
    }

    /// Writes this frame's exposure.
    pub fn prepare(&self, queue: &wgpu::Queue, lighting: &Lighting) {
        let exposure = [lighting.exposure_scale(), 0.0, 0.0, 0.0];
        queue.write_buffer(&self.exposure, 0, bytemuck::cast_slice(&exposure));
    }

    /// Records the pass from `group`'s HDR image into `display` with `curve`.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        group: &wgpu::BindGroup,
        display: &wgpu::TextureView,
        curve: ToneMapping,
    ) {
        fullscreen::draw(encoder, &self.pipelines[pipeline_index(curve)], group, display, None);
    }
}

/// Where `curve`'s pipeline is in `CURVES` (a match, so a new curve cannot be left out).
fn pipeline_index(curve: ToneMapping) -> usize {
    match curve {
        ToneMapping::None => 0,
        ToneMapping::PbrNeutral => 1,
        ToneMapping::AcesFilmic => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_curve_has_its_entry_point() {
        let shader = include_str!("../../shaders/tone_map.wgsl");
        for (index, (curve, entry)) in CURVES.into_iter().enumerate() {
            assert!(
                shader.contains(&format!("fn {entry}(")),
                "tone_map.wgsl lacks `{entry}`"
            );
            assert_eq!(pipeline_index(curve), index, "{curve:?}");
        }
    }
}
