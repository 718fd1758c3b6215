//! A crowd on the GPU: every instance's skin matrices, and the draws that show them.
//!
//! Draws the GPU skins are instanced: `instance_index` picks the instance's block of matrices
//! (`select_instance` in skinning.wgsl), whose grid offset the CPU has already applied.
//! - Storage palettes: every instance's palettes (all skins, `Crowd::palette_block` matrices
//!   each) in one storage buffer, one instanced draw per draw. A crowd larger than one binding
//!   allows is split into chunks, one draw each.
//! - Uniform arrays: a `pose` array holds `max_joints / skin joints` instances (the skin's
//!   joint matrices, one block after another; `inv_bind_pose` is shared), so the crowd is
//!   drawn in several instanced draws, one per chunk, each with its own array. A skin larger
//!   than one array is skinned on the CPU (below), as it is outside a crowd.
//!
//! Instances are written in detail order (`view::crowd_detail`: nearest first), so that each of a
//! draw's coarser copies serves a contiguous run of instances: one instanced draw per level.
//!
//! The fallback for every other draw (CPU skinning chosen, morph targets, skins too large for
//! the uniform arrays, static meshes): the CPU poses it once per instance into a vertex buffer
//! of all instances' world-space vertices, and each instance is one draw of its slice. That
//! buffer holds at most `MAX_CPU_VERTICES`: copies past it are left out of the draw.

use glam::{Mat4, Vec3};

use super::crowd_levels::DrawLevels;
use super::gpu::Gpu;
use super::gpu_skins::skin_group;
use super::layouts::Layouts;
use super::model_buffers::{DrawBuffers, ModelBuffers, filled_buffer};
use super::skin_source::SkinSource;
use crate::anim::Pose;
use crate::asset::Model;
use crate::asset::Topology;
use crate::skin::Deformer;
use crate::view::crowd::Crowd;
use crate::view::crowd_detail::{DetailOrder, detail_levels};
use crate::view::{CameraView, ViewOptions};

/// Vertices the CPU fallback poses for one draw of a whole crowd (16 Mi: 384 MiB of positions
/// and normals, twice over with the GPU's copy); copies past it are left out of that draw.
const MAX_CPU_VERTICES: usize = 1 << 24;
const MATRIX: u64 = std::mem::size_of::<Mat4>() as u64;
const VEC3: u64 = std::mem::size_of::<Vec3>() as u64;

/// Consecutive instances whose matrices one buffer holds, drawn by one instanced draw.
struct Chunk {
    first: usize,
    count: usize,
    matrices: wgpu::Buffer,
    /// Group 1 with `matrices` (and the skin's `inv_bind_pose` for uniform arrays).
    group: wgpu::BindGroup,
}

/// A draw's vertices posed on the CPU for the first `instances` instances (every one unless
/// they pass `MAX_CPU_VERTICES`), `vertex_count` per instance.
struct CpuPosed {
    instances: usize,
    positions: wgpu::Buffer,
    normals: wgpu::Buffer,
    positions_scratch: Vec<Vec3>,
    normals_scratch: Vec<Vec3>,
}

pub struct CrowdBuffers {
    instances: usize,
    source: SkinSource,
    /// Per skin, its chunks (storage palettes: every skin shares the same chunks).
    chunks: Vec<Vec<Chunk>>,
    /// One chunk's `pose` array as it is gathered (uniform arrays only).
    scratch: Vec<Mat4>,
    /// Per draw, its CPU-posed vertices, made when the draw is first posed on the CPU.
    cpu: Vec<Option<CpuPosed>>,
    /// Per draw the GPU skins, its coarser copies (none for small meshes).
    levels: Vec<Option<DrawLevels>>,
    /// This frame's instances, nearest first: the order their matrices are written in.
    order: DetailOrder,
    /// An identity copy placement per instance: a crowd draws a node's mesh once per instance,
    /// without the node's own copies (EXT_mesh_gpu_instancing).
    single_copies: wgpu::Buffer,
}

