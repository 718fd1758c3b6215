//! FBX clips between their keys, against ufbx's own evaluation of the file's curves: a curved
//! (cubic) rotation keyed on neighbouring frames, which the loader refines between the frames;
//! a curved translation in a scene two centimetres tall, refined to its size; stepped
//! (constant) keys, which jump; curves that go on before and after their keys within the
//! stack (each extrapolation mode); and (ignored, on a corpus) the worst deviation half-way
//! between the clip's keys.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::fbx_file::{self, METRES_Y_UP, Node, Prop, SECOND, Space};
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

/// The skinned bar whose Tip turns 0° → 90° about Z between two keys one frame apart (30 fps),
/// along a cubic with user tangents that rushes ahead and settles (4000°/s leaving the first
/// key, 1400°/s arriving at the second, where the chord is 2700°/s: 56° half-way), in a stack
/// one frame long.
fn bar_turning_in_one_frame(space: &Space) -> Vec<Node> {
    let mut nodes = fbx_file::skinned_bar(space);
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
    nodes
}

#[test]
fn a_curved_rotation_between_neighbouring_frames_poses_as_ufbx_evaluates_it() {
    // ufbx's bake keeps curves keyed at 19.5 fps or faster as they are, so linear playback
    // between the bar's two keys would miss the overshoot entirely.
    let dir = common::temp_dir("fbx-curves");
    let nodes = bar_turning_in_one_frame(&METRES_Y_UP);
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

#[test]
fn a_joint_turned_before_and_after_its_curves_in_another_order_keys_what_ufbx_evaluates() {
    // The curved turn above, with the curves also holding 20° about X and -35° about Y, on a
    // joint that ufbx turns by its post-rotation's inverse, then the curves' Euler angles in ZXY
    // order, then its pre-rotation: the loader works such a rotation out from the curves and
    // the two held turns (asset/fbx/rotation_steps.rs) where ufbx works out the whole
    // transform, and every key, baked or added between the frames, is ufbx's.
    // In Maya's space and in 3ds Max's, with the turns before and after the curves applied
    // (RotationActive 1) and ignored (the FBX default, 0).
    let dir = common::temp_dir("fbx-turned-joint");
    let z_up = Space {
        up_axis: 2,
        unit_scale: 1.0,
    };
    for (name, space, rotation_active) in [
        ("y-up", &METRES_Y_UP, 0),
        ("y-up-active", &METRES_Y_UP, 1),
        ("z-up-active", &z_up, 1),
    ] {
        turned_joint_keys_ufbx_s_rotation(&dir, name, space, rotation_active);
    }
}

/// The Tip of `bar_turning_in_one_frame` in `space` turned as the test above says, with
/// `RotationActive` `rotation_active`: every key of its rotation is ufbx's.
fn turned_joint_keys_ufbx_s_rotation(dir: &Path, name: &str, space: &Space, rotation_active: i32) {
    let mut nodes = bar_turning_in_one_frame(space);
    let tip = fbx_file::object_mut(&mut nodes, 3);
    let s = fbx_file::s;
    let zxy = vec![s("RotationOrder"), s("enum"), s(""), s("A"), Prop::Int(4)];
    let active = vec![s("RotationActive"), s("bool"), s(""), s(""), Prop::Int(rotation_active)];
    tip.child_mut("Properties70").children.extend([
        fbx_file::p("PreRotation", "Vector3D", &[10.0, -20.0, 30.0]),
        fbx_file::p("PostRotation", "Vector3D", &[-15.0, 5.0, 25.0]),
        fbx_file::node("P", zxy, Vec::new()),
        fbx_file::node("P", active, Vec::new()),
    ]);
    // The curves turn about X and Y too (held there), so that the order tells.
    let held = |axis: &str, degrees: f64| fbx_file::p(axis, "Number", &[degrees]);
    let curves = fbx_file::object_mut(&mut nodes, 52);
    curves.children = vec![fbx_file::properties(vec![
        held("d|X", 20.0),
        held("d|Y", -35.0),
        held("d|Z", 0.0),
    ])];
    let path = write(dir, &format!("turned-{name}.fbx"), fbx_file::to_binary(&nodes));
    let model = asset::load(&path).unwrap();
    let scene = ufbx_reference::load(&path);
    let node = (scene.nodes.iter()).find(|n| n.element.name == "Tip");
    let node = node.expect("Tip in ufbx's scene");
    assert_eq!(node.rotation_order, ufbx::RotationOrder::Zxy);
    assert_eq!(node.use_rotation_space, rotation_active == 1, "{name}");
    let tip = model.skeleton.find("Tip").expect("Tip");
    let track = (model.clips[0].channels().iter())
        .find_map(|c| match &c.track {
            ChannelTrack::Rotation(track) if c.joint == tip => Some(track),
            _ => None,
        })
        .expect("Tip's rotation");
    assert!(
        track.times().len() > 2,
        "refined between the frames: {:?}",
        track.times()
    );
    let anim = &scene.anim_stacks[0].anim;
    for (&time, &played) in track.times().iter().zip(track.values()) {
        let q = ufbx::evaluate_transform(anim, node, anim.time_begin.max(0.0) + time as f64).rotation;
        let evaluated = glam::Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32).normalize();
        // The key's time is an `f32` of the time it was evaluated at, nanoseconds apart: 1e-7
        // rad at the turn's speed. (An arc cosine of the dot product is not exact enough.)
        let difference = played.conjugate() * evaluated;
        let angle = 2.0 * difference.xyz().length().atan2(difference.w.abs());
        assert!(angle < 1e-5, "{name} at {time} s: {angle} rad from ufbx's rotation");
    }
}

