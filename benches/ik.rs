//! IK cost per solve on a sample character's arm, as the viewer runs it each frame: the walk
//! cycle moves the shoulder, so every frame starts away from the target. Reported per chain
//! joint and iteration (criterion's throughput is joint-iterations per second).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use rigscope::anim::{IkLayer, JointConstraint, Solver};
use rigscope::asset;

fn ik(c: &mut Criterion) {
    let model = asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap();
    let clip = &model.clips[model.find_clip("walk").unwrap()];
    let rest = model.skeleton.rest_pose();
    let hand = model.skeleton.find("mixamorig:LeftHand").unwrap();
    // Animated poses over one cycle, and a target the arm can reach in all of them.
    let poses = common::cycle_poses(clip, rest, 64);
    let target = poses[0].to_model_matrices()[hand].w_axis.truncate() + Vec3::new(0.1, 0.25, 0.15);
    for (name, solver, limited) in [
        ("FABRIK", Solver::Fabrik, false),
        ("CCD", Solver::Ccd, false),
        ("FABRIK, limits", Solver::Fabrik, true),
        ("CCD, limits", Solver::Ccd, true),
    ] {
        let mut layer = IkLayer::new(rest.hierarchy(), hand, 3, target).unwrap();
        layer.solver = solver;
        if limited {
            let limits = layer.chain.constraints_mut();
            limits[0] = JointConstraint::Ball { cone: 1.2, twist: 0.3 };
            limits[1] = JointConstraint::Ball { cone: 2.0, twist: 0.5 };
            limits[2] = JointConstraint::Hinge {
                axis: Vec3::Z,
                min: -2.6,
                max: 2.6,
            };
        }
        // Joint-iterations per solve, averaged over the cycle, for the throughput.
        let mut work = 0;
        let mut out = rest.clone();
        for pose in &poses {
            out.copy_from(pose);
            layer.apply(rest, &mut out);
            work += layer.outcome.iterations as u64 * layer.chain.joints().len() as u64;
        }
        let per_solve = (work / poses.len() as u64).max(1);
        let mut group = c.benchmark_group(format!("ik Xbot arm, 3 bones, {name}"));
        group.throughput(Throughput::Elements(per_solve));
        let mut next = 0;
        group.bench_function("solve", |b| {
            b.iter(|| {
                next = (next + 1) % poses.len();
                out.copy_from(&poses[next]);
                layer.apply(rest, &mut out);
            })
        });
        group.finish();
    }
}

criterion_group!(benches, ik);
criterion_main!(benches);
