//! Meshes compared vertex by vertex, whatever the vertex order or how a format split them.
//!
//! Every vertex is taken in model space in the bind pose: a skinned mesh's positions through
//! its skin's vertex space (`Model::skin_vertex_space`: glTF puts them in model space, an FBX
//! in its mesh node's space), a mesh placed on a joint is moved by that joint's rest matrix (the
//! first instance of a mesh decides; a mesh on no node stays as it is). Each vertex of A pairs
//! with a vertex of B within `Tolerance::distance` through a grid over B's vertices; where
//! several are that near (a seam's copies), the pick prefers, in order, a vertex of the mesh
//! paired with A's mesh (by name, then index), one whose UV and normal agree, the nearest.
//! Vertex counts may then differ without anything having changed (one format splits a vertex
//! where the other shares it): what differs is a triangle count, a vertex of either side with
//! nothing of the other that near, or the UVs, normals and weights of paired vertices.

use glam::{Mat3, Mat4, Vec2, Vec3};
use serde::Serialize;

use super::report_text::{format_angle, format_distance};
use super::vertex_grid::VertexGrid;
use super::weights::{Influences, JointChangeSums, WeightSummary, largest_change};
use super::{Finding, Section, Tolerance, beyond, pair_by_name};
use crate::asset::{Model, Primitive};

/// How far two UVs may be apart and still agree: a tenth of a texel of a 1024² texture.
pub const UV_TOLERANCE: f32 = 1.0e-4;

/// How many joints a weight finding names.
const JOINTS_NAMED: usize = 5;

/// How one mesh of A compares with its pair in B (or a mesh only in one of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MeshDiff {
    /// A's name (B's for a mesh only in B).
    pub name: String,
    /// B's name, where B has the mesh.
    pub name_b: Option<String>,
    /// Its index in A's and in B's meshes (None: not in that model).
    pub mesh: Option<usize>,
    pub mesh_b: Option<usize>,
    pub vertices: usize,
    pub vertices_b: usize,
    pub triangles: usize,
    pub triangles_b: usize,
    /// Vertices of A with no vertex of B within the distance tolerance (moved or removed).
    pub unpaired_vertices: usize,
    /// Vertices of B with no vertex of A within the distance tolerance (moved or added).
    pub new_vertices_b: usize,
    /// Paired vertices whose UV changed by more than `UV_TOLERANCE`, or which lost or gained one.
    pub uv_changed: usize,
    /// Paired vertices whose normal turned beyond the angle tolerance, and the largest turn.
    pub normal_changed: usize,
    pub largest_normal_angle_degrees: f32,
    /// Paired vertices whose weights changed beyond the weight tolerance, and the largest
    /// change of one joint's weight.
    pub weight_changed: usize,
    pub largest_weight_change: f32,
}

/// The meshes compared, and what `morphs` and the verdict need of it.
pub struct MeshComparison {
    pub meshes: Vec<MeshDiff>,
    pub weights: WeightSummary,
    /// Per mesh of A, per vertex: the largest weight change (see `RigDiff`).
    pub vertex_weight_change: Vec<Vec<f32>>,
    /// Per mesh of A, its pair in B.
    pub mesh_pairs: Vec<Option<usize>>,
    /// Per mesh of A, per vertex: its pair in B (mesh, vertex within the mesh).
    pub vertex_pairs: Vec<Vec<Option<(usize, usize)>>>,
    /// All vertices with no pair on the other side, of A and of B.
    pub unpaired_vertices: usize,
}

/// Where a vertex comes from: its mesh, primitive and index in the primitive.
#[derive(Clone, Copy)]
struct VertexPlace {
    mesh: u32,
    primitive: u32,
    vertex: u32,
}

/// How a mesh's vertices reach model space in the bind pose, and what moves them.
#[derive(Clone, Copy)]
enum Placement<'a> {
    /// Skinned: moved by these skeleton joints, in the skin's vertex space (to model space).
    Skinned(&'a [usize], Mat4),
    /// Placed on a joint (moved by its matrix and following it alone).
    OnJoint(usize, Mat4),
    /// On no node: where it is, following nothing.
    Loose,
}

