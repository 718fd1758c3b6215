//! FBX and OBJ meshes → `Mesh`es, their instances, skins and morph targets.
//!
//! - Faces are triangulated (ufbx's ear clipping) and split by material into primitives. A
//!   vertex is one combination of control point, normal, UV, second UV and colour (as the file
//!   indexes them), so vertices are shared wherever the file shares them. V is flipped: FBX
//!   and OBJ put v = 0 at the bottom of an image, glTF at the top.
//! - Normals the file lacks are computed (area-weighted).
//! - A mesh's first skin deformer is its skin: each cluster is a joint, its geometry→bone matrix
//!   the inverse bind matrix, its bind→world matrix the joint's bind pose; a control point's
//!   cluster weights become its influences (the strongest 8, normalised, as glTF's are). A
//!   skin that mixes linear and dual-quaternion skinning per vertex (Maya's "weight blended")
//!   keeps each vertex's mix (`SkinWeights::dual_quat_weights`).
//! - Blend shapes become morph targets: one per blend channel, named by it; a channel with
//!   in-between shapes has a target per shape (named "channel@weight"), and a channel weight
//!   `w` between two shapes' weights blends those two (as Maya, 3ds Max and ufbx do).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use glam::{Mat4, Vec2, Vec3, Vec4};

use super::fast_hash::Fast;
use super::nodes::Nodes;
use super::{mat4, vec2, vec3, vec4};
use crate::asset::LoadErrorKind;
use crate::asset::geometry::{build_skin_weights, compute_normals};
use crate::asset::model::{Mesh, MeshInstance, MorphTarget, Primitive, Skin, Topology};

/// Morph target values (vertices × targets) a mesh may expand its blend shapes to: sparse in
/// the file, they are dense in a morph target, so a small file could otherwise ask for any size.
const MAX_MORPH_VALUES: usize = 1 << 26;

/// Where a blend channel's weight goes: the morph weights of each node that draws its mesh,
/// spread over its shapes (`shapes`: each shape's full weight, in increasing order).
pub struct MorphChannel {
    /// The channel's `element_id`.
    pub element: u32,
    /// Per node drawing the mesh: (its joint, the channel's first morph weight).
    pub weights: Vec<(usize, usize)>,
    pub shapes: Vec<f32>,
}

/// Everything the meshes give the model.
pub struct Built {
    pub meshes: Vec<Mesh>,
    pub instances: Vec<MeshInstance>,
    pub skins: Vec<Skin>,
    /// Per joint, the default weights of its mesh's morph targets (empty without).
    pub morph_targets_of_node: Vec<Vec<f32>>,
    /// Per joint, its bind pose (joint → model space) from a skin cluster that binds it.
    pub bind_model: Vec<Option<Mat4>>,
    pub morph_channels: Vec<MorphChannel>,
}

pub fn load_meshes(scene: &ufbx::Scene, nodes: &Nodes, warnings: &mut Vec<String>) -> Result<Built, LoadErrorKind> {
    let mut built = Built {
        meshes: Vec::with_capacity(scene.meshes.len()),
        instances: Vec::new(),
        skins: Vec::new(),
        morph_targets_of_node: vec![Vec::new(); nodes.len()],
        bind_model: vec![None; nodes.len()],
        morph_channels: Vec::new(),
    };
    for mesh in &scene.meshes {
        let mesh_index = built.meshes.len();
        let name = mesh_name(mesh);
        let object = format!("mesh '{name}'");
        let joints_drawing: Vec<usize> = mesh.element.instances.iter().filter_map(|n| nodes.joint(n)).collect();
        let skin = mesh.skin_deformers.first().map(|deformer| {
            let skin = skin_of(deformer, nodes, joints_drawing.first().copied(), &mut built.bind_model);
            match deformer.skinning_method {
                ufbx::SkinningMethod::DualQuaternion => warnings.push(format!(
                    "{object}: the file skins it with dual quaternions (choose them in the viewer's Skinning, or --skin-method)"
                )),
                ufbx::SkinningMethod::BlendedDqLinear => warnings.push(format!(
                    "{object}: the file mixes linear and dual-quaternion skinning per vertex (drawn so with dual quaternions chosen: the viewer's Skinning, or --skin-method dual-quaternion; linear otherwise)"
                )),
                _ => {}
            }
            built.skins.push(skin);
            built.skins.len() - 1
        });
        let shapes = Shapes::of(mesh, &object)?;
        let primitives = primitives(scene, mesh, &shapes, skin.map(|s| &built.skins[s]));
        for (index, primitive) in primitives.iter().enumerate() {
            if let Some(weights) = &primitive.skin_weights {
                weights.report_repairs(&format!("{object} primitive {index}"), warnings);
            }
        }
        for &joint in &joints_drawing {
            built.morph_targets_of_node[joint] = shapes.default_weights.clone();
            built.instances.push(MeshInstance {
                joint,
                mesh: mesh_index,
                skin,
            });
        }
        for channel in &shapes.channels {
            built.morph_channels.push(MorphChannel {
                element: channel.element,
                weights: joints_drawing.iter().map(|&joint| (joint, channel.first)).collect(),
                shapes: channel.shapes.clone(),
            });
        }
        built.meshes.push(Mesh {
            name,
            primitives,
            attributes: Vec::new(),
            target_names: shapes.names,
        });
    }
    built.instances.sort_by_key(|i| i.joint);
    Ok(built)
}

