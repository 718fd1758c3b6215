//! The `rigscope` binary's headless commands, run as a user would run them.

use crate::common;

use std::path::Path;

use common::{json, rigscope, succeed, temp_dir};
use glam::{Mat4, Vec3};
use serde_json::Value;

fn sample(relative: &str) -> String {
    common::gltf(relative).display().to_string()
}

fn positions(primitive: &Value) -> Vec<Vec3> {
    primitive["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            Vec3::new(
                p[0].as_f64().unwrap() as f32,
                p[1].as_f64().unwrap() as f32,
                p[2].as_f64().unwrap() as f32,
            )
        })
        .collect()
}

#[test]
fn inspect_summarises_a_rigged_model() {
    let fox = sample("Fox/glTF-Binary/Fox.glb");
    let text = succeed(&["inspect", &fox]);
    assert!(text.contains("26 nodes"), "{text}");
    assert!(text.contains("24 joints"), "{text}");
    assert!(text.contains("up to 4 influences"), "{text}");
    assert!(text.contains("clip 'Walk': 0.708 s, 21 channels"), "{text}");
    assert!(text.contains("NORMAL (computed: flat, per face)"), "{text}");

    assert!(
        text.contains("26 nodes (depth 8): 24 skinned joints, 20 animated nodes"),
        "{text}"
    );
    let report = json(&["inspect", &fox, "--json"]);
    assert_eq!(report["nodes"], 26);
    assert_eq!(
        (report["skinned_joints"].as_u64(), report["animated_nodes"].as_u64()),
        (Some(24), Some(20))
    );
    assert_eq!(report["skins"][0]["joints"], 24);
    assert_eq!(report["skins"][0]["root"]["node"], 2);
    assert_eq!(report["max_influences"], 4);
    assert_eq!(report["vertices"], 1728);
    let clips: Vec<&str> = report["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(clips, ["Survey", "Walk", "Run"]);
    assert_eq!(report["clips"][1]["interpolation"]["LINEAR"], 21);
    assert_eq!(report["clips"][1]["properties"]["rotation"], 20);
    assert_eq!(report["warnings"].as_array().unwrap().len(), 0);
}

#[test]
fn inspect_reports_extensions_morph_targets_and_repairs() {
    let cube = sample("AnimatedMorphCube/glTF-Quantized/AnimatedMorphCube.gltf");
    let report = json(&["inspect", &cube, "--json"]);
    assert_eq!(report["extensions_required"][0], "KHR_mesh_quantization");
    assert_eq!(report["morph_targets"], 2);
    assert_eq!(report["clips"][0]["properties"]["weights"], 1);

    // A file whose weights do not sum to 1 is repaired and the repair reported.
    let dir = temp_dir("inspect-repairs");
    let file = dir.join("unnormalised.gltf");
    std::fs::write(&file, unnormalised_weights_gltf()).unwrap();
    let report = json(&["inspect", file.to_str().unwrap(), "--json"]);
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .unwrap()
            .contains("1 vertices whose weights did not sum to 1")),
        "{warnings:?}"
    );
    assert_eq!(report["max_influences"], 2);
    let text = succeed(&["inspect", file.to_str().unwrap()]);
    assert!(
        text.contains("warning: /meshes/0/primitives/0 (mesh 'unnamed'): 1 vertices whose weights did not sum to 1"),
        "{text}"
    );
}

/// One triangle skinned to two joints; vertex 2's weights sum to 0.5.
fn unnormalised_weights_gltf() -> String {
    let mut bin = common::f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    for _ in 0..3 {
        bin.extend_from_slice(&[0, 1, 0, 0]); // JOINTS_0 as u8
    }
    bin.extend(common::f32_bytes(&[
        1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.25, 0.25, 0.0, 0.0,
    ]));
    let data = common::data_uri(&bin);
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "buffers":[{{"byteLength":{len},"uri":"{data}"}}],
        "bufferViews":[{{"buffer":0,"byteLength":36}},{{"buffer":0,"byteOffset":36,"byteLength":12}},{{"buffer":0,"byteOffset":48,"byteLength":48}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}},
                     {{"bufferView":1,"componentType":5121,"count":3,"type":"VEC4"}},
                     {{"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}}}]}}],
        "skins":[{{"joints":[1,2]}}],
        "nodes":[{{"mesh":0,"skin":0}},{{"children":[2]}},{{"translation":[0,1,0]}}]}}"#,
        len = bin.len()
    )
}

