//! Root motion, foot contacts and in-place playback end to end, on the demo rig made to walk
//! forward (its `walk` cycle with the root carried along +Z at `SPEED`), written as a GLB by
//! the tests: `inspect` and `curves` report the travel, `render --in-place` keeps the walker in
//! the same pixels, `pose --in-place` keeps it over its start, and the panel's "Root motion
//! and feet" controls play it in place.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;
use rigscope::anim::{Channel, ChannelTrack, Clip, Interpolation, Player, Track};
use rigscope::asset::Model;
use rigscope::asset::demo::demo_model;
use rigscope::ui::{ViewerState, panel};
use rigscope::write::{WriteOptions, save};

use crate::common::{succeed, temp_dir};

/// Metres a second the walker's root moves.
const SPEED: f32 = 1.2;

/// The demo rig whose `walk` carries its root along +Z at `SPEED`.
fn walker() -> Model {
    let mut model = demo_model();
    let walk = model.find_clip("walk").unwrap();
    let clip = &model.clips[walk];
    let duration = clip.duration();
    let times: Vec<f32> = (0..=10).map(|i| duration * i as f32 / 10.0).collect();
    let travel = times.iter().map(|&t| Vec3::Z * SPEED * t).collect();
    let mut channels = clip.channels().to_vec();
    channels.push(Channel {
        joint: 0,
        track: ChannelTrack::Translation(Track::new(Interpolation::Linear, times, travel).unwrap()),
    });
    model.clips[walk] = Clip::new("walk".into(), channels);
    model
}

