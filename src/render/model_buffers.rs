//! A model's data on the GPU: vertex and index buffers, the skins' matrices, every draw's
//! uniform, the materials, and the vertex view's values. Made once per loaded model; a frame
//! rewrites the uniforms, the skins' matrices and the CPU-posed vertex buffers.

use glam::{Mat4, Vec2, Vec3, Vec4};

use super::animated::AnimatedState;
use super::draw_uniforms::{DrawSlot, DrawUniforms};
use super::gpu_skins::GpuSkins;
use super::layouts::Layouts;
use super::mesh_levels::{DrawDetail, LevelMaker, MadeCopy, PrimitiveKey};
use super::pipelines::MESH_BUFFER_COUNT;
use super::simplified::placed_bounds;
use super::textures::{MaterialBinding, MaterialTextures};
use super::uniforms::{DrawUniform, InfluenceVertex, Look, Skinning};
use crate::asset::material::AlphaMode;
use crate::asset::{Material, MeshInstance, Model, Topology};
use crate::inspect::VertexView;
use crate::inspect::skin_difference::NOT_MEASURED;
use crate::lint::invisible;
use crate::skin::{Deformer, posed_order};
use crate::view::triangle_budget::{frame_deviation, lit_and_shadow_levels};
use crate::view::{CameraView, ViewOptions};

/// Wireframe colour (linear RGBA).
const WIRE_COLOR: Vec4 = Vec4::new(0.05, 0.05, 0.06, 1.0);
/// The bind-pose ghost's colour and opacity (linear RGBA).
const GHOST_COLOR: Vec4 = Vec4::new(0.45, 0.75, 1.0, 0.28);
/// The compare view's second model drawn as a ghost over the first (`ModelBuffers::ghost`):
/// magenta, apart from skin tones, the bind-pose ghost's blue and the heat ramp.
pub const COMPARE_GHOST_COLOR: Vec4 = Vec4::new(1.0, 0.2, 0.85, 0.6);

/// Buffers of one primitive of one mesh instance, in the deformer's primitive order.
pub struct DrawBuffers {
    /// Bind-space attributes as loaded (GPU skinning and static meshes read these).
    pub positions: wgpu::Buffer,
    pub normals: wgpu::Buffer,
    /// Rewritten each frame from the CPU deformer (CPU skinning, morph targets).
    pub posed_positions: wgpu::Buffer,
    pub posed_normals: wgpu::Buffer,
    /// Bind-space tangents and, for draws posed on the CPU, this frame's.
    pub tangents: Option<wgpu::Buffer>,
    pub posed_tangents: Option<wgpu::Buffer>,
    /// TEXCOORD_0 and TEXCOORD_1, COLOR_0 and the skin's influences. An attribute that is
    /// None here reads `ModelBuffers::zeros` (colours then read as white).
    pub uvs: Option<wgpu::Buffer>,
    pub uvs1: Option<wgpu::Buffer>,
    pub colors: Option<wgpu::Buffer>,
    pub influences: Option<wgpu::Buffer>,
    /// The vertex view's value per vertex (rewritten when the view changes, or every frame
    /// for the CPU-vs-GPU difference).
    pub view_values: wgpu::Buffer,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
    /// Each triangle edge once, for the wireframe, and how many indices that is (made when
    /// the wireframe is first shown: see `ModelBuffers::make_wireframe_edges`).
    pub edges: Option<(wgpu::Buffer, u32)>,
    /// Fast quality's simplified copies of the triangles and this frame's choice among them
    /// (made when first asked for: see `ModelBuffers::update_detail`).
    pub detail: DrawDetail,
    /// Its copies' placements and how many there are (EXT_mesh_gpu_instancing), rewritten
    /// each frame from its joint's model matrix; none for a draw drawn once.
    pub copies: Option<(wgpu::Buffer, u32)>,
    pub material: usize,
    pub topology: Topology,
    /// Its material is drawn double-sided (single-sided triangles are back-face culled).
    pub double_sided: bool,
    /// Its material blends (alpha mode BLEND): drawn after the opaque draws, back to front.
    pub blended: bool,
    /// Its material draws something, so it casts a shadow when shown (`shadow_casters`).
    pub material_casts_shadow: bool,
    /// The middle of its vertices' bounding box, in its mesh's space: what the blended draws
    /// are sorted by.
    pub center: Vec3,
    /// Its placement this frame mirrors it (a negative determinant flips the winding).
    pub mirrored: bool,
    /// Points and lines without normals in the file: drawn in their colours, unlit.
    pub unlit: bool,
    /// Shaded with each triangle's own normal (`Primitive::flat_shaded`).
    pub flat_shaded: bool,
    /// The skin that deforms it, if any.
    pub skin: Option<usize>,
    /// The GPU can skin this draw: it is skinned, has no morph targets, and its skin fits
    /// the skin source.
    pub gpu_skinnable: bool,
    /// The primitive has morph targets (always posed on the CPU).
    pub morphed: bool,
    /// The instance's joint (static meshes are placed by its model matrix).
    pub joint: usize,
    /// Which mesh instance and which of its mesh's primitives this is.
    pub instance: usize,
    pub primitive: usize,
    pub vertex_count: usize,
    /// It has something to draw.
    pub drawable: bool,
    /// Its node or an ancestor is hidden this frame (KHR_node_visibility).
    pub hidden: bool,
}

