//! The panel's view controls: named views for the orbit camera, and the file's cameras to
//! look through.

use egui::RichText;

use super::state::ViewerState;
use crate::view::{ViewPreset, capitalised};

pub fn views_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    ui.horizontal_wrapped(|ui| {
        for preset in ViewPreset::ALL {
            let hint = format!(
                "Look from the {preset} ({}); front is the model's +Z side",
                preset.key()
            );
            if ui.button(capitalised(preset.name())).on_hover_text(hint).clicked() {
                state.requests.view = Some(preset);
            }
        }
    });
    let keys: Vec<String> = ViewPreset::ALL
        .iter()
        .map(|preset| format!("{} {preset}", preset.key()))
        .collect();
    ui.label(RichText::new(format!("Keys: {}, 0 next camera", keys.join(", "))).small());
    ui.label(RichText::new("Cameras").strong());
    let orbit = ui
        .selectable_label(state.file_camera.is_none(), "Orbit camera")
        .on_hover_text("Drag to orbit, right-drag to pan, wheel to zoom; 0 steps through the file's cameras");
    if orbit.clicked() {
        state.file_camera = None;
    }
    if state.document.model.cameras.is_empty() {
        ui.label("(the file has no cameras)");
    }
    for (index, camera) in state.document.model.cameras.iter().enumerate() {
        let text = format!("{} ({})", camera.name, camera.kind());
        if ui.selectable_label(state.file_camera == Some(index), text).clicked() {
            state.file_camera = Some(index);
        }
    }
}