/// The matrix that takes mesh `mesh`'s vertices to model space in the bind pose, as
/// `ModelVertices` places them (identity for a mesh on no node).
/// `rest` and `bind` are the skeleton's rest and bind poses' model matrices.
pub fn mesh_to_model(model: &Model, mesh: usize, rest: &[Mat4], bind: &[Mat4]) -> Mat4 {
    placement(model, mesh, rest, bind).to_model()
}

impl Placement<'_> {
    /// The matrix that takes the mesh's vertices to model space in the bind pose.
    fn to_model(self) -> Mat4 {
        match self {
            Placement::OnJoint(_, matrix) | Placement::Skinned(_, matrix) => matrix,
            Placement::Loose => Mat4::IDENTITY,
        }
    }
}

/// How mesh `mesh` of `model` is placed: by its first instance.
fn placement<'a>(model: &'a Model, mesh: usize, rest: &[Mat4], bind: &[Mat4]) -> Placement<'a> {
    let instance = model.instances.iter().find(|i| i.mesh == mesh);
    match (instance, instance.and_then(|i| model.skins.get(i.skin?))) {
        (_, Some(skin)) => Placement::Skinned(&skin.joints, model.skin_vertex_space(skin, bind)),
        (Some(instance), None) => {
            let matrix = rest.get(instance.joint).copied().unwrap_or(Mat4::IDENTITY);
            Placement::OnJoint(instance.joint, matrix)
        }
        (None, None) => Placement::Loose,
    }
}

/// All vertices of a model's meshes in one list, in model space, bind pose.
struct ModelVertices<'a> {
    model: &'a Model,
    positions: Vec<Vec3>,
    /// Unit length, or zero where the primitive has none.
    normals: Vec<Vec3>,
    /// NaN where the primitive has none.
    uvs: Vec<Vec2>,
    places: Vec<VertexPlace>,
    /// Each mesh's first vertex, and one past the last.
    mesh_start: Vec<usize>,
    placements: Vec<Placement<'a>>,
}

impl<'a> ModelVertices<'a> {
    fn new(model: &'a Model) -> Self {
        let rest = model.skeleton.rest_pose().to_model_matrices();
        let bind = model.skeleton.bind_pose().to_model_matrices();
        let total = model
            .meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(Primitive::vertex_count)
            .sum();
        let mut vertices = Self {
            model,
            positions: Vec::with_capacity(total),
            normals: Vec::with_capacity(total),
            uvs: Vec::with_capacity(total),
            places: Vec::with_capacity(total),
            mesh_start: Vec::with_capacity(model.meshes.len() + 1),
            placements: Vec::with_capacity(model.meshes.len()),
        };
        for (mesh_index, mesh) in model.meshes.iter().enumerate() {
            vertices.mesh_start.push(vertices.positions.len());
            let placement = placement(model, mesh_index, &rest, &bind);
            vertices.placements.push(placement);
            let matrix = placement.to_model();
            let normal_matrix = Mat3::from_mat4(matrix).inverse().transpose();
            for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
                for (vertex, &position) in primitive.positions.iter().enumerate() {
                    vertices.positions.push(matrix.transform_point3(position));
                    let normal = primitive.normals.get(vertex).map_or(Vec3::ZERO, |n| normal_matrix * *n);
                    vertices.normals.push(normal.normalize_or_zero());
                    vertices
                        .uvs
                        .push(primitive.uvs.get(vertex).copied().unwrap_or(Vec2::NAN));
                    vertices.places.push(VertexPlace {
                        mesh: mesh_index as u32,
                        primitive: primitive_index as u32,
                        vertex: vertex as u32,
                    });
                }
            }
        }
        vertices.mesh_start.push(vertices.positions.len());
        vertices
    }

    /// The skeleton joints (and weights) that move vertex `index`.
    fn influences(&self, index: usize) -> Influences {
        let place = self.places[index];
        match self.placements[place.mesh as usize] {
            Placement::Skinned(joints, _) => {
                let primitive = &self.model.meshes[place.mesh as usize].primitives[place.primitive as usize];
                match &primitive.skin_weights {
                    Some(weights) => Influences::skinned(weights, place.vertex as usize, joints),
                    None => Influences::default(),
                }
            }
            Placement::OnJoint(joint, _) => Influences::rigid(joint),
            Placement::Loose => Influences::default(),
        }
    }

    /// Vertex `index`'s place within its mesh.
    fn in_mesh(&self, index: usize) -> (usize, usize) {
        let mesh = self.places[index].mesh as usize;
        (mesh, index - self.mesh_start[mesh])
    }
}

