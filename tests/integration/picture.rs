//! The picture on small glTF files the tests write themselves: vertex colours, culling,
//! tone mapping, image-based lighting, KHR_texture_transform, the file's lights, points and
//! lines, and the lighting options of the panel and the commands. Each test looks at pixels
//! (hues, coverage, brightness), not at golden images.

use crate::common;

use std::path::PathBuf;

use glam::{Vec2, Vec3};
use rigscope::anim::Pose;
use rigscope::asset::demo::demo_model;
use rigscope::asset::{self, Model};
use rigscope::cli::render::render_image;
use rigscope::render::still::{StillRenderer, Viewpoint};
use rigscope::render::{Gpu, SceneRenderer};
use rigscope::view::{Lighting, Lights, MaterialChannel, Quality, ViewOptions, ViewPreset};

pub(crate) const SIZE: (u32, u32) = (320, 240);

/// Binary data and accessors for a glTF file a test writes.
#[derive(Default)]
pub(crate) struct Buffers {
    bin: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Buffers {
    /// An accessor over `bytes` (`count` elements of `kind`, components of `component`).
    fn accessor(&mut self, bytes: &[u8], component: u32, count: usize, kind: &str, normalized: bool) -> usize {
        while !self.bin.len().is_multiple_of(4) {
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

    pub(crate) fn floats(&mut self, values: &[f32], kind: &str) -> usize {
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
    pub(crate) fn mesh(&mut self, mesh: &MeshData) -> String {
        let flat = |v: &[Vec3]| v.iter().flat_map(|p| p.to_array()).collect::<Vec<f32>>();
        let position = self.floats(&flat(&mesh.positions), "VEC3");
        // A mesh without normals is written without NORMAL.
        let normal = match mesh.normals.is_empty() {
            true => String::new(),
            false => format!(r#""NORMAL":{},"#, self.floats(&flat(&mesh.normals), "VEC3")),
        };
        let uvs: Vec<f32> = mesh.uvs.iter().flat_map(|p| p.to_array()).collect();
        let uv = self.floats(&uvs, "VEC2");
        let indices = self.indices(&mesh.indices);
        format!(r#""attributes":{{"POSITION":{position},{normal}"TEXCOORD_0":{uv}}},"indices":{indices}"#)
    }

    /// The whole file: `rest` holds the JSON members after the buffers and accessors
    /// (meshes, nodes, materials, ...).
    pub(crate) fn gltf(&self, rest: &str) -> String {
        format!(
            r#"{{"asset":{{"version":"2.0"}},"buffers":[{{"byteLength":{},"uri":"{}"}}],"bufferViews":[{}],"accessors":[{}],{rest}}}"#,
            self.bin.len(),
            common::data_uri(&self.bin),
            self.views.join(","),
            self.accessors.join(",")
        )
    }
}

pub(crate) struct MeshData {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    indices: Vec<u32>,
}

/// A smooth UV sphere of radius 1 at the origin, wound counter-clockwise seen from outside.
pub(crate) fn sphere() -> MeshData {
    uv_sphere(48, 96)
}

/// `sphere()` turned inside out: its normals point in and its triangles are wound clockwise
/// seen from outside, so that a double-sided material draws its outside as back faces
/// (tools/fidelity/spheres.py writes the same sphere).
pub(crate) fn inside_out_sphere() -> MeshData {
    let mut mesh = sphere();
    for normal in &mut mesh.normals {
        *normal = -*normal;
    }
    for triangle in mesh.indices.chunks_exact_mut(3) {
        triangle.swap(1, 2);
    }
    mesh
}

/// A UV sphere of radius 1 at the origin, of `stacks` × `slices` quads.
fn uv_sphere(stacks: u32, slices: u32) -> MeshData {
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
            mesh.uvs
                .push(Vec2::new(slice as f32 / slices as f32, stack as f32 / stacks as f32));
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
pub(crate) fn quad() -> MeshData {
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

/// A cube from −1 to 1 with a flat normal per face (four vertices each), wound
/// counter-clockwise seen from outside (tools/fidelity/spheres.py writes the same cube).
pub(crate) fn cube() -> MeshData {
    let mut mesh = MeshData {
        positions: Vec::new(),
        normals: Vec::new(),
        uvs: Vec::new(),
        indices: Vec::new(),
    };
    // Each face's normal and the two directions across it, with across × up = normal.
    let faces = [
        (Vec3::X, Vec3::NEG_Z, Vec3::Y),
        (Vec3::NEG_X, Vec3::Z, Vec3::Y),
        (Vec3::Y, Vec3::X, Vec3::NEG_Z),
        (Vec3::NEG_Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::X, Vec3::Y),
        (Vec3::NEG_Z, Vec3::NEG_X, Vec3::Y),
    ];
    for (normal, across, up) in faces {
        let first = mesh.positions.len() as u32;
        for (u, v) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            mesh.positions.push(normal + across * u + up * v);
            mesh.normals.push(normal);
            mesh.uvs.push(Vec2::new((u + 1.0) / 2.0, (1.0 - v) / 2.0));
        }
        mesh.indices
            .extend([first, first + 1, first + 2, first, first + 2, first + 3]);
    }
    mesh
}

/// Writes `json` to a file in a folder of its own and loads it.
pub(crate) fn load(name: &str, json: &str) -> Model {
    let path = file(name, json);
    asset::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

pub(crate) fn file(name: &str, json: &str) -> PathBuf {
    let path = common::temp_dir(name).join(format!("{name}.gltf"));
    std::fs::write(&path, json).unwrap();
    path
}

/// One sphere with `material` (JSON).
pub(crate) fn sphere_model(name: &str, material: &str) -> Model {
    mesh_model(name, &sphere(), material)
}

/// One mesh with `material` (JSON).
fn mesh_model(name: &str, mesh: &MeshData, material: &str) -> Model {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(mesh);
    load(
        name,
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{material}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    )
}

pub(crate) struct Renderer {
    pub(crate) gpu: Gpu,
    pub(crate) scene: SceneRenderer,
}

impl Renderer {
    pub(crate) fn new() -> Self {
        let gpu = Gpu::headless().unwrap();
        let scene = SceneRenderer::new(&gpu);
        Self { gpu, scene }
    }

    pub(crate) fn render(&mut self, model: &Model, view: &ViewOptions) -> image::RgbaImage {
        let pose: Pose = model.skeleton.rest_pose().clone();
        render_image(&self.gpu, &mut self.scene, model, &pose, None, SIZE, view).unwrap()
    }
}

/// The view without ground, lit as `lighting` says.
pub(crate) fn plain(lighting: Lighting) -> ViewOptions {
    ViewOptions {
        grid: false,
        lighting,
        ..ViewOptions::default()
    }
}

fn luminance(pixel: &image::Rgba<u8>) -> f32 {
    let [r, g, b, _] = pixel.0.map(f32::from);
    rgb_luminance([r, g, b])
}

/// The luminance of a colour in 8-bit levels (Rec. 709 weights, as on the sRGB values).
fn rgb_luminance([r, g, b]: [f32; 3]) -> f32 {
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// Mean absolute difference of two images, in 8-bit levels.
pub(crate) fn mean_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f32 {
    let sum: f32 = a
        .pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|c| (p[c] as f32 - q[c] as f32).abs()).sum::<f32>() / 3.0)
        .sum();
    sum / (a.width() * a.height()) as f32
}

/// Keeps `image` for a person to look at, in the temporary folder's `rigscope-picture`.
pub(crate) fn save(image: &image::RgbaImage, name: &str) {
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
    let clipped = sphere_pixels
        .iter()
        .filter(|p| p.0[..3].iter().all(|&c| c >= 254))
        .count();
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
    let (high, low) = (
        darkest + 0.9 * (brightest - darkest),
        darkest + 0.1 * (brightest - darkest),
    );
    let transition: Vec<f32> = falling.iter().cloned().filter(|l| (low..=high).contains(l)).collect();
    let longest_flat_run = transition
        .windows(2)
        .fold((0, 0), |(longest, run), w| {
            let run = if (w[0] - w[1]).abs() < 0.5 { run + 1 } else { 0 };
            (longest.max(run), run)
        })
        .0;
    assert!(
        longest_flat_run < 4,
        "a band {longest_flat_run} pixels long: {transition:?}"
    );
    assert!(
        brightest - darkest > 100.0,
        "light and shade differ: {brightest} to {darkest}"
    );
}

#[test]
fn a_mesh_without_normals_is_shaded_flat_face_by_face() {
    // glTF: "When normals are not specified, client implementations MUST calculate flat
    // normals." A low-poly sphere with and without NORMAL, lit alike.
    let mut renderer = Renderer::new();
    let material = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":1}}"#;
    let mut faceted = uv_sphere(6, 8);
    let smooth = mesh_model("low-poly-smooth", &faceted, material);
    faceted.normals.clear();
    let flat = mesh_model("low-poly-flat", &faceted, material);
    assert!(flat.meshes[0].primitives[0].flat_shaded && !smooth.meshes[0].primitives[0].flat_shaded);

    // Down the middle of the sphere (where it differs from the background): a level stretch
    // of luminance per face when flat, a gradient of many small steps when smooth.
    let column = |image: &image::RgbaImage| -> Vec<f32> {
        let x = SIZE.0 / 2 + 7;
        let background = luminance(image.get_pixel(x, 0));
        (0..SIZE.1)
            .map(|y| luminance(image.get_pixel(x, y)))
            .skip_while(|&l| (l - background).abs() < 2.0)
            .take_while(|&l| (l - background).abs() >= 2.0)
            .collect()
    };
    let level_stretches = |column: &[f32]| 1 + column.windows(2).filter(|w| (w[1] - w[0]).abs() >= 1.0).count();
    let view = plain(Lighting::default());
    let (flat_image, smooth_image) = (renderer.render(&flat, &view), renderer.render(&smooth, &view));
    save(&flat_image, "low-poly-flat");
    save(&smooth_image, "low-poly-smooth");
    let (flat_column, smooth_column) = (column(&flat_image), column(&smooth_image));
    assert!(flat_column.len() > 80, "the column crosses the sphere: {flat_column:?}");
    let (flat_count, smooth_count) = (level_stretches(&flat_column), level_stretches(&smooth_column));
    assert!(flat_count <= 16, "flat: a level stretch per face: {flat_column:?}");
    assert!(smooth_count >= 40, "smooth: a gradient: {smooth_column:?}");
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
    assert!(
        metal_change > 2.0,
        "the metal mirrors the turned environment ({metal_change})"
    );
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

/// Two quads side by side skinned to one joint, coloured only by COLOR_0 (normalised u8
/// RGB): the left one red, the right one blue.
fn vertex_coloured_quads() -> String {
    let mut buffers = Buffers::default();
    let mut positions = Vec::new();
    for offset in [-1.2f32, 1.2] {
        for corner in quad().positions {
            positions.extend((corner * Vec3::new(1.0, 1.0, 1.0) + Vec3::X * offset).to_array());
        }
    }
    let position = buffers.floats(&positions, "VEC3");
    let normal = buffers.floats(&[0.0, 0.0, 1.0].repeat(8), "VEC3");
    let colors: Vec<u8> = [[255u8, 0, 0]; 4]
        .into_iter()
        .chain([[0, 0, 255]; 4])
        .flatten()
        .collect();
    let color = buffers.accessor(&colors, 5121, 8, "VEC3", true);
    let joints = buffers.accessor(&[0u8; 32], 5121, 8, "VEC4", false);
    let weights = buffers.floats(&[1.0, 0.0, 0.0, 0.0].repeat(8), "VEC4");
    let indices = buffers.indices(&[0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
    buffers.gltf(&format!(
        r#""meshes":[{{"primitives":[{{"attributes":{{"POSITION":{position},"NORMAL":{normal},"COLOR_0":{color},"JOINTS_0":{joints},"WEIGHTS_0":{weights}}},"indices":{indices},"material":0}}]}}],
        "materials":[{{"pbrMetallicRoughness":{{"metallicFactor":0}}}}],
        "skins":[{{"joints":[1]}}],
        "nodes":[{{"mesh":0,"skin":0}},{{"name":"joint","translation":[0,0.5,0]}}],
        "scenes":[{{"nodes":[0,1]}}]"#
    ))
}

/// Pixels whose red (or blue) channel leads the others by a clear margin, in the left and
/// right halves of `image`: (red left, blue left, red right, blue right).
fn hue_counts(image: &image::RgbaImage) -> (usize, usize, usize, usize) {
    let mut counts = (0, 0, 0, 0);
    for (x, _, p) in image.enumerate_pixels() {
        let [r, g, b, _] = p.0.map(i32::from);
        let left = x < image.width() / 2;
        let red = r > g + 60 && r > b + 60;
        let blue = b > r + 60 && b > g + 60;
        match (left, red, blue) {
            (true, true, _) => counts.0 += 1,
            (true, _, true) => counts.1 += 1,
            (false, true, _) => counts.2 += 1,
            (false, _, true) => counts.3 += 1,
            _ => {}
        }
    }
    counts
}

#[test]
fn vertex_colours_colour_the_mesh_on_the_gpu_and_cpu_paths() {
    let mut renderer = Renderer::new();
    let model = load("vertex-colours", &vertex_coloured_quads());
    assert_eq!(
        model.meshes[0].primitives[0].colors[0],
        glam::Vec4::new(1.0, 0.0, 0.0, 1.0)
    );
    for gpu_skinning in [true, false] {
        let view = ViewOptions {
            gpu_skinning,
            ..plain(Lighting::default())
        };
        let image = renderer.render(&model, &view);
        save(&image, &format!("vertex-colours-gpu-{gpu_skinning}"));
        let (red_left, blue_left, red_right, blue_right) = hue_counts(&image);
        let area = (SIZE.0 * SIZE.1) as usize;
        assert!(
            red_left > area / 20 && blue_right > area / 20,
            "gpu {gpu_skinning}: {red_left} red, {blue_right} blue"
        );
        assert!(
            blue_left + red_right < area / 200,
            "gpu {gpu_skinning}: colours on the wrong side"
        );
    }
}

#[test]
fn vertex_colours_of_every_accessor_kind_load() {
    // RGBA as normalised u16, and RGB as floats.
    let mut buffers = Buffers::default();
    let position = buffers.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let shorts: Vec<u8> = [65535u16, 32768, 0, 65535]
        .repeat(3)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let rgba = buffers.accessor(&shorts, 5123, 3, "VEC4", true);
    let rgb = buffers.floats(&[0.25, 0.5, 1.0].repeat(3), "VEC3");
    let json = buffers.gltf(&format!(
        r#""meshes":[{{"primitives":[{{"attributes":{{"POSITION":{position},"COLOR_0":{rgba}}}}},{{"attributes":{{"POSITION":{position},"COLOR_0":{rgb}}}}}]}}],"nodes":[{{"mesh":0}}]"#
    ));
    let model = load("colour-kinds", &json);
    let primitives = &model.meshes[0].primitives;
    let first = primitives[0].colors[0];
    assert!(
        (first - glam::Vec4::new(1.0, 0.5, 0.0, 1.0)).abs().max_element() < 1e-4,
        "{first}"
    );
    assert_eq!(primitives[1].colors[2], glam::Vec4::new(0.25, 0.5, 1.0, 1.0));
    // A colour count that does not match the vertices leaves that primitive out, naming the
    // attribute.
    let bad = json.replacen(r#""count":3,"type":"VEC4""#, r#""count":2,"type":"VEC4""#, 1);
    let model = asset::load(&file("colour-count", &bad)).unwrap();
    assert!(model.meshes[0].primitives[0].positions.is_empty());
    let warning = &model.warnings[0];
    assert!(
        warning.contains("COLOR_0") && warning.ends_with("(primitive not drawn)"),
        "{warning}"
    );
}

/// Two quads facing +Z, one behind the other: at z = 0 with material `front` (JSON), at z = −1
/// with `back`; the file lists the front one first when `front_first`.
fn quad_behind_quad(name: &str, front: &str, back: &str, front_first: bool) -> Model {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&quad());
    let (front_node, back_node) = (r#"{"mesh":0}"#, r#"{"mesh":1,"translation":[0,0,-1]}"#);
    let nodes = match front_first {
        true => format!("{front_node},{back_node}"),
        false => format!("{back_node},{front_node}"),
    };
    load(
        name,
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}},{{"primitives":[{{{primitive},"material":1}}]}}],"materials":[{front},{back}],"nodes":[{nodes}],"scenes":[{{"nodes":[0,1]}}]"#
        )),
    )
}

/// A blended material of `color` (RGBA), single- or `double_sided`.
fn glass(color: [f32; 4], double_sided: bool) -> String {
    format!(
        r#"{{"pbrMetallicRoughness":{{"baseColorFactor":{color:?},"metallicFactor":0}},"alphaMode":"BLEND","doubleSided":{double_sided}}}"#
    )
}

#[test]
fn what_is_behind_a_transparent_surface_shows_through_it_in_any_file_order() {
    // Opaque surfaces are drawn first; blended ones after them, back to front, without
    // writing depth: the red quad shows through the blue glass whichever the file lists first.
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let centre = |image: &image::RgbaImage| image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0;
    let mut pictures = Vec::new();
    let red = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,1],"metallicFactor":0}}"#;
    for (transparent_first, double_sided) in [(true, false), (false, false), (true, true)] {
        let name = format!("glass-{transparent_first}-{double_sided}");
        let blue_glass = glass([0.2, 0.4, 1.0, 0.3], double_sided);
        let model = quad_behind_quad(&name, &blue_glass, red, transparent_first);
        let image = renderer.render(&model, &view);
        save(&image, &name);
        let [r, g, b, _] = centre(&image);
        assert!(
            r > 90 && r > b + 30 && b > g,
            "{name}: red seen through blue glass at the centre: {:?}",
            [r, g, b]
        );
        pictures.push(image);
    }
    assert!(
        mean_difference(&pictures[0], &pictures[1]) < 0.5,
        "the file's order does not matter"
    );

    // Two glasses: the nearer one is drawn last, over the farther, whatever the file's order.
    let (blue, red) = (glass([0.0, 0.0, 1.0, 0.6], false), glass([1.0, 0.0, 0.0, 0.6], false));
    for front_first in [true, false] {
        let name = format!("two-glasses-{front_first}");
        let image = renderer.render(&quad_behind_quad(&name, &blue, &red, front_first), &view);
        save(&image, &name);
        let [r, _, b, _] = centre(&image);
        assert!(
            b > r + 20,
            "{name}: the near blue glass over the far red one: {:?}",
            [r, b]
        );
    }
}

/// A single quad, with `material` (JSON) and the node's `placement` (JSON members), facing
/// +Z or, when `facing_away`, −Z.
fn quad_model(name: &str, material: &str, placement: &str, facing_away: bool) -> Model {
    let mut buffers = Buffers::default();
    let mut mesh = quad();
    if facing_away {
        // Turned half a turn about +Y: the same square, its front towards −Z.
        for p in mesh.positions.iter_mut() {
            p.x = -p.x;
        }
        mesh.normals = vec![Vec3::NEG_Z; 4];
    }
    let primitive = buffers.mesh(&mesh);
    load(
        name,
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{material}],"nodes":[{{"mesh":0{placement}}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    )
}

#[test]
fn single_sided_faces_are_culled_from_behind_and_mirroring_keeps_the_front() {
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let single = r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.9,0.6,0.2,1],"metallicFactor":0}}"#;
    let double =
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.9,0.6,0.2,1],"metallicFactor":0},"doubleSided":true}"#;
    // The default view looks at +Z faces.
    let front = renderer.render(&quad_model("front", single, "", false), &view);
    let behind = renderer.render(&quad_model("behind", single, "", true), &view);
    let behind_double = renderer.render(&quad_model("behind-double", double, "", true), &view);
    let mirrored = renderer.render(&quad_model("mirrored", single, r#","scale":[-1,1,1]"#, false), &view);
    save(&behind_double, "behind-double-sided");
    assert!(
        common::coverage(&front) > 0.2,
        "the front face is drawn: {}",
        common::coverage(&front)
    );
    assert!(
        common::coverage(&behind) < 0.001,
        "the back of a single-sided quad is culled: {}",
        common::coverage(&behind)
    );
    assert!(
        common::coverage(&behind_double) > 0.2,
        "a double-sided quad covers from behind"
    );
    assert!(
        common::coverage(&mirrored) > 0.2,
        "a mirrored single-sided quad still shows its front"
    );
    // The back of a double-sided face is lit by its flipped normal: as bright as the front.
    let mean = |image: &image::RgbaImage| {
        let lit: Vec<f32> = image.pixels().filter(|p| luminance(p) > 40.0).map(luminance).collect();
        lit.iter().sum::<f32>() / lit.len() as f32
    };
    let (front_light, back_light) = (mean(&front), mean(&behind_double));
    assert!(
        (front_light - back_light).abs() < 25.0,
        "front {front_light}, back {back_light}"
    );
}

/// A 2 × 2 PNG: red top left, blue top right, green bottom left, yellow bottom right.
fn four_colour_png() -> Vec<u8> {
    let image = image::RgbaImage::from_fn(2, 2, |x, y| match (x, y) {
        (0, 0) => image::Rgba([255, 0, 0, 255]),
        (1, 0) => image::Rgba([0, 0, 255, 255]),
        (0, 1) => image::Rgba([0, 255, 0, 255]),
        _ => image::Rgba([255, 255, 0, 255]),
    });
    let mut bytes = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// `four_colour_png` as a data URI, as an image's `uri`.
pub(crate) fn four_colour_png_uri() -> String {
    common::data_uri(&four_colour_png()).replace("octet-stream", "png")
}

/// The colour name of the pixel at a fraction (`fx`, `fy`) across the drawn quad's bounds.
pub(crate) fn colour_at(image: &image::RgbaImage, fx: f32, fy: f32) -> &'static str {
    let background = image.get_pixel(0, 0).0;
    let drawn = image
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0.iter().zip(background.iter()).any(|(a, b)| a.abs_diff(*b) > 12));
    let (mut min, mut max) = ((u32::MAX, u32::MAX), (0, 0));
    for (x, y, _) in drawn {
        min = (min.0.min(x), min.1.min(y));
        max = (max.0.max(x), max.1.max(y));
    }
    let x = min.0 as f32 + fx * (max.0 - min.0) as f32;
    let y = min.1 as f32 + fy * (max.1 - min.1) as f32;
    match image.get_pixel(x as u32, y as u32).0 {
        [r, g, b, _] if r > 200 && g > 200 && b < 60 => "yellow",
        [r, g, b, _] if r > 200 && g < 60 && b < 60 => "red",
        [r, g, b, _] if g > 200 && r < 60 && b < 60 => "green",
        [r, g, b, _] if b > 200 && r < 60 && g < 60 => "blue",
        _ => "other",
    }
}

