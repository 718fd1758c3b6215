//! A joint's transform as translation, rotation and scale (TRS).
//!
//! A `Transform` maps points from a child's space into its parent's space:
//! `p_parent = translation + rotation * (scale * p_child)`, the same as
//! `Mat4::from_scale_rotation_translation`. Rotations are glam (Hamilton) quaternions, so
//! `a.rotation * b.rotation` applies `b` first.

use glam::{Mat3, Mat4, Quat, Vec3};

use super::quat::slerp_shortest;

/// Laid out as the rotation (16-byte aligned), the six floats of translation and scale back to
/// back, and two floats of padding kept at zero (48 bytes in all, every one initialised): the
/// blends read and write a joint as its rotation and eight floats (`joint_group`), which the
/// compiler mixes as one 256-bit vector where the processor has AVX.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Transform {
    pub rotation: Quat,
    pub translation: Vec3,
    pub scale: Vec3,
    /// Zero (mixes of zeros stay zero); neither compared nor printed.
    padding: [f32; 2],
}

impl PartialEq for Transform {
    fn eq(&self, other: &Self) -> bool {
        (self.rotation, self.translation, self.scale) == (other.rotation, other.translation, other.scale)
    }
}

impl std::fmt::Debug for Transform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transform")
            .field("rotation", &self.rotation)
            .field("translation", &self.translation)
            .field("scale", &self.scale)
            .finish()
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Self = Self::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);

    pub const fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
            padding: [0.0; 2],
        }
    }

    /// `parent.combine(child)`: the child's transform expressed in the parent's parent space.
    /// Exact when scales are uniform; with non-uniform scale under rotation the true product
    /// has shear, which TRS cannot hold (use `to_mat4` products for skinning).
    pub fn combine(&self, child: &Transform) -> Transform {
        Transform::new(
            self.translation + self.rotation * (self.scale * child.translation),
            (self.rotation * child.rotation).normalize(),
            self.scale * child.scale,
        )
    }

    /// The transform that undoes this one: `t.combine(&t.inverse())` is the identity. Exact for
    /// uniform scale; with non-uniform scale under rotation the inverse has shear, which TRS
    /// cannot hold (the translation is still exact). A zero scale component inverts to zero
    /// instead of infinity, so degenerate joints collapse instead of producing NaN.
    pub fn inverse(&self) -> Transform {
        let inv_rotation = self.rotation.inverse();
        let inv_scale = Vec3::new(
            safe_recip(self.scale.x),
            safe_recip(self.scale.y),
            safe_recip(self.scale.z),
        );
        Transform::new(inv_rotation * -self.translation * inv_scale, inv_rotation, inv_scale)
    }

    /// Blends from `self` (t = 0) to `other` (t = 1): translation and scale linearly, rotation
    /// by slerp along the shortest path.
    pub fn mix(&self, other: &Transform, t: f32) -> Transform {
        Transform::new(
            self.translation.lerp(other.translation, t),
            slerp_shortest(self.rotation, other.rotation, t),
            self.scale.lerp(other.scale, t),
        )
    }

    /// The matrix mapping child space to parent space.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Decomposes an affine matrix. A mirroring matrix (negative determinant) gets a negative
    /// x scale, so `from_mat4(m).to_mat4() == m` for every matrix without shear, including
    /// ones that scale an axis to zero (glTF hides nodes that way).
    pub fn from_mat4(matrix: &Mat4) -> Transform {
        let (scale, rotation, translation) = matrix.to_scale_rotation_translation();
        let rotation = if rotation.is_finite() {
            rotation.normalize()
        } else {
            rotation_of_degenerate(matrix)
        };
        Transform::new(translation, rotation, scale)
    }

    /// Applies the transform to a point.
    pub fn transform_point(&self, point: Vec3) -> Vec3 {
        self.translation + self.rotation * (self.scale * point)
    }

    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}

/// The rotation of a matrix that scales one or more axes to zero: the remaining axes fix it
/// (a missing axis is the cross product of the other two), or it is the identity.
fn rotation_of_degenerate(matrix: &Mat4) -> Quat {
    let axes = [
        matrix.x_axis.truncate(),
        matrix.y_axis.truncate(),
        matrix.z_axis.truncate(),
    ];
    let units = axes.map(|axis| axis.try_normalize());
    match units {
        [Some(x), Some(y), None] => Quat::from_mat3(&Mat3::from_cols(x, y, x.cross(y))),
        [Some(x), None, Some(z)] => Quat::from_mat3(&Mat3::from_cols(x, z.cross(x), z)),
        [None, Some(y), Some(z)] => Quat::from_mat3(&Mat3::from_cols(y.cross(z), y, z)),
        [Some(x), None, None] => Quat::from_rotation_arc(Vec3::X, x),
        [None, Some(y), None] => Quat::from_rotation_arc(Vec3::Y, y),
        [None, None, Some(z)] => Quat::from_rotation_arc(Vec3::Z, z),
        _ => Quat::IDENTITY,
    }
    .normalize()
}

fn safe_recip(value: f32) -> f32 {
    if value.abs() < f32::EPSILON { 0.0 } else { 1.0 / value }
}

