//! The scene's linear HDR image, scaled by the exposure and mapped by the tone curve
//! (shaders/tone_map.wgsl), into the target's displayed image, for the frames whose scene is
//! drawn in linear HDR (those with surfaces that refract the scene behind them: scene.rs,
//! `scene_output`; other frames' shaders map each sample themselves): the last pass of such a
//! frame, or the one before the blended surfaces and overlays, which are drawn over the
//! displayed image (mixed as three.js mixes them: see scene.rs). Each curve is a pipeline of
//! its own (an entry point), not a branch: a software rasteriser runs both sides of a branch.

use std::sync::Arc;

use super::fullscreen::{self, TONE_CURVE};
use super::layouts::Layouts;
use super::pipelines::{DISPLAY_FORMAT, Lazy, LazyModule};
use crate::view::{Lighting, ToneMapping};

/// The curves, in the order of `ToneMap::pipelines` (their `curve_number`), with their entry
/// points in tone_map.wgsl and their numbers' names in tone_curve.wgsl.
const CURVES: [(ToneMapping, &str, &str); 3] = [
    (ToneMapping::None, "fs_no_curve", "CURVE_NONE"),
    (ToneMapping::PbrNeutral, "fs_pbr_neutral", "CURVE_PBR_NEUTRAL"),
    (ToneMapping::AcesFilmic, "fs_aces_filmic", "CURVE_ACES_FILMIC"),
];

/// Its shader and pipelines are made when a frame first draws with them (a picture uses one
/// curve).
pub struct ToneMap {
    shader: LazyModule,
    /// Into a single-sample displayed image.
    pipelines: [Lazy<wgpu::RenderPipeline>; 3],
    /// Into a multisampled one (every sample the pixel's colour), for the blended surfaces
    /// and overlays drawn over it; none when the scene has one sample.
    multisampled: Option<[Lazy<wgpu::RenderPipeline>; 3]>,
    /// `ToneMap` in tone_map.wgsl: x is 2^exposure.
    exposure: wgpu::Buffer,
}

impl ToneMap {
    /// The pass for scenes of `samples` samples per pixel.
    pub fn new(device: &wgpu::Device, layouts: &Layouts, samples: u32) -> Self {
        let body = [
            fullscreen::SRGB,
            TONE_CURVE,
            include_str!("../../shaders/tone_map.wgsl"),
        ]
        .concat();
        let shader: LazyModule = {
            let device = device.clone();
            Arc::new(Lazy::new(move || fullscreen::shader(&device, "tone map", &body)))
        };
        let pipelines = CURVES.map(|(_, entry, _)| lazy_pipeline(device, &shader, entry, layouts, 1));
        let multisampled = multisampled_pipelines(device, &shader, layouts, samples);
        let exposure = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tone map"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self {
            shader,
            pipelines,
            multisampled,
            exposure,
        }
    }

    /// Draws into multisampled images of `samples` samples from now on (the scene's count).
    pub fn set_samples(&mut self, device: &wgpu::Device, layouts: &Layouts, samples: u32) {
        self.multisampled = multisampled_pipelines(device, &self.shader, layouts, samples);
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

    /// How many of its pipelines have been made.
    #[cfg(any(test, feature = "internals"))]
    pub fn made(&self) -> usize {
        let multisampled = self.multisampled.iter().flatten();
        (self.pipelines.iter().chain(multisampled))
            .filter(|pipeline| pipeline.is_made())
            .count()
    }

    /// Writes this frame's exposure.
    pub fn prepare(&self, queue: &wgpu::Queue, lighting: &Lighting) {
        let exposure = [lighting.exposure_scale(), 0.0, 0.0, 0.0];
        queue.write_buffer(&self.exposure, 0, bytemuck::cast_slice(&exposure));
    }

    /// Records the pass from `group`'s HDR image into `display` with `curve`; `display` is
    /// multisampled when `multisampled` (then it has the scene's samples).
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        group: &wgpu::BindGroup,
        (display, multisampled): (&wgpu::TextureView, bool),
        curve: ToneMapping,
    ) {
        let pipelines = match (multisampled, &self.multisampled) {
            (true, Some(pipelines)) => pipelines,
            _ => &self.pipelines,
        };
        fullscreen::draw(encoder, &pipelines[curve_number(curve) as usize], group, display, None);
    }
}

/// The tone map pipelines into a `DISPLAY_FORMAT` image of `samples` samples; none for one.
fn multisampled_pipelines(
    device: &wgpu::Device,
    shader: &LazyModule,
    layouts: &Layouts,
    samples: u32,
) -> Option<[Lazy<wgpu::RenderPipeline>; 3]> {
    (samples > 1).then(|| CURVES.map(|(_, entry, _)| lazy_pipeline(device, shader, entry, layouts, samples)))
}

/// The pipeline of `shader`'s `entry` into a `DISPLAY_FORMAT` image of `samples` samples, made
/// when first drawn with.
fn lazy_pipeline(
    device: &wgpu::Device,
    shader: &LazyModule,
    entry: &'static str,
    layouts: &Layouts,
    samples: u32,
) -> Lazy<wgpu::RenderPipeline> {
    let (device, shader, layout) = (device.clone(), shader.clone(), layouts.tone_map.clone());
    Lazy::new(move || fullscreen::multisampled_pipeline(&device, &shader, entry, &layout, (DISPLAY_FORMAT, samples)))
}

/// `curve`'s number: where its pipeline is in `CURVES`, and its `CURVE_*` in tone_curve.wgsl,
/// which the scene shaders read from the frame's uniform (a match, so a new curve cannot be
/// left out).
pub fn curve_number(curve: ToneMapping) -> u32 {
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
        for (index, (curve, entry, number)) in CURVES.into_iter().enumerate() {
            assert!(
                shader.contains(&format!("fn {entry}(")),
                "tone_map.wgsl lacks `{entry}`"
            );
            assert_eq!(curve_number(curve) as usize, index, "{curve:?}");
            assert!(
                TONE_CURVE.contains(&format!("const {number}: u32 = {index}u;")),
                "tone_curve.wgsl's `{number}` is not {index}"
            );
        }
    }
}
