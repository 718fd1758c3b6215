//! What `--exit-after` prints when the window closes: how long it was open, the frames drawn
//! and when the last one was, and how far playback moved in the wall time it played (after
//! the first frames, which compile shaders), and how many times watched files were reloaded.
//! Tests read it to check real-time playback, that an idle viewer draws nothing and that one
//! change of a file is one reload.

use std::time::Instant;

/// Frames before the playback measurement starts.
const WARM_UP_FRAMES: u32 = 3;

pub struct RunReport {
    opened: Instant,
    last_frame: Option<Instant>,
    /// When the measurement started, and the clip seconds played since.
    measured_from: Option<Instant>,
    clip_seconds: f64,
    reloads: u32,
}

impl RunReport {
    pub fn new() -> Self {
        Self {
            opened: Instant::now(),
            last_frame: None,
            measured_from: None,
            clip_seconds: 0.0,
            reloads: 0,
        }
    }

    /// When the window opened.
    pub fn opened(&self) -> Instant {
        self.opened
    }

    /// Frame `frames` (counted from 1) was drawn and played `clip_step` seconds of clip time.
    pub fn frame_drawn(&mut self, frames: u32, clip_step: f32) {
        let now = Instant::now();
        self.last_frame = Some(now);
        match self.measured_from {
            Some(_) => self.clip_seconds += f64::from(clip_step),
            None if frames >= WARM_UP_FRAMES => self.measured_from = Some(now),
            None => {}
        }
    }

    /// Watched files changed on disk and were read again.
    pub fn reloaded(&mut self) {
        self.reloads += 1;
    }

    /// The report after `frames` frames, drawn at `quality`.
    pub fn to_json(&self, frames: u32, quality: &str) -> String {
        let since_open = |at: Option<Instant>| at.map(|at| (at - self.opened).as_secs_f64());
        serde_json::json!({
            "seconds": self.opened.elapsed().as_secs_f64(),
            "frames": frames,
            "last_frame_at": since_open(self.last_frame),
            "playing_seconds": self.measured_from.map(|from| from.elapsed().as_secs_f64()),
            "clip_seconds_played": self.clip_seconds,
            "quality": quality,
            "reloads": self.reloads,
        })
        .to_string()
    }
}
