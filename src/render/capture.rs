//! Reading a rendered image back from the GPU.

use super::error::RenderError;

use super::gpu::Gpu;

/// The bytes a row of a `width`-pixel, 4-byte-per-pixel image takes in a readback buffer (rows
/// are padded to wgpu's copy alignment).
pub fn padded_row_bytes(width: u32) -> u32 {
    wgpu::util::align_to(4 * width, wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// A buffer for reading back a 4-byte-per-pixel image `width`×`height`.
pub fn readback_buffer(device: &wgpu::Device, width: u32, height: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: u64::from(padded_row_bytes(width)) * u64::from(height),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// Records the copy of all of `texture` (4 bytes a pixel, with COPY_SRC) into `buffer`, rows
/// padded as `padded_row_bytes` says.
pub fn record_readback(encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture, buffer: &wgpu::Buffer) {
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row_bytes(texture.width())),
                rows_per_image: None,
            },
        },
        texture.size(),
    );
}

/// Copies `texture` (RGBA8, with COPY_SRC) into an image.
pub fn read_rgba(gpu: &Gpu, texture: &wgpu::Texture) -> Result<image::RgbaImage, RenderError> {
    let (width, height) = (texture.width(), texture.height());
    let unpadded = 4 * width;
    let padded = padded_row_bytes(width);
    let buffer = readback_buffer(&gpu.device, width, height);
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("readback"),
    });
    record_readback(&mut encoder, texture, &buffer);
    gpu.queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    map_for_reading(gpu, slice, "the image")?;
    let mut pixels = Vec::with_capacity((unpadded * height) as usize);
    {
        let data = slice.get_mapped_range().map_err(RenderError::MappedRange)?;
        for row in data.chunks(padded as usize) {
            pixels.extend_from_slice(&row[..unpadded as usize]);
        }
    }
    buffer.unmap();
    image::RgbaImage::from_raw(width, height, pixels).ok_or(RenderError::ReadbackSize)
}

/// Maps `slice` for reading and waits until it is (after the copies into it are submitted);
/// `what` names the data in errors.
pub fn map_for_reading(gpu: &Gpu, slice: wgpu::BufferSlice, what: &str) -> Result<(), RenderError> {
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(RenderError::Wait)?;
    receiver
        .recv()
        .map_err(|source| RenderError::ReadbackDropped {
            what: what.to_owned(),
            source,
        })?
        .map_err(|error| RenderError::Readback {
            what: what.to_owned(),
            error,
        })
}
