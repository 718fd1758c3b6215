//! Reading a rendered image back from the GPU.

use anyhow::{Context, anyhow};

use super::gpu::Gpu;

/// Copies `texture` (RGBA8, `width`×`height`, with COPY_SRC) into an image.
pub fn read_rgba(gpu: &Gpu, texture: &wgpu::Texture, width: u32, height: u32) -> anyhow::Result<image::RgbaImage> {
    let unpadded = 4 * width;
    let padded = wgpu::util::align_to(unpadded, wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: (padded * height) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("readback"),
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    gpu.queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    map_for_reading(gpu, slice, "the image")?;
    let mut pixels = Vec::with_capacity((unpadded * height) as usize);
    {
        let data = slice
            .get_mapped_range()
            .map_err(|e| anyhow!("cannot read the image back: {e:?}"))?;
        for row in data.chunks(padded as usize) {
            pixels.extend_from_slice(&row[..unpadded as usize]);
        }
    }
    buffer.unmap();
    image::RgbaImage::from_raw(width, height, pixels).context("readback size mismatch")
}

/// Maps `slice` for reading and waits until it is (after the copies into it are submitted);
/// `what` names the data in errors.
pub fn map_for_reading(gpu: &Gpu, slice: wgpu::BufferSlice, what: &str) -> anyhow::Result<()> {
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .context("waiting for the GPU")?;
    receiver
        .recv()
        .with_context(|| format!("the GPU dropped the readback of {what}"))?
        .map_err(|e| anyhow!("cannot read {what} back: {e}"))
}
