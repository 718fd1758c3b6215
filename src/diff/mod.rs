//! Two versions of a rig compared: what changed from model A (the old one) to model B (the
//! new one), section by section, with numbers.
//!
//! Both models are in glTF's space after loading (Y up, metres: every reader converts), so a
//! file and its conversion to another format compare equal. The sections, each in its own file:
//!
//! - `joints`: joints paired by name (the retargeter's `anim::match_joints`: exact, then
//!   normalised), then by place (same parent pair, same child index) for the rest; added,
//!   removed, renamed and reparented joints.
//! - `binds`: per paired joint, how far its rest transform (model space) and its bind
//!   transform (the inverse of its inverse bind matrix) moved and turned.
//! - `meshes`: vertex and triangle counts; each vertex of A paired with the nearest vertex of B
//!   within `Tolerance::distance` (bind-pose positions in model space, through a spatial grid),
//!   whatever the vertex order; UVs and normals of paired vertices.
//! - `weights`: skin weights of paired vertices, compared through the joint pairing.
//! - `morphs`: morph targets by name; the largest displacement change of shared ones.
//! - `materials`: factors, textures (by content) and extension layers of materials paired
//!   by name.
//! - `clips`: clips paired by name, then renamed ones by motion; length, key rate, and the
//!   largest distance between paired joints' model-space positions over the clip, sampled at
//!   the keys of both.
//!
//! Anything beyond tolerance is a `Finding`; `RigDiff::differs` is whether there is any. The
//! verdict sums them up in one line: the rig (joints, binds, meshes, weights, morphs) changed,
//! or it is the same rig and only clips or materials differ.

mod binds;
mod clips;
mod joints;
mod materials;
mod meshes;
mod morphs;
mod report_text;
mod verdict;
mod vertex_grid;
mod weights;

use std::cmp::Ordering;

use serde::Serialize;

use crate::asset::Model;
pub use clips::ClipDiff;
#[cfg(any(test, feature = "internals"))]
pub use clips::ClipStatus;
pub use joints::JointSummary;
pub use materials::MaterialDiff;
pub use meshes::MeshDiff;
pub use morphs::{MorphDiff, MorphStatus};
pub use report_text::write_text;
#[cfg(any(test, feature = "internals"))]
pub use report_text::{format_angle, format_distance};
pub use weights::WeightSummary;

/// How far apart two values may be and still count as the same.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Tolerance {
    /// Positions (joints, binds, vertices, morph displacements), in metres: both models are
    /// in metres after loading.
    pub distance: f32,
    /// Rotations (joints, binds) and normals, in degrees.
    pub angle_degrees: f32,
    /// Skin weights (0 to 1).
    pub weight: f32,
}

impl Default for Tolerance {
    /// A tenth of a millimetre, a hundredth of a degree, a hundredth of a weight: far below
    /// what shows, far above what a float round trip through another format changes.
    fn default() -> Self {
        Self {
            distance: 1e-4,
            angle_degrees: 0.01,
            weight: 0.01,
        }
    }
}

/// The part of a rig a finding is about, most important first (findings are sorted so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Joints,
    Binds,
    Meshes,
    Weights,
    Morphs,
    Materials,
    Clips,
}

impl Section {
    /// The section's name in the text report.
    pub fn title(self) -> &'static str {
        match self {
            Section::Joints => "joints",
            Section::Binds => "rest pose and binds",
            Section::Meshes => "meshes",
            Section::Weights => "weights",
            Section::Morphs => "morph targets",
            Section::Materials => "materials",
            Section::Clips => "clips",
        }
    }

    /// Whether a change here changes the rig itself (what the mesh is and how it deforms),
    /// rather than what it plays or how it is shaded.
    pub fn is_rig(self) -> bool {
        !matches!(self, Section::Materials | Section::Clips)
    }
}

/// One difference beyond tolerance, in words, with where to look.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub section: Section,
    /// One line, naming the thing and giving the numbers.
    pub text: String,
    /// The joint of A it is about (for a joint only in B: none).
    pub joint: Option<usize>,
    /// The clip it is about (A's name).
    pub clip: Option<String>,
    /// The clip time, in seconds, where the difference is largest.
    pub time: Option<f32>,
}

/// What happened to one joint. A joint can have several changes (renamed and moved, say);
/// joints without any have none.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum JointChange {
    /// Only in B.
    Added { joint_b: usize, name: String },
    /// Only in A.
    Removed { joint: usize, name: String },
    /// Paired by place in the hierarchy, under another name.
    Renamed {
        joint: usize,
        joint_b: usize,
        name: String,
        name_b: String,
    },
    /// Paired, but its parent in B is not its parent's pair (None: a root).
    Reparented {
        joint: usize,
        joint_b: usize,
        parent: Option<String>,
        parent_b: Option<String>,
    },
    /// Paired, and its rest or bind transform (model space) moved or turned beyond tolerance:
    /// distances in metres, angles in degrees (bind: 0 where either joint has no inverse bind
    /// matrix).
    Moved {
        joint: usize,
        joint_b: usize,
        rest_distance: f32,
        rest_angle_degrees: f32,
        bind_distance: f32,
        bind_angle_degrees: f32,
    },
}

impl JointChange {
    /// The joint of A it is about (None: a joint only in B).
    pub fn joint(&self) -> Option<usize> {
        match *self {
            JointChange::Added { .. } => None,
            JointChange::Removed { joint, .. }
            | JointChange::Renamed { joint, .. }
            | JointChange::Reparented { joint, .. }
            | JointChange::Moved { joint, .. } => Some(joint),
        }
    }

