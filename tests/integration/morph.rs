//! Morph targets by name: the panel's sliders (override and add over the animation, reset),
//! `inspect` listing the names, `pose` and `render` with `--morph`, and names the loader cannot
//! use. The model is a face the tests write (see `common::morph_face`).

use crate::common;

use std::path::PathBuf;

use common::morph_face::{ANGRY_LIFT, write_face, write_morph_face};
use common::{json, rigscope, succeed, temp_dir};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use rigscope::asset::demo::demo_model;
use rigscope::skin::{Deformer, SkinningMethod};
use rigscope::ui::{ViewerState, panel};

fn face(test: &str) -> PathBuf {
    write_morph_face(&temp_dir(&format!("morph-{test}")))
}

/// The panel over the face, played to 0.5 s of "Emote" (Angry animated to 0.5, Surprised held
/// at 0.5, Sad at 0).
fn harness(test: &str) -> Harness<'static, ViewerState> {
    let mut state = ViewerState::new(demo_model());
    state.open(&face(test));
    assert_eq!(state.document.load_error, None);
    state.advance(0.5);
    Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    )
}

/// Runs the panel once, then poses the model as the frame loop would.
fn frame(harness: &mut Harness<'static, ViewerState>) {
    harness.run();
    harness.state_mut().advance(0.0);
    harness.run();
}

fn weights(harness: &Harness<'static, ViewerState>) -> Vec<f32> {
    harness.state().frame.pose.morph_weights().to_vec()
}

fn morph_slider(name: &str) -> By<'_> {
    By::new().role(Role::Slider).label_contains(name)
}

/// The highest point of the face as the CPU poses it for the viewer's current pose.
fn top_of_face(state: &ViewerState) -> f32 {
    let mut deformer = Deformer::new(&state.document.model);
    deformer.update_all(&state.document.model, &state.frame.pose, SkinningMethod::Linear);
    let positions = &deformer.primitives()[0].positions;
    positions.iter().map(|p| p.y).fold(f32::MIN, f32::max)
}

#[test]
fn sliders_override_the_animated_weights_and_move_the_vertices() {
    let mut harness = harness("override");
    assert_eq!(weights(&harness), [0.5, 0.5, 0.0], "the animation drives the weights");
    harness.get_by_label("Head (mesh Face)");
    let animated_top = top_of_face(harness.state());
    assert!((animated_top - (1.0 + 0.5 * ANGRY_LIFT)).abs() < 1e-5);

    harness.get(morph_slider("Angry")).set_value_accesskit(1.0);
    frame(&mut harness);
    assert_eq!(harness.state().frame.morphs.get(0), Some(1.0));
    assert_eq!(
        weights(&harness),
        [1.0, 0.5, 0.0],
        "untouched targets keep the animation"
    );
    let top = top_of_face(harness.state());
    assert!((top - (1.0 + ANGRY_LIFT)).abs() < 1e-5, "the posed top is at {top}");
    harness.get(By::new().role(Role::Label).label_contains("Angry  = 1.00 (set)"));

    // Playing on does not move an overridden weight.
    harness.state_mut().advance(0.25);
    assert_eq!(weights(&harness)[0], 1.0);
}

#[test]
fn add_mode_adds_to_the_animation_and_reset_gives_it_back() {
    let mut harness = harness("add");
    harness.get_by_label("Add").click();
    frame(&mut harness);
    harness.get(morph_slider("Sad")).set_value_accesskit(0.25);
    harness.get(morph_slider("Angry")).set_value_accesskit(0.3);
    frame(&mut harness);
    let [angry, surprised, sad] = weights(&harness)[..] else {
        panic!()
    };
    assert!((angry - 0.8).abs() < 1e-6, "0.5 animated + 0.3: {angry}");
    assert_eq!((surprised, sad), (0.5, 0.25));

    harness.get_by_label("Override").click();
    frame(&mut harness);
    assert_eq!(weights(&harness), [0.3, 0.5, 0.25], "the same values, now replacing");

    harness.get_by_label("Reset morphs").click();
    frame(&mut harness);
    assert!(!harness.state().frame.morphs.is_active());
    assert_eq!(weights(&harness), [0.5, 0.5, 0.0], "the animation is back");
    assert!(
        harness.get_by_label("Reset morphs").accesskit_node().is_disabled(),
        "nothing left to reset"
    );
}

