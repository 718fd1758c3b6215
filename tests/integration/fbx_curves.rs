//! FBX clips between their keys, against ufbx's own evaluation of the file's curves: a curved
//! (cubic) rotation keyed on neighbouring frames, which the loader refines between the frames,
//! and (ignored, on a corpus) the worst deviation half-way between the clip's keys.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::fbx_file::{self, METRES_Y_UP, Prop, SECOND};
use common::ufbx_reference;
use rigscope::anim::ChannelTrack;
use rigscope::asset::{self, Model};

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every key of every channel of the model's clips.
fn key_count(model: &Model) -> usize {
    (model.clips.iter().flat_map(|clip| clip.channels()))
        .map(|channel| match &channel.track {
            ChannelTrack::Translation(track) | ChannelTrack::Scale(track) => track.times().len(),
            ChannelTrack::Rotation(track) => track.times().len(),
            ChannelTrack::MorphWeights { track, .. } | ChannelTrack::Properties { track, .. } => track.times().len(),
        })
        .sum()
}

/// The largest deviation (of the diagonal) from ufbx's evaluation half-way between the keys of
/// clip `clip`, and where; at most `limit` of its mid-points, spread evenly.
fn worst_between_keys(scene: &ufbx::Scene, model: &Model, clip: &str, limit: usize) -> (f32, f32) {
    let rigscope_clip = model.clips.iter().find(|c| c.name() == clip).expect("the clip");
    let times = ufbx_reference::mid_key_times(rigscope_clip);
    let stride = times.len().div_ceil(limit).max(1);
    (times.iter().step_by(stride))
        .map(|&time| (ufbx_reference::deviation(scene, model, clip, time).vertex, time))
        .fold((0.0, 0.0), |worst, next| if next.0 > worst.0 { next } else { worst })
}

#[test]
fn a_curved_rotation_between_neighbouring_frames_poses_as_ufbx_evaluates_it() {
    // Tip turns 0° → 90° between two keys one frame apart (30 fps), along a cubic with user
    // tangents that rushes ahead and settles (4000°/s leaving the first key, 1400°/s arriving
    // at the second, where the chord is 2700°/s: 56° half-way). ufbx's bake keeps curves keyed at 19.5 fps or faster as they
    // are, so linear playback between the two keys would miss the overshoot entirely.
    let dir = common::temp_dir("fbx-curves");
    let mut nodes = fbx_file::skinned_bar(&METRES_Y_UP);
    let frame = SECOND / 30;
    let rotation = fbx_file::object_mut(&mut nodes, 53);
    for child in &mut rotation.children {
        match child.name {
            "KeyTime" => child.props = vec![Prop::Longs(vec![0, frame])],
            // Cubic (0x08), user tangents (0x400), broken (0x800): the slopes are as written.
            "KeyAttrFlags" => child.props = vec![Prop::Ints(vec![0x08 | 0x400 | 0x800])],
            "KeyAttrDataFloat" => child.props = vec![Prop::Floats(vec![4000.0, 1400.0, 0.0, 0.0])],
            _ => {}
        }
    }
    let stack = fbx_file::object_mut(&mut nodes, 50);
    stack.children = vec![fbx_file::properties(vec![fbx_file::p(
        "LocalStop",
        "KTime",
        &[frame as f64],
    )])];
    let path = write(&dir, "curved.fbx", fbx_file::to_binary(&nodes));
    let model = asset::load(&path).unwrap();
    let scene = ufbx_reference::load(&path);
    let frame_seconds = 1.0 / 30.0;
    for step in 0..=32 {
        let time = frame_seconds * step as f32 / 32.0;
        let deviation = ufbx_reference::deviation(&scene, &model, "Bend", time);
        // Played linearly, the two keys leave the tip 11° behind half-way (about 0.1 of the
        // diagonal); 16 spans leave about 4e-4 (the halvings' cap).
        assert!(
            deviation.vertex < 1e-3,
            "at {time} s: vertices {} of the diagonal from ufbx's",
            deviation.vertex
        );
    }
    // The span is halved where it needs it, at most 4 times: at most 16 spans.
    let tip = model.skeleton.find("Tip").expect("Tip");
    let rotation_keys = (model.clips[0].channels().iter())
        .find_map(|c| match &c.track {
            ChannelTrack::Rotation(track) if c.joint == tip => Some(track.times().len()),
            _ => None,
        })
        .expect("Tip's rotation");
    assert!((3..=17).contains(&rotation_keys), "{rotation_keys} keys");
    // Keys between the frames do not change what one frame is.
    assert_eq!(model.clips[0].key_rate(), 30.0);
    // The curve is curved: half-way it is well past the chord's 45°.
    let tip = ufbx_reference::world_matrices(&scene, &scene.anim_stacks[0], frame_seconds / 2.0);
    let node = ufbx_reference::node_of_joint(&scene)[2];
    let angle = tip[node].x_axis.y.atan2(tip[node].x_axis.x).to_degrees();
    assert!(angle > 55.0, "ufbx's curve half-way: {angle}°");
}

