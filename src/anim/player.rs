//! Clip playback for the viewer: the current clip, its time, speed and playback mode, and a
//! cross-fade from the previous clip so that switching clips never pops.
//!
//! The fade blends local transforms (`Transform::mix`: translation and scale linearly, rotation
//! by shortest-path slerp) from the previous clip, which keeps playing, to the new one, the
//! weight rising linearly from 0 to 1 over the fade time. Switching again while a fade runs
//! fades from the pose on screen at that moment, so interrupting a fade never pops either.

use super::blend::blend;
use super::clip::{Clip, ClipCursor, Playback};
use super::pose::Pose;

/// What a fade starts from.
#[derive(Clone, Debug)]
enum FadeSource {
    /// The previous clip, still playing.
    Clip { clip: usize, time: f32, cursor: ClipCursor },
    /// The pose on screen when a running fade was interrupted.
    Pose(Pose),
}

#[derive(Clone, Debug)]
struct Fade {
    source: FadeSource,
    elapsed: f32,
    duration: f32,
}

impl Fade {
    /// Weight of the clip being faded in.
    fn weight(&self) -> f32 {
        if self.duration > 0.0 {
            (self.elapsed / self.duration).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

#[derive(Clone, Debug)]
pub struct Player {
    clip: Option<usize>,
    /// Playback time of the current clip (mapped onto the clip by `mode`).
    pub time: f32,
    pub playing: bool,
    /// Playback speed; negative plays backwards.
    pub speed: f32,
    pub mode: Playback,
    /// Seconds a clip switch takes to fade in.
    pub fade_time: f32,
    cursor: ClipCursor,
    fade: Option<Fade>,
    /// The faded-out clip's pose (kept so sampling allocates nothing).
    scratch: Option<Pose>,
    /// The last pose written, the start of a fade that interrupts a fade.
    last_output: Option<Pose>,
}

impl Player {
    pub fn new(clip: Option<usize>) -> Self {
        Self {
            clip,
            time: 0.0,
            playing: true,
            speed: 1.0,
            mode: Playback::Loop,
            fade_time: 0.25,
            cursor: ClipCursor::default(),
            fade: None,
            scratch: None,
            last_output: None,
        }
    }

    pub fn clip(&self) -> Option<usize> {
        self.clip
    }

    /// The weight of the current clip while a fade runs.
    pub fn fade_weight(&self) -> Option<f32> {
        self.fade.as_ref().map(Fade::weight)
    }

    /// The clip being faded out, while a fade from a playing clip runs.
    pub fn fading_from(&self) -> Option<usize> {
        match self.fade.as_ref()?.source {
            FadeSource::Clip { clip, .. } => Some(clip),
            FadeSource::Pose(_) => None,
        }
    }

    /// Switches to `clip` (from its start), fading from the current one over `fade_time`.
    /// Choosing the clip that already plays does nothing.
    pub fn select(&mut self, clip: Option<usize>) {
        if clip == self.clip {
            return;
        }
        let source = match (&self.fade, &self.last_output, self.clip) {
            (Some(_), Some(on_screen), _) => Some(FadeSource::Pose(on_screen.clone())),
            (_, _, Some(previous)) => Some(FadeSource::Clip {
                clip: previous,
                time: self.time,
                cursor: std::mem::take(&mut self.cursor),
            }),
            _ => None,
        };
        self.fade = source.filter(|_| self.fade_time > 0.0).map(|source| Fade {
            source,
            elapsed: 0.0,
            duration: self.fade_time,
        });
        self.clip = clip;
        self.time = 0.0;
        self.cursor = ClipCursor::default();
    }

    /// Advances by `dt` seconds of wall time (scaled by `speed` when playing). A running fade
    /// always advances, so a paused player still finishes its switch.
    pub fn advance(&mut self, dt: f32, clips: &[Clip]) {
        if self.playing {
            self.time += dt * self.speed;
            if let Some(Fade {
                source: FadeSource::Clip { time, .. },
                ..
            }) = &mut self.fade
            {
                *time += dt * self.speed;
            }
        }
        if let Some(clip) = self.clip.and_then(|c| clips.get(c)) {
            // Keep `time` within one period so long sessions keep float precision.
            self.time = self.mode.wrap_time(self.time, clip.duration());
        }
        if let Some(fade) = &mut self.fade {
            fade.elapsed += dt;
            if fade.elapsed >= fade.duration {
                self.fade = None;
            }
        }
    }

    /// Steps by `frames` frames of `1 / rate` seconds (negative steps back) and pauses.
    pub fn step(&mut self, frames: f32, rate: f32, clips: &[Clip]) {
        self.playing = false;
        self.fade = None;
        self.time += frames / rate;
        if let Some(clip) = self.clip.and_then(|c| clips.get(c)) {
            self.time = self.mode.wrap_time(self.time, clip.duration());
        }
    }

    /// Jumps to clip time `clip_time` (ending any fade). The end of a looping clip stays the
    /// end (not its start), and ping-pong keeps its direction.
    pub fn scrub(&mut self, clip_time: f32, clips: &[Clip]) {
        self.fade = None;
        let Some(clip) = self.clip.and_then(|c| clips.get(c)) else {
            self.time = clip_time;
            return;
        };
        let duration = clip.duration();
        let target = clip_time.clamp(0.0, duration);
        self.time = match self.mode {
            Playback::Once => target,
            Playback::Loop => target.min(duration * (1.0 - f32::EPSILON)),
            Playback::PingPong if self.time.rem_euclid(2.0 * duration) > duration => 2.0 * duration - target,
            Playback::PingPong => target,
        };
    }

    /// The current clip's time as its tracks see it.
    pub fn clip_time(&self, clips: &[Clip]) -> f32 {
        match self.clip.and_then(|c| clips.get(c)) {
            Some(clip) => self.mode.clip_time(self.time, clip.duration()),
            None => 0.0,
        }
    }

    /// Writes the pose for the current time into `out`, which starts as `rest`.
    pub fn pose(&mut self, clips: &[Clip], rest: &Pose, out: &mut Pose) {
        out.copy_from(rest);
        if let Some(clip) = self.clip.and_then(|c| clips.get(c)) {
            clip.sample(self.mode.clip_time(self.time, clip.duration()), out, &mut self.cursor);
        }
        if let Some(fade) = &mut self.fade {
            let weight = fade.weight();
            match &mut fade.source {
                FadeSource::Clip { clip, time, cursor } => {
                    if let Some(from_clip) = clips.get(*clip) {
                        let scratch = self.scratch.get_or_insert_with(|| rest.clone());
                        scratch.copy_from(rest);
                        from_clip.sample(self.mode.clip_time(*time, from_clip.duration()), scratch, cursor);
                        blend(out, scratch, 1.0 - weight, None);
                    }
                }
                FadeSource::Pose(on_screen) => blend(out, on_screen, 1.0 - weight, None),
            }
        }
        match &mut self.last_output {
            Some(last) => last.copy_from(out),
            None => self.last_output = Some(out.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Channel, ChannelTrack, Hierarchy, Interpolation, Track, Transform};
    use glam::Vec3;
    use std::sync::Arc;

    fn clips() -> Vec<Clip> {
        let clip = |name: &str, x: f32| {
            let track = Track::new(
                Interpolation::Linear,
                vec![0.0, 1.0],
                vec![Vec3::new(x, 0.0, 0.0), Vec3::new(x, 1.0, 0.0)],
            )
            .unwrap();
            Clip::new(
                name.into(),
                vec![Channel {
                    joint: 0,
                    track: ChannelTrack::Translation(track),
                }],
            )
        };
        vec![clip("a", 0.0), clip("b", 10.0)]
    }

    fn rest() -> Pose {
        Pose::new(
            Arc::new(Hierarchy::new(vec![None]).unwrap()),
            vec![Transform::IDENTITY],
            Vec::new(),
        )
        .unwrap()
    }

    #[test]
    fn plays_loops_and_steps() {
        let clips = clips();
        let (rest, mut out) = (rest(), rest());
        let mut player = Player::new(Some(0));
        player.advance(1.25, &clips);
        player.pose(&clips, &rest, &mut out);
        assert!((out.local()[0].translation.y - 0.25).abs() < 1e-5, "looped to 0.25");
        player.step(-30.0, 60.0, &clips);
        assert!(!player.playing);
        assert!(
            (player.clip_time(&clips) - 0.75).abs() < 1e-5,
            "0.25 s - 0.5 s wraps round to 0.75 s"
        );
        player.speed = -1.0;
        player.playing = true;
        player.mode = Playback::Once;
        player.advance(0.5, &clips);
        assert!((player.clip_time(&clips) - 0.25).abs() < 1e-5, "backwards");
        player.advance(1.0, &clips);
        assert_eq!(player.clip_time(&clips), 0.0, "once holds the start");
    }

    #[test]
    fn switching_fades_without_a_pop() {
        let clips = clips();
        let (rest, mut out) = (rest(), rest());
        let mut player = Player::new(Some(0));
        player.fade_time = 0.5;
        player.advance(0.2, &clips);
        player.pose(&clips, &rest, &mut out);
        let before = out.local()[0].translation;
        player.select(Some(1));
        player.pose(&clips, &rest, &mut out);
        assert!(
            out.local()[0].translation.distance(before) < 1e-5,
            "the first faded frame is the old pose"
        );
        player.advance(0.25, &clips);
        player.pose(&clips, &rest, &mut out);
        assert!(
            (out.local()[0].translation.x - 5.0).abs() < 1e-4,
            "half-way at half the fade"
        );
        assert_eq!(player.fading_from(), Some(0));
        assert!((player.fade_weight().unwrap() - 0.5).abs() < 1e-5);
        player.advance(0.3, &clips);
        assert_eq!(player.fade_weight(), None, "the fade collapses");
        player.pose(&clips, &rest, &mut out);
        assert_eq!(out.local()[0].translation.x, 10.0);
        player.select(Some(1));
        assert_eq!(player.fade_weight(), None, "selecting the playing clip does nothing");
    }

    #[test]
    fn interrupting_a_fade_starts_from_the_pose_on_screen() {
        let clips = clips();
        let (rest, mut out) = (rest(), rest());
        let mut player = Player::new(Some(0));
        player.fade_time = 1.0;
        player.pose(&clips, &rest, &mut out);
        player.select(Some(1));
        player.advance(0.5, &clips);
        player.pose(&clips, &rest, &mut out);
        let on_screen = out.local()[0].translation;
        player.select(Some(0));
        player.pose(&clips, &rest, &mut out);
        assert!(out.local()[0].translation.distance(on_screen) < 1e-5, "no pop");
        assert_eq!(player.fading_from(), None, "it fades from a pose, not a clip");
        assert!(player.fade_weight().is_some());
    }

    #[test]
    fn scrubbing_keeps_the_end_and_the_direction() {
        let clips = clips();
        let mut player = Player::new(Some(0));
        player.scrub(1.0, &clips);
        assert!(player.clip_time(&clips) > 0.999, "the end of a loop is not its start");
        player.mode = Playback::PingPong;
        player.time = 1.5; // on the way back
        player.scrub(0.2, &clips);
        assert!((player.clip_time(&clips) - 0.2).abs() < 1e-5);
        assert!(player.time > 1.0, "still on the way back");
    }
}
