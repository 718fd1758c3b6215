//! VRM motion: a VRM animation (`VRMC_vrm_animation`, what `.vrma` files hold) played on an
//! avatar through both humanoid maps, whose bones have other axes (rolls) and whose hips stand
//! at another height; the same animation on a plain rig paired by humanoid names; and node
//! constraints (`VRMC_node_constraint`) following their source. The tests write their files.

use crate::common;
use crate::vrm_avatar::{avatar_json, vrm_1_0, write_face_avatar};
use egui_kittest::kittest::Queryable;

use std::path::Path;

use glam::{Quat, Vec3};
use serde_json::{Value, json};

/// A glTF with one node tree (`nodes`: name, parent, translation, rotation), one clip of
/// LINEAR keys at 0 and 1 s (`channels`: node, "translation" or "rotation", the two values),
/// and `extensions` at the root.
fn write_rig(
    path: &Path,
    nodes: &[(&str, Option<usize>, [f32; 3], Quat)],
    channels: &[(usize, &str, [f32; 4], [f32; 4])],
    extensions: Value,
) {
    let json_nodes: Vec<Value> = (0..nodes.len())
        .map(|index| {
            let (name, _, translation, rotation) = nodes[index];
            let children: Vec<usize> = (0..nodes.len()).filter(|&c| nodes[c].1 == Some(index)).collect();
            let mut node = json!({ "name": name, "translation": translation, "rotation": rotation.to_array() });
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    let mut bytes = common::f32_bytes(&[0.0, 1.0]);
    let mut views = vec![json!({ "buffer": 0, "byteOffset": 0, "byteLength": 8 })];
    let mut accessors = vec![
        json!({ "bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0] }),
    ];
    let (mut samplers, mut targets) = (Vec::new(), Vec::new());
    for (index, &(node, path, from, to)) in channels.iter().enumerate() {
        let width = if path == "rotation" { 4 } else { 3 };
        let values: Vec<f32> = from[..width].iter().chain(&to[..width]).copied().collect();
        views.push(json!({ "buffer": 0, "byteOffset": bytes.len(), "byteLength": values.len() * 4 }));
        bytes.extend(common::f32_bytes(&values));
        accessors.push(json!({ "bufferView": index + 1, "componentType": 5126, "count": 2, "type": if width == 4 { "VEC4" } else { "VEC3" } }));
        samplers.push(json!({ "input": 0, "output": index + 1 }));
        targets.push(json!({ "sampler": index, "target": { "node": node, "path": path } }));
    }
    let used: Vec<&String> = extensions.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    let file = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": (0..nodes.len()).filter(|&n| nodes[n].1.is_none()).collect::<Vec<_>>() }],
        "nodes": json_nodes,
        "buffers": [{ "byteLength": bytes.len(), "uri": common::data_uri(&bytes) }],
        "bufferViews": views,
        "accessors": accessors,
        "animations": [{ "name": "Wave", "samplers": samplers, "channels": targets }],
        "extensionsUsed": used,
        "extensions": extensions,
    });
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// The VRM animation: hips at 2 (twice the stick figure's), its left upper arm rolled 90°
/// about its length; in 1 s the hips move 0.5 sideways and the arm turns from out sideways
/// (+X) to straight down, in model space, the avatar becomes happy (its expression node's
/// translation x from 0 to 1) and looks 40° to its left (its look-at node's rotation).
pub(crate) fn write_wave(path: &Path) {
    let roll = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let down = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2) * roll;
    let nodes = [
        ("J_Hips", None, [0.0, 2.0, 0.0], Quat::IDENTITY),
        ("J_Spine", Some(0), [0.0, 0.4, 0.0], Quat::IDENTITY),
        ("J_ArmL", Some(1), [0.3, 0.3, 0.0], roll),
        ("J_ElbowL", Some(2), [0.5, 0.0, 0.0], Quat::IDENTITY),
        ("Happy", None, [0.0, 0.0, 0.0], Quat::IDENTITY),
        ("Gaze", None, [0.0, 0.0, 0.0], Quat::IDENTITY),
    ];
    let left = Quat::from_rotation_y(40f32.to_radians());
    let channels = [
        (0, "translation", [0.0, 2.0, 0.0, 0.0], [0.5, 2.0, 0.0, 0.0]),
        (2, "rotation", roll.to_array(), down.to_array()),
        (4, "translation", [0.0; 4], [1.0, 0.0, 0.0, 0.0]),
        (5, "rotation", Quat::IDENTITY.to_array(), left.to_array()),
    ];
    let bones = json!({ "hips": { "node": 0 }, "spine": { "node": 1 }, "leftUpperArm": { "node": 2 }, "leftLowerArm": { "node": 3 } });
    let animation = json!({
        "specVersion": "1.0",
        "humanoid": { "humanBones": bones },
        "expressions": { "preset": { "happy": { "node": 4 } } },
        "lookAt": { "node": 5 }
    });
    write_rig(path, &nodes, &channels, json!({ "VRMC_vrm_animation": animation }));
}

/// Each joint's world position by name, posed by `args` after `pose FILE`.
fn positions(file: &Path, args: &[&str]) -> Vec<(String, Vec3)> {
    let mut all = vec!["pose", file.to_str().unwrap()];
    all.extend(args);
    let posed: Value = serde_json::from_str(&common::succeed(&all)).unwrap();
    (posed["joints"].as_array().unwrap().iter())
        .map(|joint| {
            let world = joint["world"].as_array().unwrap();
            let at = |i: usize| world[12 + i].as_f64().unwrap() as f32;
            (
                joint["name"].as_str().unwrap().to_owned(),
                Vec3::new(at(0), at(1), at(2)),
            )
        })
        .collect()
}

fn position(found: &[(String, Vec3)], name: &str) -> Vec3 {
    found.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn a_vrm_animation_plays_on_an_avatar_through_the_humanoid_maps() {
    let dir = common::temp_dir("vrm-motion");
    let motion = dir.join("wave.vrma.gltf");
    write_wave(&motion);
    let avatar = dir.join("stick.gltf");
    std::fs::write(&avatar, avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0()).to_string()).unwrap();
    let clips_from = ["--clips-from", motion.to_str().unwrap(), "--clip", "0", "--time", "1"];
    let found = positions(&avatar, &clips_from);
    // The hips moved half of 0.5 (its hips are half as high), and the arm points down in model
    // space although the animation's arm bone is rolled and the avatar's is not.
    let (arm, forearm) = (position(&found, "L_Arm"), position(&found, "L_Forearm"));
    assert!(arm.abs_diff_eq(Vec3::new(0.45, 1.55, 0.0), 1e-5), "{arm}");
    assert!(
        (forearm - arm).abs_diff_eq(Vec3::new(0.0, -0.3, 0.0), 1e-5),
        "{forearm}"
    );
    // The expression track sets the avatar's happy (which binds nothing here) half way at 0.5 s.
    let at_half = |file: &Path, more: &[&str]| -> Value {
        let mut args = vec!["pose", file.to_str().unwrap(), "--clips-from", motion.to_str().unwrap()];
        args.extend(["--clip", "0", "--time", "0.5"]);
        args.extend(more);
        serde_json::from_str(&common::succeed(&args)).unwrap()
    };
    let posed = at_half(&avatar, &[]);
    let happy = (posed["properties"].as_array().unwrap().iter())
        .find(|p| p["pointer"] == "/extensions/VRMC_vrm/expressions/preset/happy")
        .map(|p| p["value"][0].as_f64().unwrap());
    assert_eq!(happy, Some(0.5));
    // On an avatar whose happy binds a morph target, the face follows; its look-at (expression
    // type) looks 20° left at half time, so lookLeft adds 20/90 to the same target.
    let face = dir.join("face.gltf");
    write_face_avatar(&face);
    let weight = at_half(&face, &[])["primitives"][0]["weights"][0].as_f64().unwrap();
    assert!((weight - (0.5 + 20.0 / 90.0)).abs() < 1e-4, "{weight}");
    // A target given wins over the track: straight ahead, no lookLeft.
    let ahead = at_half(&face, &["--look-at", "0,1.76,5"]);
    assert!((ahead["primitives"][0]["weights"][0].as_f64().unwrap() - 0.5).abs() < 1e-5);
    // Opened (or dropped) over the avatar, the animation is offered through the humanoid maps.
    let mut state = rigscope::ui::ViewerState::new(rigscope::asset::load(&avatar).unwrap());
    state.open(&motion);
    let mut harness = crate::vrm_avatar::panel_harness_of(state);
    // Asked in the File section and over the view.
    assert_eq!(harness.get_all_by_label_contains("4 of its 6 joints match").count(), 2);
    assert_eq!(harness.get_all_by_label_contains("holds 1 clip.").count(), 2);
    harness
        .get_all_by_label("Add its 1 clip to the open rig")
        .next()
        .unwrap()
        .click();
    harness.run();
    let names: Vec<&str> = harness.state().document.model.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Wave (wave.vrma.gltf)"]);
    // At time 0 the avatar stands as at rest: the animation's rest plays as the avatar's.
    let start = positions(
        &avatar,
        &["--clips-from", motion.to_str().unwrap(), "--clip", "0", "--time", "0"],
    );
    assert_eq!(start, positions(&avatar, &[]));

    // A plain rig whose joints have humanoid names pairs through the animation's map.
    let plain = dir.join("plain.gltf");
    let nodes = [
        ("Hips", None, [0.0, 1.0, 0.0], Quat::IDENTITY),
        ("Spine", Some(0), [0.0, 0.3, 0.0], Quat::IDENTITY),
        ("LeftUpperArm", Some(1), [0.2, 0.2, 0.0], Quat::IDENTITY),
        ("LeftLowerArm", Some(2), [0.3, 0.0, 0.0], Quat::IDENTITY),
    ];
    write_rig(&plain, &nodes, &[], json!({}));
    let out = common::rigscope(&[
        "pose",
        plain.to_str().unwrap(),
        "--clips-from",
        motion.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.contains("4 joints paired"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn node_constraints_follow_their_source() {
    let dir = common::temp_dir("vrm-constraints");
    let path = dir.join("cubes.gltf");
    let turn = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_x(0.6);
    let nodes = [
        ("Source", None, [0.0, 0.0, 0.0], Quat::IDENTITY),
        ("Half", None, [3.0, 0.0, 0.0], Quat::IDENTITY),
        ("Roll", None, [-3.0, 0.0, 0.0], Quat::IDENTITY),
        ("Pointer", None, [0.0, 0.0, 3.0], Quat::IDENTITY),
        ("PointerTip", Some(3), [0.0, 0.0, 1.0], Quat::IDENTITY),
    ];
    write_rig(
        &path,
        &nodes,
        &[(0, "rotation", Quat::IDENTITY.to_array(), turn.to_array())],
        json!({}),
    );
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let constrain =
        |constraint: Value| json!({ "VRMC_node_constraint": { "specVersion": "1.0", "constraint": constraint } });
    file["nodes"][1]["extensions"] = constrain(json!({ "rotation": { "source": 0, "weight": 0.5 } }));
    file["nodes"][2]["extensions"] = constrain(json!({ "roll": { "source": 0, "rollAxis": "Y", "weight": 1.0 } }));
    // Aims its +Z at the half-turned node (which itself follows the source): sources first.
    file["nodes"][3]["extensions"] = constrain(json!({ "aim": { "source": 1, "aimAxis": "PositiveZ" } }));
    file["extensionsUsed"] = json!(["VRMC_node_constraint"]);
    std::fs::write(&path, file.to_string()).unwrap();
    let posed: Value = serde_json::from_str(&common::succeed(&[
        "pose",
        path.to_str().unwrap(),
        "--clip",
        "0",
        "--time",
        "1",
    ]))
    .unwrap();
    let rotation = |name: &str| {
        let joint = posed["joints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|j| j["name"] == name)
            .unwrap();
        let m: Vec<f32> = joint["world"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        Quat::from_mat4(&glam::Mat4::from_cols_slice(&m))
    };
    assert!(
        rotation("Half").abs_diff_eq(Quat::IDENTITY.slerp(turn, 0.5), 1e-4),
        "{}",
        rotation("Half")
    );
    let roll = rotation("Roll");
    assert!(
        (roll * Vec3::Y).abs_diff_eq(Vec3::Y, 1e-4) && roll.angle_between(Quat::IDENTITY) > 1.0,
        "{roll}"
    );
    let tip = positions(&path, &["--clip", "0", "--time", "1"]);
    let aim = (position(&tip, "PointerTip") - position(&tip, "Pointer")).normalize();
    assert!(
        aim.abs_diff_eq((Vec3::new(3.0, 0.0, 0.0) - Vec3::new(0.0, 0.0, 3.0)).normalize(), 1e-4),
        "{aim}"
    );
    let text = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(text.contains("VRMC_node_constraint: used, supported"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inspect_says_what_a_vrm_animation_animates() {
    let dir = common::temp_dir("vrm-motion-inspect");
    let motion = dir.join("wave.vrma.gltf");
    write_wave(&motion);
    let file = motion.to_str().unwrap();
    // The wave maps four bones and keys the hips and the left upper arm, happy and the eyes.
    let report: Value = serde_json::from_str(&common::succeed(&["inspect", "--json", file])).unwrap();
    assert_eq!(
        report["vrm_animation"],
        json!({ "mapped_bones": 4, "humanoid": ["hips", "leftUpperArm"], "expressions": ["happy"], "look_at": true })
    );
    assert_eq!(report["avatar"], Value::Null);
    let text = common::succeed(&["inspect", file]);
    assert!(
        text.contains(
            "VRM animation: 2 of its 4 humanoid bones animated: hips, leftUpperArm\n    \
             expressions animated: happy\n    look-at track: yes\n"
        ),
        "{text}"
    );
    // A glTF that is not one says nothing of it.
    let avatar = dir.join("stick.gltf");
    std::fs::write(&avatar, avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0()).to_string()).unwrap();
    let report: Value =
        serde_json::from_str(&common::succeed(&["inspect", "--json", avatar.to_str().unwrap()])).unwrap();
    assert_eq!(report["vrm_animation"], Value::Null);
    assert!(!common::succeed(&["inspect", avatar.to_str().unwrap()]).contains("VRM animation"));
    std::fs::remove_dir_all(&dir).unwrap();
}
