//! A VRM avatar's section of the panel: who made it, what its licence allows and the work it
//! derives from (the meta), where its eyes look and how (its look-at's type and range maps),
//! its expressions as sliders (presets, then the file's own; the look presets held while an
//! expression-type look-at sets them), and the humanoid map: each of the 55 humanoid bones
//! with the joint it maps to (click one to select the joint), the required ones that are
//! missing in red.

use egui::{Color32, RichText};
use glam::Vec3;

use super::state::ViewerState;
use crate::anim::avatar::{LookAt, LookAtKind};
use crate::asset::human_bone::{HUMAN_BONES, REQUIRED_0_X_MORE, REQUIRED_1_0};
use crate::asset::{Avatar, Material, VrmVersion};
use crate::view::avatar_motion::{AvatarMotion, EyeTarget};
use crate::view::{capitalised, counted};

const MISSING: Color32 = Color32::from_rgb(255, 110, 100);

/// Whether the open model is a VRM avatar or has spring bones (the section shows only then).
pub fn is_avatar(state: &ViewerState) -> bool {
    let model = &state.document.model;
    model.avatar.is_some() || !model.spring_bones.is_empty()
}

pub fn avatar_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    springs_controls(ui, state);
    let model = &state.document.model;
    let Some(avatar) = &model.avatar else { return };

    let meta = &avatar.meta;
    ui.label(RichText::new(format!("{} '{}'", avatar.version, meta.title)).strong());
    let line = |ui: &mut egui::Ui, about: &str, value: &str| {
        if !value.is_empty() {
            ui.label(format!("{about}: {value}"));
        }
    };
    line(ui, "Version", &meta.version);
    line(ui, "Authors", &meta.authors.join(", "));
    line(ui, "Licence", &meta.licence);
    line(ui, "Contact", &meta.contact);
    for (about, value) in &meta.permissions {
        line(ui, &capitalised(about), value);
    }
    line(ui, "Derived from", &meta.references.join(", "));
    let toon: Vec<String> = model.materials.iter().filter_map(Material::mtoon_description).collect();
    line(ui, "MToon materials", &toon.join(", "));
    if let Some(look_at) = &avatar.look_at {
        eyes_controls(ui, look_at, &mut state.frame.avatar);
    }
    // The look-at sets its expressions while it looks somewhere (it did last frame).
    let look_at_sets = (avatar.look_at.as_ref()).filter(|_| state.frame.avatar.face.gaze.is_some());
    expressions_grid(ui, avatar, look_at_sets, &mut state.frame.avatar.expressions);
    let required = |bone: &str| {
        REQUIRED_1_0.contains(&bone) || (avatar.version == VrmVersion::V0 && REQUIRED_0_X_MORE.contains(&bone))
    };
    let mut chosen = None;
    egui::CollapsingHeader::new(format!(
        "Humanoid: {} of {} bones",
        avatar.humanoid.len(),
        HUMAN_BONES.len()
    ))
    .id_salt("humanoid map")
    .default_open(true)
    .show(ui, |ui| {
        egui::Grid::new("humanoid bones").striped(true).show(ui, |ui| {
            for bone in &HUMAN_BONES {
                match avatar.joint(bone.name) {
                    Some(joint) => {
                        ui.label(bone.name);
                        if ui.link(model.skeleton.name(joint)).clicked() {
                            chosen = Some(joint);
                        }
                    }
                    None if required(bone.name) => {
                        ui.label(RichText::new(bone.name).color(MISSING));
                        ui.label(RichText::new("missing (required)").color(MISSING));
                    }
                    None => {
                        ui.label(RichText::new(bone.name).weak());
                        ui.label(RichText::new("—").weak());
                    }
                }
                ui.end_row();
            }
        });
    });
    if let Some(joint) = chosen {
        state.inspection.selected = Some(joint);
    }
}

