//! Frames of a software rasteriser shown on X11 through shared memory. Mesa's EGL hands each
//! frame of llvmpipe to the X server through the socket (XPutImage: its 22.x releases use no
//! MIT-SHM for EGL), about 9 ms of CPU a 1280x800 frame between the two. Instead the frame is
//! drawn into an image of our own, read back, and given to the server in a shared-memory
//! segment (softbuffer's MIT-SHM PutImage, where the server offers it), which the server copies
//! while the next frame is drawn. A GPU, or any other window system, presents its own way.

use std::num::NonZeroU32;
use std::sync::Arc;

use anyhow::{Context, anyhow};
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::Window;

use crate::render::Gpu;
use crate::render::capture::{map_for_reading, padded_row_bytes, readback_buffer, record_readback};

/// The image's format: softbuffer's pixels are 0RGB words, which are B, G, R, 0 in memory.
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

/// How the window's frames reach the screen, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Presentation {
    /// The graphics adapter's own surface (its swap chain).
    Surface,
    /// Read back and handed to the X server in shared memory (`SharedMemoryWindow`).
    SharedMemory,
}

impl Presentation {
    /// Shared memory for a software rasteriser on X11, the surface otherwise, with the reason
    /// in words (for the panel and `--benchmark-frames`). `RIGSCOPE_PRESENT=surface` or
    /// `=shared-memory` overrides the choice.
    pub fn choose(software: bool, window: &Window) -> anyhow::Result<(Self, String)> {
        if let Ok(asked) = std::env::var("RIGSCOPE_PRESENT") {
            let chosen = match asked.as_str() {
                "surface" => Self::Surface,
                "shared-memory" => Self::SharedMemory,
                _ => anyhow::bail!("RIGSCOPE_PRESENT={asked}: expected \"surface\" or \"shared-memory\""),
            };
            return Ok((chosen, format!("{}, as RIGSCOPE_PRESENT asks", chosen.name())));
        }
        let x11 = matches!(
            window.window_handle().map(|handle| handle.as_raw()),
            Ok(RawWindowHandle::Xlib(_) | RawWindowHandle::Xcb(_))
        );
        Ok(match software && x11 {
            true => (
                Self::SharedMemory,
                format!(
                    "{}: on X11, Mesa's EGL sends a software rasteriser's frames through the socket",
                    Self::SharedMemory.name()
                ),
            ),
            false => (Self::Surface, Self::Surface.name().to_string()),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Surface => "the adapter's surface",
            Self::SharedMemory => "shared memory (MIT-SHM)",
        }
    }
}

/// The window's softbuffer surface and the buffer the frame is read back into.
pub struct SharedMemoryWindow {
    surface: softbuffer::Surface<Arc<Window>, Arc<Window>>,
    readback: Option<wgpu::Buffer>,
}

impl SharedMemoryWindow {
    pub fn new(window: &Arc<Window>) -> anyhow::Result<Self> {
        let no_buffer =
            |error: softbuffer::SoftBufferError| anyhow!("cannot show frames through shared memory: {error}");
        let context = softbuffer::Context::new(window.clone()).map_err(no_buffer)?;
        let surface = softbuffer::Surface::new(&context, window.clone()).map_err(no_buffer)?;
        Ok(Self {
            surface,
            readback: None,
        })
    }

    /// Records into `encoder` the copy of `image` (`FORMAT`) into the readback buffer, submits
    /// it, and hands the pixels to the X server.
    pub fn present(
        &mut self,
        gpu: &Gpu,
        mut encoder: wgpu::CommandEncoder,
        image: &wgpu::Texture,
    ) -> anyhow::Result<()> {
        let (width, height) = (image.width(), image.height());
        let readback = match &self.readback {
            Some(buffer) if buffer.size() == u64::from(padded_row_bytes(width)) * u64::from(height) => buffer,
            _ => self.readback.insert(readback_buffer(&gpu.device, width, height)),
        };
        record_readback(&mut encoder, image, readback);
        gpu.queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        map_for_reading(gpu, slice, "the frame")?;
        let no_buffer = |error: softbuffer::SoftBufferError| anyhow!("cannot show the frame: {error}");
        let nonzero = |n: u32| NonZeroU32::new(n).context("an empty frame");
        (self.surface)
            .resize(nonzero(width)?, nonzero(height)?)
            .map_err(no_buffer)?;
        let mut pixels = self.surface.buffer_mut().map_err(no_buffer)?;
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| anyhow!("cannot read the frame back: {e:?}"))?;
            let rows = data.chunks(padded_row_bytes(width) as usize);
            for (out, row) in pixels.chunks_mut(width as usize).zip(rows) {
                for (word, bgra) in out.iter_mut().zip(row.chunks_exact(4)) {
                    *word = u32::from_le_bytes([bgra[0], bgra[1], bgra[2], 0]);
                }
            }
        }
        readback.unmap();
        pixels.present().map_err(no_buffer)
    }
}
