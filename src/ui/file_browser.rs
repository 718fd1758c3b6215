//! A file browser drawn with egui (the `egui_file` crate), for when the desktop has no file
//! dialog to offer (no XDG desktop portal and no zenity): "Open…" and "Load .hdr…" then still
//! work, and the panel says why they look different.

use std::path::{Path, PathBuf};

use egui_file::{FileDialog, State};

use crate::asset::Format;

/// What a file is being picked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A model to open (or an `.md5anim` to add).
    Model,
    /// An equirectangular .hdr to light the scene with.
    Environment,
}

#[derive(Default)]
pub struct Browsing {
    open: Option<(Purpose, FileDialog)>,
    /// Why the built-in browser is used instead of the desktop's dialog.
    pub why: Option<String>,
    /// An .hdr picked in the browser, for the app to load (that needs the GPU).
    pub picked_environment: Option<PathBuf>,
}

impl Browsing {
    /// Opens the browser in `folder` to pick a file for `purpose`; `why` is shown in the panel.
    pub fn open(&mut self, purpose: Purpose, folder: &Path, why: &str) {
        let (title, shown): (&str, egui_file::Filter<PathBuf>) = match purpose {
            Purpose::Model => (
                "Open a model",
                Box::new(|path: &Path| Format::from_extension(path).is_some()),
            ),
            Purpose::Environment => (
                "Light the scene with an environment",
                Box::new(|path: &Path| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("hdr"))),
            ),
        };
        let mut dialog = FileDialog::open_file()
            .title(title)
            .initial_path(folder)
            .show_files_filter(shown)
            .show_new_folder(false)
            .show_rename(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .default_size(egui::vec2(560.0, 480.0));
        dialog.open();
        self.open = Some((purpose, dialog));
        self.why = Some(why.to_owned());
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Draws the browser while it is open. Returns a model picked (for the caller to open); an
    /// environment picked is kept in `picked_environment` for the app.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<PathBuf> {
        let (purpose, dialog) = self.open.as_mut()?;
        let purpose = *purpose;
        let picked = match dialog.show(ctx).state() {
            State::Open => return None,
            State::Selected => dialog.path().map(Path::to_path_buf),
            State::Closed | State::Cancelled => None,
        };
        self.open = None;
        match purpose {
            Purpose::Model => picked,
            Purpose::Environment => {
                if picked.is_some() {
                    self.picked_environment = picked;
                }
                None
            }
        }
    }
}
