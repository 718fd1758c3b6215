//! What a file holds beyond one mesh on one node: scenes (only the one shown is loaded, and
//! `--scene` or the panel picks another), the file's cameras by their index, meshes drawn as
//! many copies (EXT_mesh_gpu_instancing), and files of joints alone (VRM animations).

use crate::common;

use std::collections::VecDeque;
use std::path::PathBuf;

use rigscope::asset::{self, SceneChoice};
use serde_json::{Value, json};

/// The quad file with `edit` applied to its JSON, written as `name.gltf` in a folder of
/// `test`'s own (`temp_dir` empties it first, so no two tests may share one).
fn quad_file(test: &str, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut value: Value = serde_json::from_str(&common::quad::quad_gltf("", "")).unwrap();
    edit(&mut value);
    common::quad::write(&common::temp_dir(test), name, &value.to_string())
}

/// Appends `values` to the file as a new buffer and a buffer view and accessor over it;
/// returns the accessor's index.
fn add_accessor(json: &mut Value, values: &[f32], kind: &str, count: usize) -> usize {
    let bytes = common::f32_bytes(values);
    let buffer = json["buffers"].as_array().unwrap().len();
    let view = json["bufferViews"].as_array().unwrap().len();
    let push = |list: &str, json: &mut Value, item: Value| json[list].as_array_mut().unwrap().push(item);
    push(
        "buffers",
        json,
        json!({"byteLength": bytes.len(), "uri": common::data_uri(&bytes)}),
    );
    push(
        "bufferViews",
        json,
        json!({"buffer": buffer, "byteLength": bytes.len()}),
    );
    push(
        "accessors",
        json,
        json!({"bufferView": view, "componentType": 5126, "count": count, "type": kind}),
    );
    json["accessors"].as_array().unwrap().len() - 1
}

/// How many separate shapes (4-connected regions unlike the corner pixel) `image` shows.
fn shapes(image: &image::RgbaImage) -> usize {
    let background = image.get_pixel(0, 0).0;
    let (width, height) = image.dimensions();
    let drawn = |x: u32, y: u32| {
        let pixel = image.get_pixel(x, y).0;
        pixel.iter().zip(background).any(|(a, b)| a.abs_diff(b) > 24)
    };
    let mut seen = vec![false; (width * height) as usize];
    let mut count = 0;
    for start in 0..width * height {
        if seen[start as usize] || !drawn(start % width, start / width) {
            continue;
        }
        count += 1;
        let mut queue = VecDeque::from([start]);
        seen[start as usize] = true;
        while let Some(at) = queue.pop_front() {
            let (x, y) = (at % width, at / width);
            let neighbours = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
            for (nx, ny) in neighbours {
                let next = ny.wrapping_mul(width).wrapping_add(nx);
                if nx < width && ny < height && !seen[next as usize] && drawn(nx, ny) {
                    seen[next as usize] = true;
                    queue.push_back(next);
                }
            }
        }
    }
    count
}