/// How two paired vertices' UVs and normals compare.
struct Attributes {
    uv_changed: bool,
    normal_angle_degrees: f32,
}

impl Attributes {
    fn of(a: &ModelVertices, index: usize, b: &ModelVertices, index_b: usize) -> Self {
        let (uv, uv_b) = (a.uvs[index], b.uvs[index_b]);
        let uv_changed = match (uv.is_nan(), uv_b.is_nan()) {
            (true, true) => false,
            (false, false) => beyond(uv.distance(uv_b), UV_TOLERANCE),
            _ => true,
        };
        Attributes {
            uv_changed,
            normal_angle_degrees: angle_degrees_between_normals(a.normals[index], b.normals[index_b]),
        }
    }

    fn agree(&self, tolerance: &Tolerance) -> bool {
        !self.uv_changed && self.normal_angle_degrees <= tolerance.angle_degrees
    }
}

/// The angle between two unit normals, in degrees (from the cross and dot products: `acos`
/// loses the small angles); 180 where only one of them is missing (zero).
fn angle_degrees_between_normals(a: Vec3, b: Vec3) -> f32 {
    match (a == Vec3::ZERO, b == Vec3::ZERO) {
        (true, true) => 0.0,
        (false, false) => a.cross(b).length().atan2(a.dot(b)).to_degrees(),
        _ => 180.0,
    }
}

