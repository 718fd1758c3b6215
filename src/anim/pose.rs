//! Joint hierarchies and poses.
//!
//! Joints are stored parents-first: a joint's parent always has a smaller index, so model-space
//! transforms are one forward loop over the joints (no recursion; a 10,000-deep chain is as
//! cheap as a flat one).

use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::local_to_model::local_to_model;
use super::transform::Transform;

/// The parent of every joint, validated to be parents-first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hierarchy {
    parents: Vec<Option<u32>>,
}

/// Why a list of parents is not a hierarchy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HierarchyError {
    /// `joint`'s parent is not stored before it (or is itself).
    #[error("joint {joint} has parent {parent}, which is not stored before it (joints must be parents-first)")]
    ParentNotBefore { joint: usize, parent: u32 },
    /// A list that must have one entry per joint has another length.
    #[error("{what} has {found} entries for {expected} joints")]
    LengthMismatch {
        what: &'static str,
        expected: usize,
        found: usize,
    },
}

impl Hierarchy {
    pub fn new(parents: Vec<Option<u32>>) -> Result<Self, HierarchyError> {
        for (joint, parent) in parents.iter().enumerate() {
            if let Some(parent) = *parent
                && parent as usize >= joint
            {
                return Err(HierarchyError::ParentNotBefore { joint, parent });
            }
        }
        Ok(Self { parents })
    }

    pub fn len(&self) -> usize {
        self.parents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    pub fn parent(&self, joint: usize) -> Option<usize> {
        self.parents[joint].map(|p| p as usize)
    }

    /// The joint's parent, its parent's parent, and so on up to the root.
    pub fn ancestors(&self, joint: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent(joint), |&j| self.parent(j))
    }

    /// Depth of the deepest joint (a root has depth 0).
    pub fn depth(&self) -> usize {
        self.depths().into_iter().max().unwrap_or(0)
    }

    /// Each joint's depth: how many ancestors it has.
    pub fn depths(&self) -> Vec<usize> {
        let mut depths = vec![0usize; self.len()];
        for joint in 0..self.len() {
            if let Some(parent) = self.parent(joint) {
                depths[joint] = depths[parent] + 1;
            }
        }
        depths
    }
}

/// Local (parent-space) transforms for every joint of a hierarchy, plus the morph-target
/// weights the joints carry (flat; `Skeleton::morph_weight_range` says which belong to whom),
/// plus the values of other animated properties (flat floats; what each slot means is the
/// model's business, see `asset::AnimatedProperties`).
#[derive(Clone)]
pub struct Pose {
    hierarchy: Arc<Hierarchy>,
    /// The joints in groups of four, the last padded with identities: the blends and additive
    /// layers work a group at a time, and a padded last group spares them a path of their own
    /// for the one to three joints left over.
    groups: Vec<[Transform; 4]>,
    morph_weights: Vec<f32>,
    properties: Vec<f32>,
}

impl Pose {
    pub fn new(
        hierarchy: Arc<Hierarchy>,
        local: Vec<Transform>,
        morph_weights: Vec<f32>,
    ) -> Result<Self, HierarchyError> {
        if local.len() != hierarchy.len() {
            return Err(HierarchyError::LengthMismatch {
                what: "local transforms",
                expected: hierarchy.len(),
                found: local.len(),
            });
        }
        let groups = local
            .chunks(4)
            .map(|group| std::array::from_fn(|lane| group.get(lane).copied().unwrap_or(Transform::IDENTITY)))
            .collect();
        Ok(Self {
            hierarchy,
            groups,
            morph_weights,
            properties: Vec::new(),
        })
    }

    /// The pose with these animated-property values (see `properties`).
    pub fn with_properties(mut self, properties: Vec<f32>) -> Self {
        self.properties = properties;
        self
    }

    pub fn hierarchy(&self) -> &Arc<Hierarchy> {
        &self.hierarchy
    }

    pub fn len(&self) -> usize {
        self.hierarchy.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hierarchy.is_empty()
    }

    /// Parent-space transform of each joint.
    pub fn local(&self) -> &[Transform] {
        &self.groups.as_flattened()[..self.len()]
    }

    pub fn local_mut(&mut self) -> &mut [Transform] {
        let joints = self.len();
        &mut self.groups.as_flattened_mut()[..joints]
    }

    /// The joints four at a time, the last group padded with identities (which writers of
    /// groups must leave as they are).
    pub(super) fn groups(&self) -> &[[Transform; 4]] {
        &self.groups
    }

    pub(super) fn groups_mut(&mut self) -> &mut [[Transform; 4]] {
        &mut self.groups
    }

    pub fn morph_weights(&self) -> &[f32] {
        &self.morph_weights
    }

    pub fn morph_weights_mut(&mut self) -> &mut [f32] {
        &mut self.morph_weights
    }

    /// Animated property values other than transforms and morph weights, flat.
    pub fn properties(&self) -> &[f32] {
        &self.properties
    }

