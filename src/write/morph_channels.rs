//! A node's morph-weight channels as glTF holds them: one channel for all the node's targets.
//! Readers that key each target apart (FBX: a curve per blend shape) give a clip a channel per
//! target; those are merged into one, sampled at every key of any of them. Linear and step keys
//! merge exactly (every corner of each part is a key of the whole); cubic ones are sampled at
//! those keys and written linear, which the caller says.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::anim::{ChannelTrack, Clip, Interpolation, Skeleton, WeightsTrack};

/// One node's morph weights in a clip, as one track of all its targets.
pub struct WholeWeights<'a> {
    pub joint: usize,
    pub track: Cow<'a, WeightsTrack>,
    /// Some part was a cubic spline, sampled at the keys and written linear.
    pub resampled: bool,
}

/// Per node the clip animates the morph weights of, its whole track (none where the parts do
/// not lie inside the node's weights).
pub fn whole_weight_tracks<'a>(clip: &'a Clip, skeleton: &Skeleton) -> Vec<WholeWeights<'a>> {
    let mut parts: BTreeMap<usize, Vec<(usize, &WeightsTrack)>> = BTreeMap::new();
    for channel in clip.channels() {
        if let ChannelTrack::MorphWeights { offset, track } = &channel.track {
            parts.entry(channel.joint).or_default().push((*offset, track));
        }
    }
    let rest = skeleton.rest_pose().morph_weights();
    parts
        .into_iter()
        .filter_map(|(joint, parts)| {
            let range = skeleton.morph_weight_range(joint);
            let inside = |&(offset, track): &(usize, &WeightsTrack)| {
                offset >= range.start && offset + track.width() <= range.end
            };
            if !parts.iter().all(inside) {
                return None;
            }
            if let [(offset, track)] = parts[..]
                && offset == range.start
                && track.width() == range.len()
            {
                return Some(WholeWeights {
                    joint,
                    track: Cow::Borrowed(track),
                    resampled: false,
                });
            }
            merged(&parts, range.start, &rest[range]).map(|(track, resampled)| WholeWeights {
                joint,
                track: Cow::Owned(track),
                resampled,
            })
        })
        .collect()
}

/// The parts (offset, track) of weights starting at `first`, over `rest` where no part keys
/// them, as one track keyed at every part's keys.
fn merged(parts: &[(usize, &WeightsTrack)], first: usize, rest: &[f32]) -> Option<(WeightsTrack, bool)> {
    let mut times: Vec<f32> = parts
        .iter()
        .flat_map(|(_, track)| track.times().iter().copied())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let interpolation = parts[0].1.interpolation();
    let same = parts.iter().all(|(_, track)| track.interpolation() == interpolation);
    let (interpolation, resampled) = match (same, interpolation) {
        (true, Interpolation::Step | Interpolation::Linear) => (interpolation, false),
        _ => (Interpolation::Linear, true),
    };
    let mut values = Vec::with_capacity(times.len() * rest.len());
    let mut cursors = vec![0u32; parts.len()];
    for &time in &times {
        let key = values.len();
        values.extend_from_slice(rest);
        for ((offset, track), cursor) in parts.iter().zip(&mut cursors) {
            let at = key + offset - first;
            track.sample_into(time, cursor, &mut values[at..at + track.width()]);
        }
    }
    let track = WeightsTrack::new(interpolation, times, rest.len(), values).ok()?;
    Some((track, resampled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Channel;

    fn part(times: Vec<f32>, values: Vec<f32>) -> WeightsTrack {
        WeightsTrack::new(Interpolation::Linear, times, 1, values).unwrap()
    }

    #[test]
    fn a_channel_per_target_merges_into_one_that_samples_the_same() {
        let first = part(vec![0.0, 1.0], vec![0.0, 1.0]);
        let second = part(vec![0.0, 0.5, 1.0], vec![1.0, 0.0, 0.5]);
        let parts = [(3, &first), (4, &second)];
        let (whole, resampled) = merged(&parts, 3, &[0.2, 0.3]).unwrap();
        assert!(!resampled);
        assert_eq!(&whole.times()[..], &[0.0, 0.5, 1.0], "every part's keys");
        let (mut out, mut cursor) = ([0.0; 2], 0);
        for time in [0.0, 0.25, 0.5, 0.8, 1.0] {
            whole.sample_into(time, &mut cursor, &mut out);
            let (mut a, mut b) = ([0.0], [0.0]);
            first.sample_into(time, &mut 0, &mut a);
            second.sample_into(time, &mut 0, &mut b);
            assert!(
                (out[0] - a[0]).abs() < 1e-6 && (out[1] - b[0]).abs() < 1e-6,
                "at {time}: {out:?}"
            );
        }
    }

    #[test]
    fn a_whole_channel_is_kept_and_one_outside_the_nodes_weights_is_left_out() {
        use crate::anim::{JointDesc, Transform};
        let skeleton = Skeleton::new(vec![JointDesc {
            name: "face".into(),
            parent: None,
            rest: Transform::IDENTITY,
            bind_model: None,
            morph_weights: vec![0.0, 0.0],
        }])
        .unwrap();
        let whole = WeightsTrack::new(Interpolation::Linear, vec![0.0, 1.0], 2, vec![0.5; 4]).unwrap();
        let channel = |offset| Channel {
            joint: 0,
            track: ChannelTrack::MorphWeights {
                offset,
                track: whole.clone(),
            },
        };
        let clip = Clip::new("whole".into(), vec![channel(0)]);
        let tracks = whole_weight_tracks(&clip, &skeleton);
        assert!(matches!(tracks[0].track, Cow::Borrowed(_)), "kept as it is");
        let clip = Clip::new("outside".into(), vec![channel(1)]);
        assert!(
            whole_weight_tracks(&clip, &skeleton).is_empty(),
            "two weights from the second on"
        );
    }
}
