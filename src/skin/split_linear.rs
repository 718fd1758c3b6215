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

use glam::{Mat3A, Mat4, Vec3, Vec3A, Vec4};

use super::linear::{BindVertices, Influences, SkinnedVertices};
use super::palette::{AffineRows, PaletteRows};
use super::split::{Chunk, Group, InfluenceSplit, RigidRun};
use super::vertex_registers::{AffineRegisters, StepMatrices, Vec3Registers, VertexRegister};
use super::workers::Workers;
use crate::simd;
#[cfg(target_arch = "x86_64")]
use crate::simd::Avx8;

/// What the kernels read per palette joint: its matrix, normal matrix and rows, all three
/// derived from the same palette this frame and as long as it (rigid vertices read the first
/// two, blended ones the rows).
#[derive(Clone, Copy)]
pub struct LinearPalette<'a> {
    pub matrices: &'a [Mat4],
    /// `palette::normal_matrix` of each matrix.
    pub normals: &'a [Mat3A],
    /// `palette::row_palette` of the matrices.
    pub rows: &'a [PaletteRows],
}

/// Skins the positions and normals of every vertex of `split` (made from `influences`, whose
/// joint indices are all below the palette's joint count). With `workers`, chunks are shared among
/// its threads; without, this thread skins them all.
pub fn skin_linear_split(
    palette: LinearPalette,
    split: &InfluenceSplit,
    influences: Influences,
    input: BindVertices,
    output: SkinnedVertices,
    workers: Option<&Workers>,
) {
    let joints = Joints { palette, influences };
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
    palette: LinearPalette<'a>,
    /// The primitive's own influences, for vertices with more than four.
    influences: Influences<'a>,
}

simd::dispatch! {
    /// Skins one chunk into its slices of the outputs (`positions` and `normals` start at its
    /// first vertex), eight blended vertices at a time in 256-bit registers, products and sums
    /// fused, where the processor has AVX and FMA; four at a time in SSE's registers elsewhere.
    fn skin_chunk(
        joints: &Joints,
        chunk: &Chunk,
        input: &BindVertices,
        positions: &mut [Vec3],
        normals: &mut [Vec3],
    ) [baseline: skin_chunk_baseline, avx] {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx) = avx {
            let lanes = Avx8::pair(avx, Vec4::ZERO, Vec4::ZERO);
            return skin_chunk_with(lanes, joints, chunk, input, positions, normals);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = avx;
        skin_chunk_with(Vec4::ZERO, joints, chunk, input, positions, normals);
    }
}

/// `skin_chunk` with blended vertices in registers of `lanes`'s kind: always inlined, so
/// compiled for the features of its caller.
#[inline(always)]
fn skin_chunk_with<R: VertexRegister<Q>, const Q: usize>(
    lanes: R,
    joints: &Joints,
    chunk: &Chunk,
    input: &BindVertices,
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) {
    let range = chunk.start..chunk.start + chunk.len;
    let bind = (&input.positions[range.clone()], &input.normals[range]);
    let out = &mut (positions, normals);
    let palette = &joints.palette;
    skin_one(palette, &chunk.one, bind, out);
    skin_blended(lanes, palette, &chunk.two, bind, out);
    skin_blended(lanes, palette, &chunk.three, bind, out);
    skin_blended(lanes, palette, &chunk.four, bind, out);
    for &vertex in &chunk.more {
        let (offset, v) = (vertex as usize, chunk.start + vertex as usize);
        let influences = &joints.influences;
        let all = influences.joints[v]
            .iter()
            .zip(&influences.weights[v])
            .chain(influences.joints_extra[v].iter().zip(&influences.weights_extra[v]));
        let matrix = all.fold(Mat4::ZERO, |sum, (&j, &w)| sum + palette.matrices[j as usize] * w);
        out.0[offset] = Vec3::from(matrix.transform_point3a(Vec3A::from(bind.0[offset])));
        out.1[offset] = Vec3::from(normal_matrix_times(&matrix, Vec3A::from(bind.1[offset])));
    }
}

/// Bind attributes in, skinned attributes out, both indexed by vertex within a chunk.
type BindSlices<'a> = (&'a [Vec3], &'a [Vec3]);
type OutSlices<'a> = (&'a mut [Vec3], &'a mut [Vec3]);