impl CrowdBuffers {
    /// Buffers for `crowd` of `model`, whose draws are `buffers`.
    pub fn new(gpu: &Gpu, layouts: &Layouts, model: &Model, buffers: &ModelBuffers, crowd: &Crowd) -> Self {
        let device = &gpu.device;
        let instances = crowd.len();
        let source = layouts.skin_source;
        let group = |matrices: &wgpu::Buffer, inverse_bind: Option<&wgpu::Buffer>| {
            skin_group(
                device,
                layouts,
                "crowd skin",
                (matrices, inverse_bind),
                buffers.uniforms.binding(),
            )
        };
        let chunks_of = |per_chunk: usize, length: Option<usize>, usage, inverse_bind: Option<&wgpu::Buffer>| {
            (0..instances)
                .step_by(per_chunk)
                .map(|first| {
                    let count = per_chunk.min(instances - first);
                    let matrices = device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("crowd matrices"),
                        size: length.unwrap_or(count * crowd.palette_block()) as u64 * MATRIX,
                        usage: usage | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    });
                    let group = group(&matrices, inverse_bind);
                    Chunk {
                        first,
                        count,
                        matrices,
                        group,
                    }
                })
                .collect::<Vec<_>>()
        };
        let (chunks, scratch) = match source {
            SkinSource::StoragePalette => {
                let limit = device.limits().max_storage_buffer_binding_size / MATRIX;
                let per_chunk = (limit as usize / crowd.palette_block()).max(1);
                let shared = || chunks_of(per_chunk, None, wgpu::BufferUsages::STORAGE, None);
                (model.skins.iter().map(|_| shared()).collect(), Vec::new())
            }
            SkinSource::UniformArrays { max_joints } => {
                let chunks = (model.skins.iter().enumerate())
                    .map(|(index, skin)| match buffers.skins.inverse_bind(index) {
                        Some(inverse_bind) if source.fits(skin.joints.len()) && !skin.joints.is_empty() => {
                            let per_chunk = max_joints / skin.joints.len();
                            let usage = wgpu::BufferUsages::UNIFORM;
                            chunks_of(per_chunk, Some(max_joints), usage, Some(inverse_bind))
                        }
                        _ => Vec::new(),
                    })
                    .collect();
                (chunks, vec![Mat4::IDENTITY; max_joints])
            }
        };
        let levels = (buffers.draws.iter())
            .map(|draw| {
                let primitive = &model.meshes[model.instances[draw.instance].mesh].primitives[draw.primitive];
                let skinned = draw.skin.is_some() && draw.topology == Topology::Triangles;
                let levels =
                    skinned.then(|| detail_levels(&primitive.positions, &primitive.normals, &primitive.indices));
                DrawLevels::new(device, levels.unwrap_or_default())
            })
            .collect();
        Self {
            instances,
            source,
            chunks,
            scratch,
            cpu: buffers.draws.iter().map(|_| None).collect(),
            levels,
            order: DetailOrder::default(),
            single_copies: filled_buffer(device, "crowd copies", instances, wgpu::BufferUsages::VERTEX, |_| {
                Mat4::IDENTITY
            }),
        }
    }

    pub fn instances(&self) -> usize {
        self.instances
    }

    /// Per skin of `model`: where its matrices start in an instance's block, and the stride
    /// between blocks (what the draws' uniforms tell the shader).
    pub fn blocks(&self, model: &Model, crowd: &Crowd) -> Vec<[u32; 2]> {
        (model.skins.iter().enumerate())
            .map(|(index, skin)| match self.source {
                SkinSource::StoragePalette => [crowd.skin_offset(index) as u32, crowd.palette_block() as u32],
                SkinSource::UniformArrays { .. } => [0, skin.joints.len() as u32],
            })
            .collect()
    }

    /// Sorts the instances by how large they look through `camera` in a picture `height`
    /// pixels tall, picks each draw's level per instance, and uploads every instance's skin
    /// matrices (in that order) for the draws the GPU skins.
    pub fn upload_matrices(
        &mut self,
        queue: &wgpu::Queue,
        (model, crowd): (&Model, &Crowd),
        camera: &CameraView,
        height: u32,
    ) {
        let offsets = crowd.members.iter().map(|member| member.offset);
        self.order.update(&crowd.member_bounds, offsets, camera, height as f32);
        for levels in self.levels.iter_mut().flatten() {
            levels.update(&self.order);
        }
        let order = &self.order;
        match self.source {
            SkinSource::StoragePalette => {
                let block = crowd.palette_block();
                let block_bytes = block * MATRIX as usize;
                // Every skin shares its chunks: upload one list.
                for chunk in self.chunks.first().into_iter().flatten() {
                    let Some(size) = wgpu::BufferSize::new((chunk.count * block_bytes) as u64) else {
                        continue;
                    };
                    // Gathered straight into the upload's staging memory.
                    let Some(mut staging) = queue.write_buffer_with(&chunk.matrices, 0, size) else {
                        continue;
                    };
                    for (slot, instance) in order.instances(chunk.first..chunk.first + chunk.count).enumerate() {
                        let palette = &crowd.palettes()[instance * block..][..block];
                        staging
                            .slice(slot * block_bytes..(slot + 1) * block_bytes)
                            .copy_from_slice(bytemuck::cast_slice(palette));
                    }
                }
            }
            SkinSource::UniformArrays { .. } => {
                for (skin, chunks) in model.skins.iter().zip(&self.chunks) {
                    let joints = skin.joints.len();
                    for chunk in chunks {
                        let blocks = self.scratch.chunks_mut(joints).take(chunk.count);
                        let instances = order.instances(chunk.first..chunk.first + chunk.count);
                        for (instance, block) in instances.zip(blocks) {
                            let matrices = crowd.instance_matrices(instance);
                            for (slot, &joint) in block.iter_mut().zip(&skin.joints) {
                                *slot = matrices[joint];
                            }
                        }
                        let used = &self.scratch[..chunk.count * joints];
                        queue.write_buffer(&chunk.matrices, 0, bytemuck::cast_slice(used));
                    }
                }
            }
        }
    }

    /// Poses, once per instance, the draws the GPU does not skin (`first_pose` is instance
    /// 0's local pose, for its morph weights), and uploads their vertices. Uses `deformer`
    /// for each instance in turn, so it runs after anything that reads instance 0's posing.
    pub fn pose_on_cpu(
        &mut self,
        gpu: &Gpu,
        (model, crowd, first_pose): (&Model, &Crowd, &Pose),
        draws: &[DrawBuffers],
        deformer: &mut Deformer,
        view: &ViewOptions,
    ) {
        let on_cpu = |i: usize| draws[i].shown() && !draws[i].on_gpu(view.gpu_skinning);
        if !(0..draws.len()).any(on_cpu) {
            return;
        }
        let instances = self.instances;
        for (index, draw) in draws.iter().enumerate().filter(|&(i, _)| on_cpu(i)) {
            let fit = instances.min(MAX_CPU_VERTICES / draw.vertex_count.max(1)).max(1);
            self.cpu[index].get_or_insert_with(|| CpuPosed::new(&gpu.device, fit, draw.vertex_count));
        }
        // Only the copies that fit are posed (a huge mesh's copies past them are left out).
        let posed_copies = (0..draws.len())
            .filter(|&i| on_cpu(i))
            .filter_map(|i| self.cpu[i].as_ref().map(|cpu| cpu.instances))
            .max()
            .unwrap_or(0);
        for instance in 0..posed_copies {
            let pose = if instance == 0 {
                first_pose
            } else {
                crowd.instance_pose(instance)
            };
            let matrices = crowd.instance_matrices(instance);
            deformer.update(model, pose, matrices, view.skinning_method, on_cpu);
            for (index, posed) in deformer.primitives().iter().enumerate().filter(|&(i, _)| on_cpu(i)) {
                let Some(cpu) = self.cpu[index].as_mut().filter(|cpu| instance < cpu.instances) else {
                    continue;
                };
                let count = draws[index].vertex_count;
                let at = instance * count..(instance + 1) * count;
                if posed.positions.len() == count && posed.normals.len() == count {
                    cpu.positions_scratch[at.clone()].copy_from_slice(&posed.positions);
                    cpu.normals_scratch[at].copy_from_slice(&posed.normals);
                }
            }
        }
        for (index, cpu) in self.cpu.iter().enumerate() {
            if let Some(cpu) = cpu.as_ref().filter(|_| on_cpu(index)) {
                gpu.queue
                    .write_buffer(&cpu.positions, 0, bytemuck::cast_slice(&cpu.positions_scratch));
                gpu.queue
                    .write_buffer(&cpu.normals, 0, bytemuck::cast_slice(&cpu.normals_scratch));
            }
        }
    }

    /// The indices draw `index` (`count` of them at full detail) draws over every instance in
    /// the lit pass, `detailed` as `record_draw`.
    pub fn indices_drawn(
        &self,
        (index, draw): (usize, &DrawBuffers),
        count: u32,
        detailed: bool,
        gpu_skinning: bool,
    ) -> u64 {
        if let Some(skin) = draw.skin.filter(|_| draw.on_gpu(gpu_skinning)) {
            let instances = self
                .chunks
                .get(skin)
                .map_or(0, |chunks| chunks.iter().map(|c| c.count).sum()) as u32;
            return match self.levels[index].as_ref().filter(|_| detailed) {
                Some(levels) => levels.indices_drawn(instances, count),
                None => u64::from(instances) * u64::from(count),
            };
        }
        self.cpu[index]
            .as_ref()
            .map_or(0, |cpu| cpu.instances as u64 * u64::from(count))
    }

    /// Records draw `index` (its pipeline, vertex buffers and material already set; `uniform`
    /// is its uniform's dynamic offset; `indices` its index list and count) once for every
    /// instance: instanced from the crowd's matrices when the GPU skins it (by level of detail
    /// when `detailed`), else one draw per instance of its CPU-posed vertices.
    pub fn record_draw(
        &self,
        pass: &mut wgpu::RenderPass,
        (index, draw): (usize, &DrawBuffers),
        uniform: u32,
        (indices, count, detailed): (&wgpu::Buffer, u32, bool),
        gpu_skinning: bool,
    ) {
        pass.set_vertex_buffer(7, self.single_copies.slice(..));
        if let Some(skin) = draw.skin.filter(|_| draw.on_gpu(gpu_skinning)) {
            let levels = self.levels[index].as_ref().filter(|_| detailed);
            pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
            for chunk in self.chunks.get(skin).into_iter().flatten() {
                pass.set_bind_group(1, &chunk.group, &[uniform]);
                let instances = chunk.first as u32..(chunk.first + chunk.count) as u32;
                match levels {
                    Some(levels) => levels.draw(pass, instances, (indices, count)),
                    None => pass.draw_indexed(0..count, 0, 0..chunk.count as u32),
                }
            }
            return;
        }
        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
        let Some(cpu) = &self.cpu[index] else {
            return;
        };
        let bytes = draw.vertex_count as u64 * VEC3;
        for instance in 0..cpu.instances as u64 {
            let range = instance * bytes..(instance + 1) * bytes;
            pass.set_vertex_buffer(0, cpu.positions.slice(range.clone()));
            pass.set_vertex_buffer(1, cpu.normals.slice(range));
            pass.draw_indexed(0..count, 0, 0..1);
        }
    }
}

impl CpuPosed {
    fn new(device: &wgpu::Device, instances: usize, vertex_count: usize) -> Self {
        let vertices = instances * vertex_count;
        let buffer = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (vertices.max(1) as u64) * VEC3,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        Self {
            instances,
            positions: buffer("crowd positions"),
            normals: buffer("crowd normals"),
            positions_scratch: vec![Vec3::ZERO; vertices],
            normals_scratch: vec![Vec3::ZERO; vertices],
        }
    }
}