    /// The joint of B it is about (None: a joint only in A).
    pub fn joint_b(&self) -> Option<usize> {
        match *self {
            JointChange::Removed { .. } => None,
            JointChange::Added { joint_b, .. }
            | JointChange::Renamed { joint_b, .. }
            | JointChange::Reparented { joint_b, .. }
            | JointChange::Moved { joint_b, .. } => Some(joint_b),
        }
    }
}

/// Everything that differs between two models, and the numbers behind it.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct RigDiff {
    /// One line: "same rig", "same rig; 2 clips differ", "rig changed: 3 joints added,
    /// weights moved on 412 vertices".
    pub verdict: String,
    /// Whether anything differs beyond tolerance (`rigscope diff` exits with 1).
    pub differs: bool,
    pub tolerance: Tolerance,
    /// For each joint of A, its pair in B (None: removed).
    pub joint_pairs: Vec<Option<usize>>,
    /// The joints' changes: A's joints in order, then the joints only in B.
    pub joint_changes: Vec<JointChange>,
    /// Per mesh of A (`Model::meshes`), per vertex (its primitives' vertices one after
    /// another, in order): the largest change of any joint's weight to the paired vertex of B
    /// (0 where the vertex has no pair or nothing changed). The compare view's heat map.
    #[serde(skip)]
    pub vertex_weight_change: Vec<Vec<f32>>,
    /// Everything beyond tolerance, the rig's sections first.
    pub findings: Vec<Finding>,
    pub joints: JointSummary,
    /// Per mesh of A, then the meshes only in B.
    pub meshes: Vec<MeshDiff>,
    /// The skin weights of all paired vertices together.
    pub weights: WeightSummary,
    /// Per morph target, by mesh.
    pub morphs: Vec<MorphDiff>,
    /// Per material of A that differs or has no pair, then the materials only in B.
    pub materials: Vec<MaterialDiff>,
    /// Per clip of A, then the clips only in B.
    pub clips: Vec<ClipDiff>,
}

impl RigDiff {
    /// The changes of joint `joint` of A.
    pub fn changes_of(&self, joint: usize) -> impl Iterator<Item = &JointChange> {
        self.joint_changes.iter().filter(move |c| c.joint() == Some(joint))
    }

    /// The weight changes of primitive `primitive` of mesh `mesh` of A (`model_a`), one per
    /// vertex (empty where `mesh` or `primitive` is out of range).
    pub fn primitive_weight_change<'a>(&'a self, model_a: &Model, mesh: usize, primitive: usize) -> &'a [f32] {
        let Some(primitives) = model_a.meshes.get(mesh).map(|m| &m.primitives) else {
            return &[];
        };
        let start: usize = primitives.iter().take(primitive).map(|p| p.vertex_count()).sum();
        let count = primitives.get(primitive).map_or(0, |p| p.vertex_count());
        (self.vertex_weight_change.get(mesh)).map_or(&[], |changes| changes.get(start..start + count).unwrap_or(&[]))
    }
}

/// Whether `value` is beyond `limit`: above it, or not a number (a NaN is never within).
/// Pairs each of A's items (by their `names_a`) with one of `b`: the first unpaired one of the
/// same name, else the unpaired one at the same index (meshes and materials).
fn pair_by_name<'a, T>(
    names_a: impl Iterator<Item = &'a str>,
    b: &[T],
    name_b: impl Fn(&T) -> &str,
) -> Vec<Option<usize>> {
    let mut used = vec![false; b.len()];
    let mut pairs: Vec<Option<usize>> = names_a
        .map(|name| {
            let found = (b.iter().enumerate()).position(|(i, item)| !used[i] && name_b(item) == name);
            if let Some(index) = found {
                used[index] = true;
            }
            found
        })
        .collect();
    for (index, pair) in pairs.iter_mut().enumerate() {
        if pair.is_none() && used.get(index) == Some(&false) {
            used[index] = true;
            *pair = Some(index);
        }
    }
    pairs
}

fn beyond(value: f32, limit: f32) -> bool {
    !matches!(value.partial_cmp(&limit), Some(Ordering::Less | Ordering::Equal))
}

/// Compares model B against model A (A is the old version, B the new).
pub fn compare(a: &Model, b: &Model, tolerance: &Tolerance) -> RigDiff {
    let mut findings = Vec::new();
    let mut joints = joints::compare(a, b, &mut findings);
    binds::compare(a, b, &mut joints, tolerance, &mut findings);
    let meshes = meshes::compare(a, b, &joints.pairs, tolerance, &mut findings);
    let morphs = morphs::compare(a, b, &meshes, tolerance, &mut findings);
    let materials = materials::compare(a, b, tolerance, &mut findings);
    let clips = clips::compare(a, b, &joints.pairs, tolerance, &mut findings);
    findings.sort_by_key(|f| f.section);
    let verdict = verdict::verdict(&joints.summary, &meshes, &morphs, &findings);
    RigDiff {
        verdict,
        differs: !findings.is_empty(),
        tolerance: *tolerance,
        joint_pairs: joints.pairs,
        joint_changes: joints.changes,
        vertex_weight_change: meshes.vertex_weight_change,
        findings,
        joints: joints.summary,
        meshes: meshes.meshes,
        weights: meshes.weights,
        morphs,
        materials,
        clips,
    }
}
