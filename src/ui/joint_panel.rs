//! The joint browser: the hierarchy as a tree (or, with a filter, the joints whose names
//! match), each joint marked with its skin membership and whether the current clip animates
//! it, and, in the compare view, what changed of it in the model compared with (and the joints
//! only that model has); the selected joint's name, index, local and world transforms and bone
//! length.

use egui::collapsing_header::CollapsingState;
use egui::{Color32, RichText};

use super::inspection::Inspection;
use super::state::{JointMarks, ViewerState};
use crate::anim::Skeleton;
use crate::diff::JointChange;
use crate::inspect::{JointFacts, JointReport, TrsReport};
use crate::view::{PICK_RADIUS, counted};

const SKIN_COLOR: Color32 = Color32::from_rgb(120, 200, 255);
const ANIMATED_COLOR: Color32 = Color32::from_rgb(250, 180, 80);
/// Nodes that are not rig joints, as the skeleton view draws them.
const NODE_COLOR: Color32 = Color32::from_rgb(150, 150, 160);
const MISSED_COLOR: Color32 = Color32::from_rgb(240, 200, 90);
/// What a node that is not a rig joint is.
const NODE_NOTE: &str = "A node that is not a joint of any skin (a scene root, an armature object, a mesh): \
    drawn dim in the skeleton view, not picked there and not offered as an IK end";
/// The compare view's marks: a joint gone from B, and one renamed, reparented or moved in B
/// (and the joints only B has).
const REMOVED_COLOR: Color32 = Color32::from_rgb(255, 110, 100);
const CHANGED_COLOR: Color32 = Color32::from_rgb(240, 170, 80);
const ADDED_COLOR: Color32 = Color32::from_rgb(130, 210, 130);
/// Tree levels open when a model is opened.
const OPEN_LEVELS: usize = 3;

pub fn joints_section(ui: &mut egui::Ui, state: &mut ViewerState) {
    let joints = state.document.model.skeleton.len();
    egui::CollapsingHeader::new(RichText::new(format!("Joints ({joints})")).strong())
        .id_salt("joints")
        .default_open(true)
        // A joint picked in the view opens the browser to show it.
        .open(state.inspection.reveal.then_some(true))
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Filter joints");
                // The rest of the row, however wide the panel is.
                let filter = egui::TextEdit::singleline(&mut state.inspection.filter)
                    .hint_text("name contains")
                    .desired_width(f32::INFINITY);
                ui.add(filter).labelled_by(label.id);
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("skin").small().color(SKIN_COLOR))
                    .on_hover_text("in a skin and moves vertices");
                ui.label(RichText::new("anim").small().color(ANIMATED_COLOR))
                    .on_hover_text("animated by the current clip");
                if state.inspection.facts.rig.contains(&false) {
                    ui.label(RichText::new("node").small().color(NODE_COLOR))
                        .on_hover_text(NODE_NOTE);
                }
                if state.compare.is_some() {
                    ui.label(RichText::new("removed").small().color(REMOVED_COLOR))
                        .on_hover_text("not in the model compared with");
                    ui.label(RichText::new("renamed reparented moved").small().color(CHANGED_COLOR))
                        .on_hover_text("changed in the model compared with");
                }
            });
            if state.inspection.click_missed {
                let hint = match state.view_options().skeleton {
                    true => "",
                    false => " (turn on Skeleton under Display to see where they are)",
                };
                let text = format!("No joint within {PICK_RADIUS:.0} pixels of the click{hint}.");
                ui.label(RichText::new(text).color(MISSED_COLOR));
            }
            if let Some(joint) = state.inspection.selected.filter(|_| state.inspection.reveal) {
                open_down_to(ui.ctx(), state, joint);
            }
            let Inspection {
                facts,
                selected,
                reveal,
                filter,
                ..
            } = &mut state.inspection;
            let tree = Tree {
                facts,
                skeleton: &state.document.model.skeleton,
                clip: state.frame.player.clip(),
                marks: state.compare.as_ref().map(|c| c.joint_marks.as_slice()),
            };
            let mut pick = Pick { selected, reveal };
            // The tree takes the height it needs; the panel's own scrolling moves through it.
            let filter = filter.trim().to_lowercase();
            if filter.is_empty() {
                for &root in &facts.roots {
                    tree.node(ui, &mut pick, root, 0);
                }
            } else {
                let matches = (0..joints).filter(|&j| tree.skeleton.name(j).to_lowercase().contains(&filter));
                for joint in matches {
                    tree.row(ui, &mut pick, joint);
                }
                // A joint the filter hides is not revealed.
                *pick.reveal = false;
            }
            added_joints(ui, state);
            if let Some(joint) = state.inspection.selected {
                ui.separator();
                details(ui, state, joint);
            }
        });
}

/// In the compare view, the joints only the model compared with has (not in this tree).
fn added_joints(ui: &mut egui::Ui, state: &ViewerState) {
    let Some(comparison) = &state.compare else { return };
    let mut added = (comparison.diff.joint_changes.iter())
        .filter_map(|change| match change {
            JointChange::Added { name, .. } => Some(name),
            _ => None,
        })
        .peekable();
    if added.peek().is_none() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("added in B:").small().color(ADDED_COLOR));
        for name in added {
            ui.label(RichText::new(name).small().color(ADDED_COLOR));
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
    for above in state.document.model.skeleton.hierarchy().ancestors(joint) {
        let mut node = CollapsingState::load_with_default_open(ctx, node_id(above), true);
        node.set_open(true);
        node.store(ctx);
    }
}