#[test]
fn a_model_without_morph_targets_says_so() {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    );
    assert!(
        harness.query_by_label("(no morph targets)").is_none(),
        "the section starts closed without targets"
    );
    harness.get_by_label("Morph targets").click();
    harness.run();
    harness.get_by_label("(no morph targets)");
}

#[test]
fn inspect_lists_the_target_names() {
    let face = face("inspect");
    let face = face.to_str().unwrap();
    let text = succeed(&["inspect", face]);
    assert!(
        text.contains("morph targets: 0 'Angry', 1 'Surprised', 2 'Sad'"),
        "{text}"
    );
    let report = json(&["inspect", face, "--json"]);
    assert_eq!(
        report["meshes"][0]["morph_targets"],
        serde_json::json!(["Angry", "Surprised", "Sad"])
    );
}

#[test]
fn unusable_target_names_are_a_warning_and_targets_go_by_index() {
    let dir = temp_dir("morph-bad-names");
    for (name, extras, warning) in [
        (
            "count.gltf",
            r#"{"targetNames":["Angry"]}"#,
            "1 names for 3 morph targets",
        ),
        (
            "type.gltf",
            r#"{"targetNames":"Angry"}"#,
            "it is not an array of strings",
        ),
        (
            "entry.gltf",
            r#"{"targetNames":["Angry",2,"Sad"]}"#,
            "entry 1 is not a string",
        ),
    ] {
        let path = write_face(&dir, name, extras);
        let report = json(&["inspect", path.to_str().unwrap(), "--json"]);
        assert_eq!(
            report["meshes"][0]["morph_targets"],
            serde_json::json!(["target 0", "target 1", "target 2"]),
            "{name}"
        );
        let expected = format!("/meshes/0/extras/targetNames: {warning} (targets named by index)");
        assert_eq!(report["warnings"], serde_json::json!([expected]), "{name}");
    }
}

/// The highest y among the positions `rigscope pose` wrote.
fn posed_top(args: &[&str]) -> f64 {
    let posed = json(args);
    let positions = posed["primitives"][0]["positions"].as_array().unwrap();
    positions
        .iter()
        .map(|p| p[1].as_f64().unwrap())
        .fold(f64::MIN, f64::max)
}

#[test]
fn pose_takes_morph_weights_by_name_or_index() {
    let face = face("pose");
    let face = face.to_str().unwrap();
    assert_eq!(posed_top(&["pose", face]), 1.0, "rest: no weight");
    for spec in ["Face:Angry=1", "0:0=1", "Face:0=1"] {
        let top = posed_top(&["pose", face, "--morph", spec]);
        assert!((top - 1.0 - f64::from(ANGRY_LIFT)).abs() < 1e-5, "{spec}: {top}");
    }
    let top = posed_top(&[
        "pose",
        face,
        "--clip",
        "Emote",
        "--time",
        "1",
        "--morph",
        "Face:Angry=0",
    ]);
    assert!((top - 1.0).abs() < 1e-5, "overrides the animation's 1.0: {top}");
}

#[test]
fn render_with_morph_differs_and_unknown_names_are_errors() {
    let dir = temp_dir("morph-render");
    let face = write_morph_face(&dir);
    let face = face.to_str().unwrap();
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["render", face, "-o", out.to_str().unwrap(), "--size", "160x120"];
        args.extend(extra);
        succeed(&args);
        image::open(&out).unwrap().to_rgba8()
    };
    let plain = render("plain.png", &[]);
    let surprised = render(
        "surprised.png",
        &["--morph", "Face:Surprised=1", "--morph", "Face:Sad=1"],
    );
    let changed = plain.pixels().zip(surprised.pixels()).filter(|(a, b)| a != b).count();
    assert!(changed > 200, "only {changed} pixels changed");

    let out = dir.join("never.png");
    let out = out.to_str().unwrap();
    for (spec, error) in [
        (
            "Face:Happy=1",
            "--morph Face:Happy=1: ".to_owned()
                + face
                + ": mesh 'Face' has no morph target 'Happy' (its targets: 0 'Angry', 1 'Surprised', 2 'Sad')",
        ),
        (
            "Nose:Angry=1",
            format!("{face}: no mesh 'Nose' (meshes with morph targets: 0 'Face')"),
        ),
        ("Face:Angry=lots", "WEIGHT 'lots' is not a finite number".to_owned()),
        ("Face=1", "expected MESH:TARGET=WEIGHT".to_owned()),
    ] {
        let output = rigscope(&["render", face, "-o", out, "--morph", spec]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{spec}");
        assert!(stderr.contains(&error), "{spec}: {stderr}");
    }
}

