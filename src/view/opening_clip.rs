//! Which clip a file opens on in the viewer. Files list their clips in whatever order the
//! exporter wrote them, so the first is often a 0.1 s pose or a stray edge grab; the clip a
//! user wants to see first is the character standing (idle, rest, T-pose), else the longest.

use crate::anim::Clip;

/// How the viewer picks the clip a file opens on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClipOnOpen {
    /// The first clip named idle, else rest or T-pose, else the longest clip.
    #[default]
    Suggested,
    /// The file's first clip.
    First,
}

/// The clip to open `clips` on (none without clips).
pub fn opening_clip(clips: &[Clip], choice: ClipOnOpen) -> Option<usize> {
    if clips.is_empty() {
        return None;
    }
    if choice == ClipOnOpen::First {
        return Some(0);
    }
    let named = |says: fn(&str) -> bool| clips.iter().position(|clip| says(clip.name()));
    let longest = (0..clips.len())
        .rev()
        .max_by(|&a, &b| clips[a].duration().total_cmp(&clips[b].duration()));
    named(says_idle).or_else(|| named(says_rest_or_t_pose)).or(longest)
}

/// "Idle", "mixamo.com|Idle_02", "IdleBreathing".
fn says_idle(name: &str) -> bool {
    name.to_lowercase().contains("idle")
}

/// "Rest", "rest_pose", "T-Pose", "TPose", "t pose": whole words, so that "Forest" and
/// "Restart" do not count.
fn says_rest_or_t_pose(name: &str) -> bool {
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let joined: String = words.concat();
    words.iter().any(|&w| matches!(w, "rest" | "restpose" | "tpose")) || joined.contains("tpose")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Channel, ChannelTrack, Interpolation, Track};
    use glam::Vec3;

    /// Clips of these names and lengths (seconds), each moving one joint.
    fn clips(named: &[(&str, f32)]) -> Vec<Clip> {
        let track = |duration| Track::new(Interpolation::Linear, vec![0.0, duration], vec![Vec3::ZERO, Vec3::X]);
        let clip = |&(name, duration): &(&str, f32)| {
            let track = ChannelTrack::Translation(track(duration).unwrap());
            Clip::new(name.into(), vec![Channel { joint: 0, track }])
        };
        named.iter().map(clip).collect()
    }

    #[test]
    fn an_idle_clip_opens_before_earlier_ones() {
        let clips = clips(&[("EdgeGrab", 0.13), ("Idle", 2.0), ("Run", 0.8)]);
        assert_eq!(opening_clip(&clips, ClipOnOpen::Suggested), Some(1));
        assert_eq!(
            opening_clip(&clips, ClipOnOpen::First),
            Some(0),
            "the setting keeps the first"
        );
    }

    #[test]
    fn idle_comes_before_rest_and_t_pose() {
        let clips = clips(&[("T-Pose", 0.1), ("Walk", 1.0), ("mixamo.com|Idle_02", 3.0)]);
        assert_eq!(opening_clip(&clips, ClipOnOpen::Suggested), Some(2));
    }

    #[test]
    fn rest_and_t_pose_are_whole_words() {
        for name in ["Rest", "rest_pose", "TPose", "t pose", "A_T-Pose"] {
            assert!(says_rest_or_t_pose(name), "{name}");
        }
        for name in ["Forest", "Restart", "Outpost"] {
            assert!(!says_rest_or_t_pose(name), "{name}");
        }
        let clips = clips(&[("Forest walk", 5.0), ("Bind TPose", 0.1)]);
        assert_eq!(opening_clip(&clips, ClipOnOpen::Suggested), Some(1));
    }

    #[test]
    fn without_such_a_name_the_longest_opens_the_first_of_equals() {
        let clips = clips(&[("EdgeGrab", 0.13), ("Run", 0.8), ("Dance", 4.0), ("Dance 2", 4.0)]);
        assert_eq!(opening_clip(&clips, ClipOnOpen::Suggested), Some(2));
        assert_eq!(opening_clip(&[], ClipOnOpen::Suggested), None);
    }
}