/// One key of a curve written by `curve_children`: its time in seconds, its value, its
/// `KeyAttrFlags` and its four `KeyAttrDataFloat`s (right slope, next key's left slope,
/// weights, velocities).
struct CurveKey {
    seconds: f64,
    value: f32,
    flags: i32,
    data: [f32; 4],
}

/// Constant interpolation (the value holds until the next key, then jumps).
const CONSTANT: i32 = 0x02;
/// With `CONSTANT`: the value jumps to the next key's right after this one.
const CONSTANT_NEXT: i32 = 0x100;
const LINEAR: i32 = 0x04;
/// Cubic with user, broken tangents: the slopes (degrees or units per second) are as written.
const CUBIC_USER: i32 = 0x08 | 0x400 | 0x800;

fn key(seconds: f64, value: f32, flags: i32, data: [f32; 4]) -> CurveKey {
    CurveKey {
        seconds,
        value,
        flags,
        data,
    }
}

/// The children of an `AnimationCurve` with `keys`, extrapolated before its first key and
/// after its last as `extrapolation` says (FBX's type letters: `C` constant, `R` repeat, `A`
/// repeat relative, `M` mirror, `K` slope), repeating without end.
fn curve_children(keys: &[CurveKey], extrapolation: Option<(u8, u8)>) -> Vec<Node> {
    let mut children = vec![
        fbx_file::leaf("Default", Prop::Double(0.0)),
        fbx_file::leaf("KeyVer", Prop::Int(4009)),
        fbx_file::leaf(
            "KeyTime",
            Prop::Longs(
                keys.iter()
                    .map(|k| (k.seconds * SECOND as f64).round() as i64)
                    .collect(),
            ),
        ),
        fbx_file::leaf("KeyValueFloat", Prop::Floats(keys.iter().map(|k| k.value).collect())),
        fbx_file::leaf("KeyAttrFlags", Prop::Ints(keys.iter().map(|k| k.flags).collect())),
        // ASCII files since FBX 7.2 hold these floats' bits as integers.
        fbx_file::leaf(
            "KeyAttrDataFloat",
            Prop::Ints(keys.iter().flat_map(|k| k.data).map(|x| x.to_bits() as i32).collect()),
        ),
        fbx_file::leaf("KeyAttrRefCount", Prop::Ints(vec![1; keys.len()])),
    ];
    if let Some((before, after)) = extrapolation {
        let mode = |name: &'static str, letter: u8| {
            fbx_file::node(
                name,
                Vec::new(),
                vec![
                    fbx_file::leaf("Type", Prop::Int(letter as i32)),
                    fbx_file::leaf("Repetition", Prop::Int(-1)),
                ],
            )
        };
        children.push(mode("Pre-Extrapolation", before));
        children.push(mode("Post-Extrapolation", after));
    }
    children
}

