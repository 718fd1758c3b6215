//! KHR_animation_pointer beyond node transforms (materials, texture transforms, cameras,
//! lights) and KHR_node_visibility, on small files the tests write (`common::animated_scene`):
//! sampled values of every property kind (LINEAR, STEP, CUBICSPLINE), the curve view, warnings
//! for pointers rigscope cannot play, the commands' reports, and the validator's models of both
//! extensions.

use crate::common;

use std::path::PathBuf;

use common::animated_scene::{BASE_COLOR, VISIBLE, close, load, pointer, pose_at, value, write};
use glam::{Vec2, Vec3, Vec4};
use rigscope::asset::material::AlphaMode;
use rigscope::asset::{self, Projection};
use rigscope::inspect::{CurveGroup, CurveSet};

#[test]
fn every_property_kind_samples_as_its_interpolation_says() {
    // Cubic spline keys 2 s apart, 0 → 1, out-tangent 1/s, in-tangent 0: at s = 0.5 the
    // Hermite sum is 2·(s³ − 2s² + s) + (−2s³ + 3s²) = 0.75.
    let cubic = [0.0, 0.0, 1.0, 0.0, 1.0, 0.0];
    let texture = "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform";
    let light = "/extensions/KHR_lights_punctual/lights/0";
    let channels = vec![
        pointer(
            BASE_COLOR,
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
        ),
        pointer(
            "/materials/0/pbrMetallicRoughness/metallicFactor",
            "STEP",
            &[0.0, 1.0, 2.0],
            &[0.1, 0.5, 0.9],
        ),
        pointer(
            "/materials/0/pbrMetallicRoughness/roughnessFactor",
            "CUBICSPLINE",
            &[0.0, 2.0],
            &cubic,
        ),
        pointer(
            "/materials/0/emissiveFactor",
            "LINEAR",
            &[0.0, 2.0],
            &[0.0, 0.0, 0.0, 1.0, 0.5, 0.0],
        ),
        pointer("/materials/0/alphaCutoff", "STEP", &[0.0, 1.0], &[0.4, 0.8]),
        pointer(
            "/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength",
            "LINEAR",
            &[0.0, 2.0],
            &[2.0, 4.0],
        ),
        pointer(
            &format!("{texture}/offset"),
            "LINEAR",
            &[0.0, 2.0],
            &[0.25, 0.0, 0.75, 1.0],
        ),
        pointer(&format!("{texture}/scale"), "STEP", &[0.0, 1.0], &[2.0, 2.0, 1.0, 3.0]),
        pointer(&format!("{texture}/rotation"), "LINEAR", &[0.0, 2.0], &[0.0, 1.0]),
        pointer("/cameras/0/perspective/yfov", "LINEAR", &[0.0, 2.0], &[0.8, 1.2]),
        pointer("/cameras/0/perspective/zfar", "STEP", &[0.0, 1.0], &[100.0, 50.0]),
        pointer(
            &format!("{light}/color"),
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 1.0, 1.0, 0.0, 0.0, 1.0],
        ),
        pointer(&format!("{light}/intensity"), "CUBICSPLINE", &[0.0, 2.0], &cubic),
        pointer(
            &format!("{light}/spot/outerConeAngle"),
            "LINEAR",
            &[0.0, 2.0],
            &[0.6, 1.0],
        ),
        pointer(VISIBLE, "STEP", &[0.0, 1.5], &[1.0, 0.0]),
    ];
    let model = load("pointer-kinds", &[channels]);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let rest = model.skeleton.rest_pose();
    assert!(
        close(&value(&model, rest, BASE_COLOR), &[1.0, 1.0, 1.0, 1.0]),
        "rest is the file's"
    );

    let pose = pose_at(&model, 0, 1.0);
    assert!(close(&value(&model, &pose, BASE_COLOR), &[0.5, 0.0, 0.5, 1.0]));
    let metallic = |time| {
        value(
            &model,
            &pose_at(&model, 0, time),
            "/materials/0/pbrMetallicRoughness/metallicFactor",
        )
    };
    assert!(close(&metallic(0.99), &[0.1]) && close(&metallic(1.0), &[0.5]) && close(&metallic(1.5), &[0.5]));
    let roughness = value(&model, &pose, "/materials/0/pbrMetallicRoughness/roughnessFactor");
    assert!(close(&roughness, &[0.75]), "{roughness:?}");

    let mut material = model.materials[0].clone();
    model.properties.apply_to_material(0, pose.properties(), &mut material);
    assert_eq!(material.base_color, Vec4::new(0.5, 0.0, 0.5, 1.0));
    assert_eq!(material.metallic, 0.5);
    assert!((material.emissive - Vec3::new(0.5, 0.25, 0.0)).length() < 1e-6);
    assert_eq!(material.emissive_strength, 3.0);
    assert_eq!(material.alpha, AlphaMode::Mask { cutoff: 0.8 });
    let transform = material.base_color_texture.unwrap().transform;
    assert!((transform.offset - Vec2::new(0.5, 0.5)).length() < 1e-6);
    assert_eq!(transform.scale, Vec2::new(1.0, 3.0));
    assert!((transform.rotation - 0.5).abs() < 1e-6);

    let mut projection = model.cameras[0].projection;
    model
        .properties
        .apply_to_projection(0, pose.properties(), &mut projection);
    let Projection::Perspective { yfov, zfar, .. } = projection else {
        panic!("{projection:?}")
    };
    assert!((yfov - 1.0).abs() < 1e-6);
    assert_eq!(zfar, Some(50.0));

    let mut spot = model.lights[0].clone();
    model.properties.apply_to_light(0, pose.properties(), &mut spot);
    assert!((spot.color - Vec3::new(0.5, 0.5, 1.0)).length() < 1e-6);
    assert!((spot.intensity - 0.75).abs() < 1e-5);
    assert!(matches!(spot.kind, asset::LightKind::Spot { outer, .. } if (outer - 0.8).abs() < 1e-6));

    let visible = |time| {
        let mut visible = vec![true; model.skeleton.len()];
        let pose = pose_at(&model, 0, time);
        (model.properties).visible_joints(model.skeleton.hierarchy(), pose.properties(), &mut visible);
        let mesh_joint = model.instances[0].joint;
        visible[mesh_joint]
    };
    assert!(visible(1.49), "node 1 and its child mesh are shown until 1.5 s");
    assert!(!visible(1.5), "hiding node 1 hides its child");
}

