//! `convert` and the glTF writer: every sample rig (glTF, VRM, MD5) and the FBX the tests write
//! come back from the written GLB posing as they did, for every clip at five times; the
//! Khronos validator finds no error in what is written; the command's options work.

use crate::common;
use crate::common::validator::{WARNING, khronos_validate_all};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};
use rigscope::write::{self, WriteOptions};

/// World-space posed vertices (by mesh and primitive, in instance order) and joint matrices
/// of `model` playing clip `clip` at `time` (the rest pose without a clip).
fn posed(model: &Model, clip: Option<usize>, time: f32) -> (BTreeMap<(usize, usize), Vec<Vec<Vec3>>>, Vec<Mat4>) {
    let mut pose = model.skeleton.rest_pose().clone();
    if let Some(clip) = clip.map(|c| &model.clips[c]) {
        clip.sample(time, &mut pose, &mut clip.cursor());
    }
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, SkinningMethod::Linear);
    let mut vertices: BTreeMap<(usize, usize), Vec<Vec<Vec3>>> = BTreeMap::new();
    for posed in deformer.primitives() {
        let mesh = model.instances[posed.instance].mesh;
        vertices
            .entry((mesh, posed.primitive))
            .or_default()
            .push(posed.positions.clone());
    }
    (vertices, deformer.model_matrices().to_vec())
}

/// The bounding box's diagonal of the rest pose's vertices (of the joints without vertices).
fn diagonal(model: &Model) -> f32 {
    let (vertices, joints) = posed(model, None, 0.0);
    let mut points: Vec<Vec3> = vertices.into_values().flatten().flatten().collect();
    if points.is_empty() {
        points = joints.iter().map(|m| m.w_axis.truncate()).collect();
    }
    let min = points.iter().copied().fold(Vec3::splat(f32::INFINITY), Vec3::min);
    let max = points.iter().copied().fold(Vec3::splat(f32::NEG_INFINITY), Vec3::max);
    (max - min).length().max(1e-6)
}

/// The largest distance between `written`'s poses and `source`'s over every clip at five
/// times, as a fraction of the source's diagonal.
pub(super) fn largest_pose_difference(source: &Model, written: &Model) -> f32 {
    assert_eq!(written.clips.len(), source.clips.len(), "clips");
    // Nodes for meshes may follow the joints.
    assert!(written.skeleton.len() >= source.skeleton.len(), "joints");
    for joint in 0..source.skeleton.len() {
        assert_eq!(written.skeleton.name(joint), source.skeleton.name(joint));
    }
    let mut largest = 0.0f32;
    let clips = std::iter::once(None).chain((0..source.clips.len()).map(Some));
    for clip in clips {
        let duration = clip.map_or(0.0, |c| source.clips[c].duration());
        assert_eq!(
            clip.map(|c| written.clips[c].name()),
            clip.map(|c| source.clips[c].name())
        );
        for step in 0..5 {
            let time = duration * step as f32 / 4.0;
            let (source_vertices, source_joints) = posed(source, clip, time);
            let (written_vertices, written_joints) = posed(written, clip, time);
            assert_eq!(
                source_vertices.keys().collect::<Vec<_>>(),
                written_vertices.keys().collect::<Vec<_>>(),
                "posed primitives"
            );
            for (a, b) in source_vertices
                .values()
                .flatten()
                .zip(written_vertices.values().flatten())
            {
                assert_eq!(a.len(), b.len(), "vertices");
                largest = a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(largest, f32::max);
            }
            for (a, b) in source_joints.iter().zip(&written_joints) {
                largest = largest.max(a.w_axis.truncate().distance(b.w_axis.truncate()));
            }
        }
    }
    largest / diagonal(source)
}

/// The rigs the tests have: every sample rig and the FBX and OBJ files the tests write.
fn rigs(dir: &Path) -> Vec<PathBuf> {
    let mut files = common::all_rig_files();
    use common::fbx_file::{METRES_Y_UP, compensating_bar, skinned_bar, to_binary};
    for (name, nodes) in [
        ("bar.fbx", skinned_bar(&METRES_Y_UP)),
        ("compensating-bar.fbx", compensating_bar(&METRES_Y_UP)),
    ] {
        let fbx = dir.join(name);
        std::fs::write(&fbx, to_binary(&nodes)).unwrap();
        files.push(fbx);
    }
    files
}

#[test]
fn every_sample_rig_poses_as_it_did_after_a_round_trip_through_glb() {
    let dir = common::temp_dir("convert-round-trip");
    let mut written = Vec::new();
    for file in rigs(&dir) {
        let source = asset::load(&file).unwrap();
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let output = dir.join(format!("{name}.glb"));
        let saved = write::save(&source, &output, &WriteOptions::default()).unwrap();
        let back = asset::load(&output).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        eprintln!(
            "{}: {} joints, {} written; {:?}",
            file.display(),
            source.skeleton.len(),
            back.skeleton.len(),
            saved.warnings
        );
        let difference = largest_pose_difference(&source, &back);
        assert!(
            difference <= 1e-5,
            "{}: poses differ by {difference:.2e} of the diagonal; warnings: {:?}",
            file.display(),
            saved.warnings
        );
        written.push(output);
    }
    for report in khronos_validate_all(&written) {
        assert_eq!(report.errors, 0, "{}: {:#?}", report.file.display(), report.messages);
        let warnings = report.codes_of_severity(WARNING);
        assert!(warnings.is_empty(), "{}: {warnings:?}", report.file.display());
    }
}

