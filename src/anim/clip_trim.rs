//! Trimming: the part of a clip from `start` to `end` seconds as a clip of its own, running
//! from 0 to `end - start` (`convert --trim NAME=START:END`).
//!
//! Every channel (translation, rotation, scale, morph weights, properties) keeps the keys
//! strictly inside the range, moved `start` seconds earlier and unchanged otherwise, plus a key at
//! each end holding the channel's value there, in its own interpolation (STEP stays STEP).
//! Sampling the trimmed clip at `t` then gives the original at `start + t`:
//! - STEP and LINEAR: exactly (to float rounding). A LINEAR rotation's end key lies on the slerp
//!   arc it cuts, and a slerp from it to the next key runs along the same arc at the same speed.
//! - CUBICSPLINE: the Hermite segment a cut falls in is split. The cut key's value is the
//!   curve's value there and both its tangents are the curve's derivative (per second, as glTF
//!   stores them); the key on the other side keeps its own. A cubic is fixed by its end values
//!   and derivatives, so each part is the original curve: exact for translation, scale, weights
//!   and properties. Rotations are normalised after interpolation, but a key must be a unit
//!   quaternion: the spline's value `q` at a cut is stored as `q/|q|`, and the tangents of the
//!   trimmed segment are those of `s(t) · q(t)`, `s` running linearly from `1/|q|` at the cut
//!   to 1 at the kept key (the key's tangent facing the cut changes by a multiple of its own
//!   value). `s · q` points where `q` does, so the segment is the cubic Hermite interpolant of a
//!   curve that normalises to the original; it misses that curve by about `1 - |q|` times the
//!   spline's third derivative. Measured on quaternion components: within float rounding (1e-6)
//!   for keys a frame apart that follow a smooth rotation (1e-11 in f64), 4e-5 for keys a frame
//!   apart whose tangents are far from the rotation's own (the spline strays from unit length).
//! - Beyond its first or last key a track holds still, so a cut there gives a key with zero
//!   tangents, and the kept key facing it a zero tangent on that side.
//!
//! A channel with a single key (constant) keeps it, at time 0.

use std::ops::{Add, Mul, Range};

use glam::{Quat, Vec3};

use super::clip::{Channel, ChannelTrack, Clip};
use super::keys::{Interpolation, TrackError};
use super::track::{Keyframe, Track, WeightsTrack};

/// Why a clip cannot be trimmed to a range; each names the clip and the times (seconds).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrimError {
    #[error("cannot trim clip \"{clip}\" to {start}..{end} s: a time is not a number")]
    NotANumber { clip: String, start: f32, end: f32 },
    #[error("cannot trim clip \"{clip}\" from {start} s: the clip starts at 0 s")]
    StartBeforeZero { clip: String, start: f32 },
    #[error("cannot trim clip \"{clip}\" to {start}..{end} s: the start must come before the end")]
    Empty { clip: String, start: f32, end: f32 },
    #[error("cannot trim clip \"{clip}\" to end at {end} s: the clip ends at {duration} s")]
    EndPastClip { clip: String, end: f32, duration: f32 },
    /// A cut key's value overflowed (tangents near `f32::MAX`).
    #[error("cannot trim clip \"{clip}\" to {start}..{end} s: channel {channel}: {source}")]
    Keys {
        clip: String,
        start: f32,
        end: f32,
        channel: usize,
        source: TrackError,
    },
}

