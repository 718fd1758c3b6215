//! Morph targets (blend shapes, expressions) compared by name within each pair of meshes.
//!
//! A shared target's change is the largest distance, over the vertices paired across the two
//! meshes, between the vertex's displacement in A and its pair's in B, both taken to model
//! space as the vertices are (`meshes::mesh_to_model`).

use glam::{Mat3, Vec3};
use serde::Serialize;

use super::meshes::{MeshComparison, mesh_to_model};
use super::report_text::format_distance;
use super::{Finding, Section, Tolerance};
use crate::asset::{Mesh, Model};

/// What happened to one morph target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MorphStatus {
    Same,
    Changed,
    Added,
    Removed,
}

/// One morph target of a pair of meshes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MorphDiff {
    /// The mesh's name (A's; B's for a target of a mesh only in B).
    pub mesh: String,
    pub name: String,
    pub status: MorphStatus,
    /// For a shared target, the largest change of a paired vertex's displacement, in metres.
    pub largest_change: f32,
}

/// Compares the morph targets of the paired meshes.
pub fn compare(
    a: &Model,
    b: &Model,
    meshes: &MeshComparison,
    tolerance: &Tolerance,
    findings: &mut Vec<Finding>,
) -> Vec<MorphDiff> {
    let mut morphs = Vec::new();
    let matrices = |model: &Model| {
        let skeleton = &model.skeleton;
        (
            skeleton.rest_pose().to_model_matrices(),
            skeleton.bind_pose().to_model_matrices(),
        )
    };
    let ((rest, bind), (rest_b, bind_b)) = (matrices(a), matrices(b));
    for (mesh_index, mesh) in a.meshes.iter().enumerate() {
        let Some((mesh_b_index, mesh_b)) = meshes.mesh_pairs[mesh_index].and_then(|i| Some((i, b.meshes.get(i)?)))
        else {
            continue;
        };
        for (target, name) in mesh.target_names.iter().enumerate() {
            let Some(target_b) = mesh_b.target_names.iter().position(|n| n == name) else {
                morphs.push(morph(mesh, name, MorphStatus::Removed, 0.0));
                continue;
            };
            let mut largest = 0.0f32;
            // Displacements in model space, as the vertices are paired.
            let (to_model, to_model_b) = (
                Mat3::from_mat4(mesh_to_model(a, mesh_index, &rest, &bind)),
                Mat3::from_mat4(mesh_to_model(b, mesh_b_index, &rest_b, &bind_b)),
            );
            for (vertex, pair) in meshes.vertex_pairs[mesh_index].iter().enumerate() {
                if let Some((in_mesh_b, vertex_b)) = *pair
                    && in_mesh_b == mesh_b_index
                {
                    let change = (to_model * displacement(mesh, vertex, target))
                        .distance(to_model_b * displacement(mesh_b, vertex_b, target_b));
                    largest = if change.is_nan() { f32::NAN } else { largest.max(change) };
                }
            }
            let status = if largest <= tolerance.distance {
                MorphStatus::Same
            } else {
                MorphStatus::Changed
            };
            morphs.push(morph(mesh, name, status, largest));
        }
        for name in mesh_b.target_names.iter().filter(|n| !mesh.target_names.contains(n)) {
            morphs.push(morph(mesh, name, MorphStatus::Added, 0.0));
        }
    }
    for diff in &morphs {
        let (mesh, name) = (&diff.mesh, &diff.name);
        let text = match diff.status {
            MorphStatus::Same => continue,
            MorphStatus::Removed => format!("'{mesh}': morph target '{name}' removed"),
            MorphStatus::Added => format!("'{mesh}': morph target '{name}' added"),
            MorphStatus::Changed => format!(
                "'{mesh}': morph target '{name}' changed by up to {}",
                format_distance(diff.largest_change)
            ),
        };
        findings.push(Finding {
            section: Section::Morphs,
            text,
            joint: None,
            clip: None,
            time: None,
        });
    }
    morphs
}

fn morph(mesh: &Mesh, name: &str, status: MorphStatus, largest_change: f32) -> MorphDiff {
    MorphDiff {
        mesh: mesh.name.clone(),
        name: name.to_owned(),
        status,
        largest_change,
    }
}

/// Morph target `target`'s displacement of vertex `vertex` of `mesh` (its primitives' vertices
/// one after another); zero where the vertex's primitive lacks the target.
fn displacement(mesh: &Mesh, mut vertex: usize, target: usize) -> Vec3 {
    for primitive in &mesh.primitives {
        if vertex < primitive.vertex_count() {
            let positions = primitive.morph_targets.get(target).map(|t| &t.positions);
            return positions.and_then(|p| p.get(vertex)).copied().unwrap_or(Vec3::ZERO);
        }
        vertex -= primitive.vertex_count();
    }
    Vec3::ZERO
}
