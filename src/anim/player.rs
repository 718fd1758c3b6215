//! The viewer's transport around an `Animator`: play/pause, speed (negative plays backwards),
//! frame steps and scrubbing. Choosing a clip cross-fades to it over `fade_time` through the
//! Animator's cross-fade queue, so switching (even mid-fade) never pops.

use super::animator::Animator;
use super::clip::{Clip, Playback};
use super::crossfade::CrossFade;
use super::pose::Pose;

#[derive(Clone, Debug)]
pub struct Player {
    pub animator: Animator,
    pub playing: bool,
    /// Playback speed; negative plays backwards.
    pub speed: f32,
    /// Seconds a clip switch takes to fade in.
    pub fade_time: f32,
}

impl Player {
    pub fn new(clip: Option<usize>) -> Self {
        Self {
            animator: Animator::new(clip),
            playing: true,
            speed: 1.0,
            fade_time: 0.25,
        }
    }

    /// Whether the pose changes with time: a clip, a blend or a layer playing, or a fade
    /// running (which finishes even while paused).
    pub fn is_moving(&self) -> bool {
        let animator = &self.animator;
        let has_motion =
            animator.crossfade.target().is_some() || animator.sync_blend.is_active() || !animator.layers.is_empty();
        (self.playing && has_motion) || animator.crossfade.fades().next().is_some()
    }

    /// The clip playing, or being faded to.
    pub fn clip(&self) -> Option<usize> {
        self.animator.crossfade.target()
    }

    pub fn mode(&self) -> Playback {
        self.animator.mode
    }

    /// Cross-fades to `clip` from the pose on screen; `None` shows the rest pose at once.
    /// Choosing the clip that is already the target does nothing.
    pub fn select(&mut self, clip: Option<usize>) {
        match clip {
            Some(clip) => self.animator.crossfade.fade_to(clip, self.fade_time),
            None => self.animator.crossfade = CrossFade::new(None),
        }
    }

    /// Advances by `dt` seconds of wall time: clips by `dt × speed` while playing; fades always,
    /// so a paused player still finishes its switch.
    pub fn advance(&mut self, dt: f32, clips: &[Clip]) {
        self.animator.advance(clips, self.clip_step(dt), dt);
        self.animator.crossfade.wrap_times(self.animator.mode, clips);
    }

    /// The clip time `dt` seconds of wall time play: `dt × speed` while playing, else none.
    pub fn clip_step(&self, dt: f32) -> f32 {
        if self.playing { dt * self.speed } else { 0.0 }
    }

    /// Steps by `frames` frames of `1 / rate` seconds (negative steps back) and pauses; a
    /// running fade ends first.
    pub fn step(&mut self, frames: f32, rate: f32, clips: &[Clip]) {
        self.playing = false;
        let crossfade = &mut self.animator.crossfade;
        crossfade.settle();
        crossfade.set_time(crossfade.time() + frames / rate);
        crossfade.wrap_times(self.animator.mode, clips);
    }

    /// Jumps to clip time `clip_time` (ending any fade). The end of a looping clip stays the
    /// end (not its start), and ping-pong keeps its direction.
    pub fn scrub(&mut self, clip_time: f32, clips: &[Clip]) {
        let crossfade = &mut self.animator.crossfade;
        crossfade.settle();
        let Some(clip) = crossfade.base().and_then(|c| clips.get(c)) else {
            return;
        };
        let duration = clip.duration();
        let target = clip_time.clamp(0.0, duration);
        let time = match self.animator.mode {
            Playback::Once => target,
            Playback::Loop => target.min(duration * (1.0 - f32::EPSILON)),
            Playback::PingPong if crossfade.time().rem_euclid(2.0 * duration) > duration => 2.0 * duration - target,
            Playback::PingPong => target,
        };
        crossfade.set_time(time);
    }

    /// A Once clip played to its end (to its start, playing backwards), no fade running:
    /// nothing moves until it is played again.
    pub fn finished(&self, clips: &[Clip]) -> bool {
        let crossfade = &self.animator.crossfade;
        let Some(clip) = crossfade.target().and_then(|c| clips.get(c)) else {
            return false;
        };
        let time = crossfade.target_time();
        let at_end = if self.speed >= 0.0 {
            time >= clip.duration()
        } else {
            time <= 0.0
        };
        self.animator.mode == Playback::Once && crossfade.fades().next().is_none() && at_end
    }

