//! Linear blend skinning over an [`InfluenceSplit`]: one kernel per influence count, chunks
//! spread over the skinning [`Workers`] for big primitives.
//!
//! Results equal [`skin_linear`](super::linear::skin_linear)'s positions, and its normals up to
//! length: normals here are the normal matrix (the blended matrix's cofactor, as
//! `shaders/skinning.wgsl` computes it) times the bind normal, *not* renormalised. The mesh
//! shader normalises per fragment after interpolating, exactly as it does with the normals
//! its own GPU skinning passes on, so the picture is the same; consumers that need unit
//! normals (the OBJ export) normalise them. Tangents are not written: primitives with
//! tangents take `skin_linear`.

use glam::{Mat3A, Mat4, Vec3, Vec3A};

use super::linear::{BindVertices, Influences, SkinnedVertices};
use super::palette::normal_matrix;
use super::split::{Chunk, Group, InfluenceSplit, RigidRun};
use super::workers::Workers;

/// Skins the positions and normals of every vertex of `split` (made from `influences`, whose
/// joint indices are all below `palette.len()`). `normal_palette` holds
/// `palette::normal_matrix` of each palette entry. With `workers`, chunks are shared among
/// its threads; without, this thread skins them all.
pub fn skin_linear_split(
    palette: &[Mat4],
    normal_palette: &[Mat3A],
    split: &InfluenceSplit,
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
    workers: Option<&Workers>,
) {
    let joints = Joints {
        palette,
        normal_palette,
        influences,
    };
    let outputs = output
        .positions
        .chunks_mut(super::split::CHUNK_VERTICES)
        .zip(output.normals.chunks_mut(super::split::CHUNK_VERTICES));
    let jobs = split.chunks.iter().zip(outputs);
    let Some(workers) = workers.filter(|w| w.threads() > 1 && split.chunks.len() > 1) else {
        for (chunk, (positions, normals)) in jobs {
            skin_chunk(&joints, chunk, &input, positions, normals);
        }
        return;
    };
    // Each thread takes the next chunk with its output slices until none are left.
    workers.for_each_item(jobs, &|(chunk, (positions, normals))| {
        skin_chunk(&joints, chunk, &input, positions, normals);
    });
}

/// What every vertex reads besides its own attributes.
struct Joints<'a> {
    palette: &'a [Mat4],
    normal_palette: &'a [Mat3A],
    /// The primitive's own influences, for vertices with more than four.
    influences: Influences<'a>,
}

/// Skins one chunk into its slices of the outputs (`positions` and `normals` start at its
/// first vertex).
fn skin_chunk(joints: &Joints, chunk: &Chunk, input: &BindVertices, positions: &mut [Vec3], normals: &mut [Vec3]) {
    let range = chunk.start..chunk.start + chunk.len;
    let bind = (&input.positions[range.clone()], &input.normals[range]);
    let out = &mut (positions, normals);
    skin_one(joints, &chunk.one, bind, out);
    skin_blended(joints.palette, &chunk.two, bind, out);
    skin_blended(joints.palette, &chunk.three, bind, out);
    skin_blended(joints.palette, &chunk.four, bind, out);
    for &vertex in &chunk.more {
        let (offset, v) = (vertex as usize, chunk.start + vertex as usize);
        let influences = &joints.influences;
        let all = influences.joints[v]
            .iter()
            .zip(&influences.weights[v])
            .chain(influences.joints_extra[v].iter().zip(&influences.weights_extra[v]));
        let matrix = all.fold(Mat4::ZERO, |sum, (&j, &w)| sum + joints.palette[j as usize] * w);
        write(&matrix, &normal_matrix(&matrix), offset, bind, out);
    }
}

/// Bind attributes in, skinned attributes out, both indexed by vertex within a chunk.
type BindSlices<'a> = (&'a [Vec3], &'a [Vec3]);
type OutSlices<'a> = (&'a mut [Vec3], &'a mut [Vec3]);

