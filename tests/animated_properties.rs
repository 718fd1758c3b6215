//! KHR_animation_pointer beyond node transforms (materials, texture transforms, cameras,
//! lights) and KHR_node_visibility, on small files the tests write: sampled values of every
//! property kind (LINEAR, STEP, CUBICSPLINE), what the picture shows, warnings for pointers
//! rigscope cannot play, the commands' reports, and the validator's models of both extensions.

mod common;

use std::path::PathBuf;

use glam::{Vec2, Vec3, Vec4};
use rigscope::anim::Pose;
use rigscope::asset::model::AlphaMode;
use rigscope::asset::{self, Model, Projection};
use rigscope::cli::render::render_image;
use rigscope::inspect::curves::{CurveGroup, CurveSet};
use rigscope::render::{Gpu, SceneRenderer};
use rigscope::view::{Lighting, Lights, ViewOptions};

/// One animation channel a test file animates: a pointer, its sampler's interpolation, key
/// times and output values (`kind`: the output accessor's type).
struct Pointer {
    pointer: String,
    interpolation: &'static str,
    times: Vec<f32>,
    values: Vec<f32>,
    kind: &'static str,
}

fn pointer(pointer: &str, interpolation: &'static str, times: &[f32], values: &[f32]) -> Pointer {
    let components = values.len() / times.len() / if interpolation == "CUBICSPLINE" { 3 } else { 1 };
    let kind = ["SCALAR", "VEC2", "VEC3", "VEC4"][components - 1];
    Pointer {
        pointer: pointer.to_owned(),
        interpolation,
        times: times.to_vec(),
        values: values.to_vec(),
        kind,
    }
}

/// Binary data and accessors of a file a test writes.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Bin {
    fn accessor(&mut self, bytes: &[u8], component: u32, count: usize, kind: &str) -> usize {
        self.views.push(format!(
            r#"{{"buffer":0,"byteOffset":{},"byteLength":{}}}"#,
            self.bytes.len(),
            bytes.len()
        ));
        self.bytes.extend_from_slice(bytes);
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        self.accessors.push(format!(
            r#"{{"bufferView":{},"componentType":{component},"count":{count},"type":"{kind}"}}"#,
            self.views.len() - 1
        ));
        self.accessors.len() - 1
    }

    fn floats(&mut self, values: &[f32], per: usize, kind: &str) -> usize {
        self.accessor(&common::f32_bytes(values), 5126, values.len() / per, kind)
    }
}

