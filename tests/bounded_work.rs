//! Work is bounded by a file's size, whatever its numbers say: a tiny file whose clip lasts a
//! billion seconds (or 3e38) goes through every command quickly, and key times that are not
//! floats are refused with the JSON pointer of the sampler input.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::timing::within;
use common::{data_uri, f32_bytes, temp_dir};
use rigscope::asset;

/// A one-node glTF whose translation keys are at 0 and `end` seconds; the key times' accessor
/// has component type `time_type`.
fn long_clip(dir: &Path, name: &str, end: f32, time_type: u32) -> PathBuf {
    let mut data = if time_type == 5126 {
        f32_bytes(&[0.0, end])
    } else {
        [0u32, end as u32].iter().flat_map(|v| v.to_le_bytes()).collect()
    };
    data.extend(f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]));
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "mover"}],
        "buffers": [{"byteLength": data.len(), "uri": data_uri(&data)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 8},
            {"buffer": 0, "byteOffset": 8, "byteLength": 24}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": time_type, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [end]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}
        ],
        "animations": [{"name": "long", "samplers": [{"input": 0, "output": 1}],
                        "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]
    });
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    path
}

#[test]
fn lint_of_a_billion_second_clip_is_quick() {
    let dir = temp_dir("long-clip-lint");
    for end in [1e9, 3e38] {
        let path = long_clip(&dir, "long.gltf", end, 5126);
        assert!(std::fs::metadata(&path).unwrap().len() < 1000);
        let model = asset::load(&path).unwrap();
        let start = Instant::now();
        rigscope::lint::lint(&model);
        let elapsed = start.elapsed();
        assert!(
            within(elapsed, Duration::from_millis(100)),
            "lint of a clip ending at {end} s took {elapsed:?}"
        );
    }
}

#[test]
fn every_command_finishes_quickly_on_a_billion_second_clip() {
    let dir = temp_dir("long-clip-commands");
    let file = long_clip(&dir, "long.gltf", 3e38, 5126);
    let file = file.to_str().unwrap();
    let png = dir.join("out.png");
    let png = png.to_str().unwrap();
    let out_dir = dir.join("thumbs");
    // Commands that draw start a (software) graphics device, which takes its own time.
    let commands: [(&[&str], u64); 8] = [
        (&["inspect", file], 1),
        (&["lint", file], 1),
        (&["joints", file, "--time", "1e30"], 1),
        (&["pose", file, "--time", "2e38", "--playback", "pingpong"], 1),
        (&["render", file, "-o", png, "--size", "48x48", "--time", "1e38"], 5),
        (&["thumbnail", file, "-o", png, "--size", "32"], 5),
        (
            &[
                "thumbnail",
                file,
                "--out-dir",
                out_dir.to_str().unwrap(),
                "--size",
                "32",
            ],
            5,
        ),
        (&["sheet", file, "-o", png, "--frames", "2", "--cell", "32"], 5),
    ];
    for (args, seconds) in commands {
        let start = Instant::now();
        common::succeed(args);
        let elapsed = start.elapsed();
        assert!(
            within(elapsed, Duration::from_secs(seconds)),
            "{args:?} took {elapsed:?}"
        );
    }
}

#[test]
fn key_times_that_are_not_floats_leave_their_channel_out_naming_the_sampler_input() {
    let dir = temp_dir("integer-key-times");
    let path = long_clip(&dir, "integer.gltf", 1e9, 5125);
    let model = asset::load(&path).unwrap();
    assert!(model.clips[0].channels().is_empty());
    assert!(
        model.warnings.contains(
            &"/animations/0/samplers/0/input: accessor 0 does not hold floats; key times must be FLOAT \
              (glTF 2.0 §3.11) (channel not played)"
                .to_string()
        ),
        "{:?}",
        model.warnings
    );
}

