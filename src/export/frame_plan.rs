//! Which moments an animated export shows and how long each stays on screen.
//!
//! Frame `i` of `n` shows clip time `from + (i / fps) mod (to − from)`: a video over the clip
//! plays it once, and a turntable longer than the clip loops it. There are
//! `n = round(seconds × fps)` frames (at least one), so a looping clip exported over its whole
//! duration does not show its first pose twice at the seam. A turntable turns the camera by
//! `2π · i / n` about the vertical axis, one whole turn over the video that ends where it
//! started.
//!
//! Timing: an APNG frame stays exactly `1/fps` s (its delay is that fraction). A GIF's delays
//! are whole centiseconds, so when `100 / fps` is not whole, each frame's delay is the step
//! between consecutive rounded ends, `round(100(i+1)/fps) − round(100i/fps)`: at 30 fps that is
//! 3, 3, 4, 3, 3, 4… centiseconds, every frame within half a centisecond of its true time and
//! the whole video exactly as long as asked.

use anyhow::bail;

/// The most frames per second a video may have.
pub const MAX_FPS: u32 = 120;
/// The most a GIF may have: browsers show delays under 2 centiseconds as 10.
pub const MAX_GIF_FPS: u32 = 50;
/// The most frames one export writes (so a typo cannot render for hours).
pub const MAX_FRAMES: u32 = 9_999;
/// The longest stretch of clip time an export covers, in seconds.
pub const MAX_SECONDS: f32 = 3_600.0;

/// The frames of one export: how many, when in the clip, and at what angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePlan {
    pub fps: u32,
    pub frames: u32,
    /// Clip time of the first frame, in seconds.
    pub from: f32,
    /// Seconds of clip shown before it starts again (`to − from`); 0 holds the pose at `from`.
    pub span: f32,
    /// Whether the camera turns once about the model over the frames.
    pub turntable: bool,
}

impl FramePlan {
    /// Frames from clip time `from` to `to` at `fps`, lasting `seconds` (the clip's stretch
    /// when `None`). Fails with a sentence naming the option at fault.
    pub fn new((from, to): (f32, f32), fps: u32, seconds: Option<f32>, turntable: bool) -> anyhow::Result<Self> {
        if !(1..=MAX_FPS).contains(&fps) {
            bail!("--fps {fps}: frame rates run from 1 to {MAX_FPS}");
        }
        if !(from.is_finite() && to.is_finite() && from >= 0.0 && to <= MAX_SECONDS) {
            bail!("--from {from} --to {to}: times run from 0 to {MAX_SECONDS} s");
        }
        if from > to {
            bail!("--from {from} is after --to {to}");
        }
        let seconds = seconds.unwrap_or(to - from);
        if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
            bail!("the video would last {seconds} s: give --from before --to, or a turntable of 0 to {MAX_SECONDS} s");
        }
        let frames = (f64::from(seconds) * f64::from(fps)).round().max(1.0);
        if frames > f64::from(MAX_FRAMES) {
            bail!(
                "{seconds} s at {fps} fps would be {frames} frames, more than {MAX_FRAMES}: shorten the video or lower --fps"
            );
        }
        Ok(Self {
            fps,
            frames: frames as u32,
            from,
            span: to - from,
            turntable,
        })
    }

    /// The clip time frame `frame` shows.
    pub fn clip_time(&self, frame: u32) -> f32 {
        self.clip_time_after(frame as f32 / self.fps as f32)
    }

    /// The clip time `elapsed` seconds after the first frame.
    pub fn clip_time_after(&self, elapsed: f32) -> f32 {
        if self.span > 0.0 {
            self.from + elapsed.rem_euclid(self.span)
        } else {
            self.from
        }
    }

    /// How far the turntable has turned at frame `frame`, in radians (0 without one).
    pub fn turn(&self, frame: u32) -> f32 {
        if self.turntable {
            std::f32::consts::TAU * frame as f32 / self.frames as f32
        } else {
            0.0
        }
    }

    /// How long GIF frame `frame` stays, in centiseconds (see the module docs).
    pub fn gif_delay(&self, frame: u32) -> u16 {
        let end = |i: u32| (f64::from(i) * 100.0 / f64::from(self.fps)).round() as u64;
        (end(frame + 1) - end(frame)) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gif_delays_add_up_to_the_video_and_stay_within_half_a_centisecond() {
        for fps in [1, 7, 10, 24, 25, 30, 33, 50] {
            let plan = FramePlan::new((0.0, 3.0), fps, None, false).unwrap();
            assert_eq!(plan.frames, 3 * fps);
            let mut total = 0.0;
            for frame in 0..plan.frames {
                total += f64::from(plan.gif_delay(frame));
                let exact = f64::from(frame + 1) * 100.0 / f64::from(fps);
                assert!(
                    (total - exact).abs() <= 0.5,
                    "{fps} fps, frame {frame}: {total} vs {exact}"
                );
            }
            assert_eq!(total, 300.0, "{fps} fps");
        }
        let thirty = FramePlan::new((0.0, 0.1), 30, None, false).unwrap();
        assert_eq!((0..3).map(|f| thirty.gif_delay(f)).collect::<Vec<_>>(), [3, 4, 3]);
    }

    #[test]
    fn frames_cover_the_stretch_once_and_a_longer_turntable_loops_it() {
        let plan = FramePlan::new((0.5, 1.5), 4, None, false).unwrap();
        let times: Vec<f32> = (0..plan.frames).map(|f| plan.clip_time(f)).collect();
        assert_eq!(times, [0.5, 0.75, 1.0, 1.25]);
        assert_eq!(plan.turn(3), 0.0);
        let turntable = FramePlan::new((0.0, 1.0), 2, Some(2.0), true).unwrap();
        assert_eq!(turntable.frames, 4);
        let times: Vec<f32> = (0..4).map(|f| turntable.clip_time(f)).collect();
        assert_eq!(times, [0.0, 0.5, 0.0, 0.5]);
        assert!(
            (turntable.turn(2) - std::f32::consts::PI).abs() < 1e-6,
            "half a turn halfway"
        );
        let still = FramePlan::new((0.0, 0.0), 10, Some(1.0), true).unwrap();
        assert_eq!((still.frames, still.clip_time(7)), (10, 0.0));
    }

    #[test]
    fn bad_options_are_refused_with_the_option_named() {
        let error = |from, to, fps, seconds| FramePlan::new((from, to), fps, seconds, false).unwrap_err().to_string();
        assert!(error(0.0, 1.0, 0, None).contains("--fps 0"));
        assert!(error(0.0, 1.0, 1000, None).contains("--fps 1000"));
        assert!(error(2.0, 1.0, 10, None).contains("--from 2 is after --to 1"));
        assert!(error(-1.0, 1.0, 10, None).contains("--from -1"));
        assert!(error(f32::NAN, 1.0, 10, None).contains("--from NaN"));
        assert!(error(1.0, 1.0, 10, None).contains("would last 0 s"));
        assert!(error(0.0, 3000.0, 120, None).contains("more than 9999"));
    }
}
