//! VRM spring bones against three-vrm: a stick-figure avatar the test writes, with a tail of
//! three joints hanging back from the hips under gravity, a sphere collider behind the left
//! thigh and a capsule behind the right (both hit on the way), and a clip that sways the hips sideways and turns them. Where
//! the tail joints are after 0.5 s and 1 s of the clip was recorded from three-vrm 3.5.5
//! (`VRMSpringBoneManager` run headless in node at 60 steps a second, the clip through an
//! `AnimationMixer`); rigscope must agree within 1e-4 model units. Also: `--no-springs`, and
//! the same time twice gives the same pose.

use crate::common;
use crate::vrm_avatar::{avatar_json, panel_harness, vrm_1_0};

use std::path::Path;

use serde_json::{Value, json};

/// Nodes 18-21: the tail, back (-Z) and a little down from the hips, its last node only a tip.
const TAIL: [[f32; 3]; 4] = [
    [0.0, -0.05, -0.1],
    [0.0, -0.02, -0.15],
    [0.0, -0.02, -0.15],
    [0.0, 0.0, -0.1],
];

/// The clip: the hips sway 0.3 sideways and turn 40° about +Y and back over 2 s, keyed at 30 a
/// second.
fn sway() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let times: Vec<f32> = (0..=60).map(|k| k as f32 / 30.0).collect();
    let phase = |t: f32| (std::f32::consts::TAU * t / 2.0).sin();
    let translations = times.iter().flat_map(|&t| [0.3 * phase(t), 1.0, 0.0]).collect();
    let rotations = times
        .iter()
        .flat_map(|&t| {
            let half = 40f32.to_radians() * phase(t) / 2.0;
            [0.0, half.sin(), 0.0, half.cos()]
        })
        .collect();
    (times, translations, rotations)
}

