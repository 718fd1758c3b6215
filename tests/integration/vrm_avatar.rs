//! VRM avatars (glTF with `VRMC_vrm` 1.0 or `VRM` 0.x): `inspect` prints and reports the
//! humanoid map and the meta of both versions in one form (0.x's thumbs renamed as VRM 1.0 and
//! three-vrm name them), bad bone names and nodes are warnings, `lint` checks the map and the
//! T-pose, and the panel shows the map and selects a bone's joint. The tests write their own
//! stick-figure avatars.

use crate::common;

use std::path::Path;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use rigscope::ui::{ViewerState, panel};
use rigscope::view::avatar_motion::EyeTarget;
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
    std::fs::write(
        path,
        serde_json::to_string_pretty(&avatar_json(left_arm, name, extension)).unwrap(),
    )
    .unwrap();
}

/// The stick figure's glTF JSON.
pub(crate) fn avatar_json(left_arm: [f32; 3], name: &str, extension: Value) -> Value {
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
    json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": json_nodes,
        "extensionsUsed": [name],
        "extensions": { name: extension },
    })
}

pub(crate) fn vrm_1_0() -> Value {
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

pub(crate) fn vrm_0_x() -> Value {
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
    assert_eq!(avatar["mtoon_materials"], json!([]));
    assert_eq!(avatar["expressions"][0]["name"], "happy");
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
    assert_eq!(avatar["mtoon_materials"], json!([]));
    assert_eq!(
        (avatar["spring_joints"].as_u64(), avatar["colliders"].as_u64()),
        (Some(1), Some(0)),
        "the head, a 0.x bone group's root"
    );
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
    let mut harness = panel_harness(model);
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

/// The stick figure with a face: a white square before the head (node 18) with two morph
/// targets (0 pushes it forward, 1 up), and expressions: happy (target 0, the face red, blocks
/// blink), blink (target 1, on or off) and a custom wink (half of target 1).
pub(crate) fn write_face_avatar(path: &Path) {
    let expressions = json!({
        "preset": {
            "happy": {
                "morphTargetBinds": [{ "node": 18, "index": 0, "weight": 1.0 }],
                "materialColorBinds": [{ "material": 0, "type": "color", "targetValue": [1.0, 0.0, 0.0, 1.0] }],
                "overrideBlink": "block"
            },
            "blink": { "morphTargetBinds": [{ "node": 18, "index": 1, "weight": 1.0 }], "isBinary": true }
        },
        "custom": { "wink": { "morphTargetBinds": [{ "node": 18, "index": 1, "weight": 0.5 }] } }
    });
    let mut extension = vrm_1_0();
    extension["expressions"] = expressions;
    extension["expressions"]["preset"]["lookLeft"] =
        json!({ "morphTargetBinds": [{ "node": 18, "index": 0, "weight": 1.0 }] });
    extension["lookAt"] = json!({
        "type": "expression",
        "rangeMapHorizontalOuter": { "inputMaxValue": 90.0, "outputScale": 1.0 }
    });
    let mut file = avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", extension);
    let square = [-0.1, -0.1, 0.1, 0.1, -0.1, 0.1, 0.1, 0.1, 0.1, -0.1, 0.1, 0.1];
    let forward = [0.0, 0.0, 0.1].repeat(4);
    let up = [0.0, 0.1, 0.0].repeat(4);
    let mut bytes = common::f32_bytes(&[square.to_vec(), forward, up].concat());
    bytes.extend([0u16, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()));
    let view = |offset: usize, length: usize| json!({ "buffer": 0, "byteOffset": offset, "byteLength": length });
    let vec3 = |view: usize, min: [f32; 3], max: [f32; 3]| json!({ "bufferView": view, "componentType": 5126, "count": 4, "type": "VEC3", "min": min, "max": max });
    file["buffers"] = json!([{ "byteLength": bytes.len(), "uri": common::data_uri(&bytes) }]);
    file["bufferViews"] = json!([view(0, 48), view(48, 48), view(96, 48), view(144, 12)]);
    file["accessors"] = json!([
        vec3(0, [-0.1, -0.1, 0.1], [0.1, 0.1, 0.1]),
        vec3(1, [0.0, 0.0, 0.1], [0.0, 0.0, 0.1]),
        vec3(2, [0.0, 0.1, 0.0], [0.0, 0.1, 0.0]),
        { "bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR" }
    ]);
    file["materials"] = json!([{ "name": "Skin", "pbrMetallicRoughness": { "baseColorFactor": [1.0, 1.0, 1.0, 1.0] }, "doubleSided": true }]);
    file["meshes"] = json!([{ "name": "Face", "primitives": [{
        "attributes": { "POSITION": 0 }, "indices": 3, "material": 0,
        "targets": [{ "POSITION": 1 }, { "POSITION": 2 }]
    }] }]);
    let nodes = file["nodes"].as_array_mut().unwrap();
    nodes.push(json!({ "name": "Face", "mesh": 0 }));
    nodes[4]["children"] = json!([18]);
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
}

/// The face's morph weights and base colour as `pose` gives them with `expressions` set.
fn face_with(path: &Path, expressions: &[&str]) -> (Vec<f64>, Vec<f64>) {
    face_looking(path, expressions, None)
}

/// `face_with`, the eyes looking at `target` (`X,Y,Z`).
fn face_looking(path: &Path, expressions: &[&str], target: Option<&str>) -> (Vec<f64>, Vec<f64>) {
    let mut args = vec!["pose", path.to_str().unwrap()];
    for expression in expressions {
        args.extend(["--expression", expression]);
    }
    if let Some(target) = target {
        args.extend(["--look-at", target]);
    }
    let posed: Value = serde_json::from_str(&common::succeed(&args)).unwrap();
    let numbers = |value: &Value| {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    let weights = numbers(&posed["primitives"][0]["weights"]);
    let colour = (posed["properties"].as_array().unwrap().iter())
        .find(|p| p["pointer"] == "/materials/0/pbrMetallicRoughness/baseColorFactor")
        .map_or_else(Vec::new, |p| numbers(&p["value"]));
    (weights, colour)
}

#[test]
fn expressions_set_morph_weights_and_material_colours_as_three_vrm_does() {
    let dir = common::temp_dir("vrm-expressions");
    let path = dir.join("face.gltf");
    write_face_avatar(&path);
    assert_eq!(face_with(&path, &[]), (vec![0.0, 0.0], vec![1.0, 1.0, 1.0, 1.0]));
    // Happy at half: half the morph, the colour half way to red, and blink blocked.
    assert_eq!(
        face_with(&path, &["happy=0.5", "blink=1"]),
        (vec![0.5, 0.0], vec![1.0, 0.5, 0.5, 1.0])
    );
    // Blink is on or off; the custom wink binds half of the same target, and they add up.
    assert_eq!(face_with(&path, &["blink=0.4"]).0, [0.0, 0.0]);
    assert_eq!(face_with(&path, &["blink=0.6"]).0, [0.0, 1.0]);
    assert_eq!(face_with(&path, &["blink=0.6", "wink=1"]).0, [0.0, 1.5]);

    let text = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(
        text.contains("happy: 1 morph weights, 4 material values; overrides blink: block"),
        "{text}"
    );
    assert!(
        text.contains("wink: 1 morph weights, 0 material values; custom"),
        "{text}"
    );
    let fails = |args: &[&str]| String::from_utf8_lossy(&common::rigscope(args).stderr).into_owned();
    let file = path.to_str().unwrap();
    let error = fails(&["pose", file, "--expression", "smile=1"]);
    assert!(
        error.contains("no expression 'smile' (its expressions: happy, blink, lookLeft, wink)"),
        "{error}"
    );
    let error = fails(&["pose", file, "--expression", "happy=2"]);
    assert!(error.contains("the weight must be 0 to 1"), "{error}");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let error = fails(&["pose", fox.to_str().unwrap(), "--expression", "happy=1"]);
    assert!(error.contains("is not a VRM avatar"), "{error}");

    // Looking 45° to the avatar's left from 0.06 above the head (at 1.7): lookLeft at 45/90.
    let left = face_looking(&path, &[], Some("1,1.76,1"));
    assert!((left.0[0] - 0.5).abs() < 1e-5, "{left:?}");
    let error = fails(&["pose", fox.to_str().unwrap(), "--look-at", "1,1,1"]);
    assert!(error.contains("is not a VRM avatar with a look-at"), "{error}");

    // The picture: the face turns red.
    let render = |name: &str, expressions: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "render",
            file,
            "-o",
            out.to_str().unwrap(),
            "--size",
            "160x120",
            "--view",
            "front",
        ];
        for expression in expressions {
            args.extend(["--expression", expression]);
        }
        common::succeed(&args);
        image::open(&out).unwrap().to_rgba8()
    };
    let plain = render("plain.png", &[]);
    let happy = render("happy.png", &["happy=1"]);
    // Red over green and blue (the happy face reads (246, 61, 61)).
    let reddish = |image: &image::RgbaImage| {
        (image.pixels())
            .filter(|p| p[0] > 120 && p[0].saturating_sub(p[1]) > 100 && p[0].saturating_sub(p[2]) > 100)
            .count()
    };
    assert_eq!(reddish(&plain), 0);
    assert!(reddish(&happy) > 200, "{} red pixels", reddish(&happy));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_panel_sets_expressions_by_slider_and_resets_them() {
    let dir = common::temp_dir("vrm-expression-panel");
    let path = dir.join("face.gltf");
    write_face_avatar(&path);
    let model = rigscope::asset::load(&path).unwrap();
    let mut harness = panel_harness(model);
    harness.run();
    assert!(harness.query_by_label("Expressions: 4").is_some());
    let label = |text: &'static str| By::new().role(Role::Label).label(text);
    assert!(harness.query(label("blink (on or off)")).is_some());
    assert!(harness.query(label("wink (custom)")).is_some());
    harness
        .get(By::new().role(Role::Slider).label("happy"))
        .set_value_accesskit(0.75);
    harness.run();
    assert_eq!(harness.state().frame.avatar.expressions, [0.75, 0.0, 0.0, 0.0]);
    // The frame's pose carries it.
    let state = harness.state_mut();
    let model = state.document.model.clone();
    state.frame.advance(&model, 0, Default::default(), 0.0);
    assert_eq!(state.frame.pose.morph_weights(), [0.75, 0.0]);
    harness.get_by_label("Reset expressions").click();
    harness.run();
    assert_eq!(harness.state().frame.avatar.expressions, [0.0; 4]);

    // The eyes follow the camera until told to look at a point; where they look is said.
    assert_eq!(harness.state().frame.avatar.eyes, EyeTarget::Camera);
    harness.get_by_label("at a point").click();
    harness.run();
    assert!(matches!(harness.state().frame.avatar.eyes, EyeTarget::Point(_)));
    let state = harness.state_mut();
    state.frame.avatar.look_target = Some(glam::Vec3::new(1.0, 1.76, 1.0));
    state.frame.advance(&model, 0, Default::default(), 0.0);
    assert_eq!(state.frame.pose.morph_weights()[0], 0.5, "lookLeft");
    harness.run();
    assert!(harness.query_by_label("Looking 45° left, 0° down").is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The viewer's panel on `model`, tall enough to show the whole avatar section.
pub(crate) fn panel_harness(model: rigscope::asset::Model) -> Harness<'static, ViewerState> {
    panel_harness_of(ViewerState::new(model))
}

/// The viewer's panel on `state`.
pub(crate) fn panel_harness_of(state: ViewerState) -> Harness<'static, ViewerState> {
    Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    )
}

#[test]
fn the_point_the_eyes_look_at_is_dragged_in_the_view() {
    let dir = common::temp_dir("vrm-look-drag");
    let path = dir.join("face.gltf");
    write_face_avatar(&path);
    let mut state = ViewerState::new(rigscope::asset::load(&path).unwrap());
    let start = glam::Vec3::new(0.0, 1.76, 1.0);
    state.frame.avatar.eyes = EyeTarget::Point(start);
    let camera = rigscope::view::OrbitCamera::default();
    let view = rigscope::view::Viewport::new(&camera.camera_view(800.0 / 600.0), 800.0, 600.0);
    let at = view.to_pixels(start).unwrap();
    // Away from the point, a press is not the eyes'; on it, it grabs them.
    assert!(!state.press_in_view(at + glam::Vec2::new(60.0, 0.0), &view));
    state.release_in_view();
    assert!(state.press_in_view(at + glam::Vec2::new(2.0, 1.0), &view));
    assert!(state.dragging_in_view());
    state.drag_in_view(at + glam::Vec2::new(80.0, 0.0), &view);
    state.release_in_view();
    assert!(!state.dragging_in_view());
    let EyeTarget::Point(moved) = state.frame.avatar.eyes else {
        panic!("still a point")
    };
    // Moved to the avatar's left (+X, the camera being in front and to its right), in the
    // plane through the point that faces the camera.
    assert!(moved.x > start.x + 0.05, "{moved}");
    let moved_on_screen = view.to_pixels(moved).unwrap();
    assert!(
        moved_on_screen.distance(at + glam::Vec2::new(80.0, 0.0)) < 0.5,
        "{moved_on_screen}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_expression_look_at_sets_the_look_expressions_over_the_sliders() {
    let dir = common::temp_dir("vrm-look-owns");
    let path = dir.join("face.gltf");
    write_face_avatar(&path);
    // lookLeft binds morph target 0: set by hand to 1, the look-at replaces it while it looks
    // somewhere (straight ahead: 0; 45° to the left: 45/90), as three-vrm's look-at does.
    let look_left = |target: Option<&str>| face_looking(&path, &["lookLeft=1"], target).0[0];
    assert_eq!(look_left(Some("0,1.76,5")), 0.0);
    assert!((look_left(Some("1,1.76,1")) - 0.5).abs() < 1e-5);
    // With no target (and no clip moving the eyes) the look-at rests: the slider's value stays.
    assert_eq!(look_left(None), 1.0);

    // The viewer: while the eyes follow a target, the lookLeft slider is held and says why.
    let mut harness = panel_harness(rigscope::asset::load(&path).unwrap());
    let lookleft = 2;
    let state = harness.state_mut();
    let model = state.document.model.clone();
    state.frame.avatar.expressions[lookleft] = 1.0;
    state.frame.avatar.look_target = Some(glam::Vec3::new(0.0, 1.76, 5.0));
    state.frame.advance(&model, 0, Default::default(), 0.0);
    assert_eq!(state.frame.pose.morph_weights()[0], 0.0, "the look-at's lookLeft");
    harness.run();
    let slider = harness.get(By::new().role(Role::Slider).label("lookLeft (set by the look-at)"));
    assert!(slider.accesskit_node().is_disabled());
    assert!(
        harness
            .query_by_label("Range maps: in 1 at 90°, out 1 at 90°, down 1 at 90°, up 1 at 90°")
            .is_some()
    );
    // As animated, with nothing animating the eyes: the slider is the user's again.
    let state = harness.state_mut();
    state.frame.avatar.eyes = EyeTarget::Animated;
    state.frame.avatar.look_target = None;
    state.frame.advance(&model, 0, Default::default(), 0.0);
    assert_eq!(state.frame.pose.morph_weights()[0], 1.0, "the slider's lookLeft");
    harness.run();
    assert!(
        !harness
            .get(By::new().role(Role::Slider).label("lookLeft"))
            .accesskit_node()
            .is_disabled()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inspect_says_the_look_at_and_the_works_an_avatar_derives_from() {
    let dir = common::temp_dir("vrm-look-inspect");
    let face = dir.join("face.gltf");
    write_face_avatar(&face);
    let mut json = common::gltf_json(&face);
    json["extensions"]["VRMC_vrm"]["meta"]["references"] = json!(["https://example.com/original", "Base model"]);
    std::fs::write(&face, json.to_string()).unwrap();
    let avatar = &inspect_json(&face)["avatar"];
    assert_eq!(
        avatar["references"],
        json!(["https://example.com/original", "Base model"])
    );
    let map = json!({ "input_max": 90.0, "output_scale": 1.0 });
    assert_eq!(
        avatar["look_at"],
        json!({ "type": "expression", "horizontal_inner": map, "horizontal_outer": map,
                "vertical_down": map, "vertical_up": map })
    );
    let text = common::succeed(&["inspect", face.to_str().unwrap()]);
    assert!(
        text.contains("derived from: https://example.com/original, Base model"),
        "{text}"
    );
    assert!(
        text.contains(
            "look-at: expression (sets lookUp, lookDown, lookLeft and lookRight); range maps, degrees → weight: \
             horizontal inner 90 → 1, horizontal outer 90 → 1, vertical down 90 → 1, vertical up 90 → 1"
        ),
        "{text}"
    );

    // 0.x: one `reference`; the bone type (its range maps' output in degrees, 10 unless set).
    let old = dir.join("old.gltf");
    let mut extension = vrm_0_x();
    extension["meta"]["reference"] = json!("Old original");
    extension["firstPerson"] = json!({ "firstPersonBone": 4, "lookAtTypeName": "Bone",
        "lookAtHorizontalOuter": { "xRange": 60.0, "yRange": 12.0 } });
    write_avatar(&old, [-0.3, 0.0, 0.0], "VRM", extension);
    let avatar = &inspect_json(&old)["avatar"];
    assert_eq!(avatar["references"], json!(["Old original"]));
    assert_eq!(avatar["look_at"]["type"], "bone");
    assert_eq!(
        avatar["look_at"]["horizontal_outer"],
        json!({ "input_max": 60.0, "output_scale": 12.0 })
    );
    let text = common::succeed(&["inspect", old.to_str().unwrap()]);
    assert!(
        text.contains("look-at: bone (turns the eye bones); range maps, degrees → degrees: horizontal inner 90 → 10, horizontal outer 60 → 12"),
        "{text}"
    );
    // None given: no line, an empty list.
    let stick = dir.join("stick.gltf");
    write_avatar(&stick, [0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0());
    assert_eq!(inspect_json(&stick)["avatar"]["references"], json!([]));
    assert!(!common::succeed(&["inspect", stick.to_str().unwrap()]).contains("derived from"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_extended_collider_without_a_spec_version_is_a_warning() {
    let dir = common::temp_dir("vrm-extended-collider");
    let path = dir.join("colliders.gltf");
    let extended = |spec: Option<&str>| {
        let mut extended = json!({ "shape": { "plane": { "offset": [0.0, 0.0, 0.0], "normal": [0.0, 1.0, 0.0] } } });
        if let Some(spec) = spec {
            extended["specVersion"] = json!(spec);
        }
        json!({ "VRMC_springBone_extended_collider": extended })
    };
    let sphere = json!({ "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.1 } });
    let springs = json!({
        "specVersion": "1.0",
        "colliders": [
            { "node": 4, "shape": sphere, "extensions": extended(None) },
            { "node": 0, "shape": sphere, "extensions": extended(Some("1.0")) },
            { "node": 2, "shape": sphere, "extensions": extended(Some("2.0")) }
        ],
        "colliderGroups": [{ "colliders": [0, 1, 2] }],
        "springs": [{ "joints": [{ "node": 11 }, { "node": 12 }], "colliderGroups": [0] }]
    });
    let mut file = avatar_json([0.3, 0.0, 0.0], "VRMC_vrm", vrm_1_0());
    file["extensions"]["VRMC_springBone"] = springs;
    file["extensionsUsed"] = json!(["VRMC_vrm", "VRMC_springBone", "VRMC_springBone_extended_collider"]);
    std::fs::write(&path, file.to_string()).unwrap();
    let report = inspect_json(&path);
    assert_eq!(report["avatar"]["colliders"], 3, "each falls back to its sphere");
    let warnings: Vec<&str> = (report["warnings"].as_array().unwrap().iter())
        .filter_map(Value::as_str)
        .filter(|w| w.contains("extended_collider"))
        .collect();
    assert_eq!(
        warnings,
        [
            "VRMC_springBone collider 0 on node 4 'Head': its VRMC_springBone_extended_collider has no specVersion \
             (not used; the collider is VRMC_springBone's own shape, as three-vrm falls back)",
            "VRMC_springBone collider 2 on node 2 'Chest': its VRMC_springBone_extended_collider has specVersion \
             '2.0', which three-vrm does not know (not used; the collider is VRMC_springBone's own shape, as \
             three-vrm falls back)"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