/// What the tree shows: read only.
struct Tree<'a> {
    facts: &'a JointFacts,
    skeleton: &'a Skeleton,
    clip: Option<usize>,
    /// In the compare view, per joint, what changed of it in B.
    marks: Option<&'a [JointMarks]>,
}

/// What clicking in the tree changes.
struct Pick<'a> {
    selected: &'a mut Option<usize>,
    reveal: &'a mut bool,
}

impl Tree<'_> {
    fn node(&self, ui: &mut egui::Ui, pick: &mut Pick, joint: usize, depth: usize) {
        let children = &self.facts.children[joint];
        if children.is_empty() {
            ui.horizontal(|ui| {
                // Line up with the siblings' open/close buttons.
                ui.add_space(ui.spacing().icon_width + ui.spacing().item_spacing.x);
                self.row(ui, pick, joint);
            });
            return;
        }
        let node = CollapsingState::load_with_default_open(ui.ctx(), node_id(joint), depth < OPEN_LEVELS);
        node.show_header(ui, |ui| self.row(ui, pick, joint)).body(|ui| {
            for &child in children {
                self.node(ui, pick, child, depth + 1);
            }
        });
    }

    /// A joint's name (click to select) and its markers.
    fn row(&self, ui: &mut egui::Ui, pick: &mut Pick, joint: usize) {
        let selected = *pick.selected == Some(joint);
        let response = ui.selectable_label(selected, self.skeleton.name(joint));
        if response.clicked() {
            *pick.selected = if selected { None } else { Some(joint) };
        }
        if selected && *pick.reveal {
            // Revealed once its row is drawn (the nodes above may take a few frames to open),
            // scrolling only up or down: the panel stays scrolled to its left edge.
            let row = egui::Rect::from_x_y_ranges(ui.clip_rect().x_range(), response.rect.y_range());
            ui.scroll_to_rect(row, Some(egui::Align::Center));
            *pick.reveal = false;
        }
        if self.facts.vertices[joint] > 0 {
            ui.label(RichText::new("skin").small().color(SKIN_COLOR));
        } else if !self.facts.skins[joint].is_empty() {
            ui.label(
                RichText::new("skin, no vertices")
                    .small()
                    .color(SKIN_COLOR.gamma_multiply(0.6)),
            );
        }
        if self.facts.is_animated(self.clip, joint) {
            ui.label(RichText::new("anim").small().color(ANIMATED_COLOR));
        }
        if !self.facts.in_rig(joint) {
            ui.label(RichText::new("node").small().color(NODE_COLOR))
                .on_hover_text(NODE_NOTE);
        }
        if let Some(marks) = self.marks.and_then(|m| m.get(joint)) {
            let shown = [
                (marks.removed, "removed", REMOVED_COLOR),
                (marks.renamed, "renamed", CHANGED_COLOR),
                (marks.reparented, "reparented", CHANGED_COLOR),
                (marks.moved, "moved", CHANGED_COLOR),
            ];
            for (_, text, color) in shown.into_iter().filter(|(marked, ..)| *marked) {
                ui.label(RichText::new(text).small().color(color));
            }
        }
    }
}

fn details(ui: &mut egui::Ui, state: &mut ViewerState, joint: usize) {
    let poses = (state.frame.pose.local(), state.frame.joint_matrices.as_slice());
    let report = JointReport::new(
        &state.document.model,
        &state.inspection.facts,
        state.frame.player.clip(),
        poses,
        joint,
    );
    ui.label(RichText::new(&report.name).strong());
    match state.inspection.facts.in_rig(joint) {
        true => ui.label(format!("joint {} (file node {})", report.index, report.node)),
        false => ui
            .label(format!(
                "node {} (file node {}), not a rig joint",
                report.index, report.node
            ))
            .on_hover_text(NODE_NOTE),
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("parent: {}", report.parent.as_deref().unwrap_or("(root)")));
        if let Some(parent) = state.document.model.skeleton.parent(joint)
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
        let vertices = counted(report.vertices, "vertex", "vertices");
        format!("skins: {}; moves {vertices}", report.skins.join(", "))
    };
    ui.label(skins);
    ui.label(if report.animated {
        "animated by the current clip"
    } else {
        "not animated by the current clip"
    });
    ui.label(format!("bone length: {:.4}", report.bone_length));
    // Local and world one above the other, so both fit the panel's width.
    for (space, trs) in [("local", &report.local), ("world", &report.world)] {
        ui.label(RichText::new(space).strong());
        egui::Grid::new(("joint transform", space))
            .striped(true)
            .show(ui, |ui| {
                for (name, value) in ["T", "R°", "q", "S"].into_iter().zip(cells(trs)) {
                    ui.label(name);
                    ui.label(value);
                    ui.end_row();
                }
            });
    }
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
