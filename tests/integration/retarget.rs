//! Clips from another file: retargeting real clips (Xbot onto itself and onto a renamed,
//! re-posed copy written at test time), `--clips-from` on the command line, and the viewer's
//! prompt and report, operated through egui's accessibility tree.

use crate::common;

use common::renamed_rig::renamed_xbot;
use common::{rigscope, succeed, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::anim::{Clip, JointDesc, MatchedBy, Pose, Retarget, Skeleton};
use rigscope::asset::{self, Model};
use rigscope::ui::{ViewerState, panel};

fn xbot() -> Model {
    asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap()
}

fn sampled(clip: &Clip, model: &Model, time: f32) -> Pose {
    let mut pose = model.skeleton.rest_pose().clone();
    clip.sample(time, &mut pose, &mut clip.cursor());
    pose
}

#[test]
fn xbots_clips_on_a_second_copy_reproduce_its_poses_exactly() {
    let (source, mut target) = (xbot(), xbot());
    let report = asset::add_clips_of(&mut target, &source).unwrap();
    assert_eq!(target.clips.len(), 2 * source.clips.len());
    assert_eq!(report.clips[6], "walk (Xbot.glb)");
    assert!(report.unmatched_target.is_empty() && report.unmatched_source.is_empty());
    assert!(report.matched.iter().all(|(_, _, by)| *by == MatchedBy::Exact));
    for (original, added) in source.clips.iter().zip(&target.clips[source.clips.len()..]) {
        assert_eq!(added.duration(), original.duration(), "{}", original.name());
        for fraction in [0.0, 0.13, 0.5, 0.71, 1.0] {
            let time = original.duration() * fraction;
            let (expected, got) = (sampled(original, &source, time), sampled(added, &target, time));
            assert_eq!(got.local(), expected.local(), "{} at {time} s", added.name());
        }
    }
}

/// Xbot's joints renamed as another tool would write them (no `mixamorig:`, upper case) and
/// without its eyes and head top.
fn xbot_renamed_without_head_leaves(xbot: &Model) -> Skeleton {
    let dropped = ["mixamorig:HeadTop_End", "mixamorig:LeftEye", "mixamorig:RightEye"];
    let mut index_of = vec![None; xbot.skeleton.len()];
    let mut joints = Vec::new();
    for (joint, name) in xbot.skeleton.names().iter().enumerate() {
        if dropped.contains(&name.as_str()) {
            continue;
        }
        index_of[joint] = Some(joints.len() as u32);
        joints.push(JointDesc {
            name: name
                .strip_prefix("mixamorig:")
                .map_or_else(|| name.clone(), str::to_uppercase),
            parent: xbot.skeleton.parent(joint).and_then(|p| index_of[p]),
            rest: xbot.skeleton.rest_pose().local()[joint],
            bind_model: None,
            morph_weights: Vec::new(),
        });
    }
    Skeleton::new(joints).unwrap()
}

#[test]
fn the_report_names_the_joints_a_rig_lacks_and_normalised_names_pair() {
    let xbot = xbot();
    let target = xbot_renamed_without_head_leaves(&xbot);
    let retarget = Retarget::new(&xbot.skeleton, &target);
    let matching = retarget.matching();
    let left_out: Vec<&str> = matching
        .unmatched_source
        .iter()
        .map(|&j| xbot.skeleton.name(j))
        .collect();
    assert_eq!(
        left_out,
        ["mixamorig:HeadTop_End", "mixamorig:LeftEye", "mixamorig:RightEye"]
    );
    assert!(matching.unmatched_target.is_empty());
    assert_eq!(matching.pairs.len(), target.len());
    let hips = matching.pairs.iter().find(|p| target.name(p.target) == "HIPS").unwrap();
    assert_eq!(xbot.skeleton.name(hips.source), "mixamorig:Hips");
    assert_eq!(hips.by, MatchedBy::Normalised);
    let mut exact: Vec<&str> = (matching.pairs.iter())
        .filter(|p| p.by == MatchedBy::Exact)
        .map(|p| target.name(p.target))
        .collect();
    exact.sort();
    assert_eq!(
        exact,
        ["Armature", "Beta_Joints", "Beta_Surface"],
        "only the names that kept their spelling"
    );
    assert_eq!(
        retarget.hips().map(|(joint, ratio)| (target.name(joint), ratio)),
        Some(("HIPS", 1.0))
    );
}

#[test]
fn clips_onto_a_larger_rig_with_lowered_arms_keep_its_rest_and_scale_the_walk() {
    let dir = temp_dir("retarget-model");
    let (source, mut target) = (xbot(), asset::load(&renamed_xbot(&dir)).unwrap());
    assert!(target.clips.is_empty());
    asset::add_clips_of(&mut target, &source).unwrap();
    let walk = target.find_clip("walk (Xbot.glb)").unwrap();
    let source_walk = source.find_clip("walk").unwrap();
    let hips = |model: &Model, name| model.skeleton.find(name).unwrap();
    let (t_hips, s_hips) = (hips(&target, "hips"), hips(&source, "mixamorig:Hips"));
    let (t_arm, s_arm) = (hips(&target, "leftarm"), hips(&source, "mixamorig:LeftArm"));
    for time in [0.0, 0.4, 0.9] {
        let got = sampled(&target.clips[walk], &target, time);
        let original = sampled(&source.clips[source_walk], &source, time);
        // The hips' parent is 1.5 times larger and so are the hips' heights: in local units
        // the offset from rest is the same.
        let (s_rest, t_rest) = (
            source.skeleton.rest_pose().local()[s_hips].translation,
            target.skeleton.rest_pose().local()[t_hips].translation,
        );
        let expected = t_rest + (original.local()[s_hips].translation - s_rest);
        assert!(got.local()[t_hips].translation.abs_diff_eq(expected, 1e-3), "{time}");
        // In model space the walk covers 1.5 times the ground.
        let (got_world, source_world) = (got.to_model_matrices(), original.to_model_matrices());
        let source_height = source_world[s_hips].w_axis.y;
        assert!((got_world[t_hips].w_axis.y - 1.5 * source_height).abs() < 1e-3);
        // The arm moves relative to its lowered rest: rest · s_rest⁻¹ · s_local.
        let offset = target.skeleton.rest_pose().local()[t_arm].rotation
            * source.skeleton.rest_pose().local()[s_arm].rotation.inverse();
        let expected = offset * original.local()[s_arm].rotation;
        assert!(got.local()[t_arm].rotation.dot(expected).abs() > 1.0 - 1e-5, "{time}");
    }
}

#[test]
fn pose_takes_a_clip_from_another_file() {
    let dir = temp_dir("retarget-pose");
    let rig = renamed_xbot(&dir).display().to_string();
    let xbot = common::gltf("Xbot/Xbot.glb").display().to_string();
    let args = [
        "pose",
        &rig,
        "--clips-from",
        &xbot,
        "--clip",
        "run (Xbot.glb)",
        "--time",
        "0.3",
    ];
    let output = rigscope(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("added 7 clips; 67 joints paired, 3 of the model's and 3 of the file's unpaired"),
        "{stderr}"
    );
    let posed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(posed["clip"], "run (Xbot.glb)");
    let rest: serde_json::Value = serde_json::from_str(&succeed(&["pose", &rig])).unwrap();
    assert_ne!(posed["primitives"], rest["primitives"], "the clip moves the mesh");
}

#[test]
fn render_takes_a_clip_from_another_file() {
    let dir = temp_dir("retarget-render");
    let rig = renamed_xbot(&dir).display().to_string();
    let xbot = common::gltf("Xbot/Xbot.glb").display().to_string();
    let render = |name: &str, clip: &[&str]| {
        let out = dir.join(name).display().to_string();
        let mut args = vec!["render", &rig, "--clips-from", &xbot, "--size", "96x96", "-o", &out];
        args.extend_from_slice(clip);
        let output = rigscope(&args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        image::open(&out).unwrap().to_rgba8()
    };
    let running = render("run.png", &["--clip", "run (Xbot.glb)", "--time", "0.3"]);
    let idle = render("idle.png", &["--clip", "idle (Xbot.glb)", "--time", "0.3"]);
    assert_ne!(running, idle, "the added clips pose the rig");
}

#[test]
fn clips_from_a_file_without_animations_or_unreadable_is_an_error_naming_it() {
    let dir = temp_dir("retarget-errors");
    let rig = renamed_xbot(&dir).display().to_string();
    let xbot = common::gltf("Xbot/Xbot.glb").display().to_string();
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb").display().to_string();
    let missing = dir.join("missing.glb").display().to_string();
    for (from, says) in [
        (rig.as_str(), "it holds no animations to add"),
        (missing.as_str(), "cannot read the file"),
        (
            fox.as_str(),
            "none of its 26 joint names match the 70 of xbot-renamed.glb",
        ),
    ] {
        let output = rigscope(&["pose", &rig, "--clips-from", &xbot, "--clips-from", from]);
        assert!(!output.status.success(), "{from}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(from) && stderr.contains(says), "{stderr}");
    }
}

fn panel_harness(state: ViewerState) -> Harness<'static, ViewerState> {
    Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    )
}

#[test]
fn opening_a_file_with_clips_offers_to_add_them_and_then_reports_the_joints() {
    let dir = temp_dir("retarget-panel");
    let rig = renamed_xbot(&dir);
    let mut state = ViewerState::new(asset::load(&rig).unwrap());
    state.open(&common::gltf("Xbot/Xbot.glb"));
    assert_eq!(
        state.document.model.path, rig,
        "the open model stays until the user answers"
    );
    let mut harness = panel_harness(state);
    // Asked in the File section and over the view.
    assert_eq!(
        harness.get_all_by_label_contains("67 of its 70 joints match").count(),
        2
    );
    harness
        .get_all_by_label("Add its 7 clips to the open rig")
        .next()
        .unwrap()
        .click();
    harness.run();
    let state = harness.state();
    assert_eq!(state.document.model.path, rig);
    let names: Vec<&str> = state.document.model.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names[0], "agree (Xbot.glb)");
    assert_eq!(names.len(), 7);
    let playing = state.frame.player.clip().unwrap();
    assert_eq!(
        state.document.model.clips[playing].name(),
        "idle (Xbot.glb)",
        "a rig without clips plays the one added that a file would open on"
    );
    assert!(
        harness.query_by_label("Open it instead").is_none(),
        "the prompt is gone"
    );
    harness.get_by_label_contains("walk (Xbot.glb)  (").click();
    harness.run();
    assert_eq!(harness.state().frame.player.clip(), Some(6));

    harness
        .get_by_label("From Xbot.glb: 67 joints paired, 6 unpaired")
        .click();
    harness.run();
    for list in [
        "Open rig's joints left at rest (3)",
        "File's joints left out (3)",
        "Paired joints (open rig's from file's) (67)",
    ] {
        harness.get_by_label(list).click();
        harness.run();
    }
    harness.get_by_label("eye.L");
    harness.get_by_label("mixamorig:LeftEye");
    harness.get_by_label("hips from mixamorig:Hips");
}