#[test]
fn the_curve_view_plots_properties_under_the_node_that_shows_them() {
    let model = load(
        "pointer-curves",
        &[vec![pointer(
            BASE_COLOR,
            "STEP",
            &[0.0, 1.0],
            &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
        )]],
    );
    let mesh_joint = model.instances[0].joint;
    let set =
        CurveSet::new(&model.clips[0], model.skeleton.rest_pose(), mesh_joint).with_property_names(&model.properties);
    assert!(set.has_group(CurveGroup::Properties));
    let blue = set
        .curve(&format!("{BASE_COLOR}[2]"))
        .expect("the blue component's curve");
    assert_eq!(blue.interpolation, "STEP");
    assert_eq!(
        blue.keys.iter().map(|k| (k.time, k.value)).collect::<Vec<_>>(),
        [(0.0, 0.0), (1.0, 1.0)]
    );
    let before_step = set.times.iter().position(|&t| t > 0.5 && t < 1.0).unwrap();
    assert_eq!(blue.values[before_step], 0.0, "STEP holds until the next key");
}

#[test]
fn the_curve_panel_plots_them_by_pointer() {
    use egui_kittest::kittest::Queryable;
    let model = load(
        "pointer-panel",
        &[vec![pointer(
            "/materials/0/alphaCutoff",
            "LINEAR",
            &[0.0, 1.0],
            &[0.2, 0.9],
        )]],
    );
    let mut state = rigscope::ui::ViewerState::new(model);
    state.frame.player.playing = false;
    state.curves.shown = true;
    state.inspection.selected = Some(state.document.model.instances[0].joint);
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .build_ui_state(
            |ui, state: &mut rigscope::ui::ViewerState| {
                rigscope::ui::panel::show(ui, state, &Default::default());
            },
            state,
        );
    harness.run();
    harness.get_by_label(&format!("{} curves", CurveGroup::Properties.label()));
    let legend = |shape: &egui::epaint::ClippedShape| matches!(&shape.shape, egui::Shape::Text(text) if text.galley.text() == "/materials/0/alphaCutoff");
    assert!(
        harness.output().shapes.iter().any(legend),
        "the legend names the pointer"
    );
}