#[test]
fn a_mesh_with_64_copies_draws_64_quads_all_in_frame() {
    // An 8 × 8 grid of copies, 3 apart (the quad is 2 wide), half of them turned a quarter
    // about the view axis and every other one scaled by 0.8.
    let path = quad_file("copies", "grid", |json| {
        let (mut translations, mut rotations, mut scales) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..64 {
            translations.extend([(i % 8) as f32 * 3.0, (i / 8) as f32 * 3.0, 0.0]);
            let half = std::f32::consts::FRAC_1_SQRT_2;
            rotations.extend(if i % 2 == 0 {
                [0.0, 0.0, 0.0, 1.0]
            } else {
                [0.0, 0.0, half, half]
            });
            scales.extend([if i % 3 == 0 { 0.8 } else { 1.0 }; 3]);
        }
        let translation = add_accessor(json, &translations, "VEC3", 64);
        let rotation = add_accessor(json, &rotations, "VEC4", 64);
        let scale = add_accessor(json, &scales, "VEC3", 64);
        json["nodes"][0]["extensions"] = json!({"EXT_mesh_gpu_instancing": {"attributes":
            {"TRANSLATION": translation, "ROTATION": rotation, "SCALE": scale, "_ID": scale}}});
        json["extensionsUsed"] = json!(["EXT_mesh_gpu_instancing"]);
        json["extensionsRequired"] = json!(["EXT_mesh_gpu_instancing"]);
    });
    let model = asset::load(&path).unwrap();
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    assert_eq!(model.copies.len(), 1);
    assert_eq!(model.copies[0].transforms.len(), 64);
    assert_eq!(model.copies[0].custom, ["_ID"]);
    let text = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(
        text.contains(
            "node 0 'Node 0' draws mesh 0 as 64 instances (EXT_mesh_gpu_instancing, with _ID per instance (not drawn))"
        ),
        "{text}"
    );
    // Seen from the front, every copy is in the picture and apart from the others.
    let png = path.with_extension("png");
    let file = path.to_str().unwrap();
    common::succeed(&[
        "render",
        file,
        "-o",
        png.to_str().unwrap(),
        "--view",
        "front",
        "--no-grid",
        "--size",
        "320x320",
    ]);
    let image = image::open(&png).unwrap().to_rgba8();
    assert_eq!(shapes(&image), 64);
    let edge_pixels = (0..320).filter(|&i| shapes_touch_edge(&image, i)).count();
    assert_eq!(edge_pixels, 0, "the framing cuts copies off");
}

/// Whether the picture's border pixels at `i` (on each side) are drawn.
fn shapes_touch_edge(image: &image::RgbaImage, i: u32) -> bool {
    let background = image.get_pixel(0, 0).0;
    let last = image.width() - 1;
    [(i, 0), (i, last), (0, i), (last, i)].iter().any(|&(x, y)| {
        image
            .get_pixel(x, y)
            .0
            .iter()
            .zip(background)
            .any(|(a, b)| a.abs_diff(b) > 24)
    })
}

#[test]
fn a_skinned_mesh_s_copies_follow_its_animation_alike_on_the_cpu_and_the_gpu() {
    // The Fox drawn as three copies side by side, mid-run.
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let glb = common::edit_glb(&std::fs::read(&fox).unwrap(), |json| {
        let translation = add_accessor(json, &[-120.0, 0.0, 0.0, 0.0, 0.0, 0.0, 120.0, 0.0, 0.0], "VEC3", 3);
        let nodes = json["nodes"].as_array_mut().unwrap();
        let node = nodes.iter_mut().find(|n| n.get("mesh").is_some()).unwrap();
        node["extensions"] = json!({"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": translation}}});
    });
    let dir = common::temp_dir("skinned-copies");
    let path = dir.join("three-foxes.glb");
    std::fs::write(&path, glb).unwrap();
    let picture = |skinning: &str| {
        let png = dir.join(format!("{skinning}.png"));
        let (file, out) = (path.to_str().unwrap(), png.to_str().unwrap());
        // From the front, where the three stand well apart.
        let args = [
            "render", file, "-o", out, "--clip", "Run", "--time", "0.5", "--size", "240x120", "--view", "front",
        ];
        common::succeed(&[&args[..], &["--skinning", skinning, "--no-grid"]].concat());
        image::open(&png).unwrap().to_rgba8()
    };
    let (cpu, gpu) = (picture("cpu"), picture("gpu"));
    // Three foxes apart: three runs of columns with something drawn (a fox's legs and tail
    // may be shapes of their own).
    let background = gpu.get_pixel(0, 0).0;
    let drawn = |x: u32| {
        (0..gpu.height()).any(|y| {
            gpu.get_pixel(x, y)
                .0
                .iter()
                .zip(background)
                .any(|(a, b)| a.abs_diff(b) > 24)
        })
    };
    let columns: Vec<bool> = (0..gpu.width()).map(drawn).collect();
    let runs = columns.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(columns[0]);
    assert_eq!(runs, 3);
    assert!(common::different_fraction(&cpu, &gpu) < 0.001);
}

