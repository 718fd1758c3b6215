//! A clip played in place: its travel taken out of each pose, so a walking character stays
//! where it starts (the ground is what moves, by `-travel`).
//!
//! After sampling, the carrier's model-space position `p` is found from its chain of local
//! transforms, and the carrier is moved by `-(p.x − p₀.x, 0, p.z − p₀.z)` in model space,
//! `p₀` its position at the clip's start (its local translation less that offset taken into
//! its parent's space): everything under it shifts on the ground, its height, its heading
//! and the joints above it are kept. A carrier whose parent cannot be inverted (scaled to
//! nothing) is left as it is.

use glam::{Mat4, Vec2, Vec3};

use crate::anim::{Clip, Pose, Skeleton};

/// Takes one clip's travel out of poses; made once per clip, then allocation-free.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InPlace {
    joint: usize,
    start: Vec3,
}

impl InPlace {
    /// For `clip` on `skeleton`, its travel carried by `joint`; none for a joint the skeleton
    /// does not have.
    pub fn new(skeleton: &Skeleton, clip: &Clip, joint: usize) -> Option<Self> {
        if joint >= skeleton.len() {
            return None;
        }
        let mut pose = skeleton.rest_pose().clone();
        clip.sample(0.0, &mut pose, &mut clip.cursor());
        Some(Self {
            joint,
            start: carrier_position(&pose, joint),
        })
    }

    /// The joint carrying the travel.
    #[cfg(any(test, feature = "internals"))]
    pub fn joint(&self) -> usize {
        self.joint
    }

    /// The travel `pose` shows (ground-plane x, z from the clip's start).
    pub fn travel(&self, pose: &Pose) -> Vec2 {
        let offset = carrier_position(pose, self.joint) - self.start;
        Vec2::new(offset.x, offset.z)
    }

    /// Moves `pose`'s carrier back by its travel; returns the travel taken out.
    pub fn apply(&self, pose: &mut Pose) -> Vec2 {
        let travel = self.travel(pose);
        let to_parent = parent_matrix(pose, self.joint).inverse();
        let shift = to_parent.transform_vector3(Vec3::new(travel.x, 0.0, travel.y));
        if shift.is_finite() {
            pose.local_mut()[self.joint].translation -= shift;
        }
        travel
    }
}

/// `joint`'s model-space position in `pose`.
fn carrier_position(pose: &Pose, joint: usize) -> Vec3 {
    (parent_matrix(pose, joint) * pose.local()[joint].to_mat4())
        .w_axis
        .truncate()
}

/// The model matrix of `joint`'s parent in `pose` (identity for a top-level joint), from the
/// chain of local transforms above it.
fn parent_matrix(pose: &Pose, joint: usize) -> Mat4 {
    let local = pose.local();
    let mut matrix = Mat4::IDENTITY;
    for ancestor in pose.hierarchy().ancestors(joint) {
        matrix = local[ancestor].to_mat4() * matrix;
    }
    matrix
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::test_walker::{Carrier, Walk, walker};

    #[test]
    fn in_place_the_carrier_stays_over_its_start_and_keeps_its_height() {
        for carrier in [Carrier::Root, Carrier::Hips] {
            let model = walker(Walk {
                carrier,
                ..Walk::default()
            });
            let (skeleton, clip) = (&model.skeleton, &model.clips[0]);
            let hips = skeleton.find("mixamorig:Hips").unwrap();
            let in_place = InPlace::new(skeleton, clip, hips).unwrap();
            let mut pose = skeleton.rest_pose().clone();
            let mut cursor = clip.cursor();
            for time in [0.0, 0.3, 1.1, 2.0] {
                pose.copy_from(skeleton.rest_pose());
                clip.sample(time, &mut pose, &mut cursor);
                let travelled = in_place.apply(&mut pose);
                assert!((travelled.y - 1.5 * time).abs() < 1e-4, "{time}: {travelled}");
                let at = pose.to_model_matrices()[hips].w_axis;
                assert!(
                    at.x.abs() < 1e-4 && at.z.abs() < 1e-4 && (at.y - 0.9).abs() < 1e-4,
                    "{time}: {at}"
                );
            }
        }
    }
}
