//! A model's data on the GPU: vertex and index buffers, the skinning uniform arrays, per-draw
//! uniforms and materials. Made once per loaded model; per frame only uniforms and the
//! CPU-skinned vertex buffers are rewritten.

use glam::{Mat4, Vec2, Vec4};
use wgpu::util::DeviceExt;

use super::layouts::Layouts;
use super::scene::ViewOptions;
use super::skin_compare::{CaptureTarget, NOT_MEASURED};
use super::textures::MaterialTextures;
use super::uniforms::{DrawUniform, InfluenceVertex, Look};
use crate::asset::{Material, Model, Topology};
use crate::inspect::VertexView;
use crate::skin::{Deformer, SkinningMethod, posed_order};

/// Wireframe colour (linear RGBA).
const WIRE_COLOR: Vec4 = Vec4::new(0.05, 0.05, 0.06, 1.0);
/// The bind-pose ghost's colour and opacity (linear RGBA).
const GHOST_COLOR: Vec4 = Vec4::new(0.45, 0.75, 1.0, 0.28);

/// Buffers of one primitive of one mesh instance, in the deformer's primitive order.
pub struct DrawBuffers {
    /// Bind-space attributes as loaded (GPU skinning and static meshes read these).
    pub positions: wgpu::Buffer,
    pub normals: wgpu::Buffer,
    /// Rewritten each frame from the CPU deformer (CPU skinning, morph targets).
    pub posed_positions: wgpu::Buffer,
    pub posed_normals: wgpu::Buffer,
    pub uvs: wgpu::Buffer,
    pub influences: wgpu::Buffer,
    /// The vertex view's value per vertex (rewritten when the view changes, or every frame
    /// for the CPU-vs-GPU difference).
    pub view_values: wgpu::Buffer,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
    /// Each triangle edge once, for the wireframe.
    pub edges: wgpu::Buffer,
    pub edge_count: u32,
    /// Group 1 (skin arrays + draw uniform) for the lit, the wireframe and the ghost draw.
    pub solid_group: wgpu::BindGroup,
    pub wire_group: wgpu::BindGroup,
    /// The mesh as bound (its vertices as loaded, static meshes placed by the bind pose);
    /// written once.
    pub ghost_group: wgpu::BindGroup,
    pub solid_uniform: wgpu::Buffer,
    pub wire_uniform: wgpu::Buffer,
    pub material: usize,
    /// The skin that deforms it, if any.
    pub skin: Option<usize>,
    /// The GPU can skin this draw: it is skinned, has no morph targets, and its skin fits
    /// the uniform arrays.
    pub gpu_skinnable: bool,
    /// The primitive has morph targets (always posed on the CPU).
    pub morphed: bool,
    /// The instance's joint (static meshes are placed by its model matrix).
    pub joint: usize,
    /// Which mesh instance and which of its mesh's primitives this is.
    pub instance: usize,
    pub primitive: usize,
    pub vertex_count: usize,
    /// Draw it at all (triangles only; points and lines are not drawn).
    pub drawable: bool,
}

/// The skinning uniform arrays of one skin: `pose` (joint model matrices) and
/// `inv_bind_pose`, `max_joints` entries each.
pub struct SkinArrays {
    pub pose: wgpu::Buffer,
    pub inv_bind_pose: wgpu::Buffer,
    /// Whether the skin fits (`joints <= max_joints`); if not, its meshes are CPU-skinned.
    pub fits: bool,
}

pub struct ModelGpu {
    pub draws: Vec<DrawBuffers>,
    pub skins: Vec<SkinArrays>,
    pub materials: Vec<wgpu::BindGroup>,
    /// Problems met while uploading (undecodable textures, skins too big for the GPU path).
    pub notes: Vec<String>,
    /// Scratch for the pose array upload, kept so frames do not allocate.
    pose_scratch: Vec<[[f32; 4]; 4]>,
    /// The vertex view whose values `view_values` hold, and scratch for them (as long as
    /// the largest draw).
    pub(super) values_shown: Option<VertexView>,
    pub(super) value_scratch: Vec<f32>,
    /// The CPU-vs-GPU difference view's texture, made when the view is first shown.
    pub(super) capture: Option<CaptureTarget>,
}

fn buffer<T: bytemuck::Pod>(device: &wgpu::Device, label: &str, data: &[T], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    // wgpu rejects zero-sized vertex buffers in some backends: keep at least one element.
    let bytes: &[u8] = bytemuck::cast_slice(data);
    let padded;
    let contents = if bytes.is_empty() {
        padded = vec![0u8; 16];
        &padded[..]
    } else {
        bytes
    };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage,
    })
}

/// Each undirected triangle edge once, as line-list indices.
fn triangle_edges(indices: &[u32]) -> Vec<u32> {
    let mut edges: Vec<(u32, u32)> = indices
        .chunks_exact(3)
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges.into_iter().flat_map(|(a, b)| [a, b]).collect()
}

