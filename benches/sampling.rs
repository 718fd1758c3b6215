//! Clip sampling cost, reported per joint (criterion's throughput is joints per second).
//!
//! Forward playback advances 1/60 s per call with a kept cursor, as the viewer does; random
//! seek jumps to pseudo-random times, so each track searches for its key span.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rigscope::anim::Playback;
use rigscope::asset;

fn sampling(c: &mut Criterion) {
    for (file, clip_name) in [("Fox/glTF-Binary/Fox.glb", "Walk"), ("Xbot/Xbot.glb", "walk")] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let clip = &model.clips[model.find_clip(clip_name).unwrap()];
        let joints = model.skeleton.len();
        let mut group = c.benchmark_group(format!("sample {clip_name} ({joints} joints)"));
        group.throughput(Throughput::Elements(joints as u64));

        let mut pose = model.skeleton.rest_pose().clone();
        let mut cursor = clip.cursor();
        let mut time = 0.0f32;
        group.bench_function("forward", |b| {
            b.iter(|| {
                time += 1.0 / 60.0;
                clip.sample(Playback::Loop.clip_time(time, clip.duration()), &mut pose, &mut cursor);
            })
        });

        let times: Vec<f32> = (0..1024u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 8) as f32 / (1 << 24) as f32 * clip.duration())
            .collect();
        let mut next = 0;
        group.bench_function("random seek", |b| {
            b.iter(|| {
                next = (next + 1) % times.len();
                clip.sample(times[next], &mut pose, &mut cursor);
            })
        });
        group.finish();
    }
}

criterion_group!(benches, sampling);
criterion_main!(benches);