/// Where Fast quality's simplified copies stand.
enum DetailState {
    NotAsked,
    Making(LevelMaker),
    Made,
}

pub struct ModelBuffers {
    /// Unique to these buffers among all made while rigscope runs (what the shadow map was
    /// drawn from, `shadow_casters.rs`).
    pub id: u64,
    pub draws: Vec<DrawBuffers>,
    pub skins: GpuSkins,
    pub uniforms: DrawUniforms,
    /// One per model material, then the default material's.
    pub materials: Vec<MaterialBinding>,
    /// The pose's animated materials and node visibility.
    pub animated: AnimatedState,
    /// Problems met while uploading (undecodable textures, skins too big for the GPU path).
    pub notes: Vec<String>,
    /// The vertex view whose values `view_values` hold, and scratch for them (as long as
    /// the largest draw).
    values_shown: Option<VertexView>,
    value_scratch: Vec<f32>,
    /// The material variant the draws' materials are those of.
    variant_shown: Option<usize>,
    /// The simplified copies: not asked for yet, being made, or all made.
    detail: DetailState,
    /// While a crowd is shown: per skin, where its matrices start in an instance's block and
    /// the blocks' stride (`DrawUniform::in_crowd`). Draws the GPU does not skin are then
    /// posed per instance on the CPU, in world space.
    pub crowd_blocks: Option<Vec<[u32; 2]>>,
    /// One identity placement: the copy of every draw drawn once.
    single_copy: wgpu::Buffer,
    /// Zeros: what draws read for the attributes they lack (without tangents the shader takes
    /// the texture coordinates' derivatives; without colours it takes white), and crowd copies
    /// posed on the CPU for tangents (not posed). As long as the largest draw needs.
    zeros: wgpu::Buffer,
    /// The placements of one draw's copies as they are computed (as long as the most copies).
    copy_scratch: Vec<Mat4>,
    /// The blended draws, farthest from the camera first (`sort_by_distance`).
    pub blend_order: Vec<usize>,
    /// The blended draws' queues (MToon's render queue offset) and depths as they are sorted.
    blend_depths: Vec<(i32, f32, usize)>,
    /// The other draws, nearest the camera first (`sort_by_distance`): drawn so, a software
    /// rasteriser's early depth test skips shading what they hide.
    pub opaque_order: Vec<usize>,
    /// Their depths as they are sorted.
    opaque_depths: Vec<(f32, usize)>,
    /// Drawn as a translucent ghost of this colour (linear RGBA) instead of lit: the compare
    /// view's second model over the first (`SceneRenderer::record` draws it so).
    pub ghost: Option<Vec4>,
}

/// The next `ModelBuffers::id`.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn buffer<T: bytemuck::Pod>(device: &wgpu::Device, label: &str, data: &[T], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    filled_buffer(device, label, data.len(), usage, |i| data[i])
}

/// A buffer of `count` values, `value(i)` at `i`, written straight into the buffer's mapped
/// memory: no copy of a big mesh's attributes is assembled first.
pub(super) fn filled_buffer<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    count: usize,
    usage: wgpu::BufferUsages,
    value: impl Fn(usize) -> T,
) -> wgpu::Buffer {
    // wgpu rejects zero-sized vertex buffers in some backends: keep at least 16 bytes.
    let size = (count * std::mem::size_of::<T>()).max(16);
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT as usize) as u64,
        usage,
        mapped_at_creation: true,
    });
    {
        let mut mapped = buffer
            .get_mapped_range_mut(..)
            .expect("a buffer made mapped can be written");
        // Mapped memory need not be aligned for `T`: values go through a chunk of them.
        const CHUNK: usize = 256;
        let element = std::mem::size_of::<T>();
        let mut chunk = [T::zeroed(); CHUNK];
        for start in (0..count).step_by(CHUNK) {
            let values = &mut chunk[..CHUNK.min(count - start)];
            for (offset, slot) in values.iter_mut().enumerate() {
                *slot = value(start + offset);
            }
            let bytes = start * element..(start + values.len()) * element;
            mapped.slice(bytes).copy_from_slice(bytemuck::cast_slice(values));
        }
    }
    buffer.unmap();
    buffer
}

