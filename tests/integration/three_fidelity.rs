//! The picture against three.js's under the same light: spheres and cubes the test writes, lit
//! only by three.js's RoomEnvironment, drawn through the default view, and their mean sRGB
//! level set beside the numbers three.js r187 drew for the same files (../shared/peer-three's
//! `render.mjs`, Neutral tone mapping; tools/fidelity/spheres.py writes the same spheres and
//! cubes).
//!
//! `data/three-room-environment.hdr` is three.js's RoomEnvironment (MIT) as
//! `room-hdr.mjs` writes it, averaged down to 128 × 64 texels by solid angle (32 KiB): the
//! spheres' means under it are those under the full 1024 × 512 image to 0.4 levels.

use std::sync::atomic::{AtomicUsize, Ordering};

use rigscope::anim::Pose;
use rigscope::cli::render::render_image;
use rigscope::render::{Environment, EnvironmentImage};
use rigscope::view::{Lighting, Lights, MaterialChannel};

use crate::common;
use crate::picture::{Buffers, MeshData, Renderer, SIZE, cube, file, inside_out_sphere, plain, save, sphere};

/// The room the spheres are lit by, written where the test can read it as a user's `.hdr`: in a
/// folder of each call's own, since the tests run at once and `temp_dir` empties its folder.
fn room_environment() -> EnvironmentImage {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let folder = format!("three-room-{}", CALLS.fetch_add(1, Ordering::Relaxed));
    let path = common::temp_dir(&folder).join("room.hdr");
    std::fs::write(&path, include_bytes!("data/three-room-environment.hdr")).unwrap();
    EnvironmentImage::read(&path).unwrap()
}

/// A renderer lit by the room alone.
fn room_renderer() -> Renderer {
    let mut renderer = Renderer::new();
    renderer.scene.set_environment(
        &renderer.gpu,
        Environment::from_image(&renderer.gpu, &renderer.scene.layouts, &room_environment()),
    );
    renderer
}

/// The pixels inside the sphere's outline (`inside`), from a white dielectric of roughness 0.5.
fn sphere_outline(renderer: &mut Renderer) -> Vec<bool> {
    let white = r#"{"pbrMetallicRoughness":{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":0.5}}"#;
    inside(&render_sphere(renderer, "three-outline", white))
}

/// Each picture's difference from three.js's level beside its tolerance; the assertion fails
/// on any beyond it and lists them all.
#[derive(Default)]
struct Differences {
    lines: Vec<String>,
    worst_excess: f32,
}

impl Differences {
    fn add(&mut self, name: &str, difference: f32, tolerance: f32) {
        self.lines
            .push(format!("{name}: {difference:+.1} (within {tolerance})"));
        self.worst_excess = self.worst_excess.max(difference.abs() - tolerance);
    }

    fn assert_within(&self) {
        assert!(self.worst_excess <= 0.0, "{}", self.lines.join("\n"));
    }
}

/// The sphere of `material` (JSON) rendered as `rigscope render FILE --environment room.hdr
/// --lights file --no-grid --size 320x240` draws it.
fn render_sphere(renderer: &mut Renderer, name: &str, material: &str) -> image::RgbaImage {
    render_mesh(renderer, name, &sphere(), material, None)
}

/// `mesh` with `material` (JSON) rendered as `rigscope render FILE --environment room.hdr
/// --lights file --no-grid --size 320x240 [--channel CHANNEL]` draws it.
fn render_mesh(
    renderer: &mut Renderer,
    name: &str,
    mesh: &MeshData,
    material: &str,
    channel: Option<MaterialChannel>,
) -> image::RgbaImage {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(mesh);
    let json = buffers.gltf(&format!(
        r#""meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{material}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]"#
    ));
    render_gltf(renderer, name, &json, channel)
}

/// The glTF file `json` rendered as `render_mesh` renders its mesh.
fn render_gltf(renderer: &mut Renderer, name: &str, json: &str, channel: Option<MaterialChannel>) -> image::RgbaImage {
    let model = rigscope::asset::load(&file(name, json)).unwrap();
    let pose: Pose = model.skeleton.rest_pose().clone();
    let mut view = plain(Lighting {
        lights: Lights::File,
        ..Lighting::default()
    });
    view.channel = channel;
    let image = render_image(&renderer.gpu, &mut renderer.scene, &model, &pose, None, SIZE, &view).unwrap();
    save(&image, name);
    image
}

