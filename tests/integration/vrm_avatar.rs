//! VRM avatars (glTF with `VRMC_vrm` 1.0 or `VRM` 0.x): `inspect` prints and reports the
//! humanoid map and the meta of both versions in one form (0.x's thumbs renamed as VRM 1.0 and
//! three-vrm name them), bad bone names and nodes are warnings, `lint` checks the map and the
//! T-pose, and the panel shows the map and selects a bone's joint. The tests write their own
//! stick-figure avatars.

use crate::common;

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::ui::{ViewerState, panel};
use serde_json::{Value, json};

/// The stick figure's nodes: name, parent and translation; the left arm along `left_arm`.
fn nodes(left_arm: [f32; 3]) -> Vec<(&'static str, Option<usize>, [f32; 3])> {
    let right_arm = [-left_arm[0], left_arm[1], left_arm[2]];
    vec![
        ("Hips", None, [0.0, 1.0, 0.0]),
        ("Spine", Some(0), [0.0, 0.2, 0.0]),
        ("Chest", Some(1), [0.0, 0.2, 0.0]),
        ("Neck", Some(2), [0.0, 0.2, 0.0]),
        ("Head", Some(3), [0.0, 0.1, 0.0]),
        ("L_Thigh", Some(0), [0.1, 0.0, 0.0]),
        ("L_Shin", Some(5), [0.0, -0.45, 0.0]),
        ("L_Foot", Some(6), [0.0, -0.45, 0.0]),
        ("R_Thigh", Some(0), [-0.1, 0.0, 0.0]),
        ("R_Shin", Some(8), [0.0, -0.45, 0.0]),
        ("R_Foot", Some(9), [0.0, -0.45, 0.0]),
        ("L_Arm", Some(2), [0.2, 0.15, 0.0]),
        ("L_Forearm", Some(11), left_arm),
        ("L_Hand", Some(12), left_arm),
        ("L_Thumb1", Some(13), [0.03, 0.0, 0.03]),
        ("R_Arm", Some(2), [-0.2, 0.15, 0.0]),
        ("R_Forearm", Some(15), right_arm),
        ("R_Hand", Some(16), right_arm),
    ]
}

/// The humanoid bones by VRM 1.0 name and node (the thumb as 1.0 names it).
const BONES: [(&str, usize); 18] = [
    ("hips", 0),
    ("spine", 1),
    ("chest", 2),
    ("neck", 3),
    ("head", 4),
    ("leftUpperLeg", 5),
    ("leftLowerLeg", 6),
    ("leftFoot", 7),
    ("rightUpperLeg", 8),
    ("rightLowerLeg", 9),
    ("rightFoot", 10),
    ("leftUpperArm", 11),
    ("leftLowerArm", 12),
    ("leftHand", 13),
    ("leftThumbMetacarpal", 14),
    ("rightUpperArm", 15),
    ("rightLowerArm", 16),
    ("rightHand", 17),
];

