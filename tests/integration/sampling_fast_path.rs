//! `Clip::sample` (SIMD key blocks for most channels) against a plain evaluation of each
//! channel's own track (`Track::sample`, in clip order) on every clip of every sample asset,
//! at many times, in forward playback (kept cursor) and random seek: same keys, same
//! interpolation, within float rounding.

use crate::common;

use glam::Vec4;
use rigscope::anim::{ChannelTrack, Clip, Pose, joint_extent};
use rigscope::asset;

/// The clip at `time` by each track on its own, written in channel order over `rest`.
fn reference_sample(clip: &Clip, time: f32, rest: &Pose) -> Pose {
    let mut pose = rest.clone();
    for channel in clip.channels() {
        let Some(local) = pose.local_mut().get_mut(channel.joint) else {
            continue;
        };
        match &channel.track {
            ChannelTrack::Translation(track) => local.translation = track.sample(time, &mut 0),
            ChannelTrack::Rotation(track) => local.rotation = track.sample(time, &mut 0),
            ChannelTrack::Scale(track) => local.scale = track.sample(time, &mut 0),
            ChannelTrack::MorphWeights { offset, track } => track.sample_into(
                time,
                &mut 0,
                &mut pose.morph_weights_mut()[*offset..*offset + track.width()],
            ),
            ChannelTrack::Properties { offset, track } => track.sample_into(
                time,
                &mut 0,
                &mut pose.properties_mut()[*offset..*offset + track.width()],
            ),
        }
    }
    pose
}

/// Largest joint-position difference (model space) and rotation component difference (with
/// `q` and `-q` counted as the same rotation).
fn difference(a: &Pose, b: &Pose) -> (f32, f32) {
    let (ma, mb) = (a.to_model_matrices(), b.to_model_matrices());
    let position = (ma.iter().zip(&mb))
        .map(|(a, b)| (a.w_axis - b.w_axis).abs().max_element())
        .fold(0.0, f32::max);
    let rotation = (a.local().iter().zip(b.local()))
        .map(|(a, b)| {
            let (a, b) = (Vec4::from(a.rotation), Vec4::from(b.rotation));
            (a - b).abs().max_element().min((a + b).abs().max_element())
        })
        .fold(0.0, f32::max);
    (position, rotation)
}

#[test]
fn fast_sampling_matches_each_track_on_every_sample_clip() {
    let mut clips_checked = 0;
    for file in common::all_rig_files() {
        let model = asset::load(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rest = model.skeleton.rest_pose();
        let size = joint_extent(&rest.to_model_matrices()).max(1e-3);
        for clip in &model.clips {
            let duration = clip.duration();
            // Forward at 1/60 s from before the start to past the end, then pseudo-random seeks.
            let forward = (0..)
                .map(|i| i as f32 / 60.0 - 0.1)
                .take_while(|&t| t <= duration + 0.1);
            let seeks = (0..200u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 8) as f32 / (1 << 24) as f32 * duration);
            let mut pose = rest.clone();
            let mut cursor = clip.cursor();
            for time in forward.chain(seeks) {
                clip.sample(time, &mut pose, &mut cursor);
                let expected = reference_sample(clip, time, rest);
                let (position, rotation) = difference(&pose, &expected);
                let at = format!("{} clip {:?} at {time}", file.display(), clip.name());
                assert!(position <= 1e-4 * size, "{at}: joints {position} apart (size {size})");
                // Both slerps are within 1e-6 of the exact one per component.
                assert!(rotation <= 3e-6, "{at}: rotations differ by {rotation}");
                assert_eq!(pose.morph_weights(), expected.morph_weights(), "{at}");
                assert_eq!(pose.properties(), expected.properties(), "{at}");
            }
            clips_checked += 1;
        }
    }
    assert!(clips_checked >= 15, "only {clips_checked} clips");
}
