//! Small clips and poses shared by the animation core's unit tests.

use std::sync::Arc;

use glam::{DQuat, Vec3};

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

/// Whether the lanes padding `pose`'s last group of four are still identities (the writers of
/// groups must leave them as they are).
pub fn padding_is_untouched(pose: &Pose) -> bool {
    pose.groups().as_flattened()[pose.len()..]
        .iter()
        .all(|lane| *lane == Transform::IDENTITY)
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

/// A deterministic stream of numbers in [0, 1) (no random crate in the core).
pub struct Numbers(pub u64);

impl Numbers {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform on the sphere of unit quaternions (Shoemake's method).
    pub fn quat(&mut self) -> DQuat {
        let (u1, u2, u3) = (
            self.next(),
            self.next() * std::f64::consts::TAU,
            self.next() * std::f64::consts::TAU,
        );
        let (r1, r2) = ((1.0 - u1).sqrt(), u1.sqrt());
        DQuat::from_xyzw(r1 * u2.sin(), r1 * u2.cos(), r2 * u3.sin(), r2 * u3.cos())
    }

    /// A number in [-1, 1).
    pub fn signed(&mut self) -> f32 {
        (self.next() * 2.0 - 1.0) as f32
    }

    /// Any rotation, translation in [-1, 1)³ and scale in [0.5, 1.5)³.
    pub fn transform(&mut self) -> Transform {
        let mut vector = || Vec3::new(self.signed(), self.signed(), self.signed());
        let (translation, scale) = (vector(), vector() * 0.5 + Vec3::ONE);
        Transform::new(translation, self.quat().as_quat(), scale)
    }

    /// A pose of `joints` joints in a chain, with random transforms.
    pub fn pose(&mut self, joints: usize) -> Pose {
        let parents = (0..joints as u32).map(|joint| joint.checked_sub(1)).collect();
        let transforms = (0..joints).map(|_| self.transform()).collect();
        Pose::new(Arc::new(Hierarchy::new(parents).unwrap()), transforms, Vec::new()).unwrap()
    }

    /// Joint weights with some exact zeros and ones among them.
    pub fn mask(&mut self, joints: usize) -> Vec<f32> {
        let mut weight = || match self.next() {
            x if x < 0.25 => 0.0,
            x if x < 0.35 => 1.0,
            x => x as f32,
        };
        (0..joints).map(|_| weight()).collect()
    }
}
