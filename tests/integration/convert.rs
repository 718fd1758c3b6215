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
    (
        vertices_by_primitive(model, &deformer),
        deformer.model_matrices().to_vec(),
    )
}

/// The posed vertices of `deformer`, by mesh and primitive, in instance order: what a written
/// file's primitives are matched by (its mesh nodes may come in another order).
pub(super) fn vertices_by_primitive(model: &Model, deformer: &Deformer) -> BTreeMap<(usize, usize), Vec<Vec<Vec3>>> {
    let mut vertices: BTreeMap<(usize, usize), Vec<Vec<Vec3>>> = BTreeMap::new();
    for posed in deformer.primitives() {
        let mesh = model.instances[posed.instance].mesh;
        vertices
            .entry((mesh, posed.primitive))
            .or_default()
            .push(posed.positions.clone());
    }
    vertices
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
        let from = format!(
            "Converted by rigscope {} from {}",
            env!("CARGO_PKG_VERSION"),
            file.file_name().unwrap().to_string_lossy()
        );
        assert!(
            back.file_facts[0].starts_with(&from),
            "{}: {:?}",
            file.display(),
            back.file_facts
        );
        for fact in &source.file_facts {
            assert!(back.file_facts.contains(&format!("Its source said: {fact}")), "{fact}");
        }
        let dropped: Vec<&String> = saved.warnings.iter().filter(|w| w.contains("left out")).collect();
        assert!(dropped.is_empty(), "{}: {dropped:?}", file.display());
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

/// `json` with `values` appended as a buffer (a data URI) with a view and an accessor of
/// `count` elements of type `kind`; returns the accessor's index.
fn push_accessor(json: &mut serde_json::Value, values: &[f32], kind: &str, count: usize) -> usize {
    push_data(json, &common::f32_bytes(values), 5126, kind, count)
}

/// `push_accessor` for `bytes` holding elements of glTF's `component_type`.
fn push_data(json: &mut serde_json::Value, bytes: &[u8], component_type: u32, kind: &str, count: usize) -> usize {
    let push = |json: &mut serde_json::Value, list: &str, item: serde_json::Value| {
        let list = json[list].as_array_mut().unwrap();
        list.push(item);
        list.len() - 1
    };
    let buffer = push(
        json,
        "buffers",
        serde_json::json!({"byteLength": bytes.len(), "uri": common::data_uri(&bytes)}),
    );
    let view = push(
        json,
        "bufferViews",
        serde_json::json!({"buffer": buffer, "byteLength": bytes.len()}),
    );
    push(
        json,
        "accessors",
        serde_json::json!({"bufferView": view, "componentType": component_type, "count": count, "type": kind}),
    )
}

/// Per model mesh with copies, every copy's posed vertices where it is placed, for `clip` at
/// `time` (the rest pose without a clip).
fn placed_copies(model: &Model, clip: Option<usize>, time: f32) -> BTreeMap<usize, Vec<Vec3>> {
    let mut pose = model.skeleton.rest_pose().clone();
    if let Some(clip) = clip.map(|c| &model.clips[c]) {
        clip.sample(time, &mut pose, &mut clip.cursor());
    }
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, SkinningMethod::Linear);
    let mut placed: BTreeMap<usize, Vec<Vec3>> = BTreeMap::new();
    for copies in &model.copies {
        let instance = &model.instances[copies.instance];
        let joint = deformer.model_matrices()[instance.joint];
        let points = placed.entry(instance.mesh).or_default();
        for placement in copies.placements(joint) {
            for posed in deformer.primitives().iter().filter(|p| p.instance == copies.instance) {
                points.extend(posed.positions.iter().map(|&p| placement.transform_point3(p)));
            }
        }
    }
    placed
}

