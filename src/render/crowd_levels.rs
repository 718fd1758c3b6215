//! A crowd draw's coarser copies on the GPU (`view::crowd_detail`): their index lists in one
//! buffer, and this frame's run of instances for each level.

use std::ops::Range;

use wgpu::util::DeviceExt;

use crate::view::crowd_detail::{DetailLevel, DetailOrder};

pub struct DrawLevels {
    /// Every coarser level's indices, one level after another.
    indices: wgpu::Buffer,
    /// Per coarser level: its indices' range in `indices`, and its relative error.
    levels: Vec<(Range<u32>, f32)>,
    /// This frame's first instance (in detail order) of each level, the whole mesh first.
    starts: Vec<u32>,
}

impl DrawLevels {
    /// The GPU copy of `levels` (`None` when there are none).
    pub fn new(device: &wgpu::Device, levels: Vec<DetailLevel>) -> Option<Self> {
        if levels.is_empty() {
            return None;
        }
        let all: Vec<u32> = levels.iter().flat_map(|level| level.indices.iter().copied()).collect();
        let indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("crowd detail levels"),
            contents: bytemuck::cast_slice(&all),
            usage: wgpu::BufferUsages::INDEX,
        });
        let mut first = 0;
        let levels = levels
            .iter()
            .map(|level| {
                let count = level.indices.len() as u32;
                first += count;
                (first - count..first, level.relative_error)
            })
            .collect::<Vec<_>>();
        let starts = Vec::with_capacity(levels.len() + 1);
        Some(Self {
            indices,
            levels,
            starts,
        })
    }

    /// Which instances (in `order`) each level serves this frame.
    pub fn update(&mut self, order: &DetailOrder) {
        order.level_starts(self.levels.iter().map(|(_, error)| *error), &mut self.starts);
    }

    /// Draws instances `chunk` (positions in detail order; the chunk's first is instance 0 of
    /// the draw) each with its level: the whole mesh from `whole` (`count` indices), the
    /// coarser ones from this draw's buffer.
    pub fn draw(&self, pass: &mut wgpu::RenderPass, chunk: Range<u32>, (whole, count): (&wgpu::Buffer, u32)) {
        let instances = |level: usize| {
            let start = self.starts.get(level).copied().unwrap_or(u32::MAX);
            let end = self.starts.get(level + 1).copied().unwrap_or(u32::MAX);
            // Levels past the crowd's end, or with no instance this frame, draw nothing.
            let (start, end) = (start.max(chunk.start), end.min(chunk.end));
            (start < end).then(|| start - chunk.start..end - chunk.start)
        };
        if let Some(instances) = instances(0) {
            pass.set_index_buffer(whole.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..count, 0, instances);
        }
        let mut bound = false;
        for (level, (indices, _)) in self.levels.iter().enumerate() {
            let Some(instances) = instances(level + 1) else {
                continue;
            };
            if !bound {
                pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
                bound = true;
            }
            pass.draw_indexed(indices.clone(), 0, instances);
        }
    }

    /// Indices drawn over the first `instances` (in detail order): the whole mesh's `count`
    /// for the nearest, each level's own for its run.
    pub fn indices_drawn(&self, instances: u32, count: u32) -> u64 {
        (0..=self.levels.len())
            .map(|level| {
                let start = self.starts.get(level).map_or(instances, |&s| s.min(instances));
                let end = self.starts.get(level + 1).map_or(instances, |&s| s.min(instances));
                let per_instance = match level {
                    0 => count,
                    _ => self.levels[level - 1].0.len() as u32,
                };
                u64::from(end.saturating_sub(start)) * u64::from(per_instance)
            })
            .sum()
    }
}
