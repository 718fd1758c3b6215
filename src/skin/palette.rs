//! The skinning palette: one matrix per skin joint, mapping bind-space vertices to model space.

use glam::Mat4;

/// `out[i] = model[joints[i]] * inverse_bind[i]`: takes a vertex from the mesh's bind space
/// into joint `i`'s space as bound, then out to model space as posed.
///
/// `model` holds every skeleton joint's model matrix; `joints` indexes into it.
pub fn skin_palette(joints: &[usize], inverse_bind: &[Mat4], model: &[Mat4], out: &mut [Mat4]) {
    for ((out, &joint), inverse_bind) in out.iter_mut().zip(joints).zip(inverse_bind) {
        *out = model[joint] * *inverse_bind;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

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
        let model = [
            Mat4::IDENTITY,
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::X),
        ];
        let inverse_bind = [Mat4::from_translation(-Vec3::Y)];
        let mut out = [Mat4::ZERO];
        skin_palette(&[2], &inverse_bind, &model, &mut out);
        assert_eq!(out[0], Mat4::from_translation(Vec3::new(1.0, -1.0, 0.0)));
    }
}