/// One FBX file's worst deviation half-way between baked keys, over its clips.
struct BetweenKeys {
    worst: f32,
    clip: String,
    time: f32,
    keys: usize,
    load_seconds: f64,
}

fn between_keys(path: &Path) -> Result<Option<BetweenKeys>, String> {
    let started = Instant::now();
    let model = asset::load(path).map_err(|e| e.to_string())?;
    let load_seconds = started.elapsed().as_secs_f64();
    if model.clips.is_empty() {
        return Ok(None);
    }
    let scene = std::panic::catch_unwind(|| ufbx_reference::load(path)).map_err(|_| "ufbx refuses it")?;
    let mut result = BetweenKeys {
        worst: 0.0,
        clip: String::new(),
        time: 0.0,
        keys: key_count(&model),
        load_seconds,
    };
    for clip in &model.clips {
        if !scene.anim_stacks.iter().any(|s| s.element.name == clip.name()) {
            continue;
        }
        let (worst, time) = worst_between_keys(&scene, &model, clip.name(), 400);
        if worst >= result.worst {
            (result.worst, result.clip, result.time) = (worst, clip.name().to_string(), time);
        }
    }
    Ok(Some(result))
}

#[test]
#[ignore = "needs FBX files from elsewhere: set RIGSCOPE_FBX_DIRS"]
fn fbx_corpus_between_keys() {
    // RIGSCOPE_FBX_DIRS=/tmp/rigscope-corpus:/tmp/ufbx-fbx cargo test --test integration \
    //     fbx_curves::fbx_corpus_between_keys -- --ignored --nocapture
    let dirs = std::env::var("RIGSCOPE_FBX_DIRS").expect("set RIGSCOPE_FBX_DIRS");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut pending: Vec<PathBuf> = dirs.split(':').map(PathBuf::from).collect();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("fbx")) {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut keys, mut load_seconds, mut worst) = (0, 0.0, 0.0f32);
    for path in &files {
        match std::panic::catch_unwind(|| between_keys(path)) {
            Ok(Ok(Some(found))) => {
                println!(
                    "{:.3e}\t{}\t{:.4}\t{}\t{:.3}s\t{}",
                    found.worst,
                    found.clip,
                    found.time,
                    found.keys,
                    found.load_seconds,
                    path.display()
                );
                keys += found.keys;
                load_seconds += found.load_seconds;
                worst = worst.max(found.worst);
            }
            Ok(Ok(None)) => {}
            Ok(Err(why)) => println!("refused\t{why}\t{}", path.display()),
            Err(_) => println!("panicked\t{}", path.display()),
        }
    }
    println!("worst {worst:.3e}, keys {keys}, load {load_seconds:.2}s");
}
