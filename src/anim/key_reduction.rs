//! Key reduction with an error bound (`convert --reduce ERROR`): a clip with fewer keys that
//! every joint follows within a tolerance in model space.
//!
//! The guarantee: sampled over the skeleton's rest pose (for joints the clip does not animate),
//! at every key time of the original and half-way between consecutive ones, the reduced clip
//! puts every joint within `KeyTolerance::position` (model units) of where the original puts it,
//! turned within `rotation_degrees` of the original's model-space rotation, and gives every morph
//! weight and property within `weight` of the original's.
//!
//! How (as ozz-animation's `AnimationOptimizer` and ACL do):
//! 1. Each channel drops keys on its own values (`key_decimation.rs`) within a local tolerance
//!    derived from the model-space one, with `reach` the longest path from the joint down to a
//!    descendant (at least its own bone) and `parent_scale` the largest scale above it, both
//!    over the poses checked: a translation error `e` moves the joint and its descendants by
//!    `e · parent_scale`, so translations get `position / parent_scale`; a rotation error `θ`
//!    moves a descendant by about `θ · reach` and turns every descendant by `θ`, so rotations get
//!    the smaller of `position / reach` and `rotation_degrees`; a relative scale error `s` moves a
//!    descendant by about `s · reach`, so scales get `position / reach`. Weights and properties
//!    get `weight`.
//! 2. The result is checked as the guarantee says (`reduction_check.rs`). Errors add up down a
//!    chain, so for every joint over the bound the local tolerances of its channels and of its
//!    ancestors' channels are scaled by `0.9 · bound / error` (the smallest ratio among the
//!    joints below, kept between 0.05 and 0.9: each round tightens), and those channels reduced
//!    again; likewise each weights channel over the bound. Scaling by the ratio rather than
//!    halving keeps more tolerance where a chain is only a little over: on the 60-joint clip of
//!    the tests, 2 rounds and 30,739 keys kept of 54,000, where halving took 5 rounds and kept
//!    33,308.
//! 3. A channel over the bound whose tolerance is already 0, and after `MAX_ROUNDS` rounds every
//!    channel of a chain still over the bound, gets its original keys back (and the clip is
//!    checked again, until within), which meets the bound exactly: a joint's pose depends only
//!    on its own channels and its ancestors'.
//!
//! CUBICSPLINE channels keep their keys (see `key_decimation.rs`), as do channels of joints
//! the skeleton does not have (nothing to check them against). A tolerance that is negative or
//! not a number counts as 0, which keeps every key that changes what the clip samples.

use super::clip::{Channel, ChannelTrack, Clip};
use super::key_decimation::Decimation;
use super::reduction_check::{Errors, ReductionCheck};
use super::skeleton::Skeleton;

/// Rounds of tightening tolerances before the chains still over the bound get their keys back.
const MAX_ROUNDS: usize = 8;

/// How far a reduced clip may stray from the original, in model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyTolerance {
    /// Distance between a joint's model-space positions, in model units (metres for glTF).
    pub position: f32,
    /// Angle of the rotation between a joint's model-space rotations, in degrees.
    pub rotation_degrees: f32,
    /// Difference of one morph weight or property value.
    pub weight: f32,
}

impl Default for KeyTolerance {
    /// 0.1 mm in a model in metres, 0.01°, a thousandth of a full morph weight.
    fn default() -> Self {
        Self {
            position: 1e-4,
            rotation_degrees: 0.01,
            weight: 1e-3,
        }
    }
}

impl KeyTolerance {
    /// Negative and NaN tolerances as 0: a NaN would let every comparison pass.
    fn sanitised(self) -> Self {
        let clean = |value: f32| if value > 0.0 { value } else { 0.0 };
        Self {
            position: clean(self.position),
            rotation_degrees: clean(self.rotation_degrees),
            weight: clean(self.weight),
        }
    }
}

/// Keys of one kind of channel before and after a reduction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCounts {
    pub before: usize,
    pub after: usize,
}

