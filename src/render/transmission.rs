//! The opaque scene behind transmissive surfaces (KHR_materials_transmission), as three.js and
//! the glTF Sample Viewer refract it: after the opaque draws, the scene's HDR image is drawn at
//! half size into a texture with a full mip chain, each level the average of the one above;
//! the transmissive draws then sample it where the refracted ray leaves the volume, from a
//! blurrier level the rougher the surface (shaders/transmission.wgsl).

use super::fullscreen;
use super::layouts::Layouts;
use super::pipelines::{Lazy, SCENE_FORMAT};

/// Draws each level of a `SceneBehind` from the one above it (bilinear filtering at half
/// size averages 2 × 2 texels). One per renderer; its pipeline is made when a scene with
/// transmissive surfaces first needs it.
pub struct Downsampler {
    pipeline: Lazy<wgpu::RenderPipeline>,
    sampler: wgpu::Sampler,
}

impl Downsampler {
    pub fn new(device: &wgpu::Device, layouts: &Layouts) -> Self {
        let pipeline = {
            let (device, layout) = (device.clone(), layouts.blit.clone());
            Lazy::new(move || {
                let body = [fullscreen::SRGB, include_str!("../../shaders/blit.wgsl")].concat();
                let shader = fullscreen::shader(&device, "scene behind", &body);
                fullscreen::pipeline(&device, &shader, "fs_copy", &layout, SCENE_FORMAT)
            })
        };
        Self {
            pipeline,
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("scene behind"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Linear,
                ..Default::default()
            }),
        }
    }

    /// 1 once its pipeline has been made, else 0.
    #[cfg(any(test, feature = "internals"))]
    pub fn made(&self) -> usize {
        usize::from(self.pipeline.is_made())
    }
}

/// One target's copy of the scene behind its transmissive surfaces.
pub struct SceneBehind {
    /// Each level as a render target, and the bind group that reads the image it is drawn from
    /// (the scene's HDR image for level 0, else the level above).
    levels: Vec<(wgpu::TextureView, wgpu::BindGroup)>,
    /// Group 3 of the transmissive mesh shaders: every level, and a trilinear sampler.
    pub(super) group: wgpu::BindGroup,
}

impl SceneBehind {
    /// The copy of `hdr`, a `width` x `height` scene image.
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        downsampler: &Downsampler,
        hdr: &wgpu::TextureView,
        (width, height): (u32, u32),
    ) -> Self {
        let size = wgpu::Extent3d {
            width: (width / 2).max(1),
            height: (height / 2).max(1),
            depth_or_array_layers: 1,
        };
        let level_count = size.max_mips(wgpu::TextureDimension::D2);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("scene behind"),
            size,
            mip_level_count: level_count,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SCENE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let level = |index: u32| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                base_mip_level: index,
                mip_level_count: Some(1),
                ..Default::default()
            })
        };
        let reading = |source: &wgpu::TextureView| {
            fullscreen::source_group(device, layouts, "scene behind source", source, &downsampler.sampler)
        };
        let levels = (0..level_count)
            .map(|index| {
                let source = if index == 0 {
                    reading(hdr)
                } else {
                    reading(&level(index - 1))
                };
                (level(index), source)
            })
            .collect();
        let whole = texture.create_view(&Default::default());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene behind"),
            layout: &layouts.transmission,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&whole),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&downsampler.sampler),
                },
            ],
        });
        Self { levels, group }
    }

    /// Records the passes that copy the scene's HDR image (as the opaque draws left it) into
    /// every level.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, downsampler: &Downsampler) {
        for (target, source) in &self.levels {
            fullscreen::draw(encoder, &downsampler.pipeline, source, target, None);
        }
    }
}
