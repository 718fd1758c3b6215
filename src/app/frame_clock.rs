//! Frame timing: the time step playback advances by (the wall clock's, so a clip plays in
//! real time at any frame rate), the panel's frame statistics, and the intervals
//! `--benchmark-frames` reports.

use std::time::Instant;

use crate::render::benchmark::FrameTimings;
use crate::ui::frame_stats::{FrameStats, smooth};

/// A frame interval longer than this, and over four times the usual one, is a stall (a file
/// dialog, a window drag, shaders compiling): playback skips it instead of jumping ahead.
const STALL_S: f32 = 0.25;

/// When frames start, how many were drawn, how long they take, and the benchmark's record.
pub struct FrameClock {
    /// When the previous frame started; `None` when the viewer waited for events since.
    last_start: Option<Instant>,
    frame_start: Instant,
    /// Frames drawn so far.
    pub frames: u32,
    pub stats: FrameStats,
    /// For `--benchmark-frames`.
    pub timings: Option<FrameTimings>,
}

impl FrameClock {
    pub fn new(benchmark_frames: Option<usize>) -> Self {
        Self {
            last_start: None,
            frame_start: Instant::now(),
            frames: 0,
            stats: FrameStats::default(),
            timings: benchmark_frames.map(FrameTimings::new),
        }
    }

    /// Starts a frame: returns the time step for playback (seconds), or `None` when the
    /// benchmark has recorded all its frames.
    pub fn tick(&mut self) -> Option<f32> {
        self.tick_at(Instant::now())
    }

    fn tick_at(&mut self, now: Instant) -> Option<f32> {
        self.frame_start = now;
        let interval = self.last_start.replace(now).map(|last| (now - last).as_secs_f32());
        let Some(interval) = interval else {
            // The first frame after waiting: nothing was playing, so nothing to catch up.
            return Some(0.0);
        };
        if let Some(timings) = &mut self.timings
            && timings.record(self.frames, interval)
        {
            return None;
        }
        let usual = self.stats.interval_s;
        if interval > STALL_S && interval > 4.0 * usual {
            // Skipped: playback moves on by a usual frame. Before there is a usual frame (the
            // first frames compile shaders) it stays, and a renderer that is just slow sets
            // the usual pace this way.
            if usual == 0.0 {
                self.stats.interval_s = STALL_S;
            }
            return Some(usual);
        }
        self.stats.interval_s = smooth(usual, interval);
        Some(interval)
    }

    /// Ends a frame once it is presented: its CPU time goes into the statistics.
    pub fn end_frame(&mut self) {
        self.frames += 1;
        self.stats.cpu_s = smooth(self.stats.cpu_s, self.frame_start.elapsed().as_secs_f32());
    }

    /// A frame's GPU time arrived (a frame or two after it was drawn).
    pub fn gpu_time(&mut self, seconds: f32) {
        self.stats.gpu_s = Some(smooth(self.stats.gpu_s.unwrap_or(0.0), seconds));
        if let Some(timings) = &mut self.timings {
            timings.record_gpu(seconds);
        }
    }

    /// The viewer waits for events: the next frame starts a new run of frames.
    pub fn wait(&mut self) {
        self.last_start = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn after(start: Instant, seconds: f32) -> Instant {
        start + Duration::from_secs_f32(seconds)
    }

    #[test]
    fn steps_follow_the_wall_clock_at_any_frame_rate() {
        for interval in [0.016, 0.1, 0.4] {
            let mut clock = FrameClock::new(None);
            let start = Instant::now();
            clock.tick_at(start);
            // The first interval sets the pace (see the test below); from then on, real time.
            clock.tick_at(after(start, interval));
            let mut played = 0.0;
            for frame in 2..=41 {
                played += clock.tick_at(after(start, frame as f32 * interval)).unwrap();
            }
            assert!((played - 40.0 * interval).abs() < 1e-3, "{interval} s frames: {played}");
            let shown = clock.stats.interval_s;
            assert!((shown - interval).abs() < 0.02 * interval, "the panel shows {shown} s");
        }
    }

    #[test]
    fn a_single_stall_is_skipped_not_replayed() {
        let mut clock = FrameClock::new(None);
        let start = Instant::now();
        let mut t = 0.0;
        for _ in 0..10 {
            clock.tick_at(after(start, t));
            t += 0.02;
        }
        t += 1.0;
        let step = clock.tick_at(after(start, t)).unwrap();
        assert!((step - 0.02).abs() < 1e-3, "the stall advances one usual frame: {step}");
        assert!(
            (clock.stats.interval_s - 0.02).abs() < 1e-3,
            "and is not counted as a frame time"
        );
    }

    #[test]
    fn the_first_frames_shader_compilation_is_a_stall_but_slow_frames_are_not() {
        let mut clock = FrameClock::new(None);
        let start = Instant::now();
        clock.tick_at(start);
        assert_eq!(clock.tick_at(after(start, 2.0)), Some(0.0), "compiling shaders");
        let mut played = 0.0;
        for frame in 1..=10 {
            played += clock.tick_at(after(start, 2.0 + frame as f32 * 0.4)).unwrap();
        }
        assert!((played - 4.0).abs() < 1e-3, "0.4 s frames play in real time: {played}");
    }

    #[test]
    fn after_waiting_the_first_step_is_zero() {
        let mut clock = FrameClock::new(None);
        let start = Instant::now();
        clock.tick_at(start);
        clock.tick_at(after(start, 0.02));
        clock.wait();
        assert_eq!(clock.tick_at(after(start, 30.0)), Some(0.0));
        assert_eq!(
            clock.tick_at(after(start, 30.02)).map(|s| (s * 100.0).round()),
            Some(2.0)
        );
    }
}
