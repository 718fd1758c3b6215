//! FBX (binary and ASCII) and OBJ files, written by the tests: what loads, how a rig poses and
//! morphs against the numbers the file was written from (and where ufbx's own answer needed
//! correcting: compensated scale, vertices without weight), visibility, axes and units
//! converted, what `inspect` and the other commands say and draw, clips from an FBX (a
//! motion-only one too) added to an FBX or glTF rig, and bad files refused clearly.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::fbx_file::{self, METRES_Y_UP, Space};
use common::ufbx_reference;
use glam::{Mat4, Quat, Vec3};
use rigscope::anim::Pose;
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The bar of `fbx_file::skinned_bar` in both encodings, written into `dir`.
fn bar_files(dir: &Path, space: &Space) -> [PathBuf; 2] {
    let nodes = fbx_file::skinned_bar(space);
    [
        write(dir, "bar-binary.fbx", fbx_file::to_binary(&nodes)),
        write(dir, "bar-ascii.fbx", fbx_file::to_ascii(&nodes)),
    ]
}

/// Every vertex of the model posed by its first clip at `time`, on the CPU.
fn posed_at(model: &Model, time: f32) -> Vec<Vec3> {
    let mut pose: Pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[0];
    clip.sample(time, &mut pose, &mut clip.cursor());
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, SkinningMethod::Linear);
    deformer.primitives().iter().flat_map(|p| p.positions.clone()).collect()
}

/// The bar's six vertices at `time`, worked out from what the file says: the bulge at
/// `time` × 100%, then Tip turned by `time` × 90° about +Z around its joint at height 1.
fn bar_expected_at(time: f32) -> Vec<Vec3> {
    let tip = Mat4::from_translation(Vec3::Y)
        * Mat4::from_quat(Quat::from_rotation_z((90.0 * time).to_radians()))
        * Mat4::from_translation(-Vec3::Y);
    let mut vertices = Vec::new();
    for (height, tip_weight) in [(0.0, 0.0), (1.0, 0.5), (2.0, 1.0)] {
        for x in [-0.2, 0.2] {
            let bulge = if height == 1.0 { 0.5 * time } else { 0.0 };
            let p = Vec3::new(x, height, bulge);
            vertices.push(p * (1.0 - tip_weight) + tip.transform_point3(p) * tip_weight);
        }
    }
    vertices
}

