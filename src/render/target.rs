//! Where a scene is rendered: MSAA colour and depth, resolved into a single-sample image that
//! can be shown (blit) or read back; and the depth textures the shadow pass draws into.

use super::pipelines::{DEPTH_FORMAT, SCENE_FORMAT};

pub struct SceneTarget {
    pub width: u32,
    pub height: u32,
    pub(super) multisampled: Option<wgpu::TextureView>,
    pub resolved: wgpu::Texture,
    pub resolved_view: wgpu::TextureView,
    pub(super) depth: wgpu::TextureView,
}

impl SceneTarget {
    /// A `width` x `height` target (at least 1 x 1) with `samples` samples per pixel.
    pub fn new(device: &wgpu::Device, width: u32, height: u32, samples: u32) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let color = |label: &str, samples: u32, usage: wgpu::TextureUsages| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format: SCENE_FORMAT,
                usage,
                view_formats: &[],
            })
        };
        let resolved = color(
            "scene",
            1,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
        );
        let multisampled = (samples > 1).then(|| {
            color("scene msaa", samples, wgpu::TextureUsages::RENDER_ATTACHMENT).create_view(&Default::default())
        });
        Self {
            width,
            height,
            multisampled,
            resolved_view: resolved.create_view(&Default::default()),
            resolved,
            depth: depth_texture(
                device,
                "scene depth",
                (width, height),
                samples,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            ),
        }
    }

    /// Width over height.
    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }
}

/// A `DEPTH_FORMAT` texture's view.
pub fn depth_texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    samples: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}