#[test]
fn texture_transform_moves_the_texture_as_the_extension_says() {
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let quadrants = |transform: &str, name: &str, renderer: &mut Renderer| {
        let mut buffers = Buffers::default();
        let primitive = buffers.mesh(&quad());
        let extensions = if transform.is_empty() {
            String::new()
        } else {
            format!(r#","extensions":{{"KHR_texture_transform":{transform}}}"#)
        };
        let json = buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_texture_transform","KHR_materials_unlit"],
            "images":[{{"uri":"{png}"}}],
            "samplers":[{{"magFilter":9728,"minFilter":9728,"wrapS":33071,"wrapT":33071}}],
            "textures":[{{"source":0,"sampler":0}}],
            "materials":[{{"pbrMetallicRoughness":{{"baseColorTexture":{{"index":0{extensions}}}}},"extensions":{{"KHR_materials_unlit":{{}}}}}}],
            "meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
            "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#,
            png = four_colour_png_uri(),
        ));
        let image = renderer.render(&load(name, &json), &view);
        save(&image, name);
        [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].map(|(x, y)| colour_at(&image, x, y))
    };
    assert_eq!(
        quadrants("", "untransformed", &mut renderer),
        ["red", "blue", "green", "yellow"],
        "top left, top right, bottom left, bottom right"
    );
    // Offset then scale: u' = 0.5 u + 0.5 reads only the right column.
    assert_eq!(
        quadrants(r#"{"offset":[0.5,0],"scale":[0.5,1]}"#, "offset-scale", &mut renderer),
        ["blue", "blue", "yellow", "yellow"]
    );
    // The specification's rotation: (u, v) → (v, 1 − u) with offset [0, 1], the image turned
    // a quarter clockwise.
    assert_eq!(
        quadrants(r#"{"offset":[0,1],"rotation":1.5707964}"#, "rotated", &mut renderer),
        ["green", "red", "yellow", "blue"]
    );
}

#[test]
fn the_files_lights_behind_a_diffuse_transmitting_leaf_shine_through_it() {
    // A white quad facing the camera (+Z), letting all its diffuse light through in green, lit
    // only by a directional light from behind it (shining along +Z).
    let leaf = |transmits: bool| {
        let extension = match transmits {
            true => {
                r#","extensions":{"KHR_materials_diffuse_transmission":{"diffuseTransmissionFactor":1,"diffuseTransmissionColorFactor":[0.1,1,0.1]}}"#
            }
            false => "",
        };
        let mut buffers = Buffers::default();
        let primitive = buffers.mesh(&quad());
        load(
            &format!("leaf-{transmits}"),
            &buffers.gltf(&format!(
                r#""extensionsUsed":["KHR_lights_punctual","KHR_materials_diffuse_transmission"],
                "extensions":{{"KHR_lights_punctual":{{"lights":[{{"type":"directional","intensity":3}}]}}}},
                "meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
                "materials":[{{"pbrMetallicRoughness":{{"metallicFactor":0}}{extension}}}],
                "nodes":[{{"mesh":0}},{{"extensions":{{"KHR_lights_punctual":{{"light":0}}}},"rotation":[0,1,0,0]}}],
                "scenes":[{{"nodes":[0,1]}}]"#
            )),
        )
    };
    let mut renderer = Renderer::new();
    let view = plain(Lighting {
        lights: Lights::File,
        environment_intensity: 0.0,
        ..Lighting::default()
    });
    let centre = |image: &image::RgbaImage| image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0;
    let through = renderer.render(&leaf(true), &view);
    save(&through, "leaf-lit-from-behind");
    let [r, g, b, _] = centre(&through);
    assert!(g > 80 && g > r + 40 && g > b + 40, "{r} {g} {b}");
    // Without the extension the front, facing away from the light, is dark.
    let [r, g, b, _] = centre(&renderer.render(&leaf(false), &view));
    assert!(r.max(g).max(b) < 40, "{r} {g} {b}");
}

/// A rough white sphere with the file's `lights` (KHR_lights_punctual's list) on nodes
/// placed by `light_nodes` (JSON node objects, each holding one light).
fn lit_sphere(name: &str, lights: &str, light_nodes: &str) -> Model {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&sphere());
    load(
        name,
        &buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_lights_punctual"],
            "extensions":{{"KHR_lights_punctual":{{"lights":{lights}}}}},
            "meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
            "materials":[{{"pbrMetallicRoughness":{{"metallicFactor":0,"roughnessFactor":0.8}}}}],
            "nodes":[{{"mesh":0}},{light_nodes}],"scenes":[{{"nodes":[0,1]}}]"#
        )),
    )
}