/// A buffer of `count` zeros (wgpu clears new buffers, so nothing is written).
fn zeroed_buffer<T>(device: &wgpu::Device, label: &str, count: usize, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (count * std::mem::size_of::<T>()).max(16) as u64,
        usage,
        mapped_at_creation: false,
    })
}

/// Lets the GPU take the buffers made so far, once they hold `FLUSH_BYTES`: until a submission
/// completes, wgpu keeps a staging copy of every buffer made with data, so a big model's
/// buffers would otherwise be in memory twice.
struct StagingFlush<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    pending: u64,
}

const FLUSH_BYTES: u64 = 32 << 20;

impl StagingFlush<'_> {
    fn made(&mut self, draw: &DrawBuffers) {
        let buffers = [
            &draw.positions,
            &draw.normals,
            &draw.posed_positions,
            &draw.posed_normals,
            &draw.indices,
        ];
        let optional = [
            &draw.tangents,
            &draw.posed_tangents,
            &draw.uvs,
            &draw.uvs1,
            &draw.colors,
            &draw.influences,
        ];
        let present = optional.into_iter().flatten();
        self.pending += buffers.into_iter().chain(present).map(|b| b.size()).sum::<u64>();
        if self.pending >= FLUSH_BYTES {
            self.queue.submit([]);
            // Only frees memory: a failed wait leaves the copies until the next frame's.
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
            self.pending = 0;
        }
    }
}

/// Whether `material` (an index into the model's materials; past them, the default material)
/// blends.
fn blends(model: &Model, material: usize) -> bool {
    model
        .materials
        .get(material)
        .is_some_and(|m| m.alpha == AlphaMode::Blend)
}

/// Where `instance`'s vertices are placed at rest, given the rest pose's model matrices: its
/// joint's matrix, or for a skinned mesh its first joint's skinning matrix (which carries the
/// bind space's scale: an armature's 0.01, say).
fn rest_placement(model: &Model, instance: &MeshInstance, rest: &[Mat4]) -> Mat4 {
    let skin = instance.skin.and_then(|skin| model.skins.get(skin));
    match skin.and_then(|skin| Some((skin.joints.first()?, skin.inverse_bind.first()?))) {
        Some((&joint, inverse_bind)) => rest[joint] * *inverse_bind,
        None => rest[instance.joint],
    }
}

/// How much `placement` enlarges a length at most (its longest axis).
fn largest_scale(placement: &Mat4) -> f32 {
    let axes = [placement.x_axis, placement.y_axis, placement.z_axis];
    axes.iter().map(|axis| axis.truncate().length()).fold(0.0, f32::max)
}

/// The middle of the bounding box of `positions` (the origin for none).
fn bounding_center(positions: &[Vec3]) -> Vec3 {
    let Some(&first) = positions.first() else {
        return Vec3::ZERO;
    };
    let (min, max) = (positions.iter()).fold((first, first), |(min, max), &p| (min.min(p), max.max(p)));
    (min + max) / 2.0
}

