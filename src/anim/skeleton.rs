//! The shared, read-only description of a rig: joint names, hierarchy, rest pose, bind pose
//! and inverse bind matrices.
//!
//! - The *rest pose* is the joints' own transforms as authored (glTF node TRS). Animation
//!   channels that a clip does not drive keep their rest value.
//! - The *bind pose* is the pose the mesh was bound in, the one pose that does not deform the
//!   skin. Files store it as inverse bind matrices (model space → joint space). A joint that has
//!   none (it influences no vertex) keeps its rest transform relative to its parent's bind pose.

use std::ops::Range;
use std::sync::Arc;

use glam::{Mat4, Quat};

use super::pose::{Hierarchy, HierarchyError, Pose};
use super::transform::Transform;

/// What a format loader knows about one joint.
#[derive(Clone, Debug)]
pub struct JointDesc {
    pub name: String,
    pub parent: Option<u32>,
    /// Parent-space transform as authored.
    pub rest: Transform,
    /// Bind-pose model matrix (joint space → model space), the inverse of the file's inverse
    /// bind matrix, when the joint has one.
    pub bind_model: Option<Mat4>,
    /// Default morph-target weights carried by this joint (empty when it has no morph targets).
    pub morph_weights: Vec<f32>,
}

#[derive(Clone, Debug)]
pub struct Skeleton {
    hierarchy: Arc<Hierarchy>,
    names: Vec<String>,
    rest: Pose,
    bind: Pose,
    /// Model space → joint space in the bind pose.
    inverse_bind: Vec<Mat4>,
    /// Start of each joint's morph weights in `Pose::morph_weights`, plus one past the end.
    morph_offsets: Vec<u32>,
}

impl Skeleton {
    pub fn new(joints: Vec<JointDesc>) -> Result<Self, HierarchyError> {
        let hierarchy = Arc::new(Hierarchy::new(joints.iter().map(|j| j.parent).collect())?);
        let rest_local: Vec<Transform> = joints.iter().map(|j| j.rest).collect();

        let mut morph_offsets = Vec::with_capacity(joints.len() + 1);
        let mut morph_weights = Vec::new();
        for joint in &joints {
            morph_offsets.push(morph_weights.len() as u32);
            morph_weights.extend_from_slice(&joint.morph_weights);
        }
        morph_offsets.push(morph_weights.len() as u32);

        // Bind pose in model space: given, or the rest transform under the parent's bind pose.
        let mut bind_model = Vec::with_capacity(joints.len());
        for (index, joint) in joints.iter().enumerate() {
            let parent_model = hierarchy.parent(index).map(|p| bind_model[p]);
            let model = joint.bind_model.unwrap_or_else(|| match parent_model {
                Some(parent) => parent * joint.rest.to_mat4(),
                None => joint.rest.to_mat4(),
            });
            bind_model.push(model);
        }
        let bind_local = (0..joints.len())
            .map(|index| {
                let local = match hierarchy.parent(index) {
                    Some(parent) => bind_model[parent].inverse() * bind_model[index],
                    None => bind_model[index],
                };
                Transform::from_mat4(&local)
            })
            .collect();
        let inverse_bind = bind_model.iter().map(Mat4::inverse).collect();

        let rest = Pose::new(hierarchy.clone(), rest_local, morph_weights.clone())?;
        let bind = Pose::new(hierarchy.clone(), bind_local, morph_weights)?;
        Ok(Self {
            hierarchy,
            names: joints.into_iter().map(|j| j.name).collect(),
            rest,
            bind,
            inverse_bind,
            morph_offsets,
        })
    }

    /// The skeleton whose rest and bind poses hold these animated-property values (the
    /// file's values of the properties some clip animates, see `Pose::properties`).
    pub fn with_properties(mut self, rest: Vec<f32>) -> Self {
        self.rest = self.rest.with_properties(rest.clone());
        self.bind = self.bind.with_properties(rest);
        self
    }

