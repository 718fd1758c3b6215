//! Every draw's uniform (`Draw` in skinning.wgsl) in one buffer: a slot per draw and look,
//! each at a multiple of the device's uniform offset alignment, bound once per skin and picked
//! with a dynamic offset. The CPU copy is written in place each frame and uploaded in one go.

use super::uniforms::DrawUniform;

/// The looks a draw is drawn with, each with its own uniform slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawLook {
    /// Lit with its material, or in the vertex view's colours; also the shadow pass.
    Solid = 0,
    Wire = 1,
    /// The bind-pose ghost (written once: the bind pose does not move).
    Ghost = 2,
    /// The CPU-vs-GPU difference view's capture: always skinned on the GPU.
    Capture = 3,
}

const LOOKS: usize = 4;

pub struct DrawUniforms {
    pub buffer: wgpu::Buffer,
    /// Bytes from one slot to the next.
    stride: usize,
    /// What `buffer` holds, kept on the CPU so a frame writes it without allocating.
    bytes: Vec<u8>,
}

impl DrawUniforms {
    /// Slots for `draws` draws (at least one, so the buffer can be bound).
    pub fn new(device: &wgpu::Device, draws: usize) -> Self {
        let alignment = device.limits().min_uniform_buffer_offset_alignment as usize;
        let stride = std::mem::size_of::<DrawUniform>().next_multiple_of(alignment);
        let size = stride * LOOKS * draws.max(1);
        Self {
            buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("draw uniforms"),
                size: size as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            stride,
            bytes: vec![0; size],
        }
    }

    /// The dynamic offset of `draw`'s slot for `look`.
    pub fn offset(&self, draw: usize, look: DrawLook) -> u32 {
        ((draw * LOOKS + look as usize) * self.stride) as u32
    }

    pub fn set(&mut self, draw: usize, look: DrawLook, uniform: &DrawUniform) {
        let start = self.offset(draw, look) as usize;
        let bytes = bytemuck::bytes_of(uniform);
        self.bytes[start..start + bytes.len()].copy_from_slice(bytes);
    }

    /// Uploads every slot.
    pub fn upload(&self, queue: &wgpu::Queue) {
        queue.write_buffer(&self.buffer, 0, &self.bytes);
    }

    /// The binding of one slot (the offset is given when drawing).
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(std::mem::size_of::<DrawUniform>() as u64),
        })
    }
}
