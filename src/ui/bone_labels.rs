//! Joint names next to the joints in the 3D view, drawn by egui behind the panel.

use egui::{Align2, Color32, FontId, LayerId, Pos2, Rect};

use super::state::ViewerState;
use crate::view::{CameraView, Viewport, named_joints};

const NAME_COLOR: Color32 = Color32::from_rgb(235, 235, 240);
const SELECTED_COLOR: Color32 = Color32::from_rgb(255, 230, 80);
const HOVERED_COLOR: Color32 = Color32::from_rgb(255, 215, 50);

/// A joint's name and where its text starts (left, vertically centred), in points.
#[derive(Clone, Debug, PartialEq)]
pub struct Label<'a> {
    pub joint: usize,
    pub name: &'a str,
    pub at: Pos2,
    pub color: Color32,
}

/// The names to write: every joint's with "Bone names" on, else the selected joint's and the
/// one under the pointer's;
/// `view` is the 3D view's rectangle in points, as `camera` sees it. Joints behind the camera
/// get none.
pub fn labels<'a>(state: &'a ViewerState, camera: &CameraView, view: Rect) -> Vec<Label<'a>> {
    let (selected, hovered) = (state.inspection.selected, state.inspection.hovered);
    let viewport = Viewport::new(camera, view.width(), view.height());
    let picked = [selected, hovered];
    named_joints(
        &state.frame.joint_matrices,
        &viewport,
        state.inspection.bone_names,
        picked,
    )
    .map(|(joint, pixel)| Label {
        joint,
        name: state.document.model.skeleton.name(joint),
        at: view.min + egui::vec2(pixel.x + 6.0, pixel.y),
        color: if selected == Some(joint) {
            SELECTED_COLOR
        } else if hovered == Some(joint) {
            HOVERED_COLOR
        } else {
            NAME_COLOR
        },
    })
    .collect()
}

/// Paints `labels` with a dark shadow, so they read over any background, clipped to `view`.
pub fn show(ctx: &egui::Context, state: &ViewerState, camera: &CameraView, view: Rect) {
    let inspection = &state.inspection;
    if !inspection.bone_names && inspection.selected.is_none() && inspection.hovered.is_none() {
        return;
    }
    let painter = ctx.layer_painter(LayerId::background()).with_clip_rect(view);
    let font = FontId::proportional(12.0);
    for label in labels(state, camera, view) {
        let shadow = label.at + egui::vec2(1.0, 1.0);
        painter.text(shadow, Align2::LEFT_CENTER, label.name, font.clone(), Color32::BLACK);
        painter.text(label.at, Align2::LEFT_CENTER, label.name, font.clone(), label.color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::demo::demo_model;
    use crate::view::OrbitCamera;

    #[test]
    fn names_follow_the_joints_and_the_toggle() {
        let mut state = ViewerState::new(demo_model());
        let camera = OrbitCamera::default().camera_view(800.0 / 600.0);
        let view = Rect::from_min_size(Pos2::new(300.0, 0.0), egui::vec2(800.0, 600.0));
        assert!(labels(&state, &camera, view).is_empty(), "off, nothing selected");
        let head = state.document.model.skeleton.find("head").unwrap();
        state.inspection.selected = Some(head);
        let only = labels(&state, &camera, view);
        assert_eq!(only.len(), 1);
        assert_eq!((only[0].name, only[0].color), ("head", SELECTED_COLOR));
        let pixel = Viewport::new(&camera, 800.0, 600.0)
            .to_pixels(state.frame.joint_matrices[head].w_axis.truncate())
            .unwrap();
        assert_eq!(
            only[0].at,
            Pos2::new(300.0 + pixel.x + 6.0, pixel.y),
            "beside the joint, in the view"
        );
        state.inspection.bone_names = true;
        let all = labels(&state, &camera, view);
        assert_eq!(all.len(), state.document.model.skeleton.len());
        assert_eq!(all.iter().filter(|l| l.color == SELECTED_COLOR).count(), 1);
    }
}
