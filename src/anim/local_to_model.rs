//! Local-to-model: each joint's model matrix is its parent's model matrix times its local
//! TRS matrix, one forward pass over parents-first joints.
//!
//! The parent product skips the local matrix's constant bottom row (it is affine): three
//! columns of three products and a translation column, instead of a general 4×4 product.

use glam::{Mat4, Vec4, Vec4Swizzles};

use super::transform::Transform;

/// Writes `out[j] = out[parent(j)] · local[j]` (just `local[j]` for roots). `parents[j] < j`.
pub(super) fn local_to_model(local: &[Transform], parents: &[Option<u32>], out: &mut [Mat4]) {
    assert!(local.len() == parents.len() && local.len() == out.len());
    for joint in 0..out.len() {
        let matrix = local[joint].to_mat4();
        out[joint] = match parents[joint] {
            // Parents-first order (checked by `Hierarchy::new`) means out[parent] is final.
            Some(parent) => affine_product(&out[parent as usize], &matrix),
            None => matrix,
        };
    }
}

/// `parent · child` for a `child` whose bottom row is (0, 0, 0, 1).
#[inline(always)]
fn affine_product(parent: &Mat4, child: &Mat4) -> Mat4 {
    let column = |c: Vec4| parent.x_axis * c.xxxx() + parent.y_axis * c.yyyy() + parent.z_axis * c.zzzz();
    Mat4::from_cols(
        column(child.x_axis),
        column(child.y_axis),
        column(child.z_axis),
        column(child.w_axis) + parent.w_axis,
    )
}
