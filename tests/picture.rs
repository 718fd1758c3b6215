//! The picture on small glTF files the tests write themselves: vertex colours, culling,
//! tone mapping, image-based lighting, KHR_texture_transform, the file's lights, points and
//! lines, and the lighting options of the panel and the commands. Each test looks at pixels
//! (hues, coverage, brightness), not at golden images.

mod common;

use std::path::PathBuf;

use glam::{Vec2, Vec3};
use rigscope::anim::Pose;
use rigscope::asset::{self, Model};
use rigscope::cli::render::render_image;
use rigscope::render::{Environment, Gpu, SceneRenderer};
use rigscope::view::{Lighting, Lights, ToneMapping, ViewOptions};

const SIZE: (u32, u32) = (320, 240);

/// Binary data and accessors for a glTF file a test writes.
#[derive(Default)]
struct Buffers {
    bin: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Buffers {
    /// An accessor over `bytes` (`count` elements of `kind`, components of `component`).
    fn accessor(&mut self, bytes: &[u8], component: u32, count: usize, kind: &str, normalized: bool) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        self.views.push(format!(
            r#"{{"buffer":0,"byteOffset":{},"byteLength":{}}}"#,
            self.bin.len(),
            bytes.len()
        ));
        self.bin.extend_from_slice(bytes);
        self.accessors.push(format!(
            r#"{{"bufferView":{},"componentType":{component},"count":{count},"type":"{kind}","normalized":{normalized}}}"#,
            self.views.len() - 1
        ));
        self.accessors.len() - 1
    }

    fn floats(&mut self, values: &[f32], kind: &str) -> usize {
        let per = match kind {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            _ => 4,
        };
        self.accessor(&common::f32_bytes(values), 5126, values.len() / per, kind, false)
    }

    fn indices(&mut self, indices: &[u32]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        self.accessor(&bytes, 5125, indices.len(), "SCALAR", false)
    }

