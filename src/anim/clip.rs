//! Animation clips: named sets of tracks, each driving one property of one joint.
//!
//! A clip runs from time 0 to its `duration` (the latest key of any track). Sampling writes
//! only the properties the clip animates into a caller-owned `Pose`; the caller decides what
//! the others hold (usually the rest pose) by resetting the pose first.
//!
//! Channels with equal key times share one timeline (exporters usually key every channel on
//! the same frames): sampling finds the key span once per timeline, then each channel only
//! interpolates. Channels that hold one value throughout (exporters often key every property
//! of every joint) are reduced to one key. Neither changes any sampled value.
//!
//! The SIMD key blocks (`key_block.rs`) are a second copy of the keys, made when the clip is
//! first sampled: a file's clips that are never played (a still image poses one of ten) cost
//! their keys once, not twice.

use std::sync::{Arc, OnceLock};

pub use super::channel::{Channel, ChannelTrack};
use super::key_block::FastChannels;
use super::key_rate::measure_key_rate;
use super::keys::{KeySpan, locate};
use super::pose::Pose;

#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    name: String,
    duration: f32,
    channels: Vec<Channel>,
    /// The distinct key-time arrays of the channels.
    timelines: Vec<Arc<[f32]>>,
    /// For each channel, its index in `timelines`.
    channel_timeline: Vec<usize>,
    /// What is worked out from the channels when first asked for.
    derived: Derived,
}

/// Values worked out from a clip's channels once, on first use: the channels sampled in SIMD
/// blocks (most of them) and the rest, and the rate the clip was keyed at (the timeline asks
/// every frame; it reads every key). They follow from the channels, so two clips with equal
/// channels are equal whether or not either has made them.
#[derive(Clone, Debug, Default)]
struct Derived {
    fast: OnceLock<FastChannels>,
    key_rate: OnceLock<f32>,
}

impl PartialEq for Derived {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// How playback time maps to clip time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    /// Play once and hold the last frame (and the first before time 0).
    Once,
    /// Wrap around at the end.
    #[default]
    Loop,
    /// Play forwards, then backwards, and so on.
    PingPong,
}

impl Playback {
    /// Clip time for playback time `time` (seconds) in a clip `duration` seconds long.
    pub fn clip_time(self, time: f32, duration: f32) -> f32 {
        if duration.is_nan() || duration <= 0.0 || !time.is_finite() {
            return 0.0;
        }
        match self {
            Playback::Once => time.clamp(0.0, duration),
            Playback::Loop => time.rem_euclid(duration),
            Playback::PingPong => {
                let phase = time.rem_euclid(2.0 * duration);
                if phase > duration {
                    2.0 * duration - phase
                } else {
                    phase
                }
            }
        }
    }
}

impl Playback {
    /// Playback time brought back into one period (`clip_time` of the result is unchanged),
    /// so that a long session keeps its float precision.
    pub fn wrap_time(self, time: f32, duration: f32) -> f32 {
        if duration.is_nan() || duration <= 0.0 || !time.is_finite() {
            return 0.0;
        }
        match self {
            Playback::Once => time.clamp(0.0, duration),
            Playback::Loop => time.rem_euclid(duration),
            Playback::PingPong => time.rem_euclid(2.0 * duration),
        }
    }
}

/// Per-timeline key cursors for sampling one clip, kept by the caller between frames.
#[derive(Clone, Debug, Default)]
pub struct ClipCursor {
    keys: Vec<u32>,
    spans: Vec<KeySpan>,
}

