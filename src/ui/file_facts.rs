//! What the panel says about the file itself: what the loader learnt of it (an FBX file's
//! version, writer and axes), the glTF extensions it uses and requires (those rigscope does not
//! read stand out as warnings) and each primitive's vertex attributes.

use egui::{Color32, RichText};

use super::state::ViewerState;
use crate::asset::unsupported_extensions;

const WARNING: Color32 = Color32::from_rgb(240, 200, 90);

/// The loader's facts about the file, one line each (`inspect` prints the same).
pub fn facts_section(ui: &mut egui::Ui, state: &ViewerState) {
    for fact in &state.document.model.file_facts {
        ui.label(RichText::new(fact).weak());
    }
}

/// Every extension the file names, and a warning line for each one rigscope does not read,
/// shown open: a picture drawn without an extension may be wrong.
pub fn extensions_section(ui: &mut egui::Ui, state: &ViewerState) {
    let model = &state.document.model;
    if model.extensions_used.is_empty() && model.extensions_required.is_empty() {
        return;
    }
    if !model.extensions_used.is_empty() {
        ui.label(format!("Extensions used: {}", model.extensions_used.join(", ")));
    }
    if !model.extensions_required.is_empty() {
        ui.label(format!("Extensions required: {}", model.extensions_required.join(", ")));
    }
    for extension in unsupported_extensions(&model.extensions_used, &model.extensions_required) {
        let text = format!("Warning: {}", extension.warning());
        ui.label(RichText::new(text).color(WARNING));
    }
}

/// Each mesh's primitives with the vertex attributes the file gives them.
pub fn attributes_section(ui: &mut egui::Ui, state: &ViewerState) {
    let meshes = &state.document.model.meshes;
    if meshes.iter().all(|m| m.attributes.is_empty()) {
        return;
    }
    egui::CollapsingHeader::new("Vertex attributes").show(ui, |ui| {
        for mesh in meshes {
            for (index, attributes) in mesh.attributes.iter().enumerate() {
                ui.label(RichText::new(format!("{} primitive {index}", mesh.name)).strong());
                for attribute in attributes {
                    ui.label(format!("  {}: {}", attribute.semantic, attribute.layout));
                }
            }
        }
    });
}
