//! Frame timing: the time step playback advances by, and the intervals `--benchmark-frames`
//! reports.

use std::time::Instant;

/// Frames drawn before `--benchmark-frames` starts timing (shader compilation, first uploads).
const WARM_UP_FRAMES: u32 = 10;

/// The intervals between frames for `--benchmark-frames`, allocated up front.
pub struct FrameTimings {
    intervals_ms: Vec<f32>,
    wanted: usize,
}

impl FrameTimings {
    pub fn new(wanted: usize) -> Self {
        Self {
            intervals_ms: Vec::with_capacity(wanted),
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

    pub fn to_json(&self, adapter: &str) -> String {
        let mut sorted = self.intervals_ms.clone();
        sorted.sort_by(f32::total_cmp);
        let at = |q: f32| {
            sorted
                .get(((sorted.len() as f32 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let mean = sorted.iter().sum::<f32>() / sorted.len().max(1) as f32;
        serde_json::json!({
            "frames": sorted.len(),
            "median_ms": at(0.5),
            "p95_ms": at(0.95),
            "mean_ms": mean,
            "adapter": adapter,
        })
        .to_string()
    }
}

/// The longest time step playback takes in one frame (a stall is not replayed at once).
const MAX_STEP: f32 = 0.1;

/// When the last frame started, how many were drawn, and the benchmark's record.
pub struct FrameClock {
    last_frame: Instant,
    /// Frames drawn so far.
    pub frames: u32,
    /// For `--benchmark-frames`.
    pub timings: Option<FrameTimings>,
}

impl FrameClock {
    pub fn new(benchmark_frames: Option<usize>) -> Self {
        Self {
            last_frame: Instant::now(),
            frames: 0,
            timings: benchmark_frames.map(FrameTimings::new),
        }
    }

    /// Starts a frame: returns the time step for playback (seconds), or `None` when the
    /// benchmark has recorded all its frames.
    pub fn tick(&mut self) -> Option<f32> {
        let now = Instant::now();
        let interval = (now - self.last_frame).as_secs_f32();
        self.last_frame = now;
        if let Some(timings) = &mut self.timings
            && timings.record(self.frames, interval)
        {
            return None;
        }
        Some(interval.min(MAX_STEP))
    }
}
