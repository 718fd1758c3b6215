//! Frame timing: the time step playback advances by (the wall clock's, so a clip plays in
//! real time at any frame rate), the panel's frame statistics, and the intervals
//! `--benchmark-frames` reports.

use std::time::Instant;

use crate::ui::frame_stats::{FrameStats, smooth};

/// Frames drawn before `--benchmark-frames` starts timing (shader compilation, first uploads).
pub const WARM_UP_FRAMES: u32 = 10;

/// The intervals between frames for `--benchmark-frames`, and the GPU times where the adapter
/// reports them, allocated up front.
pub struct FrameTimings {
    intervals_ms: Vec<f32>,
    gpu_ms: Vec<f32>,
    wanted: usize,
}

impl FrameTimings {
    pub fn new(wanted: usize) -> Self {
        Self {
            intervals_ms: Vec::with_capacity(wanted),
            gpu_ms: Vec::with_capacity(wanted),
            wanted,
        }
    }

    /// Records the interval before frame `frame`; true once enough are recorded.
    pub fn record(&mut self, frame: u32, interval_s: f32) -> bool {
        if frame > WARM_UP_FRAMES {
            self.intervals_ms.push(interval_s * 1000.0);
        }
        self.intervals_ms.len() >= self.wanted
    }

    /// Records a frame's GPU time once the benchmark is timing.
    pub fn record_gpu(&mut self, gpu_s: f32) {
        if !self.intervals_ms.is_empty() && self.gpu_ms.len() < self.wanted {
            self.gpu_ms.push(gpu_s * 1000.0);
        }
    }

    /// `gpu_median_ms` is null when the adapter reports no GPU time; `crowd` is how many
    /// copies of the model were drawn, `triangles` how many triangles the last frame's lit pass
    /// drew (all copies').
    pub fn to_json(&self, adapter: &str, crowd: usize, triangles: u64) -> String {
        let intervals = sorted(&self.intervals_ms);
        let mean = intervals.iter().sum::<f32>() / intervals.len().max(1) as f32;
        let gpu = sorted(&self.gpu_ms);
        serde_json::json!({
            "frames": intervals.len(),
            "median_ms": quantile(&intervals, 0.5).unwrap_or(0.0),
            "p95_ms": quantile(&intervals, 0.95).unwrap_or(0.0),
            "mean_ms": mean,
            "gpu_median_ms": quantile(&gpu, 0.5),
            "adapter": adapter,
            "crowd": crowd,
            "triangles": triangles,
        })
        .to_string()
    }
}

fn sorted(values: &[f32]) -> Vec<f32> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    sorted
}

/// The value at fraction `q` of `sorted` (nearest rank), `None` when it is empty.
fn quantile(sorted: &[f32], q: f32) -> Option<f32> {
    let last = sorted.len().checked_sub(1)?;
    sorted.get((last as f32 * q).round() as usize).copied()
}

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
