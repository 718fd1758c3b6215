//! How far a clip with fewer keys strays from the original, measured where it matters: each
//! joint's model-space position and rotation, and each weights channel's values, at every key time
//! of the original and half-way between consecutive ones (for LINEAR tracks the local error is
//! largest at keys; the half-way times catch what rotations up the hierarchy make of it).
//!
//! Both clips are sampled the same way, track by track over the skeleton's rest pose (the joints
//! a clip does not animate hold their rest transforms), so that channels with the same keys give
//! the same values to the bit. A joint's model-space rotation is the product of the local
//! rotations from its root down (the rotation part of its model matrix when scales are uniform).

use glam::{Mat4, Quat, Vec3};

use super::clip::{Channel, ChannelTrack, Clip};
use super::key_decimation::rotation_angle;
use super::key_times::key_times;
use super::pose::Pose;
use super::skeleton::Skeleton;

/// The original clip's model-space poses at the times checked, what the reduction's tolerances
/// are worked out from, and the buffers a measurement samples into.
pub(super) struct ReductionCheck {
    /// Every distinct key time of the original and the times half-way between them, ascending.
    times: Vec<f32>,
    /// The original's model-space joint positions, `joints` per time.
    positions: Vec<Vec3>,
    /// The original's model-space joint rotations, `joints` per time.
    rotations: Vec<Quat>,
    /// Per joint, the longest path (model units) from it down the hierarchy to any descendant, at
    /// least its own bone (the distance to its parent: a leaf still moves the skin around it), in
    /// any pose checked.
    reach: Vec<f32>,
    /// Per joint, the largest scale of its parent's model matrix in any pose checked (1 for roots).
    parent_scale: Vec<f32>,
    rest: Pose,
    pose: Pose,
    matrices: Vec<Mat4>,
    world_rotations: Vec<Quat>,
    cursors: Vec<u32>,
    /// Two clips' weights at one time.
    weights: [Vec<f32>; 2],
}

/// The largest errors of a clip checked, per joint and per channel.
#[derive(Clone, Debug, Default)]
pub(super) struct Errors {
    /// Model units, per joint.
    pub position: Vec<f32>,
    /// Radians, per joint.
    pub rotation: Vec<f32>,
    /// Per channel: the largest difference of one weight (morph weights and properties; 0 for
    /// the other channels).
    pub weight: Vec<f32>,
}

impl ReductionCheck {
    /// Samples `clip` over `skeleton`'s rest pose at the times checked.
    pub(super) fn new(clip: &Clip, skeleton: &Skeleton) -> Self {
        let keys = key_times(clip, None);
        let mut times = Vec::with_capacity(keys.len() * 2);
        for pair in keys.windows(2) {
            times.extend([pair[0], pair[0] + (pair[1] - pair[0]) * 0.5]);
        }
        times.extend(keys.last());
        let joints = skeleton.len();
        let rest = skeleton.rest_pose().clone();
        let mut check = Self {
            positions: Vec::with_capacity(times.len() * joints),
            rotations: Vec::with_capacity(times.len() * joints),
            times,
            reach: vec![0.0; joints],
            parent_scale: vec![1.0; joints],
            pose: rest.clone(),
            rest,
            matrices: vec![Mat4::IDENTITY; joints],
            world_rotations: vec![Quat::IDENTITY; joints],
            cursors: Vec::new(),
            weights: [Vec::new(), Vec::new()],
        };
        let mut path = vec![0.0f32; joints];
        for index in 0..check.times.len() {
            check.pose_at(clip.channels(), check.times[index]);
            check
                .positions
                .extend(check.matrices.iter().map(|m| m.w_axis.truncate()));
            check.rotations.extend_from_slice(&check.world_rotations);
            check.measure_reach(&mut path);
        }
        check
    }

    /// Per joint, the longest path from it down the hierarchy, at least its bone (see `reach`).
    pub(super) fn reach(&self) -> &[f32] {
        &self.reach
    }

    /// Per joint, the largest scale of its parent's model matrix (see `parent_scale`).
    pub(super) fn parent_scale(&self) -> &[f32] {
        &self.parent_scale
    }