#[test]
fn material_extension_factors_and_texture_strengths_play() {
    // KHR_materials_* factors (a scalar and a colour of each kind), the normal texture's scale
    // and the occlusion texture's strength, each halfway between its two keys at 1 s.
    let material = "/materials/0";
    let extension = |name: &str, property: &str| format!("{material}/extensions/KHR_materials_{name}/{property}");
    let channels = vec![
        pointer(
            &extension("transmission", "transmissionFactor"),
            "LINEAR",
            &[0.0, 2.0],
            &[0.0, 1.0],
        ),
        pointer(
            &extension("volume", "thicknessFactor"),
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 3.0],
        ),
        pointer(
            &extension("volume", "attenuationColor"),
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 1.0, 1.0, 0.0, 0.5, 1.0],
        ),
        pointer(&extension("ior", "ior"), "LINEAR", &[0.0, 2.0], &[1.5, 2.5]),
        pointer(
            &extension("iridescence", "iridescenceThicknessMaximum"),
            "LINEAR",
            &[0.0, 2.0],
            &[100.0, 500.0],
        ),
        pointer(
            &extension("sheen", "sheenColorFactor"),
            "LINEAR",
            &[0.0, 2.0],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 1.0],
        ),
        pointer(
            &format!("{material}/normalTexture/scale"),
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 0.0],
        ),
        pointer(
            &format!("{material}/occlusionTexture/strength"),
            "LINEAR",
            &[0.0, 2.0],
            &[0.0, 1.0],
        ),
    ];
    let model = load("pointer-layers", &[channels]);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let mut material = model.materials[0].clone();
    let pose = pose_at(&model, 0, 1.0);
    model.properties.apply_to_material(0, pose.properties(), &mut material);
    let layers = &material.layers;
    assert_eq!((layers.transmission, layers.thickness, layers.ior), (0.5, 2.0, 2.0));
    assert_eq!(layers.attenuation_color, Vec3::new(0.5, 0.75, 1.0));
    assert_eq!(layers.iridescence_thickness, 300.0);
    assert_eq!(layers.sheen_color, Vec3::new(0.5, 0.0, 0.5));
    assert_eq!((material.normal_scale, material.occlusion_strength), (0.5, 0.5));
    assert!(
        layers.transmits() && layers.has_layers(),
        "the pipelines follow the clip"
    );
}

#[test]
fn booleans_step_whatever_the_sampler_says() {
    let model = load(
        "pointer-boolean",
        &[vec![pointer(VISIBLE, "LINEAR", &[0.0, 1.0], &[1.0, 0.0])]],
    );
    assert!(
        model.warnings.iter().any(|w| w.contains("is a boolean, so it steps")),
        "{:?}",
        model.warnings
    );
    assert_eq!(value(&model, &pose_at(&model, 0, 0.9), VISIBLE), [1.0]);
    assert_eq!(value(&model, &pose_at(&model, 0, 1.0), VISIBLE), [0.0]);
}

#[test]
fn pointers_rigscope_cannot_play_are_warnings_naming_the_channel() {
    let vec3 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let model = load(
        "pointer-bad",
        &[vec![
            pointer("/materials/7/alphaCutoff", "LINEAR", &[0.0, 1.0], &[0.1, 0.2]),
            pointer(
                "/materials/0/pbrMetallicRoughness/sheen",
                "LINEAR",
                &[0.0, 1.0],
                &[0.1, 0.2],
            ),
            pointer(BASE_COLOR, "LINEAR", &[0.0, 1.0], &vec3),
            pointer("/cameras/0/orthographic/xmag", "LINEAR", &[0.0, 1.0], &[1.0, 2.0]),
            pointer(
                "/nodes/x/extensions/KHR_node_visibility/visible",
                "STEP",
                &[0.0, 1.0],
                &[1.0, 0.0],
            ),
            pointer(
                "/materials/0/emissiveTexture/extensions/KHR_texture_transform/offset",
                "LINEAR",
                &[0.0, 1.0],
                &[0.0; 4],
            ),
            pointer("/materials/0/emissiveFactor", "LINEAR", &[0.0, 1.0], &vec3),
        ]],
    );
    let expected = [
        "/animations/0/channels/0: it animates /materials/7/alphaCutoff (KHR_animation_pointer), but material 7 does not exist (not played)",
        "/animations/0/channels/1: it animates /materials/0/pbrMetallicRoughness/sheen (KHR_animation_pointer), which rigscope does not play (not played)",
        "/animations/0/channels/2: /materials/0/pbrMetallicRoughness/baseColorFactor takes 4 numbers per key",
        "/animations/0/channels/3: it animates /cameras/0/orthographic/xmag (KHR_animation_pointer), but camera 0 is not orthographic (not played)",
        "/animations/0/channels/4: it animates /nodes/x/extensions/KHR_node_visibility/visible (KHR_animation_pointer), but \"x\" is not a node index (not played)",
        "/animations/0/channels/5: it animates /materials/0/emissiveTexture/extensions/KHR_texture_transform/offset (KHR_animation_pointer), but material 0 has no such texture (not played)",
    ];
    for warning in expected {
        assert!(
            model.warnings.iter().any(|w| w.starts_with(warning)),
            "missing {warning:?} in {:#?}",
            model.warnings
        );
    }
    let channels = model.clips[0].channels();
    assert_eq!(channels.len(), 1, "only the emissive factor plays");
    assert!(close(
        &value(&model, &pose_at(&model, 0, 1.0), "/materials/0/emissiveFactor"),
        &[0.0, 0.0, 1.0]
    ));
}