/// How much redder than green the sphere's pixels are, on average.
fn redness(image: &image::RgbaImage) -> f32 {
    let sphere: Vec<f32> = image
        .pixels()
        .filter(|p| luminance(p) > 40.0 || p[0] > 60)
        .map(|p| p[0] as f32 - p[1] as f32)
        .collect();
    sphere.iter().sum::<f32>() / sphere.len().max(1) as f32
}

#[test]
fn the_files_lights_light_the_model() {
    let mut renderer = Renderer::new();
    let with = |lights: Lights| {
        plain(Lighting {
            lights,
            ..Lighting::default()
        })
    };
    // A red point light in front of the sphere, towards the camera.
    let point = lit_sphere(
        "point-light",
        r#"[{"type":"point","color":[1,0,0],"intensity":30,"range":50}]"#,
        r#"{"translation":[1,1,3],"extensions":{"KHR_lights_punctual":{"light":0}}}"#,
    );
    assert_eq!(point.lights.len(), 1);
    // inspect lists the file's lights.
    let text = common::succeed(&["inspect", point.path.to_str().unwrap()]);
    assert!(
        text.contains("light 0 'Light 0': point, colour (1, 0, 0), intensity 30, range 50, on node 1"),
        "{text}"
    );
    let json = common::json(&["inspect", "--json", point.path.to_str().unwrap()]);
    assert_eq!(json["lights"][0]["kind"], "point");
    assert_eq!(json["lights"][0]["intensity"], 30.0);
    let file_lit = renderer.render(&point, &with(Lights::File));
    let studio_lit = renderer.render(&point, &with(Lights::Studio));
    save(&file_lit, "point-light");
    // (Over the studio environment, as bright as three.js's RoomEnvironment.)
    assert!(redness(&file_lit) > 25.0, "the red light shows: {}", redness(&file_lit));
    assert!(
        redness(&studio_lit).abs() < 10.0,
        "the studio is neutral: {}",
        redness(&studio_lit)
    );
    // A red spot aimed away from the sphere (down its node's −Z, which points away) does
    // not light it; turned around (+Z towards the sphere) it does.
    let spot = |name: &str, rotation: &str| {
        lit_sphere(
            name,
            r#"[{"type":"spot","color":[1,0,0],"intensity":60,"spot":{"outerConeAngle":0.4}}]"#,
            &format!(
                r#"{{"translation":[0,0,3],"rotation":{rotation},"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}}"#
            ),
        )
    };
    let away = renderer.render(&spot("spot-away", "[0,1,0,0]"), &with(Lights::File));
    let towards = renderer.render(&spot("spot-towards", "[0,0,0,1]"), &with(Lights::File));
    assert!(redness(&away) < 10.0, "aimed away: {}", redness(&away));
    assert!(redness(&towards) > 25.0, "aimed at it: {}", redness(&towards));
    // A directional light shines down its node's −Z wherever the node is: onto the +Z side
    // the camera sees, or, turned half a turn, onto the far side.
    let directional = |name: &str, rotation: &str| {
        lit_sphere(
            name,
            r#"[{"type":"directional","color":[1,0,0],"intensity":4}]"#,
            &format!(
                r#"{{"translation":[0,0,-100],"rotation":{rotation},"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}}"#
            ),
        )
    };
    let front = renderer.render(&directional("directional-front", "[0,0,0,1]"), &with(Lights::File));
    let back = renderer.render(&directional("directional-back", "[0,1,0,0]"), &with(Lights::File));
    assert!(
        redness(&front) > 25.0,
        "lit side towards the camera: {}",
        redness(&front)
    );
    assert!(
        redness(&back) < redness(&front) / 3.0,
        "lit side away: {}",
        redness(&back)
    );
    // Lights the loader cannot use are left out with a warning, not an error.
    let bad = lit_sphere(
        "bad-light",
        r#"[{"type":"spot","intensity":-1}]"#,
        r#"{"extensions":{"KHR_lights_punctual":{"light":0}}}"#,
    );
    assert!(bad.lights.is_empty());
    assert!(
        bad.warnings.iter().any(|w| w.contains("intensity")),
        "{:?}",
        bad.warnings
    );
}

#[test]
fn points_and_lines_are_drawn_in_their_colour() {
    let mut renderer = Renderer::new();
    let mut buffers = Buffers::default();
    let positions: Vec<f32> = (0..40)
        .flat_map(|i| {
            let angle = i as f32 / 40.0 * std::f32::consts::TAU;
            [angle.cos(), angle.sin(), 0.0]
        })
        .collect();
    let position = buffers.floats(&positions, "VEC3");
    // Transmission is for surfaces: points and lines are drawn as opaque ones either way.
    let transmission = r#","extensions":{"KHR_materials_transmission":{"transmissionFactor":1}}"#;
    for (name, extension) in [
        ("points-and-lines", ""),
        ("transmissive-points-and-lines", transmission),
    ] {
        let json = buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_materials_transmission"],
            "meshes":[{{"primitives":[{{"attributes":{{"POSITION":{position}}},"mode":2,"material":0}},
                                        {{"attributes":{{"POSITION":{position}}},"mode":0,"material":0}}]}}],
            "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[0,1,0,1]}}{extension}}}],
            "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        ));
        let model = load(name, &json);
        let image = renderer.render(&model, &plain(Lighting::default()));
        save(&image, name);
        // A pixel a line or point only partly covers is the mean of its samples' displayed
        // colours, the material's green and the background: green over red and blue.
        let green = (image.pixels())
            .filter(|p| p[1].saturating_sub(p[0]) > 40 && p[1].saturating_sub(p[2]) > 40)
            .count();
        assert!(
            green > 200,
            "{name}: the loop is drawn in its material's green: {green} pixels"
        );
        let full = image.pixels().filter(|p| p[1] > 200 && p[0] < 80 && p[2] < 80).count();
        assert!(full > 0, "{name}: where it covers a whole pixel, its green");
    }
}

#[test]
fn blended_glass_refracts_what_is_behind_it() {
    // A blended surface that lets light through is drawn over the displayed image with the
    // others, reading the copy of the scene behind it as transmissive surfaces do.
    let mut renderer = Renderer::new();
    let red = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,1],"metallicFactor":0}}"#;
    let glass = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,0.5],"metallicFactor":0,"roughnessFactor":0},"alphaMode":"BLEND","extensions":{"KHR_materials_transmission":{"transmissionFactor":1}}}"#;
    let model = quad_behind_quad("blended-glass", glass, red, true);
    let image = renderer.render(&model, &plain(Lighting::default()));
    save(&image, "blended-glass");
    let [r, g, b, _] = image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0;
    assert!(r > g + 40 && r > b + 40, "red seen through the glass: {:?}", [r, g, b]);
}

/// A small equirectangular .hdr: a dim grey room with one bright warm window.
fn write_hdr(path: &std::path::Path) {
    let (width, height) = (64u32, 32u32);
    let pixels: Vec<image::Rgb<f32>> = (0..width * height)
        .map(|i| {
            let (x, y) = (i % width, i / width);
            if (20..28).contains(&x) && (8..14).contains(&y) {
                image::Rgb([40.0, 20.0, 5.0])
            } else {
                image::Rgb([0.1, 0.1, 0.1])
            }
        })
        .collect();
    let file = std::fs::File::create(path).unwrap();
    image::codecs::hdr::HdrEncoder::new(file)
        .encode(&pixels, width as usize, height as usize)
        .unwrap();
}