#[test]
fn copies_that_cannot_be_read_leave_the_mesh_drawn_once() {
    let path = quad_file("copies-broken", "broken", |json| {
        let translation = add_accessor(json, &[0.0; 6], "VEC2", 3);
        json["nodes"][0]["extensions"] =
            json!({"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": translation}}});
    });
    let model = asset::load(&path).unwrap();
    assert!(model.copies.is_empty());
    assert_eq!(
        model.warnings,
        [
            "/nodes/0/extensions/EXT_mesh_gpu_instancing: attribute TRANSLATION: accessor 4: its type is VEC2, \
          where 3 components are needed (the node is drawn once, without its copies)"
        ]
    );
}

/// Three quads: scene "left" holds the one at x = −3, scene "right" the one at x = +3, and the
/// node at the origin is in no scene.
fn two_scenes(test: &str) -> PathBuf {
    quad_file(test, "two-scenes", |json| {
        json["nodes"] = json!([
            {"mesh": 0, "name": "left quad", "translation": [-3.0, 0.0, 0.0]},
            {"mesh": 0, "name": "right quad", "translation": [3.0, 0.0, 0.0]},
            {"mesh": 0, "name": "stray quad"}
        ]);
        json["scenes"] = json!([{"name": "left", "nodes": [0]}, {"name": "right", "nodes": [1]}]);
        json["scene"] = json!(1);
    })
}

#[test]
fn only_the_scene_shown_is_loaded_and_any_other_can_be_chosen() {
    let path = two_scenes("scenes");
    // The file's default scene: "right".
    let model = asset::load(&path).unwrap();
    let names = |model: &asset::Model| -> Vec<String> {
        (0..model.skeleton.len())
            .map(|j| model.skeleton.name(j).to_string())
            .collect()
    };
    assert_eq!(names(&model), ["right quad"]);
    assert_eq!(model.scene, Some(1));
    assert_eq!(model.instances.len(), 1);
    assert_eq!(
        model.scenes.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["left", "right"]
    );
    for wanted in [
        SceneChoice::Named("left".into()),
        SceneChoice::Named("0".into()),
        SceneChoice::Index(0),
    ] {
        let model = asset::load_scene(&path, &wanted).unwrap();
        assert_eq!(names(&model), ["left quad"], "{wanted}");
    }
    let error = asset::load_scene(&path, &SceneChoice::Named("middle".into())).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "{}: no scene 'middle' (the file's scenes: 0 'left', 1 'right')",
            path.display()
        )
    );

    let file = path.to_str().unwrap();
    let text = common::succeed(&["inspect", file]);
    assert!(
        text.contains("  scene 0 'left': 1 root node\n  scene 1 'right': 1 root node (shown)\n"),
        "{text}"
    );
    // `render --scene` draws the one asked for: the left quad is left of the picture's middle.
    let png = path.with_extension("png");
    let out = png.to_str().unwrap();
    let columns = |scene: &str| {
        common::succeed(&[
            "render",
            file,
            "-o",
            out,
            "--scene",
            scene,
            "--view",
            "front",
            "--no-grid",
            "--size",
            "64x64",
        ]);
        let image = image::open(&png).unwrap().to_rgba8();
        let background = image.get_pixel(0, 0).0;
        let drawn = |x: u32| {
            (0..64).any(|y| {
                image
                    .get_pixel(x, y)
                    .0
                    .iter()
                    .zip(background)
                    .any(|(a, b)| a.abs_diff(b) > 24)
            })
        };
        (0..64).filter(|&x| drawn(x)).collect::<Vec<u32>>()
    };
    // Each scene alone is framed on its own quad, so both fill the middle; the scene chosen is
    // told apart by inspect above and by the error below.
    assert!(!columns("left").is_empty() && !columns("1").is_empty());
    let failed = common::rigscope(&["render", file, "-o", out, "--scene", "middle"]);
    assert!(!failed.status.success());
    assert!(
        String::from_utf8_lossy(&failed.stderr).contains("no scene 'middle' (the file's scenes: 0 'left', 1 'right')")
    );
}

