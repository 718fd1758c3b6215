//! An IK chain: a joint and the ancestors above it, their constraints, and the working copy of
//! their transforms that the solvers rotate.

use std::f32::consts::PI;

use glam::{Mat3, Mat4, Quat, Vec3};

use super::constraint::{JointConstraint, wrap_angle};
use crate::anim::pose::{Hierarchy, Pose};
use crate::anim::transform::Transform;

/// Why a chain cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// The end joint is not in the hierarchy.
    #[error("joint {joint} does not exist (the rig has {joints})")]
    NoSuchJoint { joint: usize, joints: usize },
    /// The chain asks for more bones than the end joint has ancestors.
    #[error("a chain of {length} bones needs {length} ancestors above joint {joint}, which has {ancestors}")]
    TooLong {
        joint: usize,
        length: usize,
        ancestors: usize,
    },
    /// A chain needs at least one bone.
    #[error("a chain needs at least one bone")]
    Empty,
}

/// The joints of a chain, root first, end effector last: `length` bones above the end joint.
/// The solvers rotate every joint but the end effector, whose rotation stays as animated.
#[derive(Clone, Debug, PartialEq)]
pub struct IkChain {
    joints: Vec<usize>,
    /// One per bone (every chain joint but the end effector).
    constraints: Vec<JointConstraint>,
    /// Rest rotations of the chain's joints, which the constraints measure from.
    rest: Vec<Quat>,
    /// Local transforms of the chain's joints, as the solver leaves them.
    local: Vec<Transform>,
    /// Model matrix of the root's parent (identity for a root joint).
    base: Mat4,
    /// Model matrix of each chain joint, kept up to date with `local`.
    model: Vec<Mat4>,
}

impl IkChain {
    pub fn new(hierarchy: &Hierarchy, end: usize, length: usize) -> Result<Self, ChainError> {
        if end >= hierarchy.len() {
            return Err(ChainError::NoSuchJoint {
                joint: end,
                joints: hierarchy.len(),
            });
        }
        if length == 0 {
            return Err(ChainError::Empty);
        }
        let mut joints = vec![end];
        while joints.len() <= length {
            match hierarchy.parent(joints[joints.len() - 1]) {
                Some(parent) => joints.push(parent),
                None => {
                    return Err(ChainError::TooLong {
                        joint: end,
                        length,
                        ancestors: joints.len() - 1,
                    });
                }
            }
        }
        joints.reverse();
        let count = joints.len();
        Ok(Self {
            joints,
            constraints: vec![JointConstraint::Free; count - 1],
            rest: vec![Quat::IDENTITY; count],
            local: vec![Transform::IDENTITY; count],
            base: Mat4::IDENTITY,
            model: vec![Mat4::IDENTITY; count],
        })
    }

    /// The chain's joints, root first.
    pub fn joints(&self) -> &[usize] {
        &self.joints
    }

    pub fn end(&self) -> usize {
        self.joints[self.joints.len() - 1]
    }

    /// Number of bones (joints that rotate).
    pub fn bones(&self) -> usize {
        self.joints.len() - 1
    }

    pub fn constraints(&self) -> &[JointConstraint] {
        &self.constraints
    }

    /// The constraint of bone `index` (chain joint `index`, root first).
    pub fn constraints_mut(&mut self) -> &mut [JointConstraint] {
        &mut self.constraints
    }

    /// Copies the chain's transforms out of `pose` and `rest` and computes their model
    /// matrices (the root's ancestors are walked once, without the rest of the pose).
    pub fn load(&mut self, pose: &Pose, rest: &Pose) {
        let local = pose.local();
        for (i, &joint) in self.joints.iter().enumerate() {
            self.local[i] = local[joint];
            self.rest[i] = rest.local()[joint].rotation;
        }
        self.base = Mat4::IDENTITY;
        for joint in pose.hierarchy().ancestors(self.joints[0]) {
            self.base = local[joint].to_mat4() * self.base;
        }
        self.update_from(0);
    }

    /// Writes the chain's rotations into `pose`, blended from the pose's own by `weight`.
    pub fn store(&self, pose: &mut Pose, weight: f32) {
        let local = pose.local_mut();
        for (solved, &joint) in self.local.iter().zip(&self.joints) {
            local[joint].rotation = if weight >= 1.0 {
                solved.rotation
            } else {
                crate::anim::quat::slerp_shortest(local[joint].rotation, solved.rotation, weight)
            };
        }
    }

