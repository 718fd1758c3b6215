//! The overlays' vertices on the GPU: lines first, then the squares' triangles, in one vertex
//! buffer that grows (to the next power of two) only when a frame needs more.

use super::gpu::Gpu;
use super::overlay::Overlay;
use super::uniforms::OverlayVertex;

pub struct OverlayBuffer {
    pub buffer: wgpu::Buffer,
    capacity: usize,
    /// Vertices assembled for the frame, kept so frames do not allocate.
    lines: Vec<OverlayVertex>,
    squares: Vec<OverlayVertex>,
    /// What the last `write` put in the buffer: line vertices, then square vertices.
    pub line_count: u32,
    pub square_count: u32,
}

fn vertex_buffer(device: &wgpu::Device, vertices: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("overlay"),
        size: (vertices * std::mem::size_of::<OverlayVertex>()) as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl OverlayBuffer {
    pub fn new(device: &wgpu::Device) -> Self {
        const INITIAL: usize = 1024;
        Self {
            buffer: vertex_buffer(device, INITIAL),
            capacity: INITIAL,
            lines: Vec::new(),
            squares: Vec::new(),
            line_count: 0,
            square_count: 0,
        }
    }

    /// Uploads the vertices of `overlays`; `aspect` (width / height) keeps squares square.
    pub fn write(&mut self, gpu: &Gpu, overlays: [&Overlay; 2], aspect: f32) {
        self.lines.clear();
        self.squares.clear();
        for overlay in overlays {
            self.lines.extend_from_slice(overlay.lines());
            overlay.square_vertices(aspect, &mut self.squares);
        }
        self.line_count = self.lines.len() as u32;
        self.square_count = self.squares.len() as u32;
        let total = self.lines.len() + self.squares.len();
        if total == 0 {
            return;
        }
        if total > self.capacity {
            self.capacity = total.next_power_of_two();
            self.buffer = vertex_buffer(&gpu.device, self.capacity);
        }
        let line_bytes = (self.lines.len() * std::mem::size_of::<OverlayVertex>()) as u64;
        gpu.queue
            .write_buffer(&self.buffer, 0, bytemuck::cast_slice(&self.lines));
        gpu.queue
            .write_buffer(&self.buffer, line_bytes, bytemuck::cast_slice(&self.squares));
    }
}