/// The mesh's name, or its first node's when the mesh has none (most exporters name only nodes).
pub(super) fn mesh_name(mesh: &ufbx::Mesh) -> String {
    let named = (!mesh.element.name.is_empty()).then(|| mesh.element.name.to_string());
    let node = || mesh.element.instances.iter().next().map(|n| n.element.name.to_string());
    named.or_else(node).unwrap_or_else(|| "Mesh".into())
}

/// The skin a deformer describes; records each bound joint's bind pose in `bind_model`. A
/// cluster without a bone binds to `fallback` (the mesh's node) with no weight of its own.
/// Where the file leaves vertices without weight, `fallback` is also one more joint, last,
/// that holds them where the mesh puts them, as Maya, Blender and ufbx leave them.
fn skin_of(
    deformer: &ufbx::SkinDeformer,
    nodes: &Nodes,
    fallback: Option<usize>,
    bind_model: &mut [Option<Mat4>],
) -> Skin {
    let mut joints = Vec::with_capacity(deformer.clusters.len());
    let mut inverse_bind = Vec::with_capacity(deformer.clusters.len());
    for cluster in &deformer.clusters {
        let joint = cluster.bone_node.as_ref().and_then(|bone| nodes.joint(bone));
        let Some(joint) = joint.or(fallback) else {
            joints.push(0);
            inverse_bind.push(Mat4::IDENTITY);
            continue;
        };
        joints.push(joint);
        inverse_bind.push(mat4(&cluster.geometry_to_bone));
        if let Some(slot @ None) = bind_model.get_mut(joint) {
            *slot = Some(mat4(&cluster.bind_to_world));
        }
    }
    let root = joints.iter().copied().min().unwrap_or(0);
    if let Some(node) = fallback.filter(|_| has_unweighted_vertices(deformer)) {
        joints.push(node);
        inverse_bind.push(Mat4::IDENTITY);
    }
    Skin {
        name: deformer.element.name.to_string(),
        root,
        joints,
        inverse_bind,
        inverse_bind_given: true,
    }
}

/// Per vertex (`control_points`: each vertex's control point), its share of dual-quaternion
/// skinning in a skin that mixes the two methods per vertex (Maya's blended skinning): the
/// file's weight, 0 (linear) where it gives none, clamped to 0 to 1.
fn dual_quat_weights(deformer: &ufbx::SkinDeformer, control_points: &[u32]) -> Vec<f32> {
    let share = |point: u32| {
        let weight = deformer
            .vertices
            .get(point as usize)
            .map_or(0.0, |v| v.dq_weight as f32);
        if weight.is_nan() { 0.0 } else { weight.clamp(0.0, 1.0) }
    };
    control_points.iter().map(|&point| share(point)).collect()
}

fn has_unweighted_vertices(deformer: &ufbx::SkinDeformer) -> bool {
    (deformer.vertices.iter()).any(|v| unweighted(deformer, v))
}

fn unweighted(deformer: &ufbx::SkinDeformer, vertex: &ufbx::SkinVertex) -> bool {
    let begin = vertex.weight_begin as usize;
    let weights = deformer.weights.get(begin..begin + vertex.num_weights as usize);
    weights.is_none_or(|w| w.iter().all(|w| w.weight <= 0.0))
}

/// One blend channel's place among the mesh's morph targets.
struct Channel {
    element: u32,
    /// Its first target's index.
    first: usize,
    /// Each of its shapes' full weight (0 to 1), increasing.
    shapes: Vec<f32>,
}

/// A mesh's blend shapes as dense deltas over its control points.
struct Shapes {
    /// Per target, per control point: position and normal deltas (normals empty when the
    /// shape has none).
    deltas: Vec<(Vec<Vec3>, Vec<Vec3>)>,
    names: Vec<String>,
    channels: Vec<Channel>,
    default_weights: Vec<f32>,
}

