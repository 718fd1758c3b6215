//! Local-to-model: each joint's model matrix is its parent's model matrix times its local
//! TRS matrix, one forward pass over parents-first joints.
//!
//! Two stages, as ozz-animation's `LocalToModelJob`:
//! - The local matrices are built four joints at a time in SIMD lanes (`LocalLanes`): the
//!   `Transform`s are transposed so that lane `i` holds joint `i`, and glam's own
//!   quaternion-to-matrix formula runs once for all four. The same operations in the same
//!   order as `Transform::to_mat4`, so the matrices are the same to the bit.
//! - The parent products then run joint by joint (a parent may be in the same group of four).
//!   The local matrix is affine, so its constant bottom row is skipped: three columns of three
//!   products and a translation column instead of a general 4×4 product, each local component
//!   broadcast straight from its lane.
//!
//! The result equals the per-joint `parent_model · local.to_mat4()` computed that way (a
//! general `Mat4` product differs from it only by float rounding).

use glam::{Mat4, Vec4, Vec4Swizzles};

use super::transform::Transform;
use crate::simd::transpose;

/// Writes `out[j] = out[parent(j)] · local[j]` (just `local[j]` for roots). `parents[j] < j`.
pub(super) fn local_to_model(local: &[Transform], parents: &[Option<u32>], out: &mut [Mat4]) {
    assert!(local.len() == parents.len() && local.len() == out.len());
    let mut previous = Mat4::IDENTITY;
    let (groups, rest) = local.as_chunks::<4>();
    for (index, group) in groups.iter().enumerate() {
        let lanes = LocalLanes::new(group);
        compose_group(&lanes, index * 4, 4, parents, out, &mut previous);
    }
    if !rest.is_empty() {
        // Identity transforms fill the lanes past the last joint; their results are dropped.
        let mut padded = [Transform::IDENTITY; 4];
        padded[..rest.len()].copy_from_slice(rest);
        let lanes = LocalLanes::new(&padded);
        compose_group(&lanes, groups.len() * 4, rest.len(), parents, out, &mut previous);
    }
}

/// The local matrices of four joints, one component per `Vec4` (lane `i` is joint `i`):
/// `[x, y, z]` of the three rotation-and-scale columns, then of the translation.
struct LocalLanes([[Vec4; 3]; 4]);