#[test]
fn the_panel_s_scene_picker_shows_another_scene() {
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use rigscope::ui::{ViewerState, panel};
    let model = asset::load(&two_scenes("scene-picker")).unwrap();
    let mut harness = Harness::builder().with_size(egui::vec2(1280.0, 1600.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    harness.run();
    harness.get_by_role_and_label(Role::ComboBox, "Scene").click();
    harness.run();
    harness.get_by_label("left").click();
    harness.run();
    let model = &harness.state().document.model;
    assert_eq!(model.scene, Some(0));
    assert_eq!(model.skeleton.name(0), "left quad");
    harness.get_by_label_contains("Showing scene 'left' of two-scenes.gltf");
}

#[test]
fn camera_numbers_are_the_files_own() {
    // Node 0 carries camera 1 ("side"), node 1 camera 0 ("front"): numbering by node would swap them.
    let path = quad_file("cameras", "two-cameras", |json| {
        json["cameras"] = json!([
            {"name": "front", "type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}},
            {"name": "side", "type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}
        ]);
        let half = std::f32::consts::FRAC_1_SQRT_2;
        json["nodes"] = json!([
            {"children": [1, 2, 3]},
            {"camera": 1, "translation": [6.0, 0.0, 0.0], "rotation": [0.0, half, 0.0, half]},
            {"camera": 0, "translation": [0.0, 0.0, 6.0]},
            {"mesh": 0}
        ]);
        json["scenes"] = json!([{"nodes": [0]}]);
    });
    let file = path.to_str().unwrap();
    let text = common::succeed(&["inspect", file]);
    assert!(
        text.contains("camera 1 'side'") && text.contains("camera 0 'front'"),
        "{text}"
    );
    let dir = path.parent().unwrap();
    let render = |camera: &str| {
        let png = dir.join(format!("camera-{camera}.png"));
        common::succeed(&[
            "render",
            file,
            "-o",
            png.to_str().unwrap(),
            "--camera",
            camera,
            "--size",
            "48x48",
        ]);
        std::fs::read(png).unwrap()
    };
    assert_eq!(render("0"), render("front"));
    assert_eq!(render("1"), render("side"));
    assert_ne!(render("0"), render("1"));
}

#[test]
fn a_file_of_joints_alone_renders_its_skeleton() {
    // A three-joint chain and a clip bending it, as a VRM animation holds, without any mesh;
    // node 3 is an expression's value node (its translation is a weight), not a bone.
    let path = quad_file("skeleton", "chain", |json| {
        let times = add_accessor(json, &[0.0, 1.0], "SCALAR", 2);
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let rotations = add_accessor(json, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half], "VEC4", 2);
        json["accessors"][times]["min"] = json!([0.0]);
        json["accessors"][times]["max"] = json!([1.0]);
        json["meshes"] = json!([]);
        json["nodes"] = json!([
            {"name": "hips", "children": [1], "translation": [0.0, 1.0, 0.0]},
            {"name": "spine", "children": [2], "translation": [0.0, 0.5, 0.0]},
            {"name": "head", "translation": [0.0, 0.5, 0.0]},
            {"name": "happy", "translation": [40.0, 0.0, 0.0]}
        ]);
        json["scenes"] = json!([{"nodes": [0, 3]}]);
        json["animations"] = json!([{"samplers": [{"input": times, "output": rotations}],
            "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}]);
        json["extensionsUsed"] = json!(["VRMC_vrm_animation"]);
        json["extensions"] = json!({"VRMC_vrm_animation": {"expressions": {"preset": {"happy": {"node": 3}}}}});
    });
    let file = path.to_str().unwrap();
    let png = path.with_extension("png");
    common::succeed(&[
        "render",
        file,
        "-o",
        png.to_str().unwrap(),
        "--no-grid",
        "--size",
        "96x96",
    ]);
    let image = image::open(&png).unwrap().to_rgba8();
    // The bones, framed on themselves: the value node 40 units away would make them a dot.
    let coverage = common::coverage(&image);
    assert!(coverage > 0.01, "the skeleton covers {coverage}");
    let thumbnail = path.with_extension("thumb.png");
    common::succeed(&["thumbnail", file, "-o", thumbnail.to_str().unwrap(), "--size", "96"]);
    assert!(common::coverage(&image::open(&thumbnail).unwrap().to_rgba8()) > 0.01);
}