/// The pixels inside the sphere's outline, 2 pixels in (as peer-three's interior-diff.py
/// shrinks it): those that differ from the background (the corner) in a bright sphere's picture.
fn inside(bright: &image::RgbaImage) -> Vec<bool> {
    let corner = bright.get_pixel(0, 0);
    let mask = bright
        .pixels()
        .map(|p| (0..3).any(|c| (p[c] as i32 - corner[c] as i32).abs() > 8))
        .collect();
    shrunk(mask, bright.dimensions())
}

/// `mask` (of an image of `width` × `height`) without the pixels within 2 of its edge.
fn shrunk(mut mask: Vec<bool>, (width, height): (u32, u32)) -> Vec<bool> {
    for _ in 0..2 {
        let at = |mask: &[bool], x: i64, y: i64| {
            (0..width as i64).contains(&x) && (0..height as i64).contains(&y) && mask[(y * width as i64 + x) as usize]
        };
        mask = (0..(width * height) as i64)
            .map(|i| {
                let (x, y) = (i % width as i64, i / width as i64);
                at(&mask, x, y)
                    && at(&mask, x - 1, y)
                    && at(&mask, x + 1, y)
                    && at(&mask, x, y - 1)
                    && at(&mask, x, y + 1)
            })
            .collect();
    }
    mask
}

/// The mean sRGB level (0-255, over R, G and B) of `image` where `mask` holds.
fn mean_level(image: &image::RgbaImage, mask: &[bool]) -> f32 {
    let (sum, count) = image
        .pixels()
        .zip(mask)
        .filter(|(_, inside)| **inside)
        .fold((0.0, 0usize), |(sum, count), (p, _)| {
            (sum + (p[0] as f32 + p[1] as f32 + p[2] as f32) / 3.0, count + 1)
        });
    sum / count.max(1) as f32
}

#[test]
fn spheres_under_three_js_room_read_as_three_js_draws_them() {
    // three.js r187's mean level inside each sphere (its white dielectric's outline, 2 pixels
    // in) at roughness 0, 0.25, 0.5, 0.75 and 1: white (1, 1, 1) and grey (0.18) base colour,
    // metallic 0 then 1. Before the environment's mip chain was weighted by solid angle, its
    // rough levels integrated and the split-sum table made as three.js's, the grey dielectric
    // was 3-7 levels brighter and the grey metal up to 19.
    let three_js: [(&str, f32, f32, [f32; 5]); 4] = [
        ("white", 1.0, 0.0, [246.4, 246.5, 246.7, 246.9, 247.1]),
        ("grey", 0.18, 0.0, [142.1, 143.9, 143.3, 141.4, 140.6]),
        ("white", 1.0, 1.0, [175.7, 200.6, 229.7, 242.1, 247.1]),
        ("grey", 0.18, 1.0, [74.1, 91.9, 103.5, 95.6, 87.3]),
    ];
    let mut renderer = room_renderer();
    let material = |colour: f32, metallic: f32, roughness: f32| {
        format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[{colour},{colour},{colour},1],"metallicFactor":{metallic},"roughnessFactor":{roughness}}}}}"#
        )
    };
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (name, colour, metallic, levels) in three_js {
        for (roughness, three_js_level) in [0.0, 0.25, 0.5, 0.75, 1.0].into_iter().zip(levels) {
            let file_name = format!("three-{name}-m{metallic}-r{roughness}");
            let image = render_sphere(&mut renderer, &file_name, &material(colour, metallic, roughness));
            let difference = mean_level(&image, &outline) - three_js_level;
            // A metal mirror reflects the room's lights at their full sharpness here, where
            // three.js blurs its sharpest level (σ = 0.04 rad) and draws no roughness under
            // 0.045 plus the normal's change across a pixel: 4 levels there; 2.5 for the other
            // metals (the levels between its prefiltered roughnesses are mixed differently).
            let tolerance = match (metallic, roughness) {
                (0.0, _) => 2.0,
                (_, 0.0) => 4.0,
                _ => 2.5,
            };
            differences.add(&file_name, difference, tolerance);
        }
    }
    differences.assert_within();
}

