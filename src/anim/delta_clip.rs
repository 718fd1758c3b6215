//! An additive layer's clip as its differences from the reference pose, made once when the
//! layer's settings change (as three.js's `makeClipAdditive` and ozz's additive animation
//! builder do), so that a frame samples the differences instead of taking them joint by joint.
//!
//! A difference ("delta") is what `additive::apply_additive` adds: translation and scale less
//! the reference's, rotation `r · r_ref⁻¹` (`Parent`) or `r_ref⁻¹ · r` (`Local`), morph weights
//! and property values less the reference's. Every interpolation commutes with these maps
//! (subtracting a constant from Hermite or linear values shifts the result by it; a product
//! with a constant unit quaternion keeps dots and lengths, so slerp, the shortest arc and the
//! cubic spline's normalisation), so sampling the delta clip gives the delta of the samples, up
//! to rounding.

use glam::{Quat, Vec3};

use super::clip::{Channel, ChannelTrack, Clip};
use super::pose::Pose;
use super::track::WeightsTrack;
use super::transform::Transform;

/// In whose frame a layer's rotation delta applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdditiveSpace {
    /// `r = (r_add · r_ref⁻¹)^w · r_in`.
    #[default]
    Parent,
    /// `r = r_in · (r_ref⁻¹ · r_add)^w`.
    Local,
}

/// The delta of a joint that does not move: what joints the clip does not animate keep.
const NO_DELTA: Transform = Transform::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ZERO);

/// `clip` as deltas from `reference`. Channels that name joints or weights `reference` does not
/// have are left out (sampling would skip them), and so are channels whose deltas overflow
/// (they would add infinities).
pub fn delta_clip(clip: &Clip, reference: &Pose, space: AdditiveSpace) -> Clip {
    let channels = (clip.channels().iter())
        .filter_map(|channel| {
            let track = delta_track(&channel.track, channel.joint, reference, space)?;
            Some(Channel {
                joint: channel.joint,
                track,
            })
        })
        .collect();
    Clip::new(clip.name().to_owned(), channels).lasting_at_least(clip.duration())
}

/// A pose shaped as `like` holding no delta: what a delta clip is sampled into.
pub fn no_delta(like: &Pose) -> Pose {
    let mut pose = like.clone();
    pose.local_mut().fill(NO_DELTA);
    pose.morph_weights_mut().fill(0.0);
    pose.properties_mut().fill(0.0);
    pose
}

