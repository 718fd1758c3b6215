//! CPU linear blend skinning cost, reported per vertex (criterion's throughput is vertices
//! per second): Xbot's two meshes, four influences, positions and normals.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Vec3};
use rigscope::asset;
use rigscope::skin::Deformer;
use rigscope::skin::linear::{BindVertices, SkinnedVertices, skin_linear};
use rigscope::skin::palette::{normal_palette, skin_palette};

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

    let mut group = c.benchmark_group(format!("skin Xbot ({vertices} vertices)"));
    group.throughput(Throughput::Elements(vertices as u64));
    group.bench_function("linear blend, positions + normals", |b| {
        b.iter(|| {
            for (primitive, (positions, normals)) in primitives.iter().zip(&mut outputs) {
                let weights = primitive.skin_weights.as_ref().unwrap();
                skin_linear(
                    &palette,
                    &normal_matrices,
                    weights.into(),
                    BindVertices {
                        positions: &primitive.positions,
                        normals: &primitive.normals,
                        tangents: &[],
                    },
                    SkinnedVertices {
                        positions,
                        normals,
                        tangents: &mut [],
                    },
                );
            }
        })
    });
    let mut deformer = Deformer::new(&model);
    group.bench_function("whole model (matrices, palette, skinning)", |b| {
        b.iter(|| deformer.update(&model, &pose))
    });
    group.finish();
}

criterion_group!(benches, skinning);
criterion_main!(benches);
