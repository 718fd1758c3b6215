//! `rigscope diff A B` and `diff::compare`: files the tests write with one change each (a
//! joint renamed, a joint reparented, a bind moved 1 cm, a joint's rest turned 5°, the weights
//! of 10 vertices moved to a neighbouring joint, a morph target removed, a clip retimed from 30
//! to 24 fps, a material's roughness changed) are reported exactly, with their numbers; the
//! same model in two formats (glTF and GLB, FBX and GLB) and a file against itself are the
//! same rig, with exit status 0.

use crate::common;

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use rigscope::anim::{resample_clip, trim_clip};
use rigscope::asset::{self, Model};
use rigscope::diff::{self, JointChange, RigDiff, Section, Tolerance};
use rigscope::write::{self, WriteOptions};
use serde_json::json;

const CESIUM_MAN: &str = "CesiumMan/glTF-Binary/CesiumMan.glb";
const FOX: &str = "Fox/glTF-Binary/Fox.glb";

/// CesiumMan's joints the tests change (the writer numbers nodes as the skeleton's joints).
const NECK: usize = 5;
const UPPER_ARM_L: usize = 7;
const FOREARM_L: usize = 8;
const HAND_L: usize = 9;

fn save(model: &Model, path: &Path) -> PathBuf {
    write::save(model, path, &WriteOptions::default()).unwrap();
    path.to_owned()
}

/// CesiumMan without its clip (so that a change to the rig is the only change), written by
/// rigscope's writer into `dir` as `a.glb`: the file, and the model it was written from (to
/// change and write as B).
fn cesium_man_without_clips(dir: &Path) -> (PathBuf, Model) {
    let mut model = asset::load(&common::gltf(CESIUM_MAN)).unwrap();
    model.clips.clear();
    (save(&model, &dir.join("a.glb")), model)
}

/// `a` with its JSON changed by `edit`, written beside it as `b.glb`.
fn edited(a: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let path = a.with_file_name("b.glb");
    std::fs::write(&path, common::edit_glb(&std::fs::read(a).unwrap(), edit)).unwrap();
    path
}

fn compare(a: &Path, b: &Path) -> RigDiff {
    diff::compare(
        &asset::load(a).unwrap(),
        &asset::load(b).unwrap(),
        &Tolerance::default(),
    )
}

fn texts(diff: &RigDiff) -> Vec<&str> {
    diff.findings.iter().map(|f| f.text.as_str()).collect()
}

/// Runs `rigscope diff a b ARGS`: its exit status and standard output.
fn run_diff(a: &Path, b: &Path, args: &[&str]) -> (i32, String) {
    let output = common::rigscope(&[&["diff", a.to_str().unwrap(), b.to_str().unwrap()], args].concat());
    (output.status.code().unwrap(), String::from_utf8(output.stdout).unwrap())
}

