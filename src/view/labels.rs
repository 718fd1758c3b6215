//! Where joint names go in the view: the window and `render --bone-names` both place names by
//! it.

use glam::{Mat4, Vec2};

use super::viewport::Viewport;

/// The joints whose names are written (every one when `all`, else those `picked`: the selected
/// one, the one under the pointer) and the pixel of `view` each sits on; joints behind the
/// camera are left out.
pub fn named_joints<'a>(
    matrices: &'a [Mat4],
    view: &'a Viewport,
    all: bool,
    picked: [Option<usize>; 2],
) -> impl Iterator<Item = (usize, Vec2)> + 'a {
    matrices
        .iter()
        .enumerate()
        .filter(move |&(joint, _)| all || picked.contains(&Some(joint)))
        .filter_map(|(joint, matrix)| Some((joint, view.to_pixels(matrix.w_axis.truncate())?)))
}