#[test]
fn open_it_instead_replaces_the_model() {
    let dir = temp_dir("retarget-open");
    let mut state = ViewerState::new(asset::load(&renamed_xbot(&dir)).unwrap());
    let xbot = common::gltf("Xbot/Xbot.glb");
    state.open(&xbot);
    let mut harness = panel_harness(state);
    harness.get_all_by_label("Open it instead").next().unwrap().click();
    harness.run();
    assert_eq!(harness.state().document.model.path, xbot);
    assert_eq!(harness.state().document.model.clips.len(), 7);
    assert!(harness.state().clips_from.reports.is_empty());
}

#[test]
fn a_reload_adds_the_clips_from_the_other_file_again() {
    let dir = temp_dir("retarget-reload");
    let rig = renamed_xbot(&dir);
    let mut state = ViewerState::new(asset::load(&rig).unwrap());
    let xbot = common::gltf("Xbot/Xbot.glb");
    state.add_clips_from(&xbot);
    assert!(state.watched_files().contains(&xbot), "the other file is watched");
    state
        .frame
        .player
        .select(state.document.model.find_clip("run (Xbot.glb)"));
    state.reload();
    assert!(state.watching.note.as_ref().is_some_and(|n| !n.failed));
    assert_eq!(state.document.model.clips.len(), 7);
    assert_eq!(
        state.frame.player.clip(),
        state.document.model.find_clip("run (Xbot.glb)")
    );
    assert_eq!(state.document.model.path, rig);
}

#[test]
fn a_sheet_has_a_row_per_clip_from_the_other_file() {
    let dir = temp_dir("retarget-sheet");
    let rig = renamed_xbot(&dir).display().to_string();
    let xbot = common::gltf("Xbot/Xbot.glb").display().to_string();
    let (alone, with_clips) = (dir.join("alone.png"), dir.join("with-clips.png"));
    let size = ["--frames", "2", "--cell", "48"];
    succeed(&[&["sheet", &rig, "-o", alone.to_str().unwrap()], &size[..]].concat());
    let args = ["sheet", &rig, "--clips-from", &xbot, "-o", with_clips.to_str().unwrap()];
    succeed(&[&args[..], &size[..]].concat());
    let (alone, with_clips) = (image::open(alone).unwrap(), image::open(with_clips).unwrap());
    let row = 48 + 2 * 8; // a cell and its margins, at least
    assert!(
        with_clips.height() >= alone.height() + 6 * row,
        "7 rows of clips instead of the rest pose: {} vs {}",
        with_clips.height(),
        alone.height()
    );
}
