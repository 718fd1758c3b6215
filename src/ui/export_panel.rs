//! "Export clip…": the clip playing, with the view's camera and the animator's layers, written
//! as an MP4 (H.264), an animated GIF, an APNG or a PNG sequence. The panel holds the settings and shows the
//! export's progress with a Cancel button; the window renders a few frames of the export per
//! viewer frame (`app::clip_export`), so the window stays responsive.

use egui::{Color32, RichText};

use crate::export::frame_plan::{MAX_FPS, MAX_GIF_FPS};

/// The export settings and the running export's progress.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipExportPanel {
    /// Where to write when no desktop save dialog is available (with one, its starting name).
    pub path: String,
    pub fps: u32,
    pub width: u32,
    pub height: u32,
    /// Frames written and the total, while an export runs.
    pub progress: Option<(u32, u32)>,
    /// The user asked to stop the running export.
    pub cancel: bool,
    /// How the last export ended: what was written, or why not.
    pub outcome: Option<Result<String, String>>,
}

impl Default for ClipExportPanel {
    fn default() -> Self {
        Self {
            path: "clip.mp4".into(),
            fps: 25,
            width: 480,
            height: 360,
            progress: None,
            cancel: false,
            outcome: None,
        }
    }
}

impl ClipExportPanel {
    /// The export controls, under the clip list (the button is enabled when `has_clip`).
    /// Returns true when "Export clip…" was pressed.
    pub fn ui(&mut self, ui: &mut egui::Ui, has_clip: bool) -> bool {
        ui.separator();
        if let Some((done, total)) = self.progress {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("exporting frame {done} of {total}")),
            );
            if ui.button("Cancel export").clicked() {
                self.cancel = true;
            }
            return false;
        }
        ui.horizontal(|ui| {
            ui.label("Export to");
            ui.text_edit_singleline(&mut self.path)
                .on_hover_text(".mp4 (H.264), .gif, .png (animated) or a folder for frame_0001.png, ...");
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut self.width).range(16..=4096).suffix(" px"));
            ui.label("x");
            ui.add(egui::DragValue::new(&mut self.height).range(16..=4096).suffix(" px"));
            ui.add(egui::DragValue::new(&mut self.fps).range(1..=MAX_FPS).suffix(" fps"))
                .on_hover_text(format!("1 to {MAX_FPS}; a GIF at most {MAX_GIF_FPS}"));
        });
        let button = ui
            .add_enabled(has_clip, egui::Button::new("Export clip…"))
            .on_hover_text("The clip playing, from its start, as the view shows it")
            .on_disabled_hover_text("Choose a clip to export");
        match &self.outcome {
            Some(Ok(written)) => {
                ui.label(written);
            }
            Some(Err(error)) => {
                ui.colored_label(Color32::from_rgb(255, 110, 100), RichText::new(error));
            }
            None => {}
        }
        button.clicked()
    }
}
