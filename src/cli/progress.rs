//! A progress bar on standard error for long work (batches name the file done, videos the
//! frame): `━━╸─────────   12/140   8%  eta 31s  Fox.glb`, redrawn in place at most 20 times a
//! second by indicatif, with an estimate of the time left. Nothing is drawn when standard error
//! is not a terminal, so logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressStyle};

pub(super) struct Progress(ProgressBar);

impl Progress {
    /// A bar for `total` steps.
    pub(super) fn new(total: usize) -> Self {
        let style =
            ProgressStyle::with_template("{bar:28.cyan/dim} {pos:>4}/{len} {percent:>3}%  eta {eta:<4} {wide_msg}")
                .expect("the template is valid")
                .progress_chars("━╸─");
        Self(ProgressBar::new(total as u64).with_style(style))
    }

    /// One more step done, `label` saying which.
    pub(super) fn done(&self, label: impl std::fmt::Display) {
        self.0.set_message(label.to_string());
        self.0.inc(1);
    }

    /// Runs `write` with the bar taken off the terminal, so that what it prints is not
    /// overdrawn.
    pub(super) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.0.suspend(write)
    }
}

impl Drop for Progress {
    /// Done or failed, the bar leaves the terminal as it was (an error is printed after).
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
