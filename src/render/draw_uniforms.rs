//! Every draw's uniform (`Draw` in skinning.wgsl) in one buffer: a slot per draw for each way
//! it is drawn, each at a multiple of the device's uniform offset alignment, bound once per skin
//! and picked with a dynamic offset. The CPU copy is written in place each frame, and the slots
//! that change are uploaded in one go.

use super::uniforms::DrawUniform;

/// The ways a draw is drawn, each with its own uniform slot. Slots are grouped by kind, those
/// rewritten every frame first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawSlot {
    /// Lit with its material, or in the vertex view's colours; also the shadow pass.
    Solid = 0,
    Wire = 1,
    /// The CPU-vs-GPU difference view's capture: always skinned on the GPU.
    Capture = 2,
    /// The bind-pose ghost (written once: the bind pose does not move).
    Ghost = 3,
}

const SLOTS: usize = 4;
/// The slots rewritten every frame (`Solid`, `Wire`, `Capture`).
const FRAME_SLOTS: usize = 3;

pub struct DrawUniforms {
    pub buffer: wgpu::Buffer,
    draws: usize,
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
        let draws = draws.max(1);
        let size = stride * SLOTS * draws;
        Self {
            buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("draw uniforms"),
                size: size as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            draws,
            stride,
            bytes: vec![0; size],
        }
    }

    /// The dynamic offset of `draw`'s uniform in `slot`.
    pub fn offset(&self, draw: usize, slot: DrawSlot) -> u32 {
        ((slot as usize * self.draws + draw) * self.stride) as u32
    }

    pub fn set(&mut self, draw: usize, slot: DrawSlot, uniform: &DrawUniform) {
        let start = self.offset(draw, slot) as usize;
        let bytes = bytemuck::bytes_of(uniform);
        self.bytes[start..start + bytes.len()].copy_from_slice(bytes);
    }

    /// Uploads every slot (once, when the model is uploaded).
    pub fn upload_all(&self, queue: &wgpu::Queue) {
        queue.write_buffer(&self.buffer, 0, &self.bytes);
    }

    /// Uploads the slots that change from frame to frame.
    pub fn upload_frame(&self, queue: &wgpu::Queue) {
        let end = FRAME_SLOTS * self.draws * self.stride;
        queue.write_buffer(&self.buffer, 0, &self.bytes[..end]);
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