impl Clip {
    pub fn new(name: String, mut channels: Vec<Channel>) -> Self {
        let duration = channels.iter().map(|c| c.track.end_time()).fold(0.0, f32::max);
        let mut timelines: Vec<Arc<[f32]>> = Vec::new();
        let mut channel_timeline = Vec::with_capacity(channels.len());
        for channel in &mut channels {
            channel.track.drop_redundant_keys();
            let times = channel.track.times();
            match timelines.iter().position(|t| Arc::ptr_eq(t, times) || **t == **times) {
                Some(index) => {
                    channel.track.share_times(&timelines[index]);
                    channel_timeline.push(index);
                }
                None => {
                    channel_timeline.push(timelines.len());
                    timelines.push(times.clone());
                }
            }
        }
        Self {
            name,
            duration,
            channels,
            timelines,
            channel_timeline,
            derived: Derived::default(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same clip under another name (`convert --rename`); keys and derived data are kept.
    pub fn renamed(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The clip lasting at least `duration` seconds: a clip made from another's channels keeps
    /// the other's length even when its last keys were dropped (constant, or not carried over).
    pub fn lasting_at_least(mut self, duration: f32) -> Self {
        self.duration = self.duration.max(duration);
        self
    }

    /// The clip stepping at `rate` frames per second (`key_rate`), where the file states its
    /// frame rate (FBX): keys baked finer than its frames would read as a faster rate.
    pub fn with_key_rate(self, rate: f32) -> Self {
        // Only a clip made with `new` comes here: its rate is not measured yet.
        let _ = self.derived.key_rate.set(rate);
        self
    }

    /// Seconds from 0 to the latest key.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// A cursor for sampling this clip.
    pub fn cursor(&self) -> ClipCursor {
        ClipCursor {
            keys: vec![0; self.timelines.len()],
            spans: vec![KeySpan::Clamped(0); self.timelines.len()],
        }
    }

    /// How many distinct key-time arrays the channels use.
    pub fn timeline_count(&self) -> usize {
        self.timelines.len()
    }

    /// Writes the clip's value at clip time `time` into `pose`, for the properties it animates.
    /// Allocates only on the first call (the key blocks). Channels naming joints or weights the
    /// pose does not have are skipped.
    pub fn sample(&self, time: f32, pose: &mut Pose, cursor: &mut ClipCursor) {
        if cursor.keys.len() != self.timelines.len() {
            // A cursor of another clip (a caller's mistake): start over with a fresh one rather
            // than read the wrong spans. Besides the first call, the only case that allocates.
            *cursor = self.cursor();
        }
        for ((times, key), span) in self.timelines.iter().zip(&mut cursor.keys).zip(&mut cursor.spans) {
            *span = locate(times, time, key);
        }
        let fast = self.fast_channels();
        if fast.fits(pose.len()) {
            fast.sample(&cursor.spans, pose.local_mut());
            for &index in fast.general() {
                self.sample_channel(index, &cursor.spans, pose);
            }
        } else {
            for index in 0..self.channels.len() {
                self.sample_channel(index, &cursor.spans, pose);
            }
        }
    }

    /// The key blocks, made on the first call (the only time sampling allocates them).
    fn fast_channels(&self) -> &FastChannels {
        (self.derived.fast).get_or_init(|| FastChannels::new(&self.channels, &self.channel_timeline, &self.timelines))
    }

    /// The frame rate the clip was keyed at, in frames per second (see `key_rate.rs`); worked
    /// out on the first call.
    pub fn key_rate(&self) -> f32 {
        let time_arrays = self.channels.iter().map(|channel| &**channel.track.times());
        *self.derived.key_rate.get_or_init(|| measure_key_rate(time_arrays))
    }

    /// Writes one channel's value, in the span found for its timeline, into `pose`.
    fn sample_channel(&self, index: usize, spans: &[KeySpan], pose: &mut Pose) {
        let channel = &self.channels[index];
        let span = spans[self.channel_timeline[index]];
        let floats = match &channel.track {
            ChannelTrack::MorphWeights { offset, track } => Some((pose.morph_weights_mut(), *offset, track)),
            ChannelTrack::Properties { offset, track } => Some((pose.properties_mut(), *offset, track)),
            _ => None,
        };
        if let Some((floats, offset, track)) = floats {
            if let Some(out) = floats.get_mut(offset..offset + track.width()) {
                track.sample_span_into(span, out);
            }
            return;
        }
        let Some(local) = pose.local_mut().get_mut(channel.joint) else {
            return;
        };
        match &channel.track {
            ChannelTrack::Translation(track) => local.translation = track.sample_span(span),
            ChannelTrack::Rotation(track) => local.rotation = track.sample_span(span),
            ChannelTrack::Scale(track) => local.scale = track.sample_span(span),
            ChannelTrack::MorphWeights { .. } | ChannelTrack::Properties { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::keys::Interpolation;
    use crate::anim::pose::Hierarchy;
    use crate::anim::track::{Track, WeightsTrack};
    use crate::anim::transform::Transform;
    use glam::Vec3;
    use std::sync::Arc;

    fn two_joint_pose() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap());
        Pose::new(hierarchy, vec![Transform::IDENTITY; 2], vec![0.0; 2]).unwrap()
    }

    fn clip() -> Clip {
        let translation = Track::new(Interpolation::Linear, vec![0.0, 2.0], vec![Vec3::ZERO, Vec3::X]).unwrap();
        let weights = WeightsTrack::new(Interpolation::Step, vec![0.0, 1.0], 2, vec![1.0, 0.0, 0.0, 1.0]).unwrap();
        Clip::new(
            "walk".into(),
            vec![
                Channel {
                    joint: 1,
                    track: ChannelTrack::Translation(translation),
                },
                Channel {
                    joint: 0,
                    track: ChannelTrack::MorphWeights {
                        offset: 0,
                        track: weights,
                    },
                },
            ],
        )
    }

    #[test]
    fn key_blocks_are_made_when_the_clip_is_first_sampled() {
        let clip = clip();
        assert!(
            clip.derived.fast.get().is_none(),
            "a clip not yet played holds its keys once"
        );
        let unsampled = clip.clone();
        let mut pose = two_joint_pose();
        clip.sample(1.0, &mut pose, &mut clip.cursor());
        assert!(clip.derived.fast.get().is_some());
        assert_eq!(
            clip, unsampled,
            "the blocks are the channels' keys: the clips stay equal"
        );
    }

    #[test]
    fn the_key_rate_is_kept_after_the_first_call() {
        let clip = clip();
        assert!(clip.derived.key_rate.get().is_none());
        let rate = clip.key_rate();
        assert_eq!(
            clip.derived.key_rate.get(),
            Some(&rate),
            "the timeline asks every frame"
        );
    }

    #[test]
    fn channels_with_equal_times_share_a_timeline() {
        let track =
            |x: f32| Track::new(Interpolation::Linear, vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::splat(x)]).unwrap();
        let other = Track::new(Interpolation::Linear, vec![0.0, 3.0], vec![Vec3::ZERO, Vec3::ONE]).unwrap();
        let channels = vec![
            Channel {
                joint: 0,
                track: ChannelTrack::Translation(track(1.0)),
            },
            Channel {
                joint: 1,
                track: ChannelTrack::Scale(track(2.0)),
            },
            Channel {
                joint: 1,
                track: ChannelTrack::Translation(other),
            },
        ];
        let clip = Clip::new("shared".into(), channels);
        assert_eq!(clip.timeline_count(), 2);
        assert_eq!(clip.duration(), 3.0);
        let mut pose = two_joint_pose();
        clip.sample(0.5, &mut pose, &mut clip.cursor());
        assert_eq!(pose.local()[0].translation, Vec3::splat(0.5));
        assert_eq!(pose.local()[1].scale, Vec3::splat(1.0));
        assert_eq!(pose.local()[1].translation, Vec3::splat(0.5 / 3.0));
    }

    #[test]
    fn constant_channels_keep_one_key_and_their_value() {
        let constant = Track::new(Interpolation::Linear, vec![0.0, 1.0, 4.0], vec![Vec3::ONE; 3]).unwrap();
        let moving = Track::new(Interpolation::Linear, vec![0.0, 2.0], vec![Vec3::ZERO, Vec3::X]).unwrap();
        let clip = Clip::new(
            "constant".into(),
            vec![
                Channel {
                    joint: 0,
                    track: ChannelTrack::Scale(constant),
                },
                Channel {
                    joint: 1,
                    track: ChannelTrack::Translation(moving),
                },
            ],
        );
        assert_eq!(clip.duration(), 4.0, "the duration still counts the dropped keys");
        let ChannelTrack::Scale(track) = &clip.channels()[0].track else {
            unreachable!()
        };
        assert_eq!(track.times().len(), 1);
        let mut pose = two_joint_pose();
        pose.local_mut()[0].scale = Vec3::splat(7.0);
        clip.sample(3.0, &mut pose, &mut clip.cursor());
        assert_eq!(pose.local()[0].scale, Vec3::ONE);
    }

    #[test]
    fn renaming_keeps_everything_but_the_name() {
        let walk = clip();
        let run = walk.clone().renamed("run");
        assert_eq!(run.name(), "run");
        assert_eq!(run.duration(), walk.duration());
        assert_eq!(run.channels(), walk.channels());
    }

    #[test]
    fn duration_is_the_latest_key() {
        assert_eq!(clip().duration(), 2.0);
    }

    #[test]
    fn sampling_writes_only_animated_properties() {
        let clip = clip();
        let mut pose = two_joint_pose();
        pose.local_mut()[1].scale = Vec3::splat(3.0);
        clip.sample(1.0, &mut pose, &mut clip.cursor());
        assert_eq!(pose.local()[1].translation, Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(pose.local()[1].scale, Vec3::splat(3.0), "scale is not animated");
        assert_eq!(pose.local()[0], Transform::IDENTITY);
        assert_eq!(pose.morph_weights(), &[0.0, 1.0]);
    }

    #[test]
    fn property_channels_write_their_floats_and_blend_linearly() {
        let colour = WeightsTrack::new(Interpolation::Linear, vec![0.0, 2.0], 2, vec![0.0, 1.0, 1.0, 0.0]).unwrap();
        let clip = Clip::new(
            "colour".into(),
            vec![Channel {
                joint: 0,
                track: ChannelTrack::Properties {
                    offset: 1,
                    track: colour,
                },
            }],
        );
        let rest = two_joint_pose().with_properties(vec![7.0, 7.0, 7.0]);
        let mut pose = rest.clone();
        clip.sample(1.0, &mut pose, &mut clip.cursor());
        assert_eq!(pose.properties(), [7.0, 0.5, 0.5], "only the channel's floats change");
        assert_eq!(pose.local(), rest.local());
        let mut half = rest.clone();
        crate::anim::blend(&mut half, &pose, 0.5, None);
        assert_eq!(half.properties(), [7.0, 3.75, 3.75]);
    }

    #[test]
    fn channels_beyond_the_pose_are_skipped() {
        let clip = clip();
        let hierarchy = Arc::new(Hierarchy::new(vec![None]).unwrap());
        let mut pose = Pose::new(hierarchy, vec![Transform::IDENTITY], Vec::new()).unwrap();
        clip.sample(1.0, &mut pose, &mut clip.cursor());
        assert_eq!(pose.local()[0], Transform::IDENTITY);
    }

    #[test]
    fn playback_modes_map_time() {
        assert_eq!(Playback::Once.clip_time(5.0, 2.0), 2.0);
        assert_eq!(Playback::Once.clip_time(-1.0, 2.0), 0.0);
        assert_eq!(Playback::Loop.clip_time(5.0, 2.0), 1.0);
        assert_eq!(Playback::Loop.clip_time(-0.5, 2.0), 1.5);
        assert_eq!(Playback::PingPong.clip_time(3.0, 2.0), 1.0);
        assert_eq!(Playback::PingPong.clip_time(2.5, 2.0), 1.5);
        assert_eq!(Playback::PingPong.clip_time(4.5, 2.0), 0.5);
        assert_eq!(Playback::Loop.clip_time(1.0, 0.0), 0.0, "an empty clip stays at 0");
    }
}