/// `skinned_bar` with Tip's Z rotation keyed by `keys` (degrees) and its stack running from
/// 0 to `stack_seconds`, written as ASCII FBX to `name` in `dir`.
fn bar_turning(
    dir: &Path,
    name: &str,
    space: &Space,
    keys: &[CurveKey],
    extrapolation: Option<(u8, u8)>,
    stack_seconds: f64,
) -> PathBuf {
    let mut nodes = fbx_file::skinned_bar(space);
    fbx_file::object_mut(&mut nodes, 53).children = curve_children(keys, extrapolation);
    fbx_file::object_mut(&mut nodes, 50).children = vec![fbx_file::properties(vec![
        fbx_file::p("LocalStart", "KTime", &[0.0]),
        fbx_file::p("LocalStop", "KTime", &[stack_seconds * SECOND as f64]),
    ])];
    write(dir, name, fbx_file::to_ascii(&nodes))
}

/// The largest deviation (of the diagonal) from ufbx's evaluation of clip `Bend` at `times`
/// (infinite where either pose is not a number), and where; the model loads without warnings.
fn worst_at(path: &Path, times: impl IntoIterator<Item = f32>) -> (f32, f32) {
    let model = asset::load(path).unwrap();
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let scene = ufbx_reference::load(path);
    (times.into_iter())
        .map(|time| (ufbx_reference::deviation(&scene, &model, "Bend", time).vertex, time))
        .map(|(deviation, time)| (if deviation.is_nan() { f32::INFINITY } else { deviation }, time))
        .fold((0.0, 0.0), |worst, next| if next.0 > worst.0 { next } else { worst })
}

/// Tip's rotation key times in the model's clip `Bend`.
fn tip_rotation_times(model: &Model) -> Vec<f32> {
    let tip = model.skeleton.find("Tip").expect("Tip");
    (model.clips[0].channels().iter())
        .find_map(|c| match &c.track {
            ChannelTrack::Rotation(track) if c.joint == tip => Some(track.times().to_vec()),
            _ => None,
        })
        .expect("Tip's rotation")
}

#[test]
fn a_curved_translation_in_a_scene_two_centimetres_tall_is_refined_to_its_size() {
    // The bar in centimetres (2 cm tall), Root moving 1 cm along X in one frame on a cubic
    // that rushes out and settles (45 cm/s leaving, 0 arriving, where the chord is 30 cm/s):
    // half-way it is 1.9 mm past the chord. A tolerance of 1 mm halved the span once and left
    // 0.5 mm, 2e-2 of the diagonal; one relative to the model's size halves it four times.
    let dir = common::temp_dir("fbx-curves-small");
    let centimetres = Space {
        up_axis: 1,
        unit_scale: 1.0,
    };
    let frame = 1.0 / 30.0;
    let mut nodes = fbx_file::skinned_bar(&centimetres);
    let keys = [
        key(0.0, 0.0, CUBIC_USER, [45.0, 0.0, 0.0, 0.0]),
        key(frame, 1.0, LINEAR, [0.0; 4]),
    ];
    fbx_file::object_mut(&mut nodes, 53).children = curve_children(&keys, None);
    fbx_file::object_mut(&mut nodes, 50).children = vec![fbx_file::properties(vec![fbx_file::p(
        "LocalStop",
        "KTime",
        &[(SECOND / 30) as f64],
    )])];
    // The curve moves Root along X instead of turning Tip about Z.
    let connections = nodes.iter_mut().find(|n| n.name == "Connections").expect("Connections");
    for connection in &mut connections.children {
        match connection.props.get(3) {
            Some(Prop::Str(property)) if property == "Lcl Rotation" => {
                connection.props[2] = Prop::Long(2);
                connection.props[3] = fbx_file::s("Lcl Translation");
            }
            Some(Prop::Str(property)) if property == "d|Z" => connection.props[3] = fbx_file::s("d|X"),
            _ => {}
        }
    }
    let path = write(&dir, "small.fbx", fbx_file::to_ascii(&nodes));
    let (worst, time) = worst_at(&path, (0..=32).map(|step| frame as f32 * step as f32 / 32.0));
    assert!(
        worst < 1e-3,
        "at {time} s: vertices {worst} of the diagonal from ufbx's"
    );
}

