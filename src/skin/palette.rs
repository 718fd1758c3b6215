//! The skinning palette: one matrix per skin joint, mapping bind-space vertices to model space,
//! and what the kernels derive from it each frame: normal matrices and rows.

use glam::{Mat3A, Mat4, Vec3A, Vec4};

/// `out[i] = model[joints[i]] * inverse_bind[i]`: takes a vertex from the mesh's bind space
/// into joint `i`'s space as bound, then out to model space as posed.
///
/// `model` holds every skeleton joint's model matrix; `joints` indexes into it.
pub fn skin_palette(joints: &[usize], inverse_bind: &[Mat4], model: &[Mat4], out: &mut [Mat4]) {
    for ((out, &joint), inverse_bind) in out.iter_mut().zip(joints).zip(inverse_bind) {
        *out = model[joint] * *inverse_bind;
    }
}

/// The matrix that carries normals for `matrix`: the cofactor of its upper 3×3 (its inverse
/// transpose times the determinant) with the determinant's sign, so normals stay
/// perpendicular under non-uniform and mirroring scale. Callers renormalise.
#[inline]
pub fn normal_matrix(matrix: &Mat4) -> Mat3A {
    let c0 = Vec3A::from_vec4(matrix.x_axis);
    let c1 = Vec3A::from_vec4(matrix.y_axis);
    let c2 = Vec3A::from_vec4(matrix.z_axis);
    let x = c1.cross(c2);
    let sign = if c0.dot(x) < 0.0 { -1.0 } else { 1.0 };
    Mat3A::from_cols(x * sign, c2.cross(c0) * sign, c0.cross(c1) * sign)
}

/// `out[i] = normal_matrix(&palette[i])`, computed once per frame so that vertices bound to a
/// single joint need no per-vertex matrix work for their normals.
pub fn normal_palette(palette: &[Mat4], out: &mut [Mat3A]) {
    for (out, matrix) in out.iter_mut().zip(palette) {
        *out = normal_matrix(matrix);
    }
}

/// A palette matrix's first three rows: `(m_r0, m_r1, m_r2, t_r)` for `r` in x, y, z (the fourth
/// row of an affine matrix is `(0, 0, 0, 1)`, and skinning ignores it). Blending three rows
/// per joint takes three vector products where four columns take four.
pub type AffineRows = [Vec4; 3];

/// A palette matrix's `AffineRows` in 64 bytes, so that a joint's index becomes its entry's
/// offset in one shift (48 bytes take two instructions, for each joint of each vertex).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(64))]
pub struct PaletteRows(pub AffineRows);

/// `out[i]` = the first three rows of `palette[i]`.
pub fn row_palette(palette: &[Mat4], out: &mut [PaletteRows]) {
    for (out, matrix) in out.iter_mut().zip(palette) {
        let rows = matrix.transpose();
        *out = PaletteRows([rows.x_axis, rows.y_axis, rows.z_axis]);
    }
}

/// `palette`'s normal matrices and rows in new vectors, for one-off callers (benchmarks, tests);
/// the deformer keeps its own and refreshes them each frame without allocating.
#[cfg(any(test, feature = "internals"))]
pub fn normals_and_rows(palette: &[Mat4]) -> (Vec<Mat3A>, Vec<PaletteRows>) {
    let mut normals = vec![Mat3A::IDENTITY; palette.len()];
    normal_palette(palette, &mut normals);
    let mut rows = vec![PaletteRows([Vec4::ZERO; 3]); palette.len()];
    row_palette(palette, &mut rows);
    (normals, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat3, Quat, Vec3};

    #[test]
    fn bind_pose_gives_identity_palette() {
        let bind = [Mat4::from_translation(Vec3::Y), Mat4::from_rotation_z(0.3)];
        let inverse: Vec<Mat4> = bind.iter().map(Mat4::inverse).collect();
        let mut out = [Mat4::ZERO; 2];
        skin_palette(&[0, 1], &inverse, &bind, &mut out);
        assert!(out.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-6)));
    }

    #[test]
    fn skin_joints_index_the_skeleton() {
        // Skin joint 0 is skeleton joint 2: its palette entry uses joint 2's model matrix.
        let model = [Mat4::IDENTITY, Mat4::IDENTITY, Mat4::from_translation(Vec3::X)];
        let inverse_bind = [Mat4::from_translation(-Vec3::Y)];
        let mut out = [Mat4::ZERO];
        skin_palette(&[2], &inverse_bind, &model, &mut out);
        assert_eq!(out[0], Mat4::from_translation(Vec3::new(1.0, -1.0, 0.0)));
    }

    #[test]
    fn rows_move_points_as_the_matrix_does() {
        let matrix =
            Mat4::from_scale_rotation_translation(Vec3::new(1.0, 3.0, 0.5), Quat::from_rotation_x(0.7), Vec3::X);
        let mut rows = [PaletteRows([Vec4::ZERO; 3])];
        row_palette(&[matrix], &mut rows);
        let point = Vec3::new(0.3, -2.0, 5.0);
        let by_rows = Vec3::from_array(rows[0].0.map(|row| row.dot(point.extend(1.0))));
        assert!(by_rows.abs_diff_eq(matrix.transform_point3(point), 1e-5));
    }

    #[test]
    fn normal_matrices_follow_the_inverse_transpose() {
        let matrices = [
            Mat4::from_scale_rotation_translation(Vec3::new(1.0, 3.0, 0.5), Quat::from_rotation_x(0.7), Vec3::X),
            Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
            Mat4::from_scale(Vec3::new(-2.0, -1.0, 0.5)),
        ];
        let normal = Vec3::new(0.3, 0.8, -0.2).normalize();
        let mut out = [Mat3A::ZERO; 3];
        normal_palette(&matrices, &mut out);
        for (matrix, normal_matrix) in matrices.iter().zip(out) {
            let expected = (Mat3::from_mat4(*matrix).inverse().transpose() * normal).normalize();
            let actual = (normal_matrix * Vec3A::from(normal)).normalize();
            assert!(Vec3::from(actual).abs_diff_eq(expected, 1e-5), "{matrix}");
        }
    }
}
