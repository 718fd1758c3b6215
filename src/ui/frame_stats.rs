//! How long frames take, as the panel shows it: measured by the window each frame.

/// Seconds, smoothed over recent frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Between the starts of consecutive frames while the viewer draws continuously.
    pub interval_s: f32,
    /// The frame's work on the CPU, from its start until it was presented (on a software
    /// renderer, rasterising included).
    pub cpu_s: f32,
    /// The frame's commands on the GPU, where the adapter reports timestamps.
    pub gpu_s: Option<f32>,
}

impl FrameStats {
    /// "frame 31.2 ms (32 fps) · CPU 12.0 ms · GPU 4.0 ms", with fixed decimals; without the
    /// GPU part where the adapter does not report it.
    pub fn describe(&self) -> String {
        let fps = if self.interval_s > 0.0 {
            1.0 / self.interval_s
        } else {
            0.0
        };
        let gpu = self
            .gpu_s
            .map(|gpu_s| format!(" · GPU {:.1} ms", gpu_s * 1000.0))
            .unwrap_or_default();
        format!(
            "frame {:.1} ms ({fps:.0} fps) · CPU {:.1} ms{gpu}",
            self.interval_s * 1000.0,
            self.cpu_s * 1000.0
        )
    }
}

/// `average` moved a tenth of the way towards `sample` (the first sample is taken as it is).
pub fn smooth(average: f32, sample: f32) -> f32 {
    if average == 0.0 {
        sample
    } else {
        average * 0.9 + sample * 0.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_with_fixed_decimals() {
        let stats = FrameStats {
            interval_s: 0.03125,
            cpu_s: 0.012,
            gpu_s: None,
        };
        assert_eq!(stats.describe(), "frame 31.2 ms (32 fps) · CPU 12.0 ms");
        let with_gpu = FrameStats {
            gpu_s: Some(0.004),
            ..stats
        };
        assert_eq!(with_gpu.describe(), "frame 31.2 ms (32 fps) · CPU 12.0 ms · GPU 4.0 ms");
        assert_eq!(FrameStats::default().describe(), "frame 0.0 ms (0 fps) · CPU 0.0 ms");
    }

    #[test]
    fn smoothing_starts_at_the_first_sample() {
        assert_eq!(smooth(0.0, 0.5), 0.5);
        assert!((smooth(0.5, 1.5) - 0.6).abs() < 1e-6);
    }
}