fn write_walker(dir: &Path) -> PathBuf {
    let path = dir.join("walker.glb");
    save(&walker(), &path, &WriteOptions::default()).unwrap();
    path
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn inspect_and_curves_report_the_travel_its_carrier_and_the_feet() {
    let dir = temp_dir("motion-inspect");
    let file = write_walker(&dir);
    let file = file.to_str().unwrap();
    let report = json(&succeed(&["inspect", "--json", file]));
    let walk = report["clips"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "walk")
        .unwrap();
    let motion = &walk["motion"];
    let root = &motion["root"];
    assert_eq!(
        (root["joint"].as_str(), root["reason"].as_str()),
        (Some("root"), Some("travels"))
    );
    let duration = walk["duration"].as_f64().unwrap() as f32;
    assert!((root["speed"].as_f64().unwrap() as f32 - SPEED).abs() < 1e-3, "{root}");
    assert!(
        (root["distance"].as_f64().unwrap() as f32 - SPEED * duration).abs() < 1e-3,
        "{root}"
    );
    assert!(root["turn_degrees"].as_f64().unwrap().abs() < 0.01);
    let feet: Vec<(&str, &str)> = (motion["feet"].as_array().unwrap().iter())
        .map(|f| (f["joint"].as_str().unwrap(), f["side"].as_str().unwrap()))
        .collect();
    assert_eq!(feet, [("ankle.L", "left"), ("ankle.R", "right")]);
    let idle = &report["clips"][0]["motion"]["root"];
    assert_eq!(idle["joint"], "hips", "the idle stays: its hips carry it: {idle}");

    let text = succeed(&["inspect", file]);
    let line = format!(
        "root motion: 'root' (the topmost joint above the hips that moves over the ground) travels {:.2} m at 1.20 m/s, turns 0°",
        SPEED * duration
    );
    assert!(text.contains(&line), "{text}");

    let curves = json(&succeed(&["curves", file, "--clip", "walk", "--joint", "root"]));
    let names: Vec<&str> = (curves["curves"].as_array().unwrap().iter())
        .filter(|c| c["group"] == "root_motion")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["speed", "heading"]);
    let speed = curves["curves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "speed")
        .unwrap();
    assert!(
        speed["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| (v.as_f64().unwrap() as f32 - SPEED).abs() < 0.01)
    );
    assert_eq!(curves["motion"]["root"]["joint"], "root");
    let hips = json(&succeed(&["curves", file, "--clip", "walk", "--joint", "hips"]));
    assert!(
        !hips["curves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["group"] == "root_motion"),
        "only on the carrier"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Where the drawn model's box is centred in `image` (its pixels are those unlike the left
/// column's colour on their row: the background is a vertical gradient), as fractions of the
/// picture's width and height.
fn model_centre(image: &image::RgbaImage) -> (f32, f32) {
    let (mut low, mut high) = ((u32::MAX, u32::MAX), (0, 0));
    for (x, y, pixel) in image.enumerate_pixels() {
        let background = image.get_pixel(0, y);
        let difference: i32 = (0..3).map(|c| (pixel[c] as i32 - background[c] as i32).abs()).sum();
        if difference > 30 {
            (low, high) = ((low.0.min(x), low.1.min(y)), (high.0.max(x), high.1.max(y)));
        }
    }
    assert!(high.0 > low.0, "nothing drawn");
    let (width, height) = image.dimensions();
    (
        (low.0 + high.0) as f32 / 2.0 / width as f32,
        (low.1 + high.1) as f32 / 2.0 / height as f32,
    )
}

#[test]
fn render_in_place_keeps_a_walker_in_the_same_pixels_and_pose_over_its_start() {
    let dir = temp_dir("motion-render");
    let file = write_walker(&dir);
    let file = file.to_str().unwrap();
    let centres = |in_place: bool| -> Vec<(f32, f32)> {
        [0.0f32, 0.35, 0.7, 1.05]
            .iter()
            .map(|time| {
                let out = dir.join(format!("{in_place}-{time}.png"));
                let (time, out_text) = (time.to_string(), out.to_str().unwrap().to_owned());
                let mut args = vec!["render", file, "--clip", "walk", "--time", &time, "--no-grid"];
                args.extend(["--size", "200x150", "-o", &out_text]);
                if in_place {
                    args.push("--in-place");
                }
                succeed(&args);
                model_centre(&image::open(&out).unwrap().to_rgba8())
            })
            .collect()
    };
    let spread = |centres: &[(f32, f32)]| {
        let (first, rest) = centres.split_first().unwrap();
        rest.iter()
            .map(|c| (c.0 - first.0).abs().max((c.1 - first.1).abs()))
            .fold(0.0f32, f32::max)
    };
    let in_place = centres(true);
    assert!(spread(&in_place) < 0.05, "{in_place:?}");
    let walking = centres(false);
    assert!(
        spread(&walking) > 0.1,
        "without --in-place the walker crosses the picture: {walking:?}"
    );

    let mean_xz = |extra: &[&str]| {
        let mut args = vec!["pose", file, "--clip", "walk", "--time", "0.8"];
        args.extend(extra);
        let pose = json(&succeed(&args));
        let positions: Vec<Vec3> = (pose["primitives"].as_array().unwrap().iter())
            .flat_map(|p| p["positions"].as_array().unwrap().iter())
            .map(|p| Vec3::new(p[0].as_f64().unwrap() as f32, 0.0, p[2].as_f64().unwrap() as f32))
            .collect();
        positions.iter().sum::<Vec3>() / positions.len() as f32
    };
    let (walking, in_place) = (mean_xz(&[]), mean_xz(&["--in-place"]));
    assert!(
        (walking.z - in_place.z - SPEED * 0.8).abs() < 1e-3,
        "{walking} {in_place}"
    );
    assert!((walking.x - in_place.x).abs() < 1e-4);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn in_place_needs_a_clip() {
    let dir = temp_dir("motion-no-clip");
    let path = dir.join("still.glb");
    let mut model = demo_model();
    model.clips.clear();
    save(&model, &path, &WriteOptions::default()).unwrap();
    let output = crate::common::rigscope(&["pose", path.to_str().unwrap(), "--in-place"]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--in-place: ") && error.contains("plays no clip"),
        "{error}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_panel_plays_the_walk_in_place_and_says_how_far_it_goes() {
    let mut state = ViewerState::new(walker());
    let walk = state.document.model.find_clip("walk").unwrap();
    state.frame.player = Player::new(Some(walk));
    state.frame.player.playing = true;
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    );
    harness.get_by_label("Rig inspection").click();
    harness.run();
    harness.get_by_label("Root motion and feet").click();
    harness.run();
    harness.state_mut().advance(0.0);
    harness.run();
    assert!(harness.query_by_label_contains("at 1.20 m/s, turn 0°").is_some());
    assert!(harness.query_by_label_contains("left foot ankle.L").is_some());
    assert!(
        harness.query_by_label_contains("Contacts: ").is_none(),
        "no bars until asked"
    );
    harness.get_by_label("Path and contacts").click();
    harness.run();
    harness.run();
    harness.get_by_label("Contacts: left foot 0, right foot 0");
    let matrices = harness.state().frame.joint_matrices.clone();
    assert_eq!(
        harness.state().motion.camera_target(&matrices),
        None,
        "not following yet"
    );
    harness.get_by_label("Camera follows root").click();
    harness.run();
    let root = matrices[0].w_axis;
    assert_eq!(
        harness.state().motion.camera_target(&matrices),
        Some(glam::Vec2::new(root.x, root.z))
    );

    let root_xz = |state: &ViewerState| {
        let m = state.frame.joint_matrices[0];
        (m.w_axis.x, m.w_axis.z)
    };
    harness.state_mut().advance(0.5);
    let walked = root_xz(harness.state());
    assert!((walked.1 - SPEED * 0.5).abs() < 0.02, "{walked:?}");
    harness.get_by_label("In place").click();
    harness.run();
    harness.state_mut().advance(0.25);
    let state = harness.state();
    let (x, z) = root_xz(state);
    assert!(x.abs() < 1e-4 && z.abs() < 1e-4, "in place: {x}, {z}");
    assert!(
        (state.frame.travel.y - SPEED * 0.75).abs() < 0.02,
        "the ground slides by the travel: {}",
        state.frame.travel
    );
}

#[test]
fn the_viewer_opens_in_place_and_with_the_path_when_asked() {
    use clap::Parser;
    let options = |args: &[&str]| rigscope::cli::Cli::parse_from(args).viewer_options().unwrap();
    let plain = options(&["rigscope", "walker.glb"]);
    assert!(!plain.in_place && !plain.motion);
    let asked = options(&["rigscope", "walker.glb", "--in-place", "--motion"]);
    assert!(asked.in_place && asked.motion);
}
