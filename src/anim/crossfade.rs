//! The cross-fade queue.
//!
//! Semantics:
//! - A base clip plays; each `fade_to` appends a fade with its own clip, clip time (from 0),
//!   elapsed time and duration. The pose is the base clip's, then each fade in order blended
//!   over it with weight `elapsed / duration` (`blend`, local space).
//! - A new fade therefore starts from the pose on screen, whatever fades are running: its
//!   weight starts at 0, so interrupting a fade never pops.
//! - Fading to the clip that is already the target (the last fade's clip, or the base clip)
//!   does nothing.
//! - When a fade completes (`elapsed ≥ duration`), it becomes the base clip and every fade
//!   before it is dropped: they no longer contribute.
//! - A duration of 0 (or less) switches at once.

use super::blend::blend;
use super::clip::{Clip, ClipCursor, Playback};
use super::pose::Pose;

#[derive(Clone, Debug)]
struct Playing {
    clip: usize,
    /// Playback time of this clip (mapped onto it by the playback mode).
    time: f32,
    cursor: ClipCursor,
}

impl Playing {
    fn new(clip: usize) -> Self {
        Self {
            clip,
            time: 0.0,
            cursor: ClipCursor::default(),
        }
    }

    fn sample(&mut self, clips: &[Clip], mode: Playback, out: &mut Pose) {
        if let Some(clip) = clips.get(self.clip) {
            clip.sample(mode.clip_time(self.time, clip.duration()), out, &mut self.cursor);
        }
    }
}

#[derive(Clone, Debug)]
struct Fade {
    playing: Playing,
    elapsed: f32,
    duration: f32,
}

