//! A file browser drawn with egui (the `egui_file` crate), for when the desktop has no file
//! dialog to offer (no XDG desktop portal and no zenity): "Open…", "Compare with…", "Load
//! .hdr…" and "Export clip…" then still work, and the panel says why they look different.

use std::path::{Path, PathBuf};

use egui_file::{FileDialog, State};

use crate::asset::Format;
use crate::asset::format::is_model_file;

/// What a file is being picked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A model to open (or an `.md5anim` to add).
    Model,
    /// A model to compare the open one with ("Compare with…").
    Compare,
    /// An equirectangular .hdr to light the scene with.
    Environment,
    /// Where to write "Export clip…" (a save dialog).
    Export,
    /// Where to write "Save as GLB…" (a save dialog).
    SaveModel,
}

#[derive(Default)]
pub struct Browsing {
    open: Option<(Purpose, FileDialog)>,
    /// Why the built-in browser is used instead of the desktop's dialog.
    pub why: Option<String>,
    /// An .hdr picked in the browser, for the app to load (that needs the GPU).
    pub picked_environment: Option<PathBuf>,
    /// Where the browser was told to export the clip, for the app to start the export.
    pub picked_export: Option<PathBuf>,
    /// Where the browser was told to save the model (the state saves it).
    pub picked_save: Option<PathBuf>,
    /// A model picked to compare the open one with, for the app to open beside it.
    pub picked_compare: Option<PathBuf>,
}

impl Browsing {
    /// Opens the browser in `folder` to pick a file for `purpose` (for `Export`, `name` is the
    /// name it suggests); `why` is shown in the panel.
    pub fn open(&mut self, purpose: Purpose, folder: &Path, name: &str, why: &str) {
        let (dialog, title, shown): (FileDialog, &str, egui_file::Filter<PathBuf>) = match purpose {
            Purpose::Model => (
                FileDialog::open_file(),
                "Open a model",
                Box::new(|path: &Path| Format::from_extension(path).is_some()),
            ),
            Purpose::Compare => (
                FileDialog::open_file(),
                "Compare with a model",
                Box::new(|path: &Path| is_model_file(path)),
            ),
            Purpose::Environment => (
                FileDialog::open_file(),
                "Light the scene with an environment",
                Box::new(|path: &Path| has_extension(path, &["hdr"])),
            ),
            Purpose::Export => (
                FileDialog::save_file().default_filename(name),
                "Export clip",
                Box::new(|path: &Path| has_extension(path, &["mp4", "gif", "png", "apng"])),
            ),
            Purpose::SaveModel => (
                FileDialog::save_file().default_filename(name),
                "Save as glTF",
                Box::new(|path: &Path| has_extension(path, &["glb", "gltf", "vrm", "vrma"])),
            ),
        };
        let mut dialog = dialog
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

    #[cfg(any(test, feature = "internals"))]
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Draws the browser while it is open. Returns a model picked (for the caller to open); an
    /// environment or an export's path picked is kept in `picked_environment` or
    /// `picked_export` for the app.
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
            Purpose::Compare => {
                if picked.is_some() {
                    self.picked_compare = picked;
                }
                None
            }
            Purpose::Environment => {
                if picked.is_some() {
                    self.picked_environment = picked;
                }
                None
            }
            Purpose::Export => {
                if picked.is_some() {
                    self.picked_export = picked;
                }
                None
            }
            Purpose::SaveModel => {
                if picked.is_some() {
                    self.picked_save = picked;
                }
                None
            }
        }
    }
}

/// Whether `path` ends in one of `extensions` (any case).
fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    (path.extension()).is_some_and(|e| extensions.iter().any(|wanted| e.eq_ignore_ascii_case(wanted)))
}
