//! The panel's "Morph targets" section: per node with a morphed mesh, a slider per target by
//! name. A slider moved sets that weight by hand (`ViewerState::morphs`), overriding or adding
//! to the animated weight; targets never touched keep the animation. Each row also shows the
//! weight in effect (the pose's, after the hand-set values).

use egui::RichText;

use super::filter_field::{FILTER_FROM, filter_field};
use super::state::ViewerState;
use crate::anim::MorphMode;
use crate::asset::{MeshInstance, Model};

/// The sliders' range in each mode; values outside it can be typed or dragged on the number
/// (to exaggerate a target, or push it the other way).
const OVERRIDE_RANGE: std::ops::RangeInclusive<f32> = 0.0..=1.0;
const ADD_RANGE: std::ops::RangeInclusive<f32> = -1.0..=1.0;
/// The sliders' track (points): narrow, so the name beside it has room.
const SLIDER_WIDTH: f32 = 90.0;

/// `name`, then `note` small and dim, as one text that wraps.
fn name_and_note(ui: &egui::Ui, name: &str, note: &str) -> egui::text::LayoutJob {
    let style = ui.style();
    let mut job = egui::text::LayoutJob::default();
    RichText::new(name).append_to(&mut job, style, egui::FontSelection::Default, egui::Align::Center);
    RichText::new(format!("  {note}")).small().weak().append_to(
        &mut job,
        style,
        egui::FontSelection::Default,
        egui::Align::Center,
    );
    job
}

/// The mesh instances of `model` that have morph targets.
fn morphed(model: &Model) -> impl Iterator<Item = &MeshInstance> {
    model
        .instances
        .iter()
        .filter(|instance| !model.morph_weight_range(instance).is_empty())
}

/// Some mesh instance of `model` has morph targets (their section starts open).
pub fn has_morph_targets(model: &Model) -> bool {
    morphed(model).next().is_some()
}

pub fn morph_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let model = &state.document.model;
    if !has_morph_targets(model) {
        ui.label("(no morph targets)");
        return;
    }
    let morphs = &mut state.frame.morphs;
    ui.horizontal(|ui| {
        ui.radio_value(&mut morphs.mode, MorphMode::Override, "Override")
            .on_hover_text("A moved slider replaces the animated weight");
        ui.radio_value(&mut morphs.mode, MorphMode::Add, "Add")
            .on_hover_text("A moved slider is added to the animated weight");
        let reset = ui
            .add_enabled(morphs.is_active(), egui::Button::new("Reset morphs"))
            .on_hover_text("Let the animation drive every weight again");
        if reset.clicked() {
            morphs.reset();
        }
    });
    let targets: usize = morphed(model)
        .map(|instance| model.morph_weight_range(instance).len())
        .sum();
    let filter = match targets > FILTER_FROM {
        true => filter_field(ui, "Filter morph targets"),
        false => String::new(),
    };
    let effective = state.frame.pose.morph_weights();
    for instance in morphed(model) {
        let mesh = &model.meshes[instance.mesh];
        let node = model.skeleton.name(instance.joint);
        let title = if node == mesh.name {
            node.to_owned()
        } else {
            format!("{node} (mesh {})", mesh.name)
        };
        ui.label(title);
        for (target, index) in model.morph_weight_range(instance).enumerate() {
            let name = mesh.target_names.get(target).map_or("?", String::as_str);
            if !name.to_lowercase().contains(&filter) {
                continue;
            }
            let in_effect = effective.get(index).copied().unwrap_or(0.0);
            let (mut value, range) = match (morphs.get(index), morphs.mode) {
                (Some(set), MorphMode::Override) => (set, OVERRIDE_RANGE),
                (Some(set), MorphMode::Add) => (set, ADD_RANGE),
                (None, MorphMode::Override) => (in_effect, OVERRIDE_RANGE),
                (None, MorphMode::Add) => (0.0, ADD_RANGE),
            };
            // The slider first and the name after it, wrapped rather than cut: the end of a
            // name (its _L or _R) is often what tells two targets apart.
            let touched = if morphs.get(index).is_some() { "set" } else { "animated" };
            ui.horizontal(|ui| {
                ui.spacing_mut().slider_width = SLIDER_WIDTH;
                let slider = egui::Slider::new(&mut value, range)
                    .clamping(egui::SliderClamping::Never)
                    .fixed_decimals(2);
                let slider = ui.push_id(index, |ui| ui.add(slider)).inner;
                let text = name_and_note(ui, name, &format!("= {in_effect:.2} ({touched})"));
                let label = ui.add(egui::Label::new(text).wrap());
                if slider.labelled_by(label.id).changed() {
                    morphs.set(index, value);
                }
            });
        }
    }
}