/// The window under Xvfb, started with `args`, saving a screenshot to `path` after a few
/// frames.
fn viewer(args: &[&str], path: &std::path::Path) -> std::process::Output {
    std::process::Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args(args)
        .args(["--screenshot-after-frames", "4", path.to_str().unwrap()])
        .output()
        .expect("xvfb-run (Debian package xvfb) must be installed")
}

#[test]
fn the_viewer_starts_with_morph_weights_set() {
    let dir = temp_dir("morph-viewer");
    let face = write_morph_face(&dir);
    let face = face.to_str().unwrap();
    let shot = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let mut args = vec![face];
        args.extend(extra);
        let output = viewer(&args, &path);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        image::open(&path).unwrap().to_rgba8()
    };
    // Angry is pinned in both, so the clip playing for a moment changes nothing; Surprised
    // goes from what the clip holds it at (0.5) to 1, widening the face by half its width.
    let held = shot(
        "held.png",
        &["--morph", "Face:Angry=0", "--morph", "Face:Surprised=0.5"],
    );
    let wide = shot("wide.png", &["--morph", "Face:Angry=0", "--morph", "Face:Surprised=1"]);
    // Right of the panel: the view.
    let changed = (400..1280)
        .flat_map(|x| (0..800).map(move |y| (x, y)))
        .filter(|&(x, y)| held.get_pixel(x, y) != wide.get_pixel(x, y))
        .count();
    // The box is shaded flat (its file has no normals): what changes is where it reaches.
    assert!(changed > 30_000, "only {changed} pixels of the view changed");

    let output = viewer(&[face, "--morph", "Face:Happy=1"], &dir.join("never.png"));
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("mesh 'Face' has no morph target 'Happy'"), "{stderr}");
}

/// The face with its three targets repeated five times (15 targets), named like a face rig's
/// left and right shapes, and no clip.
fn write_long_named_face(dir: &std::path::Path) -> PathBuf {
    let names: Vec<String> = (0..5)
        .flat_map(|group| ["mouthLowerDown_L", "mouthLowerDown_R", "browInnerUp"].map(|n| format!("{n}{group}")))
        .collect();
    let extras = serde_json::json!({ "targetNames": names }).to_string();
    let mut document: serde_json::Value = serde_json::from_str(&common::morph_face::morph_face_gltf(&extras)).unwrap();
    document.as_object_mut().unwrap().remove("animations");
    let primitive = &mut document["meshes"][0]["primitives"][0];
    let targets = primitive["targets"].as_array().unwrap().clone();
    primitive["targets"] = serde_json::Value::Array(targets.iter().cycle().take(15).cloned().collect());
    document["meshes"][0].as_object_mut().unwrap().remove("weights");
    let path = dir.join("long-names.gltf");
    std::fs::write(&path, document.to_string()).unwrap();
    path
}

#[test]
fn long_target_names_wrap_whole_in_the_panel_and_a_filter_finds_them() {
    let mut state = ViewerState::new(demo_model());
    state.open(&write_long_named_face(&temp_dir("morph-long-names")));
    assert_eq!(state.document.load_error, None);
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    );
    // The side panel is 300 points wide: every name's label lies inside it, whole (the _L and
    // _R that tell two targets apart are not cut off).
    for name in ["mouthLowerDown_L0", "mouthLowerDown_R0", "mouthLowerDown_R4"] {
        let label = harness.get(By::new().role(Role::Label).label_contains(name));
        let rect = label.rect();
        assert!(rect.right() <= 300.0, "{name} runs past the panel: {rect:?}");
        harness.get(morph_slider(name));
    }
    assert_eq!(
        harness
            .query_all(By::new().role(Role::Slider).label_contains("mouthLowerDown"))
            .count(),
        10
    );
    // 15 targets: a filter.
    harness.get(By::new().label("Filter morph targets")).click();
    harness.run();
    harness.get(By::new().label("Filter morph targets")).type_text("_r");
    harness.run();
    let shown: Vec<String> = harness
        .query_all(By::new().role(Role::Slider).label_contains("mouth"))
        .map(|slider| slider.accesskit_node().label().unwrap_or_default())
        .collect();
    assert_eq!(shown.len(), 5, "only the right-hand shapes: {shown:?}");
    assert!(shown.iter().all(|label| label.contains("_R")), "{shown:?}");
}