/// Fills `order` with the draws of `depths` (view-space z of a camera looking down −Z, and
/// the draw's index), the nearest first; draws as near as each other keep their index order.
fn nearest_first(depths: &mut [(f32, usize)], order: &mut Vec<usize>) {
    depths.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    order.clear();
    order.extend(depths.iter().map(|&(_, index)| index));
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

impl ModelBuffers {
    /// Uploads `model`, its textures at most `texture_side` texels a side (`Gpu::texture_side`).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &Layouts,
        model: &Model,
        texture_side: u32,
    ) -> Self {
        let mut notes = Vec::new();
        let draw_count = posed_order(model).count();
        let mut uniforms = DrawUniforms::new(device, draw_count);
        let skins = GpuSkins::new(device, layouts, model, &uniforms, &mut notes);

        let textures = MaterialTextures::new(device, queue, model, texture_side, &mut notes);
        let default_material = Material::default();
        let mut materials: Vec<MaterialBinding> = model
            .materials
            .iter()
            .enumerate()
            .map(|(index, material)| textures.bind_group(device, layouts, material, Some(index)))
            .collect();
        materials.push(textures.bind_group(device, layouts, &default_material, None));
        let default_material_index = materials.len() - 1;

        let bind_matrices = model.skeleton.bind_pose().to_model_matrices();
        let mut draws = Vec::with_capacity(draw_count);
        let mut staging = StagingFlush {
            device,
            queue,
            pending: 0,
        };
        for (instance_index, primitive_index) in posed_order(model) {
            let instance = model.instances[instance_index];
            let primitive = &model.meshes[instance.mesh].primitives[primitive_index];
            let vertices = primitive.vertex_count();
            let vertex_usage = wgpu::BufferUsages::VERTEX;
            // Absent attributes read `zeros`.
            let uvs_if_any = |label: &str, values: &[Vec2]| {
                (!values.is_empty()).then(|| buffer(device, label, values, vertex_usage))
            };
            let (uvs, uvs1) = (
                uvs_if_any("uvs", &primitive.uvs),
                uvs_if_any("second uvs", &primitive.uvs1),
            );
            let colors =
                (!primitive.colors.is_empty()).then(|| buffer(device, "colours", &primitive.colors, vertex_usage));
            let influences = primitive.skin_weights.as_ref().map(|w| {
                filled_buffer(device, "influences", vertices, vertex_usage, |v| InfluenceVertex {
                    joints: w.joints[v],
                    joints_extra: w.joints_extra.get(v).copied().unwrap_or_default(),
                    weights: w.weights[v],
                    weights_extra: w.weights_extra.get(v).copied().unwrap_or_default(),
                    dual_quat_weight: w.dual_quat_weights.get(v).copied().unwrap_or(1.0),
                })
            });
            let triangles = primitive.topology == Topology::Triangles;
            let indices: &[u32] = &primitive.indices;
            let material = primitive.material.unwrap_or(default_material_index);
            let skin = instance.skin.filter(|_| primitive.skin_weights.is_some());
            let gpu_skinnable = skin.is_some_and(|s| skins.fits(s)) && primitive.morph_targets.is_empty();
            let may_pose_on_cpu = skin.is_some() || !primitive.morph_targets.is_empty();
            let posed_usage = wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST;
            let has_tangents = !primitive.tangents.is_empty();
            // Skinned vertices as loaded are in the bind pose already; others follow their
            // joint's bind pose.
            let ghost_placement = if skin.is_some() {
                Mat4::IDENTITY
            } else {
                bind_matrices[instance.joint]
            };
            uniforms.set(
                draws.len(),
                DrawSlot::Ghost,
                &DrawUniform::new(ghost_placement, Skinning::None, Look::Ghost(GHOST_COLOR)),
            );
            let copies = model.copies_of(instance_index).map(|copies| {
                let count = copies.transforms.len();
                let usage = wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST;
                (zeroed_buffer::<Mat4>(device, "copies", count, usage), count as u32)
            });
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
                tangents: has_tangents.then(|| buffer(device, "tangents", &primitive.tangents, vertex_usage)),
                posed_tangents: (has_tangents && may_pose_on_cpu)
                    .then(|| buffer(device, "posed tangents", &primitive.tangents, posed_usage)),
                uvs,
                uvs1,
                colors,
                influences,
                view_values: zeroed_buffer::<f32>(device, "vertex view", vertices, posed_usage),
                indices: buffer(device, "indices", indices, wgpu::BufferUsages::INDEX),
                index_count: indices.len() as u32,
                edges: None,
                detail: DrawDetail::default(),
                copies,
                material,
                topology: primitive.topology,
                double_sided: model.materials.get(material).is_some_and(|m| m.double_sided),
                blended: blends(model, material),
                material_casts_shadow: invisible::draws_something(model, material),
                center: bounding_center(&primitive.positions),
                mirrored: false,
                unlit: !triangles && primitive.normals_computed,
                flat_shaded: primitive.flat_shaded,
                skin,
                gpu_skinnable,
                morphed: !primitive.morph_targets.is_empty(),
                joint: instance.joint,
                instance: instance_index,
                primitive: primitive_index,
                vertex_count: vertices,
                drawable: vertices > 0 && !indices.is_empty(),
                hidden: false,
            });
            staging.made(&draws[draws.len() - 1]);
        }
        uniforms.upload_all(queue);
        let largest = draws.iter().map(|d| d.vertex_count).max().unwrap_or(0);
        // Every draw may lack tangents (16 bytes a vertex); a draw without influences lacks 52.
        let zero_bytes = (draws.iter())
            .map(|d| {
                d.vertex_count
                    * if d.influences.is_some() {
                        16
                    } else {
                        size_of::<InfluenceVertex>()
                    }
            })
            .max()
            .unwrap_or(0);
        let blended = draws.iter().filter(|d| d.blended).count();
        let most_copies = model.copies.iter().map(|c| c.transforms.len()).max().unwrap_or(0);
        // In the file's order until the first frame sorts them; room for every draw, as a
        // material variant may make any of them opaque.
        let mut opaque_order = Vec::with_capacity(draw_count);
        opaque_order.extend(
            (draws.iter().enumerate())
                .filter(|(_, d)| !d.blended)
                .map(|(index, _)| index),
        );
        Self {
            draws,
            skins,
            uniforms,
            materials,
            animated: AnimatedState::new(model),
            notes,
            values_shown: None,
            value_scratch: vec![0.0; largest],
            variant_shown: None,
            detail: DetailState::NotAsked,
            crowd_blocks: None,
            single_copy: buffer(device, "single copy", &[Mat4::IDENTITY], wgpu::BufferUsages::VERTEX),
            zeros: zeroed_buffer::<u8>(device, "zeros", zero_bytes, wgpu::BufferUsages::VERTEX),
            copy_scratch: Vec::with_capacity(most_copies),
            blend_order: Vec::with_capacity(blended),
            blend_depths: Vec::with_capacity(blended),
            opaque_order,
            opaque_depths: Vec::with_capacity(draw_count),
            ghost: None,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Orders the draws by their centres' distance from the camera, as `view` (world → view)
    /// sees them placed by `model_matrices`. Blended draws go back to front: renderers draw
    /// transparent surfaces so, each over what is behind it. An MToon material's queue comes
    /// first (`MToon::blend_queue`), the distance within each queue. The others go front to
    /// back, so that what is hidden fails the depth test before it is shaded (a software
    /// rasteriser shades every fragment that passes). A skinned draw is placed by its node as
    /// the others are; surfaces that interleave are as right as one order per draw can make
    /// them.
    pub fn sort_by_distance(&mut self, model_matrices: &[Mat4], view: &Mat4) {
        self.blend_depths.clear();
        self.opaque_depths.clear();
        for (index, draw) in self.draws.iter().enumerate() {
            let placement = model_matrices.get(draw.joint).copied().unwrap_or(Mat4::IDENTITY);
            // The camera looks down −Z: the farthest draw has the lowest z.
            let depth = view.transform_point3(placement.transform_point3(draw.center)).z;
            if draw.blended {
                let queue = self.materials.get(draw.material).map_or(0, |m| m.blend_queue);
                self.blend_depths.push((queue, depth, index));
            } else {
                self.opaque_depths.push((depth, index));
            }
        }
        self.blend_depths
            .sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        self.blend_order.clear();
        self.blend_order
            .extend(self.blend_depths.iter().map(|&(_, _, index)| index));
        nearest_first(&mut self.opaque_depths, &mut self.opaque_order);
    }

    /// Makes every draw's wireframe edges, once (sorting a big mesh's edges takes a while and
    /// they take as much memory as its triangles, so only a view that shows them asks).
    pub fn make_wireframe_edges(&mut self, device: &wgpu::Device, model: &Model) {
        for draw in self.draws.iter_mut().filter(|d| d.edges.is_none()) {
            let primitive = &model.meshes[model.instances[draw.instance].mesh].primitives[draw.primitive];
            let triangles = draw.topology == Topology::Triangles;
            let edges = triangle_edges(if triangles { &primitive.indices } else { &[] });
            draw.edges = Some((
                buffer(device, "edges", &edges, wgpu::BufferUsages::INDEX),
                edges.len() as u32,
            ));
        }
    }

    /// Fast quality's simplified copies: the first call starts making them (on a thread of
    /// its own: see `LevelMaker`); later calls take those made since, until all are. With
    /// `wait`, the first call waits for all of them (a still image draws one frame).
    pub fn update_detail(&mut self, device: &wgpu::Device, model: &Model, wait: bool) {
        if let DetailState::NotAsked = self.detail {
            let rest = model.skeleton.rest_pose().to_model_matrices();
            for draw in &mut self.draws {
                let instance = &model.instances[draw.instance];
                let primitive = &model.meshes[instance.mesh].primitives[draw.primitive];
                // meshoptimizer's errors are fractions of the mesh's longest side, placed at rest.
                let scale = largest_scale(&rest_placement(model, instance, &rest));
                let own = placed_bounds(&primitive.positions, &Mat4::IDENTITY);
                draw.detail.extent = own.map_or(0.0, |(min, max)| (max - min).max_element() * scale);
                draw.detail.radius = own.map_or(0.0, |(min, max)| (max - min).length() / 2.0);
            }
            let wanted = self
                .draws
                .iter()
                .map(|draw| (model.instances[draw.instance].mesh, draw.primitive));
            self.detail = DetailState::Making(LevelMaker::start(model, wanted));
        }
        let DetailState::Making(maker) = &self.detail else {
            return;
        };
        let draws = &mut self.draws;
        let mut take = |key: PrimitiveKey, made: &[MadeCopy]| {
            for draw in draws
                .iter_mut()
                .filter(|d| (model.instances[d.instance].mesh, d.primitive) == key)
            {
                let copies = draw.copies.as_ref().map_or(1, |(_, count)| *count);
                draw.detail.take(made, draw.index_count / 3, copies);
            }
        };
        let all_made = if wait {
            maker.wait(device, &mut take);
            true
        } else {
            maker.take_made(device, &mut take)
        };
        if all_made {
            self.detail = DetailState::Made;
        }
    }

    /// Chooses each draw's level for this frame: within `budget` triangles when there is one
    /// (`view::triangle_budget`), every copy within the same deviation, from `LEAST_PIXELS` to
    /// `MOST_PIXELS` at `pixels_per_unit`; the whole meshes without a budget. A static mesh that
    /// `camera` does not see (placed by `model_matrices`) takes its coarsest copy and none of
    /// the budget: it may still cast a shadow into the picture.
    pub fn choose_detail(
        &mut self,
        budget: Option<u32>,
        pixels_per_unit: f32,
        camera: &CameraView,
        model_matrices: &[Mat4],
    ) {
        let Some(budget) = budget else {
            for draw in &mut self.draws {
                (draw.detail.lit, draw.detail.shadow) = (0, 0);
            }
            return;
        };
        let seen = |draw: &DrawBuffers| {
            let placement = model_matrices
                .get(draw.joint)
                .filter(|_| draw.skin.is_none() && draw.copies.is_none());
            placement.is_none_or(|placement| {
                let center = placement.transform_point3(draw.center);
                camera.sees_sphere(center, draw.detail.radius * largest_scale(placement))
            })
        };
        let budgeted = |draw: &&DrawBuffers| draw.shown_triangles() && seen(draw);
        let levels = (self.draws.iter())
            .filter(budgeted)
            .map(|draw| draw.detail.levels.as_slice());
        let deviation = frame_deviation(levels, budget, pixels_per_unit);
        for index in 0..self.draws.len() {
            let seen = seen(&self.draws[index]);
            let detail = &mut self.draws[index].detail;
            (detail.lit, detail.shadow) = lit_and_shadow_levels(&detail.levels, deviation, seen);
        }
    }

    /// Uploads this frame's state: every skin's matrices; per draw, its uniforms (how it is
    /// skinned, the joint's model matrix for static meshes, material or vertex view colours)
    /// and, for draws posed on the CPU, the deformer's vertices; the vertex view's values when
    /// the view has changed (the CPU-vs-GPU difference writes its own each frame).
    pub fn upload(
        &mut self,
        queue: &wgpu::Queue,
        model: &Model,
        model_matrices: &[Mat4],
        deformer: &Deformer,
        view: &ViewOptions,
    ) {
        let gpu_skinning = view.gpu_skinning;
        let view_look = (self.ghost.map(Look::Ghost)).or(view.vertex_view.map(|v| Look::View(v.ramp())));
        if let Some(vertex_view) = view.vertex_view
            && !matches!(vertex_view, VertexView::SkinDifference | VertexView::WeightChange)
            && self.values_shown != view.vertex_view
        {
            for draw in &self.draws {
                let values = &mut self.value_scratch[..draw.vertex_count];
                vertex_view.fill(model, draw.instance, draw.primitive, values);
                queue.write_buffer(&draw.view_values, 0, bytemuck::cast_slice(values));
            }
            self.values_shown = view.vertex_view;
        }
        if self.variant_shown != view.material_variant {
            self.show_variant(model, view.material_variant);
        }
        self.skins.upload(queue, model, model_matrices, deformer);
        for (index, (draw, posed)) in self.draws.iter_mut().zip(deformer.primitives()).enumerate() {
            let uses_cpu_vertices = draw.uses_cpu_vertices(gpu_skinning);
            let crowd = self.crowd_blocks.as_ref();
            let crowd_block = crowd.and_then(|blocks| draw.skin.and_then(|s| blocks.get(s).copied()));
            let posed_in_world = uses_cpu_vertices || (crowd.is_some() && !draw.on_gpu(gpu_skinning));
            let model_matrix = if posed_in_world {
                Mat4::IDENTITY
            } else {
                model_matrices[draw.joint]
            };
            // Skinned vertices are placed by their joints alone; a static mesh's node may
            // mirror it.
            draw.mirrored = draw.skin.is_none() && model_matrices[draw.joint].determinant() < 0.0;
            let look = view_look.unwrap_or(if draw.unlit { Look::Unlit } else { Look::Lit });
            let skinning = Skinning::on_gpu(draw.on_gpu(gpu_skinning), view.skinning_method);
            let uniform = |look| {
                let uniform = DrawUniform::new(model_matrix, skinning, look)
                    .flat_shaded(draw.flat_shaded)
                    .vertex_colors(draw.colors.is_some());
                match crowd_block.filter(|_| draw.on_gpu(gpu_skinning)) {
                    Some(block) => uniform.in_crowd(block),
                    None => uniform,
                }
            };
            self.uniforms.set(index, DrawSlot::Solid, &uniform(look));
            self.uniforms
                .set(index, DrawSlot::Wire, &uniform(Look::Wire(WIRE_COLOR)));
            if draw.gpu_skinnable {
                let skinning = Skinning::on_gpu(true, view.skinning_method);
                self.uniforms.set(
                    index,
                    DrawSlot::Capture,
                    &DrawUniform::new(Mat4::IDENTITY, skinning, Look::Lit),
                );
            }
            if uses_cpu_vertices && !draw.hidden && !posed.positions.is_empty() {
                queue.write_buffer(&draw.posed_positions, 0, bytemuck::cast_slice(&posed.positions));
                queue.write_buffer(&draw.posed_normals, 0, bytemuck::cast_slice(&posed.normals));
                if let Some(tangents) = &draw.posed_tangents {
                    queue.write_buffer(tangents, 0, bytemuck::cast_slice(&posed.tangents));
                }
            }
            if let (Some((buffer, _)), Some(copies)) = (&draw.copies, model.copies_of(draw.instance)) {
                self.copy_scratch.clear();
                self.copy_scratch.extend(copies.placements(model_matrices[draw.joint]));
                queue.write_buffer(buffer, 0, bytemuck::cast_slice(&self.copy_scratch));
            }
        }
        self.uniforms.upload_frame(queue);
    }

    /// Draws each primitive with its material in material variant `variant` (None: its own);
    /// the bind groups of every material exist already, so this only picks among them.
    fn show_variant(&mut self, model: &Model, variant: Option<usize>) {
        let default_material = self.materials.len() - 1;
        for draw in &mut self.draws {
            let mesh = model.instances[draw.instance].mesh;
            let primitive = &model.meshes[mesh].primitives[draw.primitive];
            draw.material = primitive.material_in(variant).unwrap_or(default_material);
            draw.double_sided = model.materials.get(draw.material).is_some_and(|m| m.double_sided);
            draw.blended = blends(model, draw.material);
            draw.material_casts_shadow = invisible::draws_something(model, draw.material);
        }
        self.variant_shown = variant;
    }

    /// Writes one draw's vertex view values, which `values` fills (as long as the draw); the
    /// values now shown are the CPU-vs-GPU difference's.
    pub fn write_difference_values(
        &mut self,
        queue: &wgpu::Queue,
        draw: usize,
        values: impl FnOnce(&DrawBuffers, &mut [f32]),
    ) {
        let buffers = &self.draws[draw];
        let scratch = &mut self.value_scratch[..buffers.vertex_count];
        values(buffers, scratch);
        queue.write_buffer(&buffers.view_values, 0, bytemuck::cast_slice(scratch));
        self.values_shown = Some(VertexView::SkinDifference);
    }

    /// Writes the compare view's heat map as the vertex view's values: `changes` gives each
    /// draw's weight change per vertex (where it runs short, the vertices read 0: unchanged).
    pub fn write_weight_change<'c>(&mut self, queue: &wgpu::Queue, changes: impl Fn(&DrawBuffers) -> &'c [f32]) {
        for draw in &self.draws {
            let values = &mut self.value_scratch[..draw.vertex_count];
            values.fill(0.0);
            let change = changes(draw);
            let known = change.len().min(values.len());
            values[..known].copy_from_slice(&change[..known]);
            queue.write_buffer(&draw.view_values, 0, bytemuck::cast_slice(values));
        }
        self.values_shown = Some(VertexView::WeightChange);
    }

    /// The vertex view whose values the draws hold (None: none written yet).
    pub fn values_shown(&self) -> Option<VertexView> {
        self.values_shown
    }

    /// Sets every vertex's difference view value to "not measured" (grey).
    pub fn mark_unmeasured(&mut self, queue: &wgpu::Queue) {
        for draw in 0..self.draws.len() {
            self.write_difference_values(queue, draw, |_, values| values.fill(NOT_MEASURED));
        }
    }
}

