//! When a clip has keys: the timeline's tick marks and the curve view's key dots. At what
//! rate they were keyed is `key_rate`'s.

use std::sync::Arc;

use super::clip::Clip;

/// The distinct key times of `clip`'s channels, ascending: of the channels that animate
/// `joint` when one is given, else of every channel.
pub fn key_times(clip: &Clip, joint: Option<usize>) -> Vec<f32> {
    let mut times = Vec::new();
    // Channels keyed together share one time array: each array is read once.
    let mut seen: Vec<&Arc<[f32]>> = Vec::new();
    for channel in clip.channels() {
        if joint.is_some_and(|j| j != channel.joint) {
            continue;
        }
        let track_times = channel.track.times();
        if seen.iter().any(|s| Arc::ptr_eq(s, track_times)) {
            continue;
        }
        seen.push(track_times);
        times.extend_from_slice(track_times);
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::anim::{Channel, ChannelTrack, Interpolation, Track};

    /// A translation channel on `joint` keyed at `times`, each key a different value (so
    /// none is dropped as redundant).
    fn channel(joint: usize, times: &[f32]) -> Channel {
        let values = (0..times.len()).map(|i| Vec3::splat(i as f32)).collect();
        let track = Track::new(Interpolation::Linear, times.to_vec(), values).unwrap();
        Channel {
            joint,
            track: ChannelTrack::Translation(track),
        }
    }

    fn clip(channels: Vec<Channel>) -> Clip {
        Clip::new("test".into(), channels)
    }

    #[test]
    fn key_times_merge_the_channels_or_follow_one_joint() {
        let clip = clip(vec![
            channel(0, &[0.0, 0.5, 1.0]),
            channel(1, &[0.0, 0.25, 1.0]),
            channel(1, &[0.0, 0.25, 1.0]),
        ]);
        assert_eq!(key_times(&clip, None), vec![0.0, 0.25, 0.5, 1.0]);
        assert_eq!(key_times(&clip, Some(0)), vec![0.0, 0.5, 1.0]);
        assert_eq!(key_times(&clip, Some(1)), vec![0.0, 0.25, 1.0]);
        assert!(
            key_times(&clip, Some(7)).is_empty(),
            "a joint the clip does not animate"
        );
    }
}
