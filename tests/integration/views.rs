//! Where `rigscope render` looks from: named views (front is the model's +Z face, as glTF
//! defines forward), any azimuth and elevation, the file's own cameras, and framing on what
//! is drawn. Each test writes the small glTF it needs.

use crate::common;

use std::path::{Path, PathBuf};

use common::{data_uri, f32_bytes, rigscope, succeed, temp_dir};
use glam::camera::rh::{proj::opengl::perspective, view::look_at_mat4};
use glam::{Vec3, Vec4Swizzles};
use serde_json::{Value, json};

/// A flat square, coloured by its material (base colour and emission alike, so it reads as
/// its colour under any light).
struct Quad {
    center: Vec3,
    /// Half the side along the quad's right and up directions; right × up faces the viewer.
    right: Vec3,
    up: Vec3,
    color: [f32; 3],
}

/// A glTF scene of `quads`, one node each, as JSON to add to before writing.
fn scene(quads: &[Quad]) -> Value {
    let mut bytes = Vec::new();
    let (mut views, mut accessors, mut meshes, mut materials, mut nodes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (index, quad) in quads.iter().enumerate() {
        let Quad {
            center,
            right,
            up,
            color,
        } = *quad;
        let corners = [
            center - right - up,
            center + right - up,
            center + right + up,
            center - right + up,
        ];
        let positions: Vec<Vec3> = [0, 1, 2, 0, 2, 3].iter().map(|&i| corners[i]).collect();
        let normal = right.cross(up).normalize();
        let (min, max) = positions
            .iter()
            .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        for values in [
            positions.iter().flat_map(|p| p.to_array()).collect::<Vec<f32>>(),
            [normal; 6].iter().flat_map(|n| n.to_array()).collect(),
        ] {
            views.push(json!({"buffer": 0, "byteOffset": bytes.len(), "byteLength": values.len() * 4}));
            bytes.extend(f32_bytes(&values));
        }
        accessors.push(
            json!({"bufferView": 2 * index, "componentType": 5126, "count": 6, "type": "VEC3",
            "min": min.to_array(), "max": max.to_array()}),
        );
        accessors.push(json!({"bufferView": 2 * index + 1, "componentType": 5126, "count": 6, "type": "VEC3"}));
        meshes.push(
            json!({"primitives": [{"attributes": {"POSITION": 2 * index, "NORMAL": 2 * index + 1},
            "material": index}]}),
        );
        let [r, g, b] = color;
        materials.push(json!({"pbrMetallicRoughness": {"baseColorFactor": [r, g, b, 1.0],
            "metallicFactor": 0.0, "roughnessFactor": 1.0}, "emissiveFactor": color}));
        nodes.push(json!({"mesh": index}));
    }
    json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bytes.len(), "uri": data_uri(&bytes)}],
        "bufferViews": views,
        "accessors": accessors,
        "meshes": meshes,
        "materials": materials,
        "nodes": nodes,
        "scenes": [{"nodes": (0..quads.len()).collect::<Vec<_>>()}],
        "scene": 0,
    })
}

/// Adds `node` to the scene's roots.
fn add_root(gltf: &mut Value, node: Value) {
    let nodes = gltf["nodes"].as_array_mut().unwrap();
    nodes.push(node);
    let index = nodes.len() - 1;
    gltf["scenes"][0]["nodes"].as_array_mut().unwrap().push(json!(index));
}

fn write(dir: &Path, name: &str, gltf: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(gltf).unwrap()).unwrap();
    path
}

/// Renders `file` at 200x150 without the ground, with `args`.
fn render(file: &Path, out: &Path, args: &[&str]) -> image::RgbaImage {
    common::render_png(file, out, &[&["--no-grid", "--size", "200x150"], args].concat())
}

/// Which of red, green and blue clearly dominates a pixel, if one does.
fn hue(pixel: &image::Rgba<u8>) -> Option<usize> {
    let [r, g, b, _] = pixel.0.map(f32::from);
    let channels = [r, g, b];
    let (strongest, value) = channels
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, v)| (i, *v))?;
    let others = channels.iter().enumerate().filter(|&(i, _)| i != strongest);
    (value > 50.0 && others.clone().all(|(_, v)| value > 1.6 * v)).then_some(strongest)
}