#[test]
fn every_lighting_option_of_the_commands_changes_the_picture() {
    let dir = common::temp_dir("lighting-options");
    let hdr = dir.join("room.hdr");
    write_hdr(&hdr);
    let render = |name: &str, options: &[&str]| {
        let out = dir.join(format!("{name}.png"));
        let mut args = vec!["render", "-o", out.to_str().unwrap(), "--size", "160x120"];
        args.extend_from_slice(options);
        common::succeed(&args);
        image::open(&out).unwrap().to_rgba8()
    };
    let default = render("default", &[]);
    let hdr_path = hdr.to_str().unwrap();
    for (name, options) in [
        ("exposure", &["--exposure", "1.5"][..]),
        ("darker", &["--exposure=-2"]),
        ("aces", &["--tone-mapping", "aces"]),
        ("no-curve", &["--tone-mapping", "none", "--exposure", "1"]),
        ("environment", &["--environment", hdr_path]),
        ("intensity", &["--environment-intensity", "3"]),
        ("rotation", &["--environment", hdr_path, "--environment-rotation", "90"]),
        ("background", &["--environment-background"]),
    ] {
        let image = render(name, options);
        let change = mean_difference(&default, &image);
        assert!(change > 0.5, "{options:?} changes the picture ({change})");
    }
    let rotated = render("rotated", &["--environment", hdr_path, "--environment-rotation", "90"]);
    let unrotated = render("unrotated", &["--environment", hdr_path]);
    assert!(
        mean_difference(&rotated, &unrotated) > 0.3,
        "rotation turns the environment"
    );
    // The demo has no lights of its own: asking for the file's leaves only the environment.
    let file_lights = render("file-lights", &["--lights", "file"]);
    assert!(mean_difference(&default, &file_lights) > 0.3);
    let studio = render("studio", &["--lights", "studio"]);
    assert_eq!(mean_difference(&default, &studio), 0.0, "the studio is the default");
    // Bad values and files are refused with the reason.
    for (options, expected) in [
        (&["--exposure", "40"][..], "exposure runs from"),
        (&["--environment-intensity=-1"], "intensity runs from"),
        (&["--environment-rotation", "abc"], "not a number"),
        (&["--tone-mapping", "filmic"], "filmic"),
    ] {
        let mut args = vec!["render", "-o", "/dev/null"];
        args.extend_from_slice(options);
        let output = common::rigscope(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains(expected),
            "{options:?}: {stderr}"
        );
    }
    let truncated = dir.join("truncated.hdr");
    std::fs::write(&truncated, &std::fs::read(&hdr).unwrap()[..100]).unwrap();
    let output = common::rigscope(&[
        "render",
        "-o",
        "/dev/null",
        "--environment",
        truncated.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("truncated.hdr"), "{stderr}");
}

#[test]
fn thumbnails_and_sheets_take_the_lighting_and_view_options() {
    let dir = common::temp_dir("lighting-batch");
    let model = common::gltf("Fox/glTF-Binary/Fox.glb");
    let model = model.to_str().unwrap();
    let image = |args: &[&str], out: &std::path::Path| {
        common::succeed(args);
        image::open(out).unwrap().to_rgba8()
    };
    let (plain_out, bright_out) = (dir.join("plain.png"), dir.join("bright.png"));
    let plain = image(
        &["thumbnail", model, "-o", plain_out.to_str().unwrap(), "--size", "64"],
        &plain_out,
    );
    let bright = image(
        &[
            "thumbnail",
            model,
            "-o",
            bright_out.to_str().unwrap(),
            "--size",
            "64",
            "--exposure",
            "2",
        ],
        &bright_out,
    );
    assert!(mean_difference(&plain, &bright) > 1.0, "thumbnail --exposure");
    let (sheet_out, dark_out) = (dir.join("sheet.png"), dir.join("dark.png"));
    let sheet = image(
        &[
            "sheet",
            model,
            "-o",
            sheet_out.to_str().unwrap(),
            "--frames",
            "2",
            "--cell",
            "64",
        ],
        &sheet_out,
    );
    let dark = image(
        &[
            "sheet",
            model,
            "-o",
            dark_out.to_str().unwrap(),
            "--frames",
            "2",
            "--cell",
            "64",
            "--exposure=-3",
        ],
        &dark_out,
    );
    assert!(mean_difference(&sheet, &dark) > 1.0, "sheet --exposure");
    // The viewpoint options too: the Fox from behind, from above.
    let back_out = dir.join("back.png");
    let back = image(
        &[
            "thumbnail",
            model,
            "-o",
            back_out.to_str().unwrap(),
            "--size",
            "64",
            "--view",
            "back",
        ],
        &back_out,
    );
    assert!(mean_difference(&plain, &back) > 2.0, "thumbnail --view");
    let top_out = dir.join("top.png");
    let top = image(
        &[
            "sheet",
            model,
            "-o",
            top_out.to_str().unwrap(),
            "--frames",
            "2",
            "--cell",
            "64",
            "--view",
            "top",
        ],
        &top_out,
    );
    assert!(mean_difference(&sheet, &top) > 2.0, "sheet --view");
    let output = common::rigscope(&["thumbnail", model, "-o", "/dev/null", "--camera", "nobody"]);
    assert!(!output.status.success() && String::from_utf8_lossy(&output.stderr).contains("--camera"));
}

/// A quad whose material is `material` (JSON; texture 0 is the four-colour PNG, through
/// sampler `sampler`), with its uvs scaled by `uv_scale` and a second uv set (TEXCOORD_1)
/// mirrored left to right.
fn textured_quad(name: &str, material: &str, sampler: &str, uv_scale: f32) -> Model {
    let mut buffers = Buffers::default();
    let mut mesh = quad();
    mesh.uvs.iter_mut().for_each(|uv| *uv *= uv_scale);
    let primitive = buffers.mesh(&mesh);
    let second: Vec<f32> = quad().uvs.iter().flat_map(|uv| [1.0 - uv.x, uv.y]).collect();
    let uv1 = buffers.floats(&second, "VEC2");
    let primitive = primitive.replacen(r#""TEXCOORD_0""#, &format!(r#""TEXCOORD_1":{uv1},"TEXCOORD_0""#), 1);
    let extensions = r#""extensionsUsed":["KHR_materials_unlit","KHR_materials_emissive_strength"],"#;
    four_colour_textured(name, &buffers, &primitive, material, sampler, extensions)
}

/// One node of `primitive` (of `buffers`) in `material` (JSON), whose texture 0 is the
/// four-colour PNG through `sampler`; `extensions` is the file's `"extensionsUsed":[...],`
/// or empty.
fn four_colour_textured(
    name: &str,
    buffers: &Buffers,
    primitive: &str,
    material: &str,
    sampler: &str,
    extensions: &str,
) -> Model {
    load(
        name,
        &buffers.gltf(&format!(
            r#"{extensions}"images":[{{"uri":"{png}"}}],"samplers":[{sampler}],"textures":[{{"source":0,"sampler":0}}],
            "materials":[{material}],"meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
            "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#,
            png = four_colour_png_uri(),
        )),
    )
}

#[test]
fn material_textures_samplers_and_extensions_change_the_picture() {
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let nearest_clamp = r#"{"magFilter":9728,"minFilter":9728,"wrapS":33071,"wrapT":33071}"#;
    let unlit_texture = |texture: &str| {
        format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorTexture":{texture}}},"extensions":{{"KHR_materials_unlit":{{}}}}}}"#
        )
    };
    let mut draw = |name: &str, material: &str, sampler: &str, uv_scale: f32| {
        let image = renderer.render(&textured_quad(name, material, sampler, uv_scale), &view);
        save(&image, name);
        image
    };
    let quadrants = |image: &image::RgbaImage| {
        [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)].map(|(x, y)| colour_at(image, x, y))
    };
    // TEXCOORD_1, mirrored left to right, when the texture asks for set 1.
    let second_set = draw(
        "second-uv-set",
        &unlit_texture(r#"{"index":0,"texCoord":1}"#),
        nearest_clamp,
        1.0,
    );
    assert_eq!(quadrants(&second_set), ["blue", "red", "yellow", "green"]);
    // Wrap modes: uvs 0 to 2 repeat the image twice, or clamp to its last column and row.
    let repeat = r#"{"magFilter":9728,"minFilter":9728}"#;
    let repeated = draw("repeat", &unlit_texture(r#"{"index":0}"#), repeat, 2.0);
    let clamped = draw("clamp", &unlit_texture(r#"{"index":0}"#), nearest_clamp, 2.0);
    assert_eq!(colour_at(&repeated, 0.6, 0.1), "red", "the second copy starts again");
    assert_eq!(colour_at(&clamped, 0.6, 0.1), "blue", "clamped to the right column");
    // Filters: nearest keeps the texels' flat colours, linear blends between them.
    let linear = r#"{"magFilter":9729,"minFilter":9729,"wrapS":33071,"wrapT":33071}"#;
    let blended = draw("linear", &unlit_texture(r#"{"index":0}"#), linear, 1.0);
    let nearest = draw("nearest", &unlit_texture(r#"{"index":0}"#), nearest_clamp, 1.0);
    let blends = |image: &image::RgbaImage| {
        let grid = (1..20).flat_map(|x| (1..20).map(move |y| (x as f32 / 20.0, y as f32 / 20.0)));
        grid.filter(|&(x, y)| colour_at(image, x, y) == "other").count()
    };
    let (sharp, smooth) = (blends(&nearest), blends(&blended));
    assert!(
        sharp < 40 && smooth > 150,
        "in-between colours: nearest {sharp}, linear {smooth} of 361"
    );

    // Unlit: the base colour as it is (without a tone curve, exactly).
    let unlit_model = textured_quad(
        "unlit",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.2,0.6,0.9,1]},"extensions":{"KHR_materials_unlit":{}}}"#,
        repeat,
        1.0,
    );
    let no_curve = plain(Lighting {
        tone_mapping: rigscope::view::ToneMapping::None,
        ..Lighting::default()
    });
    let unlit = renderer.render(&unlit_model, &no_curve);
    let centre = unlit.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0;
    let srgb = |linear: f32| {
        (255.0
            * if linear <= 0.0031308 {
                linear * 12.92
            } else {
                1.055 * linear.powf(1.0 / 2.4) - 0.055
            })
        .round()
    };
    for (channel, linear) in [0.2f32, 0.6, 0.9].into_iter().enumerate() {
        assert!((centre[channel] as f32 - srgb(linear)).abs() <= 2.0, "unlit {centre:?}");
    }
    // Emissive strength scales the emissive colour (here on a black, non-reflective base).
    let emissive = |strength: f32, name: &str, renderer: &mut Renderer| {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[0,0,0,1],"metallicFactor":0,"roughnessFactor":1}},"emissiveFactor":[0.2,0,0],"extensions":{{"KHR_materials_emissive_strength":{{"emissiveStrength":{strength}}}}}}}"#
        );
        let image = renderer.render(&textured_quad(name, &material, repeat, 1.0), &view);
        image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0[0]
    };
    let (weak, strong) = (
        emissive(1.0, "emissive-1", &mut renderer),
        emissive(3.0, "emissive-3", &mut renderer),
    );
    assert!(strong > weak + 40, "emissive strength 3 ({strong}) against 1 ({weak})");
    // The occlusion texture darkens the environment's light, as much as its strength says.
    let occluded = |strength: f32, name: &str, renderer: &mut Renderer| {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"metallicFactor":0}},"occlusionTexture":{{"index":0,"strength":{strength}}}}}"#
        );
        let image = renderer.render(&textured_quad(name, &material, repeat, 1.0), &view);
        // The top-left texel: red, so occlusion (the red channel) is 1 there; the bottom
        // right is yellow (also 1); the top right, blue, has occlusion 0.
        luminance(&image::Rgba(
            image
                .get_pixel((SIZE.0 as f32 * 0.62) as u32, (SIZE.1 as f32 * 0.38) as u32)
                .0,
        ))
    };
    let (none, full) = (
        occluded(0.0, "occlusion-0", &mut renderer),
        occluded(1.0, "occlusion-1", &mut renderer),
    );
    assert!(full + 5.0 < none, "occlusion strength 1 ({full}) against 0 ({none})");
}

#[test]
fn the_quality_sets_antialiasing_and_the_shadow_and_switches_back() {
    let mut renderer = Renderer::new();
    let model = demo_model();
    let view = ViewOptions::default();
    let best = renderer.render(&model, &view);
    renderer.scene.set_quality(&renderer.gpu, Quality::Fast);
    assert_eq!(renderer.scene.sample_count, 1, "fast draws without multisampling");
    let fast = renderer.render(&model, &view);
    save(&best, "quality-best");
    save(&fast, "quality-fast");
    let difference = mean_difference(&best, &fast);
    assert!(difference > 0.05, "fast looks like best: {difference}");
    renderer.scene.set_quality(&renderer.gpu, Quality::Best);
    let again = renderer.render(&model, &view);
    assert!(mean_difference(&best, &again) < 0.01, "best again is the first picture");
}

#[test]
fn at_fast_quality_a_model_of_many_small_parts_sheds_triangles_and_looks_the_same() {
    // Sixteen spheres of 1,024 triangles, none dense on its own, in a 4 × 4 grid: four times
    // the triangle budget, spread over the model.
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&uv_sphere(16, 32));
    let nodes: Vec<String> = (0..16)
        .map(|i| {
            format!(
                r#"{{"mesh":0,"translation":[{},{},0]}}"#,
                (i % 4) as f32 * 3.0,
                (i / 4) as f32 * 3.0
            )
        })
        .collect();
    let model = load(
        "sphere-grid",
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[0.8,0.5,0.3,1]}}}}],"nodes":[{}],"scenes":[{{"nodes":[{}]}}]"#,
            nodes.join(","),
            (0..16).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
        )),
    );
    let (drawn, whole_count) = fast_copies_look_the_same(&model, "fast-grid-simplified");
    assert_eq!(whole_count, 16 * 1024);
    // Each sphere's coarsest copy keeps 256 triangles (the next would lie over 5% of the
    // sphere's size from it): 4,096 at most, about the budget.
    let budget = u64::from(rigscope::view::triangle_budget::FAST_TRIANGLE_BUDGET);
    assert!(
        drawn <= budget.max(16 * 256),
        "{drawn} of {whole_count} triangles drawn"
    );
}

/// Draws `model` at Fast quality from its simplified copies and again whole, asserts that the
/// copies were drawn and look the same (under 1 level on average), keeps the first picture as
/// `name`, and returns how many triangles each drew.
fn fast_copies_look_the_same(model: &Model, name: &str) -> (u64, u64) {
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    renderer.scene.set_quality(&renderer.gpu, Quality::Fast);
    let mut still = StillRenderer::new(&renderer.gpu, &renderer.scene, model);
    // The whole model in view: the budget is spent on what the camera sees.
    still.frame_clip(None);
    let pose = model.skeleton.rest_pose().clone();
    let simplified = still.render(&mut renderer.scene, &pose, SIZE, &view).unwrap();
    let drawn = still.triangles_drawn(&view);
    renderer.scene.quality.triangle_budget = None;
    let whole = still.render(&mut renderer.scene, &pose, SIZE, &view).unwrap();
    let counts = (drawn, still.triangles_drawn(&view));
    save(&simplified, name);
    let difference = mean_difference(&simplified, &whole);
    assert!(difference > 0.0 && difference < 1.0, "{difference}");
    counts
}