impl Shapes {
    fn of(mesh: &ufbx::Mesh, object: &str) -> Result<Self, LoadErrorKind> {
        let mut shapes = Shapes {
            deltas: Vec::new(),
            names: Vec::new(),
            channels: Vec::new(),
            default_weights: Vec::new(),
        };
        let points = mesh.num_vertices;
        for channel in mesh.blend_deformers.iter().flat_map(|d| d.channels.iter()) {
            let mut keyframes: Vec<&ufbx::BlendKeyframe> = channel.keyframes.iter().collect();
            keyframes.sort_by(|a, b| a.target_weight.total_cmp(&b.target_weight));
            let weights: Vec<f32> = keyframes.iter().map(|k| k.target_weight as f32).collect();
            let first = shapes.deltas.len();
            if (first + keyframes.len()).saturating_mul(points) > MAX_MORPH_VALUES {
                return Err(LoadErrorKind::invalid(
                    object,
                    format!(
                        "its blend shapes expand to more than {MAX_MORPH_VALUES} vertex deltas ({} shapes of {points} vertices)",
                        first + keyframes.len()
                    ),
                ));
            }
            for keyframe in &keyframes {
                let name = match keyframes.len() {
                    1 => channel.element.name.to_string(),
                    _ => format!("{}@{}", channel.element.name, keyframe.target_weight),
                };
                shapes.names.push(name);
                shapes.deltas.push(dense_deltas(&keyframe.shape, points));
            }
            shapes
                .default_weights
                .extend(shape_weights(&weights, channel.weight as f32));
            shapes.channels.push(Channel {
                element: channel.element.element_id,
                first,
                shapes: weights,
            });
        }
        Ok(shapes)
    }
}

/// A shape's offsets, per control point.
fn dense_deltas(shape: &ufbx::BlendShape, points: usize) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut positions = vec![Vec3::ZERO; points];
    let mut normals = vec![Vec3::ZERO; if shape.normal_offsets.is_empty() { 0 } else { points }];
    for (i, &vertex) in shape.offset_vertices.iter().enumerate() {
        let weight = shape.offset_weights.get(i).map_or(1.0, |&w| w as f32);
        if let Some(slot) = positions.get_mut(vertex as usize) {
            *slot += vec3(shape.position_offsets[i]) * weight;
        }
        if let (Some(slot), Some(offset)) = (normals.get_mut(vertex as usize), shape.normal_offsets.get(i)) {
            *slot += vec3(*offset) * weight;
        }
    }
    (positions, normals)
}

/// The weights of a channel's shapes (full weights `shapes`, increasing) at channel weight
/// `weight`: between two shapes' weights, the two blend linearly; below the first, it alone
/// scales from 0; past the last, the last goes on scaling.
pub fn shape_weights(shapes: &[f32], weight: f32) -> Vec<f32> {
    let mut out = vec![0.0; shapes.len()];
    let Some(&last) = shapes.last() else { return out };
    match shapes.iter().position(|&s| weight <= s) {
        Some(0) => out[0] = if shapes[0] != 0.0 { weight / shapes[0] } else { 1.0 },
        Some(i) => {
            let t = (weight - shapes[i - 1]) / (shapes[i] - shapes[i - 1]);
            out[i - 1] = 1.0 - t;
            out[i] = t;
        }
        None => out[shapes.len() - 1] = if last != 0.0 { weight / last } else { 1.0 },
    }
    out
}

/// The mesh's primitives: per material it uses, its triangles, and the lines and points its
/// faces of two and one corners make (OBJ files draw lines and point clouds that way).
fn primitives(scene: &ufbx::Scene, mesh: &ufbx::Mesh, shapes: &Shapes, skin: Option<&Skin>) -> Vec<Primitive> {
    let mut corners = vec![0u32; mesh.max_face_triangles * 3];
    let mut primitives = Vec::with_capacity(mesh.material_parts.len());
    for part in &mesh.material_parts {
        let mut builders = [Topology::Triangles, Topology::Lines, Topology::Points].map(Builder::new);
        // Room for half a vertex per triangle, a closed surface's count (seams add some): the
        // map does not grow from empty, and holds little more than the part's vertices.
        builders[0].vertex_of.reserve((part.num_triangles / 2).min(mesh.num_vertices));
        for &face in &part.face_indices {
            let Some(&face) = mesh.faces.get(face as usize) else {
                continue;
            };
            match face.num_indices {
                0 => {}
                1 => builders[2].add(mesh, &[face.index_begin]),
                2 => builders[1].add(mesh, &[face.index_begin, face.index_begin + 1]),
                _ => {
                    let triangles = mesh.triangulate_face(&mut corners, face) as usize;
                    builders[0].add(mesh, &corners[..triangles * 3]);
                }
            }
        }
        let material = (mesh.materials.get(part.index as usize)).map(|m| m.element.typed_id as usize);
        for builder in builders.into_iter().filter(|b| !b.indices.is_empty()) {
            primitives.push(builder.finish(mesh, shapes, skin, material, scene));
        }
    }
    primitives
}

