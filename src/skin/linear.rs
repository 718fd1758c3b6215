//! Linear blend skinning (LBS): each vertex is moved by the weighted sum of its joints'
//! palette matrices, `v' = Σ w_i · palette[j_i] · v`.
//!
//! Normals use the blended matrix's normal matrix (`palette::normal_matrix`), so they stay
//! perpendicular to the surface under non-uniform and mirroring scale; tangents use the
//! blended matrix itself. Both are renormalised.

use glam::{Mat3A, Mat4, Vec3, Vec3A, Vec4};

use super::palette::normal_matrix;
use crate::asset::SkinWeights;

/// Per-vertex influences, four per set, strongest first (see `asset::SkinWeights`).
#[derive(Clone, Copy)]
pub struct Influences<'a> {
    pub joints: &'a [[u16; 4]],
    pub weights: &'a [[f32; 4]],
    /// Influences five to eight, or empty.
    pub joints_extra: &'a [[u16; 4]],
    pub weights_extra: &'a [[f32; 4]],
}

impl<'a> From<&'a SkinWeights> for Influences<'a> {
    fn from(weights: &'a SkinWeights) -> Self {
        Self {
            joints: &weights.joints,
            weights: &weights.weights,
            joints_extra: &weights.joints_extra,
            weights_extra: &weights.weights_extra,
        }
    }
}

/// Vertex attributes in bind space, read by the skinning kernel.
#[derive(Clone, Copy)]
pub struct BindVertices<'a> {
    pub positions: &'a [Vec3],
    pub normals: &'a [Vec3],
    /// xyz and handedness; may be empty.
    pub tangents: &'a [Vec4],
}

/// Skinned attributes, written by the kernel (same lengths as the inputs).
pub struct SkinnedVertices<'a> {
    pub positions: &'a mut [Vec3],
    pub normals: &'a mut [Vec3],
    pub tangents: &'a mut [Vec4],
}

/// Skins every vertex. `normal_palette` holds `palette::normal_matrix` of each palette entry.
/// Every joint index must be below `palette.len()` (the loader drops influences that are
/// not). Vertices whose second weight is zero take the rigid fast path: their joint's palette
/// and normal matrices are used as they are, without blending.
pub fn skin_linear(
    palette: &[Mat4],
    normal_palette: &[Mat3A],
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
) {
    skin_each(
        palette,
        normal_palette,
        influences,
        input,
        output,
        |v, joints, weights| linear_blend(palette, &influences, v, joints, weights),
    );
}

/// The matrix vertex `v` moves by under linear blend skinning: its joints' palette matrices
/// weighted (`joints` and `weights`: its first four influences; the rest from `influences`).
#[inline(always)]
pub(super) fn linear_blend(
    palette: &[Mat4],
    influences: &Influences,
    v: usize,
    joints: [u16; 4],
    weights: [f32; 4],
) -> Mat4 {
    let mut blended = palette[joints[0] as usize] * weights[0]
        + palette[joints[1] as usize] * weights[1]
        + palette[joints[2] as usize] * weights[2]
        + palette[joints[3] as usize] * weights[3];
    if let (Some(joints), Some(weights)) = (influences.joints_extra.get(v), influences.weights_extra.get(v)) {
        for i in 0..4 {
            if weights[i] != 0.0 {
                blended += palette[joints[i] as usize] * weights[i];
            }
        }
    }
    blended
}

/// The loop both skinning methods share: a vertex with one influence takes its joint's
/// palette and normal matrices as they are; one with several is moved by `blend(vertex,
/// first four joints, their weights)`, whose normal matrix is computed here.
#[inline(always)]
pub(super) fn skin_each(
    palette: &[Mat4],
    normal_palette: &[Mat3A],
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
    blend: impl Fn(usize, [u16; 4], [f32; 4]) -> Mat4,
) {
    let mut output = output;
    for v in 0..input.positions.len() {
        let (joints, weights) = (influences.joints[v], influences.weights[v]);
        let (matrix, normal_matrix) = if weights[1] == 0.0 {
            let joint = joints[0] as usize;
            (palette[joint], normal_palette[joint])
        } else {
            let blended = blend(v, joints, weights);
            (blended, normal_matrix(&blended))
        };
        write_vertex(v, &matrix, &normal_matrix, &input, &mut output);
    }
}

/// Moves every vertex by one matrix: a mesh carried rigidly by its joint.
pub fn transform_rigid(matrix: &Mat4, input: BindVertices, output: SkinnedVertices) {
    let normal_matrix = normal_matrix(matrix);
    let mut output = output;
    for v in 0..input.positions.len() {
        write_vertex(v, matrix, &normal_matrix, &input, &mut output);
    }
}