impl ModelGpu {
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &Layouts,
        model: &Model,
        max_joints: usize,
    ) -> Self {
        let mut notes = Vec::new();
        let array_bytes = (max_joints * 64) as u64;
        let skins: Vec<SkinArrays> = model
            .skins
            .iter()
            .map(|skin| {
                let fits = skin.joints.len() <= max_joints;
                if !fits {
                    notes.push(format!(
                        "skin '{}' has {} joints, more than the {max_joints} the GPU's uniform arrays hold: it is skinned on the CPU",
                        skin.name,
                        skin.joints.len()
                    ));
                }
                let mut inverse_bind = vec![Mat4::IDENTITY.to_cols_array_2d(); max_joints];
                for (slot, matrix) in inverse_bind.iter_mut().zip(&skin.inverse_bind) {
                    *slot = matrix.to_cols_array_2d();
                }
                SkinArrays {
                    pose: device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("pose"),
                        size: array_bytes,
                        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                        mapped_at_creation: false,
                    }),
                    inv_bind_pose: buffer(device, "inv_bind_pose", &inverse_bind, wgpu::BufferUsages::UNIFORM),
                    fits,
                }
            })
            .collect();
        // Static meshes bind identity arrays they never read.
        let identity = vec![Mat4::IDENTITY.to_cols_array_2d(); max_joints];
        let unused_pose = buffer(device, "unused pose", &identity, wgpu::BufferUsages::UNIFORM);

        let textures = MaterialTextures::new(device, queue, model, &mut notes);
        let default_material = Material::default();
        let mut materials: Vec<wgpu::BindGroup> = model
            .materials
            .iter()
            .enumerate()
            .map(|(index, material)| textures.bind_group(device, layouts, material, Some(index)))
            .collect();
        materials.push(textures.bind_group(device, layouts, &default_material, None));
        let default_material_index = materials.len() - 1;

        let bind_matrices = model.skeleton.bind_pose().to_model_matrices();
        let mut draws = Vec::new();
        for (instance_index, primitive_index) in posed_order(model) {
            let instance = model.instances[instance_index];
            let primitive = &model.meshes[instance.mesh].primitives[primitive_index];
            let vertices = primitive.vertex_count();
            let uvs = if primitive.uvs.is_empty() {
                vec![Vec2::ZERO; vertices]
            } else {
                primitive.uvs.clone()
            };
            let influences: Vec<InfluenceVertex> = match &primitive.skin_weights {
                Some(w) => (0..vertices)
                    .map(|v| InfluenceVertex {
                        joints: w.joints[v],
                        joints_extra: w.joints_extra.get(v).copied().unwrap_or_default(),
                        weights: w.weights[v],
                        weights_extra: w.weights_extra.get(v).copied().unwrap_or_default(),
                    })
                    .collect(),
                None => vec![InfluenceVertex::default(); vertices],
            };
            let triangles = primitive.topology == Topology::Triangles;
            let indices: &[u32] = if triangles { &primitive.indices } else { &[] };
            let edges = triangle_edges(indices);
            let skin = instance.skin.filter(|_| primitive.skin_weights.is_some());
            let gpu_skinnable = skin.is_some_and(|s| skins[s].fits) && primitive.morph_targets.is_empty();
            let may_pose_on_cpu = skin.is_some() || !primitive.morph_targets.is_empty();
            let vertex_usage = wgpu::BufferUsages::VERTEX;
            let posed_usage = wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST;
            let uniform = |model_matrix: Mat4, look: Look| {
                buffer(
                    device,
                    "draw",
                    &[DrawUniform::new(model_matrix, (false, false), look)],
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                )
            };
            let (solid_uniform, wire_uniform) = (
                uniform(Mat4::IDENTITY, Look::Lit),
                uniform(Mat4::IDENTITY, Look::Wire(WIRE_COLOR)),
            );
            // Skinned vertices as loaded are in the bind pose already; others follow their
            // joint's bind pose.
            let ghost_placement = if skin.is_some() {
                Mat4::IDENTITY
            } else {
                bind_matrices[instance.joint]
            };
            let ghost_uniform = uniform(ghost_placement, Look::Ghost(GHOST_COLOR));
            let (pose, inv_bind_pose) = match skin {
                Some(s) => (&skins[s].pose, &skins[s].inv_bind_pose),
                None => (&unused_pose, &unused_pose),
            };
            let group = |draw_uniform: &wgpu::Buffer| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("draw"),
                    layout: &layouts.draw,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: pose.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: inv_bind_pose.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: draw_uniform.as_entire_binding(),
                        },
                    ],
                })
            };
            draws.push(DrawBuffers {
                positions: buffer(device, "positions", &primitive.positions, vertex_usage),
                normals: buffer(device, "normals", &primitive.normals, vertex_usage),
                // Only skinned or morphed draws ever read CPU-posed vertices.
                posed_positions: buffer(
                    device,
                    "posed positions",
                    if may_pose_on_cpu { &primitive.positions[..] } else { &[] },
                    posed_usage,
                ),
                posed_normals: buffer(
                    device,
                    "posed normals",
                    if may_pose_on_cpu { &primitive.normals[..] } else { &[] },
                    posed_usage,
                ),
                uvs: buffer(device, "uvs", &uvs, vertex_usage),
                influences: buffer(device, "influences", &influences, vertex_usage),
                view_values: buffer(device, "vertex view", &vec![0f32; vertices], posed_usage),
                indices: buffer(device, "indices", indices, wgpu::BufferUsages::INDEX),
                index_count: indices.len() as u32,
                edges: buffer(device, "edges", &edges, wgpu::BufferUsages::INDEX),
                edge_count: edges.len() as u32,
                solid_group: group(&solid_uniform),
                wire_group: group(&wire_uniform),
                ghost_group: group(&ghost_uniform),
                solid_uniform,
                wire_uniform,
                material: primitive.material.unwrap_or(default_material_index),
                skin,
                gpu_skinnable,
                morphed: !primitive.morph_targets.is_empty(),
                joint: instance.joint,
                instance: instance_index,
                primitive: primitive_index,
                vertex_count: vertices,
                drawable: triangles && vertices > 0,
            });
        }
        let largest = draws.iter().map(|d| d.vertex_count).max().unwrap_or(0);
        Self {
            draws,
            skins,
            materials,
            notes,
            pose_scratch: vec![Mat4::IDENTITY.to_cols_array_2d(); max_joints],
            values_shown: None,
            value_scratch: vec![0.0; largest],
            capture: None,
        }
    }

    /// Uploads this frame's state: each skin's `pose` array from the deformer's model
    /// matrices; per draw, its uniform (GPU skinning on or off, the joint's model matrix for
    /// static meshes, material or vertex view colours) and, for draws posed on the CPU, the
    /// deformer's vertices; the vertex view's values when the view has changed (the
    /// CPU-vs-GPU difference writes its own each frame).
    pub fn upload(&mut self, queue: &wgpu::Queue, model: &Model, deformer: &Deformer, view: &ViewOptions) {
        let gpu_skinning = view.gpu_skinning;
        let dual_quaternion = view.skinning_method == SkinningMethod::DualQuaternion;
        let look = view.vertex_view.map_or(Look::Lit, |v| Look::View(v.ramp()));
        if let Some(vertex_view) = view.vertex_view
            && vertex_view != VertexView::SkinDifference
            && self.values_shown != view.vertex_view
        {
            for draw in &self.draws {
                let values = &mut self.value_scratch[..draw.vertex_count];
                vertex_view.fill(model, draw.instance, draw.primitive, values);
                queue.write_buffer(&draw.view_values, 0, bytemuck::cast_slice(values));
            }
            self.values_shown = view.vertex_view;
        }
        let matrices = deformer.model_matrices();
        for (skin, arrays) in model.skins.iter().zip(&self.skins) {
            for (slot, &joint) in self.pose_scratch.iter_mut().zip(&skin.joints) {
                *slot = matrices[joint].to_cols_array_2d();
            }
            let used = skin.joints.len().min(self.pose_scratch.len());
            queue.write_buffer(&arrays.pose, 0, bytemuck::cast_slice(&self.pose_scratch[..used]));
        }
        for (draw, posed) in self.draws.iter().zip(deformer.primitives()) {
            let on_gpu = draw.on_gpu(gpu_skinning);
            let uses_cpu_vertices = draw.uses_cpu_vertices(gpu_skinning);
            let model_matrix = if uses_cpu_vertices {
                Mat4::IDENTITY
            } else {
                matrices[draw.joint]
            };
            let skinning = (on_gpu, dual_quaternion);
            queue.write_buffer(
                &draw.solid_uniform,
                0,
                bytemuck::bytes_of(&DrawUniform::new(model_matrix, skinning, look)),
            );
            queue.write_buffer(
                &draw.wire_uniform,
                0,
                bytemuck::bytes_of(&DrawUniform::new(model_matrix, skinning, Look::Wire(WIRE_COLOR))),
            );
            if uses_cpu_vertices && !posed.positions.is_empty() {
                queue.write_buffer(&draw.posed_positions, 0, bytemuck::cast_slice(&posed.positions));
                queue.write_buffer(&draw.posed_normals, 0, bytemuck::cast_slice(&posed.normals));
            }
        }
    }

    /// Sets every vertex's difference view value to "not measured" (grey).
    pub(super) fn mark_unmeasured(&mut self, queue: &wgpu::Queue) {
        for draw in &self.draws {
            let values = &mut self.value_scratch[..draw.vertex_count];
            values.fill(NOT_MEASURED);
            queue.write_buffer(&draw.view_values, 0, bytemuck::cast_slice(values));
        }
        self.values_shown = Some(VertexView::SkinDifference);
    }
}

impl DrawBuffers {
    /// Skinned on the GPU this frame.
    pub fn on_gpu(&self, gpu_skinning: bool) -> bool {
        gpu_skinning && self.gpu_skinnable
    }

    /// Reads the CPU deformer's posed vertices (already in world space) this frame: it has
    /// morph targets, or it is skinned and not on the GPU.
    pub fn uses_cpu_vertices(&self, gpu_skinning: bool) -> bool {
        self.morphed || (self.skin.is_some() && !self.on_gpu(gpu_skinning))
    }
}
