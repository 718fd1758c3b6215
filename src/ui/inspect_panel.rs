//! The rig inspection's view controls: animated, rest or bind pose; the bind-pose ghost; what
//! the mesh's colours show, with a legend; the CPU-vs-GPU measurement; bone names; motion
//! trails; root motion and the feet.

use egui::{Color32, RichText};

use super::inspection::MeshColors;
use super::state::ViewerState;
use crate::inspect::PoseMode;
use crate::inspect::SkinDifference;
use crate::inspect::skin_difference::{LOUD, QUIET};
use crate::view::{MaterialChannel, counted};

/// `skin_difference`: what the difference view measured in the last frame, or why it could not.
pub fn inspect_section(
    ui: &mut egui::Ui,
    state: &mut ViewerState,
    skin_difference: Option<&Result<SkinDifference, String>>,
) {
    let inspection = &mut state.inspection;
    ui.horizontal_wrapped(|ui| {
        ui.label("Pose");
        ui.radio_value(&mut inspection.pose_mode, PoseMode::Animated, "Animated");
        ui.radio_value(&mut inspection.pose_mode, PoseMode::Rest, "Rest");
        ui.radio_value(&mut inspection.pose_mode, PoseMode::Bind, "Bind");
    });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut state.view.bind_ghost, "Bind-pose ghost")
            .on_hover_text("The mesh as bound, translucent over the posed one");
        ui.checkbox(&mut inspection.bone_names, "Bone names");
    });
    ui.label("Mesh colours");
    let choices = [
        (MeshColors::Materials, "Materials", "The model's own materials"),
        (
            MeshColors::Weights,
            "Selected joint's weights",
            "Blue 0 to red 1, per vertex; select a joint in the tree or click one in the view",
        ),
        (
            MeshColors::Influences,
            "Influences per vertex",
            "How many joints move each vertex (weights above zero)",
        ),
        (
            MeshColors::NotNormalised,
            "Weights not summing to 1",
            "Vertices whose weights in the file did not sum to 1 (renormalised on load)",
        ),
        (
            MeshColors::Capped,
            "Influences over the cap",
            "Vertices that had more than 8 influences and lost the weakest",
        ),
        (
            MeshColors::SkinDifference,
            "CPU vs GPU difference",
            "Distance between the CPU's and the GPU's skinning of each vertex",
        ),
    ];
    for (colors, text, hint) in choices {
        ui.radio_value(&mut inspection.colors, colors, text).on_hover_text(hint);
    }
    legend(ui, state, skin_difference);
    material_channel(ui, state);
    egui::CollapsingHeader::new("Motion trails")
        .default_open(true)
        .show(ui, |ui| {
            let (selected, pose_mode) = (state.inspection.selected, state.inspection.pose_mode);
            state.trails.ui(ui, &state.document.model.skeleton, selected, pose_mode);
        });
    egui::CollapsingHeader::new("Root motion and feet")
        .default_open(false)
        .show(ui, |ui| state.motion.ui(ui, &state.document.model));
}

/// A material debug view: one input of the lighting instead of the lit picture (a vertex view
/// chosen above still colours the mesh instead).
fn material_channel(ui: &mut egui::Ui, state: &mut ViewerState) {
    let shown = state.view.channel;
    egui::ComboBox::from_label("Material channel")
        .selected_text(shown.map_or("Lit (off)", MaterialChannel::label))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut state.view.channel, None, "Lit (off)");
            for channel in MaterialChannel::ALL {
                ui.selectable_value(&mut state.view.channel, Some(channel), channel.label());
            }
        })
        .response
        .on_hover_text("One input of the lighting as it is (a value v shows as the level v, no tone curve): which texture is in which slot");
}

/// What the colours mean, and the numbers behind them.
fn legend(ui: &mut egui::Ui, state: &ViewerState, skin_difference: Option<&Result<SkinDifference, String>>) {
    let inspection = &state.inspection;
    let swatches = |ui: &mut egui::Ui, items: &[(Color32, &str)]| {
        ui.horizontal_wrapped(|ui| {
            for (color, text) in items {
                let (swatch, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().rect_filled(swatch, 2.0, *color);
                if !text.is_empty() {
                    ui.label(RichText::new(*text).small());
                }
            }
        });
    };
    let heat = [
        (Color32::from_rgb(10, 15, 120), "0"),
        (Color32::from_rgb(0, 200, 255), ""),
        (Color32::from_rgb(30, 230, 30), "½"),
        (Color32::from_rgb(255, 230, 0), ""),
        (Color32::from_rgb(255, 20, 10), "1"),
    ];
    let flagged = [
        (Color32::from_rgb(90, 90, 95), "fine"),
        (Color32::from_rgb(255, 15, 215), "flagged"),
    ];
    match inspection.colors {
        MeshColors::Materials => {}
        MeshColors::Weights => match inspection.selected {
            Some(joint) => {
                ui.label(format!("weights of {}", state.document.model.skeleton.name(joint)));
                swatches(ui, &heat);
            }
            None => {
                ui.colored_label(Color32::from_rgb(240, 200, 90), "select a joint to see its weights");
            }
        },
        MeshColors::Influences => swatches(
            ui,
            &[
                (Color32::from_rgb(80, 80, 80), "0"),
                (Color32::from_rgb(15, 50, 230), "1"),
                (Color32::from_rgb(25, 200, 50), "2"),
                (Color32::from_rgb(255, 215, 0), "3"),
                (Color32::from_rgb(255, 100, 0), "4"),
                (Color32::from_rgb(230, 15, 15), "5"),
                (Color32::from_rgb(215, 25, 180), "6"),
                (Color32::from_rgb(150, 50, 255), "7+"),
            ],
        ),
        MeshColors::NotNormalised => {
            swatches(ui, &flagged);
            let vertices = repaired(state, |w| w.renormalised + w.unweighted);
            ui.label(format!("{} flagged", counted(vertices, "vertex", "vertices")));
        }
        MeshColors::Capped => {
            swatches(ui, &flagged);
            let vertices = repaired(state, |w| w.truncated);
            ui.label(format!("{} flagged", counted(vertices, "vertex", "vertices")));
        }
        MeshColors::SkinDifference => {
            swatches(ui, &heat);
            ui.label(
                RichText::new(format!(
                    "blue: {QUIET:.0e} of the model's size or less; red: {LOUD:.0e} or more (logarithmic)"
                ))
                .small(),
            );
            match skin_difference {
                Some(Ok(difference)) => ui.label(difference.to_string()),
                Some(Err(error)) => ui.colored_label(Color32::from_rgb(255, 110, 100), error),
                None => ui.label("measured when the next frame is drawn"),
            };
        }
    }
}

/// Vertices of the drawn meshes counted by `count` over their skin weights.
fn repaired(state: &ViewerState, count: impl Fn(&crate::asset::SkinWeights) -> usize) -> usize {
    let model = &state.document.model;
    model
        .instances
        .iter()
        .filter(|i| i.skin.is_some())
        .flat_map(|i| &model.meshes[i.mesh].primitives)
        .filter_map(|p| p.skin_weights.as_ref())
        .map(count)
        .sum()
}
