//! Dual-quaternion skinning (DQS; Kavan et al. 2007, with the scale handling of Kavan et al.
//! 2008): each palette matrix `A·x + t` is split into a rigid part, a unit dual quaternion
//! (rotation `R`, translation `t`), and the rest, `S = Rᵀ·A` (scale, shear, mirroring). A vertex
//! blends the `S` of its joints linearly and applies it first, in bind space, then the blended
//! and renormalised dual quaternion (each joint's taken on the first joint's hemisphere, so
//! that `q` and `-q` agree). Rotations therefore blend on the sphere and a twisting joint keeps
//! its volume where linear blend skinning collapses it ("candy wrapper").
//!
//! The result is written as one matrix per vertex and applied like linear blend skinning's,
//! so normals and tangents are handled the same way. A vertex with one influence uses its
//! palette matrix as it is: the two methods agree exactly there. `shaders/skinning.wgsl` does
//! the same on the GPU.
//!
//! Maya's blended skinning mixes the two per vertex: vertex `v` with dual-quaternion weight
//! `s` (from the file, 0 to 1) moves by `(1 − s)·L + s·D`, `L` its linear blend matrix and `D`
//! its dual-quaternion one, so its position is the same mix of the two methods' positions (as
//! Maya and ufbx's `ufbx_get_skin_vertex_matrix` compute it); its normal follows the mixed
//! matrix.

use glam::{Mat3A, Mat4, Quat, Vec4};

use super::linear::{BindVertices, Influences, SkinnedVertices, linear_blend, skin_each};

/// One palette entry, split for blending.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualQuatJoint {
    /// The rotation, as xyzw.
    real: Vec4,
    /// Half the translation times the rotation (`½·t·r`), as xyzw.
    dual: Vec4,
    /// What the rotation leaves of the matrix's 3x3 part.
    stretch: Mat3A,
}

impl Default for DualQuatJoint {
    fn default() -> Self {
        Self {
            real: Vec4::W,
            dual: Vec4::ZERO,
            stretch: Mat3A::IDENTITY,
        }
    }
}

impl DualQuatJoint {
    pub fn from_matrix(matrix: &Mat4) -> Self {
        let (_, rotation, translation) = matrix.to_scale_rotation_translation();
        let rotation = if rotation.is_finite() {
            rotation.normalize()
        } else {
            Quat::IDENTITY
        };
        let dual = Quat::from_xyzw(translation.x, translation.y, translation.z, 0.0) * rotation * 0.5;
        Self {
            real: Vec4::from(rotation),
            dual: Vec4::from(dual),
            stretch: Mat3A::from_quat(rotation.conjugate()) * Mat3A::from_mat4(*matrix),
        }
    }
}

/// Splits every palette matrix for blending (no allocation: `out` has one entry per joint).
pub fn dual_quat_palette(palette: &[Mat4], out: &mut [DualQuatJoint]) {
    for (joint, matrix) in out.iter_mut().zip(palette) {
        *joint = DualQuatJoint::from_matrix(matrix);
    }
}

/// The matrix a vertex with these influences moves by: blended stretch, then the blended
/// rigid motion.
fn blend(joints: &[DualQuatJoint], influences: impl Iterator<Item = (usize, f32)>) -> Mat4 {
    let (mut real, mut dual, mut stretch) = (Vec4::ZERO, Vec4::ZERO, Mat3A::ZERO);
    let mut pivot = None;
    for (joint, weight) in influences {
        let joint = &joints[joint];
        let pivot = *pivot.get_or_insert(joint.real);
        // q and -q are the same rotation: blend them on one hemisphere.
        let weight_signed = if joint.real.dot(pivot) < 0.0 { -weight } else { weight };
        real += joint.real * weight_signed;
        dual += joint.dual * weight_signed;
        stretch += joint.stretch * weight;
    }
    let length = real.length().max(f32::MIN_POSITIVE);
    let (real, dual) = (Quat::from_vec4(real / length), Quat::from_vec4(dual / length));
    let translation = (dual * real.conjugate() * 2.0).xyz();
    let rigid = Mat3A::from_quat(real) * stretch;
    Mat4::from_cols(
        rigid.x_axis.extend(0.0),
        rigid.y_axis.extend(0.0),
        rigid.z_axis.extend(0.0),
        translation.extend(1.0),
    )
}

/// Skins every vertex by dual quaternions. `palette` and `normal_palette` (as for
/// `skin_linear`) give single-influence vertices their matrices unchanged; `joints` is
/// `dual_quat_palette(palette)`. Joint indices must be below the palette's length (the loader
/// drops influences that are not).
#[cfg(any(test, feature = "internals"))]
pub fn skin_dual_quat(
    palette: &[Mat4],
    normal_palette: &[Mat3A],
    joints: &[DualQuatJoint],
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
) {
    skin_dual_quat_blended(palette, normal_palette, joints, &[], influences, input, output);
}

