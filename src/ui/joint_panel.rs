//! The joint browser: the hierarchy as a tree (or, with a filter, the joints whose names
//! match), each joint marked with its skin membership and whether the current clip animates
//! it; the selected joint's name, index, local and world transforms and bone length.

use egui::collapsing_header::CollapsingState;
use egui::{Color32, RichText};

use super::state::ViewerState;
use crate::inspect::{JointFacts, JointReport, TrsReport};

const SKIN_COLOR: Color32 = Color32::from_rgb(120, 200, 255);
const ANIMATED_COLOR: Color32 = Color32::from_rgb(250, 180, 80);
/// Tree levels open when a model is opened.
const OPEN_LEVELS: usize = 3;

pub fn joints_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let joints = state.model.skeleton.len();
    egui::CollapsingHeader::new(format!("Joints ({joints})"))
        .id_salt("joints")
        .default_open(true)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Filter joints");
                let filter = egui::TextEdit::singleline(&mut state.inspection.filter).hint_text("name contains");
                ui.add(filter).labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                ui.label(RichText::new("skin").small().color(SKIN_COLOR))
                    .on_hover_text("in a skin and moves vertices");
                ui.label(RichText::new("anim").small().color(ANIMATED_COLOR))
                    .on_hover_text("animated by the current clip");
            });
            if let Some(joint) = state.inspection.selected.filter(|_| state.inspection.reveal) {
                open_down_to(ui.ctx(), state, joint);
            }
            egui::ScrollArea::vertical()
                .id_salt("joint tree")
                .max_height(320.0)
                .show(ui, |ui| {
                    let filter = state.inspection.filter.trim().to_lowercase();
                    if filter.is_empty() {
                        for root in state.inspection.facts.roots.clone() {
                            tree_node(ui, state, root, 0);
                        }
                    } else {
                        let matches =
                            (0..joints).filter(|&j| state.model.skeleton.name(j).to_lowercase().contains(&filter));
                        for joint in matches.collect::<Vec<_>>() {
                            joint_row(ui, state, joint);
                        }
                        // A joint the filter hides is not revealed.
                        state.inspection.reveal = false;
                    }
                });
            if let Some(joint) = state.inspection.selected {
                ui.separator();
                details(ui, state, joint);
            }
        });
}

/// The id of a joint's node in the tree (independent of where the tree is drawn, so the
/// nodes above a joint can be opened before the tree is).
fn node_id(joint: usize) -> egui::Id {
    egui::Id::unique(("joint tree", joint))
}

/// Opens the tree's nodes above `joint`.
fn open_down_to(ctx: &egui::Context, state: &ViewerState, joint: usize) {
    let path = JointFacts::path_to(&state.model, joint);
    for (depth, &above) in path[..path.len() - 1].iter().enumerate() {
        let mut node = CollapsingState::load_with_default_open(ctx, node_id(above), depth < OPEN_LEVELS);
        node.set_open(true);
        node.store(ctx);
    }
}

fn tree_node(ui: &mut egui::Ui, state: &mut ViewerState, joint: usize, depth: usize) {
    let children = state.inspection.facts.children[joint].clone();
    if children.is_empty() {
        ui.horizontal(|ui| {
            // Line up with the siblings' open/close buttons.
            ui.add_space(ui.spacing().icon_width + ui.spacing().item_spacing.x);
            joint_row(ui, state, joint);
        });
        return;
    }
    let node = CollapsingState::load_with_default_open(ui.ctx(), node_id(joint), depth < OPEN_LEVELS);
    node.show_header(ui, |ui| joint_row(ui, state, joint)).body(|ui| {
        for child in children {
            tree_node(ui, state, child, depth + 1);
        }
    });
}

/// A joint's name (click to select) and its markers.
fn joint_row(ui: &mut egui::Ui, state: &mut ViewerState, joint: usize) {
    let selected = state.inspection.selected == Some(joint);
    let response = ui.selectable_label(selected, state.model.skeleton.name(joint));
    if response.clicked() {
        state.inspection.selected = if selected { None } else { Some(joint) };
    }
    if selected && state.inspection.reveal {
        // Revealed once its row is drawn (the nodes above may take a few frames to open).
        response.scroll_to_me(Some(egui::Align::Center));
        state.inspection.reveal = false;
    }
    let facts = &state.inspection.facts;
    if facts.vertices[joint] > 0 {
        ui.label(RichText::new("skin").small().color(SKIN_COLOR));
    } else if !facts.skins[joint].is_empty() {
        ui.label(
            RichText::new("skin, no vertices")
                .small()
                .color(SKIN_COLOR.gamma_multiply(0.6)),
        );
    }
    if facts.is_animated(state.player.clip(), joint) {
        ui.label(RichText::new("anim").small().color(ANIMATED_COLOR));
    }
}

fn details(ui: &mut egui::Ui, state: &mut ViewerState, joint: usize) {
    let poses = (state.pose.local(), state.joint_matrices.as_slice());
    let report = JointReport::new(&state.model, &state.inspection.facts, state.player.clip(), poses, joint);
    ui.label(RichText::new(&report.name).strong());
    ui.label(format!("joint {} (file node {})", report.index, report.node));
    ui.horizontal(|ui| {
        ui.label(format!("parent: {}", report.parent.as_deref().unwrap_or("(root)")));
        if let Some(parent) = state.model.skeleton.parent(joint)
            && ui.small_button("Select parent").clicked()
        {
            state.inspection.selected = Some(parent);
            state.inspection.reveal = true;
        }
    });
    ui.label(format!("children: {}", report.children));
    let skins = if report.skins.is_empty() {
        "in no skin".to_string()
    } else {
        format!("skins: {}; moves {} vertices", report.skins.join(", "), report.vertices)
    };
    ui.label(skins);
    ui.label(if report.animated {
        "animated by the current clip"
    } else {
        "not animated by the current clip"
    });
    ui.label(format!("bone length: {:.4}", report.bone_length));
    egui::Grid::new("joint transforms").striped(true).show(ui, |ui| {
        ui.label("");
        ui.label("local");
        ui.label("world");
        ui.end_row();
        let (local, world) = (cells(&report.local), cells(&report.world));
        for ((name, local), world) in ["T", "R°", "q", "S"].into_iter().zip(local).zip(world) {
            ui.label(name);
            ui.label(local);
            ui.label(world);
            ui.end_row();
        }
    });
    if ui.button("Clear selection").clicked() {
        state.inspection.selected = None;
    }
}

/// A transform's rows: translation, Euler angles, quaternion, scale.
fn cells(trs: &TrsReport) -> [String; 4] {
    let [x, y, z, w] = trs.rotation;
    [
        triple(trs.translation),
        triple(trs.euler_xyz_degrees),
        format!("{x:.3}, {y:.3}, {z:.3}, {w:.3}"),
        triple(trs.scale),
    ]
}

fn triple([x, y, z]: [f32; 3]) -> String {
    format!("{x:.3}, {y:.3}, {z:.3}")
}