    /// Model-space position of chain joint `index`.
    pub fn position(&self, index: usize) -> Vec3 {
        self.model[index].w_axis.truncate()
    }

    pub fn end_position(&self) -> Vec3 {
        self.position(self.joints.len() - 1)
    }

    /// Model-space length of bone `index`, root first, as the chain is now. Measured each
    /// time: under a non-uniformly scaled ancestor, turning a joint changes it.
    pub fn bone_length(&self, index: usize) -> f32 {
        self.position(index).distance(self.position(index + 1))
    }

    /// Model-space length of the whole chain, as it is now.
    pub fn length(&self) -> f32 {
        (0..self.bones()).map(|bone| self.bone_length(bone)).sum()
    }

    /// Direction of bone `index` (towards the next chain joint) in the joint's rest frame:
    /// the next joint's translation through this joint's scale, as constraints measure it.
    pub fn bone_direction(&self, index: usize) -> Vec3 {
        bone_direction(&self.local[index], &self.local[index + 1])
    }

    /// How far bone `index`'s rotation lies outside its constraint, in radians.
    pub fn violation(&self, index: usize) -> f32 {
        self.constraints[index].violation(self.local[index].rotation, self.rest[index], self.bone_direction(index))
    }

    /// Rotates chain joint `index` so that the model-space direction `from` (seen from the
    /// joint) turns towards `to`, then applies its constraint. The turn is taken in the
    /// parent's space, so it lines the directions up even under non-uniform parent scale.
    pub fn rotate_towards(&mut self, index: usize, from: Vec3, to: Vec3) {
        let parent = if index == 0 { self.base } else { self.model[index - 1] };
        // Directions only: the inverse of the parent's 3x3 part is enough.
        let to_parent = Mat3::from_mat4(parent).inverse();
        let (from, to) = (to_parent * from, to_parent * to);
        let (Some(from), Some(to)) = (from.try_normalize(), to.try_normalize()) else {
            return;
        };
        let turned = (rotation_arc(from, to) * self.local[index].rotation).normalize();
        let bone = self.bone_direction(index);
        self.local[index].rotation = self.constraints[index].limit(turned, self.rest[index], bone);
        self.update_from(index);
    }

    /// When the joint after `index` is a hinge, twists joint `index` about its bone so that
    /// the hinge's plane of motion passes through `target` (as near as the twist can bring
    /// it), choosing, of the two twists that do, the one whose bend towards the target lies
    /// within the hinge's range. Without this a hinge whose plane misses the target could
    /// never reach it: the solvers' shortest-arc turns never twist a bone.
    pub fn align_hinge_plane(&mut self, index: usize, target: Vec3) {
        let Some(&JointConstraint::Hinge { axis, min, max }) = self.constraints.get(index + 1) else {
            return;
        };
        let (origin, hinge) = (self.position(index), self.position(index + 1));
        let Some(bone) = (hinge - origin).try_normalize() else {
            return;
        };
        let frame = self.model[index];
        let handedness = frame.determinant().signum();
        let hinge_axis = frame.transform_vector3(self.rest[index + 1] * axis).normalize_or_zero();
        let rest_forearm = frame
            .transform_vector3(self.rest[index + 1] * self.bone_direction(index + 1))
            .normalize_or_zero();
        let to_target = target - hinge;
        let across = |v: Vec3| v - bone * v.dot(bone);
        let (axis_across, target_across) = (across(hinge_axis), across(to_target));
        let reach = axis_across.length() * target_across.length();
        if reach < 1e-9 {
            return;
        }
        // After a twist φ the hinge axis is ⊥ to the target when cos(α + φ) = needed.
        let alpha = bone
            .dot(target_across.cross(axis_across))
            .atan2(target_across.dot(axis_across));
        let needed = (-hinge_axis.dot(bone) * to_target.dot(bone) / reach).clamp(-1.0, 1.0);
        let bend_cost = |twist: f32| {
            let turn = Quat::from_axis_angle(bone, twist);
            let (axis, forearm) = (turn * hinge_axis, turn * rest_forearm);
            let flat = |v: Vec3| v - axis * v.dot(axis);
            let (forearm, to_target) = (flat(forearm), flat(to_target));
            // A mirroring frame turns a local +θ into a model-space -θ.
            let bend = axis.dot(forearm.cross(to_target)).atan2(forearm.dot(to_target)) * handedness;
            (min - bend).max(bend - max).max(0.0)
        };
        let candidates = [wrap_angle(needed.acos() - alpha), wrap_angle(-needed.acos() - alpha)];
        let twist = candidates
            .into_iter()
            .min_by(|a, b| {
                bend_cost(*a)
                    .total_cmp(&bend_cost(*b))
                    .then(a.abs().total_cmp(&b.abs()))
            })
            .unwrap_or(0.0);
        if twist.is_finite() && twist.abs() > 1e-6 {
            self.rotate_towards(index, axis_across, Quat::from_axis_angle(bone, twist) * axis_across);
        }
    }