/// A VRM 0.x file of 20,000 nodes drawing one mesh (a triangle), 20,000 expression binds to
/// that mesh and one spring root listed 20,000 times: each bind would bind every node, and each
/// listing walk every node, so unbounded it is 400 million of each. Also 20,000 expressions
/// (names checked against each other) and a chain of 20,000 node constraints, each following
/// the one before it, listed last first (ordered sources first).
#[test]
fn a_small_vrm_cannot_ask_for_billions_of_binds_or_spring_walks() {
    let dir = temp_dir("bounded-vrm");
    let nodes = 20_000;
    let positions = f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let mut json_nodes = vec![serde_json::json!({ "name": "root", "children": (1..nodes).collect::<Vec<_>>() })];
    json_nodes.extend((1..nodes).map(|node| {
        let follow = serde_json::json!({ "rotation": { "source": node - 1 } });
        serde_json::json!({ "mesh": 0, "extensions": { "VRMC_node_constraint": { "specVersion": "1.0", "constraint": follow } } })
    }));
    json_nodes[1..].reverse();
    for (index, node) in json_nodes.iter_mut().enumerate().skip(1) {
        // Reversed above, so node `index` follows node `index + 1`; the last follows the root.
        let source = if index + 1 < nodes { index + 1 } else { 0 };
        node["extensions"]["VRMC_node_constraint"]["constraint"]["rotation"]["source"] = serde_json::json!(source);
    }
    let mut groups: Vec<_> = (0..nodes)
        .map(|i| serde_json::json!({ "name": format!("custom {i}") }))
        .collect();
    let binds: Vec<_> = (0..nodes)
        .map(|_| serde_json::json!({ "mesh": 0, "index": 0, "weight": 100 }))
        .collect();
    let mut json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": json_nodes,
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": positions.len(), "uri": data_uri(&positions)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": positions.len()}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]}],
        "extensionsUsed": ["VRM"],
        "extensions": {"VRM": {
            "humanoid": {"humanBones": []},
            "blendShapeMaster": {"blendShapeGroups": []},
            "secondaryAnimation": {"boneGroups": [{"bones": vec![0; nodes]}]}
        }}
    });
    groups[0] = serde_json::json!({ "name": "Joy", "presetName": "joy", "binds": binds });
    json["extensions"]["VRM"]["blendShapeMaster"]["blendShapeGroups"] = serde_json::json!(groups);
    let path = dir.join("many.vrm.gltf");
    std::fs::write(&path, json.to_string()).unwrap();
    let start = Instant::now();
    let model = asset::load(&path).unwrap();
    let took = start.elapsed();
    assert!(within(took, Duration::from_secs(10)), "{took:?}");
    assert_eq!(model.spring_bones.joints.len(), nodes, "each node walked once");
    assert_eq!(model.node_constraints.len(), nodes - 1);
    assert_eq!(model.avatar.as_ref().unwrap().expressions.len(), nodes);
    let said = model.warnings.join("\n");
    assert!(
        said.contains("the expressions bind more morph weights than four times"),
        "{}",
        &said[..said.len().min(400)]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An OBJ of a million faces whose last face names vertex 10^9: no file of its size can hold
/// that many vertices, so it is refused before ufbx reads (and allocates for) its faces, quickly
/// and with the line and the index named; an index one past the end is still clamped.
#[test]
fn an_obj_face_index_past_anything_the_file_can_hold_is_refused_at_once() {
    let dir = temp_dir("bounded-obj");
    let faces = 1_000_000;
    let mut obj = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    obj.push_str(&"f 1 2 3\n".repeat(faces));
    obj.push_str("f 1 2 1000000000\n");
    let path = dir.join("absurd.obj");
    std::fs::write(&path, &obj).unwrap();
    let start = Instant::now();
    let error = asset::load(&path).unwrap_err().to_string();
    let took = start.elapsed();
    assert!(
        error.contains(&format!(
            "the OBJ file's line {}: face index 1000000000 points past anything a file of {} bytes can hold",
            faces + 4,
            obj.len()
        )),
        "{error}"
    );
    assert!(within(took, Duration::from_millis(500)), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