#[test]
fn at_fast_quality_a_two_sided_sheet_sheds_triangles_and_looks_the_same() {
    // A dense sphere drawn from both sides as hard-surface models draw sheets: a second copy of
    // every vertex with the normal reversed, its triangles wound the other way. Every vertex
    // then shares its position with another of other normal; simplified as one surface, the
    // pair was a seam everywhere and almost nothing was shed.
    let mut sheet = sphere();
    let count = sheet.positions.len() as u32;
    sheet.positions.extend_from_within(..);
    let backs: Vec<Vec3> = sheet.normals.iter().map(|n| -*n).collect();
    sheet.normals.extend(backs);
    sheet.uvs.extend_from_within(..);
    let back_faces: Vec<u32> = (sheet.indices.chunks_exact(3))
        .flat_map(|t| [t[0] + count, t[2] + count, t[1] + count])
        .collect();
    sheet.indices.extend(back_faces);
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&sheet);
    let model = load(
        "two-sided-sphere",
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[0.8,0.5,0.3,1]}}}}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    );
    let (drawn, whole_count) = fast_copies_look_the_same(&model, "fast-two-sided-simplified");
    assert!(drawn * 3 < whole_count, "{drawn} of {whole_count} triangles drawn");
}

#[test]
fn fast_quality_draws_a_dense_mesh_simplified_and_it_looks_the_same() {
    let mut renderer = Renderer::new();
    // 9,216 triangles: dense enough to be simplified.
    let model = sphere_model(
        "dense-sphere",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[0.8,0.5,0.3,1]}}"#,
    );
    let view = plain(Lighting::default());
    renderer.scene.set_quality(&renderer.gpu, Quality::Fast);
    let simplified = renderer.render(&model, &view);
    renderer.scene.quality.triangle_budget = None;
    let whole = renderer.render(&model, &view);
    save(&simplified, "fast-simplified");
    save(&whole, "fast-whole");
    let difference = mean_difference(&simplified, &whole);
    // The copy is drawn (the pictures differ) and looks like the mesh (barely).
    assert!(difference > 0.0, "the simplified copy was not drawn");
    assert!(difference < 0.5, "the simplified sphere looks different: {difference}");
}

/// The mean sRGB luminance (0-255) of the pixels that differ from the background (the corner).
fn mean_luminance_of_model(image: &image::RgbaImage) -> f32 {
    rgb_luminance(mean_colour_of_model(image))
}

#[test]
fn the_default_look_is_as_bright_as_three_js_and_metals_read_as_metal() {
    // three.js r187 (../shared/peer-three, RoomEnvironment, Neutral tone mapping) drew these
    // spheres with a mean sRGB luminance of 244.7 (white, roughness 0.5), 211.5 (a metal,
    // roughness 0.4) and 238.8 (the metal at roughness 1). rigscope's default look is within
    // 20% of each: a metal reflects a room, not black, and a rough metal keeps the energy its
    // microfacets scatter more than once.
    let mut renderer = Renderer::new();
    let metal = |roughness: f32| {
        format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[0.95,0.93,0.88,1],"metallicFactor":1,"roughnessFactor":{roughness}}}}}"#
        )
    };
    let cases = [
        (
            "look-white",
            r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":0.5}}"#
                .to_owned(),
            244.7,
        ),
        ("look-metal", metal(0.4), 211.5),
        ("look-rough-metal", metal(1.0), 238.8),
    ];
    for (name, material, three_js) in cases {
        let image = renderer.render(&sphere_model(name, &material), &plain(Lighting::default()));
        save(&image, name);
        let mean = mean_luminance_of_model(&image);
        let ratio = mean / three_js;
        assert!(
            (0.8..=1.2).contains(&ratio),
            "{name}: {mean:.1} is {ratio:.2} of three.js's {three_js}"
        );
    }
}

#[test]
fn rough_metal_shows_no_seams_of_the_environment_cube() {
    // The smallest levels of the prefiltered cube map were 8 and 4 texels a side, and a rough
    // metal sphere showed their faces' edges as creases: a jump in the slope of its shading.
    // The largest second difference of luminance (3 pixels apart) inside the sphere was 9-12
    // levels then and is about 3 now; its smooth shading alone gives 2-3.
    let mut renderer = Renderer::new();
    let view = plain(Lighting {
        exposure: -1.5,
        ..Lighting::default()
    });
    for roughness in [0.85, 1.0] {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[0.95,0.93,0.88,1],"metallicFactor":1,"roughnessFactor":{roughness}}}}}"#
        );
        let model = sphere_model("rough-metal", &material);
        let pose = model.skeleton.rest_pose().clone();
        let image = render_image(
            &renderer.gpu,
            &mut renderer.scene,
            &model,
            &pose,
            None,
            (600, 600),
            &view,
        )
        .unwrap();
        save(&image, &format!("rough-metal-{roughness}"));
        let lum = |x: u32, y: u32| luminance(image.get_pixel(x, y));
        let covered = image.pixels().filter(|p| luminance(p) > 30.0).count() as f32;
        let (center, radius) = (300.0, (covered / std::f32::consts::PI).sqrt());
        let mut worst: f32 = 0.0;
        for y in 3..597 {
            for x in 3..597 {
                if (x as f32 - center).hypot(y as f32 - center) > 0.85 * radius {
                    continue;
                }
                let across = (lum(x + 3, y) - 2.0 * lum(x, y) + lum(x - 3, y)).abs();
                let down = (lum(x, y + 3) - 2.0 * lum(x, y) + lum(x, y - 3)).abs();
                worst = worst.max(across).max(down);
            }
        }
        assert!(radius > 100.0, "the sphere is drawn: radius {radius}");
        assert!(worst <= 5.0, "roughness {roughness}: a crease of {worst} levels");
    }
}

/// The mean of each colour channel over the pixels that differ from the background.
/// How far a colour is from grey: its largest channel less its smallest.
fn chroma([r, g, b]: [f32; 3]) -> f32 {
    r.max(g).max(b) - r.min(g).min(b)
}

fn mean_colour_of_model(image: &image::RgbaImage) -> [f32; 3] {
    let background = *image.get_pixel(0, 0);
    let model: Vec<&image::Rgba<u8>> = image
        .pixels()
        .filter(|p| (0..3).map(|c| p[c].abs_diff(background[c]) as u32).sum::<u32>() > 6)
        .collect();
    let count = model.len().max(1) as f32;
    [0, 1, 2].map(|c| model.iter().map(|p| p[c] as f32).sum::<f32>() / count)
}

#[test]
fn material_extensions_change_the_picture_as_they_say() {
    // Each sphere drawn with the extension and with it removed from the material, under the
    // same light: the extension must show, the way it says. (Measured against three.js r187
    // under matched light, the change each makes agrees in direction and within a factor of
    // two in size: see the README.)
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let mut draw = |name: &str, pbr: &str, extension: &str| {
        let with = sphere_model(
            name,
            &format!(r#"{{"pbrMetallicRoughness":{pbr},"extensions":{{{extension}}}}}"#),
        );
        let without = sphere_model(
            &format!("{name}-without"),
            &format!(r#"{{"pbrMetallicRoughness":{pbr}}}"#),
        );
        assert!(with.warnings.is_empty(), "{name}: {:?}", with.warnings);
        let (with, without) = (renderer.render(&with, &view), renderer.render(&without, &view));
        save(&with, name);
        (mean_colour_of_model(&with), mean_colour_of_model(&without))
    };
    let luma = rgb_luminance;
    let green = r#"{"baseColorFactor":[0.1,0.3,0.1,1],"metallicFactor":0,"roughnessFactor":0.2}"#;
    // A higher index of refraction reflects more.
    let (with, without) = draw("ior", green, r#""KHR_materials_ior":{"ior":2.6}"#);
    assert!(
        luma(with) > luma(without) + 5.0,
        "ior 2.6: {with:?} against {without:?}"
    );
    // A weak, reddish specular reflects less.
    let (with, without) = draw(
        "specular",
        green,
        r#""KHR_materials_specular":{"specularFactor":0.2,"specularColorFactor":[1,0.3,0.3]}"#,
    );
    assert!(
        luma(with) < luma(without) - 3.0,
        "weak specular: {with:?} against {without:?}"
    );
    // An orange sheen on dark blue cloth glows orange at the silhouette.
    let cloth = r#"{"baseColorFactor":[0.05,0.05,0.2,1],"metallicFactor":0,"roughnessFactor":1}"#;
    let (with, without) = draw(
        "sheen",
        cloth,
        r#""KHR_materials_sheen":{"sheenColorFactor":[1,0.6,0.1],"sheenRoughnessFactor":0.4}"#,
    );
    assert!(
        with[0] - with[2] > without[0] - without[2] + 5.0,
        "orange sheen: {with:?} against {without:?}"
    );
    // A glossy clear coat on rough red paint adds a sharp reflection of the studio.
    let paint = r#"{"baseColorFactor":[0.6,0.05,0.05,1],"metallicFactor":0,"roughnessFactor":0.8}"#;
    let (with, without) = draw(
        "clearcoat",
        paint,
        r#""KHR_materials_clearcoat":{"clearcoatFactor":1,"clearcoatRoughnessFactor":0.05}"#,
    );
    assert!(
        (luma(with) - luma(without)).abs() > 3.0,
        "clear coat: {with:?} against {without:?}"
    );
    // Specular-glossiness replaces the metallic-roughness colour: red diffuse, not the blue
    // base colour a reader without it draws.
    let (with, without) = draw(
        "specular-glossiness",
        r#"{"baseColorFactor":[0,0,1,1]}"#,
        r#""KHR_materials_pbrSpecularGlossiness":{"diffuseFactor":[0.8,0.15,0.1,1],"specularFactor":[0.05,0.05,0.05],"glossinessFactor":0.3}"#,
    );
    assert!(
        with[0] > with[2] + 40.0 && without[2] > without[0],
        "{with:?} against {without:?}"
    );
    // A thin film on a dark glossy dielectric reflects in colours: the reflection's hue moves
    // away from the studio's neutral white.
    let dark = r#"{"baseColorFactor":[0.05,0.05,0.05,1],"metallicFactor":0,"roughnessFactor":0.25}"#;
    let (with, without) = draw(
        "iridescence",
        dark,
        r#""KHR_materials_iridescence":{"iridescenceFactor":1,"iridescenceIor":1.8,"iridescenceThicknessMaximum":550}"#,
    );
    assert!(
        chroma(with) > chroma(without) + 4.0,
        "iridescence: {with:?} against {without:?}"
    );
    // Diffuse transmission lets the light behind through in its colour: a white sphere
    // turns green.
    let white = r#"{"baseColorFactor":[0.8,0.8,0.8,1],"metallicFactor":0,"roughnessFactor":0.8}"#;
    let (with, without) = draw(
        "diffuse-transmission",
        white,
        r#""KHR_materials_diffuse_transmission":{"diffuseTransmissionFactor":1,"diffuseTransmissionColorFactor":[0.1,1,0.1]}"#,
    );
    assert!(
        with[1] - with[0] > without[1] - without[0] + 10.0,
        "green diffuse transmission: {with:?} against {without:?}"
    );
    // Anisotropy stretches a smooth metal's highlights into streaks: more of the sphere
    // catches the studio's light boxes.
    let metal = r#"{"baseColorFactor":[0.9,0.9,0.9,1],"metallicFactor":1,"roughnessFactor":0.3}"#;
    let (with, without) = draw(
        "anisotropy",
        metal,
        r#""KHR_materials_anisotropy":{"anisotropyStrength":1,"anisotropyRotation":0.5}"#,
    );
    assert!(
        (luma(with) - luma(without)).abs() > 3.0,
        "anisotropy: {with:?} against {without:?}"
    );
}

#[test]
fn material_extension_values_out_of_range_are_warnings_and_their_textures_are_named() {
    let model = sphere_model(
        "bad-layers",
        r#"{"extensions":{"KHR_materials_sheen":{"sheenColorFactor":[2,0,0],"sheenRoughnessFactor":0.5,"sheenColorTexture":{"index":"first"}},"KHR_materials_clearcoat":{"clearcoatFactor":-1},"KHR_materials_ior":{"ior":0.5},
        "KHR_materials_transmission":{"transmissionFactor":2},"KHR_materials_volume":{"thicknessFactor":-1,"attenuationDistance":0},
        "KHR_materials_dispersion":{"dispersion":-1},"KHR_materials_iridescence":{"iridescenceFactor":1}}}"#,
    );
    let warnings = model.warnings.join("\n");
    for expected in [
        "/materials/0/extensions/KHR_materials_sheen/sheenColorFactor: [2.0, 0.0, 0.0] is not a colour of numbers from 0 to 1",
        "/materials/0/extensions/KHR_materials_clearcoat/clearcoatFactor: -1 is not a number from 0 to 1 (0 used)",
        "/materials/0/extensions/KHR_materials_ior: ior 0.5 is neither 0 nor a number of 1 or more (1.5 used)",
        "/materials/0/extensions/KHR_materials_sheen/sheenColorTexture: invalid type: string \"first\", expected usize",
        "/materials/0/extensions/KHR_materials_transmission/transmissionFactor: 2 is not a number from 0 to 1 (0 used)",
        "/materials/0/extensions/KHR_materials_volume/thicknessFactor: -1 is not a number of 0 or more (0 used)",
        "/materials/0/extensions/KHR_materials_volume/attenuationDistance: 0 is not a number above 0 (no fading used)",
        "/materials/0/extensions/KHR_materials_dispersion/dispersion: -1 is not a number of 0 or more (0 used)",
    ] {
        assert!(warnings.contains(expected), "missing {expected:?} in:\n{warnings}");
    }
    let layers = &model.materials[0].layers;
    assert_eq!((layers.sheen_color, layers.sheen_roughness), (glam::Vec3::ZERO, 0.5));
    assert_eq!((layers.clearcoat, layers.ior), (0.0, 1.5));
    assert_eq!(
        (layers.transmission, layers.thickness, layers.dispersion),
        (0.0, 0.0, 0.0)
    );
    assert_eq!((layers.attenuation_distance, layers.iridescence), (f32::INFINITY, 1.0));
}

#[test]
fn each_material_channel_shows_its_input_as_it_is() {
    // Metallic 0.25 and roughness 0.75 show as the levels 64 and 191 (no exposure, no tone
    // curve), the base colour as authored, alpha 0.5 as 128, no occlusion texture as white,
    // emissive (0, 0.5, 0) as its sRGB encoding (188), whatever the exposure asked for; and the
    // extensions' factors the same way (a volume without a thickness texture is all factor).
    let mut renderer = Renderer::new();
    let model = sphere_model(
        "channels",
        r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,0,0,0.5],"metallicFactor":0.25,"roughnessFactor":0.75},"emissiveFactor":[0,0.5,0],
        "extensions":{"KHR_materials_transmission":{"transmissionFactor":0.5},"KHR_materials_volume":{"thicknessFactor":2},
        "KHR_materials_clearcoat":{"clearcoatFactor":0.25},"KHR_materials_sheen":{"sheenColorFactor":[0,0,0.5]},
        "KHR_materials_iridescence":{"iridescenceFactor":0.75}}}"#,
    );
    let mut centre = |channel: MaterialChannel| -> [u8; 3] {
        let view = ViewOptions {
            channel: Some(channel),
            ..plain(Lighting {
                exposure: 2.0,
                ..Lighting::default()
            })
        };
        let image = renderer.render(&model, &view);
        save(&image, &format!("channel-{}", channel.label()));
        let p = image.get_pixel(SIZE.0 / 2, SIZE.1 / 2).0;
        [p[0], p[1], p[2]]
    };
    let near = |got: [u8; 3], want: [u8; 3]| got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 2);
    for (channel, want) in [
        (MaterialChannel::BaseColor, [255, 0, 0]),
        (MaterialChannel::Alpha, [128, 128, 128]),
        (MaterialChannel::Metallic, [64, 64, 64]),
        (MaterialChannel::Roughness, [191, 191, 191]),
        (MaterialChannel::Occlusion, [255, 255, 255]),
        (MaterialChannel::Emissive, [0, 188, 0]),
        (MaterialChannel::Transmission, [128, 128, 128]),
        (MaterialChannel::Thickness, [255, 255, 255]),
        (MaterialChannel::Clearcoat, [64, 64, 64]),
        (MaterialChannel::Sheen, [0, 0, 188]),
        (MaterialChannel::Iridescence, [191, 191, 191]),
    ] {
        let got = centre(channel);
        assert!(near(got, want), "{}: {got:?}, not {want:?}", channel.label());
    }
    // The normal at the sphere's centre points at the camera: a unit vector as colour, the
    // same before and after the (absent) normal map.
    let geometric = centre(MaterialChannel::GeometricNormal);
    let normal = geometric.map(|c| c as f32 / 255.0 * 2.0 - 1.0);
    let length = normal.iter().map(|c| c * c).sum::<f32>().sqrt();
    assert!((length - 1.0).abs() < 0.05, "a unit normal: {geometric:?}");
    assert!(normal[2] > 0.5, "facing the camera, which looks from +Z: {normal:?}");
    assert!(near(centre(MaterialChannel::ShadingNormal), geometric));
    // The tangent frame: u runs round the sphere towards −X at its front, v down it (−Y); the
    // bitangent points up the texture (−V, +Y), as glTF's normal maps read it; no normal
    // texture reads black.
    let as_vector = |colour: [u8; 3]| colour.map(|c| c as f32 / 255.0 * 2.0 - 1.0);
    let tangent = as_vector(centre(MaterialChannel::Tangent));
    let bitangent = as_vector(centre(MaterialChannel::Bitangent));
    assert!(tangent[0] < -0.5 && bitangent[1] > 0.5, "{tangent:?} {bitangent:?}");
    let dot: f32 = (0..3).map(|i| tangent[i] * bitangent[i]).sum();
    assert!(dot.abs() < 0.15, "perpendicular: {tangent:?} {bitangent:?}");
    assert_eq!(centre(MaterialChannel::NormalTexture), [0, 0, 0]);
    // Texture coordinates: v runs down the sphere (green grows from top to bottom).
    let view = ViewOptions {
        channel: Some(MaterialChannel::TexCoord0),
        ..plain(Lighting::default())
    };
    let image = renderer.render(&model, &view);
    let green = |y: u32| image.get_pixel(SIZE.0 / 2, y)[1];
    assert!(
        green(SIZE.1 / 2 + 60) > green(SIZE.1 / 2 - 60) + 40,
        "v grows downwards"
    );
    // The command line: `render --channel`.
    let out = common::temp_dir("channel-cli").join("metallic.png");
    let args = ["--channel", "metallic", "--no-grid", "--size", "64x64"];
    let written = common::render_png(&model.path, &out, &args);
    assert!(
        near([written.get_pixel(32, 32)[0]; 3], [64; 3]),
        "{:?}",
        written.get_pixel(32, 32)
    );
}