/// Skins every vertex by dual quaternions mixed with linear blend skinning per vertex (Maya's
/// blended skinning, see the module's docs): `dual_quat_weights[v]` is vertex `v`'s share of
/// dual quaternions, 1 for vertices past its end (all of them when it is empty: plain
/// dual-quaternion skinning). Otherwise as `skin_dual_quat`.
pub fn skin_dual_quat_blended(
    palette: &[Mat4],
    normal_palette: &[Mat3A],
    joints: &[DualQuatJoint],
    dual_quat_weights: &[f32],
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
) {
    let has_extra = !influences.joints_extra.is_empty();
    skin_each(
        palette,
        normal_palette,
        influences,
        input,
        output,
        |v, indices, weights| {
            let first = indices.into_iter().zip(weights);
            let extra = has_extra.then(|| influences.joints_extra[v].into_iter().zip(influences.weights_extra[v]));
            let all = first.chain(extra.into_iter().flatten());
            let dual_quat = blend(joints, all.filter(|(_, w)| *w != 0.0).map(|(j, w)| (j as usize, w)));
            match dual_quat_weights.get(v) {
                Some(&share) if share < 1.0 => {
                    linear_blend(palette, &influences, v, indices, weights) * (1.0 - share) + dual_quat * share
                }
                _ => dual_quat,
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::linear::skin_linear;
    use crate::skin::palette::normal_palette;
    use glam::Vec3;
    use std::f32::consts::PI;

    /// A point moved by one joint alone, through the blend.
    fn transform(joint: &DualQuatJoint, point: Vec3) -> Vec3 {
        blend(std::slice::from_ref(joint), [(0, 1.0)].into_iter()).transform_point3(point)
    }

    #[test]
    fn a_joint_splits_into_rigid_motion_and_stretch_and_back() {
        for matrix in [
            Mat4::from_rotation_translation(Quat::from_rotation_y(2.0), Vec3::new(1.0, 2.0, 3.0)),
            Mat4::from_scale_rotation_translation(Vec3::new(2.0, 0.5, 1.0), Quat::from_rotation_x(0.7), Vec3::Y),
            Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)) * Mat4::from_rotation_z(0.3),
        ] {
            let joint = DualQuatJoint::from_matrix(&matrix);
            for point in [Vec3::ZERO, Vec3::X, Vec3::new(0.3, -2.0, 5.0)] {
                assert!(
                    transform(&joint, point).distance(matrix.transform_point3(point)) < 1e-5,
                    "{matrix}"
                );
            }
        }
    }

    /// A cylinder of radius 1 along Y from 0 to 2, in `rings` rings of 16 vertices, weighted
    /// from joint 0 at the bottom to joint 1 at the top.
    fn cylinder(rings: usize) -> (Vec<Vec3>, Vec<[u16; 4]>, Vec<[f32; 4]>) {
        let mut positions = Vec::new();
        let mut weights = Vec::new();
        for ring in 0..rings {
            let t = ring as f32 / (rings - 1) as f32;
            for i in 0..16 {
                let angle = i as f32 / 16.0 * 2.0 * PI;
                positions.push(Vec3::new(angle.cos(), 2.0 * t, angle.sin()));
                weights.push([1.0 - t, t, 0.0, 0.0]);
            }
        }
        let joints = vec![[0, 1, 0, 0]; positions.len()];
        (positions, joints, weights)
    }

    fn skin(palette: &[Mat4], dual_quaternion: bool, rings: usize) -> Vec<Vec3> {
        let (positions, joints, weights) = cylinder(rings);
        let normals = vec![Vec3::X; positions.len()];
        let (mut out_p, mut out_n) = (vec![Vec3::ZERO; positions.len()], vec![Vec3::ZERO; positions.len()]);
        let influences = Influences {
            joints: &joints,
            weights: &weights,
            joints_extra: &[],
            weights_extra: &[],
        };
        let input = BindVertices {
            positions: &positions,
            normals: &normals,
            tangents: &[],
        };
        let output = SkinnedVertices {
            positions: &mut out_p,
            normals: &mut out_n,
            tangents: &mut [],
        };
        let mut normal_matrices = vec![Mat3A::IDENTITY; palette.len()];
        normal_palette(palette, &mut normal_matrices);
        if dual_quaternion {
            let mut split = vec![DualQuatJoint::default(); palette.len()];
            dual_quat_palette(palette, &mut split);
            skin_dual_quat(palette, &normal_matrices, &split, influences, input, output);
        } else {
            skin_linear(palette, &normal_matrices, influences, input, output);
        }
        out_p
    }

    #[test]
    fn dqs_matches_lbs_when_the_joints_move_rigidly_together() {
        let motion = Mat4::from_rotation_translation(Quat::from_rotation_z(1.1), Vec3::new(0.5, -1.0, 2.0));
        let (lbs, dqs) = (skin(&[motion, motion], false, 9), skin(&[motion, motion], true, 9));
        for (a, b) in lbs.iter().zip(&dqs) {
            assert!(a.distance(*b) < 1e-5, "{a} {b}");
        }
    }

    #[test]
    fn a_twist_keeps_its_volume_under_dqs_and_collapses_under_lbs() {
        // The top turns 160° about the cylinder's axis.
        let twist = Mat4::from_rotation_y(160f32.to_radians());
        let palette = [Mat4::IDENTITY, twist];
        // Radius from the axis (x, z), over the middle ring (ring 4 of 9, weights 0.5/0.5).
        let radius = |positions: &[Vec3]| {
            positions[4 * 16..5 * 16]
                .iter()
                .map(|p| Vec3::new(p.x, 0.0, p.z).length())
                .sum::<f32>()
                / 16.0
        };
        let (lbs, dqs) = (skin(&palette, false, 9), skin(&palette, true, 9));
        assert!(radius(&lbs) < 0.2, "LBS collapses the middle: radius {}", radius(&lbs));
        assert!(
            (radius(&dqs) - 1.0).abs() < 1e-4,
            "DQS keeps it: radius {}",
            radius(&dqs)
        );
        // Heights are unchanged by a twist about the axis.
        for (a, b) in dqs.iter().zip(cylinder(9).0) {
            assert!((a.y - b.y).abs() < 1e-5);
        }
    }

    /// Vertices skinned by `palette` with blended skinning: each `(position, joints, weights,
    /// dual-quaternion weight)`.
    fn skin_blended(palette: &[Mat4], vertices: &[(Vec3, [u16; 4], [f32; 4])], shares: &[f32]) -> Vec<Vec3> {
        let positions: Vec<Vec3> = vertices.iter().map(|v| v.0).collect();
        let joints: Vec<[u16; 4]> = vertices.iter().map(|v| v.1).collect();
        let weights: Vec<[f32; 4]> = vertices.iter().map(|v| v.2).collect();
        let normals = vec![Vec3::X; positions.len()];
        let (mut out_p, mut out_n) = (vec![Vec3::ZERO; positions.len()], vec![Vec3::ZERO; positions.len()]);
        let mut normal_matrices = vec![Mat3A::IDENTITY; palette.len()];
        normal_palette(palette, &mut normal_matrices);
        let mut split = vec![DualQuatJoint::default(); palette.len()];
        dual_quat_palette(palette, &mut split);
        skin_dual_quat_blended(
            palette,
            &normal_matrices,
            &split,
            shares,
            Influences {
                joints: &joints,
                weights: &weights,
                joints_extra: &[],
                weights_extra: &[],
            },
            BindVertices {
                positions: &positions,
                normals: &normals,
                tangents: &[],
            },
            SkinnedVertices {
                positions: &mut out_p,
                normals: &mut out_n,
                tangents: &mut [],
            },
        );
        out_p
    }

    #[test]
    fn blended_skinning_mixes_the_two_methods_per_vertex_by_its_weight() {
        // Joint 1 turns 90° about +Z around (0, 1, 0). A point (0.2, 1, 0.5) held half by each
        // joint: linear blend puts it half-way between where the joints take it, (0.1, 1.1),
        // dual quaternions turn it 45° around the pivot, (0.2·cos 45°, 1 + 0.2·sin 45°); a
        // vertex with dual-quaternion weight s is the mix (1 − s)·linear + s·dual quaternion.
        let pivot = Vec3::Y;
        let turn =
            Mat4::from_translation(pivot) * Mat4::from_rotation_z(90f32.to_radians()) * Mat4::from_translation(-pivot);
        let palette = [Mat4::IDENTITY, turn];
        let point = Vec3::new(0.2, 1.0, 0.5);
        let halves = (point, [0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]);
        let only_joint_1 = (point, [1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]);
        let vertices = [halves, halves, halves, only_joint_1, halves];
        let skinned = skin_blended(&palette, &vertices, &[0.0, 0.25, 1.0, 0.5]);
        let linear = Vec3::new(0.1, 1.1, 0.5);
        let diagonal = 0.2 * std::f32::consts::FRAC_1_SQRT_2;
        let dual_quat = Vec3::new(diagonal, 1.0 + diagonal, 0.5);
        let expected = [
            linear,
            0.75 * linear + 0.25 * dual_quat,
            dual_quat,
            // One influence: its joint's matrix, whatever the weight.
            Vec3::new(0.0, 1.2, 0.5),
            // Past the weights' end: dual quaternions alone.
            dual_quat,
        ];
        for (i, (actual, expected)) in skinned.iter().zip(expected).enumerate() {
            assert!(actual.distance(expected) < 1e-6, "vertex {i}: {actual}, not {expected}");
        }
        // Without weights it is plain dual-quaternion skinning.
        assert_eq!(
            skin_blended(&palette, &vertices, &[]),
            skin_blended(&palette, &vertices, &[1.0; 5])
        );
    }
}