#[test]
fn pose_json_and_inspect_report_the_animated_properties() {
    let path = write(
        "pointer-commands",
        &[vec![
            pointer(
                BASE_COLOR,
                "LINEAR",
                &[0.0, 2.0],
                &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
            ),
            pointer(VISIBLE, "STEP", &[0.0, 1.0], &[1.0, 0.0]),
        ]],
    );
    let file = path.display().to_string();
    let visible_at =
        |time: &str| common::json(&["pose", &file, "--clip", "0", "--time", time])["primitives"][0]["visible"].clone();
    assert_eq!(visible_at("0.5"), true);
    assert_eq!(visible_at("1"), false, "node 1 hides the quad on its child node");
    let posed = common::json(&["pose", &file, "--clip", "0", "--time", "0.5"]);
    let properties = posed["properties"].as_array().unwrap();
    assert_eq!(properties.len(), 2);
    assert_eq!(properties[0]["pointer"], BASE_COLOR);
    let color: Vec<f64> = (properties[0]["value"].as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(color, [0.75, 0.0, 0.25, 1.0]);
    let text = common::succeed(&["inspect", &file]);
    assert!(
        text.contains(&format!("    animates {BASE_COLOR}\n    animates {VISIBLE}\n")),
        "{text}"
    );
}

/// The validator's models of the two extensions that it finds no errors in.
pub(super) fn extension_models(extension: &str) -> Vec<PathBuf> {
    let root = common::validator_dir().join("ext").join(extension);
    let mut found = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if let Some(model) = path.to_str().and_then(|p| p.strip_suffix(".report.json")) {
                let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                if report["issues"]["numErrors"] == 0 {
                    found.push(PathBuf::from(model));
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_validators_pointer_and_visibility_models_load_and_play() {
    let pointer_models = extension_models("KHR_animation_pointer");
    let visibility_models = extension_models("KHR_node_visibility");
    assert!(pointer_models.len() >= 3 && visibility_models.len() >= 2);
    for path in pointer_models.iter().chain(&visibility_models) {
        let model = asset::load(path).unwrap_or_else(|e| panic!("{e}"));
        for (index, clip) in model.clips.iter().enumerate() {
            for time in [0.0, clip.duration() * 0.5, clip.duration()] {
                let pose = pose_at(&model, index, time);
                assert!(pose.properties().iter().all(|v| v.is_finite()), "{}", path.display());
            }
        }
    }
    let valid = asset::load(
        &common::validator_dir().join("ext/KHR_animation_pointer/data/animation/channel/target/valid.gltf"),
    )
    .unwrap();
    let pointers: Vec<&str> = valid.properties.slots().iter().map(|s| s.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [BASE_COLOR, "/materials/0/pbrMetallicRoughness/roughnessFactor"]
    );
    assert_eq!(valid.clips[0].channels().len(), 2, "{:?}", valid.warnings);

    let hidden = asset::load(&common::validator_dir().join("ext/KHR_node_visibility/data/node/valid.gltf")).unwrap();
    let mut visible = vec![true; hidden.skeleton.len()];
    (hidden.properties).visible_joints(hidden.skeleton.hierarchy(), &[], &mut visible);
    let by_node: Vec<bool> = (0..3)
        .map(|node| visible[hidden.file_node.iter().position(|&n| n == node).unwrap()])
        .collect();
    assert_eq!(by_node, [false, true, true]);
}