/// `Tip`'s world matrix in the bar file at `path`, posed by `rigscope pose` in clip `Bend` at
/// `time` seconds.
fn tip_world_at(path: &Path, time: &str) -> Mat4 {
    let pose = common::json(&["pose", path.to_str().unwrap(), "--clip", "Bend", "--time", time]);
    let tip = (pose["joints"].as_array().unwrap().iter())
        .find(|j| j["name"] == "Tip")
        .expect("Tip in pose output");
    let world: Vec<f32> = (tip["world"].as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    Mat4::from_cols_slice(&world)
}

/// Asserts every expected point has a vertex within `tolerance` and the counts agree (the
/// loader may order and split vertices as it likes).
fn assert_same_points(actual: &[Vec3], expected: &[Vec3], tolerance: f32, what: &str) {
    for e in expected {
        let nearest = actual.iter().map(|a| a.distance(*e)).fold(f32::INFINITY, f32::min);
        assert!(
            nearest < tolerance,
            "{what}: no vertex near {e} (nearest {nearest}); vertices {actual:?}"
        );
    }
    for a in actual {
        let nearest = expected.iter().map(|e| a.distance(*e)).fold(f32::INFINITY, f32::min);
        assert!(nearest < tolerance, "{what}: vertex {a} is nowhere expected");
    }
}

#[test]
fn a_skinned_rig_loads_alike_from_binary_and_ascii_fbx() {
    let dir = common::temp_dir("fbx-encodings");
    for path in bar_files(&dir, &METRES_Y_UP) {
        let model = asset::load(&path).unwrap();
        let name = path.display();
        assert!(model.warnings.is_empty(), "{name}: {:?}", model.warnings);
        let joints: Vec<&str> = (0..model.skeleton.len()).map(|j| model.skeleton.name(j)).collect();
        assert_eq!(
            joints,
            ["Bar", "Root", "Tip"],
            "{name}: every node is a joint, parents first"
        );
        assert_eq!(model.skeleton.parent(2), Some(1), "{name}");
        assert_eq!(model.skins.len(), 1, "{name}");
        assert_eq!(model.skins[0].joints, [1, 2], "{name}: the clusters' bones");
        assert_eq!(model.meshes[0].target_names, ["Bulge"], "{name}");
        assert_eq!(model.triangle_count(), 4, "{name}: two quads");
        assert_eq!(model.materials[0].name, "Red", "{name}");
        let color = model.materials[0].base_color;
        assert!(
            (color - glam::Vec4::new(0.8, 0.1, 0.1, 1.0)).abs().max_element() < 1e-6,
            "{name}: {color}"
        );
        assert_eq!(model.clips.len(), 1, "{name}");
        assert_eq!(model.clips[0].name(), "Bend", "{name}");
        assert!((model.clips[0].duration() - 1.0).abs() < 1e-6, "{name}");
        let encoding = if name.to_string().contains("binary") {
            "binary"
        } else {
            "ASCII"
        };
        assert_eq!(
            model.file_facts[0],
            format!("FBX 7400 {encoding}, written by rigscope tests")
        );
        assert_eq!(model.file_facts[1], "+Y up, metres, as glTF");
    }
}

#[test]
fn the_rig_bends_and_bulges_as_the_file_says() {
    let dir = common::temp_dir("fbx-pose");
    for path in bar_files(&dir, &METRES_Y_UP) {
        let model = asset::load(&path).unwrap();
        // Keys at 0 s and 1 s, baked at 30 fps: linear curves are exact between the keys.
        for time in [0.0, 0.25, 0.5, 1.0] {
            let what = format!("{} at {time} s", path.display());
            assert_same_points(&posed_at(&model, time), &bar_expected_at(time), 1e-4, &what);
        }
    }
}

#[test]
fn vertices_the_skin_gives_no_weight_stay_with_the_mesh() {
    // Blender exports vertices outside every vertex group without weight. Maya, Blender and
    // ufbx leave them where the mesh's node puts them; glTF's repair (the skin's first joint,
    // Root here) would leave them at the origin's side.
    let dir = common::temp_dir("fbx-unweighted");
    let mut nodes = fbx_file::skinned_bar(&METRES_Y_UP);
    let tip_cluster = fbx_file::object_mut(&mut nodes, 32);
    *tip_cluster.child_mut("Indexes") = fbx_file::leaf("Indexes", fbx_file::Prop::Ints(vec![2, 3]));
    *tip_cluster.child_mut("Weights") = fbx_file::leaf("Weights", fbx_file::Prop::Doubles(vec![0.5, 0.5]));
    let bar = fbx_file::object_mut(&mut nodes, 1).child_mut("Properties70");
    bar.children = vec![fbx_file::p("Lcl Translation", "Lcl Translation", &[1.0, 0.0, 0.0])];
    let model = asset::load(&write(&dir, "unweighted.fbx", fbx_file::to_binary(&nodes))).unwrap();
    let mut expected = bar_expected_at(1.0);
    expected[4] = Vec3::new(0.8, 2.0, 0.0);
    expected[5] = Vec3::new(1.2, 2.0, 0.0);
    assert_same_points(&posed_at(&model, 1.0), &expected, 1e-4, "the top row, without weight");
    let repaired = model.warnings.iter().filter(|w| w.contains("without any weight"));
    assert_eq!(repaired.count(), 0, "{:?}", model.warnings);
}

#[test]
fn visibility_hides_a_node_for_good_or_from_a_key_on() {
    let dir = common::temp_dir("fbx-visibility");
    for path in bar_files(&dir, &METRES_Y_UP) {
        let model = asset::load(&path).unwrap();
        let slots = model.properties.slots();
        assert_eq!(slots.len(), 1, "{}", path.display());
        assert_eq!(slots[0].pointer, "Bar.Visibility");
        let clip = &model.clips[0];
        let mut visible = vec![false; model.skeleton.len()];
        let rest = model.skeleton.rest_pose();
        model
            .properties
            .visible_joints(rest.hierarchy(), rest.properties(), &mut visible);
        assert!(visible[0], "shown at rest: FBX's default where the file does not say");
        for (time, shown) in [(0.0, true), (0.49, true), (0.5, false), (1.0, false)] {
            let mut pose = model.skeleton.rest_pose().clone();
            clip.sample(time, &mut pose, &mut clip.cursor());
            let hierarchy = model.skeleton.rest_pose().hierarchy();
            model
                .properties
                .visible_joints(hierarchy, pose.properties(), &mut visible);
            assert_eq!(visible[0], shown, "{} at {time} s", path.display());
            assert!(visible[1] && visible[2], "the joints are not under the bar");
        }
    }

    // A mesh the file hides for good (`Visibility` 0, no curve) is not drawn, and is named.
    let mut nodes = fbx_file::only_objects(
        &fbx_file::skinned_bar(&METRES_Y_UP),
        &[1, 2, 3, 10, 11, 20, 30, 31, 32, 40, 41],
    );
    let bar = fbx_file::object_mut(&mut nodes, 1).child_mut("Properties70");
    bar.children.push(fbx_file::p("Visibility", "Visibility", &[0.0]));
    let model = asset::load(&write(&dir, "hidden.fbx", fbx_file::to_binary(&nodes))).unwrap();
    let mut visible = vec![true; model.skeleton.len()];
    let hierarchy = model.skeleton.rest_pose().hierarchy();
    model
        .properties
        .visible_joints(hierarchy, model.skeleton.rest_pose().properties(), &mut visible);
    assert!(!visible[0] && visible[1], "{visible:?}");
    let hidden: Vec<&String> = model.warnings.iter().filter(|w| w.contains("hides its mesh")).collect();
    assert_eq!(hidden.len(), 1, "{:?}", model.warnings);
    assert!(hidden[0].contains("'Bar'"), "{}", hidden[0]);
}

#[test]
fn a_joint_that_keeps_its_size_sits_where_its_parents_scale_puts_it() {
    // Maya's segment scale compensation under an animated scale: Tip moves up as Root grows but
    // keeps its own size. ufbx bakes such a joint by the parent's scale at rest, so the loader
    // evaluates it again (in Maya's own sausage rig, a 9% error against Maya's export).
    let dir = common::temp_dir("fbx-compensation");
    let nodes = fbx_file::compensating_bar(&METRES_Y_UP);
    let path = write(&dir, "compensating.fbx", fbx_file::to_binary(&nodes));
    let world = tip_world_at(&path, "0.5");
    let expected = Mat4::from_translation(1.5 * Vec3::Y) * Mat4::from_rotation_z(45f32.to_radians());
    assert!(
        world.abs_diff_eq(expected, 1e-5),
        "Tip at 0.5 s, Root scaled 1.5: {world}"
    );
}

#[test]
fn a_stretched_parent_of_a_turning_joint_poses_as_ufbx_evaluates_it() {
    // Root, turned 30° at rest, stretches non-uniformly while Tip turns under it: Tip's world
    // matrix has shear (RSrs), or Tip takes Root's stretch per axis of its own (RrSs), or none
    // of it (Rrs). ufbx's own evaluation of the file is the reference, at the stack's keys, at
    // its frames and between them (its curves are linear, so the bake is exact everywhere).
    // Also in a stack that starts after 0, where ufbx's bake looks an inherited scale up at the
    // wrong time (the loader evaluates such keys again).
    let dir = common::temp_dir("fbx-stretch");
    let early = [0, 1, 2].map(|inherit_type| (inherit_type, false));
    let later = [0, 1, 2].map(|inherit_type| (inherit_type, true));
    for (inherit_type, starts_later) in early.into_iter().chain(later) {
        let nodes = fbx_file::stretched_bar(&METRES_Y_UP, inherit_type);
        let nodes = if starts_later {
            fbx_file::starting_later(nodes)
        } else {
            nodes
        };
        let name = format!("stretched-{inherit_type}{}", if starts_later { "-later" } else { "" });
        let path = write(&dir, &format!("{name}.fbx"), fbx_file::to_binary(&nodes));
        let model = asset::load(&path).unwrap();
        let scene = ufbx_reference::load(&path);
        for time in [0.0, 0.25, 0.5, 0.6, 0.9, 1.0] {
            let deviation = ufbx_reference::deviation(&scene, &model, "Bend", time);
            assert!(
                deviation.vertex < 1e-6 && deviation.matrix < 1e-5,
                "{name} at {time} s: vertices {} of the diagonal, matrices {} from ufbx's",
                deviation.vertex,
                deviation.matrix
            );
        }
        // The shear is in the world matrices only: glTF composes the same local transforms (and
        // the scale helpers ufbx adds for RrSs and Rrs are nodes of their own), so the GLB
        // `convert` writes poses alike.
        let glb = dir.join(format!("{name}.glb"));
        let output = common::rigscope(&["convert", path.to_str().unwrap(), "-o", glb.to_str().unwrap()]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let converted = asset::load(&glb).unwrap();
        for time in [0.0, 0.5, 1.0] {
            let what = format!("{name}, converted, at {time} s");
            assert_same_points(&posed_at(&converted, time), &posed_at(&model, time), 1e-4, &what);
        }
    }
    // The sheared pose differs from the compensated one: the test sees what it tests.
    let load = |inherit_type: i32| {
        let nodes = fbx_file::stretched_bar(&METRES_Y_UP, inherit_type);
        let path = write(&dir, &format!("apart-{inherit_type}.fbx"), fbx_file::to_binary(&nodes));
        asset::load(&path).unwrap()
    };
    let (sheared, compensated) = (load(1), load(2));
    let apart = (posed_at(&sheared, 1.0).iter().zip(posed_at(&compensated, 1.0)))
        .map(|(a, b)| a.distance(b))
        .fold(0.0, f32::max);
    assert!(apart > 0.1, "RSrs and Rrs pose the tip apart: {apart}");
}

#[test]
fn z_up_centimetre_files_stand_up_in_metres() {
    // 3ds Max's space: the same numbers, read as Z up and centimetres. Pose and animation
    // alike come out as glTF's +Y up and metres: file (x, y, z) is (x, z, −y) / 100.
    let dir = common::temp_dir("fbx-space");
    let space = Space {
        up_axis: 2,
        unit_scale: 1.0,
    };
    for path in bar_files(&dir, &space) {
        let model = asset::load(&path).unwrap();
        assert_eq!(model.file_facts[1], "+Z up, centimetres: converted to +Y up, metres");
        for time in [0.0, 0.5, 1.0] {
            let expected: Vec<Vec3> = (bar_expected_at(time).into_iter())
                .map(|p| Vec3::new(p.x, p.z, -p.y) / 100.0)
                .collect();
            let what = format!("{} at {time} s", path.display());
            assert_same_points(&posed_at(&model, time), &expected, 1e-6, &what);
        }
    }
}

#[test]
fn inspect_and_joints_read_fbx_like_gltf() {
    let dir = common::temp_dir("fbx-inspect");
    let [binary, _] = bar_files(&dir, &METRES_Y_UP);
    let binary = binary.to_str().unwrap();
    let report = common::succeed(&["inspect", binary]);
    for line in [
        "FBX 7400 binary, written by rigscope tests",
        "+Y up, metres, as glTF",
        "takes (animation stacks): 'Bend'",
        "30 frames per second",
        "skin 'Skin': 2 joints",
        "morph targets: 0 'Bulge'",
        "clip 'Bend': 1.000 s",
    ] {
        assert!(report.contains(line), "inspect lacks '{line}':\n{report}");
    }
    let tree = common::succeed(&["joints", binary]);
    assert!(tree.contains("Root") && tree.contains("Tip"), "{tree}");
}

#[test]
fn pose_and_render_draw_an_fbx_rig() {
    let dir = common::temp_dir("fbx-render");
    let [binary, _] = bar_files(&dir, &METRES_Y_UP);
    let world = tip_world_at(&binary, "1");
    let binary = binary.to_str().unwrap();
    let turned = Mat4::from_translation(Vec3::Y) * Mat4::from_rotation_z(90f32.to_radians());
    assert!(world.abs_diff_eq(turned, 1e-5), "Tip at 1 s: {world}");

    let out = dir.join("bar.png");
    common::succeed(&[
        "render",
        binary,
        "-o",
        out.to_str().unwrap(),
        "--size",
        "160x160",
        "--time",
        "0",
    ]);
    let red = red_pixels(&out);
    assert!(red > 200, "the red bar is drawn ({red} red pixels)");
}

/// How many clearly red pixels `path`'s picture has (the bar is red).
fn red_pixels(path: &Path) -> usize {
    let image = image::open(path).unwrap().to_rgba8();
    (image.pixels())
        .filter(|p| p[0] as u16 > 2 * p[1].max(p[2]) as u16 && p[0] > 60)
        .count()
}

#[test]
fn lint_curves_thumbnail_sheet_and_video_read_an_fbx() {
    let dir = common::temp_dir("fbx-commands");
    let [binary, _] = bar_files(&dir, &METRES_Y_UP);
    let bar = binary.to_str().unwrap();
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();

    let lint = common::json(&["lint", bar, "--json"]);
    assert_eq!(
        (lint["errors"].as_u64(), lint["warnings"].as_u64()),
        (Some(0), Some(0)),
        "{lint}"
    );

    let curves = common::succeed(&["curves", bar, "--clip", "Bend", "--joint", "Tip", "--format", "csv"]);
    assert!(
        curves.lines().any(|l| l == "key,rotation.z,1,90,LINEAR"),
        "Tip turns to 90° at 1 s:\n{curves}"
    );

    common::succeed(&["thumbnail", bar, "-o", &out("thumb.png"), "--size", "96"]);
    assert!(red_pixels(&dir.join("thumb.png")) > 50, "the thumbnail shows the bar");
    common::succeed(&["sheet", bar, "-o", &out("sheet.png"), "--frames", "4", "--cell", "96"]);
    assert!(red_pixels(&dir.join("sheet.png")) > 100, "the sheet shows the bar");

    // Four frames of the one-second clip: the bar shows at 0 and 0.25 s, and is hidden from
    // 0.5 s on by its Visibility curve.
    common::succeed(&["video", bar, "-o", &out("frames"), "--fps", "4", "--size", "64x64"]);
    let shown: Vec<bool> = (1..=4)
        .map(|n| red_pixels(&dir.join(format!("frames/frame_{n:04}.png"))) > 20)
        .collect();
    assert_eq!(shown, [true, true, false, false]);
}

#[test]
fn clips_from_an_fbx_play_on_a_rig_with_the_same_joint_names() {
    // Mixamo's way: the character once, each animation as its own FBX. The clips retarget
    // joints by name; blend shape weights stay with the file's own mesh.
    let dir = common::temp_dir("fbx-clips-from");
    let [binary, ascii] = bar_files(&dir, &METRES_Y_UP);
    let mut character = asset::load(&ascii).unwrap();
    character.clips.clear();
    let report = asset::clips_from::add_clips_from(&mut character, &binary).unwrap();
    assert_eq!(report.clips, ["Bend (bar-binary.fbx)"]);
    assert!(report.unmatched_target.is_empty(), "{:?}", report.unmatched_target);
    let unbulged: Vec<Vec3> = bar_expected_at(1.0).iter().map(|p| p.with_z(0.0)).collect();
    assert_same_points(&posed_at(&character, 1.0), &unbulged, 1e-4, "the added clip at 1 s");
}

/// The bar of `fbx_file::skinned_bar` as a glTF rig without blend shape or animation: the
/// same six vertices and weights, skinned to joints `Root` and `Tip`.
fn bar_gltf(dir: &Path) -> PathBuf {
    let positions = [
        -0.2, 0.0, 0.0, 0.2, 0.0, 0.0, -0.2, 1.0, 0.0, 0.2, 1.0, 0.0, -0.2, 2.0, 0.0, 0.2, 2.0, 0.0,
    ];
    let joints: [u8; 24] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    let weights = [
        1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0,
        0.0, 0.0,
    ];
    let inverse_binds = [Mat4::IDENTITY, Mat4::from_translation(-Vec3::Y)];
    let mut bin = common::f32_bytes(&positions);
    bin.extend(joints);
    bin.extend(common::f32_bytes(&weights));
    bin.extend(inverse_binds.iter().flat_map(|m| common::f32_bytes(&m.to_cols_array())));
    bin.extend(
        [0u16, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]
            .iter()
            .flat_map(|i| i.to_le_bytes()),
    );
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},
        "buffers":[{{"byteLength":{length},"uri":"{uri}"}}],
        "bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":72}},{{"buffer":0,"byteOffset":72,"byteLength":24}},
            {{"buffer":0,"byteOffset":96,"byteLength":96}},{{"buffer":0,"byteOffset":192,"byteLength":128}},
            {{"buffer":0,"byteOffset":320,"byteLength":24}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":6,"type":"VEC3","min":[-0.2,0,0],"max":[0.2,2,0]}},
            {{"bufferView":1,"componentType":5121,"count":6,"type":"VEC4"}},
            {{"bufferView":2,"componentType":5126,"count":6,"type":"VEC4"}},
            {{"bufferView":3,"componentType":5126,"count":2,"type":"MAT4"}},
            {{"bufferView":4,"componentType":5123,"count":12,"type":"SCALAR"}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}},"indices":4}}]}}],
        "skins":[{{"joints":[1,2],"inverseBindMatrices":3}}],
        "nodes":[{{"name":"Bar","mesh":0,"skin":0}},{{"name":"Root","children":[2]}},
            {{"name":"Tip","translation":[0,1,0]}}],
        "scenes":[{{"nodes":[0,1]}}]}}"#,
        length = bin.len(),
        uri = common::data_uri(&bin),
    );
    write(dir, "bar.gltf", json)
}