    pub fn properties_mut(&mut self) -> &mut [f32] {
        &mut self.properties
    }

    /// Copies another pose of the same hierarchy into this one without allocating.
    pub fn copy_from(&mut self, other: &Pose) {
        assert!(
            Arc::ptr_eq(&self.hierarchy, &other.hierarchy) || self.hierarchy == other.hierarchy,
            "poses of different hierarchies"
        );
        self.groups.copy_from_slice(&other.groups);
        self.morph_weights.copy_from_slice(&other.morph_weights);
        self.properties.copy_from_slice(&other.properties);
    }

    /// Writes each joint's model-space matrix (joint space → model space) into `out`,
    /// one forward pass, parents before children.
    pub fn model_matrices(&self, out: &mut [Mat4]) {
        assert_eq!(out.len(), self.len(), "one output matrix per joint");
        local_to_model(self.local(), &self.hierarchy.parents, out);
    }

    /// Model-space matrices of every joint in a new vector (convenience for tools and tests;
    /// the frame loop uses `model_matrices` with a buffer it keeps).
    pub fn to_model_matrices(&self) -> Vec<Mat4> {
        let mut out = vec![Mat4::IDENTITY; self.len()];
        self.model_matrices(&mut out);
        out
    }
}

/// Poses are equal when their joints, weights and properties are (the padding is not compared).
impl PartialEq for Pose {
    fn eq(&self, other: &Self) -> bool {
        self.hierarchy == other.hierarchy
            && self.local() == other.local()
            && self.morph_weights == other.morph_weights
            && self.properties == other.properties
    }
}

impl std::fmt::Debug for Pose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pose")
            .field("hierarchy", &self.hierarchy)
            .field("local", &self.local())
            .field("morph_weights", &self.morph_weights)
            .field("properties", &self.properties)
            .finish()
    }
}

/// The diagonal of the box around the positions of joints with these model matrices (0 for
/// none): a rig's size, for tolerances and for choosing a telling pose.
pub fn joint_extent(model_matrices: &[Mat4]) -> f32 {
    let (min, max) = model_matrices
        .iter()
        .map(|m| m.w_axis.truncate())
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        });
    if model_matrices.is_empty() {
        0.0
    } else {
        (max - min).length()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn chain(length: usize, step: Transform) -> Pose {
        let parents = (0..length).map(|i| i.checked_sub(1).map(|p| p as u32)).collect();
        let hierarchy = Arc::new(Hierarchy::new(parents).unwrap());
        Pose::new(hierarchy, vec![step; length], Vec::new()).unwrap()
    }

    #[test]
    fn rejects_children_stored_before_parents() {
        assert_eq!(
            Hierarchy::new(vec![None, Some(2), Some(0)]),
            Err(HierarchyError::ParentNotBefore { joint: 1, parent: 2 })
        );
        assert!(Hierarchy::new(vec![Some(0)]).is_err(), "a joint cannot parent itself");
    }

    #[test]
    fn ancestors_run_from_the_parent_to_the_root() {
        let hierarchy = Hierarchy::new(vec![None, Some(0), Some(1), Some(0), Some(2)]).unwrap();
        assert_eq!(hierarchy.ancestors(4).collect::<Vec<_>>(), [2, 1, 0]);
        assert_eq!(hierarchy.ancestors(3).collect::<Vec<_>>(), [0]);
        assert_eq!(hierarchy.ancestors(0).count(), 0);
    }

    #[test]
    fn model_matrices_compose_parent_then_child() {
        let parent = Transform::new(Vec3::X, Quat::from_rotation_z(0.5), Vec3::splat(2.0));
        let child = Transform::new(Vec3::Y, Quat::from_rotation_x(0.3), Vec3::ONE);
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap());
        let pose = Pose::new(hierarchy, vec![parent, child], Vec::new()).unwrap();
        let model = pose.to_model_matrices();
        assert_eq!(model[0], parent.to_mat4());
        assert!(
            model[1].abs_diff_eq(parent.to_mat4() * child.to_mat4(), 1e-6),
            "child model = parent model × child local"
        );
    }

    #[test]
    fn ten_thousand_deep_chain_needs_no_recursion() {
        let step = Transform::new(Vec3::new(0.0, 0.001, 0.0), Quat::IDENTITY, Vec3::ONE);
        let pose = chain(10_000, step);
        assert_eq!(pose.hierarchy().depth(), 9_999);
        let model = pose.to_model_matrices();
        let tip = model[9_999].w_axis.truncate();
        assert!((tip.y - 10.0).abs() < 1e-3, "tip at {tip}");
    }

    #[test]
    fn copy_from_copies_every_joint() {
        let mut a = chain(3, Transform::IDENTITY);
        let mut b = a.clone();
        b.local_mut()[2].translation = Vec3::Z;
        a.copy_from(&b);
        assert_eq!(a, b);
    }
}
