//! The panel's IK section: add chains (end joint from the hierarchy or picked in the view, bone
//! count), and per chain its solver, iterations, weight, target, each joint's limit, and how
//! the last solve went.

use egui::Color32;
use glam::Vec3;

use super::ik_edit::IkEditor;
use super::state::ViewerState;
use crate::anim::{IkLayer, JointConstraint, Skeleton, Solver};
use crate::view::counted;

/// The iteration sliders' upper end.
const MAX_ITERATIONS: u32 = 500;

pub fn ik_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let skeleton = &state.document.model.skeleton;
    if !state.ik_editor.ends.contains(&true) {
        ui.label("(no joint chains in this model: no rig joint has a joint above it)");
        return;
    }
    let editor = &mut state.ik_editor;
    end_joint_list(ui, skeleton, editor);
    let ancestors = editor.depths[editor.new_end].max(1);
    editor.new_length = editor.new_length.clamp(1, ancestors);
    ui.add(egui::Slider::new(&mut editor.new_length, 1..=ancestors).text("IK bones"));
    let (end, length) = (editor.new_end, editor.new_length);
    ui.horizontal_wrapped(|ui| {
        if ui.button("Add IK chain").clicked() {
            state.add_ik_chain(end, length);
        }
        ui.toggle_value(&mut state.ik_editor.picking, "Pick end joint in view")
            .on_hover_text("Then click near a joint in the 3D view");
    });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut state.ik_editor.show_targets, "Show IK targets");
        ui.checkbox(&mut state.ik_editor.show_constraints, "Show IK limits");
    });
    if let Some(error) = &state.ik_editor.error {
        ui.colored_label(Color32::from_rgb(255, 110, 100), error);
    }
    let reach = state.ik_editor.target_range;
    let mut remove = None;
    for (index, layer) in state.frame.player.animator.ik.iter_mut().enumerate() {
        ui.push_id(("ik chain", index), |ui| {
            ui.separator();
            if chain_controls(ui, &state.document.model.skeleton, index + 1, layer, reach) {
                remove = Some(index);
            }
        });
    }
    if let Some(index) = remove {
        state.frame.player.animator.ik.remove(index);
        state.ik_editor.dragging = None;
    }
}

/// The end joint of the next chain: the rig joints with a joint above them, as the hierarchy
/// (indented by depth), or those whose names contain the filter.
fn end_joint_list(ui: &mut egui::Ui, skeleton: &Skeleton, editor: &mut IkEditor) {
    egui::ComboBox::from_label("IK end joint")
        .selected_text(skeleton.name(editor.new_end))
        .height(400.0)
        // Typing in the filter must not close the list; choosing a joint does.
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .show_ui(ui, |ui| {
            let filter_box = egui::TextEdit::singleline(&mut editor.end_filter).hint_text("filter: name contains");
            let label = ui.label("Filter IK end joints");
            ui.add(filter_box).labelled_by(label.id);
            let filter = editor.end_filter.trim().to_lowercase();
            let ends = (0..skeleton.len()).filter(|&joint| editor.ends[joint]);
            let mut chosen = false;
            for joint in ends {
                let name = skeleton.name(joint);
                if filter.is_empty() {
                    let text = format!("{}{name}", "  ".repeat(editor.depths[joint]));
                    chosen |= ui.selectable_value(&mut editor.new_end, joint, text).clicked();
                } else if name.to_lowercase().contains(&filter) {
                    chosen |= ui.selectable_value(&mut editor.new_end, joint, name).clicked();
                }
            }
            if chosen {
                ui.close();
            }
        });
}