#[test]
fn stepped_keys_jump_where_ufbx_evaluates_them_to() {
    // Tip holds 0° until 0.25 s (constant), jumps to 90° and turns along a cubic to 45° at
    // 0.5 s, where it jumps straight to the next key's 0° (constant next) and holds it to 1 s.
    let dir = common::temp_dir("fbx-curves-steps");
    let keys = [
        key(0.0, 0.0, CONSTANT, [0.0; 4]),
        key(0.25, 90.0, CUBIC_USER, [-900.0, 0.0, 0.0, 0.0]),
        key(0.5, 45.0, CONSTANT | CONSTANT_NEXT, [0.0; 4]),
        key(1.0, 0.0, LINEAR, [0.0; 4]),
    ];
    let path = bar_turning(&dir, "steps.fbx", &METRES_Y_UP, &keys, None, 1.0);
    // Either side of each jump, a tenth of a millisecond away (a millisecond's ramp there
    // was most of the way to the other side), and all through the clip.
    let near_jumps = [0.2499, 0.2501, 0.4999, 0.5001];
    let all_through = (0..200).map(|step| (step as f32 + 0.5) / 200.0);
    let (worst, time) = worst_at(&path, near_jumps.into_iter().chain(all_through));
    assert!(
        worst < 1e-3,
        "at {time} s: vertices {worst} of the diagonal from ufbx's"
    );
    // Each jump is two keys at one time: nothing plays between them.
    let model = asset::load(&path).unwrap();
    let times = tip_rotation_times(&model);
    for jump in [0.25, 0.5] {
        let at_jump = times.iter().filter(|&&t| t == jump).count();
        assert_eq!(at_jump, 2, "keys at {jump} s: {times:?}");
    }
}

#[test]
fn curves_that_go_on_past_their_keys_play_as_ufbx_evaluates_them_over_the_stack() {
    // Tip turns 0° → 90° from 1 s to 2 s (linear) in a stack from 0 to 3 s: before and after
    // its keys the curve holds (constant), starts over (repeat), goes back (mirror), goes on
    // from where it ended (repeat relative) or on its slope. rigscope keyed only 1 s to 2 s
    // and held its ends (90° at 2.5 s, where repeating is at 45°).
    let dir = common::temp_dir("fbx-curves-extrapolated");
    let keys = [key(1.0, 0.0, LINEAR, [0.0; 4]), key(2.0, 90.0, LINEAR, [0.0; 4])];
    for (letter, mode) in [
        (b'C', "constant"),
        (b'R', "repeat"),
        (b'M', "mirror"),
        (b'A', "repeat relative"),
        (b'K', "slope"),
    ] {
        let path = bar_turning(
            &dir,
            &format!("{}.fbx", letter as char),
            &METRES_Y_UP,
            &keys,
            Some((letter, letter)),
            3.0,
        );
        let model = asset::load(&path).unwrap();
        assert_eq!(model.clips[0].duration(), 3.0, "{mode}: the clip lasts the stack");
        let (worst, time) = worst_at(
            &path,
            (0..=300).map(|step| step as f32 / 100.0 + 5e-4).filter(|&t| t <= 3.0),
        );
        assert!(
            worst < 1e-3,
            "{mode}, at {time} s: vertices {worst} of the diagonal from ufbx's"
        );
    }
    // Repeating, the curve starts over at 2 s: a jump, two keys at one time.
    let path = dir.join("R.fbx");
    let times = tip_rotation_times(&asset::load(&path).unwrap());
    assert_eq!(times.iter().filter(|&&t| t == 2.0).count(), 2, "{times:?}");
    // Held (constant), it needs no keys beyond its own.
    let times = tip_rotation_times(&asset::load(&dir.join("C.fbx")).unwrap());
    assert_eq!((times.first(), times.last()), (Some(&1.0), Some(&2.0)), "{times:?}");
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