/// What a reduction did and how close it stayed (errors measured as the module docs say).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyReduction {
    /// Keys of every channel, summed (a key of a channel is one time and its values).
    pub keys_before: usize,
    pub keys_after: usize,
    pub translation: KeyCounts,
    pub rotation: KeyCounts,
    pub scale: KeyCounts,
    /// Morph weights and properties.
    pub weights: KeyCounts,
    /// Bytes of key times and values as glTF stores them (`f32`s, cubic-spline tangents
    /// included), each channel's times counted once: a writer that shares time arrays between
    /// channels writes fewer.
    pub bytes_before: usize,
    pub bytes_after: usize,
    /// Model units.
    pub largest_position_error: f32,
    pub largest_rotation_error_degrees: f32,
    /// Of one morph weight or property value.
    pub largest_weight_error: f32,
    /// Rounds of reducing and checking (1 when the first reduction was within the bound).
    pub rounds: usize,
    /// CUBICSPLINE channels, kept as they are.
    pub cubic_channels: usize,
    /// Channels that got their original keys back (see the module docs).
    pub restored_channels: usize,
}

/// `clip` with the keys dropped that the bound allows (see the module docs), and what was done.
pub fn reduce_keys(clip: &Clip, skeleton: &Skeleton, tolerance: KeyTolerance) -> (Clip, KeyReduction) {
    let tolerance = tolerance.sanitised();
    let original = clip.channels();
    let mut check = ReductionCheck::new(clip, skeleton);
    let local_tolerance: Vec<Option<f32>> = (original.iter())
        .map(|channel| local_tolerance(channel, &check, tolerance))
        .collect();
    let mut scale = vec![1.0f32; original.len()];
    let mut stale = vec![true; original.len()];
    let mut restored = vec![false; original.len()];
    let mut channels = original.to_vec();
    let mut decimation = Decimation::default();
    let mut errors = Errors::default();
    let mut over = Vec::with_capacity(skeleton.len());
    let mut report = KeyReduction::default();
    let mut within = false;
    while !within && report.rounds < MAX_ROUNDS {
        report.rounds += 1;
        for (index, channel) in channels.iter_mut().enumerate() {
            if let (true, Some(local)) = (stale[index], local_tolerance[index]) {
                channel.track = reduced(&original[index].track, local * scale[index], &mut decimation);
            }
            stale[index] = false;
        }
        check.measure(clip, &channels, &mut errors);
        within = mark_over(&errors, skeleton, tolerance, &mut over);
        for (index, channel) in original.iter().enumerate() {
            let Some(ratio) = over_ratio(channel, index, &errors, &over, tolerance) else {
                continue;
            };
            if restored[index] {
                continue;
            }
            if local_tolerance[index].is_some_and(|local| local * scale[index] > 0.0) {
                scale[index] *= (0.9 * ratio).clamp(0.05, 0.9);
                stale[index] = true;
            } else {
                // Already as tight as it gets (what it dropped changes only float rounding).
                channels[index] = channel.clone();
                restored[index] = true;
            }
        }
    }
    // Giving a chain back its keys can undo errors that cancelled out in a sibling chain, so
    // check again until within. A chain of original channels is exact, so a joint over the bound
    // has a reduced channel in its chain, and each pass restores one at least.
    let mut restoring = true;
    while !within && restoring {
        restoring = false;
        for (index, channel) in original.iter().enumerate() {
            if !restored[index] && over_ratio(channel, index, &errors, &over, tolerance).is_some() {
                channels[index] = channel.clone();
                restored[index] = true;
                restoring = true;
            }
        }
        check.measure(clip, &channels, &mut errors);
        within = mark_over(&errors, skeleton, tolerance, &mut over);
    }
    report.restored_channels = restored.iter().filter(|&&restored| restored).count();
    let reduced = Clip::new(clip.name().to_owned(), channels).lasting_at_least(clip.duration());
    count_keys(original, reduced.channels(), &mut report);
    report.largest_position_error = errors.position.iter().copied().fold(0.0, f32::max);
    report.largest_rotation_error_degrees = errors.rotation.iter().copied().fold(0.0, f32::max).to_degrees();
    report.largest_weight_error = errors.weight.iter().copied().fold(0.0, f32::max);
    (reduced, report)
}