pub(crate) fn write_spring_avatar(path: &Path) {
    let mut extension = vrm_1_0();
    extension.as_object_mut().unwrap().remove("expressions");
    // Only bones three-vrm accepts (the avatar test's deliberate mistakes left out).
    let bones = extension["humanoid"]["humanBones"].as_object_mut().unwrap();
    bones.remove("jaw");
    bones.remove("tail");
    let mut file = avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", extension);
    let nodes = file["nodes"].as_array_mut().unwrap();
    for (index, translation) in TAIL.iter().enumerate() {
        let mut node = json!({ "name": format!("Tail{}", index + 1), "translation": translation });
        if index + 1 < TAIL.len() {
            node["children"] = json!([19 + index]);
        }
        nodes.push(node);
    }
    nodes[0]["children"].as_array_mut().unwrap().push(json!(18));
    let (times, translations, rotations) = sway();
    let mut bytes = common::f32_bytes(&times);
    bytes.extend(common::f32_bytes(&translations));
    bytes.extend(common::f32_bytes(&rotations));
    let (t, v, r) = (times.len() * 4, translations.len() * 4, rotations.len() * 4);
    file["buffers"] = json!([{ "byteLength": bytes.len(), "uri": common::data_uri(&bytes) }]);
    file["bufferViews"] = json!([
        { "buffer": 0, "byteOffset": 0, "byteLength": t },
        { "buffer": 0, "byteOffset": t, "byteLength": v },
        { "buffer": 0, "byteOffset": t + v, "byteLength": r }
    ]);
    let count = times.len();
    file["accessors"] = json!([
        { "bufferView": 0, "componentType": 5126, "count": count, "type": "SCALAR", "min": [0.0], "max": [2.0] },
        { "bufferView": 1, "componentType": 5126, "count": count, "type": "VEC3" },
        { "bufferView": 2, "componentType": 5126, "count": count, "type": "VEC4" }
    ]);
    file["animations"] = json!([{
        "name": "Sway",
        "samplers": [{ "input": 0, "output": 1 }, { "input": 0, "output": 2 }],
        "channels": [
            { "sampler": 0, "target": { "node": 0, "path": "translation" } },
            { "sampler": 1, "target": { "node": 0, "path": "rotation" } }
        ]
    }]);
    let joint = |node: usize, stiffness: f32| {
        json!({ "node": node, "hitRadius": 0.03, "stiffness": stiffness, "gravityPower": 0.8,
                "gravityDir": [0.0, -1.0, 0.0], "dragForce": 0.3 })
    };
    file["extensionsUsed"]
        .as_array_mut()
        .unwrap()
        .push(json!("VRMC_springBone"));
    file["extensions"]["VRMC_springBone"] = json!({
        "specVersion": "1.0",
        "colliders": [
            { "node": 5, "shape": { "sphere": { "offset": [0.0, -0.35, -0.2], "radius": 0.1 } } },
            { "node": 8, "shape": { "capsule": { "offset": [0.0, -0.2, -0.25], "radius": 0.06, "tail": [0.0, -0.45, -0.25] } } }
        ],
        "colliderGroups": [{ "colliders": [0, 1] }],
        "springs": [{ "name": "tail", "joints": [joint(18, 1.0), joint(19, 0.6), joint(20, 0.4), joint(21, 0.4)], "colliderGroups": [0] }]
    });
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// The world positions of nodes 19-21 after the clip played `time` seconds.
fn tail_at(path: &Path, time: &str, more: &[&str]) -> Vec<[f64; 3]> {
    let mut args = vec!["pose", path.to_str().unwrap(), "--clip", "Sway", "--time", time];
    args.extend(more);
    let posed: Value = serde_json::from_str(&common::succeed(&args)).unwrap();
    let joints = posed["joints"].as_array().unwrap();
    (19..=21)
        .map(|node| {
            let joint = joints.iter().find(|j| j["node"] == node).unwrap();
            let world = joint["world"].as_array().unwrap();
            std::array::from_fn(|i| world[12 + i].as_f64().unwrap())
        })
        .collect()
}

#[test]
fn spring_bones_swing_as_three_vrm_swings_them() {
    let dir = common::temp_dir("vrm-springs");
    let path = dir.join("tail.gltf");
    write_spring_avatar(&path);
    // three-vrm 3.5.5's positions of nodes 19, 20 and 21 after 30 and 60 steps.
    let three_vrm: [(&str, [[f64; 3]; 3]); 2] = [
        (
            "0.5",
            [
                [0.1646221, 0.8465123, -0.1610746],
                [0.1287691, 0.7051201, -0.2013589],
                [0.113907, 0.6072744, -0.2156879],
            ],
        ),
        (
            "1",
            [
                [0.0161044, 0.8468142, -0.2095141],
                [0.0150963, 0.7113539, -0.276964],
                [0.0181863, 0.612884, -0.2941144],
            ],
        ),
    ];
    for (time, expected) in three_vrm {
        let found = tail_at(&path, time, &[]);
        for (node, (a, b)) in found.iter().zip(&expected).enumerate() {
            let distance = (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt();
            assert!(
                distance < 1e-4,
                "node {} at {time} s: {a:?}, three-vrm {b:?}",
                19 + node
            );
        }
    }
    // Without springs the tail follows the hips stiffly: far from where it swings.
    let stiff = tail_at(&path, "0.5", &["--no-springs"]);
    let swung = tail_at(&path, "0.5", &[]);
    assert!((0..3).map(|i| (stiff[2][i] - swung[2][i]).powi(2)).sum::<f64>().sqrt() > 0.05);
    assert_eq!(tail_at(&path, "0.5", &[]), swung, "the same time, the same pose");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_panel_swings_resets_and_shows_the_springs() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use rigscope::ui::ViewerState;

    let dir = common::temp_dir("vrm-springs-panel");
    let path = dir.join("tail.gltf");
    write_spring_avatar(&path);
    let model = rigscope::asset::load(&path).unwrap();
    let tail = model.skeleton.find("Tail1").unwrap();
    let rest_rotation = model.skeleton.rest_pose().local()[tail].rotation;
    let mut harness = panel_harness(model);
    harness.run();
    assert!(harness.query_by_label("Spring bones: 3 joints, 2 colliders").is_some());
    // Playing for half a second swings the tail off its rest rotation.
    let play = |harness: &mut Harness<'_, ViewerState>, seconds: f32| {
        let state = harness.state_mut();
        let model = state.document.model.clone();
        state.frame.player.playing = true;
        for _ in 0..(seconds * 60.0) as usize {
            state.frame.advance(&model, 0, Default::default(), 1.0 / 60.0);
        }
        state.frame.pose.local()[tail].rotation
    };
    let swung = play(&mut harness, 0.5);
    assert!(swung.angle_between(rest_rotation) > 0.05, "{swung}");
    // Reset puts it back at rest; paused, it stays there.
    harness.state_mut().frame.player.playing = false;
    harness.get_by_label("Reset springs").click();
    harness.run();
    let state = harness.state_mut();
    let model = state.document.model.clone();
    state.frame.advance(&model, 0, Default::default(), 1.0 / 60.0);
    assert!(state.frame.pose.local()[tail].rotation.angle_between(rest_rotation) < 1e-4);
    // Swing off: the clip alone poses the tail (it does not animate it: rest).
    harness.get_by_label("Swing").click();
    harness.run();
    assert!(!harness.state().frame.avatar.springs_on);
    let after = play(&mut harness, 0.5);
    assert!(after.angle_between(rest_rotation) < 1e-4);
    harness.get_by_label("Show colliders").click();
    harness.run();
    assert!(harness.state().inspection.spring_gizmos);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn video_swings_the_springs_from_its_first_frame_unless_told_not_to() {
    let dir = common::temp_dir("vrm-springs-video");
    let path = dir.join("tail.gltf");
    write_spring_avatar(&path);
    let frames = |name: &str, more: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "video",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "96x72",
        ];
        args.extend([
            "--clip",
            "Sway",
            "--to",
            "1",
            "--fps",
            "4",
            "--view",
            "right",
            "--no-grid",
        ]);
        args.extend(more);
        common::succeed(&args);
        let last = image::open(out.join("frame_0004.png")).unwrap().to_rgba8();
        (image::open(out.join("frame_0001.png")).unwrap().to_rgba8(), last)
    };
    let (swung_first, swung_last) = frames("swung", &[]);
    let (stiff_first, stiff_last) = frames("stiff", &["--no-springs"]);
    // At the first frame the springs are at rest either way; at 0.75 s the tail has swung.
    assert_eq!(common::different_fraction(&swung_first, &stiff_first), 0.0);
    assert!(common::different_fraction(&swung_last, &stiff_last) > 0.002);
    std::fs::remove_dir_all(&dir).unwrap();
}