/// The part of `clip` from `start` to `end` seconds (`0 <= start < end <= duration`), as a clip
/// of the same name from 0 to `end - start`; see the module docs for what each channel keeps.
pub fn trim_clip(clip: &Clip, start: f32, end: f32) -> Result<Clip, TrimError> {
    let name = || clip.name().to_owned();
    if start.is_nan() || end.is_nan() {
        return Err(TrimError::NotANumber {
            clip: name(),
            start,
            end,
        });
    }
    if start < 0.0 {
        return Err(TrimError::StartBeforeZero { clip: name(), start });
    }
    if start >= end {
        return Err(TrimError::Empty {
            clip: name(),
            start,
            end,
        });
    }
    if end > clip.duration() {
        let duration = clip.duration();
        return Err(TrimError::EndPastClip {
            clip: name(),
            end,
            duration,
        });
    }
    let range = TrimRange { start, end };
    let channels = (clip.channels().iter().enumerate())
        .map(|(index, channel)| {
            let track = trim_channel(&channel.track, range).map_err(|source| TrimError::Keys {
                clip: name(),
                start,
                end,
                channel: index,
                source,
            })?;
            Ok(Channel {
                joint: channel.joint,
                track,
            })
        })
        .collect::<Result<Vec<_>, TrimError>>()?;
    Ok(Clip::new(name(), channels).lasting_at_least(end - start))
}

/// The seconds kept, validated: `0 <= start < end`.
#[derive(Clone, Copy)]
struct TrimRange {
    start: f32,
    end: f32,
}

impl TrimRange {
    /// The key times of `times` strictly inside the range, as indices.
    fn inside(self, times: &[f32]) -> Range<usize> {
        let first = times.partition_point(|&t| t <= self.start);
        let past = times.partition_point(|&t| t < self.end);
        first..past.max(first)
    }

    /// The trimmed track's key times: 0, the times inside moved to start at 0, the new end.
    fn new_times(self, times: &[f32], inside: Range<usize>) -> Vec<f32> {
        let mut new_times = Vec::with_capacity(inside.len() + 2);
        new_times.push(0.0);
        new_times.extend(times[inside].iter().map(|t| t - self.start));
        new_times.push(self.end - self.start);
        new_times
    }
}

fn trim_channel(track: &ChannelTrack, range: TrimRange) -> Result<ChannelTrack, TrackError> {
    Ok(match track {
        ChannelTrack::Translation(track) => ChannelTrack::Translation(trim_track(track, range)?),
        ChannelTrack::Rotation(track) => ChannelTrack::Rotation(trim_track(track, range)?),
        ChannelTrack::Scale(track) => ChannelTrack::Scale(trim_track(track, range)?),
        ChannelTrack::MorphWeights { offset, track } => ChannelTrack::MorphWeights {
            offset: *offset,
            track: trim_weights(track, range)?,
        },
        ChannelTrack::Properties { offset, track } => ChannelTrack::Properties {
            offset: *offset,
            track: trim_weights(track, range)?,
        },
    })
}

/// Which side of a cut the trimmed clip keeps: the curve's slope is taken on that side.
#[derive(Clone, Copy)]
enum Side {
    /// The cut is the new start: the segment after it.
    After,
    /// The cut is the new end: the segment before it.
    Before,
}

/// The key segment `(index, index + 1)` holding `time` on `side` of it, with the fraction of
/// the segment at `time` and its length; `None` before the first key or after the last, where
/// a track holds still.
fn segment_at(times: &[f32], time: f32, side: Side) -> Option<(usize, f32, f32)> {
    let next = match side {
        Side::After => times.partition_point(|&t| t <= time),
        Side::Before => times.partition_point(|&t| t < time),
    };
    if next == 0 || next == times.len() {
        return None;
    }
    let interval = times[next] - times[next - 1];
    Some((next - 1, (time - times[next - 1]) / interval, interval))
}

/// Weights of (from, out-tangent, to, in-tangent) in the derivative per second of glTF's cubic
/// spline (`keys::hermite_basis`) at fraction `t` of an `interval`-second segment.
fn hermite_slope_basis(t: f32, interval: f32) -> [f32; 4] {
    let t2 = t * t;
    [
        (6.0 * t2 - 6.0 * t) / interval,
        3.0 * t2 - 4.0 * t + 1.0,
        (6.0 * t - 6.0 * t2) / interval,
        3.0 * t2 - 2.0 * t,
    ]
}