/// The tolerance of `channel`'s own values that keeps its effect in model space within
/// `tolerance` (see the module docs): infinite where the channel moves nothing checked, `None`
/// for a joint the skeleton does not have (its keys are kept).
fn local_tolerance(channel: &Channel, check: &ReductionCheck, tolerance: KeyTolerance) -> Option<f32> {
    let per = |reference: f32| {
        if reference > 0.0 {
            tolerance.position / reference
        } else {
            f32::INFINITY
        }
    };
    let joint = channel.joint;
    Some(match channel.track {
        ChannelTrack::Translation(_) => per(*check.parent_scale().get(joint)?),
        ChannelTrack::Rotation(_) => per(*check.reach().get(joint)?).min(tolerance.rotation_degrees.to_radians()),
        ChannelTrack::Scale(_) => per(*check.reach().get(joint)?),
        ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => tolerance.weight,
    })
}

/// The channel's track with the keys dropped that `tolerance` (of its own values) allows; as it
/// is for a cubic spline.
fn reduced(track: &ChannelTrack, tolerance: f32, decimation: &mut Decimation) -> ChannelTrack {
    let decimated = match track {
        ChannelTrack::Translation(track) => decimation
            .decimated_vectors(track, tolerance)
            .map(ChannelTrack::Translation),
        ChannelTrack::Rotation(track) => decimation
            .decimated_rotations(track, tolerance)
            .map(ChannelTrack::Rotation),
        ChannelTrack::Scale(track) => decimation.decimated_vectors(track, tolerance).map(ChannelTrack::Scale),
        ChannelTrack::MorphWeights { offset, track } => (decimation.decimated_weights(track, tolerance))
            .map(|track| ChannelTrack::MorphWeights { offset: *offset, track }),
        ChannelTrack::Properties { offset, track } => (decimation.decimated_weights(track, tolerance))
            .map(|track| ChannelTrack::Properties { offset: *offset, track }),
    };
    decimated.unwrap_or_else(|| track.clone())
}

/// Sets `over[joint]` to the smallest ratio of bound to error of the joint and its descendants
/// (their errors have the joint's channels among their causes), 1 where all are within; whether
/// every joint and weights channel is within the bound.
fn mark_over(errors: &Errors, skeleton: &Skeleton, tolerance: KeyTolerance, over: &mut Vec<f32>) -> bool {
    let rotation = tolerance.rotation_degrees.to_radians();
    over.clear();
    over.extend(
        (errors.position.iter().zip(&errors.rotation)).map(|(&position_error, &rotation_error)| {
            ratio(tolerance.position, position_error).min(ratio(rotation, rotation_error))
        }),
    );
    // Children come after their parents: walking backwards passes a ratio all the way up.
    for joint in (0..over.len()).rev() {
        if let Some(parent) = skeleton.parent(joint) {
            over[parent] = over[parent].min(over[joint]);
        }
    }
    over.iter().all(|&ratio| ratio >= 1.0) && errors.weight.iter().all(|&error| error <= tolerance.weight)
}

/// `bound / error`, 1 when the error is within the bound.
fn ratio(bound: f32, error: f32) -> f32 {
    if error > bound { bound / error } else { 1.0 }
}

/// How far channel `index`'s errors are over the bound, as the ratio of bound to error, when they
/// are (its own, or a descendant's when it animates a joint).
fn over_ratio(channel: &Channel, index: usize, errors: &Errors, over: &[f32], tolerance: KeyTolerance) -> Option<f32> {
    let ratio = match channel.track {
        ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => {
            ratio(tolerance.weight, errors.weight[index])
        }
        _ => over.get(channel.joint).copied().unwrap_or(1.0),
    };
    (ratio < 1.0).then_some(ratio)
}