#[test]
fn a_motion_only_fbx_animates_a_gltf_rig() {
    // Mixamo's "without skin" download: joints and keys, no mesh. Its clip plays on a glTF
    // character whose joints have the same names, in the library and on the command line.
    let dir = common::temp_dir("fbx-motion-only");
    let joints_and_keys = [2, 3, 50, 51, 52, 53];
    let motion = fbx_file::only_objects(&fbx_file::skinned_bar(&METRES_Y_UP), &joints_and_keys);
    let motion = write(&dir, "bend.fbx", fbx_file::to_binary(&motion));
    let source = asset::load(&motion).unwrap();
    assert!(source.meshes.is_empty(), "no mesh in the motion file");
    assert_eq!(source.clips.len(), 1);

    let rig_path = bar_gltf(&dir);
    let mut rig = asset::load(&rig_path).unwrap();
    assert!(rig.clips.is_empty());
    let report = asset::clips_from::add_clips_from(&mut rig, &motion).unwrap();
    assert_eq!(report.clips, ["Bend (bend.fbx)"]);
    assert_eq!(report.unmatched_target, ["Bar"], "only the mesh's node has no motion");
    assert!(report.unmatched_source.is_empty(), "{:?}", report.unmatched_source);
    let unbulged = |time: f32| -> Vec<Vec3> { bar_expected_at(time).iter().map(|p| p.with_z(0.0)).collect() };
    for time in [0.0, 0.5, 1.0] {
        assert_same_points(&posed_at(&rig, time), &unbulged(time), 1e-4, &format!("at {time} s"));
    }

    let pose = common::json(&[
        "pose",
        rig_path.to_str().unwrap(),
        "--clips-from",
        motion.to_str().unwrap(),
        "--clip",
        "Bend (bend.fbx)",
        "--time",
        "1",
    ]);
    let positions: Vec<Vec3> = (pose["primitives"][0]["positions"].as_array().unwrap().iter())
        .map(|p| {
            let p: Vec<f32> = p
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap() as f32)
                .collect();
            Vec3::from_slice(&p)
        })
        .collect();
    assert_same_points(&positions, &unbulged(1.0), 1e-4, "pose --clips-from at 1 s");
}

