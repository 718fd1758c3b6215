//! Small clips and poses shared by the animation core's unit tests.

use std::sync::Arc;

use glam::Vec3;

use super::{Channel, ChannelTrack, Clip, Hierarchy, Interpolation, Pose, Track, Transform};

/// A clip that moves joint 0 linearly from `from` to `to` over `duration` seconds.
pub fn moving_clip(name: &str, from: Vec3, to: Vec3, duration: f32) -> Clip {
    let track = Track::new(Interpolation::Linear, vec![0.0, duration], vec![from, to]).unwrap();
    Clip::new(
        name.into(),
        vec![Channel {
            joint: 0,
            track: ChannelTrack::Translation(track),
        }],
    )
}

/// The rest pose of a single joint at the origin.
pub fn one_joint_rest() -> Pose {
    Pose::new(
        Arc::new(Hierarchy::new(vec![None]).unwrap()),
        vec![Transform::IDENTITY],
        Vec::new(),
    )
    .unwrap()
}