/// Bytes of the channel's key times and values as glTF stores them (see `KeyReduction`).
fn key_bytes(channel: &Channel) -> usize {
    let floats_per_value = match &channel.track {
        ChannelTrack::Translation(_) | ChannelTrack::Scale(_) => 3,
        ChannelTrack::Rotation(_) => 4,
        ChannelTrack::MorphWeights { track, .. } | ChannelTrack::Properties { track, .. } => track.width(),
    };
    let per_key = channel.track.interpolation().values_per_key() * floats_per_value;
    channel.track.times().len() * (1 + per_key) * size_of::<f32>()
}

/// Fills in the key counts of `report` from the channels before and after.
fn count_keys(before: &[Channel], after: &[Channel], report: &mut KeyReduction) {
    for (counts_of, channels) in [(0, before), (1, after)] {
        for channel in channels {
            let keys = channel.track.times().len();
            let counts = match channel.track {
                ChannelTrack::Translation(_) => &mut report.translation,
                ChannelTrack::Rotation(_) => &mut report.rotation,
                ChannelTrack::Scale(_) => &mut report.scale,
                ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => &mut report.weights,
            };
            if counts_of == 0 {
                counts.before += keys;
            } else {
                counts.after += keys;
            }
        }
    }
    report.keys_before = before.iter().map(|channel| channel.track.times().len()).sum();
    report.keys_after = after.iter().map(|channel| channel.track.times().len()).sum();
    report.bytes_before = before.iter().map(key_bytes).sum();
    report.bytes_after = after.iter().map(key_bytes).sum();
    report.cubic_channels = (before.iter())
        .filter(|channel| channel.track.interpolation() == super::keys::Interpolation::CubicSpline)
        .count();
}

#[cfg(test)]
mod tests {
    use std::f32::consts::TAU;

    use glam::{Mat4, Quat, Vec3};

    use super::*;
    use crate::anim::{Interpolation, JointDesc, Pose, Track, Transform, WeightsTrack};

    /// `joints` joints in a chain, each `bone` model units along Y from its parent, the first
    /// carrying `morph_targets` morph weights.
    fn chain(joints: usize, bone: f32, morph_targets: usize) -> Skeleton {
        let descs = (0..joints)
            .map(|joint| JointDesc {
                name: format!("joint{joint}"),
                parent: joint.checked_sub(1).map(|parent| parent as u32),
                rest: Transform::new(Vec3::Y * bone, Quat::IDENTITY, Vec3::ONE),
                bind_model: None,
                morph_weights: vec![0.0; if joint == 0 { morph_targets } else { 0 }],
            })
            .collect();
        Skeleton::new(descs).unwrap()
    }

    /// Key times at `fps` frames per second for `seconds`.
    fn frames(fps: f32, seconds: f32) -> Vec<f32> {
        let count = (seconds * fps).round() as usize;
        (0..=count).map(|frame| frame as f32 / fps).collect()
    }

    fn translation(joint: usize, times: &[f32], value: impl Fn(f32) -> Vec3) -> Channel {
        let track = Track::new(
            Interpolation::Linear,
            times.to_vec(),
            times.iter().map(|&t| value(t)).collect(),
        );
        Channel {
            joint,
            track: ChannelTrack::Translation(track.unwrap()),
        }
    }

    fn rotation(joint: usize, times: &[f32], value: impl Fn(f32) -> Quat) -> Channel {
        let track = Track::new(
            Interpolation::Linear,
            times.to_vec(),
            times.iter().map(|&t| value(t)).collect(),
        );
        Channel {
            joint,
            track: ChannelTrack::Rotation(track.unwrap()),
        }
    }

    /// A pose of `skeleton` with `clip` sampled over its rest pose by the clip's own sampler.
    fn sampled(clip: &Clip, skeleton: &Skeleton, time: f32) -> Pose {
        let mut pose = skeleton.rest_pose().clone();
        clip.sample(time, &mut pose, &mut clip.cursor());
        pose
    }