#[test]
fn the_files_brightest_directional_light_casts_the_shadow() {
    // A sphere over a grey floor (the quad turned face up, 3 below it, 8 across), lit by the
    // file's sun shining down and towards −Z (60° below the horizon) and a weaker one
    // shining straight down, the environment dimmed. Seen from above, the floor beyond the
    // sphere's −Z side lies in the strong sun's shadow and the floor on its +Z side does not.
    let lights = r#"{"type":"directional","intensity":0.3}"#;
    let strong = r#"{"type":"directional","intensity":3}"#;
    let strong_placement = r#""rotation":[-0.5,0,0,0.8660254]"#;
    assert_the_light_casts_the_shadow("sun-shadow", &format!("{lights},{strong}"), strong_placement);
}

#[test]
fn a_spot_light_casts_the_shadow_when_it_lights_the_model_most() {
    // The same floor and sphere under a spot light 6 from the sphere, shining at it down and
    // towards −Z as the sun above (300 cd: 8 lux at the sphere, beside the 0.3 lux sun).
    let lights = r#"{"type":"directional","intensity":0.3}"#;
    let spot = r#"{"type":"spot","intensity":300,"spot":{"outerConeAngle":0.6}}"#;
    let placement = r#""translation":[0,5.196152,3],"rotation":[-0.5,0,0,0.8660254]"#;
    assert_the_light_casts_the_shadow("spot-shadow", &format!("{lights},{spot}"), placement);
}

#[test]
fn a_point_light_outside_the_model_casts_the_shadow() {
    // The same floor and sphere under a point light where the spot light was.
    let lights = r#"{"type":"directional","intensity":0.3}"#;
    let point = r#"{"type":"point","intensity":300}"#;
    let placement = r#""translation":[0,5.196152,3]"#;
    assert_the_light_casts_the_shadow("point-shadow", &format!("{lights},{point}"), placement);
}

#[test]
fn the_two_lights_that_light_the_model_most_both_cast_shadows() {
    // Two equal suns, one shining down towards −Z and one towards +Z: the floor beyond the
    // sphere on each side lies in one sun's shadow, the floor to its left and right in none.
    let sun = r#"{"type":"directional","intensity":3}"#;
    let towards_minus_z = r#""rotation":[-0.5,0,0,0.8660254]"#;
    let towards_plus_z = r#""rotation":[-0.8660254,0,0,0.5]"#;
    let image = shadow_scene(
        "two-shadows",
        &format!("{sun},{sun}"),
        &[towards_minus_z, towards_plus_z],
    );
    let at = |x: u32, y: u32| luminance(image.get_pixel(x, y));
    let (behind, before) = (at(100, 75), at(100, 125));
    let (left, right) = (at(75, 100), at(125, 100));
    assert!(
        behind.max(before) < 0.8 * left.min(right),
        "both sides in a shadow: {behind} and {before}, against {left} and {right}"
    );
}

#[test]
fn four_lights_cast_four_shadows() {
    // Four equal suns, shining down towards −Z, +Z, −X and +X: the floor beyond the sphere on
    // each of its sides lies in one sun's shadow, the floor on its diagonals in none.
    let image = shadow_scene("four-shadows", &[FOUR_SUNS_SUN; 4].join(","), &FOUR_SUNS);
    let (sides, lit) = sides_and_diagonals(&image);
    // Each shadow takes one sun of four away: a quarter of the direct light.
    assert!(
        sides.iter().all(|&side| side < 0.92 * lit),
        "every side in a shadow: {sides:?}, against {lit}"
    );
}

/// One of `FOUR_SUNS`.
const FOUR_SUNS_SUN: &str = r#"{"type":"directional","intensity":0.8}"#;
/// Four suns shining down towards −Z, +Z, −X and +X.
const FOUR_SUNS: [&str; 4] = [
    r#""rotation":[-0.5,0,0,0.8660254]"#,
    r#""rotation":[-0.8660254,0,0,0.5]"#,
    // The first two turned a quarter about +Y (towards −X, then +X).
    r#""rotation":[-0.3535534,0.6123724,0.3535534,0.6123724]"#,
    r#""rotation":[-0.6123724,0.3535534,0.6123724,0.3535534]"#,
];

/// In a 200-pixel top view of the shadow scene: the floor beyond the sphere's −Z, +Z, −X and
/// +X sides, and the darkest of the floor on its diagonals, which no sun's shadow reaches.
fn sides_and_diagonals(image: &image::RgbaImage) -> ([f32; 4], f32) {
    let at = |x: u32, y: u32| luminance(image.get_pixel(x, y));
    let sides = [at(100, 75), at(100, 125), at(75, 100), at(125, 100)];
    let diagonals = [at(72, 72), at(128, 72), at(72, 128), at(128, 128)];
    (sides, diagonals.into_iter().fold(f32::MAX, f32::min))
}

#[test]
fn at_fast_quality_only_the_two_brightest_lights_cast_shadows() {
    // The four equal suns at Fast quality, whose shadow map has two layers for the file's
    // lights: the first two suns (the lower slots, on a tie) cast theirs, along Z; the others
    // cast none, along X.
    let path = shadow_scene_file("fast-four-suns", &[FOUR_SUNS_SUN; 4].join(","), &FOUR_SUNS);
    let model = asset::load(&path).unwrap();
    let mut renderer = Renderer::new();
    renderer.scene.set_quality(&renderer.gpu, Quality::Fast);
    let view = plain(Lighting {
        lights: Lights::File,
        environment_intensity: 0.1,
        ..Lighting::default()
    });
    let mut still = StillRenderer::new(&renderer.gpu, &renderer.scene, &model);
    still.viewpoint = Viewpoint::Orbit(ViewPreset::Top.angles());
    still.frame_clip(None);
    let pose = model.skeleton.rest_pose().clone();
    let image = still.render(&mut renderer.scene, &pose, (200, 200), &view).unwrap();
    save(&image, "fast-four-suns");
    let ([minus_z, plus_z, minus_x, plus_x], lit) = sides_and_diagonals(&image);
    assert!(
        minus_z.max(plus_z) < 0.92 * lit && minus_x.min(plus_x) > 0.97 * lit,
        "shadows along Z only: {minus_z} {plus_z} {minus_x} {plus_x}, against {lit}"
    );
}