/// Runs of vertices moved rigidly by one joint: its palette and normal matrices as they are.
fn skin_one(joints: &Joints, runs: &[RigidRun], bind: BindSlices, out: &mut OutSlices) {
    for run in runs {
        let (matrix, normal_matrix) = (
            joints.palette[run.joint as usize],
            joints.normal_palette[run.joint as usize],
        );
        let range = run.start as usize..(run.start + run.len) as usize;
        let positions = out.0[range.clone()].iter_mut().zip(&bind.0[range.clone()]);
        for (out, &bind) in positions {
            *out = Vec3::from(matrix.transform_point3a(Vec3A::from(bind)));
        }
        for (out, &bind) in out.1[range.clone()].iter_mut().zip(&bind.1[range]) {
            *out = Vec3::from(normal_matrix * Vec3A::from(bind));
        }
    }
}

/// Vertices moved by `J` joints: the weighted sum of their matrices, the last weight being one
/// minus the others.
fn skin_blended<const J: usize, const W: usize>(
    palette: &[Mat4],
    group: &Group<J, W>,
    bind: BindSlices,
    out: &mut OutSlices,
) {
    let influences = group.joints.iter().zip(&group.weights);
    for (&vertex, (joints, weights)) in group.vertices.iter().zip(influences) {
        let mut matrix = Mat4::ZERO;
        let mut last = 1.0;
        for i in 0..W {
            matrix += palette[joints[i] as usize] * weights[i];
            last -= weights[i];
        }
        matrix += palette[joints[W] as usize] * last;
        write(&matrix, &normal_matrix(&matrix), vertex as usize, bind, out);
    }
}

