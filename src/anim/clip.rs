//! Animation clips: named sets of tracks, each driving one property of one joint.
//!
//! A clip runs from time 0 to its `duration` (the latest key of any track). Sampling writes
//! only the properties the clip animates into a caller-owned `Pose`; the caller decides what
//! the others hold (usually the rest pose) by resetting the pose first.

use glam::{Quat, Vec3};

use super::pose::Pose;
use super::track::{Interpolation, Track, WeightsTrack};

/// What a channel animates, with its keys.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelTrack {
    Translation(Track<Vec3>),
    Rotation(Track<Quat>),
    Scale(Track<Vec3>),
    /// Morph-target weights, written to `Pose::morph_weights()[offset..offset + width]`.
    MorphWeights {
        offset: usize,
        track: WeightsTrack,
    },
}

impl ChannelTrack {
    /// The property's name as glTF spells it.
    pub fn property(&self) -> &'static str {
        match self {
            Self::Translation(_) => "translation",
            Self::Rotation(_) => "rotation",
            Self::Scale(_) => "scale",
            Self::MorphWeights { .. } => "weights",
        }
    }

    pub fn interpolation(&self) -> Interpolation {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.interpolation(),
            Self::Rotation(track) => track.interpolation(),
            Self::MorphWeights { track, .. } => track.interpolation(),
        }
    }

    pub fn end_time(&self) -> f32 {
        match self {
            Self::Translation(track) | Self::Scale(track) => track.end_time(),
            Self::Rotation(track) => track.end_time(),
            Self::MorphWeights { track, .. } => track.end_time(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    pub joint: usize,
    pub track: ChannelTrack,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    name: String,
    duration: f32,
    channels: Vec<Channel>,
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
        if !(duration > 0.0) || !time.is_finite() {
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

/// Per-channel key cursors for sampling one clip, kept by the caller between frames.
#[derive(Clone, Debug, Default)]
pub struct ClipCursor {
    keys: Vec<u32>,
}

impl Clip {
    pub fn new(name: String, channels: Vec<Channel>) -> Self {
        let duration = channels
            .iter()
            .map(|c| c.track.end_time())
            .fold(0.0, f32::max);
        Self {
            name,
            duration,
            channels,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
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
            keys: vec![0; self.channels.len()],
        }
    }

    /// Writes the clip's value at clip time `time` into `pose`, for the properties it animates.
    /// Allocates nothing. Channels naming joints or weights the pose does not have are skipped.
    pub fn sample(&self, time: f32, pose: &mut Pose, cursor: &mut ClipCursor) {
        if cursor.keys.len() != self.channels.len() {
            // A cursor of another clip: start over rather than read the wrong spans.
            cursor.keys.clear();
            cursor.keys.resize(self.channels.len(), 0);
        }
        for (channel, key) in self.channels.iter().zip(cursor.keys.iter_mut()) {
            if let ChannelTrack::MorphWeights { offset, track } = &channel.track {
                if let Some(out) = pose
                    .morph_weights_mut()
                    .get_mut(*offset..*offset + track.width())
                {
                    track.sample_into(time, key, out);
                }
                continue;
            }
            let Some(local) = pose.local_mut().get_mut(channel.joint) else {
                continue;
            };
            match &channel.track {
                ChannelTrack::Translation(track) => local.translation = track.sample(time, key),
                ChannelTrack::Rotation(track) => local.rotation = track.sample(time, key),
                ChannelTrack::Scale(track) => local.scale = track.sample(time, key),
                ChannelTrack::MorphWeights { .. } => {}
            }
        }
    }

    /// Whether any channel drives `joint`.
    pub fn animates(&self, joint: usize) -> bool {
        self.channels.iter().any(|c| c.joint == joint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::pose::Hierarchy;
    use crate::anim::transform::Transform;
    use std::sync::Arc;

    fn two_joint_pose() -> Pose {
        let hierarchy = Arc::new(Hierarchy::new(vec![None, Some(0)]).unwrap());
        Pose::new(hierarchy, vec![Transform::IDENTITY; 2], vec![0.0; 2]).unwrap()
    }

    fn clip() -> Clip {
        let translation = Track::new(
            Interpolation::Linear,
            vec![0.0, 2.0],
            vec![Vec3::ZERO, Vec3::X],
        )
        .unwrap();
        let weights = WeightsTrack::new(
            Interpolation::Step,
            vec![0.0, 1.0],
            2,
            vec![1.0, 0.0, 0.0, 1.0],
        )
        .unwrap();
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
        assert_eq!(
            pose.local()[1].scale,
            Vec3::splat(3.0),
            "scale is not animated"
        );
        assert_eq!(pose.local()[0], Transform::IDENTITY);
        assert_eq!(pose.morph_weights(), &[0.0, 1.0]);
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
        assert_eq!(
            Playback::Loop.clip_time(1.0, 0.0),
            0.0,
            "an empty clip stays at 0"
        );
    }
}