    /// Recomputes the model matrices of chain joints `index..`.
    fn update_from(&mut self, index: usize) {
        for i in index..self.joints.len() {
            let parent = if i == 0 { self.base } else { self.model[i - 1] };
            self.model[i] = parent * self.local[i].to_mat4();
        }
    }
}

/// Direction from `joint` towards its child `next` in the joint's rest frame (before its
/// rotation): the child's translation through the joint's scale; +Y when they coincide.
fn bone_direction(joint: &Transform, next: &Transform) -> Vec3 {
    (next.translation * joint.scale).try_normalize().unwrap_or(Vec3::Y)
}

/// The shortest rotation taking unit vector `from` to unit vector `to`, through the half-way
/// vector. Unlike glam's `from_rotation_arc`, which returns the identity below about 7e-4
/// radians, it keeps small turns, so the solvers converge below a millimetre on a metre-long
/// chain.
fn rotation_arc(from: Vec3, to: Vec3) -> Quat {
    match (from + to).try_normalize() {
        Some(half) => {
            let axis = from.cross(half);
            Quat::from_xyzw(axis.x, axis.y, axis.z, from.dot(half)).normalize()
        }
        None => Quat::from_axis_angle(from.any_orthonormal_vector(), PI),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_its_end_joint_and_the_ancestors_above_it() {
        let hierarchy = Hierarchy::new(vec![None, Some(0), Some(1), Some(2), Some(1)]).unwrap();
        let chain = IkChain::new(&hierarchy, 3, 2).unwrap();
        assert_eq!(chain.joints(), &[1, 2, 3]);
        assert_eq!(chain.bones(), 2);
        assert_eq!(
            IkChain::new(&hierarchy, 4, 3),
            Err(ChainError::TooLong {
                joint: 4,
                length: 3,
                ancestors: 2
            })
        );
        assert_eq!(
            IkChain::new(&hierarchy, 9, 1),
            Err(ChainError::NoSuchJoint { joint: 9, joints: 5 })
        );
        assert_eq!(IkChain::new(&hierarchy, 3, 0), Err(ChainError::Empty));
    }

    #[test]
    fn a_hinge_aligned_to_a_nan_target_stays_as_it_was() {
        let hierarchy = std::sync::Arc::new(Hierarchy::new(vec![None, Some(0), Some(1)]).unwrap());
        let mut chain = IkChain::new(&hierarchy, 2, 2).unwrap();
        let joint = |y: f32| Transform::new(Vec3::new(0.0, y, 0.0), Quat::IDENTITY, Vec3::ONE);
        let rest = Pose::new(hierarchy, vec![joint(0.0), joint(1.0), joint(1.0)], Vec::new()).unwrap();
        chain.load(&rest, &rest);
        chain.constraints_mut()[1] = JointConstraint::Hinge {
            axis: Vec3::X,
            min: 0.0,
            max: 2.0,
        };
        let before = chain.end_position();
        chain.align_hinge_plane(0, Vec3::NAN);
        assert_eq!(chain.end_position(), before);
    }

    #[test]
    fn rotation_arc_keeps_tiny_turns() {
        for angle in [1e-5f32, 1e-4, 1e-3, 0.5, 3.0] {
            let to = Quat::from_rotation_z(angle) * Vec3::X;
            let arc = rotation_arc(Vec3::X, to);
            assert!((arc * Vec3::X).distance(to) < 1e-6, "{angle}");
            let turned = 2.0 * arc.xyz().length().min(1.0).asin();
            assert!((turned - angle).abs() < 1e-3 * angle, "{angle}: {turned}");
        }
        let flipped = rotation_arc(Vec3::Y, -Vec3::Y);
        assert!((flipped * Vec3::Y).distance(-Vec3::Y) < 1e-6);
    }
}