#[test]
fn a_renamed_joint_is_paired_by_place_and_reported() {
    let dir = common::temp_dir("diff-renamed");
    let (a, _) = cesium_man_without_clips(&dir);
    let b = edited(&a, |json| json["nodes"][FOREARM_L]["name"] = json!("forearm_L"));
    let diff = compare(&a, &b);
    assert_eq!(texts(&diff), ["'Skeleton_arm_joint_L__3_' renamed to 'forearm_L'"]);
    assert_eq!(diff.findings[0].section, Section::Joints);
    assert_eq!(diff.findings[0].joint, Some(FOREARM_L));
    assert_eq!(diff.joint_pairs[FOREARM_L], Some(FOREARM_L));
    assert_eq!(diff.verdict, "rig changed: 1 joint renamed");

    let (status, stdout) = run_diff(&a, &b, &["--json"]);
    assert_eq!(status, 1, "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["verdict"], "rig changed: 1 joint renamed");
    assert_eq!(report["differs"], true);
    assert_eq!(report["findings"][0]["section"], "joints");
    assert_eq!(report["findings"][0]["joint"], FOREARM_L);
    assert_eq!(
        report["joint_changes"][0],
        json!({"change": "renamed", "joint": FOREARM_L, "joint_b": FOREARM_L,
               "name": "Skeleton_arm_joint_L__3_", "name_b": "forearm_L"})
    );
}

#[test]
fn a_reparented_joint_that_stays_in_place_is_reported_as_reparented_only() {
    let dir = common::temp_dir("diff-reparented");
    let (a, model) = cesium_man_without_clips(&dir);
    // The hand hangs from the upper arm instead of the forearm, where it was.
    let rest = model.skeleton.rest_pose().local();
    let hand = rest[FOREARM_L].combine(&rest[HAND_L]);
    let b = edited(&a, |json| {
        let nodes = json["nodes"].as_array_mut().unwrap();
        let children = |node: &mut serde_json::Value| node["children"].as_array_mut().unwrap().clone();
        let forearm_children: Vec<_> = children(&mut nodes[FOREARM_L])
            .into_iter()
            .filter(|c| c != &json!(HAND_L))
            .collect();
        nodes[FOREARM_L].as_object_mut().unwrap().remove("children");
        if !forearm_children.is_empty() {
            nodes[FOREARM_L]["children"] = json!(forearm_children);
        }
        let mut upper_arm_children = children(&mut nodes[UPPER_ARM_L]);
        upper_arm_children.push(json!(HAND_L));
        nodes[UPPER_ARM_L]["children"] = json!(upper_arm_children);
        let node = nodes[HAND_L].as_object_mut().unwrap();
        node.remove("matrix");
        node.insert("translation".into(), json!(hand.translation.to_array()));
        node.insert("rotation".into(), json!(hand.rotation.to_array()));
        node.insert("scale".into(), json!(hand.scale.to_array()));
    });
    let diff = compare(&a, &b);
    assert_eq!(
        texts(&diff),
        [
            "'Skeleton_arm_joint_L__2_' reparented: under 'Skeleton_arm_joint_L__3_' in A, under 'Skeleton_arm_joint_L__4_' in B"
        ]
    );
    assert_eq!(diff.verdict, "rig changed: 1 joint reparented");
    assert!(matches!(
        diff.joint_changes[..],
        [JointChange::Reparented { joint: HAND_L, .. }]
    ));
}

#[test]
fn a_bind_moved_one_centimetre_is_reported_in_centimetres() {
    let dir = common::temp_dir("diff-bind");
    let (a, mut model) = cesium_man_without_clips(&dir);
    let skin = &mut model.skins[0];
    let slot = skin.joints.iter().position(|&j| j == FOREARM_L).unwrap();
    // The bind matrix moved 1 cm along X in model space: its inverse takes the move back first.
    skin.inverse_bind[slot] *= Mat4::from_translation(Vec3::new(-0.01, 0.0, 0.0));
    let b = save(&model, &dir.join("b.glb"));
    let diff = compare(&a, &b);
    assert_eq!(texts(&diff), ["'Skeleton_arm_joint_L__3_': bind moved 1.00 cm"]);
    assert_eq!(diff.findings[0].section, Section::Binds);
    assert_eq!(diff.verdict, "rig changed: 1 bind moved");
    let [JointChange::Moved { bind_distance, .. }] = diff.joint_changes[..] else {
        panic!("{:?}", diff.joint_changes);
    };
    assert!((bind_distance - 0.01).abs() < 1e-5, "{bind_distance}");
}

#[test]
fn a_joint_turned_five_degrees_at_rest_is_reported_with_the_joint_that_follows() {
    let dir = common::temp_dir("diff-rest");
    let (a, model) = cesium_man_without_clips(&dir);
    let rest = model.skeleton.rest_pose().local()[NECK];
    // About an axis across the neck's bone, so that the joint below it swings.
    let across = model.skeleton.rest_pose().local()[NECK + 1]
        .translation
        .any_orthonormal_vector();
    let turned = rest.rotation * Quat::from_axis_angle(across, 5f32.to_radians());
    let b = edited(&a, |json| {
        let node = json["nodes"][NECK].as_object_mut().unwrap();
        node.remove("matrix");
        node.insert("translation".into(), json!(rest.translation.to_array()));
        node.insert("rotation".into(), json!(turned.to_array()));
        node.insert("scale".into(), json!(rest.scale.to_array()));
    });
    // The neck's one child swings with it: how far, from the turned rest pose.
    let mut turned_pose = model.skeleton.rest_pose().clone();
    turned_pose.local_mut()[NECK].rotation = turned;
    let (before, after) = (
        model.skeleton.rest_pose().to_model_matrices(),
        turned_pose.to_model_matrices(),
    );
    let swing = before[NECK + 1].w_axis.distance(after[NECK + 1].w_axis);
    assert!(swing > 0.001, "{swing}");
    let diff = compare(&a, &b);
    assert_eq!(
        texts(&diff),
        [format!(
            "'Skeleton_neck_joint_1': rest turned 5.00°; 1 joint below it follows (up to {})",
            diff::format_distance(swing)
        )]
    );
    assert_eq!(diff.verdict, "rig changed: rest pose changed at 1 joint");
    let moved: Vec<_> = diff.joint_changes.iter().filter_map(JointChange::joint).collect();
    assert_eq!(moved, [NECK, NECK + 1], "the neck and the joint that follows it moved");
}

#[test]
fn weights_moved_to_a_neighbouring_joint_are_counted_and_located() {
    let dir = common::temp_dir("diff-weights");
    let (a, mut model) = cesium_man_without_clips(&dir);
    let skin = &model.skins[0];
    let (forearm, hand) = (
        skin.joints.iter().position(|&j| j == FOREARM_L).unwrap() as u16,
        skin.joints.iter().position(|&j| j == HAND_L).unwrap() as u16,
    );
    let weights = model.meshes[0].primitives[0].skin_weights.as_mut().unwrap();
    // Ten vertices bound to the forearm and not to the hand move the forearm's weight to it.
    let chosen: Vec<usize> = (0..weights.joints.len())
        .filter(|&v| weights.joints[v].contains(&forearm) && !weights.joints[v].contains(&hand))
        .filter(|&v| weights.weights[v][weights.joints[v].iter().position(|&j| j == forearm).unwrap()] > 0.1)
        .take(10)
        .collect();
    assert_eq!(chosen.len(), 10);
    let mut largest = 0.0f32;
    for &v in &chosen {
        let slot = weights.joints[v].iter().position(|&j| j == forearm).unwrap();
        weights.joints[v][slot] = hand;
        largest = largest.max(weights.weights[v][slot]);
    }
    let b = save(&model, &dir.join("b.glb"));
    let diff = compare(&a, &b);
    let vertices = model.meshes[0].primitives[0].vertex_count();
    assert_eq!(
        texts(&diff),
        [format!(
            "'{}': weights moved on 10 of {vertices} vertices (largest change {largest:.2}), most on \
             'Skeleton_arm_joint_L__3_' (10), 'Skeleton_arm_joint_L__2_' (10)",
            model.meshes[0].name
        )]
    );
    assert_eq!(diff.verdict, "rig changed: weights moved on 10 vertices");
    assert_eq!(diff.weights.changed, 10);
    assert!((diff.weights.largest - largest).abs() < 1e-6);
    // The heat map: the ten vertices, and no other.
    let heat = diff.primitive_weight_change(&asset::load(&a).unwrap(), 0, 0);
    let hot: Vec<usize> = (0..heat.len()).filter(|&v| heat[v] > 0.0).collect();
    assert_eq!(hot, chosen);
}

#[test]
fn a_removed_morph_target_is_named() {
    let dir = common::temp_dir("diff-morph");
    let mut face: serde_json::Value = serde_json::from_str(&common::morph_face::morph_face_gltf(
        r#"{"targetNames":["Angry","Surprised","Sad"]}"#,
    ))
    .unwrap();
    face.as_object_mut().unwrap().remove("animations");
    let a = dir.join("a.gltf");
    std::fs::write(&a, face.to_string()).unwrap();
    let mesh = &mut face["meshes"][0];
    mesh["primitives"][0]["targets"].as_array_mut().unwrap().pop();
    mesh["weights"].as_array_mut().unwrap().pop();
    mesh["extras"]["targetNames"].as_array_mut().unwrap().pop();
    let b = dir.join("b.gltf");
    std::fs::write(&b, face.to_string()).unwrap();
    let diff = compare(&a, &b);
    assert_eq!(texts(&diff), ["'Face': morph target 'Sad' removed"]);
    assert_eq!(diff.verdict, "rig changed: 1 morph target removed");
    assert_eq!(diff.findings[0].section, Section::Morphs);
    // The other two are the same.
    assert_eq!(diff.morphs.iter().filter(|m| m.largest_change == 0.0).count(), 3);
}

#[test]
fn a_clip_retimed_from_30_to_24_fps_is_reported_with_both_rates() {
    let dir = common::temp_dir("diff-retimed");
    let mut model = asset::load(&common::gltf(FOX)).unwrap();
    // Half a second of Walk keyed at 30 fps: a length both rates have whole frames in.
    let walk = model.find_clip("Walk").unwrap();
    let half_second = trim_clip(&model.clips[walk], 0.0, 0.5).unwrap();
    model.clips[walk] = resample_clip(&half_second, 30.0).unwrap();
    let a = save(&model, &dir.join("a.glb"));
    model.clips[walk] = resample_clip(&model.clips[walk], 24.0).unwrap();
    let b = save(&model, &dir.join("b.glb"));
    let diff = compare(&a, &b);
    assert_eq!(diff.findings[0].text, "'Walk': keyed at 30 fps in A, 24 fps in B");
    assert_eq!(diff.verdict, "same rig; 1 clip differs");
    for finding in &diff.findings {
        assert_eq!(finding.section, Section::Clips);
        assert_eq!(finding.clip.as_deref(), Some("Walk"), "{}", finding.text);
    }
    let walk = diff.clips.iter().find(|c| c.name == "Walk").unwrap();
    assert_eq!((walk.key_rate, walk.key_rate_b), (30.0, 24.0));
    assert!((walk.duration - walk.duration_b).abs() < 1e-4, "same length: {walk:?}");
}

#[test]
fn a_changed_roughness_is_a_material_difference_not_a_rig_change() {
    let dir = common::temp_dir("diff-material");
    let mut model = asset::load(&common::gltf(CESIUM_MAN)).unwrap();
    let a = save(&model, &dir.join("a.glb"));
    let roughness = model.materials[0].roughness;
    model.materials[0].roughness = 0.25;
    let b = save(&model, &dir.join("b.glb"));
    let diff = compare(&a, &b);
    assert_eq!(
        texts(&diff),
        [format!("'{}': roughness {roughness} → 0.25", model.materials[0].name)]
    );
    assert_eq!(diff.verdict, "same rig; 1 material differs");
    let (status, stdout) = run_diff(&a, &b, &[]);
    assert_eq!(status, 1);
    assert!(stdout.starts_with("same rig; 1 material differs\n"), "{stdout}");
    assert!(
        stdout.contains("materials:\n  'Cesium_Man-effect': roughness"),
        "{stdout}"
    );
}

#[test]
fn a_gltf_and_its_glb_conversion_are_the_same_rig() {
    let dir = common::temp_dir("diff-formats");
    for sample in ["SimpleSkin/glTF/SimpleSkin.gltf", "SimpleMorph/glTF/SimpleMorph.gltf"] {
        let gltf = common::gltf(sample);
        let glb = dir.join("converted.glb");
        common::succeed(&["convert", gltf.to_str().unwrap(), "-o", glb.to_str().unwrap()]);
        let (status, stdout) = run_diff(&gltf, &glb, &[]);
        assert_eq!(status, 0, "{sample}: {stdout}");
        assert!(stdout.starts_with("same rig\n"), "{sample}: {stdout}");
    }
}

#[test]
fn an_fbx_in_centimetres_and_z_up_and_its_glb_conversion_are_the_same_rig() {
    use common::fbx_file::{Space, skinned_bar, to_binary};
    let dir = common::temp_dir("diff-fbx");
    let fbx = dir.join("bar.fbx");
    let centimetres_z_up = Space {
        up_axis: 2,
        unit_scale: 1.0,
    };
    std::fs::write(&fbx, to_binary(&skinned_bar(&centimetres_z_up))).unwrap();
    let glb = dir.join("bar.glb");
    common::succeed(&["convert", fbx.to_str().unwrap(), "-o", glb.to_str().unwrap()]);
    let (status, stdout) = run_diff(&fbx, &glb, &[]);
    assert_eq!(status, 0, "{stdout}");
    assert!(stdout.starts_with("same rig\n"), "{stdout}");
    let diff = compare(&fbx, &glb);
    assert_eq!(diff.weights.compared, 6, "every vertex of the bar paired");
    assert!(diff.clips.iter().all(|c| c.motion.samples > 1), "{:?}", diff.clips);
}

#[test]
fn a_file_against_itself_reports_nothing_and_exits_with_0() {
    let fox = common::gltf(FOX);
    let (status, stdout) = run_diff(&fox, &fox, &[]);
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(stdout.lines().next(), Some("same rig"));
    assert!(!stdout.contains(":\n"), "no section lists findings: {stdout}");
    let (status, stdout) = run_diff(&fox, &fox, &["--json"]);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["findings"], json!([]));
    assert_eq!(report["differs"], false);
    assert_eq!(report["joint_changes"], json!([]));
    assert_eq!(report["clips"].as_array().unwrap().len(), 3);
}