#[inline(always)]
fn write(matrix: &Mat4, normal_matrix: &Mat3A, v: usize, bind: BindSlices, out: &mut OutSlices) {
    out.0[v] = Vec3::from(matrix.transform_point3a(Vec3A::from(bind.0[v])));
    out.1[v] = Vec3::from(*normal_matrix * Vec3A::from(bind.1[v]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::linear::skin_linear;
    use crate::skin::palette::normal_palette;
    use crate::skin::split::CHUNK_VERTICES;
    use glam::{Quat, Vec4};

    /// A palette of rotations, non-uniform scales (one mirroring) and translations.
    fn palette() -> (Vec<Mat4>, Vec<Mat3A>) {
        let palette: Vec<Mat4> = (0..9)
            .map(|j| {
                let j = j as f32;
                let scale = Vec3::new(1.0 + j * 0.1, if j == 4.0 { -1.0 } else { 1.0 }, 0.8);
                Mat4::from_scale_rotation_translation(scale, Quat::from_rotation_y(j * 0.4), Vec3::new(j, -j, 0.5))
            })
            .collect();
        let mut normals = vec![Mat3A::ZERO; palette.len()];
        normal_palette(&palette, &mut normals);
        (palette, normals)
    }

    /// `vertices` vertices cycling through one to eight influences (weights summing to 1).
    struct Mesh {
        positions: Vec<Vec3>,
        normals: Vec<Vec3>,
        joints: Vec<[u16; 4]>,
        weights: Vec<[f32; 4]>,
        joints_extra: Vec<[u16; 4]>,
        weights_extra: Vec<[f32; 4]>,
    }

    impl Mesh {
        fn new(vertices: usize) -> Self {
            let mut mesh = Mesh {
                positions: (0..vertices)
                    .map(|v| Vec3::new(v as f32 * 0.01, 1.0, -((v % 7) as f32)))
                    .collect(),
                normals: (0..vertices)
                    .map(|v| Vec3::new(1.0, v as f32 % 3.0, 0.5).normalize())
                    .collect(),
                joints: vec![[0; 4]; vertices],
                weights: vec![[0.0; 4]; vertices],
                joints_extra: vec![[0; 4]; vertices],
                weights_extra: vec![[0.0; 4]; vertices],
            };
            for v in 0..vertices {
                let count = v % 8 + 1;
                for i in 0..count {
                    let (joint, weight) = (((v + i * 2) % 9) as u16, 1.0 / count as f32);
                    if i < 4 {
                        (mesh.joints[v][i], mesh.weights[v][i]) = (joint, weight);
                    } else {
                        (mesh.joints_extra[v][i - 4], mesh.weights_extra[v][i - 4]) = (joint, weight);
                    }
                }
            }
            mesh
        }

        fn influences(&self) -> Influences<'_> {
            Influences {
                joints: &self.joints,
                weights: &self.weights,
                joints_extra: &self.joints_extra,
                weights_extra: &self.weights_extra,
            }
        }

        fn bind(&self) -> BindVertices<'_> {
            BindVertices {
                positions: &self.positions,
                normals: &self.normals,
                tangents: &[],
            }
        }

        /// Positions and normals by the split kernels.
        fn skin_split(&self, workers: Option<&Workers>) -> (Vec<Vec3>, Vec<Vec3>) {
            let (palette, normal_palette) = palette();
            let split = InfluenceSplit::new(self.influences());
            let mut out = (
                vec![Vec3::NAN; self.positions.len()],
                vec![Vec3::NAN; self.positions.len()],
            );
            let output = SkinnedVertices {
                positions: &mut out.0,
                normals: &mut out.1,
                tangents: &mut [],
            };
            skin_linear_split(
                &palette,
                &normal_palette,
                &split,
                self.influences(),
                self.bind(),
                output,
                workers,
            );
            out
        }
    }

    #[test]
    fn matches_the_general_kernel_for_every_influence_count() {
        let mesh = Mesh::new(CHUNK_VERTICES + 100);
        let (palette, normal_palette) = palette();
        let mut expected = (
            vec![Vec3::ZERO; mesh.positions.len()],
            vec![Vec3::ZERO; mesh.positions.len()],
        );
        let output = SkinnedVertices {
            positions: &mut expected.0,
            normals: &mut expected.1,
            tangents: &mut [],
        };
        skin_linear(&palette, &normal_palette, mesh.influences(), mesh.bind(), output);
        let (positions, normals) = mesh.skin_split(None);
        for v in 0..positions.len() {
            assert!(
                positions[v].abs_diff_eq(expected.0[v], 1e-4),
                "vertex {v}: {} {}",
                positions[v],
                expected.0[v]
            );
            // Same direction; the length is the normal matrix's, not one.
            let unit = normals[v].normalize();
            assert!(
                unit.abs_diff_eq(expected.1[v], 1e-4),
                "vertex {v}: {unit} {}",
                expected.1[v]
            );
        }
    }

    #[test]
    fn normals_are_the_normal_matrix_times_the_bind_normal() {
        let mesh = Mesh::new(8);
        let (palette, normal_palette) = palette();
        let (_, normals) = mesh.skin_split(None);
        // Vertex 0 has one influence (joint 0, scaled 1 × 1 × 0.8): its normal matrix as it is.
        let expected = Vec3::from(normal_palette[0] * Vec3A::from(mesh.normals[0]));
        assert!(normals[0].abs_diff_eq(expected, 1e-6));
        assert!((normals[0].length() - 1.0).abs() > 0.01, "not renormalised");
        // Vertex 1 blends joints 1 and 3 equally: the blended matrix's normal matrix.
        let blended = (palette[1] + palette[3]) * 0.5;
        let expected = Vec3::from(normal_matrix(&blended) * Vec3A::from(mesh.normals[1]));
        assert!(normals[1].abs_diff_eq(expected, 1e-5), "{} {expected}", normals[1]);
    }

    #[test]
    fn threads_give_the_same_result_in_the_same_order() {
        let mesh = Mesh::new(CHUNK_VERTICES * 5 + 3);
        let workers = Workers::new(3);
        assert_eq!(mesh.skin_split(Some(&workers)), mesh.skin_split(None));
    }

    #[test]
    fn tangents_are_left_alone() {
        let mesh = Mesh::new(4);
        let (palette, normal_palette) = palette();
        let split = InfluenceSplit::new(mesh.influences());
        let mut tangents = [Vec4::ONE; 4];
        let (mut positions, mut normals) = ([Vec3::ZERO; 4], [Vec3::ZERO; 4]);
        let output = SkinnedVertices {
            positions: &mut positions,
            normals: &mut normals,
            tangents: &mut tangents,
        };
        skin_linear_split(
            &palette,
            &normal_palette,
            &split,
            mesh.influences(),
            mesh.bind(),
            output,
            None,
        );
        assert_eq!(tangents, [Vec4::ONE; 4]);
    }
}