/// Runs of vertices moved rigidly by one joint: its palette and normal matrices as they are.
#[inline(always)]
fn skin_one(palette: &LinearPalette, runs: &[RigidRun], bind: BindSlices, out: &mut OutSlices) {
    for run in runs {
        let (matrix, normal_matrix) = (
            palette.matrices[run.joint as usize],
            palette.normals[run.joint as usize],
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

/// Vertices moved by `J` joints: the weighted sum of their matrices. `4 × Q` vertices at a
/// time (see `skin_step`); the last ones are padded with copies of the last, whose results
/// land on it again.
///
/// Panics if the group's vertices or joints reach past the chunk or the palette (never for a
/// split made from the same influences as the palette's skin).
#[inline(always)]
fn skin_blended<R: VertexRegister<Q>, const Q: usize, const J: usize>(
    lanes: R,
    palette: &LinearPalette,
    group: &Group<J>,
    bind: BindSlices,
    out: &mut OutSlices,
) {
    // All four slices as long as the chunk, so that one check of the group's vertices covers them.
    let len = bind.0.len();
    let bind = (bind.0, &bind.1[..len]);
    let out = &mut (&mut out.0[..len], &mut out.1[..len]);
    assert!(group.vertex_end() <= len, "a blended vertex past the chunk's end");
    assert!(
        group.joint_end() <= palette.rows.len(),
        "a blended vertex's joint past the palette"
    );
    let (vertices, joints, weights) = (group.vertices(), group.joints(), group.weights());
    let whole = whole_steps::<_, Q>(vertices);
    let steps = whole.iter().zip(whole_steps(joints)).zip(whole_steps(weights));
    for ((vertices, joints), weights) in steps {
        // SAFETY: every vertex of the group is below `len` and every joint below the rows'
        // length (checked above; `Group` keeps both below its ends).
        unsafe { skin_step(lanes, palette.rows, vertices, joints, weights, bind, out) };
    }
    let done = whole.len() * 4 * Q;
    if group.len() > done {
        let (vertices, joints, weights) = (
            padded_step(&vertices[done..]),
            padded_step(&joints[done..]),
            padded_step(&weights[done..]),
        );
        // SAFETY: as above; the padding repeats the group's own values.
        unsafe { skin_step(lanes, palette.rows, &vertices, &joints, &weights, bind, out) };
    }
}

/// `values` in steps of `4 × Q`, leaving out the last partial step.
#[inline(always)]
fn whole_steps<T, const Q: usize>(values: &[T]) -> &[[[T; 4]; Q]] {
    values.as_chunks::<4>().0.as_chunks::<Q>().0
}

/// One to `4 × Q - 1` values as a step, padded with copies of the last.
#[inline(always)]
fn padded_step<T: Copy, const Q: usize>(values: &[T]) -> [[T; 4]; Q] {
    let last = values.len() - 1;
    std::array::from_fn(|g| std::array::from_fn(|k| values[(g * 4 + k).min(last)]))
}

/// `4 × Q` vertices moved by `J` joints each: each one's matrix blended as three rows, then
/// transposed so that positions and cofactor normals are computed for all of them at once,
/// one register per coordinate: one instruction does the same product for every vertex.
///
/// # Safety
///
/// Every vertex is below the length of all four slices of `bind` and `out`, and every joint
/// below `rows.len()`.
#[inline(always)]
unsafe fn skin_step<R: VertexRegister<Q>, const Q: usize, const J: usize>(
    lanes: R,
    rows: &[PaletteRows],
    vertices: &[[u16; 4]; Q],
    joints: &[[[u16; J]; 4]; Q],
    weights: &[[[f32; J]; 4]; Q],
    bind: BindSlices,
    out: &mut OutSlices,
) {
    let influences = StepInfluences {
        lanes,
        rows,
        joints,
        weights,
    };
    let matrices = AffineRegisters::from_rows(lanes, &influences);
    // SAFETY: the vertices are in bounds of all four slices (the caller's promise).
    unsafe {
        let position = matrices.transform_point(Vec3Registers::gather(lanes, bind.0, vertices));
        let normal = matrices.normal_times(Vec3Registers::gather(lanes, bind.1, vertices));
        position.scatter(out.0, vertices);
        normal.scatter(out.1, vertices);
    }
}

/// A step's vertices' joints and weights, and the palette rows they blend. Made only by
/// `skin_step`, whose caller promises that every joint is below `rows.len()`.
struct StepInfluences<'a, R, const Q: usize, const J: usize> {
    lanes: R,
    rows: &'a [PaletteRows],
    joints: &'a [[[u16; J]; 4]; Q],
    weights: &'a [[[f32; J]; 4]; Q],
}

impl<R: VertexRegister<Q>, const Q: usize, const J: usize> StepMatrices for StepInfluences<'_, R, Q, J> {
    /// `Σ weights[i] · rows[joints[i]]`, starting from the first term rather than from zero
    /// (one addition less per row).
    #[inline(always)]
    fn rows(&self, g: usize, k: usize) -> AffineRows {
        let (joints, weights) = (&self.joints[g][k], &self.weights[g][k]);
        // SAFETY: every joint is below `rows.len()` (see the type).
        let row = |joint: u16| unsafe { self.rows.get_unchecked(usize::from(joint)).0 };
        let [x, y, z] = row(joints[0]);
        let mut sum = [x * weights[0], y * weights[0], z * weights[0]];
        for (&joint, &weight) in joints[1..].iter().zip(&weights[1..]) {
            sum = plus_weighted(self.lanes, sum, row(joint), weight);
        }
        sum
    }
}

/// `sum + rows · weight`, fused where the registers' kind fuses.
#[inline(always)]
fn plus_weighted<R: VertexRegister<Q>, const Q: usize>(
    lanes: R,
    sum: AffineRows,
    rows: AffineRows,
    weight: f32,
) -> AffineRows {
    let weight = Vec4::splat(weight);
    [
        lanes.mul_add_vec4(rows[0], weight, sum[0]),
        lanes.mul_add_vec4(rows[1], weight, sum[1]),
        lanes.mul_add_vec4(rows[2], weight, sum[2]),
    ]
}

/// `normal_matrix(matrix) * n` in two cross products instead of three and a matrix product:
/// with columns `c0, c1, c2` and `n = (x, y, z)`, the cofactor times `n` is
/// `x (c1 × c2) + y (c2 × c0) + z (c0 × c1) = c1 × (x c2 − z c0) + y (c2 × c0)`, and the
/// determinant `c0 · (c1 × c2) = c1 · (c2 × c0)` reuses the second cross product. Negated
/// where the determinant is negative, as `normal_matrix` is.
#[inline(always)]
fn normal_matrix_times(matrix: &Mat4, n: Vec3A) -> Vec3A {
    let c0 = Vec3A::from_vec4(matrix.x_axis);
    let c1 = Vec3A::from_vec4(matrix.y_axis);
    let c2 = Vec3A::from_vec4(matrix.z_axis);
    let c2_c0 = c2.cross(c0);
    let normal = c1.cross(c2 * n.x - c0 * n.z) + c2_c0 * n.y;
    if c1.dot(c2_c0) < 0.0 { -normal } else { normal }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skin::linear::skin_linear;
    use crate::skin::palette::{normal_matrix, normal_palette, normals_and_rows};
    use crate::skin::split::CHUNK_VERTICES;
    use glam::Quat;

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

    /// A palette's normal matrices and rows.
    struct DerivedPalettes {
        normals: Vec<Mat3A>,
        rows: Vec<PaletteRows>,
    }

    impl DerivedPalettes {
        fn of(palette: &[Mat4]) -> Self {
            let (normals, rows) = normals_and_rows(palette);
            DerivedPalettes { normals, rows }
        }

        fn palette<'a>(&'a self, matrices: &'a [Mat4]) -> LinearPalette<'a> {
            LinearPalette {
                matrices,
                normals: &self.normals,
                rows: &self.rows,
            }
        }
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

        /// Positions and normals by the split kernels, over the test palette.
        fn skin_split(&self, workers: Option<&Workers>) -> (Vec<Vec3>, Vec<Vec3>) {
            self.skin_split_over(&palette().0, workers)
        }

        /// Positions and normals by the split kernels, over `palette`.
        fn skin_split_over(&self, palette: &[Mat4], workers: Option<&Workers>) -> (Vec<Vec3>, Vec<Vec3>) {
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
            let derived = DerivedPalettes::of(palette);
            skin_linear_split(
                derived.palette(palette),
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

    /// xorshift64: reproducible random inputs without a dependency.
    struct Random(u64);

    impl Random {
        /// Uniform in `[low, high)`.
        fn range(&mut self, low: f32, high: f32) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            low + (high - low) * (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }

        fn vec3(&mut self, half: f32) -> Vec3 {
            Vec3::new(
                self.range(-half, half),
                self.range(-half, half),
                self.range(-half, half),
            )
        }
    }

    #[test]
    fn matches_a_per_vertex_reference_over_random_inputs() {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        // 13 joints (not a multiple of 4): rotations, non-uniform scales, some mirroring.
        let palette: Vec<Mat4> = (0..13)
            .map(|_| {
                let axis = random.vec3(1.0).try_normalize().unwrap_or(Vec3::Y);
                let rotation = Quat::from_axis_angle(axis, random.range(-3.1, 3.1));
                let flip = |r: &mut Random| if r.range(0.0, 1.0) < 0.2 { -1.0 } else { 1.0 };
                let scale = Vec3::new(
                    random.range(0.3, 2.0) * flip(&mut random),
                    random.range(0.3, 2.0),
                    random.range(0.3, 2.0),
                );
                Mat4::from_scale_rotation_translation(scale, rotation, random.vec3(5.0))
            })
            .collect();
        // Every influence count from one to eight, in a random order, weights summing to 1.
        let vertices = 3001;
        let mut mesh = Mesh::new(vertices);
        for v in 0..vertices {
            let count = (random.range(0.0, 8.0) as usize).min(7) + 1;
            let raw: Vec<f32> = (0..count).map(|_| random.range(0.05, 1.0)).collect();
            let sum: f32 = raw.iter().sum();
            let (mut joints, mut weights) = ([0u16; 8], [0f32; 8]);
            for i in 0..count {
                joints[i] = (random.range(0.0, 13.0) as u16).min(12);
                weights[i] = raw[i] / sum;
            }
            mesh.joints[v] = [joints[0], joints[1], joints[2], joints[3]];
            mesh.weights[v] = [weights[0], weights[1], weights[2], weights[3]];
            mesh.joints_extra[v] = [joints[4], joints[5], joints[6], joints[7]];
            mesh.weights_extra[v] = [weights[4], weights[5], weights[6], weights[7]];
            mesh.positions[v] = random.vec3(2.0);
            mesh.normals[v] = random.vec3(1.0).try_normalize().unwrap_or(Vec3::Z);
        }
        let out = mesh.skin_split_over(&palette, None);
        for v in 0..vertices {
            let all = mesh.joints[v]
                .iter()
                .chain(&mesh.joints_extra[v])
                .zip(mesh.weights[v].iter().chain(&mesh.weights_extra[v]));
            let matrix = all.fold(Mat4::ZERO, |sum, (&j, &w)| sum + palette[j as usize] * w);
            let position = matrix.transform_point3(mesh.positions[v]);
            let normal = Vec3::from(normal_matrix(&matrix) * Vec3A::from(mesh.normals[v]));
            let close = |a: Vec3, b: Vec3| (a - b).length() <= 2e-5 * (1.0 + b.length());
            assert!(close(out.0[v], position), "vertex {v}: {} {position}", out.0[v]);
            assert!(close(out.1[v], normal), "vertex {v}: {} {normal}", out.1[v]);
        }
    }

    #[test]
    fn groups_of_every_length_match_the_reference() {
        let (palette, _) = palette();
        for count in 2..=4 {
            // Zero to seventeen vertices: whole steps of four and of eight (one and two), and
            // padded rests of one to seven.
            for vertices in 0..18 {
                let mut mesh = Mesh::new(vertices);
                for v in 0..vertices {
                    let weights = [0.4, 0.3, 0.2, 0.1].map(|w| w * 4.0 / count as f32);
                    mesh.joints[v] = [0, 1, 2, 3].map(|i| ((v + i * 3) % 9) as u16);
                    mesh.weights[v] = std::array::from_fn(|i| if i < count { weights[i] } else { 0.0 });
                    let sum: f32 = mesh.weights[v].iter().sum();
                    mesh.weights[v] = mesh.weights[v].map(|w| w / sum);
                    mesh.joints_extra[v] = [0; 4];
                    mesh.weights_extra[v] = [0.0; 4];
                }
                let (positions, normals) = mesh.skin_split(None);
                for v in 0..vertices {
                    let all = mesh.joints[v].iter().zip(&mesh.weights[v]);
                    let matrix = all.fold(Mat4::ZERO, |sum, (&j, &w)| sum + palette[j as usize] * w);
                    let position = matrix.transform_point3(mesh.positions[v]);
                    let normal = Vec3::from(normal_matrix(&matrix) * Vec3A::from(mesh.normals[v]));
                    let context = format!("{count} influences, {vertices} vertices, vertex {v}");
                    assert!(positions[v].abs_diff_eq(position, 1e-4), "{context}");
                    assert!(normals[v].abs_diff_eq(normal, 1e-4), "{context}");
                }
            }
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

    /// The AVX build fuses multiplications and additions (one rounding where the baseline
    /// rounds twice), so it agrees with the baseline to within float rounding, not bit for bit.
    #[test]
    fn avx_build_agrees_with_the_baseline() {
        if !crate::simd::has_avx() {
            eprintln!("skipped: this processor has no AVX and FMA, so there is no AVX build to compare");
            return;
        }
        let mesh = Mesh::new(CHUNK_VERTICES + 100);
        let (palette, _) = palette();
        let derived = DerivedPalettes::of(&palette);
        let joints = Joints {
            palette: derived.palette(&palette),
            influences: mesh.influences(),
        };
        let split = InfluenceSplit::new(mesh.influences());
        let baseline = split.chunks.iter().map(|chunk| {
            let mut out = (vec![Vec3::NAN; chunk.len], vec![Vec3::NAN; chunk.len]);
            skin_chunk_with(Vec4::ZERO, &joints, chunk, &mesh.bind(), &mut out.0, &mut out.1);
            out
        });
        let (positions, normals) = mesh.skin_split(None);
        let close = |a: Vec3, b: Vec3| (a - b).length() <= 1e-5 * (1.0 + b.length());
        for (chunk, (chunk_positions, chunk_normals)) in split.chunks.iter().zip(baseline) {
            for offset in 0..chunk.len {
                let v = chunk.start + offset;
                assert!(close(positions[v], chunk_positions[offset]), "vertex {v}");
                assert!(close(normals[v], chunk_normals[offset]), "vertex {v}");
            }
        }
    }

    #[test]
    fn threads_give_the_same_result_in_the_same_order() {
        let mesh = Mesh::new(CHUNK_VERTICES * 5 + 3);
        let workers = Workers::new(3);
        assert_eq!(mesh.skin_split(Some(&workers)), mesh.skin_split(None));
    }

    /// The kernels read the palette without a bounds check per joint: a palette shorter than
    /// the split's joints must stop them before any read.
    #[test]
    #[should_panic(expected = "joint past the palette")]
    fn a_palette_shorter_than_the_joints_panics() {
        let mesh = Mesh::new(8);
        let (palette, _) = palette();
        mesh.skin_split_over(&palette[..3], None);
    }

    #[test]
    fn tangents_are_left_alone() {
        let mesh = Mesh::new(4);
        let (palette, _) = palette();
        let split = InfluenceSplit::new(mesh.influences());
        let mut tangents = [Vec4::ONE; 4];
        let (mut positions, mut normals) = ([Vec3::ZERO; 4], [Vec3::ZERO; 4]);
        let output = SkinnedVertices {
            positions: &mut positions,
            normals: &mut normals,
            tangents: &mut tangents,
        };
        let derived = DerivedPalettes::of(&palette);
        skin_linear_split(
            derived.palette(&palette),
            &split,
            mesh.influences(),
            mesh.bind(),
            output,
            None,
        );
        assert_eq!(tangents, [Vec4::ONE; 4]);
    }
}