#[test]
fn a_point_light_inside_the_model_casts_a_shadow() {
    // A point light 3 above the sphere, inside the model's bounds (the floor is 8 across), so
    // its shadow takes six layers (a cube's faces). The sphere's shadow on the floor reaches
    // 2.1 from the middle. Just outside the sphere (1.5 out), the floor is nearer the light
    // than further out (3.5), so it would be lit more: in the shadow it is darker. The dim sun
    // shines straight down.
    let lights = r#"{"type":"directional","intensity":0.3},{"type":"point","intensity":300}"#;
    let straight_down = r#""rotation":[-0.7071068,0,0,0.7071068]"#;
    let image = shadow_scene(
        "inside-point-shadow",
        lights,
        &[straight_down, r#""translation":[0,3,0]"#],
    );
    let at = |x: u32, y: u32| luminance(image.get_pixel(x, y));
    let near = [at(100, 80), at(100, 120), at(80, 100), at(120, 100)];
    let far = [at(100, 55), at(100, 145), at(55, 100), at(145, 100)];
    assert!(
        near.iter().zip(&far).all(|(near, far)| *near < 0.6 * far),
        "a ring of shadow round the sphere: {near:?}, against {far:?} further out"
    );
}

#[test]
fn the_ground_shows_both_shadows() {
    // A sphere alone on the ground under the two suns: the ground beyond it on each side is
    // darker than the ground to its left and right.
    let mut buffers = Buffers::default();
    let ball = buffers.mesh(&sphere());
    let sun = r#"{"type":"directional","intensity":3}"#;
    let path = file(
        "ground-two-shadows",
        &buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_lights_punctual"],
            "extensions":{{"KHR_lights_punctual":{{"lights":[{sun},{sun}]}}}},
            "meshes":[{{"primitives":[{{{ball}}}]}}],
            "nodes":[{{"mesh":0}},
                {{"rotation":[-0.5,0,0,0.8660254],"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}},
                {{"rotation":[-0.8660254,0,0,0.5],"extensions":{{"KHR_lights_punctual":{{"light":1}}}}}}],
            "scenes":[{{"nodes":[0,1,2]}}]"#
        )),
    );
    let out = path.with_file_name("top.png");
    common::succeed(&[
        "render",
        path.to_str().unwrap(),
        "--view",
        "top",
        "--size",
        "200x200",
        "-o",
        out.to_str().unwrap(),
    ]);
    let image = image::open(&out).unwrap().to_rgba8();
    save(&image, "ground-two-shadows");
    // The sphere fills the middle 100 pixels; its shadows fall just beyond it. Mean
    // luminances of 11 × 11 patches there and to its sides (the grid lines cross each alike).
    let at = |x: u32, y: u32| {
        let patch = (x - 5..=x + 5).flat_map(|x| (y - 5..=y + 5).map(move |y| (x, y)));
        patch.map(|(x, y)| luminance(image.get_pixel(x, y))).sum::<f32>() / 121.0
    };
    let (behind, before, left, right) = (at(106, 40), at(106, 160), at(40, 106), at(160, 106));
    assert!(
        behind.max(before) < left.min(right) - 3.0,
        "both shadows on the ground: {behind} and {before}, against {left} and {right}"
    );
}

/// Draws a sphere over a floor lit by `lights` (JSON, two of them: the weak one shines straight
/// down, the other is placed by `placement` so that it shines down and towards −Z, or from
/// above the sphere's +Z side) and checks
/// from above that the floor beyond the sphere's −Z side lies in a shadow and its +Z side
/// does not.
fn assert_the_light_casts_the_shadow(name: &str, lights: &str, placement: &str) {
    let straight_down = r#""rotation":[-0.7071068,0,0,0.7071068]"#;
    let image = shadow_scene(name, lights, &[straight_down, placement]);
    // Along the picture's middle column: the floor on either side of the sphere (13 pixels
    // a unit), 1.9 units from the middle each way.
    let column: Vec<f32> = (0..200).map(|y| luminance(image.get_pixel(100, y))).collect();
    let (near_side, far_side) = (column[100 - 25], column[100 + 25]);
    let (dark, light) = (near_side.min(far_side), near_side.max(far_side));
    assert!(
        dark < 0.6 * light,
        "{name}: one side in the light's shadow: {near_side} and {far_side}"
    );
}

/// The picture from above, 200 pixels square, of a sphere over a floor lit by `lights` (JSON:
/// a light for each of `placements`), the environment dimmed.
fn shadow_scene(name: &str, lights: &str, placements: &[&str]) -> image::RgbaImage {
    let path = shadow_scene_file(name, lights, placements);
    let args = [
        "--view",
        "top",
        "--no-grid",
        "--environment-intensity",
        "0.1",
        "--size",
        "200x200",
    ];
    let image = common::render_png(&path, &path.with_file_name("top.png"), &args);
    save(&image, name);
    image
}

/// The file `shadow_scene` draws.
fn shadow_scene_file(name: &str, lights: &str, placements: &[&str]) -> PathBuf {
    let light_nodes: Vec<String> = (placements.iter().enumerate())
        .map(|(index, placement)| {
            format!(r#"{{{placement},"extensions":{{"KHR_lights_punctual":{{"light":{index}}}}}}}"#)
        })
        .collect();
    let scene_nodes: Vec<String> = (0..placements.len() + 2).map(|n| n.to_string()).collect();
    let mut buffers = Buffers::default();
    let ball = buffers.mesh(&sphere());
    let floor = buffers.mesh(&quad());
    file(
        name,
        &buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_lights_punctual"],
            "extensions":{{"KHR_lights_punctual":{{"lights":[{lights}]}}}},
            "meshes":[{{"primitives":[{{{ball},"material":0}}]}},{{"primitives":[{{{floor},"material":0}}]}}],
            "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[0.3,0.3,0.3,1],"metallicFactor":0,"roughnessFactor":1}}}}],
            "nodes":[{{"mesh":0}},
                {{"mesh":1,"translation":[0,-3,0],"rotation":[-0.7071068,0,0,0.7071068],"scale":[4,4,1]}},
                {light_nodes}],
            "scenes":[{{"nodes":[{scene_nodes}]}}]"#,
            light_nodes = light_nodes.join(","),
            scene_nodes = scene_nodes.join(","),
        )),
    )
}

/// A sphere of `glass` (a material's JSON) in front of a wall of four colours (red, blue, green
/// and yellow quarters, unlit so that their colours read as they are); the wall alone (behind
/// an invisible sphere, so that the view frames the same) when `glass` is None.
fn sphere_before_wall(name: &str, glass: Option<&str>) -> Model {
    let mut buffers = Buffers::default();
    let sphere = buffers.mesh(&sphere());
    let wall = buffers.mesh(&quad());
    let unlit = r#"{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},"extensions":{"KHR_materials_unlit":{}}}"#;
    let invisible = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,0]},"alphaMode":"BLEND"}"#;
    load(
        name,
        &buffers.gltf(&format!(
            r#""extensionsUsed":["KHR_materials_unlit","KHR_materials_transmission","KHR_materials_volume","KHR_materials_dispersion"],
            "images":[{{"uri":"{png}"}}],"samplers":[{{"magFilter":9728}}],"textures":[{{"source":0,"sampler":0}}],
            "materials":[{glass},{unlit}],
            "meshes":[{{"primitives":[{{{sphere},"material":0}}]}},{{"primitives":[{{{wall},"material":1}}]}}],
            "nodes":[{{"mesh":0,"translation":[0.4,0.3,0]}},{{"mesh":1,"translation":[0,0,-2],"scale":[3,3,3]}}],
            "scenes":[{{"nodes":[0,1]}}]"#,
            glass = glass.unwrap_or(invisible),
            png = four_colour_png_uri(),
        )),
    )
}

/// The colours of `image` at the pixels where `mask` is set.
fn masked(image: &image::RgbaImage, mask: &[bool]) -> Vec<[f32; 3]> {
    (image.pixels().zip(mask))
        .filter(|(_, inside)| **inside)
        .map(|(p, _)| [p[0] as f32, p[1] as f32, p[2] as f32])
        .collect()
}

fn mean_of(colours: &[[f32; 3]]) -> [f32; 3] {
    let count = colours.len().max(1) as f32;
    [0, 1, 2].map(|c| colours.iter().map(|p| p[c]).sum::<f32>() / count)
}

