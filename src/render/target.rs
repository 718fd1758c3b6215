//! Where a scene is rendered. A scene is drawn straight into the displayed image, each sample
//! in displayed colours (through a multisampled copy of it, resolved into `resolved`, where it
//! has samples); a scene with surfaces that refract the scene behind them, in linear HDR
//! (multisampled and resolved where it has samples), which tone mapping turns into the
//! displayed image, and what is drawn over that goes into its multisampled copy (see scene.rs,
//! `scene_output`). The displayed image is shown (blit) or read back. Each image but the
//! displayed one and the depth is made when a frame first needs it: a software rasteriser
//! clears every byte of a texture it makes. Also the depth textures the shadow pass draws into.

use std::sync::OnceLock;

use super::pipelines::{DEPTH_FORMAT, DISPLAY_FORMAT, SCENE_FORMAT};
use super::transmission::SceneBehind;

pub struct SceneTarget {
    pub width: u32,
    pub height: u32,
    /// MSAA samples per pixel (1: none).
    pub samples: u32,
    /// The scene in linear HDR, once a frame has drawn it so.
    hdr: OnceLock<HdrScene>,
    /// What transmissive surfaces see through them (copied from the HDR image when a frame
    /// has some), once made.
    scene_behind: OnceLock<SceneBehind>,
    /// The displayed image, multisampled (see `display_multisampled`), once made.
    display_multisampled: OnceLock<wgpu::TextureView>,
    /// The device that makes them.
    device: wgpu::Device,
    /// The displayed image (sRGB-encoded, tone-mapped).
    pub resolved: wgpu::Texture,
    pub resolved_view: wgpu::TextureView,
    pub(super) depth: wgpu::TextureView,
}

/// A target's scene in linear HDR, and the tone map pass's way to read it.
pub(super) struct HdrScene {
    /// Where the scene is drawn when it has samples (resolved into `image`).
    pub(super) multisampled: Option<wgpu::TextureView>,
    /// The scene (resolved when multisampled).
    pub(super) image: wgpu::TextureView,
    /// The tone map pass's bind group, reading `image`.
    pub(super) tone_map_group: wgpu::BindGroup,
}

impl SceneTarget {
    /// A `width` x `height` target (at least 1 x 1) with `samples` samples per pixel.
    pub fn new(device: &wgpu::Device, (width, height): (u32, u32), samples: u32) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let resolved = plain_texture(
            device,
            "scene",
            (width, height, 1),
            (DISPLAY_FORMAT, usage | wgpu::TextureUsages::COPY_SRC),
        );
        Self {
            width,
            height,
            samples,
            hdr: OnceLock::new(),
            scene_behind: OnceLock::new(),
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

    /// The scene in linear HDR, made when a frame is first drawn so; `tone_map_group` makes
    /// the tone map pass's bind group for its image.
    pub(super) fn hdr(
        &self,
        tone_map_group: impl FnOnce(&wgpu::Device, &wgpu::TextureView) -> wgpu::BindGroup,
    ) -> &HdrScene {
        self.hdr.get_or_init(|| {
            let size = |samples: u32| (self.width, self.height, samples);
            let sampled = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
            let image = plain_texture(&self.device, "scene hdr", size(1), (SCENE_FORMAT, sampled))
                .create_view(&Default::default());
            let attachment = wgpu::TextureUsages::RENDER_ATTACHMENT;
            let multisampled = (self.samples > 1).then(|| {
                plain_texture(
                    &self.device,
                    "scene msaa",
                    size(self.samples),
                    (SCENE_FORMAT, attachment),
                )
                .create_view(&Default::default())
            });
            HdrScene {
                tone_map_group: tone_map_group(&self.device, &image),
                multisampled,
                image,
            }
        })
    }

    /// The copy of the opaque scene that transmissive surfaces refract, made by `make` (from
    /// the device and the target's size) when a frame first has some.
    pub(super) fn scene_behind(&self, make: impl FnOnce(&wgpu::Device, (u32, u32)) -> SceneBehind) -> &SceneBehind {
        self.scene_behind
            .get_or_init(|| make(&self.device, (self.width, self.height)))
    }

    /// The displayed image, multisampled, that a multisampled scene is drawn into, or what is
    /// drawn over the tone-mapped one, before it is resolved into `resolved`; none with one
    /// sample (they draw there).
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

    /// Which of the images made when first needed have been made: the HDR scene, the copy
    /// behind transmissive surfaces, the multisampled displayed image.
    #[cfg(test)]
    pub(super) fn made(&self) -> [bool; 3] {
        [
            self.hdr.get().is_some(),
            self.scene_behind.get().is_some(),
            self.display_multisampled.get().is_some(),
        ]
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
