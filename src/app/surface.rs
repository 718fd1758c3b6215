//! The window and what it shows: the wgpu surface and the scene's offscreen target. Each frame
//! the scene's displayed image is copied beside the panel and egui paints over it, straight
//! into the surface's texture; a screenshot frame goes into an image of its own instead, which
//! can be read back, and so does every frame shown through shared memory (shared_memory.rs).

use std::sync::Arc;

use anyhow::{Context, anyhow};
use winit::dpi::LogicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use super::shared_memory::{self, Presentation, SharedMemoryWindow};
use crate::render::blit::Blit;
use crate::render::capture::read_rgba;
use crate::render::{Gpu, SceneRenderer, SceneTarget};

pub struct Surface {
    pub window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    /// The surface's configuration; with shared memory, never applied (the window's size and
    /// the images' format).
    config: wgpu::SurfaceConfiguration,
    /// Set when frames are shown through shared memory rather than the surface.
    shared_memory: Option<SharedMemoryWindow>,
    /// How frames reach the screen, and why, in words.
    pub presentation: String,
    /// Where a frame is drawn that is read back (a screenshot's, or every frame shown through
    /// shared memory; the surface's textures cannot be read back), made on first use at the
    /// window's size and format.
    offscreen_image: Option<wgpu::Texture>,
    /// The 3D view's target, at the viewport's render size, and its copy into the window.
    scene_target: SceneTarget,
    scene_to_window: Blit,
    scene_source: wgpu::BindGroup,
}

/// Why a frame could not begin.
pub enum NoFrame {
    /// The surface was lost or outdated and is reconfigured: the next frame can draw.
    Reconfigured,
    /// The window is hidden or the surface timed out: drawing waits for the next event.
    Unavailable,
}

/// The image a frame is drawn into: the surface's next texture, or the screenshot image.
pub struct FrameImage {
    surface_texture: Option<wgpu::SurfaceTexture>,
    pub view: wgpu::TextureView,
}

impl Surface {
    /// Opens a 1280 x 800 window (smaller where the screen is) and the graphics device that
    /// draws into it.
    pub fn open(event_loop: &ActiveEventLoop) -> anyhow::Result<(Gpu, SceneRenderer, Self)> {
        let screen = event_loop
            .primary_monitor()
            .or_else(|| event_loop.available_monitors().next())
            .map(|monitor| monitor.size().to_logical::<f64>(monitor.scale_factor()));
        let attributes = Window::default_attributes()
            .with_title("rigscope")
            .with_inner_size(first_window_size(screen))
            .with_min_inner_size(SMALLEST_WINDOW);
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
        let (presentation, mut why) = Presentation::choose(gpu.is_software(), &window)?;
        let shared_memory = match presentation {
            Presentation::SharedMemory => match SharedMemoryWindow::new(&window) {
                Ok(shared_memory) => Some(shared_memory),
                Err(error) => {
                    why = format!("the adapter's surface: {error:#}");
                    None
                }
            },
            Presentation::Surface => None,
        };
        let format = match shared_memory {
            Some(_) => shared_memory::FORMAT,
            None => window_format(&capabilities.formats).ok_or_else(|| anyhow!("the window offers no pixel format"))?,
        };
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
        if shared_memory.is_none() {
            surface.configure(&gpu.device, &config);
        }

        let renderer = SceneRenderer::new(&gpu);
        let device = &gpu.device;
        let layouts = &renderer.layouts;
        let scene_target = renderer.target(device, config.width, config.height);
        let scene_to_window = Blit::new(device, layouts, format);
        let scene_source = scene_to_window.source(device, layouts, &scene_target.resolved_view);
        let surface = Self {
            window,
            surface,
            config,
            shared_memory,
            presentation: why,
            offscreen_image: None,
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

    /// The window's pixel format (egui and the scene's copy draw into it).
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Follows a resize of the window (ignoring a zero size, as when minimised).
    pub fn resize(&mut self, gpu: &Gpu, (width, height): (u32, u32)) {
        if width == 0 || height == 0 {
            return;
        }
        self.config.width = width;
        self.config.height = height;
        if self.shared_memory.is_none() {
            self.surface.configure(&gpu.device, &self.config);
        }
    }

    /// The 3D view's target, remade when the render size (`width` x `height`) or the
    /// renderer's sample count changes.
    pub fn scene_target(&mut self, gpu: &Gpu, renderer: &SceneRenderer, (width, height): (u32, u32)) -> &SceneTarget {
        let target = &self.scene_target;
        if (target.width, target.height, target.samples) != (width, height, renderer.sample_count) {
            self.scene_target = renderer.target(&gpu.device, width, height);
            self.scene_source =
                self.scene_to_window
                    .source(&gpu.device, &renderer.layouts, &self.scene_target.resolved_view);
        }
        &self.scene_target
    }

    /// The image to draw this frame into: the surface's next texture, or with `screenshot`
    /// or shared memory the image that is read back. Otherwise why the frame is skipped.
    pub fn begin_frame(&mut self, gpu: &Gpu, screenshot: bool) -> Result<FrameImage, NoFrame> {
        if screenshot || self.shared_memory.is_some() {
            let (width, height) = self.size();
            let image = match &self.offscreen_image {
                Some(image) if (image.width(), image.height()) == (width, height) => image,
                _ => self
                    .offscreen_image
                    .insert(offscreen_image(&gpu.device, self.config.format, width, height)),
            };
            let view = image.create_view(&wgpu::TextureViewDescriptor::default());
            return Ok(FrameImage {
                surface_texture: None,
                view,
            });
        }
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) | wgpu::CurrentSurfaceTexture::Suboptimal(texture) => {
                let view = texture.texture.create_view(&wgpu::TextureViewDescriptor::default());
                Ok(FrameImage {
                    surface_texture: Some(texture),
                    view,
                })
            }
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&gpu.device, &self.config);
                Err(NoFrame::Reconfigured)
            }
            _ => Err(NoFrame::Unavailable),
        }
    }

    /// Clears `frame` and copies the scene into `viewport` (x, y, width, height), scaling it
    /// from its render size.
    pub fn compose_scene(&self, encoder: &mut wgpu::CommandEncoder, frame: &FrameImage, viewport: [u32; 4]) {
        self.scene_to_window
            .draw(encoder, &self.scene_source, &frame.view, Some(viewport));
    }

    /// Submits `encoder` and presents `frame` when it is the surface's, or shows it through
    /// shared memory.
    pub fn present(&mut self, gpu: &Gpu, encoder: wgpu::CommandEncoder, frame: FrameImage) -> anyhow::Result<()> {
        if let (Some(shared_memory), Some(image)) = (&mut self.shared_memory, &self.offscreen_image) {
            self.window.pre_present_notify();
            return shared_memory.present(gpu, encoder, image);
        }
        gpu.queue.submit([encoder.finish()]);
        if let Some(texture) = frame.surface_texture {
            self.window.pre_present_notify();
            gpu.queue.present(texture);
        }
        Ok(())
    }

    /// The last screenshot frame's image, as RGBA.
    pub fn screenshot(&self, gpu: &Gpu) -> anyhow::Result<image::RgbaImage> {
        let image = self
            .offscreen_image
            .as_ref()
            .context("no frame was drawn for a screenshot")?;
        let mut pixels = read_rgba(gpu, image)?;
        if matches!(
            image.format(),
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        ) {
            for pixel in pixels.pixels_mut() {
                pixel.0.swap(0, 2);
            }
        }
        Ok(pixels)
    }
}