impl Fade {
    fn weight(&self) -> f32 {
        if self.duration > 0.0 {
            (self.elapsed / self.duration).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct CrossFade {
    base: Option<Playing>,
    fades: Vec<Fade>,
    /// Each fade's sampled pose (kept so frames do not allocate).
    scratch: Option<Pose>,
}

impl CrossFade {
    /// Starts with `clip` playing (or the rest pose).
    pub fn new(clip: Option<usize>) -> Self {
        Self {
            base: clip.map(Playing::new),
            fades: Vec::new(),
            scratch: None,
        }
    }

    /// The clip being faded to, or playing when no fade runs.
    pub fn target(&self) -> Option<usize> {
        self.fades
            .last()
            .map(|f| f.playing.clip)
            .or(self.base.as_ref().map(|b| b.clip))
    }

    /// The base clip under the fades.
    pub fn base(&self) -> Option<usize> {
        self.base.as_ref().map(|b| b.clip)
    }

    /// Running fades, oldest first: (clip, weight).
    pub fn fades(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.fades.iter().map(|f| (f.playing.clip, f.weight()))
    }

    /// Fades to `clip` (from its start) over `duration` seconds.
    pub fn fade_to(&mut self, clip: usize, duration: f32) {
        if self.target() == Some(clip) {
            return;
        }
        if duration > 0.0 && self.base.is_some() {
            self.fades.push(Fade {
                playing: Playing::new(clip),
                elapsed: 0.0,
                duration,
            });
        } else {
            self.fades.clear();
            self.base = Some(Playing::new(clip));
        }
    }

    /// The base clip's playback time.
    pub fn time(&self) -> f32 {
        self.base.as_ref().map_or(0.0, |b| b.time)
    }

    /// The target clip's playback time: the last fade's clip's, or the base clip's.
    pub fn target_time(&self) -> f32 {
        self.fades.last().map_or_else(|| self.time(), |f| f.playing.time)
    }

    /// Ends every fade at once: the target becomes the base clip, keeping its time.
    pub fn settle(&mut self) {
        if let Some(last) = self.fades.pop() {
            self.base = Some(last.playing);
            self.fades.clear();
        }
    }

    /// Sets the base clip's playback time (after `settle`, the time of what is on screen).
    pub fn set_time(&mut self, time: f32) {
        if let Some(base) = &mut self.base {
            base.time = time;
        }
    }

    /// Brings every playback time back into one period of its clip (what is sampled does not
    /// change), so long sessions keep their float precision.
    pub fn wrap_times(&mut self, mode: Playback, clips: &[Clip]) {
        for playing in self
            .base
            .iter_mut()
            .chain(self.fades.iter_mut().map(|f| &mut f.playing))
        {
            let duration = clips.get(playing.clip).map_or(0.0, Clip::duration);
            playing.time = mode.wrap_time(playing.time, duration);
        }
    }

    /// Moves every clip on by `clip_dt` seconds of playback time and every fade by `dt`
    /// seconds of wall time, then collapses completed fades into the base.
    pub fn advance(&mut self, clip_dt: f32, dt: f32) {
        for playing in self
            .base
            .iter_mut()
            .chain(self.fades.iter_mut().map(|f| &mut f.playing))
        {
            playing.time += clip_dt;
        }
        for fade in &mut self.fades {
            fade.elapsed += dt;
        }
        if let Some(done) = self.fades.iter().rposition(|f| f.elapsed >= f.duration) {
            let finished = self.fades.drain(..=done).next_back().map(|f| f.playing);
            self.base = finished;
        }
    }

    /// Writes the pose into `out`, which starts as `rest`. Allocates nothing after the first
    /// call.
    pub fn pose(&mut self, clips: &[Clip], mode: Playback, rest: &Pose, out: &mut Pose) {
        out.copy_from(rest);
        if let Some(base) = &mut self.base {
            base.sample(clips, mode, out);
        }
        if self.fades.is_empty() {
            return;
        }
        let scratch = self.scratch.get_or_insert_with(|| rest.clone());
        for fade in &mut self.fades {
            scratch.copy_from(rest);
            fade.playing.sample(clips, mode, scratch);
            blend(out, scratch, fade.weight(), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::fixtures::{moving_clip, one_joint_rest as rest};
    use glam::Vec3;

    /// Clip k moves joint 0 along x from 10k to 10k + 1 over one second.
    fn clips() -> Vec<Clip> {
        (0..3)
            .map(|k| {
                let x = 10.0 * k as f32;
                moving_clip(
                    &format!("clip {k}"),
                    Vec3::new(x, 0.0, 0.0),
                    Vec3::new(x + 1.0, 0.0, 0.0),
                    1.0,
                )
            })
            .collect()
    }

    fn x(fade: &mut CrossFade, clips: &[Clip]) -> f32 {
        let (rest, mut out) = (rest(), rest());
        fade.pose(clips, Playback::Loop, &rest, &mut out);
        out.local()[0].translation.x
    }

    #[test]
    fn a_fade_between_a_clip_and_itself_is_the_clip() {
        let clips = clips();
        let mut fade = CrossFade::new(Some(1));
        fade.advance(0.3, 0.3);
        fade.fade_to(1, 0.5);
        assert_eq!(fade.fades().count(), 0, "fading to the target does nothing");
        assert!((x(&mut fade, &clips) - 10.3).abs() < 1e-5);
    }

    #[test]
    fn a_fade_completes_after_its_duration_and_collapses() {
        let clips = clips();
        let mut fade = CrossFade::new(Some(0));
        fade.fade_to(1, 0.5);
        fade.advance(0.25, 0.25);
        let weights: Vec<(usize, f32)> = fade.fades().collect();
        assert_eq!(weights, vec![(1, 0.5)]);
        // Half-way: 0.25 of clip 0 (x = 0.25) mixed with 0.25 of clip 1 (x = 10.25).
        assert!((x(&mut fade, &clips) - 5.25).abs() < 1e-4);
        fade.advance(0.25, 0.25);
        assert_eq!(fade.fades().count(), 0);
        assert_eq!(fade.base(), Some(1));
        assert!((x(&mut fade, &clips) - 10.5).abs() < 1e-4, "clip 1 kept its own time");
    }

    #[test]
    fn interrupting_a_fade_leaves_the_pose_continuous() {
        let clips = clips();
        let mut fade = CrossFade::new(Some(0));
        fade.fade_to(1, 1.0);
        fade.advance(0.4, 0.4);
        let before = x(&mut fade, &clips);
        fade.fade_to(2, 1.0);
        assert!((x(&mut fade, &clips) - before).abs() < 1e-5, "no pop");
        fade.advance(0.01, 0.01);
        assert!((x(&mut fade, &clips) - before).abs() < 0.5, "moves on smoothly");
        fade.advance(1.0, 1.0);
        assert_eq!(fade.fades().count(), 0, "the last fade collapses the queue");
        assert_eq!(fade.base(), Some(2));
    }

    #[test]
    fn zero_duration_switches_at_once() {
        let clips = clips();
        let mut fade = CrossFade::new(None);
        fade.fade_to(2, 0.0);
        assert_eq!(fade.base(), Some(2));
        assert!((x(&mut fade, &clips) - 20.0).abs() < 1e-5);
    }
}
