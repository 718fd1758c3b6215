//! The animation curves of one joint in one clip, as the curve view and `rigscope curves`
//! plot them: each animated property broken into scalar curves over the whole clip, the keys
//! of each, and the problems found on them (see `curve_problems`).
//!
//! Values come from the clip's own sampling (`Clip::sample` on the rest pose), so what is
//! plotted is what plays: STEP holds, LINEAR slerps and CUBICSPLINE tangents all show as the
//! player evaluates them. The sample times are an even grid of `SAMPLES_PER_SECOND` over the
//! clip (at most `MAX_GRID_SAMPLES` steps), every key time of the joint's channels, and for
//! STEP channels the float just before each key, so a step is drawn as a vertical jump.
//!
//! Curves, by group:
//! - `translation.x/y/z`, `scale.x/y/z`: the local (parent-space) vector components.
//! - `rotation.x/y/z`: the local rotation as Euler angles in degrees, extrinsic X then Y then
//!   Z (`R = Rz·Ry·Rx`, Blender's "XYZ Euler"), *unwrapped*: of the two Euler triples that
//!   give the rotation, each sample takes the one nearest the previous sample, each angle
//!   moved by whole turns to be within 180° of it, so a spin reads as a steady ramp instead
//!   of jumping at ±180°.
//! - `quaternion.x/y/z/w`: the local rotation's components as sampled (no sign fix-up, so a
//!   sign flip between keys shows).
//! - `weights[i]`: morph-target weight `i` of the mesh on this node.
//! - `properties[i]`: entry `i` of `Pose::properties`, an animated material, camera, light or
//!   visibility value listed under the node it belongs to; `with_property_names` renames them
//!   by the file's JSON pointer (`/materials/0/emissiveFactor[1]`).
//! - `speed`, `heading`: the clip's root motion (see `motion`), added by `with_root_motion`
//!   to the curves of the joint carrying it.

use glam::{EulerRot, Quat, Vec3};
use serde::Serialize;

use super::curve::{Curve, CurveGroup, CurveKey};
use super::curve_problems::{Problem, find_problems};
use super::motion::{RootMotion, root_motion_curves};
use crate::anim::{ChannelTrack, Clip, Pose, key_times};
use crate::asset::AnimatedProperties;

/// Samples per second of the even grid (a 60 fps clip gets two per frame).
pub const SAMPLES_PER_SECOND: f32 = 120.0;
/// The most steps in the even grid, whatever the clip's duration (key times come on top and
/// are bounded by the file's size).
pub const MAX_GRID_SAMPLES: usize = 4000;

/// Every animated curve of one joint in one clip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurveSet {
    pub clip: String,
    pub joint: usize,
    /// Seconds; the curves run from 0 to here.
    pub duration: f32,
    /// Sample times, ascending; every curve has a value at each.
    pub times: Vec<f32>,
    pub curves: Vec<Curve>,
    pub problems: Vec<Problem>,
}

/// What one sample of the joint holds.
struct Sampled {
    local: Vec<(Vec3, Quat, Vec3)>,
    weights: Vec<f32>,
    properties: Vec<f32>,
}

impl CurveSet {
    /// The curves of `joint` in `clip`, sampled on `rest` (the pose the clip is applied to).
    /// A joint the clip does not animate has no curves.
    pub fn new(clip: &Clip, rest: &Pose, joint: usize) -> Self {
        let times = sample_times(clip, joint);
        let sampled = sample(clip, rest, joint, &times);
        let mut curves = Vec::new();
        for channel in clip.channels().iter().filter(|c| c.joint == joint) {
            add_channel_curves(&channel.track, &sampled, &times, &mut curves);
        }
        let problems = find_problems(clip, joint, &times, &curves);
        Self {
            clip: clip.name().to_owned(),
            joint,
            duration: clip.duration(),
            times,
            curves,
            problems,
        }
    }

    /// The curve named `name`.
    #[cfg(any(test, feature = "internals"))]
    pub fn curve(&self, name: &str) -> Option<&Curve> {
        self.curves.iter().find(|c| c.name == name)
    }

    /// The set with its `properties[i]` curves named by the JSON pointer of the property
    /// they belong to (see `AnimatedProperties::entry_name`).
    pub fn with_property_names(mut self, properties: &AnimatedProperties) -> Self {
        for curve in self.curves.iter_mut().filter(|c| c.group == CurveGroup::Properties) {
            let entry = curve.name.strip_prefix("properties[").and_then(|n| n.strip_suffix(']'));
            if let Some(name) = entry
                .and_then(|n| n.parse().ok())
                .and_then(|e| properties.entry_name(e))
            {
                curve.name = name;
            }
        }
        self
    }