/// What makes a face corner a vertex of its own: its control point and its attributes' values
/// (exporters often store a normal per corner even where neighbouring corners share it).
fn corner_key(mesh: &ufbx::Mesh, corner: usize) -> CornerKey {
    let bits = |v: f64| v.to_bits();
    // An attribute the mesh lacks counts as zeros.
    let normal = if mesh.vertex_normal.exists {
        mesh.vertex_normal[corner]
    } else {
        Default::default()
    };
    let uv = if mesh.vertex_uv.exists {
        mesh.vertex_uv[corner]
    } else {
        Default::default()
    };
    let color = if mesh.vertex_color.exists {
        mesh.vertex_color[corner]
    } else {
        Default::default()
    };
    let uv1 = (mesh.uv_sets.get(1))
        .filter(|s| s.vertex_uv.exists)
        .map(|s| s.vertex_uv[corner])
        .unwrap_or_default();
    CornerKey([
        u64::from(mesh.vertex_indices[corner]),
        bits(normal.x),
        bits(normal.y),
        bits(normal.z),
        bits(uv.x),
        bits(uv.y),
        bits(uv1.x),
        bits(uv1.y),
        bits(color.x),
        bits(color.y),
        bits(color.z),
        bits(color.w),
    ])
}

/// A corner's control point and attribute bits (`corner_key`).
#[derive(PartialEq, Eq)]
struct CornerKey([u64; 12]);

impl Hash for CornerKey {
    /// Hashes the control point, the normal and the UV: corners that share a control point and
    /// differ at all mostly differ there (a seam, a hard edge), and three words instead of twelve
    /// took the map's lookups to about 0.6 of the time. Keys alike hash alike and keys are still
    /// compared whole, so which vertex a corner gets is unchanged.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [point, normal_x, normal_y, normal_z, u, v, ..] = self.0;
        state.write_u64(point);
        state.write_u64(normal_x ^ normal_y.rotate_left(21) ^ normal_z.rotate_left(42));
        state.write_u64(u ^ v.rotate_left(32));
    }
}

/// One primitive's vertices as they are gathered.
struct Builder {
    topology: Topology,
    /// Each corner's vertex, by what makes it one (`corner_key`), found through a quick hash
    /// (`Fast`: the standard one's SipHash over 96 bytes a corner was about half the gathering).
    vertex_of: HashMap<CornerKey, u32, Fast>,
    control_points: Vec<u32>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    uvs1: Vec<Vec2>,
    colors: Vec<Vec4>,
    indices: Vec<u32>,
}

impl Builder {
    fn new(topology: Topology) -> Self {
        Self {
            topology,
            vertex_of: Default::default(),
            control_points: Vec::new(),
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            uvs1: Vec::new(),
            colors: Vec::new(),
            indices: Vec::new(),
        }
    }

    /// Adds the face corners `corners` (whole triangles, lines or points) as indices, sharing
    /// the vertices of corners alike.
    fn add(&mut self, mesh: &ufbx::Mesh, corners: &[u32]) {
        for &corner in corners {
            let next = self.control_points.len() as u32;
            // Looked up and, when new, added with one hash of the key.
            let vertex = *self.vertex_of.entry(corner_key(mesh, corner as usize)).or_insert(next);
            if vertex == next {
                self.push(mesh, corner as usize);
            }
            self.indices.push(vertex);
        }
    }

    fn push(&mut self, mesh: &ufbx::Mesh, corner: usize) {
        let flip = |uv: Vec2| Vec2::new(uv.x, 1.0 - uv.y);
        self.control_points.push(mesh.vertex_indices[corner]);
        self.positions.push(vec3(mesh.vertex_position[corner]));
        if mesh.vertex_normal.exists {
            self.normals
                .push(vec3(mesh.vertex_normal[corner]).try_normalize().unwrap_or(Vec3::Z));
        }
        if mesh.vertex_uv.exists {
            self.uvs.push(flip(vec2(mesh.vertex_uv[corner])));
        }
        if let Some(set) = mesh.uv_sets.get(1).filter(|s| s.vertex_uv.exists) {
            self.uvs1.push(flip(vec2(set.vertex_uv[corner])));
        }
        if mesh.vertex_color.exists {
            self.colors.push(vec4(mesh.vertex_color[corner]));
        }
    }