/// A glTF of the stick figure with `extension` (named `name`) at the root.
fn write_avatar(path: &Path, left_arm: [f32; 3], name: &str, extension: Value) {
    let nodes = nodes(left_arm);
    let json_nodes: Vec<Value> = (0..nodes.len())
        .map(|index| {
            let (node_name, _, translation) = nodes[index];
            let children: Vec<usize> = (0..nodes.len()).filter(|&c| nodes[c].1 == Some(index)).collect();
            let mut node = json!({ "name": node_name, "translation": translation });
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    let file = json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": json_nodes,
        "extensionsUsed": [name],
        "extensions": { name: extension },
    });
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

fn vrm_1_0() -> Value {
    let bones: serde_json::Map<String, Value> = BONES
        .iter()
        .map(|&(bone, node)| (bone.to_owned(), json!({ "node": node })))
        .chain([
            ("tail".to_owned(), json!({ "node": 1 })),
            ("jaw".to_owned(), json!({ "node": 99 })),
        ])
        .collect();
    json!({
        "specVersion": "1.0",
        "meta": {
            "name": "Stick", "version": "2", "authors": ["A", "B"], "licenseUrl": "https://vrm.dev/licenses/1.0/",
            "avatarPermission": "onlyAuthor", "commercialUsage": "personalNonProfit", "allowRedistribution": false
        },
        "humanoid": { "humanBones": bones },
        "expressions": { "preset": { "happy": {} } }
    })
}

fn vrm_0_x() -> Value {
    // 0.x names the thumb's first bone "Proximal".
    let bones: Vec<Value> = BONES
        .iter()
        .map(|&(bone, node)| {
            let bone = if bone == "leftThumbMetacarpal" {
                "leftThumbProximal"
            } else {
                bone
            };
            json!({ "bone": bone, "node": node, "useDefaultValues": true })
        })
        .collect();
    json!({
        "specVersion": "0.0",
        "meta": { "title": "Old Stick", "author": "C", "licenseName": "CC_BY", "allowedUserName": "Everyone",
                  "commercialUssageName": "Disallow" },
        "humanoid": { "humanBones": bones },
        "secondaryAnimation": { "boneGroups": [{ "bones": [4] }] }
    })
}

fn inspect_json(path: &Path) -> Value {
    let out = common::succeed(&["inspect", "--json", path.to_str().unwrap()]);
    serde_json::from_str(&out).unwrap()
}

#[test]
fn both_versions_give_one_humanoid_map_and_meta() {
    let dir = common::temp_dir("vrm-avatar");
    let new = dir.join("stick.vrm.gltf");
    write_avatar(&new, [0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0());
    let report = inspect_json(&new);
    let avatar = &report["avatar"];
    assert_eq!(avatar["version"], "VRM 1.0");
    assert_eq!(
        (avatar["title"].as_str(), avatar["authors"].clone()),
        (Some("Stick"), json!(["A", "B"]))
    );
    assert_eq!(
        avatar["permissions"][0],
        json!(["who may use the avatar", "onlyAuthor"])
    );
    assert!(
        avatar["permissions"]
            .as_array()
            .unwrap()
            .contains(&json!(["redistribution", "not allowed"]))
    );
    let map: Vec<(String, u64)> = avatar["humanoid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["bone"].as_str().unwrap().to_owned(), b["node"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(String, u64)> = BONES.iter().map(|&(b, n)| (b.to_owned(), n as u64)).collect();
    let mut sorted = expected.clone();
    sorted.sort_by_key(|(bone, _)| {
        rigscope::asset::human_bone::HUMAN_BONES
            .iter()
            .position(|b| b.name == bone)
    });
    assert_eq!(map, sorted);
    assert_eq!(avatar["not_shown"], json!(["expressions"]));
    let warnings = report["warnings"].to_string();
    assert!(warnings.contains("'tail' is not a humanoid bone"), "{warnings}");
    assert!(
        warnings.contains("bone 'jaw' names node 99, which the file does not have"),
        "{warnings}"
    );
    assert!(
        !warnings.contains("extension VRMC_vrm"),
        "the extension is read: {warnings}"
    );

    let old = dir.join("old.gltf");
    write_avatar(&old, [-0.3, 0.0, 0.0], "VRM", vrm_0_x());
    let report = inspect_json(&old);
    let avatar = &report["avatar"];
    assert_eq!(
        (avatar["version"].as_str(), avatar["title"].as_str()),
        (Some("VRM 0.x"), Some("Old Stick"))
    );
    assert_eq!(avatar["licence"], "CC_BY");
    let thumb = avatar["humanoid"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["node"] == 14)
        .unwrap();
    assert_eq!(
        thumb["bone"], "leftThumbMetacarpal",
        "0.x's proximal thumb is 1.0's metacarpal"
    );
    assert_eq!(avatar["not_shown"], json!(["spring bones"]));
    let text = common::succeed(&["inspect", old.to_str().unwrap()]);
    assert!(
        text.contains("humanoid: 18 of 55 bones mapped") && text.contains("leftThumbMetacarpal → node 14 'L_Thumb1'"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn lint_checks_the_map_and_the_t_pose() {
    let dir = common::temp_dir("vrm-lint");
    let lint = |path: &Path| {
        let out = common::rigscope(&["lint", "--json", path.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let rules: Vec<String> = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .flat_map(|line| line["findings"].as_array().cloned().unwrap_or_default())
            .filter_map(|f| {
                f["rule"]
                    .as_str()
                    .filter(|r| r.starts_with("humanoid"))
                    .map(str::to_owned)
            })
            .collect();
        (rules, text)
    };
    let t_pose = dir.join("t.gltf");
    write_avatar(&t_pose, [0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0());
    assert_eq!(lint(&t_pose).0, Vec::<String>::new());
    // Arms down, and a required bone (the head) left out.
    let mut extension = vrm_1_0();
    extension["humanoid"]["humanBones"]
        .as_object_mut()
        .unwrap()
        .remove("head");
    let a_pose = dir.join("a.gltf");
    write_avatar(&a_pose, [0.0, -0.3, 0.0], "VRMC_vrm", extension);
    let (rules, text) = lint(&a_pose);
    assert_eq!(
        rules,
        ["humanoid-bone-missing", "humanoid-not-t-pose", "humanoid-not-t-pose"],
        "{text}"
    );
    assert!(text.contains("90° away from +X"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_panel_shows_the_map_and_a_bone_selects_its_joint() {
    let dir = common::temp_dir("vrm-panel");
    let path = dir.join("stick.gltf");
    let mut extension = vrm_1_0();
    extension["humanoid"]["humanBones"]
        .as_object_mut()
        .unwrap()
        .remove("leftFoot");
    write_avatar(&path, [0.3, 0.0, 0.0], "VRMC_vrm", extension);
    let model = rigscope::asset::load(&path).unwrap();
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    harness.run();
    assert!(harness.query_by_label("VRM 1.0 'Stick'").is_some());
    assert!(harness.query_by_label_contains("Humanoid: 17 of 55 bones").is_some());
    assert!(harness.query_by_label("Who may use the avatar: onlyAuthor").is_some());
    assert!(harness.query_by_label("missing (required)").is_some(), "the left foot");
    harness.get_by_label("L_Forearm").click();
    harness.run();
    let selected = harness.state().inspection.selected;
    let forearm = harness.state().document.model.skeleton.find("L_Forearm");
    assert!(selected.is_some() && selected == forearm);
    std::fs::remove_dir_all(&dir).unwrap();
}