/// A 2 × 2 quad facing +Z on node 0 (under node 1), drawn with material 0 (a white texture
/// with a texture transform, MASK, emissive strength), a camera on node 2, a spot light on
/// node 3, and one animation per list of `animations`.
fn scene_json(animations: &[Vec<Pointer>]) -> String {
    let mut bin = Bin::default();
    let positions = [-1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
    let position = bin.floats(&positions, 3, "VEC3");
    let normal = bin.floats(&[0.0, 0.0, 1.0].repeat(4), 3, "VEC3");
    let uv = bin.floats(&[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], 2, "VEC2");
    let index_bytes: Vec<u8> = [0u32, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
    let indices = bin.accessor(&index_bytes, 5125, 6, "SCALAR");
    let mut animation_json = Vec::new();
    for channels in animations {
        let (mut samplers, mut targets) = (Vec::new(), Vec::new());
        for (index, channel) in channels.iter().enumerate() {
            let input = bin.floats(&channel.times, 1, "SCALAR");
            let per = channel.values.len() / bin_count(channel);
            let output = bin.floats(&channel.values, per, channel.kind);
            samplers.push(format!(
                r#"{{"input":{input},"output":{output},"interpolation":"{}"}}"#,
                channel.interpolation
            ));
            targets.push(format!(
                r#"{{"sampler":{index},"target":{{"path":"pointer","extensions":{{"KHR_animation_pointer":{{"pointer":"{}"}}}}}}}}"#,
                channel.pointer
            ));
        }
        animation_json.push(format!(
            r#"{{"samplers":[{}],"channels":[{}]}}"#,
            samplers.join(","),
            targets.join(",")
        ));
    }
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "extensionsUsed":["KHR_animation_pointer","KHR_texture_transform","KHR_lights_punctual","KHR_materials_emissive_strength","KHR_node_visibility"],
        "buffers":[{{"byteLength":{},"uri":"{}"}}],"bufferViews":[{}],"accessors":[{}],
        "images":[{{"uri":"{}"}}],"textures":[{{"source":0}}],
        "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":1,
            "baseColorTexture":{{"index":0,"extensions":{{"KHR_texture_transform":{{"offset":[0.25,0],"scale":[2,2]}}}}}}}},
            "emissiveFactor":[0,0,0],"alphaMode":"MASK","alphaCutoff":0.4,
            "extensions":{{"KHR_materials_emissive_strength":{{"emissiveStrength":2}}}}}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":{position},"NORMAL":{normal},"TEXCOORD_0":{uv}}},"indices":{indices},"material":0}}]}}],
        "cameras":[{{"type":"perspective","perspective":{{"yfov":0.8,"znear":0.1,"zfar":100}}}}],
        "extensions":{{"KHR_lights_punctual":{{"lights":[{{"type":"spot","color":[1,1,1],"intensity":5,"range":10,"spot":{{"innerConeAngle":0.2,"outerConeAngle":0.6}}}}]}}}},
        "nodes":[{{"mesh":0}},{{"children":[0]}},{{"camera":0,"translation":[0,0,5]}},
            {{"translation":[0,0,3],"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}}],
        "scenes":[{{"nodes":[1,2,3]}}],
        "animations":[{}]}}"#,
        bin.bytes.len(),
        common::data_uri(&bin.bytes),
        bin.views.join(","),
        bin.accessors.join(","),
        white_png(),
        animation_json.join(",")
    )
}

/// How many elements a channel's output accessor has.
fn bin_count(channel: &Pointer) -> usize {
    channel.times.len() * if channel.interpolation == "CUBICSPLINE" { 3 } else { 1 }
}

fn white_png() -> String {
    use base64::Engine;
    let image = image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 255, 255, 255]));
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

fn write(name: &str, animations: &[Vec<Pointer>]) -> PathBuf {
    let path = common::temp_dir(name).join(format!("{name}.gltf"));
    std::fs::write(&path, scene_json(animations)).unwrap();
    path
}

fn load(name: &str, animations: &[Vec<Pointer>]) -> Model {
    asset::load(&write(name, animations)).unwrap_or_else(|e| panic!("{e}"))
}

/// The pose of clip `clip` at `time`, from the rest pose.
fn pose_at(model: &Model, clip: usize, time: f32) -> Pose {
    let mut pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[clip];
    clip.sample(time, &mut pose, &mut clip.cursor());
    pose
}

