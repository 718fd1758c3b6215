//! Root motion: the carrier joint's motion split into its travel over the ground and its
//! heading (what a game's root motion drives the character with), and the rest.
//!
//! At each sample, with `p` the carrier's model-space position and `R` its model-space
//! rotation: the travel is `(p.x − p₀.x, p.z − p₀.z)`, the ground-plane offset from where it
//! starts; the heading is the angle about +Y from the start's forward to now's, forward being
//! `R · R₀⁻¹ · +Z` projected on the ground (unwrapped, so two turns read 720°). What is left,
//! the height `p.y` and everything below the carrier, is the motion in place.
//!
//! The distance travelled is from where the carrier starts to where it ends, on the ground
//! (as game engines' clip inspectors give a clip's average velocity): the hips sway and
//! surge at every step, which a path through every sample would count as travel (an
//! in-place run would "travel" metres).

use glam::{Quat, Vec2, Vec3};

use super::root::{RootChoice, RootReason};
use super::samples::MotionSamples;

/// A clip's root motion (see the module docs). Distances are in model units (metres for
/// glTF, VRM and FBX), angles in degrees.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMotion {
    pub joint: usize,
    pub reason: RootReason,
    /// The carrier's model-space position at the start.
    pub start: Vec3,
    /// Clip time of each sample (seconds).
    pub times: Vec<f32>,
    /// Ground-plane offset (x, z) from the start, per sample.
    pub travel: Vec<Vec2>,
    /// Turn about +Y from the start (degrees, anticlockwise seen from above), per sample.
    pub heading: Vec<f32>,
    /// How far the carrier ends from where it starts, on the ground (see the module docs).
    pub distance: f32,
    /// `distance` over the clip's duration (0 for a clip of no length).
    pub speed: f32,
    /// Heading at the end.
    pub turn: f32,
    /// Highest minus lowest height of the carrier.
    pub vertical_range: f32,
}

impl RootMotion {
    pub fn new(samples: &MotionSamples, choice: RootChoice) -> Self {
        let times = samples.times().to_vec();
        let mut travel = Vec::with_capacity(times.len());
        let mut heading = Vec::with_capacity(times.len());
        let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
        let mut start = None;
        if let Some(matrices) = samples.matrices(choice.joint) {
            let mut previous_yaw = 0.0f32;
            let mut unwrapped = 0.0f32;
            for matrix in matrices {
                let (_, rotation, position) = matrix.to_scale_rotation_translation();
                let (start_position, start_rotation) = *start.get_or_insert((position, rotation));
                travel.push(Vec2::new(position.x - start_position.x, position.z - start_position.z));
                if let Some(yaw) = yaw(rotation * start_rotation.inverse()) {
                    unwrapped += wrap_degrees(yaw - previous_yaw);
                    previous_yaw = yaw;
                }
                heading.push(unwrapped);
                (low, high) = (low.min(position.y), high.max(position.y));
            }
        }
        let duration = times.last().copied().unwrap_or(0.0);
        let distance = travel.last().copied().unwrap_or_default().length();
        Self {
            joint: choice.joint,
            reason: choice.reason,
            start: start.map_or(Vec3::ZERO, |(position, _)| position),
            turn: heading.last().copied().unwrap_or(0.0),
            vertical_range: if high >= low { high - low } else { 0.0 },
            times,
            travel,
            heading,
            distance,
            speed: if duration > 0.0 { distance / duration } else { 0.0 },
        }
    }

    /// The travel at clip time `time`, between the samples around it.
    pub fn travel_at(&self, time: f32) -> Vec2 {
        let after = self.times.partition_point(|&t| t < time);
        match (after.checked_sub(1), self.times.get(after)) {
            (Some(before), Some(&t1)) => {
                let t0 = self.times[before];
                let share = if t1 > t0 { (time - t0) / (t1 - t0) } else { 0.0 };
                self.travel[before].lerp(self.travel[after], share)
            }
            (None, _) => self.travel.first().copied().unwrap_or_default(),
            (Some(_), None) => self.travel.last().copied().unwrap_or_default(),
        }
    }
}

/// The angle (degrees) about +Y by which `turn` carries +Z, seen on the ground; none when it
/// points +Z straight up or down.
fn yaw(turn: Quat) -> Option<f32> {
    let forward = turn * Vec3::Z;
    (forward.x.hypot(forward.z) > 1e-3).then(|| forward.x.atan2(forward.z).to_degrees())
}

/// `angle` brought into (−180°, 180°].
fn wrap_degrees(angle: f32) -> f32 {
    let wrapped = (angle + 180.0).rem_euclid(360.0) - 180.0;
    if wrapped == -180.0 { 180.0 } else { wrapped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::motion::analyse;
    use crate::inspect::motion::test_walker::{Walk, walker};

    #[test]
    fn a_walk_at_1_5_metres_a_second_travels_1_5_metres_a_second() {
        let model = walker(Walk::default());
        let root = analyse(&model, 0, None).unwrap().root.unwrap();
        assert!((root.speed - 1.5).abs() < 1e-3, "{}", root.speed);
        assert!((root.distance - 3.0).abs() < 2e-3, "{}", root.distance);
        assert!(root.turn.abs() < 1e-3);
        assert!(root.vertical_range < 1e-4);
        assert!(root.travel_at(1.0).distance(Vec2::new(0.0, 1.5)) < 1e-3);
        assert!(root.travel_at(99.0).distance(Vec2::new(0.0, 3.0)) < 1e-3);
    }

    #[test]
    fn a_quarter_turn_reads_90_degrees_and_two_turns_720() {
        for turns in [0.25f32, 2.0] {
            let model = walker(Walk {
                turns,
                speed: 0.0,
                ..Walk::default()
            });
            let root = analyse(&model, 0, None).unwrap().root.unwrap();
            assert!((root.turn - 360.0 * turns).abs() < 0.1, "{turns}: {}", root.turn);
        }
    }

    #[test]
    fn degrees_wrap_into_a_half_turn_either_way() {
        assert_eq!(wrap_degrees(190.0), -170.0);
        assert_eq!(wrap_degrees(-180.0), 180.0);
        assert_eq!(wrap_degrees(30.0), 30.0);
    }
}