const RED: usize = 0;
const GREEN: usize = 1;
const BLUE: usize = 2;

/// Fraction of pixels of each dominant hue.
fn hue_fractions(image: &image::RgbaImage) -> [f64; 3] {
    let mut counts = [0usize; 3];
    for pixel in image.pixels() {
        if let Some(hue) = hue(pixel) {
            counts[hue] += 1;
        }
    }
    counts.map(|c| c as f64 / (image.width() * image.height()) as f64)
}

/// The hue of most pixels in the 9x9 square at the centre.
fn centre_hue(image: &image::RgbaImage) -> Option<usize> {
    let (cx, cy) = (image.width() / 2, image.height() / 2);
    let mut counts = [0usize; 3];
    for y in cy - 4..=cy + 4 {
        for x in cx - 4..=cx + 4 {
            if let Some(hue) = hue(image.get_pixel(x, y)) {
                counts[hue] += 1;
            }
        }
    }
    (0..3).find(|&h| counts[h] > 60)
}

/// An open box: red face on +Z (the front), blue on −Z (the back), green on +X (the right).
fn open_box(dir: &Path) -> PathBuf {
    let half = 0.5;
    let quads = [
        Quad {
            center: Vec3::new(0.0, 0.5, half),
            right: Vec3::X * half,
            up: Vec3::Y * half,
            color: [1.0, 0.0, 0.0],
        },
        Quad {
            center: Vec3::new(0.0, 0.5, -half),
            right: Vec3::NEG_X * half,
            up: Vec3::Y * half,
            color: [0.0, 0.0, 1.0],
        },
        Quad {
            center: Vec3::new(half, 0.5, 0.0),
            right: Vec3::NEG_Z * half,
            up: Vec3::Y * half,
            color: [0.0, 1.0, 0.0],
        },
    ];
    write(dir, "box.gltf", &scene(&quads))
}

#[test]
fn named_views_look_at_the_faces_gltf_puts_there() {
    let dir = temp_dir("views");
    let file = open_box(&dir);
    let view = |name: &str| render(&file, &dir.join(format!("{name}.png")), &["--view", name]);
    let front = view("front");
    assert_eq!(centre_hue(&front), Some(RED), "front shows the +Z face");
    assert!(
        hue_fractions(&front)[GREEN] < 0.002,
        "the +X face is edge-on from the front"
    );
    assert_eq!(centre_hue(&view("back")), Some(BLUE), "back shows the −Z face");
    assert_eq!(centre_hue(&view("right")), Some(GREEN), "right is seen from +X");
}