/// The pixels of each face the view sees of `cube()` (+X, +Y and +Z), 2 pixels in from the
/// face's edges: where the geometric-normal view shows that face's normal.
fn visible_faces(normals: &image::RgbaImage) -> [Vec<bool>; 3] {
    // The normal's colour: (n + 1) / 2 for each component.
    let colours: [[u8; 3]; 3] = [[255, 128, 128], [128, 255, 128], [128, 128, 255]];
    colours.map(|colour| {
        let face = normals
            .pixels()
            .map(|p| (0..3).all(|c| (p[c] as i32 - colour[c] as i32).abs() <= 2))
            .collect();
        shrunk(face, normals.dimensions())
    })
}

#[test]
fn flat_greys_under_three_js_room_read_as_three_js_draws_them() {
    // three.js r187's mean level on the +X, +Y and +Z faces of a cube of flat grey (0.05, 0.25,
    // 0.6), lit (metallic 0, roughness 1) and unlit (KHR_materials_unlit). While the diffuse
    // light was the environment's nine spherical harmonics, which spread the room's bright
    // panels over the sphere, the lit +Z face was 2.6-3.7 levels too bright and the +X face up
    // to 4.6: rigscope 1.5-3 levels above three.js on files of flat colours.
    let three_js: [(&str, f32, [f32; 3]); 6] = [
        ("lit", 0.05, [51.3, 104.4, 75.3]),
        ("lit", 0.25, [125.8, 177.9, 170.0]),
        ("lit", 0.6, [190.0, 240.0, 240.0]),
        ("unlit", 0.05, [34.0, 34.0, 34.0]),
        ("unlit", 0.25, [126.0, 126.0, 126.0]),
        ("unlit", 0.6, [197.0, 197.0, 197.0]),
    ];
    // three.js lights the +X face from its roughest level of 8 texels a side, read between
    // four texels 7° off the face's normal where the room's light changes fast: 4% above the
    // cosine integral there. rigscope's 16 texels are within 1.5% of it, so 2-3 levels darker.
    let tolerances = [3.5, 2.0, 2.0];
    let mut renderer = room_renderer();
    let faces = visible_faces(&render_mesh(
        &mut renderer,
        "three-cube-normals",
        &cube(),
        "{}",
        Some(MaterialChannel::GeometricNormal),
    ));
    let mut differences = Differences::default();
    for (kind, grey, levels) in three_js {
        let extensions = match kind {
            "unlit" => r#","extensions":{"KHR_materials_unlit":{}}"#,
            _ => "",
        };
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[{grey},{grey},{grey},1],"metallicFactor":0,"roughnessFactor":1}}{extensions}}}"#
        );
        let name = format!("three-cube-{kind}-{grey}");
        let image = render_mesh(&mut renderer, &name, &cube(), &material, None);
        for (((face, mask), three_js_level), tolerance) in
            ["+X", "+Y", "+Z"].into_iter().zip(&faces).zip(levels).zip(tolerances)
        {
            let difference = mean_level(&image, mask) - three_js_level;
            differences.add(&format!("{name} {face}"), difference, tolerance);
        }
    }
    differences.assert_within();
}