#[test]
fn copies_of_rigid_and_skinned_meshes_come_back_placed_as_they_were() {
    let dir = common::temp_dir("convert-copies");
    // A quad moved along x, drawn as three copies turned, scaled and moved within its node,
    // with an attribute of the application's own.
    let mut quad: serde_json::Value = serde_json::from_str(&common::quad::quad_gltf("", "")).unwrap();
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let translation = push_accessor(&mut quad, &[0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 3.0, 1.0], "VEC3", 3);
    let rotations = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half, half, 0.0, 0.0, half];
    let rotation = push_accessor(&mut quad, &rotations, "VEC4", 3);
    let scale = push_accessor(&mut quad, &[1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 2.0, 1.0, 1.0], "VEC3", 3);
    let ids = push_accessor(&mut quad, &[0.0, 1.0, 2.0], "SCALAR", 3);
    quad["nodes"][0]["translation"] = serde_json::json!([5.0, 0.0, 0.0]);
    quad["nodes"][0]["extensions"] = serde_json::json!({"EXT_mesh_gpu_instancing": {"attributes":
        {"TRANSLATION": translation, "ROTATION": rotation, "SCALE": scale, "_ID": ids}}});
    quad["extensionsUsed"] = serde_json::json!(["EXT_mesh_gpu_instancing"]);
    let quad = common::quad::write(&dir, "quads", &quad.to_string());
    // The Fox run three times side by side, its (skinned) mesh's node moved, which moves the
    // space its copies are placed in but not the Fox.
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let foxes = common::edit_glb(&std::fs::read(&fox).unwrap(), |json| {
        let translation = push_accessor(json, &[-120.0, 0.0, 0.0, 0.0, 0.0, 0.0, 120.0, 0.0, 0.0], "VEC3", 3);
        let rotation = push_accessor(
            json,
            &[0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            "VEC4",
            3,
        );
        let nodes = json["nodes"].as_array_mut().unwrap();
        let node = nodes.iter_mut().find(|n| n.get("mesh").is_some()).unwrap();
        assert!(node.get("matrix").is_none());
        node["translation"] = serde_json::json!([0.0, 0.0, 50.0]);
        node["extensions"] = serde_json::json!({"EXT_mesh_gpu_instancing": {"attributes":
            {"TRANSLATION": translation, "ROTATION": rotation}}});
    });
    let foxes_path = dir.join("foxes.glb");
    std::fs::write(&foxes_path, foxes).unwrap();
    let mut written = Vec::new();
    for (file, rigid) in [(quad, true), (foxes_path, false)] {
        let source = asset::load(&file).unwrap();
        assert!(source.warnings.is_empty(), "{}: {:?}", file.display(), source.warnings);
        assert_eq!(source.copies.len(), 1);
        let output = dir.join(format!("{}-written.glb", file.file_stem().unwrap().to_string_lossy()));
        let saved = write::save(&source, &output, &WriteOptions::default()).unwrap();
        let back = asset::load(&output).unwrap();
        assert!(back.warnings.is_empty(), "{}: {:?}", file.display(), back.warnings);
        assert_eq!(back.copies.len(), 1, "{}", file.display());
        let mesh_of = |model: &Model| model.instances[model.copies[0].instance].mesh;
        assert_eq!(mesh_of(&back), mesh_of(&source));
        assert_eq!(back.copies[0].transforms.len(), 3);
        if rigid {
            // Within the same joint's space: the same transforms.
            for (a, b) in source.copies[0].transforms.iter().zip(&back.copies[0].transforms) {
                assert!(a.abs_diff_eq(*b, 1e-5), "{a} != {b}");
            }
            assert_eq!(
                saved.warnings,
                ["mesh 'Mesh 0': its copies' own attributes _ID are not written (the model does not keep them)"]
            );
        } else {
            assert!(saved.warnings.is_empty(), "{:?}", saved.warnings);
        }
        assert!(back.copies[0].custom.is_empty());
        // Every copy posed and placed alike, at rest and through every clip.
        let extent = diagonal(&source);
        let clips = std::iter::once(None).chain((0..source.clips.len()).map(Some));
        for clip in clips {
            let duration = clip.map_or(0.0, |c| source.clips[c].duration());
            for step in 0..3 {
                let time = duration * step as f32 / 2.0;
                let (expected, found) = (placed_copies(&source, clip, time), placed_copies(&back, clip, time));
                assert_eq!(expected.keys().collect::<Vec<_>>(), found.keys().collect::<Vec<_>>());
                for (a, b) in expected.values().zip(found.values()) {
                    assert_eq!(a.len(), b.len());
                    let largest = a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
                    assert!(
                        largest <= 1e-5 * extent,
                        "{}: {clip:?} at {time}: {largest}",
                        file.display()
                    );
                }
            }
        }
        written.push(output);
    }
    for report in khronos_validate_all(&written) {
        // The validator's models have accessors without data, all zeros: their key times 0, 0
        // are written increasing too.
        report.assert_no_errors();
    }
}

