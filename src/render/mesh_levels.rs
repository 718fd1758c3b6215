//! Fast quality's simplified copies of the meshes on the GPU (render/simplified.rs makes them),
//! and which one each draw uses this frame (view/triangle_budget.rs chooses). They are made on
//! a thread of their own, once per mesh primitive however many nodes draw it, so that the
//! first frames are not held up: until a mesh's copies arrive it is drawn whole.

use std::collections::HashSet;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use glam::{Vec2, Vec3};

use super::simplified::{SimplifiedLevel, SimplifyInput, simplified_levels};
use crate::asset::{Model, Topology};
use crate::view::triangle_budget::Level;

/// A mesh primitive: (mesh, primitive).
pub type PrimitiveKey = (usize, usize);

/// One draw's copies and this frame's choice among them.
#[derive(Default)]
pub struct DrawDetail {
    /// Its mesh's coarser copies, finest first: index buffer and index count.
    pub copies: Vec<(wgpu::Buffer, u32)>,
    /// The whole mesh, then each copy: the triangles it draws (every EXT_mesh_gpu_instancing
    /// copy's) and how far it may lie from the mesh in world units.
    pub levels: Vec<Level>,
    /// The draw's extent at rest (its bounding box's longest side, placed), in world units:
    /// what meshoptimizer's errors are fractions of.
    pub extent: f32,
    /// Half its vertices' bounding box's diagonal, in its mesh's space: with the box's centre,
    /// the sphere tested against the picture.
    pub radius: f32,
    /// The level the lit pass and the shadow pass draw this frame (0: the whole mesh).
    pub lit: usize,
    pub shadow: usize,
}

impl DrawDetail {
    /// The index buffer and count of `level`, `whole` being the mesh's own.
    pub fn indices<'a>(&'a self, whole: (&'a wgpu::Buffer, u32), level: usize) -> (&'a wgpu::Buffer, u32) {
        match level.checked_sub(1).and_then(|copy| self.copies.get(copy)) {
            Some((buffer, count)) => (buffer, *count),
            None => whole,
        }
    }

    /// Takes `made`, the copies of this draw's mesh, whose whole draws `whole_triangles`
    /// (times `copies` placements).
    pub fn take(&mut self, made: &[MadeCopy], whole_triangles: u32, copies: u32) {
        self.copies = made.iter().map(|(buffer, count, _)| (buffer.clone(), *count)).collect();
        let level = |indices: u32, relative_error: f32| Level {
            triangles: indices / 3 * copies,
            deviation: relative_error * self.extent,
        };
        self.levels = std::iter::once(level(whole_triangles * 3, 0.0))
            .chain(made.iter().map(|&(_, count, error)| level(count, error)))
            .collect();
    }
}

/// The copies of the model's triangle meshes, made on a thread of its own.
pub struct LevelMaker {
    made: Receiver<(PrimitiveKey, Vec<SimplifiedLevel>)>,
}

/// What a mesh primitive hands the thread: its positions, normals, texture coordinates and
/// indices.
type Input = (PrimitiveKey, Vec<Vec3>, Vec<Vec3>, Vec<Vec2>, Vec<u32>);

impl LevelMaker {
    /// Starts making the copies of `model`'s triangle meshes that `wanted` names (each once).
    /// The meshes' data is copied for the thread; it stops early when the maker is dropped.
    pub fn start(model: &Model, wanted: impl Iterator<Item = PrimitiveKey>) -> Self {
        let mut taken = HashSet::new();
        let mut inputs: Vec<Input> = Vec::new();
        for key @ (mesh, primitive) in wanted {
            let Some(p) = model.meshes.get(mesh).and_then(|m| m.primitives.get(primitive)) else {
                continue;
            };
            if p.topology == Topology::Triangles && taken.insert(key) {
                let (positions, normals) = (p.positions.clone(), p.normals.clone());
                inputs.push((key, positions, normals, p.uvs.clone(), p.indices.clone()));
            }
        }
        let (sender, made) = mpsc::channel();
        std::thread::spawn(move || {
            for (key, positions, normals, uvs, indices) in inputs {
                let input = SimplifyInput {
                    positions: &positions,
                    normals: &normals,
                    uvs: &uvs,
                    indices: &indices,
                };
                if sender.send((key, simplified_levels(&input))).is_err() {
                    return;
                }
            }
        });
        Self { made }
    }

    /// Hands each mesh primitive's copies made since the last call to `take`, on the GPU
    /// (each copy's index buffer, index count and relative error); true once every mesh's
    /// copies have been handed over.
    pub fn take_made(&self, device: &wgpu::Device, mut take: impl FnMut(PrimitiveKey, &[MadeCopy])) -> bool {
        loop {
            match self.made.try_recv() {
                Ok((key, levels)) => take(key, &upload(device, levels)),
                Err(TryRecvError::Empty) => return false,
                Err(TryRecvError::Disconnected) => return true,
            }
        }
    }

    /// Waits for every mesh's copies and hands them to `take` (for still images and tests,
    /// which draw one frame).
    pub fn wait(&self, device: &wgpu::Device, mut take: impl FnMut(PrimitiveKey, &[MadeCopy])) {
        for (key, levels) in &self.made {
            take(key, &upload(device, levels));
        }
    }
}

/// A copy on the GPU: its index buffer, index count and relative error.
pub type MadeCopy = (wgpu::Buffer, u32, f32);

fn upload(device: &wgpu::Device, levels: Vec<SimplifiedLevel>) -> Vec<MadeCopy> {
    use wgpu::util::DeviceExt;
    (levels.into_iter())
        .map(|level| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("simplified indices"),
                contents: bytemuck::cast_slice(&level.indices),
                usage: wgpu::BufferUsages::INDEX,
            });
            (buffer, level.indices.len() as u32, level.relative_error)
        })
        .collect()
}