/// A cube in OBJ: two materials from its MTL (one with a texture that is not there), a
/// polyline, and relative (negative) indices.
fn cube_obj(dir: &Path) -> PathBuf {
    write(
        dir,
        "cube.mtl",
        "newmtl Blue\nKd 0.1 0.2 0.9\nd 1\n\nnewmtl Glass\nKd 0.9 0.9 0.9\nd 0.25\nmap_Kd missing.png\n",
    );
    let mut obj = String::from("# a unit cube\nmtllib cube.mtl\no Cube\n");
    for z in [-0.5, 0.5] {
        for y in [-0.5, 0.5] {
            for x in [-0.5, 0.5] {
                obj.push_str(&format!("v {x} {y} {z}\n"));
            }
        }
    }
    // Vertex n (1-based) has x = bit 0, y = bit 1, z = bit 2.
    obj.push_str("usemtl Blue\nf 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\n");
    obj.push_str("usemtl Glass\nf -8 -4 -2 -6\nf 2 4 8 6\n");
    obj.push_str("o Edge\nl 1 2 4 3\n");
    write(dir, "cube.obj", obj)
}

#[test]
fn obj_files_load_with_their_materials_faces_and_lines() {
    let dir = common::temp_dir("obj");
    let path = cube_obj(&dir);
    let model = asset::load(&path).unwrap();
    let names: Vec<&str> = model.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Blue", "Glass"]);
    assert!((model.materials[0].base_color.z - 0.9).abs() < 1e-6);
    assert!(
        (model.materials[1].base_color.w - 0.25).abs() < 1e-6,
        "d 0.25 is the alpha"
    );
    assert_eq!(model.triangle_count(), 12, "six quads");
    let topologies: Vec<String> = (model.meshes.iter())
        .flat_map(|m| m.primitives.iter().map(|p| format!("{:?}", p.topology)))
        .collect();
    assert!(
        topologies.iter().any(|t| t.contains("Line")),
        "the polyline is drawn: {topologies:?}"
    );
    let missing: Vec<&String> = model.warnings.iter().filter(|w| w.contains("missing.png")).collect();
    assert_eq!(missing.len(), 1, "{:?}", model.warnings);
    let corners: Vec<Vec3> = model.meshes[0]
        .primitives
        .iter()
        .flat_map(|p| p.positions.clone())
        .collect();
    let extent = corners.iter().fold(Vec3::ZERO, |m, p| m.max(p.abs()));
    assert_eq!(extent, Vec3::splat(0.5), "OBJ numbers are taken as metres, +Y up");
    assert_eq!(model.file_facts[0], "Wavefront OBJ");

    // Faces without normals are drawn flat, as Blender and three.js draw them, unless the
    // file smooths them (`s 1`).
    let report = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(report.contains("NORMAL (computed: flat, per face)"), "{report}");
    let obj = std::fs::read_to_string(&path).unwrap();
    let smoothed = write(&dir, "smoothed.obj", obj.replace("usemtl Blue\n", "usemtl Blue\ns 1\n"));
    let report = common::succeed(&["inspect", smoothed.to_str().unwrap()]);
    assert!(report.contains("NORMAL (computed: smooth)"), "{report}");

    std::fs::remove_file(dir.join("cube.mtl")).unwrap();
    let without = asset::load(&path).unwrap();
    assert_eq!(without.triangle_count(), 12, "a missing MTL leaves the shapes");
    assert!(
        without.warnings.iter().any(|w| w.contains("cube.mtl")),
        "{:?}",
        without.warnings
    );
}

