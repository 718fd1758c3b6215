//! CPU skinning cost, reported per vertex (criterion's throughput is vertices per second):
//! Xbot's two meshes, four influences, positions and normals, by linear blend and by dual
//! quaternions; and a whole model posed each way.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Vec3};
use rigscope::asset::{self, SkinWeights};
use rigscope::skin::dual_quat::{DualQuatJoint, dual_quat_palette, skin_dual_quat};
use rigscope::skin::linear::{BindVertices, SkinnedVertices, skin_linear};
use rigscope::skin::palette::{normal_palette, skin_palette};
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
    let mut normal_matrices = vec![glam::Mat3A::IDENTITY; skin.joints.len()];
    normal_palette(&palette, &mut normal_matrices);

    let primitives: Vec<_> = model.meshes.iter().map(|m| &m.primitives[0]).collect();
    let vertices: usize = primitives.iter().map(|p| p.vertex_count()).sum();
    let mut outputs: Vec<(Vec<Vec3>, Vec<Vec3>)> = primitives
        .iter()
        .map(|p| (vec![Vec3::ZERO; p.vertex_count()], vec![Vec3::ZERO; p.vertex_count()]))
        .collect();

    let mut split = vec![DualQuatJoint::default(); palette.len()];
    dual_quat_palette(&palette, &mut split);
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
    group.bench_function("dual quaternion, positions + normals", |b| {
        b.iter(|| {
            skin_all(&|weights, input, output| {
                skin_dual_quat(&palette, &normal_matrices, &split, weights.into(), input, output)
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

criterion_group!(benches, skinning);
criterion_main!(benches);
