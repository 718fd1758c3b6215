//! The file section's watching toggle, what the last reload did, and why the built-in file
//! browser stands in for the desktop's dialog.

use std::path::PathBuf;

use egui::{Color32, RichText};

use super::notice::Notice;

/// Whether the open file is watched, and what the last reload did.
#[derive(Clone, Debug)]
pub struct Watching {
    /// "Watch file for changes" in the panel.
    pub enabled: bool,
    /// A model file that failed to open, watched too, so that fixing it opens it.
    pub failed_file: Option<PathBuf>,
    /// "Reloaded Fox.glb at 21:04:05 UTC", or why the last reload failed.
    pub note: Option<Notice>,
    /// Bumped whenever the files to watch may have changed other than by a new model.
    pub revision: u64,
    /// Why files cannot be watched at all (the platform's watcher did not start).
    pub unavailable: Option<String>,
}

impl Default for Watching {
    fn default() -> Self {
        Self {
            enabled: true,
            failed_file: None,
            note: None,
            revision: 0,
            unavailable: None,
        }
    }
}

impl Watching {
    /// The watching toggle and what the last reload did; `browser_why` says why the built-in
    /// file browser stands in for the desktop's dialog, when it does.
    pub fn ui(&mut self, ui: &mut egui::Ui, browser_why: Option<&str>) {
        ui.checkbox(&mut self.enabled, "Watch file for changes")
            .on_hover_text("Reload the model when its file, buffers, textures or animations change on disk");
        if let Some(why) = &self.unavailable {
            ui.label(RichText::new(why).color(Color32::from_rgb(240, 200, 90)));
        }
        if let Some(note) = &self.note {
            ui.label(RichText::new(&note.text).color(note.color()));
        }
        if let Some(why) = browser_why {
            ui.label(RichText::new(why).color(Color32::from_rgb(240, 200, 90)));
        }
    }
}