    /// Largest errors of `reduced` against `original`, measured here apart from the reduction's
    /// own check (the clips' own sampler, rotations out of the model matrices, angles from the
    /// relative rotation): model units, degrees, and of one weight or property.
    fn measured_errors(original: &Clip, reduced: &Clip, skeleton: &Skeleton) -> (f32, f32, f32) {
        let keys = crate::anim::key_times(original, None);
        let halves = keys.windows(2).map(|pair| (pair[0] + pair[1]) / 2.0);
        let (mut position, mut rotation, mut weight) = (0.0f32, 0.0f32, 0.0f32);
        for time in keys.iter().copied().chain(halves) {
            let (expected, found) = (sampled(original, skeleton, time), sampled(reduced, skeleton, time));
            let model = |pose: &Pose| -> Vec<Mat4> { pose.to_model_matrices() };
            for (a, b) in model(&expected).iter().zip(model(&found)) {
                let (_, a_rotation, a_position) = a.to_scale_rotation_translation();
                let (_, b_rotation, b_position) = b.to_scale_rotation_translation();
                position = position.max(a_position.distance(b_position));
                let between = a_rotation.inverse() * b_rotation;
                let angle = 2.0 * between.xyz().length().min(1.0).asin();
                rotation = rotation.max(angle.to_degrees());
            }
            let floats = expected.morph_weights().iter().chain(expected.properties());
            let found_floats = found.morph_weights().iter().chain(found.properties());
            for (a, b) in floats.zip(found_floats) {
                weight = weight.max((a - b).abs());
            }
        }
        (position, rotation, weight)
    }

    /// The clip's own sampler may differ from the track-by-track check by float rounding (its
    /// SIMD slerp): 1% of the default bounds.
    const SAMPLER_SLACK: (f32, f32) = (1e-6, 1e-4);

    fn assert_within(original: &Clip, reduced: &Clip, skeleton: &Skeleton, tolerance: KeyTolerance) {
        let (position, rotation, weight) = measured_errors(original, reduced, skeleton);
        assert!(
            position <= tolerance.position + SAMPLER_SLACK.0,
            "position error {position}"
        );
        assert!(
            rotation <= tolerance.rotation_degrees + SAMPLER_SLACK.1,
            "rotation error {rotation}°"
        );
        assert!(weight <= tolerance.weight, "weight error {weight}");
    }

    #[test]
    fn a_densely_keyed_linear_motion_reduces_to_two_keys() {
        let skeleton = chain(2, 0.5, 0);
        let times = frames(60.0, 2.0);
        let clip = Clip::new(
            "slide".into(),
            vec![
                translation(0, &times, |t| Vec3::new(1.0, 2.0, -3.0) * t),
                rotation(0, &times, |t| Quat::from_rotation_z(0.5 * t)),
                translation(1, &times, |t| Vec3::new(0.0, 0.5 + 0.1 * t, 0.0)),
            ],
        );
        let (reduced, report) = reduce_keys(&clip, &skeleton, KeyTolerance::default());
        for channel in reduced.channels() {
            assert_eq!(
                channel.track.times().to_vec(),
                [0.0, 2.0],
                "{}",
                channel.track.property()
            );
        }
        assert_eq!((report.keys_before, report.keys_after), (363, 6));
        // Two translations and a rotation: a time and 3, 3 and 4 floats per key.
        assert_eq!(report.bytes_before, 121 * 4 * (4 + 4 + 5));
        assert_eq!(report.bytes_after, 2 * 4 * (4 + 4 + 5));
        assert_eq!(report.rotation, KeyCounts { before: 121, after: 2 });
        assert_eq!(reduced.duration(), clip.duration());
        assert_within(&clip, &reduced, &skeleton, KeyTolerance::default());
    }

