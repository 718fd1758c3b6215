//! What `--benchmark-frames` records and reports, in the viewer and in `render`: the intervals
//! between frames after a warm-up, and the GPU times where the adapter reports them.

use super::gpu::Gpu;

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

    /// With the adapter and why it was chosen (`Gpu::choice`), and how frames reach the screen
    /// (`presentation`: the window's, or "offscreen"); `gpu_median_ms` is null when the
    /// adapter reports no GPU time; `crowd` is how many
    /// copies of the model were drawn, `triangles` how many triangles the last frame's lit pass
    /// drew (all copies'), `skinning` "gpu" or "cpu" as `gpu_skinning` says (where skinning was
    /// set to run: a skin too large for the GPU's arrays is skinned on the CPU either way).
    pub fn to_json(&self, gpu: &Gpu, presentation: &str, crowd: usize, triangles: u64, gpu_skinning: bool) -> String {
        let intervals = sorted(&self.intervals_ms);
        let mean = intervals.iter().sum::<f32>() / intervals.len().max(1) as f32;
        let gpu_times = sorted(&self.gpu_ms);
        serde_json::json!({
            "frames": intervals.len(),
            "median_ms": quantile(&intervals, 0.5).unwrap_or(0.0),
            "p95_ms": quantile(&intervals, 0.95).unwrap_or(0.0),
            "mean_ms": mean,
            "gpu_median_ms": quantile(&gpu_times, 0.5),
            "adapter": gpu.describe(),
            "adapter_choice": gpu.choice,
            "presentation": presentation,
            "crowd": crowd,
            "triangles": triangles,
            "skinning": if gpu_skinning { "gpu" } else { "cpu" },
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