    /// The set with the root motion's speed and heading curves added, when its joint is the
    /// one carrying `root`.
    pub fn with_root_motion(mut self, root: Option<&RootMotion>) -> Self {
        if let Some(root) = root.filter(|r| r.joint == self.joint) {
            self.curves.extend(root_motion_curves(root, &self.times));
        }
        self
    }

    /// Whether any curve is in `group`.
    pub fn has_group(&self, group: CurveGroup) -> bool {
        self.curves.iter().any(|c| c.group == group)
    }
}

/// The even grid, the joint's key times, and for STEP channels the float before each key.
fn sample_times(clip: &Clip, joint: usize) -> Vec<f32> {
    let duration = clip.duration();
    let steps = ((duration * SAMPLES_PER_SECOND).ceil() as usize).clamp(1, MAX_GRID_SAMPLES);
    let mut times: Vec<f32> = (0..=steps).map(|i| duration * i as f32 / steps as f32).collect();
    times.extend(key_times(clip, Some(joint)));
    for channel in clip.channels().iter().filter(|c| c.joint == joint) {
        if channel.track.interpolation() == crate::anim::Interpolation::Step {
            let before = channel.track.times().iter().filter(|&&t| t > 0.0);
            times.extend(before.map(|t| t.next_down()));
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

fn sample(clip: &Clip, rest: &Pose, joint: usize, times: &[f32]) -> Sampled {
    let mut pose = rest.clone();
    let mut cursor = clip.cursor();
    let mut sampled = Sampled {
        local: Vec::with_capacity(times.len()),
        weights: Vec::with_capacity(times.len() * rest.morph_weights().len()),
        properties: Vec::with_capacity(times.len() * rest.properties().len()),
    };
    for &time in times {
        pose.copy_from(rest);
        clip.sample(time, &mut pose, &mut cursor);
        let local = pose.local().get(joint).copied().unwrap_or_default();
        sampled.local.push((local.translation, local.rotation, local.scale));
        sampled.weights.extend_from_slice(pose.morph_weights());
        sampled.properties.extend_from_slice(pose.properties());
    }
    sampled
}

/// The scalar curves of one channel.
fn add_channel_curves(channel: &ChannelTrack, sampled: &Sampled, times: &[f32], curves: &mut Vec<Curve>) {
    let track = channel;
    let interpolation = track.interpolation().name();
    let mut add = |name: String, group: CurveGroup, values: Vec<f32>| {
        curves.push(Curve {
            keys: keys_on(track.times(), times, &values),
            name,
            group,
            interpolation,
            values,
        });
    };
    const AXES: [&str; 3] = ["x", "y", "z"];
    match track {
        ChannelTrack::Translation(_) | ChannelTrack::Scale(_) => {
            let (group, property) = match track {
                ChannelTrack::Translation(_) => (CurveGroup::Translation, "translation"),
                _ => (CurveGroup::Scale, "scale"),
            };
            for (axis, name) in AXES.iter().enumerate() {
                let values = sampled
                    .local
                    .iter()
                    .map(|(t, _, s)| if group == CurveGroup::Scale { s[axis] } else { t[axis] })
                    .collect();
                add(format!("{property}.{name}"), group, values);
            }
        }
        ChannelTrack::Rotation(_) => {
            let rotations: Vec<Quat> = sampled.local.iter().map(|(_, r, _)| *r).collect();
            for (name, values) in AXES.iter().zip(unwrapped_euler_degrees(&rotations)) {
                add(format!("rotation.{name}"), CurveGroup::Rotation, values);
            }
            for (component, name) in ["x", "y", "z", "w"].iter().enumerate() {
                let values = rotations.iter().map(|q| q.to_array()[component]).collect();
                add(format!("quaternion.{name}"), CurveGroup::Quaternion, values);
            }
        }
        ChannelTrack::MorphWeights { offset, track } | ChannelTrack::Properties { offset, track } => {
            let (floats, group, property) = match channel {
                ChannelTrack::Properties { .. } => (&sampled.properties, CurveGroup::Properties, "properties"),
                _ => (&sampled.weights, CurveGroup::Weights, "weights"),
            };
            let count = if times.is_empty() {
                0
            } else {
                floats.len() / times.len()
            };
            for entry in *offset..(*offset + track.width()).min(count) {
                let values = floats.iter().skip(entry).step_by(count).copied().collect();
                add(format!("{property}[{entry}]"), group, values);
            }
        }
    }
}

/// The keys at `key_times` on a curve with `values` at `times` (which hold every key time).
fn keys_on(key_times: &[f32], times: &[f32], values: &[f32]) -> Vec<CurveKey> {
    key_times
        .iter()
        .filter_map(|&time| {
            let index = times.binary_search_by(|t| t.total_cmp(&time)).ok()?;
            Some(CurveKey {
                time,
                value: *values.get(index)?,
            })
        })
        .collect()
}

/// Euler angles (degrees, extrinsic XYZ) of each rotation, unwrapped (see the module docs).
pub fn unwrapped_euler_degrees(rotations: &[Quat]) -> [Vec<f32>; 3] {
    let mut angles: [Vec<f32>; 3] = std::array::from_fn(|_| Vec::with_capacity(rotations.len()));
    let mut previous: Option<[f32; 3]> = None;
    for rotation in rotations {
        let (x, y, z) = rotation.to_euler(EulerRot::XYZEx);
        let raw = [x.to_degrees(), y.to_degrees(), z.to_degrees()];
        let chosen = match previous {
            None => raw,
            Some(previous) => {
                // The other triple giving the same rotation: (x + 180, 180 - y, z + 180).
                let other = [raw[0] + 180.0, 180.0 - raw[1], raw[2] + 180.0];
                let near = |triple: [f32; 3]| std::array::from_fn(|i| nearest_turn(triple[i], previous[i]));
                let (a, b) = (near(raw), near(other));
                let distance = |t: [f32; 3]| (0..3).map(|i| (t[i] - previous[i]).abs()).sum::<f32>();
                if distance(b) < distance(a) { b } else { a }
            }
        };
        for (curve, angle) in angles.iter_mut().zip(chosen) {
            curve.push(angle);
        }
        previous = Some(chosen);
    }
    angles
}

/// `angle` moved by whole turns to lie within 180° of `reference`.
fn nearest_turn(angle: f32, reference: f32) -> f32 {
    angle + 360.0 * ((reference - angle) / 360.0).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_angles_are_extrinsic_xyz() {
        let (x, y, z) = (0.3f32, -0.4f32, 1.1f32);
        let q = Quat::from_rotation_z(z) * Quat::from_rotation_y(y) * Quat::from_rotation_x(x);
        let [ex, ey, ez] = unwrapped_euler_degrees(&[q]);
        assert!((ex[0] - x.to_degrees()).abs() < 1e-3);
        assert!((ey[0] - y.to_degrees()).abs() < 1e-3);
        assert!((ez[0] - z.to_degrees()).abs() < 1e-3);
    }

    #[test]
    fn a_full_spin_unwraps_into_a_ramp_that_still_gives_the_rotations() {
        let rotations: Vec<Quat> = (0..=72)
            .map(|i| Quat::from_rotation_z((i * 10) as f32 * std::f32::consts::PI / 180.0))
            .collect();
        let [x, y, z] = unwrapped_euler_degrees(&rotations);
        for i in 1..rotations.len() {
            assert!(
                (z[i] - z[i - 1] - 10.0).abs() < 1e-2,
                "step {i}: {} -> {}",
                z[i - 1],
                z[i]
            );
            let back = Quat::from_euler(EulerRot::XYZEx, x[i].to_radians(), y[i].to_radians(), z[i].to_radians());
            assert!(back.dot(rotations[i]).abs() > 1.0 - 1e-5, "sample {i}");
        }
        assert!((z[72] - 720.0).abs() < 1e-2, "two turns: {}", z[72]);
    }

    #[test]
    fn near_gimbal_flips_take_the_nearer_triple() {
        // Pitching past 90° about Y: the raw Euler triple jumps to (180, 180 - y, 180).
        let rotations: Vec<Quat> = (0..=30)
            .map(|i| Quat::from_rotation_y((61 + 2 * i) as f32 * std::f32::consts::PI / 180.0))
            .collect();
        let [x, y, _] = unwrapped_euler_degrees(&rotations);
        for i in 1..rotations.len() {
            assert!(
                (y[i] - y[i - 1]).abs() < 3.0,
                "y jumps at {i}: {} -> {}",
                y[i - 1],
                y[i]
            );
            assert!((x[i] - x[i - 1]).abs() < 3.0, "x jumps at {i}");
        }
    }
}

#[cfg(test)]
mod sampling_tests {
    use std::sync::Arc;

    use super::*;
    use crate::anim::{Channel, Hierarchy, Interpolation, Track, Transform, WeightsTrack};

    /// Joint 1 with every kind of channel: LINEAR translation, CUBICSPLINE rotation, STEP
    /// scale and LINEAR morph weights.
    fn clip() -> Clip {
        let times = vec![0.0, 0.4, 1.0];
        let translation = Track::new(
            Interpolation::Linear,
            times.clone(),
            vec![Vec3::ZERO, Vec3::new(1.0, 2.0, 0.0), Vec3::new(0.0, 0.0, 3.0)],
        )
        .unwrap();
        let (a, b) = (Quat::from_rotation_x(0.2), Quat::from_rotation_z(2.5));
        let tangent = Quat::from_xyzw(0.3, 0.0, 0.1, 0.0);
        let rotation = Track::new(
            Interpolation::CubicSpline,
            vec![0.0, 1.2],
            vec![
                Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
                a,
                tangent,
                tangent,
                b,
                Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            ],
        )
        .unwrap();
        let scale = Track::new(Interpolation::Step, times, vec![Vec3::ONE, Vec3::splat(2.0), Vec3::ONE]).unwrap();
        let weights = WeightsTrack::new(Interpolation::Linear, vec![0.0, 0.8], 2, vec![0.0, 1.0, 1.0, 0.0]).unwrap();
        let channel = |track| Channel { joint: 1, track };
        Clip::new(
            "all kinds".into(),
            vec![
                channel(ChannelTrack::Translation(translation)),
                channel(ChannelTrack::Rotation(rotation)),
                channel(ChannelTrack::Scale(scale)),
                channel(ChannelTrack::MorphWeights {
                    offset: 1,
                    track: weights,
                }),
                Channel {
                    joint: 0,
                    track: ChannelTrack::Translation(
                        Track::new(Interpolation::Linear, vec![0.0, 0.7], vec![Vec3::ZERO, Vec3::X]).unwrap(),
                    ),
                },
            ],
        )
    }

    fn rest() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap());
        Pose::new(hierarchy, vec![Transform::IDENTITY; 2], vec![0.5; 3]).unwrap()
    }

    #[test]
    fn every_curve_equals_the_clips_sampling_at_the_plotted_times() {
        let (clip, rest) = (clip(), rest());
        let set = CurveSet::new(&clip, &rest, 1);
        let names: Vec<&str> = set.curves.iter().map(|c| c.name.as_str()).collect();
        #[rustfmt::skip]
        let expected = [
            "translation.x", "translation.y", "translation.z",
            "rotation.x", "rotation.y", "rotation.z",
            "quaternion.x", "quaternion.y", "quaternion.z", "quaternion.w",
            "scale.x", "scale.y", "scale.z", "weights[1]", "weights[2]",
        ];
        assert_eq!(names, expected);
        assert!(set.times.len() > 120, "dense: {}", set.times.len());
        let mut pose = rest.clone();
        for (i, &time) in set.times.iter().enumerate() {
            pose.copy_from(&rest);
            clip.sample(time, &mut pose, &mut clip.cursor());
            let local = pose.local()[1];
            let value = |name: &str| set.curve(name).unwrap().values[i];
            for (axis, name) in ["x", "y", "z"].iter().enumerate() {
                assert_eq!(value(&format!("translation.{name}")), local.translation[axis]);
                assert_eq!(value(&format!("scale.{name}")), local.scale[axis]);
            }
            let q = local.rotation.to_array();
            for (component, name) in ["x", "y", "z", "w"].iter().enumerate() {
                assert_eq!(value(&format!("quaternion.{name}")), q[component]);
            }
            let euler = ["x", "y", "z"].map(|a| value(&format!("rotation.{a}")).to_radians());
            let back = Quat::from_euler(EulerRot::XYZEx, euler[0], euler[1], euler[2]);
            assert!(back.dot(local.rotation).abs() > 1.0 - 1e-5, "Euler at {time}");
            assert_eq!(value("weights[1]"), pose.morph_weights()[1]);
            assert_eq!(value("weights[2]"), pose.morph_weights()[2]);
        }
    }

    #[test]
    fn keys_sit_on_their_curves_and_steps_are_vertical() {
        let set = CurveSet::new(&clip(), &rest(), 1);
        let scale = set.curve("scale.x").unwrap();
        assert_eq!(scale.interpolation, "STEP");
        let times: Vec<f32> = scale.keys.iter().map(|k| k.time).collect();
        assert_eq!(times, [0.0, 0.4, 1.0]);
        let at = set.times.iter().position(|&t| t == 0.4).unwrap();
        assert_eq!(set.times[at - 1], 0.4f32.next_down(), "sampled just before the step");
        assert_eq!((scale.values[at - 1], scale.values[at]), (1.0, 2.0));
        let rotation = set.curve("quaternion.z").unwrap();
        assert_eq!(rotation.interpolation, "CUBICSPLINE");
        assert_eq!(rotation.keys.len(), 2);
        assert_eq!(set.duration, 1.2);
        assert_eq!(set.times.last(), Some(&1.2));
    }

    #[test]
    fn a_joint_the_clip_leaves_alone_has_no_curves() {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0), Some(1)]).unwrap());
        let rest = Pose::new(hierarchy, vec![Transform::IDENTITY; 3], vec![0.5; 3]).unwrap();
        let set = CurveSet::new(&clip(), &rest, 2);
        assert!(set.curves.is_empty() && set.problems.is_empty());
    }
}
