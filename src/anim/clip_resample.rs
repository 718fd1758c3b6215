//! Resampling: a clip keyed on a regular grid of frames (`convert --fps N`).
//!
//! Every channel is keyed at `i / fps` seconds for `i` in `0..n` and at the clip's exact end,
//! where `n = ceil(duration · fps)`: the last frame is the clip's end rather than a whole frame
//! past it. A duration within `FRAME_SLACK` of a whole number of frames counts as whole, so the
//! last two keys are never a rounding error apart. Each key holds the original's sample at its
//! time; rotations are normalised.
//!
//! LINEAR and CUBICSPLINE channels become LINEAR: at the keys the resampled clip equals the
//! original, between them it interpolates linearly (a curve between frames is lost). STEP
//! channels stay STEP, sampled at the new times: a step between two frames moves to the next
//! frame. A channel with a single key (constant) keeps it.

use std::sync::Arc;

use super::clip::{Channel, ChannelTrack, Clip};
use super::keys::{Interpolation, TrackError};
use super::track::{Keyframe, Track, WeightsTrack};

/// How far (in frames) past a whole number of frames a duration may be and still end on that
/// frame: f32 seconds round a frame time by far less.
const FRAME_SLACK: f64 = 1e-3;

/// The most frames a resampled clip may have (an hour at 240 fps is 864,000): a rate typed with
/// a few zeros too many must not ask for terabytes.
const MAX_FRAMES: usize = 1_000_000;

/// Why a clip cannot be resampled; each names the clip and the rate.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ResampleError {
    #[error("cannot resample clip \"{clip}\" at {fps} frames per second: the rate must be a positive number")]
    Rate { clip: String, fps: f32 },
    #[error(
        "cannot resample clip \"{clip}\" at {fps} frames per second: its {duration} s would take {frames} frames (at most {MAX_FRAMES})"
    )]
    TooManyFrames {
        clip: String,
        fps: f32,
        duration: f32,
        frames: f64,
    },
    /// A sampled value overflowed (keys near `f32::MAX`).
    #[error("cannot resample clip \"{clip}\" at {fps} frames per second: channel {channel}: {source}")]
    Keys {
        clip: String,
        fps: f32,
        channel: usize,
        source: TrackError,
    },
}

/// `clip` keyed at `fps` frames per second (see the module docs), under the same name and with
/// the same duration.
pub fn resample_clip(clip: &Clip, fps: f32) -> Result<Clip, ResampleError> {
    let name = || clip.name().to_owned();
    if !(fps.is_finite() && fps > 0.0) {
        return Err(ResampleError::Rate { clip: name(), fps });
    }
    let duration = clip.duration();
    let frames = (f64::from(duration) * f64::from(fps) - FRAME_SLACK).ceil().max(0.0);
    if frames > MAX_FRAMES as f64 {
        return Err(ResampleError::TooManyFrames {
            clip: name(),
            fps,
            duration,
            frames,
        });
    }
    let times = frame_times(frames as usize, fps, duration);
    let channels = (clip.channels().iter().enumerate())
        .map(|(index, channel)| {
            let track = resample_channel(&channel.track, &times).map_err(|source| ResampleError::Keys {
                clip: name(),
                fps,
                channel: index,
                source,
            })?;
            Ok(Channel {
                joint: channel.joint,
                track,
            })
        })
        .collect::<Result<Vec<_>, ResampleError>>()?;
    Ok(Clip::new(name(), channels).lasting_at_least(duration))
}

/// `i / fps` for `i` in `0..frames`, then `duration`: one array that every channel shares.
fn frame_times(frames: usize, fps: f32, duration: f32) -> Arc<[f32]> {
    let frame = |i: usize| (i as f64 / f64::from(fps)) as f32;
    (0..frames).map(frame).chain([duration]).collect()
}

/// STEP stays STEP; LINEAR and CUBICSPLINE become LINEAR.
fn resampled_interpolation(interpolation: Interpolation) -> Interpolation {
    match interpolation {
        Interpolation::Step => Interpolation::Step,
        Interpolation::Linear | Interpolation::CubicSpline => Interpolation::Linear,
    }
}

fn resample_channel(track: &ChannelTrack, times: &Arc<[f32]>) -> Result<ChannelTrack, TrackError> {
    Ok(match track {
        ChannelTrack::Translation(track) => ChannelTrack::Translation(resample_track(track, times, |v| v)?),
        ChannelTrack::Rotation(track) => ChannelTrack::Rotation(resample_track(track, times, |q| q.normalize())?),
        ChannelTrack::Scale(track) => ChannelTrack::Scale(resample_track(track, times, |v| v)?),
        ChannelTrack::MorphWeights { offset, track } => ChannelTrack::MorphWeights {
            offset: *offset,
            track: resample_weights(track, times)?,
        },
        ChannelTrack::Properties { offset, track } => ChannelTrack::Properties {
            offset: *offset,
            track: resample_weights(track, times)?,
        },
    })
}

