//! glTF's key times are 0 or later, but a clip rigscope reads may be keyed earlier (an FBX take
//! that starts before 0 plays from 0, interpolating into its first span). Such clips are
//! written from 0: the keys before it give way to one holding the value at 0, as
//! `anim::trim_clip` cuts, so that every time that plays is sampled as it was.

use std::borrow::Cow;

use crate::anim::{Clip, trim_clip};
use crate::asset::Model;

/// `model`, with its clips keyed before 0 cut at 0 (itself when none is).
pub fn clips_from_zero(model: &Model) -> Cow<'_, Model> {
    if !model.clips.iter().any(starts_early) {
        return Cow::Borrowed(model);
    }
    let mut cut = model.clone();
    for clip in cut.clips.iter_mut().filter(|clip| starts_early(clip)) {
        // A clip of one instant cannot be cut; it is written as it is, and the validator says so.
        if let Ok(trimmed) = trim_clip(clip, 0.0, clip.duration()) {
            *clip = trimmed;
        }
    }
    Cow::Owned(cut)
}

/// Whether some channel of `clip` has a key before 0.
fn starts_early(clip: &Clip) -> bool {
    (clip.channels().iter()).any(|channel| channel.track.times().first().is_some_and(|&time| time < 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Channel, ChannelTrack, Interpolation, Track};
    use crate::asset::demo::demo_model;
    use glam::Vec3;

    #[test]
    fn a_clip_keyed_before_zero_is_cut_there_and_others_are_kept() {
        let mut model = demo_model();
        assert!(
            matches!(clips_from_zero(&model), Cow::Borrowed(_)),
            "the demo starts at 0"
        );
        let track = Track::new(
            Interpolation::Linear,
            vec![-1.0, 1.0],
            vec![Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)],
        );
        let channel = Channel {
            joint: 0,
            track: ChannelTrack::Translation(track.unwrap()),
        };
        model.clips.push(Clip::new("early".into(), vec![channel]));
        let cut = clips_from_zero(&model);
        let early = cut.clips.last().unwrap();
        let ChannelTrack::Translation(track) = &early.channels()[0].track else {
            panic!("a translation")
        };
        assert_eq!(&track.times()[..], &[0.0, 1.0]);
        assert!(
            track.values()[0].distance(Vec3::new(1.0, 0.0, 0.0)) < 1e-6,
            "the value at 0"
        );
        assert_eq!(
            cut.clips[0].channels(),
            model.clips[0].channels(),
            "the others as they were"
        );
    }
}
