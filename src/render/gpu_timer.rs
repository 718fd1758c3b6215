//! The GPU's time for a frame, where the adapter reports timestamps (`TIMESTAMP_QUERY`).
//!
//! Two timestamps bracket a frame's commands: an empty compute pass writes one before the first
//! pass and another after the last (compute-pass timestamps need only `TIMESTAMP_QUERY`, not
//! the rarer timestamps inside encoders). They are resolved into a buffer and copied into one of
//! a few small read-back buffers, which is mapped without waiting; a later frame reads it. The
//! time shown is therefore a frame or two old, and a frame finds every slot busy only when the
//! GPU runs that far behind (it is then not measured).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::gpu::Gpu;

/// Frames that may be measured at once (in flight or waiting to be read).
const SLOTS: usize = 3;
/// Bytes of one slot's two timestamps.
const SLOT_BYTES: u64 = 16;

/// A slot's read-back state, shared with the map callback.
const FREE: u8 = 0;
const IN_FLIGHT: u8 = 1;
const MAPPED: u8 = 2;

/// Measures the GPU time between [`GpuTimer::begin`] and [`GpuTimer::end`] of a frame.
pub struct GpuTimer {
    queries: wgpu::QuerySet,
    /// Where the query set resolves: one aligned block per slot.
    resolved: wgpu::Buffer,
    slots: [Slot; SLOTS],
    /// The slot the frame being recorded measures with.
    recording: Option<usize>,
    /// Nanoseconds per timestamp tick.
    period_ns: f32,
    /// Frames begun so far.
    frames: u64,
}

struct Slot {
    readback: wgpu::Buffer,
    state: Arc<AtomicU8>,
    /// Which frame it measures (counted by `begin`), to tell the newest of several.
    frame: u64,
}

impl GpuTimer {
    /// A timer, or `None` when the device cannot write timestamps.
    pub fn new(gpu: &Gpu) -> Option<Self> {
        if !gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let device = &gpu.device;
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("frame timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2 * SLOTS as u32,
        });
        let resolved = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame timestamps, resolved"),
            size: wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT * SLOTS as u64,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let slots = std::array::from_fn(|_| Slot {
            readback: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("frame timestamps, read back"),
                size: SLOT_BYTES,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            state: Arc::new(AtomicU8::new(FREE)),
            frame: 0,
        });
        Some(Self {
            queries,
            resolved,
            slots,
            recording: None,
            period_ns: gpu.queue.get_timestamp_period(),
            frames: 0,
        })
    }

    /// The GPU seconds of the newest frame measured since the last call, if one finished.
    pub fn read(&mut self, gpu: &Gpu) -> Option<f32> {
        // Runs the map callbacks of finished frames; never waits.
        let _ = gpu.device.poll(wgpu::PollType::Poll);
        let mut newest: Option<(u64, f32)> = None;
        for slot in &self.slots {
            if slot.state.load(Ordering::Acquire) != MAPPED {
                continue;
            }
            let ticks = slot.readback.slice(..).get_mapped_range().ok().map(|data| {
                let stamp = |at: usize| u64::from_le_bytes(std::array::from_fn(|i| data[at + i]));
                stamp(8).saturating_sub(stamp(0))
            });
            slot.readback.unmap();
            slot.state.store(FREE, Ordering::Release);
            if let Some(ticks) = ticks
                && newest.is_none_or(|(frame, _)| slot.frame > frame)
            {
                newest = Some((slot.frame, ticks as f32 * self.period_ns * 1e-9));
            }
        }
        newest.map(|(_, seconds)| seconds)
    }

    /// Writes the frame's first timestamp into `encoder`, when a slot is free.
    pub fn begin(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.recording = self
            .slots
            .iter()
            .position(|slot| slot.state.load(Ordering::Acquire) == FREE);
        if let Some(slot) = self.recording {
            self.frames += 1;
            self.slots[slot].frame = self.frames;
            self.timestamp_pass(encoder, Some(2 * slot as u32), None);
        }
    }

    /// Writes the frame's last timestamp and copies both where [`GpuTimer::submitted`] maps them.
    pub fn end(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let Some(slot) = self.recording else {
            return;
        };
        let first = 2 * slot as u32;
        self.timestamp_pass(encoder, None, Some(first + 1));
        let offset = wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT * slot as u64;
        encoder.resolve_query_set(&self.queries, first..first + 2, &self.resolved, offset);
        encoder.copy_buffer_to_buffer(&self.resolved, offset, &self.slots[slot].readback, 0, SLOT_BYTES);
    }

    /// After the frame's commands were submitted: maps the timestamps for a later
    /// [`GpuTimer::read`].
    pub fn submitted(&mut self) {
        let Some(slot) = self.recording.take() else {
            return;
        };
        let Slot { readback, state, .. } = &self.slots[slot];
        state.store(IN_FLIGHT, Ordering::Release);
        let state = Arc::clone(state);
        readback.map_async(wgpu::MapMode::Read, .., move |result| {
            state.store(if result.is_ok() { MAPPED } else { FREE }, Ordering::Release);
        });
    }

    fn timestamp_pass(&self, encoder: &mut wgpu::CommandEncoder, beginning: Option<u32>, end: Option<u32>) {
        encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("frame timestamp"),
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &self.queries,
                beginning_of_pass_write_index: beginning,
                end_of_pass_write_index: end,
            }),
        });
    }
}