    #[test]
    fn a_sine_wave_keyed_at_60_fps_reduces_within_the_bound() {
        let skeleton = chain(2, 0.5, 0);
        let times = frames(60.0, 2.0);
        let clip = Clip::new(
            "wave".into(),
            vec![
                translation(0, &times, |t| Vec3::new(0.0, 0.05 * (TAU * 0.5 * t).sin(), 0.0)),
                rotation(0, &times, |t| Quat::from_rotation_x(0.2 * (TAU * 0.5 * t).sin())),
            ],
        );
        let tolerance = KeyTolerance::default();
        let (reduced, report) = reduce_keys(&clip, &skeleton, tolerance);
        // A curve this tight drops keys only where it is nearly straight (about a fifth of them).
        assert!(report.keys_after < report.keys_before * 9 / 10, "{report:?}");
        assert!(report.largest_position_error <= tolerance.position, "{report:?}");
        assert!(
            report.largest_rotation_error_degrees <= tolerance.rotation_degrees,
            "{report:?}"
        );
        assert_within(&clip, &reduced, &skeleton, tolerance);
    }

    #[test]
    fn the_tip_of_a_long_chain_stays_within_the_bound() {
        // Ten joints a metre long in all, each turning half a degree back and forth about Z: the
        // errors of the joints above the tip add up at the tip.
        let skeleton = chain(10, 0.1, 0);
        let times = frames(60.0, 2.0);
        let wobble = |t: f32| Quat::from_rotation_z(0.5f32.to_radians() * (TAU * 0.5 * t).sin());
        let channels = (0..10).map(|joint| rotation(joint, &times, wobble)).collect();
        let clip = Clip::new("wobble".into(), channels);
        let tolerance = KeyTolerance::default();
        let (reduced, report) = reduce_keys(&clip, &skeleton, tolerance);
        assert!(report.keys_after < report.keys_before, "{report:?}");
        assert!(
            report.rounds > 1,
            "the chain's errors add up, so tolerances are tightened: {report:?}"
        );
        assert_within(&clip, &reduced, &skeleton, tolerance);
    }

    #[test]
    fn a_slightly_turning_root_keeps_the_chains_tip_in_place() {
        let skeleton = chain(10, 0.1, 0);
        let times = frames(60.0, 2.0);
        let turn = |t: f32| Quat::from_rotation_z(0.2f32.to_radians() * (TAU * t).sin());
        let clip = Clip::new("sway".into(), vec![rotation(0, &times, turn)]);
        let (reduced, _) = reduce_keys(&clip, &skeleton, KeyTolerance::default());
        let tip = |clip: &Clip, time: f32| sampled(clip, &skeleton, time).to_model_matrices()[9].w_axis;
        let largest = (times.iter())
            .map(|&time| tip(&clip, time).distance(tip(&reduced, time)))
            .fold(0.0, f32::max);
        assert!(largest <= 1e-4 + SAMPLER_SLACK.0, "tip moved {largest}");
    }

    #[test]
    fn step_keys_are_not_merged_across_a_step_change() {
        let skeleton = chain(1, 0.0, 0);
        let times = frames(10.0, 1.0);
        // Steps of 1 mm at keys 3 and 7; the key at 5 changes by less than the tolerance.
        let heights = [0.0, 0.0, 0.0, 1e-3, 1e-3, 1e-3 + 1e-5, 1e-3, 0.0, 0.0, 0.0, 0.0];
        let values = heights.iter().map(|&y| Vec3::new(0.0, y, 0.0)).collect();
        let track = Track::new(Interpolation::Step, times.clone(), values).unwrap();
        let clip = Clip::new(
            "hop".into(),
            vec![Channel {
                joint: 0,
                track: ChannelTrack::Translation(track),
            }],
        );
        let (reduced, _) = reduce_keys(&clip, &skeleton, KeyTolerance::default());
        let kept = &reduced.channels()[0].track;
        assert_eq!(kept.interpolation(), Interpolation::Step);
        assert_eq!(kept.times().to_vec(), [0.0, 0.3, 0.7, 1.0]);
        assert_within(&clip, &reduced, &skeleton, KeyTolerance::default());
    }