/// What the eyes look at (as animated, the camera, or a point), and where they look.
fn eyes_controls(ui: &mut egui::Ui, look_at: &LookAt, avatar: &mut AvatarMotion) {
    let (kind, output) = match look_at.kind {
        LookAtKind::Bone => ("eye bones", "°"),
        LookAtKind::Expression => ("look expressions", ""),
    };
    // Each map's largest output and the angle it is reached at (egui's font has no arrow).
    let maps = [
        ("in", look_at.horizontal_inner),
        ("out", look_at.horizontal_outer),
        ("down", look_at.vertical_down),
        ("up", look_at.vertical_up),
    ]
    .map(|(way, map)| format!("{way} {}{output} at {}°", map.output_scale, map.input_max));
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Eyes ({kind}):"));
        let point = match avatar.eyes {
            EyeTarget::Point(point) => point,
            _ => avatar.look_target.unwrap_or(Vec3::new(0.0, 1.5, 1.0)),
        };
        ui.radio_value(&mut avatar.eyes, EyeTarget::Animated, "as animated");
        ui.radio_value(&mut avatar.eyes, EyeTarget::Camera, "follow the camera");
        ui.radio_value(&mut avatar.eyes, EyeTarget::Point(point), "at a point");
    });
    if let EyeTarget::Point(point) = &mut avatar.eyes {
        ui.horizontal(|ui| {
            for (axis, value) in ["x", "y", "z"].into_iter().zip(point.as_mut()) {
                let label = ui.label(axis);
                ui.add(egui::DragValue::new(value).speed(0.01).fixed_decimals(2))
                    .labelled_by(label.id);
            }
        });
    }
    ui.label(RichText::new(format!("Range maps: {}", maps.join(", "))).weak())
        .on_hover_text("How far each eye turns (or each look expression's weight) for a gaze angle, up to its largest");
    if let Some(gaze) = avatar.face.gaze {
        ui.label(gaze_words(gaze.yaw, gaze.pitch))
            .on_hover_text("Where the eyes turn, from the head's rest frame, as the avatar sees it");
    }
}

/// "Looking 7° right, 13° up": a gaze's yaw (degrees towards the avatar's left) and pitch
/// (degrees downwards) in words, the sign turned into the direction.
fn gaze_words(yaw: f32, pitch: f32) -> String {
    // Rounded first, so that -0.3° reads "0° left", not "0° right".
    let (yaw, pitch) = (yaw.round(), pitch.round());
    let side = if yaw < 0.0 { "right" } else { "left" };
    let height = if pitch < 0.0 { "up" } else { "down" };
    format!("Looking {:.0}° {side}, {:.0}° {height}", yaw.abs(), pitch.abs())
}

/// The spring bones: how many, whether they swing, a reset, and whether they are drawn.
fn springs_controls(ui: &mut egui::Ui, state: &mut ViewerState) {
    let springs = &state.document.model.spring_bones;
    if springs.is_empty() {
        return;
    }
    ui.label(format!(
        "Spring bones: {}, {}",
        counted(springs.joints.len(), "joint", "joints"),
        counted(springs.colliders.len(), "collider", "colliders")
    ));
    ui.horizontal(|ui| {
        ui.checkbox(&mut state.frame.avatar.springs_on, "Swing")
            .on_hover_text("Simulate hair, skirts and tails along the motion (paused playback holds them)");
        if ui
            .add_enabled(state.frame.avatar.springs_on, egui::Button::new("Reset springs"))
            .clicked()
        {
            state
                .frame
                .avatar
                .reset_springs(&state.document.model, &state.frame.pose);
        }
        ui.checkbox(&mut state.inspection.spring_gizmos, "Show colliders");
    });
}

/// A slider (0 to 1) per expression, and a button that sets them all back to 0. The sliders of
/// the expressions `look_at_sets` owns are held: it replaces their weights.
fn expressions_grid(ui: &mut egui::Ui, avatar: &Avatar, look_at_sets: Option<&LookAt>, weights: &mut [f32]) {
    if avatar.expressions.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Expressions: {}", avatar.expressions.len()))
        .id_salt("expressions")
        .default_open(true)
        .show(ui, |ui| {
            let any_set = weights.iter().any(|&w| w != 0.0);
            if ui
                .add_enabled(any_set, egui::Button::new("Reset expressions"))
                .clicked()
            {
                weights.fill(0.0);
            }
            for (index, (expression, weight)) in avatar.expressions.iter().zip(weights.iter_mut()).enumerate() {
                let mut notes = Vec::new();
                let held = look_at_sets.is_some_and(|look_at| look_at.owns(expression));
                if held {
                    notes.push("set by the look-at");
                }
                if !expression.is_preset {
                    notes.push("custom");
                }
                if expression.is_binary {
                    notes.push("on or off");
                }
                let label = match notes.is_empty() {
                    true => expression.name.clone(),
                    false => format!("{} ({})", expression.name, notes.join(", ")),
                };
                ui.horizontal(|ui| {
                    let slider = egui::Slider::new(weight, 0.0..=1.0).fixed_decimals(2);
                    let slider = ui.push_id(index, |ui| ui.add_enabled(!held, slider)).inner;
                    let label = ui.label(label);
                    slider.labelled_by(label.id);
                });
            }
        });
}

#[cfg(test)]
mod tests {
    use super::gaze_words;

    #[test]
    fn a_gaze_is_said_in_directions_not_signs() {
        assert_eq!(gaze_words(-7.2, -13.4), "Looking 7° right, 13° up");
        assert_eq!(gaze_words(45.0, 0.0), "Looking 45° left, 0° down");
        assert_eq!(gaze_words(3.0, 12.6), "Looking 3° left, 13° down");
        assert_eq!(
            gaze_words(-0.3, -0.4),
            "Looking 0° left, 0° down",
            "no minus zero to the right"
        );
    }
}