/// The track sampled at `times`, each sample passed through `finish`.
fn resample_track<T: Keyframe>(
    track: &Track<T>,
    times: &Arc<[f32]>,
    finish: impl Fn(T) -> T,
) -> Result<Track<T>, TrackError> {
    if track.times().len() == 1 {
        return Ok(track.clone());
    }
    let mut cursor = 0;
    let values = times
        .iter()
        .map(|&time| finish(track.sample(time, &mut cursor)))
        .collect();
    Track::new(resampled_interpolation(track.interpolation()), times.clone(), values)
}

fn resample_weights(track: &WeightsTrack, times: &Arc<[f32]>) -> Result<WeightsTrack, TrackError> {
    if track.times().len() == 1 {
        return Ok(track.clone());
    }
    let width = track.width();
    let mut values = vec![0.0; times.len() * width];
    let mut cursor = 0;
    for (&time, out) in times.iter().zip(values.chunks_exact_mut(width.max(1))) {
        track.sample_into(time, &mut cursor, out);
    }
    WeightsTrack::new(
        resampled_interpolation(track.interpolation()),
        times.clone(),
        width,
        values,
    )
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;

    fn channel(joint: usize, track: ChannelTrack) -> Channel {
        Channel { joint, track }
    }

    /// Keys at `times` following a curve, in `interpolation` (cubic tangents bend it further).
    fn curve(interpolation: Interpolation, times: &[f32]) -> Clip {
        let cubic = interpolation == Interpolation::CubicSpline;
        let keyed = |value: &dyn Fn(f32) -> Vec3| -> Vec<Vec3> {
            (times.iter())
                .flat_map(|&t| {
                    if cubic {
                        vec![Vec3::new(0.5, -1.0, 2.0), value(t), Vec3::new(1.0, 0.2, -0.7)]
                    } else {
                        vec![value(t)]
                    }
                })
                .collect()
        };
        let translation = Track::new(
            interpolation,
            times.to_vec(),
            keyed(&|t| Vec3::new(t.sin(), t * t, 0.5)),
        );
        let turn = keyed(&|t| Vec3::new(t, 0.3 * t, 1.0));
        let rotations = turn.iter().map(|v| Quat::from_scaled_axis(*v)).collect();
        let rotation = Track::new(interpolation, times.to_vec(), rotations);
        let weights: Vec<f32> = keyed(&|t| Vec3::new(t.cos(), 1.0 - t, t))
            .iter()
            .flat_map(|v| v.to_array())
            .collect();
        let weights = WeightsTrack::new(interpolation, times.to_vec(), 3, weights);
        Clip::new(
            "curve".into(),
            vec![
                channel(0, ChannelTrack::Translation(translation.unwrap())),
                channel(1, ChannelTrack::Rotation(rotation.unwrap())),
                channel(
                    0,
                    ChannelTrack::MorphWeights {
                        offset: 0,
                        track: weights.unwrap(),
                    },
                ),
            ],
        )
    }

    /// Each channel's values at its key times, as floats (rotations with w ≥ 0), and the
    /// original clip's samples at the same times.
    fn keys_and_samples(resampled: &Clip, original: &Clip) -> Vec<(f32, f32)> {
        let mut pairs = Vec::new();
        let positive = |q: Quat| if q.w < 0.0 { -q } else { q };
        for (new, old) in resampled.channels().iter().zip(original.channels()) {
            match (&new.track, &old.track) {
                (ChannelTrack::Translation(new), ChannelTrack::Translation(old)) => {
                    for (&time, value) in new.times().iter().zip(new.key_values()) {
                        let sample = old.sample(time, &mut 0);
                        pairs.extend(value.to_array().into_iter().zip(sample.to_array()));
                    }
                }
                (ChannelTrack::Rotation(new), ChannelTrack::Rotation(old)) => {
                    for (&time, value) in new.times().iter().zip(new.key_values()) {
                        let sample = positive(old.sample(time, &mut 0));
                        pairs.extend(positive(value).to_array().into_iter().zip(sample.to_array()));
                    }
                }
                (ChannelTrack::MorphWeights { track: new, .. }, ChannelTrack::MorphWeights { track: old, .. }) => {
                    let mut sample = vec![0.0; old.width()];
                    for (&time, value) in new.times().iter().zip(new.values().chunks(new.width())) {
                        old.sample_into(time, &mut 0, &mut sample);
                        pairs.extend(value.iter().copied().zip(sample.iter().copied()));
                    }
                }
                _ => unreachable!("the channels keep their kinds and order"),
            }
        }
        pairs
    }

    #[test]
    fn keys_fall_on_the_frames_and_the_last_on_the_clips_end() {
        let times: Vec<f32> = (0..=10).map(|k| k as f32 * 0.101).collect();
        let resampled = resample_clip(&curve(Interpolation::Linear, &times), 30.0).unwrap();
        assert_eq!(resampled.timeline_count(), 1, "every channel shares the frames");
        let frames = resampled.channels()[0].track.times();
        // 1.01 s at 30 fps: frames 0 to 30 (1 s), then the end.
        assert_eq!(frames.len(), 32);
        for (i, time) in frames[..31].iter().enumerate() {
            assert_eq!(*time, (i as f64 / 30.0) as f32);
        }
        assert_eq!(frames[31], 1.01);
        assert_eq!(resampled.duration(), 1.01);
    }

    #[test]
    fn a_duration_of_whole_frames_ends_on_the_last_frame() {
        let times: Vec<f32> = (0..=4).map(|k| k as f32 * 0.25).collect();
        let resampled = resample_clip(&curve(Interpolation::Linear, &times), 24.0).unwrap();
        let frames = resampled.channels()[0].track.times();
        assert_eq!(frames.len(), 25, "frames 0 to 24, with no second key at 1 s");
        assert_eq!(frames[24], 1.0);
    }

    #[test]
    fn values_at_the_keys_are_the_originals_samples() {
        let times = [0.0, 0.07, 0.3, 0.31, 0.8, 1.3];
        for interpolation in [Interpolation::Step, Interpolation::Linear, Interpolation::CubicSpline] {
            let original = curve(interpolation, &times);
            let resampled = resample_clip(&original, 25.0).unwrap();
            for (key, sample) in keys_and_samples(&resampled, &original) {
                assert!(
                    (key - sample).abs() < 1e-6,
                    "{}: {key} vs {sample}",
                    interpolation.name()
                );
            }
        }
    }

    #[test]
    fn step_stays_step_and_the_rest_becomes_linear() {
        let times = [0.0, 0.5, 1.0];
        for (from, to) in [
            (Interpolation::Step, Interpolation::Step),
            (Interpolation::Linear, Interpolation::Linear),
            (Interpolation::CubicSpline, Interpolation::Linear),
        ] {
            let resampled = resample_clip(&curve(from, &times), 10.0).unwrap();
            for channel in resampled.channels() {
                assert_eq!(channel.track.interpolation(), to, "{}", from.name());
            }
        }
    }

    #[test]
    fn rotations_come_out_normalised() {
        let times = [0.0, 0.4, 1.0];
        let resampled = resample_clip(&curve(Interpolation::CubicSpline, &times), 60.0).unwrap();
        let ChannelTrack::Rotation(rotation) = &resampled.channels()[1].track else {
            unreachable!()
        };
        for q in rotation.key_values() {
            assert!((q.length() - 1.0).abs() < 1e-6, "{q}");
        }
    }

    #[test]
    fn a_clip_keyed_at_the_rate_round_trips() {
        let times: Vec<f32> = (0..=45).map(|i| (i as f64 / 30.0) as f32).collect();
        let original = curve(Interpolation::Linear, &times);
        let resampled = resample_clip(&original, 30.0).unwrap();
        assert_eq!(resampled.channels().len(), original.channels().len());
        for (new, old) in resampled.channels().iter().zip(original.channels()) {
            assert_eq!(new.track.times(), old.track.times());
            assert_eq!(new.track.interpolation(), old.track.interpolation());
        }
        for (key, original_key) in keys_and_samples(&resampled, &original) {
            assert!((key - original_key).abs() < 1e-6, "{key} vs {original_key}");
        }
    }

    #[test]
    fn constant_channels_keep_their_one_key() {
        let still = Track::new(Interpolation::Linear, vec![0.0], vec![Vec3::Y]).unwrap();
        let mut channels = curve(Interpolation::Linear, &[0.0, 1.0]).channels().to_vec();
        channels.push(channel(1, ChannelTrack::Scale(still)));
        let resampled = resample_clip(&Clip::new("still".into(), channels), 30.0).unwrap();
        assert_eq!(resampled.channels()[3].track.times().len(), 1);
    }

    #[test]
    fn bad_rates_are_refused_with_the_clip_in_words() {
        let clip = curve(Interpolation::Linear, &[0.0, 2.0]);
        for fps in [0.0, -30.0, f32::NAN, f32::INFINITY] {
            assert!(
                matches!(resample_clip(&clip, fps), Err(ResampleError::Rate { .. })),
                "{fps}"
            );
        }
        assert_eq!(
            resample_clip(&clip, 0.0).unwrap_err().to_string(),
            "cannot resample clip \"curve\" at 0 frames per second: the rate must be a positive number"
        );
        assert!(matches!(
            resample_clip(&clip, 1e9),
            Err(ResampleError::TooManyFrames { .. })
        ));
    }
}