    pub fn hierarchy(&self) -> &Arc<Hierarchy> {
        &self.hierarchy
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn name(&self, joint: usize) -> &str {
        &self.names[joint]
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn parent(&self, joint: usize) -> Option<usize> {
        self.hierarchy.parent(joint)
    }

    pub fn rest_pose(&self) -> &Pose {
        &self.rest
    }

    pub fn bind_pose(&self) -> &Pose {
        &self.bind
    }

    /// Model space → joint space in the bind pose, per joint.
    pub fn inverse_bind_matrices(&self) -> &[Mat4] {
        &self.inverse_bind
    }

    /// Which entries of `Pose::morph_weights` belong to `joint`.
    pub fn morph_weight_range(&self, joint: usize) -> Range<usize> {
        self.morph_offsets[joint] as usize..self.morph_offsets[joint + 1] as usize
    }

    /// The same skeleton under the rotation `turn` about the model's origin: every root's rest
    /// and bind transforms turned, and the inverse bind matrices with them (so vertices in
    /// model space must be turned too).
    pub fn turned(&self, turn: Quat) -> Skeleton {
        let turn_roots = |pose: &Pose| {
            let mut pose = pose.clone();
            for (joint, transform) in pose.local_mut().iter_mut().enumerate() {
                if self.hierarchy.parent(joint).is_none() {
                    transform.translation = turn * transform.translation;
                    transform.rotation = turn * transform.rotation;
                }
            }
            pose
        };
        let unturn = Mat4::from_quat(turn.inverse());
        Skeleton {
            hierarchy: self.hierarchy.clone(),
            names: self.names.clone(),
            rest: turn_roots(&self.rest),
            bind: turn_roots(&self.bind),
            inverse_bind: self.inverse_bind.iter().map(|m| *m * unturn).collect(),
            morph_offsets: self.morph_offsets.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn joint(name: &str, parent: Option<u32>, rest: Transform) -> JointDesc {
        JointDesc {
            name: name.into(),
            parent,
            rest,
            bind_model: None,
            morph_weights: Vec::new(),
        }
    }

    #[test]
    fn bind_pose_reproduces_the_inverse_bind_matrices() {
        let bind_root = Transform::new(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_y(0.4), Vec3::ONE);
        let bind_arm_model =
            bind_root.to_mat4() * Transform::new(Vec3::X, Quat::from_rotation_z(-0.7), Vec3::splat(1.5)).to_mat4();
        let mut root = joint("root", None, Transform::IDENTITY);
        root.bind_model = Some(bind_root.to_mat4());
        let mut arm = joint("arm", Some(0), Transform::IDENTITY);
        arm.bind_model = Some(bind_arm_model);
        let skeleton = Skeleton::new(vec![root, arm]).unwrap();

        let model = skeleton.bind_pose().to_model_matrices();
        assert!(model[0].abs_diff_eq(bind_root.to_mat4(), 1e-5));
        assert!(model[1].abs_diff_eq(bind_arm_model, 1e-5));
        for (m, inverse_bind) in model.iter().zip(skeleton.inverse_bind_matrices()) {
            assert!((*m * *inverse_bind).abs_diff_eq(Mat4::IDENTITY, 1e-5));
        }
    }

    #[test]
    fn joints_without_inverse_bind_keep_their_rest_transform() {
        let mut root = joint("root", None, Transform::IDENTITY);
        root.bind_model = Some(Mat4::from_translation(Vec3::Y));
        let tip_rest = Transform::new(Vec3::Z, Quat::from_rotation_x(0.2), Vec3::ONE);
        let skeleton = Skeleton::new(vec![root, joint("tip", Some(0), tip_rest)]).unwrap();
        let bind_tip = skeleton.bind_pose().local()[1];
        assert!(bind_tip.translation.abs_diff_eq(tip_rest.translation, 1e-6));
        assert!(bind_tip.rotation.abs_diff_eq(tip_rest.rotation, 1e-6));
        assert_eq!(skeleton.rest_pose().local()[0], Transform::IDENTITY);
    }

    #[test]
    fn morph_weights_are_laid_out_per_joint() {
        let mut a = joint("a", None, Transform::IDENTITY);
        a.morph_weights = vec![0.5, 0.25];
        let b = joint("b", Some(0), Transform::IDENTITY);
        let mut c = joint("c", Some(0), Transform::IDENTITY);
        c.morph_weights = vec![1.0];
        let skeleton = Skeleton::new(vec![a, b, c]).unwrap();
        assert_eq!(skeleton.morph_weight_range(0), 0..2);
        assert_eq!(skeleton.morph_weight_range(1), 2..2);
        assert_eq!(skeleton.morph_weight_range(2), 2..3);
        assert_eq!(skeleton.rest_pose().morph_weights(), &[0.5, 0.25, 1.0]);
    }
}