/// One channel's keys as deltas from `reference`'s value of the same property.
fn delta_track(track: &ChannelTrack, joint: usize, reference: &Pose, space: AdditiveSpace) -> Option<ChannelTrack> {
    // Morph weights and property values: less the reference's floats from `offset` on.
    let floats = |values: &[f32], offset: usize, track: &WeightsTrack| {
        let from = values.get(offset..)?.get(..track.width())?;
        track.offset_keys(|i| -from[i]).ok()
    };
    Some(match track {
        ChannelTrack::MorphWeights { offset, track } => ChannelTrack::MorphWeights {
            offset: *offset,
            track: floats(reference.morph_weights(), *offset, track)?,
        },
        ChannelTrack::Properties { offset, track } => ChannelTrack::Properties {
            offset: *offset,
            track: floats(reference.properties(), *offset, track)?,
        },
        ChannelTrack::Translation(track) => {
            let from = reference.local().get(joint)?.translation;
            ChannelTrack::Translation(track.map_keys(|v| v - from, |d| d).ok()?)
        }
        ChannelTrack::Scale(track) => {
            let from = reference.local().get(joint)?.scale;
            ChannelTrack::Scale(track.map_keys(|v| v - from, |d| d).ok()?)
        }
        ChannelTrack::Rotation(track) => {
            let inverse = reference.local().get(joint)?.rotation.inverse();
            ChannelTrack::Rotation(
                match space {
                    AdditiveSpace::Parent => track.map_keys(|v| v * inverse, |d| d * inverse),
                    AdditiveSpace::Local => track.map_keys(|v| inverse * v, |d| inverse * d),
                }
                .ok()?,
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::fixtures::Numbers;
    use crate::anim::{Interpolation, Track};

    /// Three joints: joint 0 with linear translation and rotation, joint 1 with cubic-spline
    /// rotation and scale, joint 2 with stepped translation; two morph weights on a cubic
    /// spline; one channel for a joint past the pose.
    fn clip(numbers: &mut Numbers) -> Clip {
        let times = vec![0.0, 0.4, 1.0, 1.3];
        let mut vector = || Vec3::new(numbers.signed(), numbers.signed(), numbers.signed());
        let vectors: Vec<Vec3> = (0..12).map(|_| vector()).collect();
        let rotations: Vec<Quat> = (0..12).map(|_| numbers.quat().as_quat()).collect();
        let cubic_rotations = (0..12)
            .map(|i| if i % 3 == 1 { rotations[i] } else { rotations[i] * 0.3 })
            .collect();
        let weights: Vec<f32> = (0..24).map(|_| numbers.signed()).collect();
        let channel = |joint, track| Channel { joint, track };
        use Interpolation::{CubicSpline, Linear, Step};
        Clip::new(
            "layer".into(),
            vec![
                channel(
                    0,
                    ChannelTrack::Translation(Track::new(Linear, times.clone(), vectors[..4].to_vec()).unwrap()),
                ),
                channel(
                    0,
                    ChannelTrack::Rotation(Track::new(Linear, times.clone(), rotations[..4].to_vec()).unwrap()),
                ),
                channel(
                    1,
                    ChannelTrack::Rotation(Track::new(CubicSpline, times.clone(), cubic_rotations).unwrap()),
                ),
                channel(
                    1,
                    ChannelTrack::Scale(Track::new(CubicSpline, times.clone(), vectors.clone()).unwrap()),
                ),
                channel(
                    2,
                    ChannelTrack::Translation(Track::new(Step, times.clone(), vectors[4..8].to_vec()).unwrap()),
                ),
                channel(
                    0,
                    ChannelTrack::MorphWeights {
                        offset: 0,
                        track: WeightsTrack::new(CubicSpline, times.clone(), 2, weights).unwrap(),
                    },
                ),
                channel(
                    7,
                    ChannelTrack::Translation(Track::new(Linear, times, vectors[8..].to_vec()).unwrap()),
                ),
            ],
        )
    }

    #[test]
    fn sampling_the_deltas_gives_the_deltas_of_the_samples() {
        let mut numbers = Numbers(5);
        let clip = clip(&mut numbers);
        let joints = numbers.pose(3);
        let reference = Pose::new(joints.hierarchy().clone(), joints.local().to_vec(), vec![0.25, -0.5]).unwrap();
        let mut sampled = reference.clone();
        for space in [AdditiveSpace::Parent, AdditiveSpace::Local] {
            let deltas = delta_clip(&clip, &reference, space);
            assert_eq!(deltas.duration(), clip.duration());
            let mut delta = no_delta(&reference);
            let (mut cursor, mut delta_cursor) = (clip.cursor(), deltas.cursor());
            for step in 0..=70 {
                let time = step as f32 * 0.02;
                sampled.copy_from(&reference);
                clip.sample(time, &mut sampled, &mut cursor);
                deltas.sample(time, &mut delta, &mut delta_cursor);
                for joint in 0..3 {
                    let (got, value, from) = (delta.local()[joint], sampled.local()[joint], reference.local()[joint]);
                    let rotation = match space {
                        AdditiveSpace::Parent => value.rotation * from.rotation.inverse(),
                        AdditiveSpace::Local => from.rotation.inverse() * value.rotation,
                    };
                    let context = format!("{space:?} at {time} s, joint {joint}");
                    assert!(
                        got.translation.abs_diff_eq(value.translation - from.translation, 1e-6),
                        "{context}"
                    );
                    assert!(got.scale.abs_diff_eq(value.scale - from.scale, 1e-6), "{context}");
                    assert!(got.rotation.dot(rotation).abs() > 1.0 - 1e-6, "{context}");
                }
                for (i, got) in delta.morph_weights().iter().enumerate() {
                    let want = sampled.morph_weights()[i] - reference.morph_weights()[i];
                    assert!((got - want).abs() < 1e-6, "weight {i} at {time} s");
                }
            }
        }
    }

    #[test]
    fn joints_the_clip_does_not_animate_hold_no_delta() {
        let mut numbers = Numbers(6);
        let clip = clip(&mut numbers);
        let reference = numbers.pose(4);
        let deltas = delta_clip(&clip, &reference, AdditiveSpace::Parent);
        let mut delta = no_delta(&reference);
        deltas.sample(0.7, &mut delta, &mut deltas.cursor());
        assert_eq!(delta.local()[3], NO_DELTA);
        // The channel of joint 7, which the reference lacks, is gone.
        assert!(deltas.channels().iter().all(|channel| channel.joint < 4));
    }
}