    /// Play/pause (the button, Space), as in Blender and Maya: playing a finished Once clip
    /// starts it again from its start (its end, playing backwards).
    pub fn toggle_play(&mut self, clips: &[Clip]) {
        if self.finished(clips) {
            let duration = self.clip().and_then(|c| clips.get(c)).map_or(0.0, Clip::duration);
            self.scrub(if self.speed >= 0.0 { 0.0 } else { duration }, clips);
            self.playing = true;
        } else {
            self.playing = !self.playing;
        }
    }

    /// The time of the clip playing, or being faded to (`clip`), as its tracks see it: what
    /// the timeline shows beside that clip's name and length.
    pub fn clip_time(&self, clips: &[Clip]) -> f32 {
        let crossfade = &self.animator.crossfade;
        match crossfade.target().and_then(|c| clips.get(c)) {
            Some(clip) => self.animator.mode.clip_time(crossfade.target_time(), clip.duration()),
            None => 0.0,
        }
    }

    /// Writes the pose for the current time into `out`.
    pub fn pose(&mut self, clips: &[Clip], rest: &Pose, out: &mut Pose) {
        self.animator.pose(clips, rest, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::fixtures::{moving_clip, one_joint_rest as rest};
    use glam::Vec3;

    /// Clip "a" moves joint 0 up y at x = 0, clip "b" at x = 10, over one second.
    fn clips() -> Vec<Clip> {
        vec![
            moving_clip("a", Vec3::ZERO, Vec3::Y, 1.0),
            moving_clip("b", Vec3::new(10.0, 0.0, 0.0), Vec3::new(10.0, 1.0, 0.0), 1.0),
        ]
    }

    #[test]
    fn moves_while_playing_a_clip_or_fading() {
        let clips = clips();
        let mut player = Player::new(Some(0));
        assert!(player.is_moving());
        player.playing = false;
        assert!(!player.is_moving(), "paused");
        player.select(Some(1));
        assert!(player.is_moving(), "a fade finishes while paused");
        player.advance(1.0, &clips);
        assert!(!player.is_moving(), "the fade is over");
        let mut rest_only = Player::new(None);
        assert!(!rest_only.is_moving(), "nothing to play");
        rest_only.playing = false;
        assert!(!rest_only.is_moving());
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
        player.animator.mode = Playback::Once;
        player.advance(0.5, &clips);
        assert!((player.clip_time(&clips) - 0.25).abs() < 1e-5, "backwards");
        player.advance(1.0, &clips);
        assert_eq!(player.clip_time(&clips), 0.0, "once holds the start");
        assert!(player.finished(&clips));
        player.toggle_play(&clips);
        assert!(player.playing && !player.finished(&clips), "play starts it again");
        assert!((player.clip_time(&clips) - 1.0).abs() < 1e-5, "from its end, backwards");
    }

    #[test]
    fn switching_fades_without_a_pop_even_mid_fade() {
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
        let on_screen = out.local()[0].translation;
        player.select(Some(0));
        player.pose(&clips, &rest, &mut out);
        assert!(
            out.local()[0].translation.distance(on_screen) < 1e-5,
            "interrupting does not pop"
        );
        player.advance(0.6, &clips);
        assert_eq!(player.animator.crossfade.fades().count(), 0, "the fades collapse");
        player.select(Some(0));
        assert_eq!(
            player.animator.crossfade.fades().count(),
            0,
            "selecting the playing clip does nothing"
        );
    }

    #[test]
    fn scrubbing_keeps_the_end_and_the_direction() {
        let clips = clips();
        let mut player = Player::new(Some(0));
        player.scrub(1.0, &clips);
        assert!(player.clip_time(&clips) > 0.999, "the end of a loop is not its start");
        player.animator.mode = Playback::PingPong;
        player.animator.crossfade.set_time(1.5); // on the way back
        player.scrub(0.2, &clips);
        assert!((player.clip_time(&clips) - 0.2).abs() < 1e-5);
        assert!(player.animator.crossfade.time() > 1.0, "still on the way back");
    }
}