/// Per mesh, whether each of its instances is shown in `pose` (KHR_node_visibility), and per
/// joint of the first `joints`, whether it is.
fn shown(model: &Model, properties: &[f32], joints: usize) -> (BTreeMap<usize, Vec<bool>>, Vec<bool>) {
    let mut visible = vec![true; model.skeleton.len()];
    (model.properties).visible_joints(model.skeleton.hierarchy(), properties, &mut visible);
    let mut by_mesh: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
    for instance in &model.instances {
        by_mesh.entry(instance.mesh).or_default().push(visible[instance.joint]);
    }
    by_mesh.values_mut().for_each(|shown| shown.sort());
    visible.truncate(joints);
    (by_mesh, visible)
}

#[test]
fn animated_properties_and_visibility_come_back_after_a_round_trip_through_glb() {
    use crate::animated_properties::extension_models;
    use common::animated_scene::{BASE_COLOR, VISIBLE, pointer};
    use common::fbx_file::{METRES_Y_UP, skinned_bar, to_binary};
    let dir = common::temp_dir("convert-animated-properties");
    let bar = dir.join("bar.fbx");
    std::fs::write(&bar, to_binary(&skinned_bar(&METRES_Y_UP))).unwrap();
    // Every kind of property: each width, texture transforms, camera, spot light, visibility.
    let texture = "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform";
    let light = "/extensions/KHR_lights_punctual/lights/0";
    let kinds = common::animated_scene::write(
        "pointer-kinds-to-write",
        &[vec![
            pointer(
                BASE_COLOR,
                "LINEAR",
                &[0.0, 2.0],
                &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
            ),
            pointer(
                "/materials/0/pbrMetallicRoughness/roughnessFactor",
                "CUBICSPLINE",
                &[0.0, 2.0],
                &[0.0, 0.0, 1.0, 0.0, 1.0, 0.0],
            ),
            pointer(
                "/materials/0/emissiveFactor",
                "STEP",
                &[0.0, 1.0],
                &[0.0, 0.0, 0.0, 1.0, 0.5, 0.0],
            ),
            pointer(
                &format!("{texture}/offset"),
                "LINEAR",
                &[0.0, 2.0],
                &[0.25, 0.0, 0.75, 1.0],
            ),
            pointer(&format!("{texture}/rotation"), "LINEAR", &[0.0, 2.0], &[0.0, 1.0]),
            pointer("/cameras/0/perspective/yfov", "LINEAR", &[0.0, 2.0], &[0.8, 1.2]),
            pointer(
                &format!("{light}/color"),
                "LINEAR",
                &[0.0, 2.0],
                &[1.0, 1.0, 1.0, 0.0, 0.0, 1.0],
            ),
            pointer(
                &format!("{light}/spot/outerConeAngle"),
                "LINEAR",
                &[0.0, 2.0],
                &[0.6, 1.0],
            ),
            pointer(VISIBLE, "STEP", &[0.0, 1.5], &[1.0, 0.0]),
        ]],
    );
    let files: Vec<PathBuf> = [kinds, bar]
        .into_iter()
        .chain(extension_models("KHR_animation_pointer"))
        .chain(extension_models("KHR_node_visibility"))
        .collect();
    let mut written = Vec::new();
    let mut animated = 0;
    for (index, file) in files.iter().enumerate() {
        let source = asset::load(file).unwrap();
        if source.properties.is_empty() {
            // The validator's models of what a reader cannot play: nothing to write back.
            continue;
        }
        // The validator's folders share names (valid.gltf).
        let name = file.file_stem().unwrap().to_string_lossy();
        let output = dir.join(format!("{index}-{name}.glb"));
        let saved = write::save(&source, &output, &WriteOptions::default()).unwrap();
        assert!(
            !saved
                .warnings
                .iter()
                .any(|w| w.contains("KHR_animation_pointer") || w.contains("no place")),
            "{}: {:?}",
            file.display(),
            saved.warnings
        );
        let back = asset::load(&output).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(
            back.clips.len(),
            source.clips.len(),
            "{}: {:?}",
            file.display(),
            saved.warnings
        );
        let slots = source.properties.slots();
        animated += slots.len();
        // Each source slot's place in the written model's properties.
        let places: Vec<_> = (slots.iter())
            .map(|slot| {
                let place = back.properties.slots().iter().find(|s| s.target == slot.target);
                let place = place.unwrap_or_else(|| panic!("{}: {} is not written", file.display(), slot.pointer));
                assert_eq!(place.width, slot.width);
                place.offset
            })
            .collect();
        let clips = std::iter::once(None).chain((0..source.clips.len()).map(Some));
        for clip in clips {
            let duration = clip.map_or(0.0, |c| source.clips[c].duration());
            for step in 0..5 {
                let time = duration * step as f32 / 4.0;
                let sampled = |model: &Model| {
                    let mut pose = model.skeleton.rest_pose().clone();
                    if let Some(clip) = clip.map(|c| &model.clips[c]) {
                        clip.sample(time, &mut pose, &mut clip.cursor());
                    }
                    pose.properties().to_vec()
                };
                let (before, after) = (sampled(&source), sampled(&back));
                for (slot, &place) in slots.iter().zip(&places) {
                    let (a, b) = (&before[slot.offset..][..slot.width], &after[place..][..slot.width]);
                    assert!(
                        a.iter().zip(b).all(|(a, b)| (a - b).abs() <= 1e-5),
                        "{}: {} at {time} s of clip {clip:?}: {a:?} became {b:?}",
                        file.display(),
                        slot.pointer
                    );
                }
                let joints = source.skeleton.len();
                assert_eq!(
                    shown(&source, &before, joints),
                    shown(&back, &after, joints),
                    "{}: what is shown at {time} s of clip {clip:?}",
                    file.display()
                );
            }
        }
        written.push(output);
    }
    assert!(animated >= 12, "the files animate {animated} properties");
    for report in khronos_validate_all(&written) {
        // The validator's models have accessors without data, all zeros: their key times 0, 0
        // are written increasing too.
        report.assert_no_errors();
    }
}