    /// Widens `reach` and `parent_scale` to the pose in `matrices`; `path` is scratch, one per
    /// joint.
    fn measure_reach(&mut self, path: &mut [f32]) {
        path.fill(0.0);
        let hierarchy = self.rest.hierarchy().clone();
        // Children come after their parents: walking backwards finishes each joint's paths before
        // its parent reads them.
        for joint in (0..path.len()).rev() {
            let Some(parent) = hierarchy.parent(joint) else {
                continue;
            };
            let bone = self.matrices[joint].w_axis.distance(self.matrices[parent].w_axis);
            path[parent] = path[parent].max(path[joint] + bone);
            self.reach[joint] = self.reach[joint].max(path[joint]).max(bone);
            let axes = [
                self.matrices[parent].x_axis,
                self.matrices[parent].y_axis,
                self.matrices[parent].z_axis,
            ];
            let scale = axes.iter().map(|axis| axis.truncate().length()).fold(0.0, f32::max);
            self.parent_scale[joint] = self.parent_scale[joint].max(scale);
        }
        for (joint, reach) in self.reach.iter_mut().enumerate() {
            if hierarchy.parent(joint).is_none() {
                *reach = reach.max(path[joint]);
            }
        }
    }

    /// Samples `channels` at `time` over the rest pose into `pose`, then its model matrices and
    /// model-space rotations.
    fn pose_at(&mut self, channels: &[Channel], time: f32) {
        self.cursors.resize(channels.len(), 0);
        self.pose.copy_from(&self.rest);
        let local = self.pose.local_mut();
        for (channel, cursor) in channels.iter().zip(&mut self.cursors) {
            let Some(joint) = local.get_mut(channel.joint) else {
                continue;
            };
            match &channel.track {
                ChannelTrack::Translation(track) => joint.translation = track.sample(time, cursor),
                ChannelTrack::Rotation(track) => joint.rotation = track.sample(time, cursor),
                ChannelTrack::Scale(track) => joint.scale = track.sample(time, cursor),
                ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => {}
            }
        }
        self.pose.model_matrices(&mut self.matrices);
        let hierarchy = self.pose.hierarchy();
        for (joint, local) in self.pose.local().iter().enumerate() {
            self.world_rotations[joint] = match hierarchy.parent(joint) {
                Some(parent) => self.world_rotations[parent] * local.rotation,
                None => local.rotation,
            };
        }
    }

    /// The largest errors of `channels` (the original's, some with fewer keys, in the same
    /// order) against the original, into `errors`.
    pub(super) fn measure(&mut self, original: &Clip, channels: &[Channel], errors: &mut Errors) {
        let joints = self.rest.len();
        errors.position.clear();
        errors.position.resize(joints, 0.0);
        errors.rotation.clear();
        errors.rotation.resize(joints, 0.0);
        self.cursors.fill(0);
        for index in 0..self.times.len() {
            self.pose_at(channels, self.times[index]);
            let range = index * joints..(index + 1) * joints;
            let expected = self.positions[range.clone()].iter().zip(&self.rotations[range]);
            for (joint, (position, rotation)) in expected.enumerate() {
                let position_error = self.matrices[joint].w_axis.truncate().distance(*position);
                let rotation_error = rotation_angle(self.world_rotations[joint], *rotation);
                errors.position[joint] = errors.position[joint].max(position_error);
                errors.rotation[joint] = errors.rotation[joint].max(rotation_error);
            }
        }
        errors.weight.clear();
        for (before, after) in original.channels().iter().zip(channels) {
            errors.weight.push(self.weight_error(&before.track, &after.track));
        }
    }

    /// The largest difference of one weight between two weights tracks at the times checked (0
    /// for other channels).
    fn weight_error(&mut self, before: &ChannelTrack, after: &ChannelTrack) -> f32 {
        let (before, after) = match (before, after) {
            (ChannelTrack::MorphWeights { track: before, .. }, ChannelTrack::MorphWeights { track: after, .. })
            | (ChannelTrack::Properties { track: before, .. }, ChannelTrack::Properties { track: after, .. }) => {
                (before, after)
            }
            _ => return 0.0,
        };
        let [expected, found] = &mut self.weights;
        expected.resize(before.width(), 0.0);
        found.resize(before.width(), 0.0);
        let (mut before_cursor, mut after_cursor) = (0, 0);
        let mut largest = 0.0f32;
        for &time in &self.times {
            before.sample_into(time, &mut before_cursor, expected);
            after.sample_into(time, &mut after_cursor, found);
            largest = (expected.iter().zip(found.iter())).fold(largest, |largest, (a, b)| largest.max((a - b).abs()));
        }
        largest
    }
}
