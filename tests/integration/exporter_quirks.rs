//! What exporters write that glTF does not allow but that reads one sensible way loads, read
//! that way, with a warning that names the object and says what was assumed; what cannot be
//! drawn is still refused, naming the object. Each case is a small quad file the test writes
//! with one quirk.

use crate::common;

use std::path::PathBuf;

use rigscope::asset::material::AlphaMode;
use rigscope::asset::{self, Model};
use serde_json::{Value, json};

/// The quad file with `edit` applied to its JSON.
fn quad_with(edit: impl FnOnce(&mut Value)) -> String {
    let mut value: Value =
        serde_json::from_str(&common::quad::quad_gltf(r#""material":0"#, r#""materials":[{}]"#)).unwrap();
    edit(&mut value);
    value.to_string()
}

/// A folder of the test's own (each test its own: `temp_dir` empties it first).
fn folder(test: &str) -> PathBuf {
    common::temp_dir(&format!("quirks-{test}"))
}

/// Loads `text` (named `name`), which must load, and checks that its warnings include
/// `warning`.
fn loads_warning(name: &str, text: &[u8], warning: &str) -> Model {
    // Nothing is read beside these files: the path only names them.
    let path = std::env::temp_dir().join(name);
    let model = asset::load_bytes(&path, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        model.warnings.iter().any(|w| w == warning),
        "{name}: no warning '{warning}' in {:#?}",
        model.warnings
    );
    model
}

fn quirk(name: &str, edit: impl FnOnce(&mut Value), warning: &str) -> Model {
    loads_warning(&format!("{name}.gltf"), quad_with(edit).as_bytes(), warning)
}

#[test]
fn fixed_size_arrays_of_another_length_keep_what_fits() {
    let model = quirk(
        "emissive-4",
        |j| j["materials"][0]["emissiveFactor"] = json!([1.0, 0.5, 0.25, 1.0]),
        "/materials/0/emissiveFactor: 4 numbers where 3 belong (the first 3 used)",
    );
    assert_eq!(model.materials[0].emissive.to_array(), [1.0, 0.5, 0.25]);
    let model = quirk(
        "base-colour-3",
        |j| j["materials"][0]["pbrMetallicRoughness"] = json!({"baseColorFactor": [0.5, 0.25, 1.0]}),
        "/materials/0/pbrMetallicRoughness/baseColorFactor: 3 numbers where 4 belong (opaque: alpha 1 assumed)",
    );
    assert_eq!(model.materials[0].base_color.to_array(), [0.5, 0.25, 1.0, 1.0]);
    let model = quirk(
        "scale-1",
        |j| j["nodes"][0]["scale"] = json!([2.0]),
        "/nodes/0/scale: 1 numbers where 3 belong (the default used)",
    );
    assert_eq!(model.skeleton.rest_pose().local()[0].scale.to_array(), [1.0; 3]);
    // NaN written out as null by C++ writers.
    quirk(
        "translation-null",
        |j| j["nodes"][0]["translation"] = json!([0.0, null, 0.0]),
        "/nodes/0/translation: it holds something other than numbers (the default used)",
    );
}

#[test]
fn nulls_negative_indices_and_zero_strides_mean_absent() {
    let model = quirk(
        "roughness-null",
        |j| j["materials"][0]["pbrMetallicRoughness"] = json!({"roughnessFactor": null}),
        "/materials/0/pbrMetallicRoughness/roughnessFactor: null (read as absent)",
    );
    assert_eq!(model.materials[0].roughness, 1.0);
    quirk(
        "animations-null",
        |j| j["animations"] = Value::Null,
        "/animations: null (read as absent)",
    );
    let model = quirk(
        "material-minus-1",
        |j| j["meshes"][0]["primitives"][0]["material"] = json!(-1),
        "/meshes/0/primitives/0/material: -1 (read as none)",
    );
    assert_eq!(model.meshes[0].primitives[0].material, None);
    let model = quirk(
        "stride-0",
        |j| j["bufferViews"][0]["byteStride"] = json!(0),
        "/bufferViews/0/byteStride: 0 (read as tightly packed)",
    );
    assert_eq!(model.vertex_count(), 4);
    assert_eq!(model.triangle_count(), 2);
}

#[test]
fn other_spellings_read_as_gltf_spells_them() {
    let model = quirk(
        "alpha-blend-lower-case",
        |j| j["materials"][0]["alphaMode"] = json!("blend"),
        "/materials/0/alphaMode: \"blend\" is not a glTF alpha mode (BLEND used)",
    );
    assert_eq!(model.materials[0].alpha, AlphaMode::Blend);
    let model = quirk(
        "interpolation-0",
        |j| {
            // Key times 0 and 1, and a translation up by 1, in a second buffer.
            let mut bin = common::f32_bytes(&[0.0, 1.0]);
            bin.extend(common::f32_bytes(&[0.0, 0.0, 0.0, 0.0, 1.0, 0.0]));
            let buffer = json!({"byteLength": bin.len(), "uri": common::data_uri(&bin)});
            j["buffers"].as_array_mut().unwrap().push(buffer);
            j["bufferViews"].as_array_mut().unwrap().extend([
                json!({"buffer": 1, "byteOffset": 0, "byteLength": 8}),
                json!({"buffer": 1, "byteOffset": 8, "byteLength": 24}),
            ]);
            j["accessors"].as_array_mut().unwrap().extend([
                json!({"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]}),
                json!({"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC3"}),
            ]);
            j["animations"] = json!([{"samplers": [{"input": 4, "output": 5, "interpolation": 0}],
                "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]);
        },
        "/animations/0/samplers/0/interpolation: 0 is not a glTF interpolation (LINEAR used)",
    );
    assert_eq!(model.clips[0].channels().len(), 1);
    let model = quirk(
        "camera-without-type",
        |j| {
            j["cameras"] = json!([{"perspective": {"yfov": 0.8, "znear": 0.1}}]);
            j["nodes"][0]["camera"] = json!(0);
        },
        "/cameras/0: no type (\"perspective\", as its values say)",
    );
    assert_eq!(model.cameras.len(), 1);
    quirk(
        "no-version",
        |j| j["asset"] = json!({}),
        "/asset: no version (\"2.0\" assumed)",
    );
    // .NET writers' byte-order mark.
    let mut text = b"\xEF\xBB\xBF".to_vec();
    text.extend(quad_with(|_| {}).as_bytes());
    loads_warning("bom.gltf", &text, "the JSON starts with a byte-order mark (ignored)");
}

#[test]
fn a_part_that_cannot_be_read_leaves_the_rest_showing() {
    // A primitive: only it is not drawn.
    let model = quirk(
        "index-past-the-vertices",
        |j| {
            j["meshes"][0]["primitives"]
                .as_array_mut()
                .unwrap()
                .push(json!({"attributes": {"POSITION": 0}, "indices": 0}));
        },
        "/meshes/0/primitives/1/indices: accessor 0 must hold unsigned integers (primitive not drawn)",
    );
    assert_eq!(model.triangle_count(), 2);
    quirk(
        "no-attributes",
        |j| {
            j["meshes"][0]["primitives"]
                .as_array_mut()
                .unwrap()
                .push(json!({"mode": 4}))
        },
        "/meshes/0/primitives/1: no attributes (nothing to draw)",
    );
    // A channel: only it is not played.
    quirk(
        "channel-sampler-9",
        |j| {
            j["animations"] = json!([{"samplers": [],
                "channels": [{"sampler": 9, "target": {"node": 0, "path": "translation"}}]}]);
        },
        "/animations/0/channels/0: sampler 9 does not exist (channel not played)",
    );
    // A skin without joints: its meshes are drawn unskinned.
    let model = quirk(
        "skin-without-joints",
        |j| {
            j["skins"] = json!([{"joints": []}]);
            j["nodes"][0]["skin"] = json!(0);
        },
        "/skins/0: it has no joints (its meshes are drawn unskinned)",
    );
    assert_eq!(model.instances[0].skin, None);
    // An image without data, and a buffer that declares more than it holds.
    quirk(
        "image-without-data",
        |j| j["images"] = json!([{"name": "nothing"}]),
        "/images/0: it has neither a uri nor a buffer view (not shown)",
    );
    quirk(
        "buffer-too-long",
        |j| j["buffers"][0]["byteLength"] = json!(144),
        "/buffers/0: it declares 144 bytes but only 140 are there (the views that fit are read)",
    );
}

#[test]
fn windows_paths_and_spot_lights_without_cones_read_as_meant() {
    let dir = folder("windows-paths");
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    // Not decoded at load: any bytes stand for the picture.
    let png = b"\x89PNG not really";
    std::fs::write(dir.join("textures/wood.png"), png).unwrap();
    let text = quad_with(|j| j["images"] = json!([{"uri": "textures\\wood.png"}]));
    let path = dir.join("backslash.gltf");
    let model = asset::load_bytes(&path, text.as_bytes()).unwrap();
    assert_eq!(
        model.warnings,
        ["/images/0: its uri 'textures\\wood.png' separates folders with '\\' (read as '/')"]
    );
    assert_eq!(model.images[0].bytes.len(), png.len());
    let model = asset::load_bytes(
        &path,
        quad_with(|j| {
            j["extensionsUsed"] = json!(["KHR_lights_punctual"]);
            j["extensions"] = json!({"KHR_lights_punctual": {"lights": [{"type": "spot"}]}});
            j["nodes"][0]["extensions"] = json!({"KHR_lights_punctual": {"light": 0}});
        })
        .as_bytes(),
    )
    .unwrap();
    assert_eq!(model.lights.len(), 1, "{:?}", model.warnings);
}

#[test]
fn what_cannot_be_drawn_is_still_refused_naming_the_object() {
    let refused = |name: &str, edit: fn(&mut Value)| {
        let path = std::env::temp_dir().join(format!("{name}.gltf"));
        asset::load_bytes(&path, quad_with(edit).as_bytes())
            .unwrap_err()
            .to_string()
    };
    let error = refused("cycle", |j| {
        j["nodes"] = json!([{"children": [1]}, {"children": [0], "mesh": 0}]);
    });
    assert!(
        error.ends_with("/nodes/0: the node hierarchy has a cycle through this node"),
        "{error}"
    );
    let error = refused("gltf-1", |j| j["asset"]["version"] = json!("1.0"));
    assert!(
        error.ends_with("/asset/version: the file is glTF 1.0; rigscope reads glTF 2.0"),
        "{error}"
    );
    let error = refused("no-count", |j| {
        j["accessors"][0].as_object_mut().unwrap().remove("count");
    });
    assert!(
        error.ends_with("/accessors/0: the required property \"count\" is missing"),
        "{error}"
    );
}