/// Compares the meshes of `a` and `b`, vertex by vertex (see the module docs).
pub fn compare(
    a: &Model,
    b: &Model,
    joint_pairs: &[Option<usize>],
    tolerance: &Tolerance,
    findings: &mut Vec<Finding>,
) -> MeshComparison {
    let mesh_pairs = pair_by_name(a.meshes.iter().map(|m| m.name.as_str()), &b.meshes, |m| m.name.as_str());
    let (vertices, vertices_b) = (ModelVertices::new(a), ModelVertices::new(b));
    let grid_b = VertexGrid::new(&vertices_b.positions, tolerance.distance);
    let mut pair_of_b = vec![None; b.skeleton.len()];
    for (joint, pair) in joint_pairs.iter().enumerate() {
        if let Some(slot) = pair.and_then(|joint_b| pair_of_b.get_mut(joint_b)) {
            *slot = Some(joint);
        }
    }

    let mut diffs: Vec<MeshDiff> = (a.meshes.iter().enumerate())
        .map(|(mesh, m)| {
            let mesh_b = mesh_pairs[mesh];
            let primitives_b = mesh_b.map_or(&[][..], |i| &b.meshes[i].primitives[..]);
            MeshDiff {
                name: m.name.clone(),
                name_b: mesh_b.map(|i| b.meshes[i].name.clone()),
                mesh: Some(mesh),
                mesh_b,
                vertices: m.primitives.iter().map(Primitive::vertex_count).sum(),
                vertices_b: primitives_b.iter().map(Primitive::vertex_count).sum(),
                triangles: m.primitives.iter().map(Primitive::triangle_count).sum(),
                triangles_b: primitives_b.iter().map(Primitive::triangle_count).sum(),
                ..MeshDiff::default()
            }
        })
        .collect();
    let mut vertex_weight_change: Vec<Vec<f32>> = diffs.iter().map(|d| vec![0.0; d.vertices]).collect();
    let mut vertex_pairs: Vec<Vec<Option<(usize, usize)>>> = diffs.iter().map(|d| vec![None; d.vertices]).collect();
    let mut all_joints = JointChangeSums::new(a, b, tolerance.weight);
    let mut mesh_joints = JointChangeSums::new(a, b, tolerance.weight);
    let mut weights = WeightSummary::default();
    let mut changed_sum = 0.0f64;

    for (mesh, diff) in diffs.iter_mut().enumerate() {
        mesh_joints.clear();
        for index in vertices.mesh_start[mesh]..vertices.mesh_start[mesh + 1] {
            let Some(index_b) = nearest(&vertices, index, &vertices_b, &grid_b, mesh_pairs[mesh], tolerance) else {
                diff.unpaired_vertices += 1;
                continue;
            };
            let vertex = index - vertices.mesh_start[mesh];
            vertex_pairs[mesh][vertex] = Some(vertices_b.in_mesh(index_b));
            let attributes = Attributes::of(&vertices, index, &vertices_b, index_b);
            diff.uv_changed += usize::from(attributes.uv_changed);
            if beyond(attributes.normal_angle_degrees, tolerance.angle_degrees) {
                diff.normal_changed += 1;
                diff.largest_normal_angle_degrees =
                    diff.largest_normal_angle_degrees.max(attributes.normal_angle_degrees);
            }
            let (influences, influences_b) = (vertices.influences(index), vertices_b.influences(index_b));
            let change = largest_change(&influences, &influences_b, joint_pairs, &pair_of_b, |joint, change| {
                all_joints.add(joint, change);
                mesh_joints.add(joint, change);
            });
            vertex_weight_change[mesh][vertex] = change;
            weights.compared += 1;
            weights.largest = weights.largest.max(change);
            if change > tolerance.weight {
                diff.weight_changed += 1;
                changed_sum += f64::from(change);
                diff.largest_weight_change = diff.largest_weight_change.max(change);
            }
        }
        if diff.weight_changed > 0 {
            let joints = mesh_joints.most(a, b, JOINTS_NAMED);
            let named: Vec<String> = joints
                .iter()
                .map(|j| format!("'{}' ({})", j.name, j.vertices))
                .collect();
            let text = format!(
                "'{}': weights moved on {} of {} vertices (largest change {:.2}), most on {}",
                diff.name,
                diff.weight_changed,
                diff.vertices,
                diff.largest_weight_change,
                named.join(", ")
            );
            findings.push(mesh_finding(Section::Weights, text));
        }
    }
    weights.changed = diffs.iter().map(|d| d.weight_changed).sum();
    weights.mean = if weights.changed > 0 {
        (changed_sum / weights.changed as f64) as f32
    } else {
        0.0
    };
    weights.joints_moved_most = all_joints.most(a, b, JOINTS_NAMED);

    // Vertices of B with no vertex of A near: counted on B's mesh.
    let grid = VertexGrid::new(&vertices.positions, tolerance.distance);
    let mut new_in_b = vec![0usize; b.meshes.len()];
    for (index_b, position) in vertices_b.positions.iter().enumerate() {
        if !grid.any_near(*position) {
            new_in_b[vertices_b.places[index_b].mesh as usize] += 1;
        }
    }
    for diff in &mut diffs {
        diff.new_vertices_b = diff.mesh_b.map_or(0, |mesh_b| new_in_b[mesh_b]);
    }
    for (mesh_b, mesh) in b
        .meshes
        .iter()
        .enumerate()
        .filter(|(i, _)| !mesh_pairs.contains(&Some(*i)))
    {
        diffs.push(MeshDiff {
            name: mesh.name.clone(),
            name_b: Some(mesh.name.clone()),
            mesh_b: Some(mesh_b),
            vertices_b: mesh.primitives.iter().map(Primitive::vertex_count).sum(),
            triangles_b: mesh.primitives.iter().map(Primitive::triangle_count).sum(),
            new_vertices_b: new_in_b[mesh_b],
            ..MeshDiff::default()
        });
    }
    for diff in &diffs {
        mesh_findings(diff, tolerance, findings);
    }
    MeshComparison {
        unpaired_vertices: diffs.iter().map(|d| d.unpaired_vertices + d.new_vertices_b).sum(),
        meshes: diffs,
        weights,
        vertex_weight_change,
        mesh_pairs,
        vertex_pairs,
    }
}

