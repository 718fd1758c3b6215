//! The window and what it shows: the wgpu surface, the scene's offscreen target, and the
//! window image that the scene is copied into (beside the panel) and egui paints over, before
//! it goes onto the surface.

use std::sync::Arc;

use anyhow::{Context, anyhow};
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use crate::render::blit::{Blit, Encoding};
use crate::render::capture::read_rgba;
use crate::render::layouts::Layouts;
use crate::render::{Gpu, SceneRenderer, SceneTarget};

/// The window image is gamma-encoded RGBA, as egui paints.
pub const WINDOW_IMAGE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

pub struct Surface {
    pub window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    window_image: wgpu::Texture,
    pub window_image_view: wgpu::TextureView,
    window_to_surface: Blit,
    window_source: wgpu::BindGroup,
    /// The 3D view's target, sized to the viewport, and its copy into the window image.
    scene_target: SceneTarget,
    scene_to_window: Blit,
    scene_source: wgpu::BindGroup,
}

impl Surface {
    /// Opens a 1280 x 800 window and the graphics device that draws into it.
    pub fn open(event_loop: &ActiveEventLoop) -> anyhow::Result<(Gpu, SceneRenderer, Self)> {
        let attributes = Window::default_attributes()
            .with_title("rigscope")
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 800.0));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .context("cannot create the window")?,
        );
        let surface_window = window.clone();
        let (gpu, surface) = Gpu::for_display(Box::new(event_loop.owned_display_handle()), move |instance| {
            instance
                .create_surface(surface_window)
                .context("cannot draw into the window")
        })?;
        let size = window.inner_size();
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = *capabilities
            .formats
            .first()
            .ok_or_else(|| anyhow!("the window offers no pixel format"))?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            color_space: wgpu::SurfaceColorSpace::Auto,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: capabilities.alpha_modes[0],
            view_formats: vec![],
        };
        surface.configure(&gpu.device, &config);

        let renderer = SceneRenderer::new(&gpu);
        let device = &gpu.device;
        let layouts = &renderer.layouts;
        let scene_target = renderer.target(device, config.width, config.height);
        let (window_image, window_image_view) = window_image(device, config.width, config.height);
        let scene_to_window = Blit::new(device, layouts, WINDOW_IMAGE_FORMAT);
        let window_to_surface = Blit::new(device, layouts, format);
        let scene_source = scene_to_window.source(device, layouts, &scene_target.resolved_view, Encoding::EncodeSrgb);
        let window_source = window_to_surface.source(device, layouts, &window_image_view, surface_encoding(format));
        let surface = Self {
            window,
            surface,
            config,
            window_image,
            window_image_view,
            window_to_surface,
            window_source,
            scene_target,
            scene_to_window,
            scene_source,
        };
        Ok((gpu, renderer, surface))
    }

    /// The window's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Follows a resize of the window (ignoring a zero size, as when minimised).
    pub fn resize(&mut self, gpu: &Gpu, layouts: &Layouts, (width, height): (u32, u32)) {
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.surface.configure(&gpu.device, &self.config);
        let (image, view) = window_image(&gpu.device, width, height);
        let encoding = surface_encoding(self.config.format);
        self.window_source = self.window_to_surface.source(&gpu.device, layouts, &view, encoding);
        (self.window_image, self.window_image_view) = (image, view);
    }

    /// The 3D view's target, remade when the viewport's size (`width` x `height`) changes.
    pub fn scene_target(&mut self, gpu: &Gpu, renderer: &SceneRenderer, (width, height): (u32, u32)) -> &SceneTarget {
        if (self.scene_target.width, self.scene_target.height) != (width, height) {
            self.scene_target = renderer.target(&gpu.device, width, height);
            self.scene_source = self.scene_to_window.source(
                &gpu.device,
                &renderer.layouts,
                &self.scene_target.resolved_view,
                Encoding::EncodeSrgb,
            );
        }
        &self.scene_target
    }

    /// Clears the window image and copies the scene into `viewport` (x, y, width, height).
    pub fn compose_scene(&self, encoder: &mut wgpu::CommandEncoder, viewport: [u32; 4]) {
        self.scene_to_window
            .draw(encoder, &self.scene_source, &self.window_image_view, Some(viewport));
    }

    /// Copies the window image onto the surface, submits `commands` then `encoder`, and
    /// presents. A lost or outdated surface is reconfigured and this frame skipped.
    pub fn present(&self, gpu: &Gpu, mut encoder: wgpu::CommandEncoder, commands: Vec<wgpu::CommandBuffer>) {
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(frame) | wgpu::CurrentSurfaceTexture::Suboptimal(frame) => Some(frame),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&gpu.device, &self.config);
                None
            }
            _ => None,
        };
        if let Some(frame) = &frame {
            let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
            self.window_to_surface
                .draw(&mut encoder, &self.window_source, &view, None);
        }
        gpu.queue.submit(commands.into_iter().chain([encoder.finish()]));
        if let Some(frame) = frame {
            self.window.pre_present_notify();
            gpu.queue.present(frame);
        }
    }

    /// The window image as last drawn.
    pub fn screenshot(&self, gpu: &Gpu) -> anyhow::Result<image::RgbaImage> {
        read_rgba(gpu, &self.window_image, self.config.width, self.config.height)
    }
}

/// How the window image (gamma-encoded) goes onto a surface of `format`: as it is, or decoded
/// so that an sRGB surface encodes it back.
fn surface_encoding(format: wgpu::TextureFormat) -> Encoding {
    if format.is_srgb() {
        Encoding::DecodeSrgb
    } else {
        Encoding::Copy
    }
}

fn window_image(device: &wgpu::Device, width: u32, height: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("window image"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: WINDOW_IMAGE_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    (texture, view)
}