/// The window's format: a plain 8-bit one when offered (the scene's image is copied into it
/// as it is and egui paints gamma-encoded colours), else the first.
/// The size the window opens at where the screen has room for it (logical pixels).
const FIRST_WINDOW: LogicalSize<f64> = LogicalSize::new(1280.0, 800.0);
/// The smallest window the panel, the timeline and a useful 3D view fit in.
const SMALLEST_WINDOW: LogicalSize<f64> = LogicalSize::new(800.0, 500.0);

/// The window's first size on a screen of `screen` (unknown: `None`): 1280 x 800 where that
/// fits, else 90% of the screen (room for its bars and the window's frame), never below the
/// smallest window.
fn first_window_size(screen: Option<LogicalSize<f64>>) -> LogicalSize<f64> {
    let Some(screen) = screen else {
        return FIRST_WINDOW;
    };
    let fit = |wanted: f64, room: f64, least: f64| match wanted <= room {
        true => wanted,
        false => (0.9 * room).round().max(least),
    };
    LogicalSize::new(
        fit(FIRST_WINDOW.width, screen.width, SMALLEST_WINDOW.width),
        fit(FIRST_WINDOW.height, screen.height, SMALLEST_WINDOW.height),
    )
}

fn window_format(formats: &[wgpu::TextureFormat]) -> Option<wgpu::TextureFormat> {
    let plain = [wgpu::TextureFormat::Rgba8Unorm, wgpu::TextureFormat::Bgra8Unorm];
    plain
        .into_iter()
        .find(|format| formats.contains(format))
        .or_else(|| formats.first().copied())
}

/// A `width` x `height` image of `format` to draw into and read back.
pub(super) fn offscreen_image(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("offscreen frame"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_window_fits_the_screen() {
        let size = |w, h| first_window_size(Some(LogicalSize::new(w, h)));
        assert_eq!(size(1920.0, 1080.0), FIRST_WINDOW);
        assert_eq!(size(1280.0, 800.0), FIRST_WINDOW, "exactly room for it");
        assert_eq!(size(1024.0, 600.0), LogicalSize::new(922.0, 540.0));
        assert_eq!(size(1366.0, 768.0), LogicalSize::new(1280.0, 691.0));
        assert_eq!(size(640.0, 480.0), SMALLEST_WINDOW, "never below the smallest window");
        assert_eq!(first_window_size(None), FIRST_WINDOW);
    }
}
