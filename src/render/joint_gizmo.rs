//! The selected joint in the view: a white square on it, its bone from the parent in white,
//! and its axes (X red, Y green, Z blue).

use glam::{Mat4, Vec4};

use super::overlay::Overlay;
use crate::view::Bounds;

const SELECTED_COLOR: Vec4 = Vec4::new(1.0, 1.0, 1.0, 1.0);
const AXIS_COLORS: [Vec4; 3] = [
    Vec4::new(1.0, 0.2, 0.2, 1.0),
    Vec4::new(0.3, 1.0, 0.3, 1.0),
    Vec4::new(0.3, 0.5, 1.0, 1.0),
];
/// Half size of the selected joint's square, in clip units per w (about 6 pixels on 800).
const SELECTED_SIZE: f32 = 0.014;

/// The joint under the pointer: a yellow square a little larger than the selected joint's.
const HOVERED_COLOR: Vec4 = Vec4::new(1.0, 0.85, 0.2, 1.0);
const HOVERED_SIZE: f32 = 0.018;

/// Adds the joint under the pointer, at `matrix`, to `overlay`.
pub fn draw_hovered_joint(overlay: &mut Overlay, matrix: &Mat4) {
    overlay.square(matrix.w_axis.truncate(), HOVERED_COLOR, HOVERED_SIZE);
}

/// Adds `joint` (whose parent is `parent`) of the pose with model matrices `matrices` to
/// `overlay`, its axes a tenth of the size of `bounds` (the region the model moves in) long.
/// The axes show directions only: a scaled joint's axes are as long as anyone else's.
pub fn draw_selected_joint(
    overlay: &mut Overlay,
    matrices: &[Mat4],
    parent: Option<usize>,
    joint: usize,
    bounds: &Bounds,
) {
    let length = if bounds.is_empty() { 0.1 } else { bounds.radius() * 0.2 };
    let Some(matrix) = matrices.get(joint) else {
        return;
    };
    let origin = matrix.w_axis.truncate();
    if let Some(parent) = parent.and_then(|p| matrices.get(p)) {
        overlay.line(parent.w_axis.truncate(), origin, SELECTED_COLOR);
    }
    let axes = [matrix.x_axis, matrix.y_axis, matrix.z_axis];
    for (axis, color) in axes.iter().zip(AXIS_COLORS) {
        let direction = axis.truncate().normalize_or_zero();
        overlay.line(origin, origin + direction * length, color);
    }
    overlay.square(origin, SELECTED_COLOR, SELECTED_SIZE);
}