#[test]
fn smooth_and_part_metal_spheres_read_as_three_js_draws_them() {
    // three.js r187's mean level inside the white dielectric's outline (as above), measured the
    // same way, and how far from it each may be. With four specular levels (roughness 0, 1/3,
    // 2/3 and 1, read linearly) a roughness-0.1 metal mixed the mirror with a lobe three times
    // as wide and read 6-12 levels brighter; with the multiple scattering taken of the mixed
    // F0 of the dielectric and the metal (not of each, mixed by metallic), the half-metal read
    // 1.6 darker.
    // Base colour (grey), metallic, roughness, KHR_materials_anisotropy's strength (0: none).
    let three_js = [
        ("white-m1-r0.1", 1.0, 1.0, 0.1, 0.0, 179.0, 2.5),
        ("grey-m1-r0.1", 0.18, 1.0, 0.1, 0.0, 76.5, 2.5),
        ("white-m0.5-r0.5", 1.0, 0.5, 0.5, 0.0, 242.8, 1.0),
        ("white-m1-r0.1-anisotropic", 1.0, 1.0, 0.1, 1.0, 184.0, 2.5),
    ];
    let mut renderer = room_renderer();
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (name, colour, metallic, roughness, anisotropy, three_js_level, tolerance) in three_js {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[{colour},{colour},{colour},1],"metallicFactor":{metallic},"roughnessFactor":{roughness}}},"extensions":{{"KHR_materials_anisotropy":{{"anisotropyStrength":{anisotropy}}}}}}}"#
        );
        let image = render_sphere(&mut renderer, &format!("three-{name}"), &material);
        differences.add(name, mean_level(&image, &outline) - three_js_level, tolerance);
    }
    differences.assert_within();
}

#[test]
fn spheres_under_a_file_light_read_as_three_js_draws_them() {
    // three.js r187's mean level inside the white dielectric's outline (as above) with the
    // file's directional light of 6 lux shining from the camera's side, 30° down, as well as
    // the room. When the diffuse layer gave way to the reflection of the dielectric and the
    // metal mixed (not to the dielectric's alone, as glTF's fresnel_mix has it) and the
    // highlights lacked the light their microfacets scatter more than once (three.js's
    // `multiScatteringCompensation`), the half-metal read 3.7 darker and the metal 0.8.
    let three_js = [
        ("lit-grey-m0-r0.5", 0.18, 0.0, 187.9),
        ("lit-grey-m1-r0.5", 0.18, 1.0, 125.0),
        ("lit-half-m0.5-r0.5", 0.5, 0.5, 230.4),
    ];
    let mut renderer = room_renderer();
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (name, colour, metallic, three_js_level) in three_js {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[{colour},{colour},{colour},1],"metallicFactor":{metallic},"roughnessFactor":0.5}}}}"#
        );
        let image = render_lit_sphere(&mut renderer, name, &material);
        differences.add(name, mean_level(&image, &outline) - three_js_level, 1.5);
    }
    differences.assert_within();
}

/// The sphere of `material` (JSON) under the room and the file's directional light of 6 lux
/// shining from the camera's side, 30° down, rendered as `render_mesh` renders its mesh.
fn render_lit_sphere(renderer: &mut Renderer, name: &str, material: &str) -> image::RgbaImage {
    let mut buffers = Buffers::default();
    let primitive = buffers.mesh(&sphere());
    let json = buffers.gltf(&format!(
        r#""extensionsUsed":["KHR_lights_punctual"],"extensions":{{"KHR_lights_punctual":{{"lights":[{{"type":"directional","intensity":6}}]}}}},"meshes":[{{"primitives":[{{{primitive},"material":0}}]}}],"materials":[{material}],"nodes":[{{"mesh":0}},{{"rotation":[-0.258819,0,0,0.965926],"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}}],"scenes":[{{"nodes":[0,1]}}]"#
    ));
    render_gltf(renderer, name, &json, None)
}

#[test]
fn sheen_spheres_read_as_three_js_draws_them() {
    // three.js r187's mean level inside the white dielectric's outline (as above) of a
    // dielectric sphere (roughness 0.5) of grey (0.18) or light grey (0.8) under a white sheen
    // (KHR_materials_sheen) of roughness 0, 0.3 and 0.7. While the environment lit the sheen by
    // an earlier fit of its albedo and the layer under it was dimmed by a fixed 0.157 (not by
    // that albedo, as three.js's `sheenEnergyComp`), the grey spheres read 10-16 levels darker
    // and the light grey 2-5.
    let three_js = [
        ("grey", 0.18, 0.0, 143.6),
        ("grey", 0.18, 0.3, 156.1),
        ("grey", 0.18, 0.7, 179.8),
        ("light", 0.8, 0.0, 242.3),
        ("light", 0.8, 0.3, 242.8),
        ("light", 0.8, 0.7, 243.5),
    ];
    let mut renderer = room_renderer();
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (name, grey, roughness, three_js_level) in three_js {
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[{grey},{grey},{grey},1],"metallicFactor":0,"roughnessFactor":0.5}},"extensions":{{"KHR_materials_sheen":{{"sheenColorFactor":[1,1,1],"sheenRoughnessFactor":{roughness}}}}}}}"#
        );
        let file_name = format!("three-sheen-{name}-r{roughness}");
        let image = render_sphere(&mut renderer, &file_name, &material);
        differences.add(&file_name, mean_level(&image, &outline) - three_js_level, 1.0);
    }
    differences.assert_within();
}

