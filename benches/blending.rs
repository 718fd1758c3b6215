//! Pose blending and additive layers, reported per joint (criterion's throughput is joints per
//! second): two sampled poses blended half and half, with and without a mask, and an additive
//! layer as the animator runs it each frame (its delta clip sampled, then added) and the adding
//! alone.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rigscope::anim::additive::apply_additive;
use rigscope::anim::delta_clip::{delta_clip, no_delta};
use rigscope::anim::{AdditiveLayer, AdditiveSpace, JointMask, Playback, blend, blend_into};
use rigscope::asset;

fn blending(c: &mut Criterion) {
    for (file, from, to) in [
        ("Fox/glTF-Binary/Fox.glb", "Walk", "Run"),
        ("Xbot/Xbot.glb", "walk", "run"),
    ] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let (from, to) = (model.find_clip(from).unwrap(), model.find_clip(to).unwrap());
        let rest = model.skeleton.rest_pose();
        let sampled = |clip: usize, time: f32| {
            let (clip, mut pose) = (&model.clips[clip], rest.clone());
            clip.sample(time.min(clip.duration()), &mut pose, &mut clip.cursor());
            pose
        };
        let (a, b) = (sampled(from, 0.4), sampled(to, 0.2));
        let joints = model.skeleton.len();
        let mut group = c.benchmark_group(format!("blend ({joints} joints)"));
        group.throughput(Throughput::Elements(joints as u64));

        let mut out = a.clone();
        group.bench_function("blend_into", |bench| {
            bench.iter(|| blend_into(&mut out, &a, &b, 0.5, None));
        });
        group.bench_function("copy + blend", |bench| {
            bench.iter(|| {
                out.copy_from(&a);
                blend(&mut out, &b, 0.5, None);
            })
        });
        // Weights of 0, 0.5 and 1 in turn: the per-joint path of the rotation weights.
        let mask = JointMask::weights((0..joints).map(|joint| (joint % 3) as f32 * 0.5).collect());
        group.bench_function("blend_into, masked", |bench| {
            bench.iter(|| blend_into(&mut out, &a, &b, 0.5, Some(&mask)));
        });

        // The run clip as a layer over the walk, from its first keys.
        let deltas = delta_clip(&model.clips[to], &sampled(to, f32::NEG_INFINITY), AdditiveSpace::Parent);
        let mut delta = no_delta(rest);
        deltas.sample(0.2f32.min(deltas.duration()), &mut delta, &mut deltas.cursor());
        group.bench_function("copy + add deltas (apply_additive)", |bench| {
            bench.iter(|| {
                out.copy_from(&a);
                apply_additive(&mut out, &delta, 0.5, None, AdditiveSpace::Parent);
            })
        });
        let mut layer = AdditiveLayer::new(to, 0.5);
        let mut time = 0.0f32;
        group.bench_function("copy + additive layer (sample its deltas, add them)", |bench| {
            bench.iter(|| {
                time += 1.0 / 60.0;
                out.copy_from(&a);
                let clip_time = Playback::Loop.clip_time(time, model.clips[to].duration());
                layer.apply(&model.clips, rest, clip_time, &mut out);
            })
        });
        group.finish();
    }
}

criterion_group!(benches, blending);
criterion_main!(benches);