#[test]
fn glass_shows_the_scene_behind_refracted_faded_and_blurred() {
    // KHR_materials_transmission, _volume and _dispersion against the same sphere without
    // them, in front of a wall of four colours: clear glass shows the wall's colours where
    // the opaque sphere hides them; a volume bends and fades them; roughness blurs them;
    // dispersion splits their edges into colours. Colours clipped, not tone-mapped, so that
    // each channel reads on its own.
    let mut renderer = Renderer::new();
    let view = plain(Lighting {
        tone_mapping: rigscope::view::ToneMapping::None,
        ..Lighting::default()
    });
    let mut draw = |name: &str, glass: Option<&str>| {
        let model = sphere_before_wall(name, glass);
        assert!(model.warnings.is_empty(), "{name}: {:?}", model.warnings);
        let image = renderer.render(&model, &view);
        save(&image, name);
        image
    };
    let glass = |roughness: f32, extensions: &str| {
        format!(
            r#"{{"pbrMetallicRoughness":{{"metallicFactor":0,"roughnessFactor":{roughness}}},"extensions":{{{extensions}}}}}"#
        )
    };
    let thin = r#""KHR_materials_transmission":{"transmissionFactor":1}"#;
    let wall = draw("glass-wall-alone", None);
    let opaque = draw("glass-opaque", Some(&glass(0.0, "")));
    let clear = draw("glass-clear", Some(&glass(0.0, thin)));
    // The sphere's pixels: where the opaque sphere hides the wall.
    let sphere: Vec<bool> = (opaque.pixels().zip(wall.pixels()))
        .map(|(p, q)| (0..3).map(|c| p[c].abs_diff(q[c]) as u32).sum::<u32>() > 60)
        .collect();
    let covered = sphere.iter().filter(|inside| **inside).count();
    assert!(covered > 1200, "the sphere covers {covered} pixels");
    let mean_chroma = |colours: &[[f32; 3]]| {
        let sum: f32 = colours
            .iter()
            .map(|[r, g, b]| r.max(*g).max(*b) - r.min(*g).min(*b))
            .sum();
        sum / colours.len().max(1) as f32
    };
    let (behind, hidden, seen) = (
        mean_chroma(&masked(&wall, &sphere)),
        mean_chroma(&masked(&opaque, &sphere)),
        mean_chroma(&masked(&clear, &sphere)),
    );
    assert!(
        hidden < 40.0 && seen > 0.6 * behind,
        "the wall's colours (chroma {behind}) hidden by the opaque sphere ({hidden}), seen through clear glass ({seen})"
    );
    // The transmission texture's red channel (the wall's four colours again: half of them
    // red) lets light through half of the sphere.
    let textured = r#""KHR_materials_transmission":{"transmissionFactor":1,"transmissionTexture":{"index":0}}"#;
    let partly = mean_chroma(&masked(&draw("glass-textured", Some(&glass(0.0, textured))), &sphere));
    assert!(
        hidden + 10.0 < partly && partly + 10.0 < seen,
        "a transmission texture: chroma {partly} between {hidden} and {seen}"
    );
    // A volume bends the rays through it: the wall shows elsewhere behind the sphere.
    let thick = format!(r#"{thin},"KHR_materials_volume":{{"thicknessFactor":2}}"#);
    let bent = draw("glass-thick", Some(&glass(0.0, &thick)));
    let moved = mean_difference(&bent, &clear);
    assert!(moved > 1.0, "a volume 2 thick moves the picture by {moved} levels");
    // A blue-tinted volume fades red and green and keeps blue: the same rays, faded (the red
    // behind the sphere is little beside the reflection's, which no volume fades).
    let volume = format!(
        r#"{thin},"KHR_materials_volume":{{"thicknessFactor":2,"attenuationDistance":0.5,"attenuationColor":[0.3,0.5,1]}}"#
    );
    let tinted = draw("glass-volume", Some(&glass(0.0, &volume)));
    let ([r0, g0, b0], [r1, g1, b1]) = (mean_of(&masked(&bent, &sphere)), mean_of(&masked(&tinted, &sphere)));
    assert!(
        r1 < r0 && g1 < g0 * 0.5 && (b1 - b0).abs() < 2.0,
        "a blue volume: {:?} against a clear one {:?}",
        [r1, g1, b1],
        [r0, g0, b0]
    );
    // Roughness blurs the wall's edges: neighbouring pixels differ less.
    let sharpness = |image: &image::RgbaImage| {
        let width = image.width() as usize;
        let mut sum = 0.0;
        for (index, _) in sphere
            .iter()
            .enumerate()
            .filter(|(i, inside)| **inside && sphere[i + 1])
        {
            let (x, y) = ((index % width) as u32, (index / width) as u32);
            let (p, q) = (image.get_pixel(x, y), image.get_pixel(x + 1, y));
            sum += (0..3).map(|c| p[c].abs_diff(q[c]) as f32).sum::<f32>();
        }
        sum
    };
    let rough = draw("glass-rough", Some(&glass(0.5, thin)));
    assert!(
        sharpness(&rough) < sharpness(&clear) * 0.6,
        "rough glass blurs: {} against {}",
        sharpness(&rough),
        sharpness(&clear)
    );
    // Dispersion bends each colour by its own amount: the picture changes at the edges.
    let dispersing = format!(r#"{thick},"KHR_materials_dispersion":{{"dispersion":10}}"#);
    let split = draw("glass-dispersion", Some(&glass(0.0, &dispersing)));
    let (split, bent) = (masked(&split, &sphere), masked(&bent, &sphere));
    let difference: f32 = (split.iter().zip(&bent))
        .map(|(p, q)| (0..3).map(|c| (p[c] - q[c]).abs()).sum::<f32>() / 3.0)
        .sum::<f32>()
        / covered as f32;
    assert!(difference > 3.0, "dispersion changes the sphere by {difference} levels");
}

/// A sphere of `material` (JSON), whose textures may use texture 0: the four-colour image.
fn textured_sphere(name: &str, material: &str) -> Model {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&sphere());
    four_colour_textured(name, &buffers, &primitive, material, r#"{"magFilter":9728}"#, "")
}

#[test]
fn the_layers_textures_scale_their_factors() {
    // Each extension's texture over its factor, against the factor alone: the four-colour
    // image (red, blue, green and yellow quarters) tints a white sheen and a white specular
    // colour, and its red channel (one in half the quarters) takes half the clear coat away.
    let mut renderer = Renderer::new();
    let view = plain(Lighting::default());
    let mut draw = |name: &str, pbr: &str, extension: &str| {
        let model = textured_sphere(
            name,
            &format!(r#"{{"pbrMetallicRoughness":{pbr},"extensions":{{{extension}}}}}"#),
        );
        assert!(model.warnings.is_empty(), "{name}: {:?}", model.warnings);
        let image = renderer.render(&model, &view);
        save(&image, name);
        mean_colour_of_model(&image)
    };
    let cloth = r#"{"baseColorFactor":[0.05,0.05,0.05,1],"metallicFactor":0,"roughnessFactor":1}"#;
    let white_sheen = r#""KHR_materials_sheen":{"sheenColorFactor":[1,1,1],"sheenRoughnessFactor":0.4"#;
    let plain_sheen = draw("sheen-white", cloth, &format!("{white_sheen}}}"));
    let tinted_sheen = draw(
        "sheen-texture",
        cloth,
        &format!(r#"{white_sheen},"sheenColorTexture":{{"index":0}}}}"#),
    );
    assert!(
        (0..3).any(|c| (tinted_sheen[c] - plain_sheen[c]).abs() > 3.0),
        "a sheen colour texture: {tinted_sheen:?} against {plain_sheen:?}"
    );
    let paint = r#"{"baseColorFactor":[0.6,0.05,0.05,1],"metallicFactor":0,"roughnessFactor":0.8}"#;
    let coat = r#""KHR_materials_clearcoat":{"clearcoatFactor":1,"clearcoatRoughnessFactor":0.05"#;
    let no_coat = draw("coat-none", paint, r#""KHR_materials_clearcoat":{"clearcoatFactor":0}"#);
    let full_coat = draw("coat-full", paint, &format!("{coat}}}"));
    let half_coat = draw(
        "coat-texture",
        paint,
        &format!(r#"{coat},"clearcoatTexture":{{"index":0}}}}"#),
    );
    let between = |a: f32, x: f32, b: f32| (a.min(b) + 1.0..a.max(b) - 1.0).contains(&x);
    let luma = rgb_luminance;
    assert!(
        between(luma(no_coat), luma(half_coat), luma(full_coat)),
        "half a coat: {half_coat:?} between {no_coat:?} and {full_coat:?}"
    );
    let glossy = r#"{"baseColorFactor":[0.02,0.02,0.02,1],"metallicFactor":0,"roughnessFactor":0.2}"#;
    let specular = r#""KHR_materials_specular":{"specularColorFactor":[1,1,1]"#;
    let white = draw("specular-white", glossy, &format!("{specular}}}"));
    let tinted = draw(
        "specular-texture",
        glossy,
        &format!(r#"{specular},"specularColorTexture":{{"index":0}}}}"#),
    );
    assert!(
        chroma(tinted) > chroma(white) + 3.0,
        "a specular colour texture tints the reflection: {tinted:?} against {white:?}"
    );

    // Six layer textures on one material: five are drawn, the sixth is named in a note.
    let every = r#"{"extensions":{
        "KHR_materials_sheen":{"sheenColorFactor":[1,1,1],"sheenColorTexture":{"index":0},"sheenRoughnessTexture":{"index":0}},
        "KHR_materials_clearcoat":{"clearcoatFactor":1,"clearcoatTexture":{"index":0},"clearcoatRoughnessTexture":{"index":0},"clearcoatNormalTexture":{"index":0}},
        "KHR_materials_specular":{"specularTexture":{"index":0}}}}"#;
    let model = textured_sphere("six-layer-textures", every);
    let still = StillRenderer::new(&renderer.gpu, &renderer.scene, &model);
    let notes = still.notes().join("\n");
    assert!(
        notes.contains(
            "6 extension textures, of which rigscope draws the first 5 (specularTexture drawn with their factors alone)"
        ),
        "{notes}"
    );
    let image = renderer.render(&model, &view);
    assert!(mean_colour_of_model(&image)[0] > 0.0, "it draws");
}

/// A quad facing the camera whose material is `material` (JSON), texture 0 a one-texel black
/// and white checkerboard of 64² (alpha and every colour channel alike) repeated 32 times
/// across: about ten texels a pixel, which only a mip-mapped texture reads as their mean.
fn fine_checkerboard_quad(name: &str, material: &str) -> Model {
    let checkerboard = image::RgbaImage::from_fn(64, 64, |x, y| {
        let level = if (x + y) % 2 == 0 { 0 } else { 255 };
        image::Rgba([level, level, level, 255])
    });
    let mut png = Vec::new();
    (checkerboard.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)).unwrap();
    let uri = common::data_uri(&png).replace("octet-stream", "png");
    let mut buffers = Buffers::default();
    let mut mesh = quad();
    mesh.uvs.iter_mut().for_each(|uv| *uv *= 32.0);
    let primitive = buffers.mesh(&mesh);
    // Linear within and between levels (three.js's default for a glTF texture).
    let sampler = r#"{"magFilter":9729,"minFilter":9987}"#;
    load(
        name,
        &buffers.gltf(&format!(
            r#""images":[{{"uri":"{uri}"}}],"samplers":[{sampler}],"textures":[{{"source":0,"sampler":0}}],
            "materials":[{material}],"meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],
            "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    )
}

/// The grey levels (red channel) of the middle half of the model's bounds across and down,
/// where the model is everything unlike the top-left pixel (the background).
fn middle_of_model(image: &image::RgbaImage) -> Vec<u8> {
    let background = image.get_pixel(0, 0).0;
    let drawn = image
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0.iter().zip(background).any(|(a, b)| a.abs_diff(b) > 12));
    let (mut min, mut max) = ((u32::MAX, u32::MAX), (0, 0));
    for (x, y, _) in drawn {
        min = (min.0.min(x), min.1.min(y));
        max = (max.0.max(x), max.1.max(y));
    }
    let (width, height) = (max.0.saturating_sub(min.0), max.1.saturating_sub(min.1));
    let (xs, ys) = (
        min.0 + width / 4..max.0 - width / 4,
        min.1 + height / 4..max.1 - height / 4,
    );
    ys.flat_map(|y| xs.clone().map(move |x| image.get_pixel(x, y)[0]))
        .collect()
}

#[test]
fn the_layers_textures_are_mip_mapped_as_the_base_colour_is() {
    // A checkerboard far finer than the pixels, in the default view: a mip-mapped texture reads as
    // its texels' mean everywhere, black and white in equal parts: 0.5 in linear light, sRGB
    // 188, for the colour textures (base colour, sheen colour), 0.5 shown as level 128 for the
    // data ones (clear coat). Read from the first level alone it would alias, each pixel's
    // sample somewhere between black and white, in moiré bands.
    let mut renderer = Renderer::new();
    for (name, material, channel, mean) in [
        (
            "fine-base-colour",
            r#"{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}"#,
            MaterialChannel::BaseColor,
            188,
        ),
        (
            "fine-sheen-colour",
            r#"{"extensions":{"KHR_materials_sheen":{"sheenColorFactor":[1,1,1],"sheenColorTexture":{"index":0}}}}"#,
            MaterialChannel::Sheen,
            188,
        ),
        (
            "fine-clearcoat",
            r#"{"extensions":{"KHR_materials_clearcoat":{"clearcoatFactor":1,"clearcoatTexture":{"index":0}}}}"#,
            MaterialChannel::Clearcoat,
            128,
        ),
    ] {
        let model = fine_checkerboard_quad(name, material);
        assert!(model.warnings.is_empty(), "{name}: {:?}", model.warnings);
        let view = ViewOptions {
            channel: Some(channel),
            ..plain(Lighting::default())
        };
        let image = renderer.render(&model, &view);
        save(&image, name);
        let levels = middle_of_model(&image);
        assert!(levels.len() > 1000, "{name}: the quad covers {} pixels", levels.len());
        let average = levels.iter().map(|&l| f32::from(l)).sum::<f32>() / levels.len() as f32;
        let far = levels.iter().filter(|&&l| l.abs_diff(mean) > 4).count();
        assert!(
            (average - f32::from(mean)).abs() <= 2.0 && far == 0,
            "{name}: mean {average:.1} against {mean}, {far} of {} pixels more than 4 levels off",
            levels.len()
        );
    }
}

#[test]
fn the_studio_key_light_shades_the_ground_beyond_the_model() {
    // A sphere alone on the ground under the studio's lights: the key light shines from +X, +Y
    // and +Z, so the ground on the sphere's −X −Z diagonal lies in its shadow and the ground
    // on the other diagonals does not. The ground's shadow is looked up only in a rectangle
    // around it (view::ground_shadow): this fails if the rectangle misses it.
    let mut buffers = Buffers::default();
    let ball = buffers.mesh(&sphere());
    let path = file(
        "studio-ground-shadow",
        &buffers.gltf(&format!(
            r#""meshes":[{{"primitives":[{{{ball}}}]}}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
        )),
    );
    let image = common::render_png(
        &path,
        &path.with_file_name("top.png"),
        &["--view", "top", "--size", "200x200"],
    );
    save(&image, "studio-ground-shadow");
    let at = |x: u32, y: u32| {
        let patch = (x - 5..=x + 5).flat_map(|x| (y - 5..=y + 5).map(move |y| (x, y)));
        patch.map(|(x, y)| luminance(image.get_pixel(x, y))).sum::<f32>() / 121.0
    };
    let (shaded, others) = (at(55, 55), [at(145, 55), at(55, 145), at(145, 145)]);
    assert!(
        others.iter().all(|other| shaded < other - 3.0),
        "the ground beyond the sphere's −X −Z side ({shaded}) against the other diagonals ({others:?})"
    );
}

#[test]
fn the_shadow_map_is_kept_while_the_casters_stay_and_follows_a_new_pose() {
    // The demo rig upright (A) and bent (B), drawn one after another by one renderer, which
    // draws its shadow map again only when what casts into it changes
    // (render/shadow_casters.rs): each picture is the one a fresh renderer draws.
    let model = demo_model();
    let upright = model.skeleton.rest_pose().clone();
    let mut bent = upright.clone();
    bent.local_mut()[1].rotation = glam::Quat::from_rotation_z(1.0);
    let view = ViewOptions::default();
    let fresh = |pose: &Pose| {
        let mut renderer = Renderer::new();
        let mut still = StillRenderer::new(&renderer.gpu, &renderer.scene, &model);
        still.frame_clip(None);
        still.render(&mut renderer.scene, pose, SIZE, &view).unwrap()
    };
    let (fresh_upright, fresh_bent) = (fresh(&upright), fresh(&bent));
    save(&fresh_bent, "shadow-kept-bent");
    let mut renderer = Renderer::new();
    let mut still = StillRenderer::new(&renderer.gpu, &renderer.scene, &model);
    still.frame_clip(None);
    let mut draw = |pose: &Pose| still.render(&mut renderer.scene, pose, SIZE, &view).unwrap();
    let drawn = [draw(&upright), draw(&upright), draw(&bent), draw(&bent), draw(&upright)];
    let expected = [&fresh_upright, &fresh_upright, &fresh_bent, &fresh_bent, &fresh_upright];
    for (index, (drawn, expected)) in drawn.iter().zip(expected).enumerate() {
        let differing = drawn.pixels().zip(expected.pixels()).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "picture {index} differs from a fresh renderer's");
    }
    // The bent rig's shadow lies elsewhere on the ground: a map kept from the upright pose
    // would show.
    assert!(mean_difference(&fresh_upright, &fresh_bent) > 1.0);
}