    #[test]
    fn morph_weights_and_properties_stay_within_the_weight_bound() {
        let skeleton = chain(1, 0.0, 2).with_properties(vec![0.0; 1]);
        let times = frames(60.0, 2.0);
        let weights = times.iter().flat_map(|&t| [(TAU * t).sin().abs(), t / 2.0]).collect();
        let property = times.iter().map(|&t| 0.5 + 0.5 * (TAU * 0.25 * t).cos()).collect();
        let clip = Clip::new(
            "blink".into(),
            vec![
                Channel {
                    joint: 0,
                    track: ChannelTrack::MorphWeights {
                        offset: 0,
                        track: WeightsTrack::new(Interpolation::Linear, times.clone(), 2, weights).unwrap(),
                    },
                },
                Channel {
                    joint: 0,
                    track: ChannelTrack::Properties {
                        offset: 0,
                        track: WeightsTrack::new(Interpolation::Linear, times.clone(), 1, property).unwrap(),
                    },
                },
            ],
        );
        let tolerance = KeyTolerance::default();
        let (reduced, report) = reduce_keys(&clip, &skeleton, tolerance);
        assert!(report.weights.after < report.weights.before * 2 / 3, "{report:?}");
        assert!(report.largest_weight_error <= tolerance.weight, "{report:?}");
        let (_, _, weight) = measured_errors(&clip, &reduced, &skeleton);
        assert!(weight <= tolerance.weight, "{weight}");
    }

    #[test]
    fn a_tolerance_of_zero_keeps_every_key_that_matters() {
        let skeleton = chain(2, 0.5, 0);
        let times = frames(30.0, 1.0);
        // Every key a corner.
        let zigzag = |t: f32| Vec3::new(((t * 30.0).round() as i32 % 2) as f32 * 0.01, 0.0, 0.0);
        let turn = |t: f32| Quat::from_rotation_y(t * t);
        // On a line, but keyed at times a float cannot hold exactly (thirtieths).
        let slide = |t: f32| Vec3::new(0.0, 0.0, 0.3 * t);
        let clip = Clip::new(
            "zigzag".into(),
            vec![
                translation(0, &times, zigzag),
                rotation(1, &times, turn),
                translation(1, &times, slide),
            ],
        );
        let zero = KeyTolerance {
            position: 0.0,
            rotation_degrees: 0.0,
            weight: 0.0,
        };
        let (reduced, report) = reduce_keys(&clip, &skeleton, zero);
        let zigzag_and_turn: Vec<_> = reduced.channels()[..2].iter().map(|c| c.track.times().len()).collect();
        assert_eq!(zigzag_and_turn, [31, 31]);
        assert_eq!(
            (report.largest_position_error, report.largest_rotation_error_degrees),
            (0.0, 0.0)
        );
        let (position, rotation, _) = measured_errors(&clip, &reduced, &skeleton);
        assert_eq!((position, rotation), (0.0, 0.0));
    }

    #[test]
    fn chains_that_stay_over_the_bound_get_their_keys_back() {
        // A bound below float rounding: no tolerance above 0 meets it, so after the last round
        // the channels get their original keys back.
        let skeleton = chain(2, 0.5, 0);
        let times = frames(30.0, 1.0);
        let clip = Clip::new(
            "slide".into(),
            vec![
                translation(0, &times, |t| Vec3::new(0.0, 0.0, 0.3 * t)),
                rotation(1, &times, |t| Quat::from_rotation_y(0.3 * t)),
            ],
        );
        let tiny = KeyTolerance {
            position: 1e-12,
            rotation_degrees: 1e-12,
            weight: 1e-12,
        };
        let (reduced, report) = reduce_keys(&clip, &skeleton, tiny);
        assert_eq!(report.rounds, MAX_ROUNDS);
        assert_eq!(report.restored_channels, 2);
        assert_eq!(reduced.channels(), clip.channels());
        assert_eq!(
            (report.largest_position_error, report.largest_rotation_error_degrees),
            (0.0, 0.0)
        );
    }