/// A triangle whose only material is fully transparent (`d 0`), and a face that points past
/// the vertices: the file looks empty, and now says why.
#[test]
fn what_an_obj_does_not_draw_is_said_by_name() {
    let dir = common::temp_dir("obj-unseen");
    write(&dir, "ghost.mtl", "newmtl Ghost\nKd 0.8 0.8 0.8\nd 0\n");
    let obj = "mtllib ghost.mtl\no Ghost\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Ghost\nf 1 2 3\nf 1 2 5\n";
    let path = write(&dir, "ghost.obj", obj);
    let file = path.to_str().unwrap();

    let lint = common::succeed(&["lint", file]);
    let line = lint.lines().find(|l| l.contains("invisible-material"));
    assert!(
        line.is_some_and(|l| l.contains("material 'Ghost'")
            && l.ends_with("is fully transparent (alpha 0, blended): mesh 'Ghost' draws nothing where it covers them")),
        "{lint}"
    );

    let inspect = common::succeed(&["inspect", file]);
    assert!(
        inspect.contains(
            "warning: the OBJ reader clamped an index that pointed past the end of the vertex data (positions, normals, UVs or points) to its last entry: what uses them may look stretched (mesh 'Ghost')"
        ),
        "{inspect}"
    );
}

#[test]
fn a_fully_transparent_obj_casts_no_shadow() {
    // A floor with a marker at a corner, and the same with a fully transparent square (`d 0`)
    // hovering over the floor's middle (inside the same bounds, so the view frames both alike):
    // the square draws nothing, so it must not darken the floor with its shadow either.
    let dir = common::temp_dir("obj-no-shadow");
    write(
        &dir,
        "floor.mtl",
        "newmtl Floor\nKd 0.8 0.8 0.8\nd 1\n\nnewmtl Ghost\nKd 0.8 0.8 0.8\nd 0\n",
    );
    let floor = "mtllib floor.mtl\no Floor\nv -2 0 -2\nv -2 0 2\nv 2 0 2\nv 2 0 -2\nv 1.8 0.6 1.8\nv 1.9 0.6 1.8\nv 1.8 0.6 1.9\n\
                 usemtl Floor\nf 1 2 3 4\nf 5 7 6\n";
    let ghost = "o Ghost\nv -0.6 0.5 -0.6\nv -0.6 0.5 0.6\nv 0.6 0.5 0.6\nv 0.6 0.5 -0.6\nusemtl Ghost\nf 8 9 10 11\n";
    let render = |name: &str, obj: String| {
        let path = write(&dir, &format!("{name}.obj"), obj);
        common::render_png(&path, &dir.join(format!("{name}.png")), &["--size", "160x160"])
    };
    let alone = render("alone", floor.to_string());
    let with_ghost = render("ghost", format!("{floor}{ghost}"));
    let darker = (alone.pixels().zip(with_ghost.pixels()))
        .filter(|(a, b)| (0..3).any(|c| a[c] as i32 - b[c] as i32 > 8))
        .count();
    assert!(
        darker * 200 < alone.pixels().len(),
        "{darker} pixels darker with the transparent square over the floor"
    );
}