/// True when `matrix` is affine and its upper 3×3 part has no shear, i.e. it round-trips
/// through a `Transform`.
pub fn is_trs(matrix: &Mat4, tolerance: f32) -> bool {
    let rebuilt = Transform::from_mat4(matrix).to_mat4();
    let linear = Mat3::from_mat4(*matrix);
    let magnitude = linear.x_axis.length() + linear.y_axis.length() + linear.z_axis.length() + 1.0;
    matrix.abs_diff_eq(rebuilt, tolerance * magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_transforms() -> Vec<Transform> {
        vec![
            Transform::IDENTITY,
            Transform::new(
                Vec3::new(1.0, -2.0, 3.0),
                Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
                Vec3::splat(2.5),
            ),
            Transform::new(
                Vec3::new(-4.0, 0.5, 0.0),
                Quat::from_rotation_y(3.0),
                Vec3::new(1.0, 2.0, 0.5),
            ),
            Transform::new(Vec3::ZERO, Quat::from_rotation_z(-0.4), Vec3::new(-1.0, 1.0, 1.0)),
        ]
    }

    #[test]
    fn matrices_round_trip_including_negative_scale() {
        for transform in sample_transforms() {
            let matrix = transform.to_mat4();
            let rebuilt = Transform::from_mat4(&matrix).to_mat4();
            assert!(rebuilt.abs_diff_eq(matrix, 1e-5), "{transform:?}");
        }
        // Mirrors in any axis, or in all three, give back the same matrix.
        for scale in [
            Vec3::new(1.0, -1.0, 1.0),
            Vec3::new(1.0, 1.0, -2.0),
            Vec3::splat(-1.0),
            Vec3::new(-3.0, -1.0, 0.5),
        ] {
            let matrix = Mat4::from_scale_rotation_translation(scale, Quat::from_rotation_x(0.8), Vec3::X);
            assert!(
                Transform::from_mat4(&matrix).to_mat4().abs_diff_eq(matrix, 1e-5),
                "{scale}"
            );
            assert!(is_trs(&matrix, 1e-4));
        }
        // Zero scale on one, two or all axes.
        for scale in [Vec3::new(0.0, 1.0, 2.0), Vec3::new(1.5, 0.0, 0.0), Vec3::ZERO] {
            let matrix = Mat4::from_scale_rotation_translation(scale, Quat::from_rotation_y(0.9), Vec3::Z);
            let transform = Transform::from_mat4(&matrix);
            assert!(transform.is_finite(), "{scale}");
            assert!(transform.to_mat4().abs_diff_eq(matrix, 1e-5), "{scale}");
        }
        let shear = Mat4::from_cols_array(&[
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ]);
        assert!(!is_trs(&shear, 1e-4));
    }

    #[test]
    fn combine_matches_matrix_product_for_uniform_scale() {
        let transforms = sample_transforms();
        let (parent, child) = (transforms[1], transforms[2]);
        let combined = parent.combine(&child).to_mat4();
        assert!(combined.abs_diff_eq(parent.to_mat4() * child.to_mat4(), 1e-4));
        let point = Vec3::new(0.3, -0.7, 1.9);
        assert!(
            parent
                .combine(&child)
                .transform_point(point)
                .abs_diff_eq(parent.transform_point(child.transform_point(point)), 1e-4)
        );
    }

    #[test]
    fn inverse_undoes_the_transform() {
        for transform in sample_transforms().into_iter().take(2) {
            let identity = transform.combine(&transform.inverse());
            assert!(identity.translation.abs_diff_eq(Vec3::ZERO, 1e-5));
            assert!(identity.rotation.abs_diff_eq(Quat::IDENTITY, 1e-5));
            assert!(identity.scale.abs_diff_eq(Vec3::ONE, 1e-5));
            assert!(
                transform
                    .inverse()
                    .to_mat4()
                    .abs_diff_eq(transform.to_mat4().inverse(), 1e-5)
            );
        }
        let flat = Transform::new(Vec3::X, Quat::IDENTITY, Vec3::new(1.0, 0.0, 1.0));
        assert!(flat.inverse().is_finite(), "a zero scale inverts to zero, not infinity");
    }

    #[test]
    fn mix_interpolates_each_part() {
        let a = Transform::new(Vec3::ZERO, Quat::from_rotation_y(0.2), Vec3::ONE);
        let b = Transform::new(Vec3::X * 4.0, -Quat::from_rotation_y(1.0), Vec3::splat(3.0));
        assert_eq!(a.mix(&b, 0.0).translation, a.translation);
        let middle = a.mix(&b, 0.25);
        assert!(middle.translation.abs_diff_eq(Vec3::X, 1e-6));
        assert!(middle.scale.abs_diff_eq(Vec3::splat(1.5), 1e-6));
        // Shortest path although b's quaternion has the opposite sign.
        assert!(middle.rotation.dot(Quat::from_rotation_y(0.4)).abs() > 1.0 - 1e-6);
        let end = a.mix(&b, 1.0);
        assert!(end.rotation.dot(b.rotation).abs() > 1.0 - 1e-6);
    }
}
