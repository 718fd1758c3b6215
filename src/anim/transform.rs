//! A joint's transform as translation, rotation and scale (TRS).
//!
//! A `Transform` maps points from a child's space into its parent's space:
//! `p_parent = translation + rotation * (scale * p_child)`, the same as
//! `Mat4::from_scale_rotation_translation`. Rotations are glam (Hamilton) quaternions, so
//! `a.rotation * b.rotation` applies `b` first.

use glam::{Mat3, Mat4, Quat, Vec3};

use super::quat::slerp_shortest;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// `parent.combine(child)`: the child's transform expressed in the parent's parent space.
    /// Exact when scales are uniform; with non-uniform scale under rotation the true product
    /// has shear, which TRS cannot hold (use `to_mat4` products for skinning).
    pub fn combine(&self, child: &Transform) -> Transform {
        Transform {
            translation: self.translation + self.rotation * (self.scale * child.translation),
            rotation: (self.rotation * child.rotation).normalize(),
            scale: self.scale * child.scale,
        }
    }

    /// The transform that undoes this one: `t.combine(&t.inverse())` is the identity.
    /// A zero scale component inverts to zero instead of infinity, so degenerate joints
    /// collapse instead of producing NaN.
    pub fn inverse(&self) -> Transform {
        let inv_rotation = self.rotation.inverse();
        let inv_scale = Vec3::new(
            safe_recip(self.scale.x),
            safe_recip(self.scale.y),
            safe_recip(self.scale.z),
        );
        Transform {
            translation: inv_rotation * -self.translation * inv_scale,
            rotation: inv_rotation,
            scale: inv_scale,
        }
    }

    /// Blends from `self` (t = 0) to `other` (t = 1): translation and scale linearly, rotation
    /// by slerp along the shortest path.
    pub fn mix(&self, other: &Transform, t: f32) -> Transform {
        Transform {
            translation: self.translation.lerp(other.translation, t),
            rotation: slerp_shortest(self.rotation, other.rotation, t),
            scale: self.scale.lerp(other.scale, t),
        }
    }

    /// The matrix mapping child space to parent space.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Decomposes an affine matrix. A mirroring matrix (negative determinant) gets a negative
    /// x scale, so `from_mat4(m).to_mat4() == m` for every matrix without shear.
    pub fn from_mat4(matrix: &Mat4) -> Transform {
        let (scale, rotation, translation) = matrix.to_scale_rotation_translation();
        Transform {
            translation,
            rotation: rotation.normalize(),
            scale,
        }
    }

    /// Applies the transform to a point.
    pub fn transform_point(&self, point: Vec3) -> Vec3 {
        self.translation + self.rotation * (self.scale * point)
    }

    /// Applies the transform to a direction (no translation).
    pub fn transform_vector(&self, vector: Vec3) -> Vec3 {
        self.rotation * (self.scale * vector)
    }

    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }
}

fn safe_recip(value: f32) -> f32 {
    if value.abs() < f32::EPSILON {
        0.0
    } else {
        1.0 / value
    }
}

/// True when `matrix` is affine and its upper 3×3 part has no shear, i.e. it round-trips
/// through a `Transform`.
pub fn is_trs(matrix: &Mat4, tolerance: f32) -> bool {
    let rebuilt = Transform::from_mat4(matrix).to_mat4();
    let linear = Mat3::from_mat4(*matrix);
    let magnitude = linear.x_axis.length() + linear.y_axis.length() + linear.z_axis.length() + 1.0;
    matrix.abs_diff_eq(rebuilt, tolerance * magnitude)
}