impl ModelBuffers {
    /// The vertex buffers draw `index` reads in `slot` (the mesh shaders' slots 0 to 8), and
    /// how many copies of it to draw: its copies in the lit, wireframe and shadow passes, one
    /// in the bind-pose ghost and the skinning capture.
    pub fn vertex_buffers(
        &self,
        index: usize,
        slot: DrawSlot,
        gpu_skinning: bool,
    ) -> ([&wgpu::Buffer; MESH_BUFFER_COUNT], u32) {
        let draw = &self.draws[index];
        let cpu = slot != DrawSlot::Ghost && draw.uses_cpu_vertices(gpu_skinning);
        let (positions, normals) = match cpu {
            true => (&draw.posed_positions, &draw.posed_normals),
            false => (&draw.positions, &draw.normals),
        };
        let tangents = match cpu {
            // A crowd's copies are posed on the CPU one by one; their tangents are not.
            true if self.crowd_blocks.is_some() => None,
            true => draw.posed_tangents.as_ref(),
            false => draw.tangents.as_ref(),
        };
        let copies = draw
            .copies
            .as_ref()
            .filter(|_| !matches!(slot, DrawSlot::Ghost | DrawSlot::Capture));
        let (copy_buffer, count) = copies.map_or((&self.single_copy, 1), |(buffer, count)| (buffer, *count));
        (
            [
                positions,
                normals,
                draw.uvs.as_ref().unwrap_or(&self.zeros),
                draw.influences.as_ref().unwrap_or(&self.zeros),
                &draw.view_values,
                draw.uvs1.as_ref().unwrap_or(&self.zeros),
                draw.colors.as_ref().unwrap_or(&self.zeros),
                copy_buffer,
                tangents.unwrap_or(&self.zeros),
            ],
            count,
        )
    }