/// A value whose cubic spline can be cut in two: the spline's terms are combined with `*` and
/// `+`, then scaled to a valid key.
trait CutKey: Keyframe + Mul<f32, Output = Self> + Add<Output = Self> {
    /// What the spline's value `curve` at a cut is multiplied by to be stored as a key: 1 for
    /// vectors, `1/|q|` for rotations (keys are unit quaternions); `None` when no factor makes it
    /// one (the spline passes through zero).
    fn key_scale(curve: Self) -> Option<f32>;
}

impl CutKey for Vec3 {
    fn key_scale(_: Self) -> Option<f32> {
        Some(1.0)
    }
}

impl CutKey for Quat {
    fn key_scale(curve: Self) -> Option<f32> {
        let length = curve.length();
        (length > 0.0).then(|| 1.0 / length)
    }
}

/// Where a cut falls on a cubic spline: the spline's value and slope (per second) there, and the
/// factor that makes the value a key.
#[derive(Clone, Copy)]
struct CubicCut<T> {
    time: f32,
    curve: T,
    slope: T,
    scale: f32,
}

impl<T: CutKey> CubicCut<T> {
    /// The cut at `time` of a cubic-spline track, the slope taken on `side`; `None` where the
    /// track holds still (before its first key or after its last) or passes through zero.
    fn at(track: &Track<T>, time: f32, side: Side) -> Option<Self> {
        let (index, t, interval) = segment_at(track.times(), time, side)?;
        let [from, out_tangent, in_tangent, to] = [1, 2, 3, 4].map(|offset| track.values()[index * 3 + offset]);
        let terms = |[a, b, c, d]: [f32; 4]| from * a + out_tangent * b + to * c + in_tangent * d;
        let curve = terms(super::keys::hermite_basis(t, interval));
        Some(Self {
            time,
            curve,
            slope: terms(hermite_slope_basis(t, interval)),
            scale: T::key_scale(curve)?,
        })
    }

    /// The key's value.
    fn value(&self) -> T {
        self.curve * self.scale
    }

    /// The key's tangent when the scale runs linearly across the trimmed segment, changing by
    /// `drift` per second (towards 1 at a kept key, or the other cut's scale): the slope of
    /// `scale(t) · curve(t)`, which points where the original curve does all along the segment.
    fn tangent(&self, drift: f32) -> T {
        self.curve * drift + self.slope * self.scale
    }
}

fn trim_track<T: CutKey>(track: &Track<T>, range: TrimRange) -> Result<Track<T>, TrackError> {
    let (interpolation, times, values) = (track.interpolation(), track.times(), track.values());
    if times.len() == 1 {
        return Track::new(interpolation, vec![0.0], values.to_vec());
    }
    let inside = range.inside(times);
    let per_key = interpolation.values_per_key();
    let inner_values = &values[inside.start * per_key..inside.end * per_key];
    let new_values = if interpolation == Interpolation::CubicSpline {
        cubic_values(track, range, inside.clone())
    } else {
        let mut new_values = Vec::with_capacity(inside.len() + 2);
        new_values.push(track.sample(range.start, &mut 0));
        new_values.extend_from_slice(inner_values);
        new_values.push(track.sample(range.end, &mut 0));
        new_values
    };
    Track::new(interpolation, range.new_times(times, inside), new_values)
}

