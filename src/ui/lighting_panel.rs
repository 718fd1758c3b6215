//! The panel's lighting section: the file's lights or the studio's, the environment (built-in
//! or a user's .hdr), its strength, turn and background, exposure and the tone curve.

use egui::{Color32, RichText};

use super::render_status::RenderStatus;
use super::state::Requests;
use crate::view::{Lighting, Lights, ToneMapping, counted};

/// Edits `lighting`; `file_lights` is how many lights the file has, `status` says which
/// environment lights the scene. Loading an .hdr or going back to the studio's is asked of the
/// window through `requests`.
pub fn lighting_section(
    ui: &mut egui::Ui,
    lighting: &mut Lighting,
    file_lights: usize,
    requests: &mut Requests,
    status: &RenderStatus,
) {
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut lighting.lights, Lights::Studio, "Studio key light")
            .on_hover_text("rigscope's key light, with its shadow on the ground");
        ui.add_enabled_ui(file_lights > 0, |ui| {
            ui.radio_value(
                &mut lighting.lights,
                Lights::File,
                format!("File's lights ({file_lights})"),
            )
            .on_hover_text("The file's KHR_lights_punctual lights (the two that light the model most cast shadows)")
            .on_disabled_hover_text("The file has no lights");
        });
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Environment: {}", status.environment_name));
        if ui.button("Load .hdr…").clicked() {
            requests.environment_dialog = true;
        }
        if status.environment_name != "studio" && ui.button("Studio").clicked() {
            requests.studio_environment = true;
        }
    });
    if let Some(error) = &status.environment_error {
        ui.colored_label(Color32::from_rgb(255, 110, 100), error);
    }
    ui.add(
        egui::Slider::new(&mut lighting.environment_intensity, 0.0..=4.0)
            .fixed_decimals(2)
            .text("environment intensity"),
    );
    ui.add(
        egui::Slider::new(&mut lighting.environment_rotation, -180.0..=180.0)
            .suffix("°")
            .fixed_decimals(0)
            .text("environment rotation"),
    );
    ui.checkbox(&mut lighting.environment_background, "Environment as background");
    ui.add(
        egui::Slider::new(&mut lighting.exposure, -6.0..=6.0)
            .suffix(" EV")
            .fixed_decimals(2)
            .text("exposure"),
    );
    egui::ComboBox::from_label("tone mapping")
        .selected_text(lighting.tone_mapping.label())
        .show_ui(ui, |ui| {
            for curve in ToneMapping::ALL {
                ui.selectable_value(&mut lighting.tone_mapping, curve, curve.label());
            }
        });
    if file_lights > 0 && lighting.lights == Lights::Studio {
        ui.label(RichText::new(format!("The file has {}.", counted(file_lights, "light", "lights"))).small());
    }
}
