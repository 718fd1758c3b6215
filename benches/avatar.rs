//! A VRM avatar's per-frame cost beyond the clip: spring bones (per simulated joint and step,
//! with colliders) and the look-at and expressions, on a sample character whose arms and legs
//! are made to swing as spring chains (the shared samples have no VRM avatar), playing its walk.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use rigscope::anim::avatar::{
    Collider, ColliderShape, Expression, Face, LookAt, LookAtKind, RangeMap, SpringBones, SpringJoint, SpringSettings,
    SpringSimulation,
};

use rigscope::asset;

fn avatar(c: &mut Criterion) {
    let model = asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap();
    let skeleton = &model.skeleton;
    let clip = &model.clips[model.find_clip("walk").unwrap()];
    let rest = skeleton.rest_pose();
    let find = |name: &str| skeleton.find(&format!("mixamorig:{name}")).unwrap();
    // Every joint below the arms and legs on springs, pushed out of the hips and head.
    let roots = ["LeftArm", "RightArm", "LeftUpLeg", "RightUpLeg"].map(find);
    let below = |joint: usize| {
        roots
            .iter()
            .any(|&root| joint == root || skeleton.hierarchy().ancestors(joint).any(|a| a == root))
    };
    let first_child = |joint: usize| (0..skeleton.len()).find(|&j| skeleton.parent(j) == Some(joint));
    let settings = SpringSettings {
        gravity_power: 0.5,
        stiffness: 2.0,
        hit_radius: 0.02,
        ..Default::default()
    };
    let (hips, head) = (find("Hips"), find("Head"));
    let joints: Vec<SpringJoint> = (0..skeleton.len())
        .filter(|&j| below(j))
        .map(|joint| SpringJoint {
            joint,
            child: first_child(joint),
            settings,
            center: Some(hips),
            collider_groups: vec![0],
        })
        .collect();
    let ball = |joint: usize, radius: f32| Collider {
        joint,
        shape: ColliderShape::Sphere {
            offset: Vec3::ZERO,
            radius,
            inside: false,
        },
    };
    let springs = SpringBones {
        joints,
        colliders: vec![ball(hips, 15.0), ball(head, 12.0)],
        collider_groups: vec![vec![0, 1]],
    };
    let poses = common::cycle_poses(clip, rest, 64);

    let mut group = c.benchmark_group(format!(
        "spring bones, Xbot walking, {} joints, 2 colliders",
        springs.joints.len()
    ));
    group.throughput(Throughput::Elements(springs.joints.len() as u64));
    let mut simulation = SpringSimulation::new(&springs, rest, &poses[0]);
    let (mut out, mut next) = (rest.clone(), 0);
    group.bench_function("step", |b| {
        b.iter(|| {
            next = (next + 1) % poses.len();
            out.copy_from(&poses[next]);
            simulation.step(&springs, &mut out);
        })
    });
    group.finish();

    // The face: eyes (the hands stand in) at a moving target, and 16 expressions (Xbot has no
    // morph targets of its own to bind: what is measured is the look-at and the weights).
    let map = RangeMap {
        input_max: 90.0,
        output_scale: 10.0,
    };
    let eyes = [Some(find("LeftHand")), Some(find("RightHand"))];
    let look_at = LookAt::new(
        LookAtKind::Bone,
        head,
        eyes,
        Vec3::Y * 6.0,
        [map; 4],
        rest,
        &rest.to_model_matrices(),
    );
    let expressions: Vec<Expression> = (0..16)
        .map(|i| Expression {
            name: format!("e{i}"),
            ..Default::default()
        })
        .collect();
    let weights = vec![0.5; expressions.len()];
    let mut face = Face::default();
    let mut group = c.benchmark_group("face, Xbot, look-at and 16 expressions");
    group.throughput(Throughput::Elements(1));
    group.bench_function("apply", |b| {
        b.iter(|| {
            next = (next + 1) % poses.len();
            out.copy_from(&poses[next]);
            let target = Vec3::new(next as f32 * 3.0 - 96.0, 150.0, 200.0);
            face.apply(Some(&look_at), &expressions, &weights, Some(target), &mut out);
        })
    });
    group.finish();
}

criterion_group!(benches, avatar);
criterion_main!(benches);