/// The pose's value of the property `pointer` animates.
fn value(model: &Model, pose: &Pose, pointer: &str) -> Vec<f32> {
    let slot = (model.properties.slots().iter().find(|s| s.pointer == pointer))
        .unwrap_or_else(|| panic!("no slot for {pointer}"));
    pose.properties()[slot.offset..slot.offset + slot.width].to_vec()
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

const BASE_COLOR: &str = "/materials/0/pbrMetallicRoughness/baseColorFactor";
const VISIBLE: &str = "/nodes/1/extensions/KHR_node_visibility/visible";

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

struct Pictures {
    gpu: Gpu,
    scene: SceneRenderer,
}

impl Pictures {
    fn new() -> Self {
        let gpu = Gpu::headless().unwrap();
        let scene = SceneRenderer::new(&gpu);
        Self { gpu, scene }
    }

    fn render(&mut self, model: &Model, clip: usize, time: f32) -> image::RgbaImage {
        let view = ViewOptions {
            grid: false,
            ..ViewOptions::default()
        };
        self.render_with(model, clip, time, &view)
    }

    fn render_with(&mut self, model: &Model, clip: usize, time: f32, view: &ViewOptions) -> image::RgbaImage {
        let pose = pose_at(model, clip, time);
        render_image(&self.gpu, &mut self.scene, model, &pose, Some(clip), (96, 96), view).unwrap()
    }
}

/// How many pixels differ from the corner pixel (the background) by more than a few levels.
fn covered(image: &image::RgbaImage) -> usize {
    let background = image.get_pixel(0, 0).0;
    let differs = |p: &&image::Rgba<u8>| (0..3).any(|c| p.0[c].abs_diff(background[c]) > 12);
    image.pixels().filter(differs).count()
}

#[test]
fn the_picture_follows_the_animated_colour_and_visibility() {
    let model = load(
        "pointer-picture",
        &[
            vec![pointer(
                BASE_COLOR,
                "LINEAR",
                &[0.0, 1.0],
                &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
            )],
            vec![pointer(VISIBLE, "STEP", &[0.0, 1.0], &[1.0, 0.0])],
        ],
    );
    let mut pictures = Pictures::new();
    let centre = |image: &image::RgbaImage| image.get_pixel(48, 48).0;
    let [r0, _, b0, _] = centre(&pictures.render(&model, 0, 0.0));
    let [r1, _, b1, _] = centre(&pictures.render(&model, 0, 1.0));
    assert!(r0 > b0 + 40, "red at the start: {r0} vs blue {b0}");
    assert!(b1 > r1 + 40, "blue at the end: {b1} vs red {r1}");

    let shown = covered(&pictures.render(&model, 1, 0.0));
    let hidden = covered(&pictures.render(&model, 1, 1.0));
    assert!(shown > 500, "the quad covers the middle of the picture: {shown} pixels");
    assert!(hidden * 10 < shown, "hidden: {hidden} pixels, shown: {shown}");
}

#[test]
fn the_files_lights_shine_as_animated_and_not_from_hidden_nodes() {
    let light = "/extensions/KHR_lights_punctual/lights/0";
    let model = load(
        "pointer-light",
        &[
            vec![
                pointer(
                    &format!("{light}/color"),
                    "LINEAR",
                    &[0.0, 1.0],
                    &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
                ),
                pointer(&format!("{light}/intensity"), "STEP", &[0.0], &[60.0]),
            ],
            vec![pointer(
                "/nodes/3/extensions/KHR_node_visibility/visible",
                "STEP",
                &[0.0, 1.0],
                &[1.0, 0.0],
            )],
        ],
    );
    let view = ViewOptions {
        grid: false,
        lighting: Lighting {
            lights: Lights::File,
            environment_intensity: 0.0,
            ..Lighting::default()
        },
        ..ViewOptions::default()
    };
    let mut pictures = Pictures::new();
    let centre = |image: image::RgbaImage| image.get_pixel(48, 48).0.map(i32::from);
    let [r0, _, b0, _] = centre(pictures.render_with(&model, 0, 0.0, &view));
    let [r1, _, b1, _] = centre(pictures.render_with(&model, 0, 1.0, &view));
    assert!(
        b0 > r0 + 40 && r1 > b1 + 40,
        "blue light then red: {r0},{b0} then {r1},{b1}"
    );
    let lit = centre(pictures.render_with(&model, 1, 0.0, &view));
    let dark = centre(pictures.render_with(&model, 1, 1.0, &view));
    assert!(
        lit[0] > dark[0] + 40,
        "the light's node hidden, it shines no more: {lit:?} vs {dark:?}"
    );
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
        &[vec![pointer(
            BASE_COLOR,
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
        )]],
    );
    let file = path.display().to_string();
    let posed = common::json(&["pose", &file, "--clip", "0", "--time", "0.5"]);
    let properties = posed["properties"].as_array().unwrap();
    assert_eq!(properties.len(), 1);
    assert_eq!(properties[0]["pointer"], BASE_COLOR);
    let color: Vec<f64> = (properties[0]["value"].as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(color, [0.75, 0.0, 0.25, 1.0]);
    let text = common::succeed(&["inspect", &file]);
    assert!(text.contains(&format!("    animates {BASE_COLOR}")), "{text}");
}

/// The validator's models of the two extensions that it finds no errors in.
fn extension_models(extension: &str) -> Vec<PathBuf> {
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