#[test]
fn convert_adds_the_clips_of_other_files_under_the_names_given() {
    let dir = common::temp_dir("convert-clips-from");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let fox = fox.to_str().unwrap();
    let out = dir.join("fox-more.glb");
    let output = common::rigscope(&[
        "convert",
        fox,
        "-o",
        out.to_str().unwrap(),
        "--clips-from",
        fox,
        "--clip-name",
        "Look",
        "--clip-name",
        "Stroll",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let back = asset::load(&out).unwrap();
    let names: Vec<&str> = back.clips.iter().map(|c| c.name()).collect();
    assert_eq!(names, ["Survey", "Walk", "Run", "Look", "Stroll", "Run (Fox.glb)"]);
    let too_many = common::rigscope(&[
        "convert",
        fox,
        "-o",
        out.to_str().unwrap(),
        "--clips-from",
        fox,
        "--clip-name",
        "a",
        "--clip-name",
        "b",
        "--clip-name",
        "c",
        "--clip-name",
        "d",
    ]);
    let stderr = String::from_utf8_lossy(&too_many.stderr);
    assert!(
        !too_many.status.success() && stderr.contains("4 names for the 3 clips"),
        "{stderr}"
    );
    // Several motion files after one --clips-from, as after the option repeated.
    let cesium = common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
    let (cesium, out_text) = (cesium.to_str().unwrap(), out.to_str().unwrap());
    common::succeed(&["convert", cesium, "--clips-from", cesium, cesium, "-o", out_text]);
    let back = asset::load(&out).unwrap();
    assert_eq!(back.clips.len(), 3, "its own clip and one from each file");
}

/// A quad bound to eight joints, each vertex to all eight (an eighth each): the first vertex,
/// where the loader starts the list of influences five to eight, once lost them.
#[test]
fn the_first_vertex_keeps_eight_influences_through_a_round_trip() {
    let dir = common::temp_dir("convert-eight-influences");
    let mut quad: serde_json::Value = serde_json::from_str(&common::quad::quad_gltf("", "")).unwrap();
    let joints = |first: u8| -> Vec<u8> { (0..4).flat_map(|_| first..first + 4).collect() };
    let joints_0 = push_data(&mut quad, &joints(0), 5121, "VEC4", 4);
    let joints_1 = push_data(&mut quad, &joints(4), 5121, "VEC4", 4);
    let weights_0 = push_accessor(&mut quad, &[0.125; 16], "VEC4", 4);
    let weights_1 = push_accessor(&mut quad, &[0.125; 16], "VEC4", 4);
    let attributes = &mut quad["meshes"][0]["primitives"][0]["attributes"];
    attributes["JOINTS_0"] = joints_0.into();
    attributes["JOINTS_1"] = joints_1.into();
    attributes["WEIGHTS_0"] = weights_0.into();
    attributes["WEIGHTS_1"] = weights_1.into();
    quad["skins"] = serde_json::json!([{"joints": [1, 2, 3, 4, 5, 6, 7, 8]}]);
    let root = serde_json::json!({"children": [2, 3, 4, 5, 6, 7, 8]});
    quad["nodes"] = serde_json::json!([{"mesh": 0, "skin": 0}, root, {}, {}, {}, {}, {}, {}, {}]);
    quad["scenes"] = serde_json::json!([{"nodes": [0, 1]}]);
    let source = asset::load(&common::quad::write(&dir, "eight", &quad.to_string())).unwrap();
    let output = dir.join("eight.glb");
    write::save(&source, &output, &WriteOptions::default()).unwrap();
    khronos_validate_all(&[&output])[0].assert_no_errors();
    for model in [&source, &asset::load(&output).unwrap()] {
        let weights = model.meshes[0].primitives[0].skin_weights.as_ref().unwrap();
        for vertex in 0..4 {
            let influences: Vec<_> = weights.influences(vertex).collect();
            assert_eq!(influences.len(), 8, "vertex {vertex}: {influences:?}");
        }
    }
}

/// What other programs' files hold but glTF cannot, written so that it is valid and plays
/// alike: vertex colours brighter than 1 (clamped), a morph target that moves only normals
/// (written with positions that move nothing), and two keys at one time (a jump).
#[test]
fn bright_colours_normal_only_targets_and_jumps_are_written_valid() {
    let dir = common::temp_dir("convert-awkward");
    let mut quad: serde_json::Value = serde_json::from_str(&common::quad::quad_gltf("", "")).unwrap();
    let colours = [
        2.0, 0.5, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0, 0.5, 0.5, 0.5, 1.0,
    ];
    let colours = push_accessor(&mut quad, &colours, "VEC4", 4);
    let moved = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let moved = push_accessor(&mut quad, &moved, "VEC3", 4);
    let turned = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let turned = push_accessor(&mut quad, &turned, "VEC3", 4);
    let times = push_accessor(&mut quad, &[0.0, 1.0, 1.0, 2.0], "SCALAR", 4);
    let places = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 5.0, 0.0, 0.0, 6.0, 0.0, 0.0];
    let places = push_accessor(&mut quad, &places, "VEC3", 4);
    let weights = push_accessor(&mut quad, &[0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0], "SCALAR", 8);
    let primitive = &mut quad["meshes"][0]["primitives"][0];
    primitive["attributes"]["COLOR_0"] = colours.into();
    primitive["targets"] = serde_json::json!([{"POSITION": moved}, {"NORMAL": turned}]);
    quad["animations"] = serde_json::json!([{"name": "Jump",
        "samplers": [{"input": times, "output": places}, {"input": times, "output": weights}],
        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 0, "path": "weights"}}]}]);
    let source = asset::load(&common::quad::write(&dir, "awkward", &quad.to_string())).unwrap();
    let output = dir.join("awkward.glb");
    let saved = write::save(&source, &output, &WriteOptions::default()).unwrap();
    assert_eq!(
        saved.warnings,
        ["mesh 'Mesh 0', primitive 0: vertex colours outside 0 to 1 clamped (glTF's COLOR_0 holds no more)"]
    );
    khronos_validate_all(&[&output])[0].assert_no_errors();
    let back = asset::load(&output).unwrap();
    let primitive = &back.meshes[0].primitives[0];
    assert_eq!(primitive.colors[0].to_array(), [1.0, 0.5, 0.0, 1.0]);
    assert_eq!(primitive.colors[2].to_array(), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(primitive.morph_targets.len(), 2);
    assert!(primitive.morph_targets[1].positions.iter().all(|&p| p == Vec3::ZERO));
    // Before, after and at the jump; and either side of it, where the keys were.
    for time in [0.0, 0.5, 1.0, 1.5, 2.0] {
        let (expected, found) = (posed(&source, Some(0), time).0, posed(&back, Some(0), time).0);
        for (a, b) in expected.values().flatten().zip(found.values().flatten()) {
            let largest = a.iter().zip(b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
            assert!(largest < 1e-5, "at {time} s: {largest}");
        }
    }
}
