//! CPU skinning cost, reported per vertex (criterion's throughput is vertices per second):
//! Xbot's two meshes, positions and normals, by the general linear blend kernel, the kernels
//! split by influence count, and dual quaternions; a whole model posed each way; and a
//! generated mesh of a million vertices with four influences each, split kernels on one
//! thread against every core, and at smaller sizes around the threshold where threads start
//! to pay (`skin::PARALLEL_MIN_VERTICES`).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Vec3};
use rigscope::asset::{self, SkinWeights};
use rigscope::skin::dual_quat::{DualQuatJoint, dual_quat_palette, skin_dual_quat};
use rigscope::skin::linear::Influences;
use rigscope::skin::linear::{BindVertices, SkinnedVertices, skin_linear};
use rigscope::skin::palette::{PaletteRows, normals_and_rows, skin_palette};
use rigscope::skin::split::InfluenceSplit;
use rigscope::skin::split_linear::{LinearPalette, skin_linear_split};
use rigscope::skin::workers::{self, Workers};
use rigscope::skin::{Deformer, SkinningMethod};

fn skinning(c: &mut Criterion) {
    let model = asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap();
    let clip = &model.clips[model.find_clip("walk").unwrap()];
    let mut pose = model.skeleton.rest_pose().clone();
    clip.sample(0.4, &mut pose, &mut clip.cursor());
    let world = pose.to_model_matrices();
    let skin = &model.skins[0];
    let mut palette = vec![Mat4::IDENTITY; skin.joints.len()];
    skin_palette(&skin.joints, &skin.inverse_bind, &world, &mut palette);
    let (normal_matrices, rows) = normals_and_rows(&palette);
    let linear_palette = LinearPalette {
        matrices: &palette,
        normals: &normal_matrices,
        rows: &rows,
    };

    let primitives: Vec<_> = model.meshes.iter().map(|m| &m.primitives[0]).collect();
    let vertices: usize = primitives.iter().map(|p| p.vertex_count()).sum();
    let mut outputs: Vec<(Vec<Vec3>, Vec<Vec3>)> = primitives
        .iter()
        .map(|p| (vec![Vec3::ZERO; p.vertex_count()], vec![Vec3::ZERO; p.vertex_count()]))
        .collect();

    let mut dual_quats = vec![DualQuatJoint::default(); palette.len()];
    dual_quat_palette(&palette, &mut dual_quats);
    let splits: Vec<InfluenceSplit> = primitives
        .iter()
        .map(|p| InfluenceSplit::new(p.skin_weights.as_ref().unwrap().into()))
        .collect();
    let split_of = |weights: &SkinWeights| {
        let index = primitives
            .iter()
            .position(|p| std::ptr::eq(p.skin_weights.as_ref().unwrap(), weights));
        &splits[index.unwrap()]
    };
    // Skins both meshes with one kernel into `outputs`.
    let mut skin_all = |kernel: &dyn Fn(&SkinWeights, BindVertices, SkinnedVertices)| {
        for (primitive, (positions, normals)) in primitives.iter().zip(&mut outputs) {
            let input = BindVertices {
                positions: &primitive.positions,
                normals: &primitive.normals,
                tangents: &[],
            };
            let output = SkinnedVertices {
                positions,
                normals,
                tangents: &mut [],
            };
            kernel(primitive.skin_weights.as_ref().unwrap(), input, output);
        }
    };

    let mut group = c.benchmark_group(format!("skin Xbot ({vertices} vertices)"));
    group.throughput(Throughput::Elements(vertices as u64));
    group.bench_function("linear blend, positions + normals", |b| {
        b.iter(|| {
            skin_all(&|weights, input, output| skin_linear(&palette, &normal_matrices, weights.into(), input, output))
        })
    });
    group.bench_function("linear blend split by influence count, positions + normals", |b| {
        b.iter(|| {
            skin_all(&|weights, input, output| {
                skin_linear_split(linear_palette, split_of(weights), weights.into(), input, output, None)
            })
        })
    });
    group.bench_function("dual quaternion, positions + normals", |b| {
        b.iter(|| {
            skin_all(&|weights, input, output| {
                skin_dual_quat(&palette, &normal_matrices, &dual_quats, weights.into(), input, output)
            })
        })
    });
    let mut deformer = Deformer::new(&model);
    group.bench_function("whole model (matrices, palette, skinning)", |b| {
        b.iter(|| deformer.update_all(&model, &pose, SkinningMethod::Linear))
    });
    group.bench_function("whole model, dual quaternions", |b| {
        b.iter(|| deformer.update_all(&model, &pose, SkinningMethod::DualQuaternion))
    });
    group.finish();
}

/// A generated mesh: `vertices` vertices on a grid, each moved by four of `joints` joints
/// (weights 0.4, 0.3, 0.2, 0.1), skinned by a palette of distinct rotations and translations.
struct BigMesh {
    palette: Vec<Mat4>,
    normal_palette: Vec<glam::Mat3A>,
    rows: Vec<PaletteRows>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
}

impl BigMesh {
    fn new(vertices: usize, joints: usize) -> Self {
        let palette: Vec<Mat4> = (0..joints)
            .map(|j| {
                let angle = j as f32 * 0.1;
                Mat4::from_rotation_translation(glam::Quat::from_rotation_y(angle), Vec3::new(0.0, j as f32, 0.0))
            })
            .collect();
        let (normal_palette, rows) = normals_and_rows(&palette);
        let joint = |v: usize, k: usize| ((v / 64 + k * 7) % joints) as u16;
        Self {
            palette,
            normal_palette,
            rows,
            positions: (0..vertices)
                .map(|v| Vec3::new((v % 1000) as f32, (v / 1000) as f32, 0.0) * 0.01)
                .collect(),
            normals: vec![Vec3::Z; vertices],
            joints: (0..vertices).map(|v| [0, 1, 2, 3].map(|k| joint(v, k))).collect(),
            weights: vec![[0.4, 0.3, 0.2, 0.1]; vertices],
        }
    }

    fn influences(&self) -> Influences<'_> {
        Influences {
            joints: &self.joints,
            weights: &self.weights,
            joints_extra: &[],
            weights_extra: &[],
        }
    }
}

/// Split kernels on one thread and on every core, for a million vertices and for the sizes
/// around the parallel threshold.
fn threads(c: &mut Criterion) {
    let pool: &Workers = workers::global();
    for vertices in [1_000_000, 40_000, 20_000, 10_000] {
        let mesh = BigMesh::new(vertices, 64);
        let split = InfluenceSplit::new(mesh.influences());
        let (mut positions, mut normals) = (vec![Vec3::ZERO; vertices], vec![Vec3::ZERO; vertices]);
        let mut group = c.benchmark_group(format!("skin {vertices} vertices, 4 influences"));
        group.throughput(Throughput::Elements(vertices as u64));
        for (label, workers) in [
            ("1 thread".to_string(), None),
            (format!("{} threads", pool.threads()), Some(pool)),
        ] {
            group.bench_function(label, |b| {
                b.iter(|| {
                    let input = BindVertices {
                        positions: &mesh.positions,
                        normals: &mesh.normals,
                        tangents: &[],
                    };
                    let output = SkinnedVertices {
                        positions: &mut positions,
                        normals: &mut normals,
                        tangents: &mut [],
                    };
                    let palette = LinearPalette {
                        matrices: &mesh.palette,
                        normals: &mesh.normal_palette,
                        rows: &mesh.rows,
                    };
                    skin_linear_split(palette, &split, mesh.influences(), input, output, workers)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, skinning, threads);
criterion_main!(benches);