/// The trimmed cubic spline's values: the cut keys (see the module docs), and the keys `inside`
/// with the tangent that faces a cut changed where the scale drifts towards it, or zero where the
/// original held still beyond its first or last key.
fn cubic_values<T: CutKey>(track: &Track<T>, range: TrimRange, inside: Range<usize>) -> Vec<T> {
    let (times, values) = (track.times(), track.values());
    let start = CubicCut::at(track, range.start, Side::After);
    let end = CubicCut::at(track, range.end, Side::Before);
    let mut new_values = Vec::with_capacity((inside.len() + 2) * 3);
    // Drift per second of the key scale over the first and the last trimmed segments.
    let first_drift = match (start, inside.is_empty()) {
        (Some(cut), false) => (1.0 - cut.scale) / (times[inside.start] - cut.time),
        (Some(cut), true) => (end.map_or(1.0, |end| end.scale) - cut.scale) / (range.end - cut.time),
        (None, _) => 0.0,
    };
    let last_drift = match (end, inside.is_empty()) {
        (Some(cut), false) => (cut.scale - 1.0) / (cut.time - times[inside.end - 1]),
        (Some(_), true) => first_drift,
        (None, _) => 0.0,
    };
    let cut_key = |cut: Option<CubicCut<T>>, time: f32, drift: f32| match cut {
        Some(cut) => {
            let tangent = cut.tangent(drift);
            [tangent, cut.value(), tangent]
        }
        None => [T::ZERO, track.sample(time, &mut 0), T::ZERO],
    };
    new_values.extend(cut_key(start, range.start, first_drift));
    new_values.extend_from_slice(&values[inside.start * 3..inside.end * 3]);
    new_values.extend(cut_key(end, range.end, last_drift));
    if !inside.is_empty() {
        let (first_in, last_out) = (3, new_values.len() - 4);
        let (first_value, last_value) = (new_values[first_in + 1], new_values[last_out - 1]);
        new_values[first_in] = match start {
            Some(_) => new_values[first_in] + first_value * first_drift,
            None => T::ZERO,
        };
        new_values[last_out] = match end {
            Some(_) => new_values[last_out] + last_value * last_drift,
            None => T::ZERO,
        };
    }
    new_values
}

/// Appends a cut key of a cubic-spline weights track at `time`: in-tangent, value, out-tangent,
/// the tangents the curve's slope on `side` of the cut (zero where the track holds still).
/// Returns whether the track holds still there.
fn weights_cubic_cut(track: &WeightsTrack, time: f32, side: Side, new_values: &mut Vec<f32>) -> bool {
    let width = track.width();
    let values = track.values();
    let start = new_values.len();
    new_values.resize(start + 3 * width, 0.0);
    let (tangent_in, rest) = new_values[start..].split_at_mut(width);
    let (value, tangent_out) = rest.split_at_mut(width);
    track.sample_into(time, &mut 0, value);
    let Some((index, t, interval)) = segment_at(track.times(), time, side) else {
        return true;
    };
    let [a, b, c, d] = hermite_slope_basis(t, interval);
    let key = |value_index: usize| &values[value_index * width..(value_index + 1) * width];
    let (from, out_tangent) = (key(index * 3 + 1), key(index * 3 + 2));
    let (in_tangent, to) = (key(index * 3 + 3), key(index * 3 + 4));
    for i in 0..width {
        tangent_in[i] = from[i] * a + out_tangent[i] * b + to[i] * c + in_tangent[i] * d;
    }
    tangent_out.copy_from_slice(tangent_in);
    false
}