impl LocalLanes {
    /// glam's `Mat4::from_scale_rotation_translation` (its `quat_to_axes`, then each column
    /// times its scale), four joints at a time.
    #[inline(always)]
    fn new(group: &[Transform; 4]) -> Self {
        let [x, y, z, w] = transpose(group.map(|t| Vec4::from(t.rotation)));
        let [tx, ty, tz, sx] = transpose(group.map(|t| t.translation.extend(t.scale.x)));
        let [sy, sz, _, _] = transpose(group.map(|t| Vec4::new(t.scale.y, t.scale.z, 0.0, 0.0)));
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let one = Vec4::ONE;
        Self([
            [(one - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx],
            [(xy - wz) * sy, (one - (xx + zz)) * sy, (yz + wx) * sy],
            [(xz + wy) * sz, (yz - wx) * sz, (one - (xx + yy)) * sz],
            [tx, ty, tz],
        ])
    }
}

/// The model matrices of joints `first..first + count` (`count` ≤ 4) from their lanes.
#[inline(always)]
fn compose_group(
    lanes: &LocalLanes,
    first: usize,
    count: usize,
    parents: &[Option<u32>],
    out: &mut [Mat4],
    previous: &mut Mat4,
) {
    compose_joint::<0>(lanes, first, parents, out, previous);
    if count > 1 {
        compose_joint::<1>(lanes, first + 1, parents, out, previous);
    }
    if count > 2 {
        compose_joint::<2>(lanes, first + 2, parents, out, previous);
    }
    if count > 3 {
        compose_joint::<3>(lanes, first + 3, parents, out, previous);
    }
}

/// `out[joint] = parent · local`, the local matrix in lane `LANE`; `previous` holds
/// `out[joint - 1]` on entry and `out[joint]` on return.
#[inline(always)]
fn compose_joint<const LANE: usize>(
    lanes: &LocalLanes,
    joint: usize,
    parents: &[Option<u32>],
    out: &mut [Mat4],
    previous: &mut Mat4,
) {
    let parent = match parents[joint] {
        // A child usually follows its parent (53 of Xbot's 70 joints): its matrix is then
        // still in registers, instead of being read back from memory just after its store.
        Some(parent) if parent as usize + 1 == joint => *previous,
        // Parents-first order (checked by `Hierarchy::new`) means out[parent] is final.
        Some(parent) => out[parent as usize],
        // The identity's products give the local matrix itself.
        None => Mat4::IDENTITY,
    };
    let column = |[x, y, z]: [Vec4; 3]| {
        parent.x_axis * splat_lane::<LANE>(x)
            + parent.y_axis * splat_lane::<LANE>(y)
            + parent.z_axis * splat_lane::<LANE>(z)
    };
    let [x_axis, y_axis, z_axis, translation] = lanes.0;
    *previous = Mat4::from_cols(
        column(x_axis),
        column(y_axis),
        column(z_axis),
        column(translation) + parent.w_axis,
    );
    out[joint] = *previous;
}

/// Lane `LANE` of `v` in all four lanes (one shuffle).
#[inline(always)]
fn splat_lane<const LANE: usize>(v: Vec4) -> Vec4 {
    match LANE {
        0 => v.xxxx(),
        1 => v.yyyy(),
        2 => v.zzzz(),
        _ => v.wwww(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    /// The per-joint computation: each `Transform::to_mat4`, times the parent's model matrix
    /// as an affine product (the bottom row of the local matrix skipped).
    fn reference(local: &[Transform], parents: &[Option<u32>]) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(local.len());
        for (transform, parent) in local.iter().zip(parents) {
            let matrix = transform.to_mat4();
            out.push(match parent {
                Some(parent) => {
                    let p = &out[*parent as usize];
                    let column = |c: Vec4| p.x_axis * c.xxxx() + p.y_axis * c.yyyy() + p.z_axis * c.zzzz();
                    Mat4::from_cols(
                        column(matrix.x_axis),
                        column(matrix.y_axis),
                        column(matrix.z_axis),
                        column(matrix.w_axis) + p.w_axis,
                    )
                }
                None => matrix,
            });
        }
        out
    }

    /// A small deterministic generator (xorshift), values in [-1, 1).
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        }

        fn below(&mut self, bound: usize) -> usize {
            ((self.next() + 1.0) * 0.5 * bound as f32) as usize % bound
        }

        fn vec3(&mut self, scale: f32) -> Vec3 {
            Vec3::new(self.next(), self.next(), self.next()) * scale
        }

        /// Rotations, translations, and scales that are non-uniform, negative or zero.
        fn transform(&mut self) -> Transform {
            let axis = self.vec3(1.0).try_normalize().unwrap_or(Vec3::Y);
            let scale = match self.below(4) {
                0 => Vec3::ONE,
                1 => Vec3::splat(0.01 + self.next().abs()),
                2 => self.vec3(3.0),
                _ => Vec3::new(self.next(), 0.0, 1.0),
            };
            Transform::new(self.vec3(5.0), Quat::from_axis_angle(axis, self.next() * 3.2), scale)
        }

        /// Parents-first parents: chains, siblings, and roots anywhere in the array.
        fn parents(&mut self, count: usize) -> Vec<Option<u32>> {
            (0..count)
                .map(|joint| match self.below(5) {
                    _ if joint == 0 => None,
                    0 => None,
                    1 | 2 => Some(joint as u32 - 1),
                    _ => Some(self.below(joint) as u32),
                })
                .collect()
        }
    }

    #[test]
    fn equals_the_per_joint_product_for_any_joint_count_and_hierarchy() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        for count in (0..=13).chain([31, 64, 70, 101]) {
            for _ in 0..20 {
                let local: Vec<Transform> = (0..count).map(|_| random.transform()).collect();
                let parents = random.parents(count);
                let mut out = vec![Mat4::ZERO; count];
                local_to_model(&local, &parents, &mut out);
                assert_eq!(out, reference(&local, &parents), "{count} joints, parents {parents:?}");
            }
        }
    }

    #[test]
    fn roots_in_the_middle_and_the_last_lanes_are_their_local_matrices() {
        let mut random = Random(7);
        let local: Vec<Transform> = (0..7).map(|_| random.transform()).collect();
        let parents = [None, Some(0), None, Some(2), Some(1), None, Some(5)];
        let mut out = vec![Mat4::ZERO; 7];
        local_to_model(&local, &parents, &mut out);
        for root in [0, 2, 5] {
            assert_eq!(out[root], local[root].to_mat4(), "root {root}");
        }
        let expected = local[0].to_mat4() * local[1].to_mat4() * local[4].to_mat4();
        assert!(
            out[4].abs_diff_eq(expected, 1e-4),
            "joint 4 is under 1 under 0 (lane 0 of the tail)"
        );
        let expected = local[5].to_mat4() * local[6].to_mat4();
        assert!(
            out[6].abs_diff_eq(expected, 1e-4),
            "joint 6 follows its parent in the tail"
        );
    }
}