#[test]
fn anisotropic_spheres_read_as_three_js_draws_them_from_either_side() {
    // three.js r187's mean level inside the white dielectric's outline (as above) of a white
    // metal sphere of roughness 0.3 with KHR_materials_anisotropy's strength 0.5 or 1, turned
    // by 0 or 45°; and of the same sphere turned inside out (normals in, triangles wound the
    // other way) and double-sided, so that its outside is drawn as back faces, which three.js
    // draws alike. While a back face's anisotropy took the frame of its flipped normal (whose
    // bitangent alone turns over), the direction was mirrored there: the inside-out sphere
    // turned by 45° read 9.7 levels darker, and 40 levels off a pixel on average.
    let three_js = [
        (0.5, 0.0, 218.7),
        (0.5, 45.0, 219.4),
        (1.0, 0.0, 217.3),
        (1.0, 45.0, 221.2),
    ];
    let mut renderer = room_renderer();
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (strength, degrees, three_js_level) in three_js {
        let rotation = f32::to_radians(degrees);
        for (side, mesh, double_sided) in [("", sphere(), false), ("inside-out-", inside_out_sphere(), true)] {
            let material = format!(
                r#"{{"doubleSided":{double_sided},"pbrMetallicRoughness":{{"baseColorFactor":[1,1,1,1],"metallicFactor":1,"roughnessFactor":0.3}},"extensions":{{"KHR_materials_anisotropy":{{"anisotropyStrength":{strength},"anisotropyRotation":{rotation}}}}}}}"#
            );
            let name = format!("three-{side}anisotropic-s{strength}-rot{degrees}");
            let image = render_mesh(&mut renderer, &name, &mesh, &material, None);
            differences.add(&name, mean_level(&image, &outline) - three_js_level, 1.0);
        }
    }
    differences.assert_within();
}

#[test]
fn anisotropic_spheres_under_a_file_light_read_as_three_js_draws_them() {
    // three.js r187's mean level inside the white dielectric's outline (as above) of a half-grey
    // metal sphere with KHR_materials_anisotropy under the file's light (as above): roughness,
    // strength, rotation in degrees. While the anisotropic visibility was held under 1 (as the
    // Sample Viewer holds it; three.js does not), the highlight dimmed towards the outline: the
    // sphere of strength 0.5 turned by 45° read 1.5 levels darker (1.1 without the hold; the
    // turned spheres' streaks lie a little apart from three.js's, as they do under the room).
    let three_js = [
        (0.1, 1.0, 0.0, 140.2),
        (0.3, 1.0, 0.0, 180.8),
        (0.3, 1.0, 45.0, 184.7),
        (0.3, 0.5, 45.0, 183.2),
    ];
    let mut renderer = room_renderer();
    let outline = sphere_outline(&mut renderer);
    let mut differences = Differences::default();
    for (roughness, strength, degrees, three_js_level) in three_js {
        let rotation = f32::to_radians(degrees);
        let material = format!(
            r#"{{"pbrMetallicRoughness":{{"baseColorFactor":[0.5,0.5,0.5,1],"metallicFactor":1,"roughnessFactor":{roughness}}},"extensions":{{"KHR_materials_anisotropy":{{"anisotropyStrength":{strength},"anisotropyRotation":{rotation}}}}}}}"#
        );
        let name = format!("three-lit-anisotropic-r{roughness}-s{strength}-rot{degrees}");
        let image = render_lit_sphere(&mut renderer, &name, &material);
        differences.add(&name, mean_level(&image, &outline) - three_js_level, 1.25);
    }
    differences.assert_within();
}