#[test]
fn save_as_glb_writes_the_open_model_with_the_clips_added_to_it() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use rigscope::ui::{ViewerState, panel};
    let dir = common::temp_dir("save-as");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let mut state = ViewerState::new(asset::load(&fox).unwrap());
    state.add_clips_from(&fox);
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, state: &mut ViewerState| _ = panel::show(ui, state, &Default::default()),
        state,
    );
    harness.get_by_label("Save as GLB…").click();
    harness.run();
    let mut state = harness.into_state();
    assert!(state.requests.save_model, "the button asks the window for the dialog");
    assert_eq!(state.save_name(), "Fox.glb");
    let saved = dir.join(state.save_name());
    state.save_model(&saved);
    let notice = state.notice.clone().unwrap();
    assert!(!notice.failed && notice.text.starts_with("Saved "), "{notice:?}");
    let names = |model: &Model| model.clips.iter().map(|c| c.name().to_owned()).collect::<Vec<_>>();
    let back = asset::load(&saved).unwrap();
    assert_eq!(names(&back), names(&state.document.model), "with the clips added");
    assert_eq!(back.clips.len(), 6);
    state.save_model(Path::new("/no/such/folder/Fox.glb"));
    let notice = state.notice.clone().unwrap();
    assert!(
        notice.failed && notice.text.contains("/no/such/folder/Fox.glb"),
        "{notice:?}"
    );
}

#[test]
fn convert_keeps_renames_trims_resamples_and_reduces_clips() {
    let dir = common::temp_dir("convert-edits");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let out = dir.join("fox.gltf");
    let output = common::rigscope(&[
        "convert",
        fox.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--clip",
        "Run",
        "--clip",
        "Walk",
        "--rename",
        "Walk=Stroll",
        "--trim",
        "Run=0.1:0.6",
        "--fps",
        "30",
        "--reduce",
    ]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.contains("-> ") && stdout.contains("fox.gltf") && stdout.contains("2 clips"),
        "{stdout}"
    );
    assert!(dir.join("fox.bin").is_file(), "a .gltf has its .bin beside it");
    assert!(stderr.contains("resampled every clip at 30 fps"), "{stderr}");
    assert!(
        stderr.contains("clip 'Run': ") && stderr.contains(" bytes) reduced to "),
        "{stderr}"
    );
    let back = asset::load(&out).unwrap();
    let names: Vec<&str> = back.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Run", "Stroll"]);
    assert!((back.clips[0].duration() - 0.5).abs() < 1e-4, "trimmed to 0.5 s");
    let source = asset::load(&fox).unwrap();
    let walk = source.find_clip("Walk").unwrap();
    assert!((back.clips[1].duration() - source.clips[walk].duration()).abs() < 1e-4);
}

#[test]
fn convert_writes_many_models_into_a_folder_and_refuses_bad_edits_in_words() {
    let dir = common::temp_dir("convert-batch");
    let inputs = dir.join("in/chars");
    std::fs::create_dir_all(&inputs).unwrap();
    for name in ["Fox/glTF-Binary/Fox.glb", "CesiumMan/glTF-Binary/CesiumMan.glb"] {
        let file = common::gltf(name);
        std::fs::copy(&file, inputs.join(file.file_name().unwrap())).unwrap();
    }
    let out = dir.join("out");
    let stdout = common::succeed(&[
        "convert",
        dir.join("in").to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--json",
    ]);
    let lines = common::json_lines(stdout.as_bytes());
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines.iter().all(|line| line["ok"] == true), "{stdout}");
    for name in ["chars/CesiumMan.glb", "chars/Fox.glb"] {
        assert!(asset::load(&out.join(name)).is_ok(), "{name}");
    }
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let fox = fox.to_str().unwrap();
    let target = dir.join("x.glb");
    let target = target.to_str().unwrap();
    for (args, said) in [
        (
            &["--clip", "Dance"][..],
            "there is no clip 'Dance'; the clips are: Survey, Walk, Run",
        ),
        (&["--trim", "Run=0.8:0.2"][..], "Run"),
        (&["--rename", "Run"][..], "--rename Run: expected OLD=NEW"),
        (&["--reduce=-1"][..], "is not a distance"),
    ] {
        let output = common::rigscope(&[&["convert", fox, "-o", target][..], args].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && stderr.contains(said), "{args:?}: {stderr}");
    }
    assert!(!Path::new(target).exists(), "nothing written on an error");
}