fn trim_weights(track: &WeightsTrack, range: TrimRange) -> Result<WeightsTrack, TrackError> {
    let (interpolation, times, values, width) = (track.interpolation(), track.times(), track.values(), track.width());
    if times.len() == 1 {
        return WeightsTrack::new(interpolation, vec![0.0], width, values.to_vec());
    }
    let inside = range.inside(times);
    let per_key = interpolation.values_per_key() * width;
    let mut new_values = Vec::with_capacity((inside.len() + 2) * per_key);
    let inner_values = &values[inside.start * per_key..inside.end * per_key];
    if interpolation == Interpolation::CubicSpline {
        let start_held = weights_cubic_cut(track, range.start, Side::After, &mut new_values);
        new_values.extend_from_slice(inner_values);
        let end_at = new_values.len();
        let end_held = weights_cubic_cut(track, range.end, Side::Before, &mut new_values);
        // Beyond its first or last key the original held still: so does the segment there.
        if !inside.is_empty() && start_held {
            new_values[per_key..per_key + width].fill(0.0);
        }
        if !inside.is_empty() && end_held {
            new_values[end_at - width..end_at].fill(0.0);
        }
    } else {
        let sampled = |time: f32, new_values: &mut Vec<f32>| {
            let from = new_values.len();
            new_values.resize(from + width, 0.0);
            track.sample_into(time, &mut 0, &mut new_values[from..]);
        };
        sampled(range.start, &mut new_values);
        new_values.extend_from_slice(inner_values);
        sampled(range.end, &mut new_values);
    }
    WeightsTrack::new(interpolation, range.new_times(times, inside), width, new_values)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use glam::Vec4;

    use super::*;
    use crate::anim::{Hierarchy, Pose, Transform};

    /// A pose of two joints (parent and child) with four morph weights and three properties.
    fn rest_pose() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap());
        let local = vec![Transform::IDENTITY; 2];
        Pose::new(hierarchy, local, vec![0.0; 4])
            .unwrap()
            .with_properties(vec![0.0; 3])
    }

    fn vec3_track(interpolation: Interpolation, times: &[f32], value: impl Fn(f32) -> Vec3) -> Track<Vec3> {
        let values = match interpolation {
            // Tangents that are not the curve's own, to bend each segment differently.
            Interpolation::CubicSpline => (times.iter().enumerate())
                .flat_map(|(i, &t)| {
                    [
                        Vec3::new(1.0, -2.0, 0.5) * i as f32,
                        value(t),
                        Vec3::new(-1.5, 0.3, 2.0),
                    ]
                })
                .collect(),
            _ => times.iter().map(|&t| value(t)).collect(),
        };
        Track::new(interpolation, times.to_vec(), values).unwrap()
    }

    /// A rotation turning at a changing rate about a changing axis: `q(t)` and its derivative.
    fn turning(t: f32) -> (Quat, Quat) {
        let angle = |t: f32| Quat::from_axis_angle(Vec3::new(1.0, t, 0.5).normalize(), 2.0 * t + t * t);
        let step = 1e-3;
        let slope = (Vec4::from(angle(t + step)) - Vec4::from(angle(t - step))) / (2.0 * step);
        (angle(t), Quat::from_vec4(slope))
    }

    fn rotation_track(interpolation: Interpolation, times: &[f32]) -> Track<Quat> {
        let values = match interpolation {
            Interpolation::CubicSpline => (times.iter())
                .flat_map(|&t| {
                    let (q, slope) = turning(t);
                    [slope, q, slope]
                })
                .collect(),
            _ => times.iter().map(|&t| turning(t).0).collect(),
        };
        Track::new(interpolation, times.to_vec(), values).unwrap()
    }

    /// Weight `i` at time `t` is `0.5 + 0.5 sin(2t + i)`; cubic tangents are the slope, bent.
    fn weights_track(interpolation: Interpolation, times: &[f32], width: usize) -> WeightsTrack {
        let mut values = Vec::new();
        for &t in times {
            let weights = (0..width).map(|i| 0.5 + 0.5 * (2.0 * t + i as f32).sin());
            let slopes = (0..width).map(|i| (2.0 * t + i as f32).cos() + 0.3);
            match interpolation {
                Interpolation::CubicSpline => {
                    values.extend(slopes.clone());
                    values.extend(weights);
                    values.extend(slopes.map(|slope| -slope));
                }
                _ => values.extend(weights),
            }
        }
        WeightsTrack::new(interpolation, times.to_vec(), width, values).unwrap()
    }

    fn channel(joint: usize, track: ChannelTrack) -> Channel {
        Channel { joint, track }
    }

    /// A clip with every channel kind, in every interpolation, on uneven and unaligned key times
    /// (rotations a frame apart, as exporters key them: see the module docs for cubic ones).
    fn every_kind(interpolation: Interpolation) -> Clip {
        let times = [0.0, 0.13, 0.2, 0.45, 0.5, 0.81, 1.0];
        let other = [0.05, 0.3, 0.62, 0.9];
        let frames: Vec<f32> = (0..=30).map(|frame| frame as f32 / 30.0).collect();
        let late_frames: Vec<f32> = (3..=27).map(|frame| frame as f32 / 30.0 + 0.004).collect();
        let wave = |t: f32| Vec3::new(t.sin(), t * t, 1.0 - t);
        Clip::new(
            "wave".into(),
            vec![
                channel(0, ChannelTrack::Translation(vec3_track(interpolation, &times, wave))),
                channel(0, ChannelTrack::Rotation(rotation_track(interpolation, &late_frames))),
                channel(
                    1,
                    ChannelTrack::Scale(vec3_track(interpolation, &other, |t| Vec3::ONE + wave(t))),
                ),
                channel(1, ChannelTrack::Rotation(rotation_track(interpolation, &frames))),
                channel(
                    0,
                    ChannelTrack::MorphWeights {
                        offset: 1,
                        track: weights_track(interpolation, &times, 3),
                    },
                ),
                channel(
                    0,
                    ChannelTrack::Properties {
                        offset: 0,
                        track: weights_track(interpolation, &other, 2),
                    },
                ),
            ],
        )
    }

    fn sampled(clip: &Clip, time: f32) -> Pose {
        let mut pose = rest_pose();
        clip.sample(time, &mut pose, &mut clip.cursor());
        pose
    }

    /// The largest difference between two poses: components of translations, scales, weights
    /// and properties, and of rotations (either sign).
    fn difference(a: &Pose, b: &Pose) -> f32 {
        let mut largest = 0.0f32;
        for (a, b) in a.local().iter().zip(b.local()) {
            let sign = a.rotation.dot(b.rotation).signum();
            let rotation = Vec4::from(a.rotation) - Vec4::from(b.rotation) * sign;
            largest = largest
                .max(rotation.abs().max_element())
                .max((a.translation - b.translation).abs().max_element())
                .max((a.scale - b.scale).abs().max_element());
        }
        let floats = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        largest
            .max(floats(a.morph_weights(), b.morph_weights()))
            .max(floats(a.properties(), b.properties()))
    }

    /// The largest difference between the trimmed clip at `t` and the original at `start + t`,
    /// over 500 times from 0 to the trimmed clip's end. Times within 10 µs of a key are left
    /// out: there `start + t` and the trimmed key's time `key - start` may round to either side
    /// of a STEP key.
    fn largest_difference(original: &Clip, trimmed: &Clip, start: f32) -> f32 {
        let keys = crate::anim::key_times(original, None);
        (0..=500)
            .map(|step| trimmed.duration() * step as f32 / 500.0)
            .filter(|t| keys.iter().all(|key| (key - (start + t)).abs() > 1e-5))
            .map(|t| difference(&sampled(trimmed, t), &sampled(original, start + t)))
            .fold(0.0, f32::max)
    }

    #[test]
    fn the_trimmed_clip_samples_as_the_original_from_the_start() {
        for interpolation in [Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline] {
            let original = every_kind(interpolation);
            // Cuts between keys, on keys, before a track's first key and after its last.
            for (start, end) in [(0.17, 0.7), (0.2, 0.81), (0.0, 1.0), (0.01, 0.96), (0.47, 0.48)] {
                let trimmed = trim_clip(&original, start, end).unwrap();
                assert!((trimmed.duration() - (end - start)).abs() < 1e-7);
                let largest = largest_difference(&original, &trimmed, start);
                assert!(largest < 1e-6, "{} {start}..{end}: {largest}", interpolation.name());
            }
        }
    }

    #[test]
    fn trimming_keeps_each_channels_interpolation() {
        for interpolation in [Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline] {
            let trimmed = trim_clip(&every_kind(interpolation), 0.1, 0.9).unwrap();
            assert_eq!(trimmed.channels().len(), 6);
            for channel in trimmed.channels() {
                assert_eq!(
                    channel.track.interpolation(),
                    interpolation,
                    "{}",
                    channel.track.property()
                );
            }
        }
    }

    #[test]
    fn keys_strictly_inside_are_kept_and_moved_to_the_new_start() {
        let trimmed = trim_clip(&every_kind(Interpolation::Linear), 0.2, 0.9).unwrap();
        let ChannelTrack::Translation(track) = &trimmed.channels()[0].track else {
            unreachable!()
        };
        // Original keys 0.45, 0.5 and 0.81 inside; the key at 0.2 becomes the start key.
        let expected = [0.0, 0.25, 0.3, 0.61, 0.7];
        assert_eq!(track.times().len(), expected.len());
        for (time, expected) in track.times().iter().zip(expected) {
            assert!((time - expected).abs() < 1e-6, "{time} vs {expected}");
        }
    }

    #[test]
    fn cutting_a_cubic_translation_keeps_the_curve_exactly() {
        let times = [0.0, 1.0];
        let original = Clip::new(
            "cubic".into(),
            vec![channel(
                1,
                ChannelTrack::Translation(vec3_track(Interpolation::CubicSpline, &times, Vec3::splat)),
            )],
        );
        // Both cuts inside the one segment: the trimmed track is the middle of one cubic.
        let trimmed = trim_clip(&original, 0.3, 0.6).unwrap();
        let largest = largest_difference(&original, &trimmed, 0.3);
        assert!(largest < 1e-6, "{largest}");
    }

    #[test]
    fn cutting_a_cubic_rotation_with_loose_tangents_stays_close() {
        // Tangents far from the curve's own make the spline stray from unit length between the
        // keys: the one case that is not exact (see the module docs).
        let tangent = Quat::from_xyzw(0.9, -0.4, 0.2, 0.0);
        let (a, b) = (Quat::from_rotation_x(0.3), Quat::from_rotation_y(0.5));
        let track = Track::new(
            Interpolation::CubicSpline,
            vec![0.0, 1.0 / 30.0],
            vec![tangent, a, tangent, tangent, b, tangent],
        )
        .unwrap();
        let original = Clip::new("loose".into(), vec![channel(0, ChannelTrack::Rotation(track))]);
        let trimmed = trim_clip(&original, 0.01, 0.03).unwrap();
        let largest = largest_difference(&original, &trimmed, 0.01);
        assert!(largest < 5e-5, "{largest}");
    }

    #[test]
    fn a_constant_channel_keeps_its_one_key() {
        let still = Track::new(Interpolation::Linear, vec![0.0], vec![Vec3::X]).unwrap();
        let moving = vec3_track(Interpolation::Linear, &[0.0, 2.0], Vec3::splat);
        let original = Clip::new(
            "still".into(),
            vec![
                channel(0, ChannelTrack::Translation(still)),
                channel(1, ChannelTrack::Translation(moving)),
            ],
        );
        let trimmed = trim_clip(&original, 0.5, 1.5).unwrap();
        assert_eq!(trimmed.channels()[0], original.channels()[0]);
        assert_eq!(trimmed.duration(), 1.0);
    }

    #[test]
    fn bad_ranges_are_refused_with_the_clip_and_times_in_words() {
        let clip = every_kind(Interpolation::Linear);
        let message = |start: f32, end: f32| trim_clip(&clip, start, end).unwrap_err().to_string();
        assert_eq!(
            message(0.5, 0.5),
            "cannot trim clip \"wave\" to 0.5..0.5 s: the start must come before the end"
        );
        assert_eq!(
            message(-0.25, 0.5),
            "cannot trim clip \"wave\" from -0.25 s: the clip starts at 0 s"
        );
        assert_eq!(
            message(0.25, 1.5),
            "cannot trim clip \"wave\" to end at 1.5 s: the clip ends at 1 s"
        );
        assert_eq!(
            message(f32::NAN, 0.5),
            "cannot trim clip \"wave\" to NaN..0.5 s: a time is not a number"
        );
        assert!(matches!(
            trim_clip(&clip, 0.2, f32::NAN),
            Err(TrimError::NotANumber { .. })
        ));
        assert!(matches!(trim_clip(&clip, 0.7, 0.2), Err(TrimError::Empty { .. })));
    }
}