    fn finish(
        self,
        mesh: &ufbx::Mesh,
        shapes: &Shapes,
        skin: Option<&Skin>,
        material: Option<usize>,
        scene: &ufbx::Scene,
    ) -> Primitive {
        let smoothed = mesh.face_smoothing.iter().any(|&smooth| smooth);
        let normals = Normals::of(self.normals, self.topology, &self.positions, &self.indices, smoothed);
        let control_points = &self.control_points;
        let deformer = mesh.skin_deformers.first();
        let skin_weights = skin.zip(deformer).map(|(skin, deformer)| {
            // The joint after the clusters, where `skin_of` added one, is the mesh's own node.
            let mesh_node = (skin.joints.len() > deformer.clusters.len()).then_some(deformer.clusters.len() as u32);
            let mut skin_weights = build_skin_weights(control_points.len(), skin.joints.len(), |vertex, out| {
                let Some(weights) = deformer.vertices.get(control_points[vertex] as usize) else {
                    return;
                };
                match mesh_node {
                    Some(node) if unweighted(deformer, weights) => out.push((node, 1.0)),
                    _ => {
                        let begin = weights.weight_begin as usize;
                        let range = begin..begin + weights.num_weights as usize;
                        let weights = deformer.weights.get(range).into_iter().flatten();
                        out.extend(weights.map(|w| (w.cluster_index, w.weight as f32)));
                    }
                }
            });
            if deformer.skinning_method == ufbx::SkinningMethod::BlendedDqLinear {
                skin_weights.dual_quat_weights = dual_quat_weights(deformer, control_points);
            }
            skin_weights
        });
        let pick = |values: &[Vec3]| -> Vec<Vec3> {
            if values.is_empty() {
                return Vec::new();
            }
            control_points
                .iter()
                .map(|&p| values.get(p as usize).copied().unwrap_or_default())
                .collect()
        };
        let morph_targets = (shapes.deltas.iter())
            .map(|(positions, normals)| MorphTarget {
                positions: pick(positions),
                normals: pick(normals),
                tangents: Vec::new(),
            })
            .collect();
        Primitive {
            topology: self.topology,
            indices: self.indices,
            positions: self.positions,
            normals: normals.normals,
            normals_computed: normals.computed,
            flat_shaded: normals.flat_shaded,
            tangents: Vec::new(),
            tangents_generated: false,
            uvs: self.uvs,
            uvs1: self.uvs1,
            colors: self.colors,
            skin_weights,
            morph_targets,
            material: material.filter(|&m| m < scene.materials.len()),
            variant_materials: Vec::new(),
        }
    }
}

/// A primitive's normals: the file's, else computed (triangles) or +Z (lines and points).
pub(super) struct Normals {
    pub normals: Vec<Vec3>,
    /// The file gave none.
    pub computed: bool,
    /// Computed for triangles that the file does not smooth (OBJ's `s`): drawn flat, as Blender
    /// and three.js draw faces without normals.
    pub flat_shaded: bool,
}

impl Normals {
    /// `file_normals` (empty when the file has none) for a primitive of `topology`;
    /// `smoothed`: some face of its mesh is smoothed.
    pub(super) fn of(
        file_normals: Vec<Vec3>,
        topology: Topology,
        positions: &[Vec3],
        indices: &[u32],
        smoothed: bool,
    ) -> Self {
        let computed = file_normals.is_empty();
        let normals = match (computed, topology) {
            (false, _) => file_normals,
            (true, Topology::Triangles) => compute_normals(positions, indices),
            (true, _) => vec![Vec3::Z; positions.len()],
        };
        let flat_shaded = computed && topology == Topology::Triangles && !smoothed;
        Self {
            normals,
            computed,
            flat_shaded,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    #[test]
    fn corners_alike_share_a_vertex_and_corners_apart_in_any_word_do_not() {
        let alike = [7, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
        let mut vertex_of: HashMap<CornerKey, u32, Fast> = HashMap::default();
        vertex_of.insert(CornerKey(alike), 0);
        assert_eq!(
            Fast::default().hash_one(CornerKey(alike)),
            Fast::default().hash_one(CornerKey(alike))
        );
        assert_eq!(vertex_of.get(&CornerKey(alike)), Some(&0));
        // The words the hash leaves out (second UV, colour) still tell corners apart.
        for word in 0..12 {
            let mut apart = alike;
            apart[word] ^= 1;
            assert_eq!(vertex_of.get(&CornerKey(apart)), None, "word {word}");
        }
    }
}
