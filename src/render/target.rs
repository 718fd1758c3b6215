//! Where a scene is rendered: MSAA linear HDR colour and depth, resolved into a single-sample
//! HDR image, which tone mapping turns into the displayed image that is shown (blit) or read
//! back (through a multisampled copy of it, made when blended surfaces or overlays are first
//! drawn over it, with the scene's depth); the copy of the opaque scene that transmissive surfaces refract; and the depth
//! textures the shadow pass draws into.

use std::sync::OnceLock;

use super::pipelines::{DEPTH_FORMAT, DISPLAY_FORMAT, SCENE_FORMAT};
use super::transmission::SceneBehind;

pub struct SceneTarget {
    pub width: u32,
    pub height: u32,
    /// MSAA samples per pixel (1: none).
    pub samples: u32,
    pub(super) multisampled: Option<wgpu::TextureView>,
    /// The scene in linear HDR (resolved when multisampled).
    pub(super) hdr: wgpu::TextureView,
    /// The tone map pass's bind group, reading `hdr`.
    pub(super) tone_map_group: wgpu::BindGroup,
    /// The displayed image, multisampled (see `display_multisampled`), once made.
    display_multisampled: OnceLock<wgpu::TextureView>,
    /// The device that makes it.
    device: wgpu::Device,
    /// The displayed image (sRGB, tone-mapped).
    pub resolved: wgpu::Texture,
    pub resolved_view: wgpu::TextureView,
    pub(super) depth: wgpu::TextureView,
    /// What transmissive surfaces see through them (copied from `hdr` when a frame has some).
    pub(super) scene_behind: SceneBehind,
}

impl SceneTarget {
    /// A `width` x `height` target (at least 1 x 1) with `samples` samples per pixel;
    /// `tone_map_group` makes the tone map pass's bind group for the HDR image, and
    /// `scene_behind` the copy of it that transmissive surfaces refract.
    pub fn new(
        device: &wgpu::Device,
        (width, height): (u32, u32),
        samples: u32,
        tone_map_group: impl FnOnce(&wgpu::TextureView) -> wgpu::BindGroup,
        scene_behind: impl FnOnce(&wgpu::TextureView, (u32, u32)) -> SceneBehind,
    ) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let color = |label: &str, samples: u32, format: wgpu::TextureFormat, usage: wgpu::TextureUsages| {
            plain_texture(device, label, (width, height, samples), (format, usage))
        };
        let sampled = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let hdr = color("scene hdr", 1, SCENE_FORMAT, sampled).create_view(&Default::default());
        let resolved = color("scene", 1, DISPLAY_FORMAT, sampled | wgpu::TextureUsages::COPY_SRC);
        let attachment = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let multisampled = (samples > 1)
            .then(|| color("scene msaa", samples, SCENE_FORMAT, attachment).create_view(&Default::default()));
        Self {
            width,
            height,
            samples,
            multisampled,
            tone_map_group: tone_map_group(&hdr),
            scene_behind: scene_behind(&hdr, (width, height)),
            hdr,
            display_multisampled: OnceLock::new(),
            device: device.clone(),
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

    /// The displayed image, multisampled, that the blended surfaces and overlays are drawn into
    /// before it is resolved into `resolved`; none with one sample (they draw there). Made when
    /// a frame first draws over the image: most stills never do, and a software rasteriser
    /// clears every byte of a texture it makes (5 MB at 640x480).
    pub(super) fn display_multisampled(&self) -> Option<&wgpu::TextureView> {
        (self.samples > 1).then(|| {
            self.display_multisampled.get_or_init(|| {
                let size = (self.width, self.height, self.samples);
                let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
                plain_texture(&self.device, "displayed msaa", size, (DISPLAY_FORMAT, usage))
                    .create_view(&Default::default())
            })
        })
    }

    /// Whether the multisampled displayed image has been made.
    #[cfg(test)]
    pub(super) fn display_multisampled_made(&self) -> bool {
        self.display_multisampled.get().is_some()
    }
}

/// A 2D texture of `width` x `height` pixels of `samples` samples, without mip levels.
fn plain_texture(
    device: &wgpu::Device,
    label: &str,
    (width, height, samples): (u32, u32, u32),
    (format, usage): (wgpu::TextureFormat, wgpu::TextureUsages),
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// A `DEPTH_FORMAT` texture's view.
pub fn depth_texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    samples: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    plain_texture(device, label, (width, height, samples), (DEPTH_FORMAT, usage))
        .create_view(&wgpu::TextureViewDescriptor::default())
}
