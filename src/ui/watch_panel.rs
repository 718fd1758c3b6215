//! The file section's watching toggle, what the last reload did, and why the built-in file
//! browser stands in for the desktop's dialog.

use egui::{Color32, RichText};

use super::state::ViewerState;

pub fn watch_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let watching = &mut state.watching;
    ui.checkbox(&mut watching.enabled, "Watch file for changes")
        .on_hover_text("Reload the model when its file, buffers, textures or animations change on disk");
    if let Some(why) = &watching.unavailable {
        ui.label(RichText::new(why).color(Color32::from_rgb(240, 200, 90)));
    }
    if let Some(note) = &watching.note {
        let color = if note.failed {
            Color32::from_rgb(255, 110, 100)
        } else {
            Color32::from_rgb(150, 210, 150)
        };
        ui.label(RichText::new(&note.text).color(color));
    }
    if let Some(why) = &state.browser.why {
        ui.label(RichText::new(why).color(Color32::from_rgb(240, 200, 90)));
    }
}
