//! Motion trails end to end: the panel's "Motion trails" controls change what the renderer
//! draws, trails of a real model are its joints' world positions, `render --trail` draws
//! them (and refuses a joint the model does not have), and playing with trails on
//! allocates nothing per frame.

use crate::common;

use common::{gltf, rigscope, succeed, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::anim::Playback;
use rigscope::asset::{self, demo::demo_model};
use rigscope::inspect::trail::ClipPoser;
use rigscope::inspect::{TrailTime, TrailWindow, Trails};
use rigscope::ui::{ViewerState, panel};

const FOX: &str = "Fox/glTF-Binary/Fox.glb";

/// The panel with the "Rig inspection" section open.
fn harness() -> Harness<'static, ViewerState> {
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    );
    harness.get_by_label("Rig inspection").click();
    harness.run();
    harness
}

/// The joints whose trails the renderer would draw after the next frame.
fn trail_joints(state: &mut ViewerState) -> Vec<usize> {
    state.advance(0.0);
    state.trails.trails.joint_trails().map(|(t, _)| t.joint()).collect()
}

#[test]
fn the_motion_trail_controls_change_what_the_renderer_draws() {
    let mut harness = harness();
    let wrist = harness.state().document.model.skeleton.find("wrist.L").unwrap();
    harness.state_mut().inspection.selected = Some(wrist);
    harness.run();
    assert!(trail_joints(harness.state_mut()).is_empty(), "off at first");

    harness.get_by_label("Trail of the selected joint").click();
    harness.run();
    assert_eq!(trail_joints(harness.state_mut()), [wrist]);

    harness.get_by_label("Pin wrist.L").click();
    harness.run();
    assert_eq!(harness.state().trails.pinned, [wrist]);
    harness.get_by_label("Trail of the selected joint").click();
    harness.state_mut().inspection.selected = None;
    harness.run();
    assert_eq!(trail_joints(harness.state_mut()), [wrist], "pinned stays");
    harness.get_by_label("Unpin").click();
    harness.run();
    assert!(trail_joints(harness.state_mut()).is_empty());

    assert_eq!(harness.state().trails.window(), TrailWindow::WholeClip);
    harness.get_by_label("Around now").click();
    harness.run();
    let around = harness.state().trails.window();
    assert!(matches!(around, TrailWindow::Around(s) if s > 0.0), "{around:?}");
    harness
        .get(
            egui_kittest::kittest::By::new()
                .label_contains("seconds either side")
                .role(egui::accesskit::Role::Slider),
        )
        .set_value_accesskit(1.5);
    harness.run();
    assert_eq!(harness.state().trails.window(), TrailWindow::Around(1.5));

    harness.get_by_label("Root-motion trail").click();
    harness.run();
    let state = harness.state_mut();
    state.advance(0.0);
    assert!(state.trails.trails.root_trail().is_some(), "root trail on");
}

#[test]
fn a_fox_foot_trail_is_its_world_positions_over_the_clip() {
    let model = asset::load(&gltf(FOX)).unwrap();
    let skeleton = &model.skeleton;
    let foot = skeleton.find("b_LeftFoot01_017").expect("Fox's left fore foot");
    let mut trails = Trails::default();
    for clip in 0..model.clips.len() {
        let at = TrailTime {
            clip: Some(clip),
            time: 0.4,
            mode: Playback::Loop,
        };
        trails.update(&model, 0, at, [foot].into_iter(), true);
        let (trail, now) = trails.joint_trails().next().unwrap();
        let animation = &model.clips[clip];
        for point in trail.points() {
            // Independently: sample over the rest pose, multiply the local matrices up the chain.
            let mut pose = skeleton.rest_pose().clone();
            animation.sample(point.time, &mut pose, &mut animation.cursor());
            let mut world = pose.local()[foot].to_mat4();
            for ancestor in skeleton.hierarchy().ancestors(foot) {
                world = pose.local()[ancestor].to_mat4() * world;
            }
            let expected = world.w_axis.truncate();
            assert!(
                point.position.distance(expected) < 1e-4 * (1.0 + expected.length()),
                "{} at {}: {} vs {expected}",
                animation.name(),
                point.time,
                point.position
            );
        }
        let mut poser = ClipPoser::new(skeleton);
        assert!(now.distance(poser.position(skeleton, animation, foot, 0.4)) < 1e-4);
        assert!(trail.points().iter().any(|p| p.key), "{} has keys", animation.name());
        assert!(trails.root_trail().is_some());
    }
}

#[test]
fn render_with_a_trail_differs_from_one_without() {
    let dir = temp_dir("trails");
    let fox = gltf(FOX);
    let fox = fox.to_str().unwrap();
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["render", fox, "-o", out.to_str().unwrap(), "--size", "320x240"];
        args.extend_from_slice(&["--clip", "Walk", "--time", "0.3"]);
        args.extend_from_slice(extra);
        succeed(&args);
        image::open(&out).unwrap().to_rgba8()
    };
    let plain = render("plain.png", &[]);
    let changed = |image: &image::RgbaImage| {
        plain
            .pixels()
            .zip(image.pixels())
            .filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > 30))
            .count()
    };
    let trail = render("trail.png", &["--trail", "b_LeftFoot01_017", "--trail", "b_Head_05"]);
    // Lines are a pixel wide: a few dozen pixels is a trail, and without one nothing changes.
    assert!(changed(&trail) > 40, "the trails show: {} pixels", changed(&trail));
    let window = render("window.png", &["--trail", "b_LeftFoot01_017", "--trail-window", "0.2"]);
    let whole = render("whole.png", &["--trail", "b_LeftFoot01_017"]);
    assert!(
        changed(&window) > 0 && changed(&window) < changed(&whole),
        "a window draws less"
    );
    let root = render("root.png", &["--root-trail"]);
    // The Fox walks in place: its root trail is a small mark on the ground.
    assert!(changed(&root) > 0, "the root trail shows");
}

#[test]
fn a_bad_trail_joint_or_window_is_a_clear_error() {
    let fox = gltf(FOX);
    let fox = fox.to_str().unwrap();
    let output = rigscope(&["render", fox, "-o", "/dev/null", "--trail", "b_Tail_99"]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--trail") && error.contains("Fox.glb") && error.contains("no joint 'b_Tail_99'"),
        "{error}"
    );
    let output = rigscope(&["render", fox, "-o", "/dev/null", "--trail", "3", "--trail-window", "-1"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--trail-window"));
}