#[test]
fn a_file_that_cannot_be_read_exits_with_2_and_is_named() {
    let fox = common::gltf(FOX);
    let missing = Path::new("/nonexistent/v7.glb");
    let output = common::rigscope(&["diff", fox.to_str().unwrap(), missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/v7.glb"), "{stderr}");
    let output = common::rigscope(&[
        "diff",
        fox.to_str().unwrap(),
        fox.to_str().unwrap(),
        "--tolerance",
        "-1",
    ]);
    assert_eq!(output.status.code(), Some(2), "a bad tolerance is a usage error");
}

#[test]
fn a_looser_tolerance_accepts_what_a_tight_one_reports() {
    let dir = common::temp_dir("diff-tolerance");
    let (a, mut model) = cesium_man_without_clips(&dir);
    let skin = &mut model.skins[0];
    skin.inverse_bind[0] *= Mat4::from_translation(Vec3::new(0.0, -0.001, 0.0));
    let b = save(&model, &dir.join("b.glb"));
    assert_eq!(run_diff(&a, &b, &[]).0, 1, "1 mm is beyond 0.1 mm");
    assert_eq!(run_diff(&a, &b, &["--tolerance", "0.002"]).0, 0, "and within 2 mm");
}

/// Times `compare` on two 52,368-vertex characters with 20 clips each (CesiumMan's mesh
/// copied 16 times side by side, its clip 20 times), and Fox against itself. Run with
/// `cargo test --release --test integration diff::cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn cost() {
    let mut big = asset::load(&common::gltf(CESIUM_MAN)).unwrap();
    let primitive = big.meshes[0].primitives[0].clone();
    for copy in 1..16 {
        let mut moved = primitive.clone();
        for position in &mut moved.positions {
            *position += Vec3::new(copy as f32, 0.0, 0.0);
        }
        big.meshes[0].primitives.push(moved);
    }
    let clip = big.clips[0].clone();
    big.clips = (0..20).map(|i| clip.clone().renamed(format!("clip {i}"))).collect();
    let other = big.clone();
    let started = std::time::Instant::now();
    let diff = diff::compare(&big, &other, &Tolerance::default());
    println!(
        "{} vertices, {} clips: {:.3} s ({})",
        big.vertex_count(),
        big.clips.len(),
        started.elapsed().as_secs_f64(),
        diff.verdict
    );
    let fox = asset::load(&common::gltf(FOX)).unwrap();
    let started = std::time::Instant::now();
    let diff = diff::compare(&fox, &fox, &Tolerance::default());
    println!(
        "Fox against itself: {:.3} s ({})",
        started.elapsed().as_secs_f64(),
        diff.verdict
    );
}