    #[test]
    fn nan_and_negative_tolerances_count_as_zero() {
        let skeleton = chain(1, 0.0, 0);
        let times = frames(30.0, 1.0);
        let clip = Clip::new(
            "curve".into(),
            vec![translation(0, &times, |t| Vec3::new(t * t, 0.0, 0.0))],
        );
        let broken = KeyTolerance {
            position: f32::NAN,
            rotation_degrees: -1.0,
            weight: f32::NAN,
        };
        let (_, report) = reduce_keys(&clip, &skeleton, broken);
        assert_eq!(report.keys_after, report.keys_before, "a parabola's every key matters");
    }

    #[test]
    fn cubic_channels_and_joints_beyond_the_skeleton_keep_their_keys() {
        let skeleton = chain(1, 0.0, 0);
        let times = frames(30.0, 1.0);
        let cubic_values = times
            .iter()
            .flat_map(|&t| [Vec3::ZERO, Vec3::X * t, Vec3::ZERO])
            .collect();
        let cubic = Track::new(Interpolation::CubicSpline, times.clone(), cubic_values).unwrap();
        let clip = Clip::new(
            "kept".into(),
            vec![
                Channel {
                    joint: 0,
                    track: ChannelTrack::Scale(cubic),
                },
                translation(3, &times, |t| Vec3::X * t),
            ],
        );
        let (reduced, report) = reduce_keys(&clip, &skeleton, KeyTolerance::default());
        assert_eq!(reduced.channels(), clip.channels());
        assert_eq!(report.cubic_channels, 1);
        // A cubic scale stores 3 vectors per key, the translation one, each beside a time.
        assert_eq!(report.bytes_after, 31 * 4 * (1 + 9) + 31 * 4 * (1 + 3));
        assert_eq!(report.keys_after, report.keys_before);
    }

    /// 60 joints (a root and five chains of up to twelve) animated in every channel for 300
    /// frames: how long the reduction takes and what it keeps. Run with
    /// `cargo test --lib key_reduction -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, printed"]
    fn a_large_clip_reduces_in_reasonable_time() {
        let descs = (0..60)
            .map(|joint: usize| JointDesc {
                name: format!("joint{joint}"),
                parent: (joint > 0).then(|| if joint % 12 == 1 { 0 } else { joint as u32 - 1 }),
                rest: Transform::new(Vec3::new(0.02, 0.08, 0.0), Quat::IDENTITY, Vec3::ONE),
                bind_model: None,
                morph_weights: Vec::new(),
            })
            .collect();
        let skeleton = Skeleton::new(descs).unwrap();
        let times = frames(30.0, 299.0 / 30.0);
        let mut channels = Vec::new();
        for joint in 0..60 {
            let phase = joint as f32 * 0.37;
            let speed = 0.5 + (joint % 7) as f32 * 0.2;
            channels.push(rotation(joint, &times, |t| {
                Quat::from_euler(
                    glam::EulerRot::XYZ,
                    0.3 * (speed * t + phase).sin(),
                    0.2 * (1.3 * speed * t).cos(),
                    0.1 * (0.7 * speed * t + phase).sin(),
                )
            }));
            channels.push(translation(joint, &times, |t| {
                Vec3::new(0.02, 0.08, 0.0) + Vec3::new(0.0, 0.005 * (speed * t).sin(), 0.0)
            }));
            channels.push(Channel {
                joint,
                track: ChannelTrack::Scale(
                    Track::new(
                        Interpolation::Linear,
                        times.clone(),
                        times
                            .iter()
                            .map(|&t| Vec3::splat(1.0 + 0.01 * (speed * t).sin()))
                            .collect(),
                    )
                    .unwrap(),
                ),
            });
        }
        let clip = Clip::new("large".into(), channels);
        let started = std::time::Instant::now();
        let (reduced, report) = reduce_keys(&clip, &skeleton, KeyTolerance::default());
        let elapsed = started.elapsed();
        println!("reduce_keys on 60 joints x 300 frames: {elapsed:?}\n{report:#?}");
        assert_within(&clip, &reduced, &skeleton, KeyTolerance::default());
    }
}