/// The vertex of B that vertex `index` of A pairs with (see the module docs for the choice;
/// among vertices alike in all of that, the one at the same place in its mesh, so that the
/// copies of a vertex pair with their own copies when both files keep the vertex order).
fn nearest(
    a: &ModelVertices,
    index: usize,
    b: &ModelVertices,
    grid_b: &VertexGrid,
    mesh_b: Option<usize>,
    tolerance: &Tolerance,
) -> Option<usize> {
    let in_mesh = a.in_mesh(index).1;
    let mut best: Option<((bool, bool, f32, bool), usize)> = None;
    grid_b.for_each_near(a.positions[index], |index_b, distance| {
        let (candidate_mesh, candidate_in_mesh) = b.in_mesh(index_b);
        let other_mesh = mesh_b != Some(candidate_mesh);
        let disagree = !Attributes::of(a, index, b, index_b).agree(tolerance);
        let key = (other_mesh, disagree, distance, candidate_in_mesh != in_mesh);
        if best.is_none_or(|(best_key, _)| key < best_key) {
            best = Some((key, index_b));
        }
    });
    best.map(|(_, index_b)| index_b)
}

/// The findings about one mesh's geometry.
fn mesh_findings(diff: &MeshDiff, tolerance: &Tolerance, findings: &mut Vec<Finding>) {
    let name = &diff.name;
    let counts = |vertices, triangles| format!("{vertices} vertices, {triangles} triangles");
    let mut texts = Vec::new();
    match (diff.mesh, diff.mesh_b) {
        (Some(_), None) => texts.push(format!("'{name}' removed ({})", counts(diff.vertices, diff.triangles))),
        (None, Some(_)) => texts.push(format!(
            "'{name}' added ({})",
            counts(diff.vertices_b, diff.triangles_b)
        )),
        _ => {
            if diff.triangles != diff.triangles_b {
                texts.push(format!(
                    "'{name}': {} triangles in A, {} in B",
                    diff.triangles, diff.triangles_b
                ));
            }
            if diff.unpaired_vertices > 0 {
                texts.push(format!(
                    "'{name}': {} of {} vertices have no vertex of B within {}",
                    diff.unpaired_vertices,
                    diff.vertices,
                    format_distance(tolerance.distance)
                ));
            }
            if diff.new_vertices_b > 0 {
                texts.push(format!(
                    "'{name}': {} of B's {} vertices have no vertex of A within {}",
                    diff.new_vertices_b,
                    diff.vertices_b,
                    format_distance(tolerance.distance)
                ));
            }
            if diff.uv_changed > 0 {
                texts.push(format!("'{name}': UVs changed on {} vertices", diff.uv_changed));
            }
            if diff.normal_changed > 0 {
                texts.push(format!(
                    "'{name}': normals turned on {} vertices (up to {})",
                    diff.normal_changed,
                    format_angle(diff.largest_normal_angle_degrees)
                ));
            }
        }
    }
    findings.extend(texts.into_iter().map(|text| mesh_finding(Section::Meshes, text)));
}

fn mesh_finding(section: Section, text: String) -> Finding {
    Finding {
        section,
        text,
        joint: None,
        clip: None,
        time: None,
    }
}