    /// The vertex buffers the shadow pass binds for draw `index`: its positions, its skin's
    /// influences and its copies' placements (all that the depth-only shader reads), and
    /// `zeros` in every other slot, so that they stay bound from draw to draw.
    pub fn shadow_vertex_buffers(&self, index: usize, gpu_skinning: bool) -> ([&wgpu::Buffer; MESH_BUFFER_COUNT], u32) {
        /// The slots of positions, influences and copies' placements (`vertex_buffers`).
        const READ: [usize; 3] = [0, 3, 7];
        let (mut buffers, copies) = self.vertex_buffers(index, DrawSlot::Solid, gpu_skinning);
        for (slot, buffer) in buffers.iter_mut().enumerate() {
            if !READ.contains(&slot) {
                *buffer = &self.zeros;
            }
        }
        (buffers, copies)
    }
}

impl DrawBuffers {
    /// It draws this frame: something to draw, not hidden.
    pub fn shown(&self) -> bool {
        self.drawable && !self.hidden
    }

    /// It draws triangles this frame: what the shadow pass, the triangle budget and the
    /// triangle count take.
    pub fn shown_triangles(&self) -> bool {
        self.shown() && self.topology == Topology::Triangles
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_draws_go_nearest_first_and_equally_near_ones_keep_their_order() {
        // View-space z: the camera looks down −Z, so −1 is nearer than −5.
        let mut depths = vec![(-5.0, 0), (-1.0, 1), (-3.0, 2), (-1.0, 3), (-9.0, 4)];
        let mut order = vec![7];
        nearest_first(&mut depths, &mut order);
        assert_eq!(order, [1, 3, 2, 0, 4]);
    }
}