#[test]
fn the_default_view_is_the_three_quarter_front_and_angles_turn_it() {
    let dir = temp_dir("default-view");
    let file = open_box(&dir);
    let default = render(&file, &dir.join("default.png"), &[]);
    let [red, green, blue] = hue_fractions(&default);
    // The back face shows only inside the open box, over the front's top edge.
    assert!(
        red > green && green > 0.01 && blue < red / 5.0,
        "front and a little of the right side: {red} {green} {blue}"
    );
    assert_eq!(
        default,
        render(&file, &dir.join("three-quarter.png"), &["--view", "three-quarter"])
    );
    // Further round to the right, the +X face shows more than the front.
    let turned = render(
        &file,
        &dir.join("turned.png"),
        &["--azimuth", "65", "--elevation", "10"],
    );
    let [red, green, _] = hue_fractions(&turned);
    assert!(green > red, "{red} {green}");
    // Only the elevation changed: a different picture.
    let high = render(&file, &dir.join("high.png"), &["--elevation", "60"]);
    assert_ne!(high, default);
    let output = rigscope(&["render", file.to_str().unwrap(), "-o", "x.png", "--azimuth", "NaN"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a finite number of degrees"));
}

/// The rotation that turns a glTF camera (looking down −Z, +Y up) at `eye` towards `target`.
fn looking_at(eye: Vec3, target: Vec3) -> glam::Quat {
    look_at_mat4(eye, target, Vec3::Y)
        .inverse()
        .to_scale_rotation_translation()
        .1
}

#[test]
fn render_looks_through_the_files_camera() {
    let dir = temp_dir("file-camera");
    let (eye, target, marker) = (
        Vec3::new(3.0, 2.0, 4.0),
        Vec3::new(0.0, 0.5, 0.0),
        Vec3::new(0.3, 0.6, -0.2),
    );
    // A small green square at `marker`, facing the camera.
    let view = look_at_mat4(eye, target, Vec3::Y);
    let (right, up) = (view.row(0).xyz() * 0.03, view.row(1).xyz() * 0.03);
    let mut gltf = scene(&[Quad {
        center: marker,
        right,
        up,
        color: [0.0, 1.0, 0.0],
    }]);
    let yfov = 0.6f32;
    gltf["cameras"] = json!([{"name": "witness", "type": "perspective",
        "perspective": {"yfov": yfov, "znear": 0.1, "zfar": 100.0}}]);
    // The camera hangs under a moved parent: its place in the world is the product.
    let parent = Vec3::new(1.0, 0.0, 0.0);
    let rotation = looking_at(eye, target);
    gltf["nodes"].as_array_mut().unwrap().push(json!({
        "camera": 0, "translation": (eye - parent).to_array(), "rotation": rotation.to_array()}));
    add_root(&mut gltf, json!({"translation": parent.to_array(), "children": [1]}));
    let file = write(&dir, "camera.gltf", &gltf);

    let image = render(&file, &dir.join("camera.png"), &["--camera", "0"]);
    let (width, height) = (image.width() as f32, image.height() as f32);
    let clip = perspective(yfov, width / height, 0.1, 100.0) * view * marker.extend(1.0);
    let ndc = clip.xy() / clip.w;
    let expected = glam::Vec2::new((ndc.x + 1.0) * 0.5 * width, (1.0 - ndc.y) * 0.5 * height);
    let green: Vec<glam::Vec2> = image
        .enumerate_pixels()
        .filter(|(_, _, p)| hue(p) == Some(GREEN))
        .map(|(x, y, _)| glam::Vec2::new(x as f32 + 0.5, y as f32 + 0.5))
        .collect();
    assert!(green.len() > 4, "the marker is in the picture");
    let found = green.iter().sum::<glam::Vec2>() / green.len() as f32;
    assert!(
        found.distance(expected) < 2.0,
        "marker at {found}, the camera puts it at {expected}"
    );

    let by_name = render(&file, &dir.join("by-name.png"), &["--camera", "witness"]);
    assert_eq!(by_name, image);
    let output = rigscope(&[
        "render",
        file.to_str().unwrap(),
        "-o",
        dir.join("none.png").to_str().unwrap(),
        "--camera",
        "nobody",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no camera 'nobody' (the file's cameras: 0 'witness')"),
        "{stderr}"
    );
    let text = succeed(&["inspect", file.to_str().unwrap()]);
    assert!(text.contains("camera 0 'witness': perspective, yfov 34.4°"), "{text}");
}

/// The x pixel of the centre of the green pixels.
fn green_centre_x(image: &image::RgbaImage) -> f32 {
    let xs: Vec<f32> = image
        .enumerate_pixels()
        .filter(|(_, _, p)| hue(p) == Some(GREEN))
        .map(|(x, _, _)| x as f32 + 0.5)
        .collect();
    assert!(!xs.is_empty(), "the marker is in the picture");
    xs.iter().sum::<f32>() / xs.len() as f32
}

#[test]
fn a_file_camera_follows_its_animation() {
    let dir = temp_dir("animated-camera");
    let mut gltf = scene(&[Quad {
        center: Vec3::ZERO,
        right: Vec3::X * 0.05,
        up: Vec3::Y * 0.05,
        color: [0.0, 1.0, 0.0],
    }]);
    // The camera looks down −Z at the marker from z = 5 and slides to x = 0.5 over a second.
    let keys = [&f32_bytes(&[0.0, 1.0])[..], &f32_bytes(&[0.0, 0.0, 5.0, 0.5, 0.0, 5.0])].concat();
    gltf["buffers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"byteLength": keys.len(), "uri": data_uri(&keys)}));
    gltf["bufferViews"].as_array_mut().unwrap().extend([
        json!({"buffer": 1, "byteLength": 8}),
        json!({"buffer": 1, "byteOffset": 8, "byteLength": 24}),
    ]);
    gltf["accessors"].as_array_mut().unwrap().extend([
        json!({"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]}),
        json!({"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"}),
    ]);
    gltf["cameras"] = json!([{"type": "perspective", "perspective": {"yfov": 0.5, "znear": 0.1}}]);
    add_root(&mut gltf, json!({"camera": 0, "translation": [0.0, 0.0, 5.0]}));
    gltf["animations"] = json!([{"samplers": [{"input": 2, "output": 3}],
        "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}]}]);
    let file = write(&dir, "animated-camera.gltf", &gltf);
    let at = |time: &str| {
        let image = render(
            &file,
            &dir.join(format!("{time}.png")),
            &["--camera", "0", "--time", time],
        );
        green_centre_x(&image)
    };
    let (start, end) = (at("0"), at("1"));
    // 0.5 to the side at distance 5, in a 0.5 rad tall field 150 pixels high.
    let expected = 0.5 / 5.0 / 0.25f32.tan() * 75.0;
    assert!(
        (start - 100.0).abs() < 2.0 && ((start - end) - expected).abs() < 2.0,
        "the marker moves left as the camera slides right: {start} → {end}, by {expected}"
    );
}

#[test]
fn framing_ignores_a_far_away_camera_node() {
    let dir = temp_dir("framing");
    let mut gltf = scene(&[Quad {
        center: Vec3::new(0.0, 0.5, 0.0),
        right: Vec3::X * 0.5,
        up: Vec3::Y * 0.5,
        color: [1.0, 0.0, 0.0],
    }]);
    gltf["cameras"] = json!([{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}]);
    add_root(&mut gltf, json!({"camera": 0, "translation": [0.0, 0.0, 1000.0]}));
    let file = write(&dir, "far-camera.gltf", &gltf);
    let image = render(&file, &dir.join("framed.png"), &["--view", "front"]);
    let [red, _, _] = hue_fractions(&image);
    assert!(red > 0.10, "the quad fills the picture, not a speck: {red}");
}

#[test]
fn inspect_lists_attributes_extensions_and_warns_about_unsupported_ones() {
    let dir = temp_dir("inspect-extensions");
    let mut gltf = scene(&[Quad {
        center: Vec3::ZERO,
        right: Vec3::X,
        up: Vec3::Y,
        color: [1.0, 1.0, 1.0],
    }]);
    // COLOR_0 and TEXCOORD_0 reuse the normals' accessor (any VEC3 will do for COLOR_0) and a
    // new VEC2 one.
    let bytes = f32_bytes(&[0.0; 12]);
    gltf["buffers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"byteLength": bytes.len(), "uri": data_uri(&bytes)}));
    gltf["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 1, "byteLength": bytes.len()}));
    gltf["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 2, "componentType": 5126, "count": 6, "type": "VEC2"}));
    let attributes = &mut gltf["meshes"][0]["primitives"][0]["attributes"];
    attributes["COLOR_0"] = json!(1);
    attributes["TEXCOORD_0"] = json!(2);
    attributes["_TEMPERATURE"] = json!(1);
    gltf["extensionsUsed"] = json!(["EXT_made_up", "KHR_texture_transform"]);
    let file = write(&dir, "extensions.gltf", &gltf);
    let file = file.to_str().unwrap();

    let text = succeed(&["inspect", file]);
    for expected in [
        "attributes: POSITION (VEC3 float), NORMAL (VEC3 float), TEXCOORD_0 (VEC2 float), COLOR_0 (VEC3 float), _TEMPERATURE (VEC3 float)",
        "extension EXT_made_up: used, not supported (drawn without it)",
        "extension KHR_texture_transform: used, supported",
        "warning: the file uses extension EXT_made_up, which rigscope does not show",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    assert!(!text.contains("extension KHR_texture_transform, which"), "{text}");
    let report = common::json(&["inspect", file, "--json"]);
    assert_eq!(report["unsupported_extensions"], json!(["EXT_made_up"]));
    assert_eq!(
        report["extensions"],
        json!([
            {"name": "EXT_made_up", "required": false, "supported": false},
            {"name": "KHR_texture_transform", "required": false, "supported": true},
        ])
    );
    let attributes = &report["meshes"][0]["primitives"][0]["attributes"];
    assert_eq!(attributes[3], json!({"semantic": "COLOR_0", "layout": "VEC3 float"}));
    assert_eq!(attributes.as_array().unwrap().len(), 5);
}