    /// A primitive's attributes JSON for `mesh`.
    fn mesh(&mut self, mesh: &MeshData) -> String {
        let flat = |v: &[Vec3]| v.iter().flat_map(|p| p.to_array()).collect::<Vec<f32>>();
        let position = self.floats(&flat(&mesh.positions), "VEC3");
        let normal = self.floats(&flat(&mesh.normals), "VEC3");
        let uvs: Vec<f32> = mesh.uvs.iter().flat_map(|p| p.to_array()).collect();
        let uv = self.floats(&uvs, "VEC2");
        let indices = self.indices(&mesh.indices);
        format!(r#""attributes":{{"POSITION":{position},"NORMAL":{normal},"TEXCOORD_0":{uv}}},"indices":{indices}"#)
    }

    /// The whole file: `rest` holds the JSON members after the buffers and accessors
    /// (meshes, nodes, materials, ...).
    fn gltf(&self, rest: &str) -> String {
        format!(
            r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":{},"uri":"{}"}}],"bufferViews":[{}],"accessors":[{}],{rest}}}"#,
            self.bin.len(),
            common::data_uri(&self.bin),
            self.views.join(","),
            self.accessors.join(",")
        )
    }
}

struct MeshData {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    indices: Vec<u32>,
}

/// A UV sphere of radius 1 at the origin, wound counter-clockwise seen from outside.
fn sphere() -> MeshData {
    let (stacks, slices) = (48u32, 96u32);
    let mut mesh = MeshData {
        positions: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        indices: Vec::new(),
    };
    for stack in 0..=stacks {
        let polar = stack as f32 / stacks as f32 * std::f32::consts::PI;
        for slice in 0..=slices {
            let azimuth = slice as f32 / slices as f32 * std::f32::consts::TAU;
            let normal = Vec3::new(polar.sin() * azimuth.cos(), polar.cos(), polar.sin() * azimuth.sin());
            mesh.positions.push(normal);
            mesh.normals.push(normal);
            mesh.uvs.push(Vec2::new(slice as f32 / slices as f32, stack as f32 / stacks as f32));
        }
    }
    let row = slices + 1;
    for stack in 0..stacks {
        for slice in 0..slices {
            let a = stack * row + slice;
            mesh.indices.extend([a, a + 1, a + row, a + 1, a + row + 1, a + row]);
        }
    }
    mesh
}

/// A 2 × 2 square in the XY plane facing +Z (counter-clockwise seen from +Z), u left to right,
/// v top to bottom.
fn quad() -> MeshData {
    MeshData {
        positions: vec![
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-1.0, 1.0, 0.0),
        ],
        normals: vec![Vec3::Z; 4],
        uvs: vec![
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 0.0),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// Writes `json` to a file in a folder of its own and loads it.
fn load(name: &str, json: &str) -> Model {
    let path = file(name, json);
    asset::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn file(name: &str, json: &str) -> PathBuf {
    let path = common::temp_dir(name).join(format!("{name}.gltf"));
    std::fs::write(&path, json).unwrap();
    path
}

/// One sphere with `material` (JSON).
fn sphere_model(name: &str, material: &str) -> Model {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&sphere());
    load(
        name,
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{material}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    )
}

struct Renderer {
    gpu: Gpu,
    scene: SceneRenderer,
}

impl Renderer {
    fn new() -> Self {
        let gpu = Gpu::headless().unwrap();
        let scene = SceneRenderer::new(&gpu);
        Self { gpu, scene }
    }

    fn render(&mut self, model: &Model, view: &ViewOptions) -> image::RgbaImage {
        let pose: Pose = model.skeleton.rest_pose().clone();
        render_image(&self.gpu, &mut self.scene, model, &pose, None, SIZE, view).unwrap()
    }
}

/// The view without ground, lit as `lighting` says.
fn plain(lighting: Lighting) -> ViewOptions {
    ViewOptions {
        grid: false,
        lighting,
        ..ViewOptions::default()
    }
}

fn luminance(pixel: &image::Rgba<u8>) -> f32 {
    let [r, g, b, _] = pixel.0.map(f32::from);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// Mean absolute difference of two images, in 8-bit levels.
fn mean_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f32 {
    let sum: f32 = a
        .pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|c| (p[c] as f32 - q[c] as f32).abs()).sum::<f32>() / 3.0)
        .sum();
    sum / (a.width() * a.height()) as f32
}

/// Fraction of pixels unlike the top-left corner's (the background).
fn coverage(image: &image::RgbaImage) -> f64 {
    let background = image.get_pixel(0, 0).0;
    let covered = image
        .pixels()
        .filter(|p| p.0.iter().zip(background.iter()).any(|(x, y)| x.abs_diff(*y) > 12))
        .count();
    covered as f64 / (image.width() * image.height()) as f64
}

/// Keeps `image` for a person to look at, in the temporary folder's `rigscope-picture`.
fn save(image: &image::RgbaImage, name: &str) {
    let dir = std::env::temp_dir().join("rigscope-picture");
    std::fs::create_dir_all(&dir).unwrap();
    image.save(dir.join(format!("{name}.png"))).unwrap();
}

#[test]
fn a_white_sphere_is_not_blown_out_and_shades_smoothly() {
    let mut renderer = Renderer::new();
    let model = sphere_model(
        "white-sphere",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":0.5}}"#,
    );
    let image = renderer.render(&model, &plain(Lighting::default()));
    save(&image, "white-sphere");
    let sphere_pixels: Vec<&image::Rgba<u8>> = image.pixels().filter(|p| luminance(p) > 40.0).collect();
    let clipped = sphere_pixels.iter().filter(|p| p.0[..3].iter().all(|&c| c >= 254)).count();
    assert!(sphere_pixels.len() > 5000, "the sphere is drawn");
    assert!(
        (clipped as f64) < 0.01 * sphere_pixels.len() as f64,
        "{clipped} of {} pixels clipped",
        sphere_pixels.len()
    );
    // A vertical line through the centre, from the lit top to the shaded bottom: luminance
    // falls all the way (no rise beyond noise), and the way from light to shade has no
    // plateau of equal values (the banding of clipped or posterised light).
    let x = SIZE.0 / 2;
    let column: Vec<f32> = (0..SIZE.1)
        .map(|y| luminance(image.get_pixel(x, y)))
        .skip_while(|&l| l < 40.0)
        .take_while(|&l| l >= 40.0)
        .collect();
    assert!(column.len() > 60, "the line crosses the sphere");
    let brightest = column.iter().cloned().fold(0.0, f32::max);
    let peak = column.iter().position(|&l| l == brightest).unwrap();
    let falling = &column[peak..column.len() - 2];
    let rises = falling.windows(2).filter(|w| w[1] > w[0] + 1.5).count();
    assert!(rises == 0, "luminance rises on the way into shade: {falling:?}");
    let darkest = falling.iter().cloned().fold(f32::MAX, f32::min);
    let (high, low) = (darkest + 0.9 * (brightest - darkest), darkest + 0.1 * (brightest - darkest));
    let transition: Vec<f32> = falling.iter().cloned().filter(|l| (low..=high).contains(l)).collect();
    let longest_flat_run = transition
        .windows(2)
        .fold((0, 0), |(longest, run), w| {
            let run = if (w[0] - w[1]).abs() < 0.5 { run + 1 } else { 0 };
            (longest.max(run), run)
        })
        .0;
    assert!(longest_flat_run < 4, "a band {longest_flat_run} pixels long: {transition:?}");
    assert!(brightest - darkest > 100.0, "light and shade differ: {brightest} to {darkest}");
}

#[test]
fn metals_reflect_the_environment_and_rough_dielectrics_barely_do() {
    let mut renderer = Renderer::new();
    let metal = sphere_model(
        "metal-sphere",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.95,0.93,0.88,1],"metallicFactor":1,"roughnessFactor":0.15}}"#,
    );
    let rough = sphere_model(
        "rough-sphere",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.8,0.8,0.8,1],"metallicFactor":0,"roughnessFactor":1}}"#,
    );
    let turned = |degrees: f32| {
        plain(Lighting {
            environment_rotation: degrees,
            ..Lighting::default()
        })
    };
    let change = |renderer: &mut Renderer, model: &Model, name: &str| {
        let a = renderer.render(model, &turned(0.0));
        let b = renderer.render(model, &turned(45.0));
        save(&a, name);
        mean_difference(&a, &b)
    };
    let metal_change = change(&mut renderer, &metal, "metal-sphere");
    let rough_change = change(&mut renderer, &rough, "rough-sphere");
    assert!(metal_change > 2.0, "the metal mirrors the turned environment ({metal_change})");
    assert!(
        rough_change * 2.5 < metal_change,
        "a rough dielectric changes far less ({rough_change} against {metal_change})"
    );
    // Without the environment the metal loses most of its light.
    let dark = renderer.render(
        &metal,
        &plain(Lighting {
            environment_intensity: 0.0,
            ..Lighting::default()
        }),
    );
    let lit = renderer.render(&metal, &turned(0.0));
    let mean = |image: &image::RgbaImage| image.pixels().map(luminance).sum::<f32>() / (SIZE.0 * SIZE.1) as f32;
    assert!(mean(&dark) + 5.0 < mean(&lit), "{} against {}", mean(&dark), mean(&lit));
}