#[test]
fn pose_json_has_the_documented_shape_and_order() {
    let truck = sample("CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb");
    let posed = json(&["pose", &truck, "--clip", "Wheels", "--time", "0.5"]);
    assert_eq!(posed["clip"], "Wheels");
    assert_eq!(posed["time"], 0.5);
    let keys: Vec<(u64, u64, u64)> = posed["primitives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["node"].as_u64().unwrap(),
                p["mesh"].as_u64().unwrap(),
                p["primitive"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(keys.len(), 5, "two wheel instances of one primitive, a body of three");
    let joints = posed["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 6);
    assert!(
        joints
            .iter()
            .enumerate()
            .all(|(i, j)| j["node"] == i as u64 && j["world"].as_array().unwrap().len() == 16)
    );

    let rest = json(&["pose", &truck]);
    assert_eq!(rest["clip"], Value::Null);
    let by_index = json(&["pose", &truck, "--clip", "0", "--time", "0.5"]);
    assert_eq!(by_index, posed, "clips can be named by index");
}

#[test]
fn pose_positions_follow_the_skinning_formula() {
    // Independently of the CPU skinning code: v' = Σ w · (world_joint · inverse_bind · v).
    let path = common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
    let model = rigscope::asset::load(&path).unwrap();
    let posed = json(&["pose", path.to_str().unwrap(), "--clip", "0", "--time", "0.7"]);
    let world: Vec<Mat4> = posed["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            Mat4::from_cols_slice(
                &j["world"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap() as f32)
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let skin = &model.skins[0];
    let primitive = &model.meshes[0].primitives[0];
    let weights = primitive.skin_weights.as_ref().unwrap();
    let actual = positions(&posed["primitives"][0]);
    for (v, bind) in primitive.positions.iter().enumerate() {
        let mut expected = Vec3::ZERO;
        for (&joint, &weight) in weights.joints[v].iter().zip(&weights.weights[v]) {
            let node = model.file_node[skin.joints[joint as usize]];
            expected += weight * (world[node] * skin.inverse_bind[joint as usize]).transform_point3(*bind);
        }
        assert!(
            actual[v].abs_diff_eq(expected, 1e-4),
            "vertex {v}: {} vs {expected}",
            actual[v]
        );
    }
    let rest = json(&["pose", path.to_str().unwrap()]);
    assert_ne!(positions(&rest["primitives"][0]), actual, "the clip moves the mesh");
}

#[test]
fn pose_time_options_map_onto_the_clip() {
    let fox = sample("Fox/glTF-Binary/Fox.glb");
    let at = |time: &str, playback: &str| {
        json(&["pose", &fox, "--clip", "Walk", "--time", time, "--playback", playback])["primitives"][0].clone()
    };
    // Walk lasts 0.7083 s.
    assert_eq!(
        positions(&at("0.9", "once")),
        positions(&at("5", "once")),
        "once holds the last frame"
    );
    assert_ne!(positions(&at("0.1", "once")), positions(&at("0.3", "once")));
    let looped = positions(&at("0.9083333", "loop"));
    let direct = positions(&at("0.2", "once"));
    assert!(
        looped.iter().zip(&direct).all(|(a, b)| a.abs_diff_eq(*b, 1e-2)),
        "loop wraps at the duration"
    );
    let bounced = positions(&at("0.9083333", "pingpong"));
    let mirrored = positions(&at("0.5083333", "once"));
    assert!(
        bounced.iter().zip(&mirrored).all(|(a, b)| a.abs_diff_eq(*b, 1e-2)),
        "ping-pong plays back"
    );
    assert_eq!(
        positions(&at("-1", "once")),
        positions(&at("0", "once")),
        "negative times clamp"
    );
}

#[test]
fn pose_obj_has_every_vertex_and_face() {
    let xbot = sample("Xbot/Xbot.glb");
    let dir = temp_dir("pose-obj");
    let file = dir.join("walk.obj");
    let stdout = succeed(&[
        "pose",
        &xbot,
        "--clip",
        "walk",
        "--time",
        "0.4",
        "--format",
        "obj",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(stdout.is_empty(), "-o writes to the file, not standard output");
    let obj = std::fs::read_to_string(&file).unwrap();
    let count = |prefix: &str| obj.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("v "), 12473 + 15901);
    assert_eq!(count("vn "), 12473 + 15901);
    assert_eq!(count("vt "), 12473 + 15901);
    assert_eq!(count("f "), 20840 + 28272);
    assert_eq!(count("o "), 2);
    let vertex_count = count("v ");
    for face in obj.lines().filter(|l| l.starts_with("f ")) {
        for corner in face[2..].split(' ') {
            let index: usize = corner.split('/').next().unwrap().parse().unwrap();
            assert!((1..=vertex_count).contains(&index), "{face}");
        }
    }
    // The OBJ vertices are the JSON positions.
    let posed = json(&["pose", &xbot, "--clip", "walk", "--time", "0.4"]);
    let first = positions(&posed["primitives"][0])[0];
    let line = obj.lines().find(|l| l.starts_with("v ")).unwrap();
    let v: Vec<f32> = line[2..].split(' ').map(|c| c.parse().unwrap()).collect();
    assert!(Vec3::from_slice(&v).abs_diff_eq(first, 1e-5));
}

#[test]
fn errors_name_the_file_and_exit_non_zero() {
    let missing = rigscope(&["inspect", "no/such/model.glb"]);
    assert_eq!(missing.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("no/such/model.glb") && stderr.contains("cannot read"),
        "{stderr}"
    );

    let dir = temp_dir("errors");
    let corrupt = dir.join("corrupt.glb");
    std::fs::write(&corrupt, b"glTF\x02\0\0\0\xff\xff\0\0").unwrap();
    let output = rigscope(&["pose", corrupt.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("corrupt.glb") && stderr.contains("truncated"),
        "{stderr}"
    );

    let fox = sample("Fox/glTF-Binary/Fox.glb");
    let output = rigscope(&["pose", &fox, "--clip", "Dance"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no clip 'Dance'") && stderr.contains("Survey, Walk, Run"),
        "{stderr}"
    );

    let output = rigscope(&["pose", &fox, "--time", "NaN"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--time"));

    let output = rigscope(&["pose", &fox, "--format", "fbx"]);
    assert_eq!(output.status.code(), Some(2), "clap rejects unknown values");

    let output = rigscope(&[
        "inspect",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("Cargo.toml")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unsupported file type '.toml'"));
}

/// The model matrix of the joint named `name` in `pose` JSON.
fn joint_world(pose: &Value, name: &str) -> Mat4 {
    let joint = pose["joints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == name)
        .unwrap_or_else(|| panic!("no joint {name}"));
    let values: Vec<f32> = joint["world"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    Mat4::from_cols_slice(&values)
}

#[test]
fn pose_solves_ik_chains_and_reports_them() {
    let man = sample("CesiumMan/glTF-Binary/CesiumMan.glb");
    let hand = "Skeleton_arm_joint_R__3_";
    let base = ["pose", man.as_str(), "--time", "0.5", "--clip", "0"];
    let animated = json(&base);
    // A third of the way to the shoulder and a little aside: reachable by bending the elbow.
    let start = joint_world(&animated, hand).w_axis.truncate();
    let shoulder = joint_world(&animated, "Skeleton_arm_joint_R").w_axis.truncate();
    let target = start.lerp(shoulder, 0.3) + Vec3::new(0.02, -0.01, 0.02);
    let spec = |solver: &str| format!("{hand}:2:{},{},{}{solver}", target.x, target.y, target.z);
    for solver in ["", ":ccd", ":fabrik"] {
        let spec = spec(solver);
        let posed = json(&[&base[..], &["--ik", &spec, "--ik-iterations", "200"]].concat());
        let report = &posed["ik"][0];
        assert_eq!(report["end"], hand);
        assert_eq!(report["bones"], 2);
        assert_eq!(report["solver"], if solver == ":ccd" { "CCD" } else { "FABRIK" });
        assert_eq!(report["reached"], true, "{report}");
        let reached = joint_world(&posed, hand).w_axis.truncate();
        let distance = report["distance"].as_f64().unwrap() as f32;
        assert!((reached.distance(target) - distance).abs() < 1e-5, "{report}");
        // The default threshold: 0.1% of the chain's length, well under a millimetre here.
        assert!(distance < 1e-3, "{report}");
        // Joints outside the chain do not move.
        for joint in ["Skeleton_arm_joint_L__3_", "leg_joint_R_5", "Skeleton_neck_joint_2"] {
            assert_eq!(joint_world(&posed, joint), joint_world(&animated, joint), "{joint}");
        }
    }
    let spec = spec("");
    let with = |extra: &[&str]| json(&[&base[..], &["--ik", &spec], extra].concat());
    let off = with(&["--ik-weight", "0"]);
    assert_eq!(off["joints"], animated["joints"], "weight 0 is the animation");
    assert_eq!(off["ik"][0]["iterations"], 0);
    let one = with(&["--ik-iterations", "1", "--ik-threshold", "0"]);
    assert_eq!(one["ik"][0]["iterations"], 1);
    assert_eq!(one["ik"][0]["reached"], false);
    let loose = with(&["--ik-threshold", "1"]);
    assert_eq!(loose["ik"][0]["iterations"], 0, "within a 1-unit threshold already");
    assert_eq!(loose["joints"], animated["joints"]);
}

#[test]
fn ik_constraints_from_the_command_line_hold() {
    let man = sample("CesiumMan/glTF-Binary/CesiumMan.glb");
    let (hand, elbow, shoulder) = (
        "Skeleton_arm_joint_R__3_",
        "Skeleton_arm_joint_R__2_",
        "Skeleton_arm_joint_R",
    );
    let rest = json(&["pose", &man]);
    let (start, top) = (
        joint_world(&rest, hand).w_axis.truncate(),
        joint_world(&rest, shoulder).w_axis.truncate(),
    );
    let target = start.lerp(top, 0.3) + Vec3::new(0.02, 0.02, 0.02);
    let spec = format!("{hand}:2:{},{},{}", target.x, target.y, target.z);
    let hinge = format!("{elbow}:hinge:0,0,1:-120:120");
    let solve = |limits: &[&str]| {
        let ik = ["pose", man.as_str(), "--ik", spec.as_str(), "--ik-iterations", "100"];
        json(&[&ik[..], limits].concat())
    };
    let posed = solve(&["--ik-constraint", &hinge]);
    // The elbow's rotation away from rest turns about its own Z axis only.
    let local =
        |pose: &Value, joint: &str, parent: &str| joint_world(pose, parent).inverse() * joint_world(pose, joint);
    let rest_rotation = Mat4::to_scale_rotation_translation(&local(&rest, elbow, shoulder)).1;
    let rotation = Mat4::to_scale_rotation_translation(&local(&posed, elbow, shoulder)).1;
    let relative = rest_rotation.inverse() * rotation;
    assert!((relative * Vec3::Z).distance(Vec3::Z) < 1e-3, "{relative:?}");
    assert!(
        relative.angle_between(glam::Quat::IDENTITY) > 0.01,
        "the elbow did bend"
    );
    // A 5° cone on the shoulder: the upper arm stays within 5° of its rest direction (the
    // shoulder's parent is outside the chain, so world directions compare directly).
    let cone = format!("{shoulder}:ball:5:2");
    let limited = solve(&["--ik-constraint", &hinge, "--ik-constraint", &cone]);
    let upper_arm = |pose: &Value| (joint_world(pose, elbow).w_axis - joint_world(pose, shoulder).w_axis).truncate();
    let swing = upper_arm(&limited).angle_between(upper_arm(&rest)).to_degrees();
    assert!(swing <= 5.0 + 1e-2, "{swing}°");
    let free_swing = upper_arm(&posed).angle_between(upper_arm(&rest)).to_degrees();
    assert!(free_swing > 5.0, "without the cone the shoulder swings {free_swing}°");

    for (args, message) in [
        (vec!["--ik", "nosuchjoint:2:0,0,0"], "no joint 'nosuchjoint'"),
        (vec!["--ik", "Skeleton_arm_joint_R__3_:40:0,0,0"], "a chain of 40 bones"),
        (
            vec!["--ik", "Skeleton_arm_joint_R__3_:2:0,nan,0"],
            "not a finite number",
        ),
        (vec!["--ik", "Skeleton_arm_joint_R__3_:two:0,0,0"], "not a whole number"),
        (vec!["--ik", "Skeleton_arm_joint_R__3_:2:0,0"], "not three numbers"),
        (vec!["--ik", &spec, "--ik-weight", "1.5"], "between 0 and 1"),
        (vec!["--ik", &spec, "--ik-threshold", "-1"], "--ik-threshold"),
        (
            vec!["--ik", &spec, "--ik-constraint", "Skeleton_neck_joint_2:ball:30"],
            "not a rotating joint",
        ),
        (
            vec!["--ik", &spec, "--ik-constraint", &format!("{elbow}:hinge:x:50:10")],
            "MIN is above its MAX",
        ),
        (
            vec!["--ik", &spec, "--ik-constraint", &format!("{elbow}:ball:-5")],
            "cannot be negative",
        ),
        (
            vec!["--ik", &spec, "--ik-constraint", &format!("{elbow}:elastic:5")],
            "expected JOINT:ball",
        ),
        (
            vec!["--ik-constraint", &format!("{elbow}:ball:5")],
            "needs an --ik chain",
        ),
    ] {
        let output = rigscope(&[&["pose", man.as_str()][..], &args].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn pose_skins_by_dual_quaternions_on_request() {
    let man = sample("CesiumMan/glTF-Binary/CesiumMan.glb");
    let args = ["pose", man.as_str(), "--clip", "0", "--time", "0.6"];
    let linear = json(&args);
    let dual = json(&[&args[..], &["--skin-method", "dual-quaternion"]].concat());
    let (a, b) = (positions(&linear["primitives"][0]), positions(&dual["primitives"][0]));
    assert_eq!(a.len(), b.len());
    let moved = a.iter().zip(&b).filter(|(a, b)| a.distance(**b) > 1e-4).count();
    // Rigidly bound vertices agree; blended ones move a little, none far.
    assert!(moved > 0 && moved < a.len(), "{moved} of {}", a.len());
    let most = a.iter().zip(&b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    assert!(most < 0.1, "{most}");
    assert_eq!(linear["joints"], dual["joints"], "the skeleton is the same");
}

#[test]
fn joints_lists_the_tree_and_describes_one_joint_as_pose_sees_it() {
    let man = common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
    let man = man.to_str().unwrap();
    let tree = common::json(&["joints", man, "--json"]);
    let tree = tree.as_array().unwrap();
    let pose = common::json(&["pose", man, "--clip", "0", "--time", "0.5"]);
    let joints = pose["joints"].as_array().unwrap();
    assert_eq!(tree.len(), joints.len(), "every joint once");
    // Depth first: each joint's parent comes before it, one level up.
    for (position, entry) in tree.iter().enumerate() {
        if let Some(parent) = entry["parent"].as_u64() {
            let above = tree[..position]
                .iter()
                .find(|e| e["index"].as_u64() == Some(parent))
                .unwrap();
            assert_eq!(above["depth"].as_u64().unwrap() + 1, entry["depth"].as_u64().unwrap());
        }
    }
    let skinned = tree.iter().filter(|e| e["vertices"].as_u64().unwrap() > 0).count();
    let animated = tree.iter().filter(|e| e["animated"].as_bool().unwrap()).count();
    assert!(
        skinned >= 15 && animated >= 15,
        "{skinned} skinned, {animated} animated"
    );
    let text = common::succeed(&["joints", man]);
    assert_eq!(text.lines().count(), tree.len());
    assert!(text.contains("  Armature (joint 1)"), "{text}");

    // One joint: its world transform is the pose command's, its bone the distance to its parent.
    let report = common::json(&["joints", man, "--clip", "0", "--time", "0.5", "--joint", "3", "--json"]);
    let position = |name: &Value| joint_world(&pose, name.as_str().unwrap()).w_axis.truncate();
    let (at, parent) = (position(&report["name"]), position(&report["parent"]));
    let translation = &report["world"]["translation"];
    let translation = Vec3::from_array([0, 1, 2].map(|a| translation[a].as_f64().unwrap() as f32));
    assert!(translation.abs_diff_eq(at, 1e-5), "{translation} vs {at}");
    let bone_length = report["bone_length"].as_f64().unwrap() as f32;
    assert!((bone_length - at.distance(parent)).abs() < 1e-5);
    assert_eq!(report["animated"], true);
    // The rest pose is not the walk's.
    let rest = common::json(&["joints", man, "--pose-mode", "rest", "--joint", "3", "--json"]);
    assert_ne!(rest["local"], report["local"], "the walk moves it");
    let text = common::succeed(&["joints", man, "--joint", "3"]);
    assert!(
        text.contains("bone length: ") && text.contains("world rotation (xyzw)"),
        "{text}"
    );
    let missing = common::rigscope(&["joints", man, "--joint", "nose"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--joint: "));
}

#[test]
fn inspect_counts_skinned_joints_and_animated_nodes_apart() {
    // Node animation without a skin, and MD5's upright root, which is neither.
    let boxes = json(&["inspect", &sample("BoxAnimated/glTF-Binary/BoxAnimated.glb"), "--json"]);
    assert_eq!(
        (boxes["skinned_joints"].as_u64(), boxes["animated_nodes"].as_u64()),
        (Some(0), Some(2))
    );
    let bob = common::assets_dir().join("md5/Bob/Bob.md5mesh");
    let bob = json(&["inspect", bob.to_str().unwrap(), "--json"]);
    assert_eq!(bob["nodes"], 34, "33 joints under the Z-up root");
    assert_eq!(
        (bob["skinned_joints"].as_u64(), bob["animated_nodes"].as_u64()),
        (Some(33), Some(33))
    );
}

#[test]
fn pose_warns_about_a_clamped_time_and_an_empty_mask_means_the_whole_body() {
    let xbot = sample("Xbot/Xbot.glb");
    let output = common::rigscope(&["pose", &xbot, "--clip", "walk", "--time", "99", "--playback", "once"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.contains("shows its last frame"),
        "{stderr}"
    );
    let pose = |additive: &str| succeed(&["pose", &xbot, "--clip", "walk", "--time", "0.3", "--additive", additive]);
    assert_eq!(pose("headShake:1"), pose("headShake:1::"));
    assert_ne!(pose("headShake:1"), pose("headShake:1::mixamorig:LeftHand"));
}

#[test]
fn a_sheet_of_a_model_without_clips_draws_its_rest_pose_once_and_says_so() {
    let cube = common::assets_dir().join("md5/SimpleCube/SimpleCube.md5mesh");
    let dir = common::temp_dir("cli-sheet-no-clips");
    let width = |frames: &str| {
        let out = dir.join(format!("sheet-{frames}.png"));
        let output = common::rigscope(&[
            "sheet",
            cube.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--frames",
            frames,
            "--cell",
            "64",
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success() && stderr.contains("has no clips"), "{stderr}");
        image::open(&out).unwrap().width()
    };
    assert_eq!(width("4"), width("1"), "one frame, however many were asked for");
}

#[test]
fn the_manual_pages_and_the_completions_come_from_the_commands_themselves() {
    let page = common::succeed(&["man"]);
    assert!(
        page.contains(".TH rigscope 1"),
        "a manual page, section 1: {}",
        &page[..200.min(page.len())]
    );
    for command in ["render", "install\\-desktop", "completions"] {
        assert!(page.contains(command), "the page lists {command}");
    }
    let dir = common::temp_dir("man-pages");
    common::succeed(&["man", "--out-dir", dir.to_str().unwrap()]);
    let render = std::fs::read_to_string(dir.join("rigscope-render.1")).unwrap();
    assert!(render.contains("\\-\\-channel"), "render's page has its options");
    assert!(dir.join("rigscope.1").exists() && dir.join("rigscope-install-desktop.1").exists());
    for (shell, mark) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef rigscope"),
        ("fish", "complete -c rigscope"),
    ] {
        let script = common::succeed(&["completions", shell]);
        assert!(script.contains(mark), "{shell}: {}", &script[..200.min(script.len())]);
        assert!(
            script.contains("install-desktop") && script.contains("channel"),
            "{shell} completes commands and options"
        );
    }
}