/// One chain's controls, labelled "chain N ..."; returns true when it should be removed.
fn chain_controls(ui: &mut egui::Ui, skeleton: &Skeleton, number: usize, layer: &mut IkLayer, reach: f32) -> bool {
    let name = format!("chain {number}");
    ui.label(format!(
        "{name}: {}, {}",
        skeleton.name(layer.chain.end()),
        counted(layer.chain.bones(), "bone", "bones")
    ));
    ui.horizontal_wrapped(|ui| {
        for solver in [Solver::Fabrik, Solver::Ccd] {
            if ui
                .radio(layer.solver == solver, format!("{name} {}", solver.name()))
                .clicked()
            {
                layer.set_solver(solver);
            }
        }
    });
    ui.add(egui::Slider::new(&mut layer.iterations, 1..=MAX_ITERATIONS).text(format!("{name} iterations")));
    ui.add(
        egui::Slider::new(&mut layer.weight, 0.0..=1.0)
            .fixed_decimals(2)
            .text(format!("{name} weight")),
    );
    let axes = [("x", 0), ("y", 1), ("z", 2)];
    for (axis, i) in axes {
        // Not clamped: a target dragged in the view may lie beyond the sliders' range.
        let slider = egui::Slider::new(&mut layer.target[i], -reach..=reach)
            .clamping(egui::SliderClamping::Never)
            .fixed_decimals(3)
            .text(format!("{name} target {axis}"));
        ui.add(slider);
    }
    let outcome = layer.outcome;
    let status = if layer.weight <= 0.0 {
        "off (weight 0)".to_owned()
    } else if outcome.reached {
        format!(
            "reached: {:.4} from the target after {}",
            outcome.distance,
            counted(outcome.iterations as usize, "iteration", "iterations")
        )
    } else {
        format!(
            "not reached: {:.4} left after {}",
            outcome.distance,
            counted(outcome.iterations as usize, "iteration", "iterations")
        )
    };
    let color = if outcome.reached {
        Color32::from_rgb(120, 230, 130)
    } else {
        Color32::from_rgb(240, 170, 90)
    };
    ui.colored_label(color, format!("{name} {status}"));
    ui.collapsing(format!("{name} joint limits"), |ui| {
        for bone in 0..layer.chain.bones() {
            let label = format!("{name} {}", skeleton.name(layer.chain.joints()[bone]));
            constraint_controls(ui, &label, &mut layer.chain.constraints_mut()[bone]);
        }
    });
    ui.button(format!("Remove {name}")).clicked()
}

/// A joint's limit: kind, then the cone and twist or the hinge's axis and range, in degrees.
fn constraint_controls(ui: &mut egui::Ui, label: &str, constraint: &mut JointConstraint) {
    let kinds = [
        ("free", JointConstraint::Free),
        (
            "ball",
            JointConstraint::Ball {
                cone: 45f32.to_radians(),
                twist: 20f32.to_radians(),
            },
        ),
        (
            "hinge",
            JointConstraint::Hinge {
                axis: Vec3::X,
                min: 0.0,
                max: 120f32.to_radians(),
            },
        ),
    ];
    let kind = |c: &JointConstraint| match c {
        JointConstraint::Free => "free",
        JointConstraint::Ball { .. } => "ball",
        JointConstraint::Hinge { .. } => "hinge",
    };
    egui::ComboBox::from_label(format!("{label} limit"))
        .selected_text(kind(constraint))
        .show_ui(ui, |ui| {
            for (name, default) in kinds {
                if ui.selectable_label(kind(constraint) == name, name).clicked() && kind(constraint) != name {
                    *constraint = default;
                }
            }
        });
    let degrees = |ui: &mut egui::Ui, value: &mut f32, range: std::ops::RangeInclusive<f32>, text: String| {
        let mut shown = value.to_degrees();
        if ui
            .add(egui::Slider::new(&mut shown, range).fixed_decimals(1).text(text))
            .changed()
        {
            *value = shown.to_radians();
        }
    };
    match constraint {
        JointConstraint::Free => {}
        JointConstraint::Ball { cone, twist } => {
            degrees(ui, cone, 0.0..=180.0, format!("{label} cone (°)"));
            degrees(ui, twist, 0.0..=180.0, format!("{label} twist (°)"));
        }
        JointConstraint::Hinge { axis, min, max } => {
            ui.horizontal_wrapped(|ui| {
                for (name, unit) in [("X", Vec3::X), ("Y", Vec3::Y), ("Z", Vec3::Z)] {
                    ui.radio_value(axis, unit, format!("{label} axis {name}"));
                }
            });
            degrees(ui, min, -180.0..=180.0, format!("{label} min (°)"));
            degrees(ui, max, -180.0..=180.0, format!("{label} max (°)"));
            *max = max.max(*min);
        }
    }
}