/// Transforms vertex `v`: position by `matrix`, normal by `normal_matrix`, tangent (if the
/// mesh has tangents) by `matrix`, its handedness flipped where `matrix` mirrors (the
/// bitangent `cross(normal, tangent) * w` must follow the surface, and a mirror flips a cross
/// product's direction against it).
#[inline(always)]
fn write_vertex(v: usize, matrix: &Mat4, normal_matrix: &Mat3A, input: &BindVertices, output: &mut SkinnedVertices) {
    output.positions[v] = matrix.transform_point3(input.positions[v]);
    output.normals[v] = Vec3::from(unit_or_zero(*normal_matrix * Vec3A::from(input.normals[v])));
    if let Some(&tangent) = input.tangents.get(v) {
        let direction = unit_or_zero(matrix.transform_vector3a(Vec3A::from_vec4(tangent)));
        let mirrors = Mat3A::from_mat4(*matrix).determinant() < 0.0;
        output.tangents[v] = Vec3::from(direction).extend(if mirrors { -tangent.w } else { tangent.w });
    }
}

/// `v` scaled to unit length, or zero for a zero vector; branch-free, unlike glam's
/// `normalize_or_zero`, which matters in the per-vertex loop.
#[inline]
pub fn unit_or_zero(v: Vec3A) -> Vec3A {
    v / v.length().max(f32::MIN_POSITIVE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::palette::normal_palette;

    fn normals_of(palette: &[Mat4]) -> Vec<Mat3A> {
        let mut out = vec![Mat3A::ZERO; palette.len()];
        normal_palette(palette, &mut out);
        out
    }

    #[test]
    fn blends_rigid_and_smooth_vertices() {
        let palette = [Mat4::IDENTITY, Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0))];
        let joints = [[1, 0, 0, 0], [0, 1, 0, 0]];
        let weights = [[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]];
        let positions = [Vec3::X, Vec3::X];
        let normals = [Vec3::Z, Vec3::Z];
        let tangents = [Vec4::new(1.0, 0.0, 0.0, -1.0); 2];
        let (mut out_p, mut out_n, mut out_t) = ([Vec3::ZERO; 2], [Vec3::ZERO; 2], [Vec4::ZERO; 2]);
        skin_linear(
            &palette,
            &normals_of(&palette),
            Influences {
                joints: &joints,
                weights: &weights,
                joints_extra: &[],
                weights_extra: &[],
            },
            BindVertices {
                positions: &positions,
                normals: &normals,
                tangents: &tangents,
            },
            SkinnedVertices {
                positions: &mut out_p,
                normals: &mut out_n,
                tangents: &mut out_t,
            },
        );
        assert_eq!(out_p, [Vec3::new(1.0, 2.0, 0.0), Vec3::new(1.0, 1.0, 0.0)]);
        assert_eq!(out_n, [Vec3::Z; 2]);
        assert_eq!(out_t[0].w, -1.0, "handedness is kept");
    }

    #[test]
    fn a_mirroring_matrix_flips_the_handedness_so_the_bitangent_follows_the_surface() {
        let mirror = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
        let (normal, tangent) = (Vec3::Z, Vec4::new(1.0, 0.0, 0.0, 1.0));
        let bitangent = normal.cross(tangent.truncate()) * tangent.w;
        let (mut out_p, mut out_n, mut out_t) = ([Vec3::ZERO], [Vec3::ZERO], [Vec4::ZERO]);
        transform_rigid(
            &mirror,
            BindVertices {
                positions: &[Vec3::ZERO],
                normals: &[normal],
                tangents: &[tangent],
            },
            SkinnedVertices {
                positions: &mut out_p,
                normals: &mut out_n,
                tangents: &mut out_t,
            },
        );
        let posed_bitangent = out_n[0].cross(out_t[0].truncate()) * out_t[0].w;
        assert_eq!(out_t[0], Vec4::new(-1.0, 0.0, 0.0, -1.0));
        assert_eq!(posed_bitangent, mirror.transform_vector3(bitangent));
    }

    #[test]
    fn uses_influences_five_to_eight() {
        let palette: Vec<Mat4> = (0..8)
            .map(|j| Mat4::from_translation(Vec3::new(j as f32, 0.0, 0.0)))
            .collect();
        let joints = [[0, 1, 2, 3]];
        let extra = [[4, 5, 6, 7]];
        let weights = [[0.125; 4]];
        let mut out = [Vec3::ZERO];
        skin_linear(
            &palette,
            &normals_of(&palette),
            Influences {
                joints: &joints,
                weights: &weights,
                joints_extra: &extra,
                weights_extra: &weights,
            },
            BindVertices {
                positions: &[Vec3::ZERO],
                normals: &[Vec3::Y],
                tangents: &[],
            },
            SkinnedVertices {
                positions: &mut out,
                normals: &mut [Vec3::ZERO],
                tangents: &mut [],
            },
        );
        assert!((out[0].x - 3.5).abs() < 1e-6, "mean of 0..8 is 3.5, got {}", out[0]);
    }
}