#[test]
fn broken_fbx_files_are_refused_by_name_without_panicking() {
    let dir = common::temp_dir("fbx-broken");
    let nodes = fbx_file::skinned_bar(&METRES_Y_UP);
    let binary = fbx_file::to_binary(&nodes);
    let not_fbx = write(&dir, "notes.fbx", "these are not the droids\n");
    let error = asset::load(&not_fbx).unwrap_err().to_string();
    assert!(error.contains("notes.fbx") && error.contains("FBX"), "{error}");

    // Every cut of the binary file: refused with the file's name, or read as far as it goes.
    for cut in (0..binary.len()).step_by(37) {
        let path = write(&dir, "cut.fbx", &binary[..cut]);
        if let Err(error) = asset::load(&path) {
            assert!(error.to_string().contains("cut.fbx"), "{error}");
        }
    }

    // An array claiming four billion elements in a small file.
    let marker = b"Vertices";
    let at = binary.windows(marker.len()).position(|w| w == marker).unwrap() + marker.len();
    assert_eq!(binary[at], b'd', "the array's type follows the name");
    let mut absurd = binary.clone();
    absurd[at + 1..at + 5].copy_from_slice(&u32::MAX.to_le_bytes());
    let path = write(&dir, "absurd.fbx", &absurd);
    let start = Instant::now();
    let error = asset::load(&path).unwrap_err().to_string();
    assert!(error.contains("absurd.fbx"), "{error}");
    assert!(
        common::timing::within(start.elapsed(), Duration::from_secs(2)),
        "refused quickly: {:?}",
        start.elapsed()
    );
}

#[test]
fn the_viewer_opens_an_fbx_and_says_what_the_file_is() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use rigscope::ui::{ViewerState, panel};

    let dir = common::temp_dir("fbx-viewer");
    let [binary, _] = bar_files(
        &dir,
        &Space {
            up_axis: 2,
            unit_scale: 1.0,
        },
    );
    let mut state = ViewerState::new(rigscope::asset::demo::demo_model());
    state.open(&binary);
    assert_eq!(state.document.load_error, None);
    assert_eq!(
        state.document.model.path, binary,
        "opened, not offered as clips for the demo rig"
    );
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 2400.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        state,
    );
    harness.run();
    harness.get_by_label("FBX 7400 binary, written by rigscope tests");
    harness.get_by_label("+Z up, centimetres: converted to +Y up, metres");
    assert!(
        harness.query_all_by_label_contains("Bend").next().is_some(),
        "the stack is a clip"
    );
}
