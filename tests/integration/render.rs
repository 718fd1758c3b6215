//! Offscreen rendering through the viewer's renderer (Mesa's llvmpipe on machines without a
//! GPU): CPU and GPU skinning draw the same picture, and the model fills a sensible part of it.

use crate::common;

use glam::Vec4;
use rigscope::anim::Playback;
use rigscope::asset::{self, Model};
use rigscope::cli::render::render_image;
use rigscope::render::gpu_timer::GpuTimer;
use rigscope::render::skin_source::max_uniform_joints;
use rigscope::render::{Gpu, ModelView, SceneRenderer, SkinSource};
use rigscope::skin::SkinningMethod;
use rigscope::view::ViewOptions;

/// A pixel differs (`common::different_fraction`) when any channel differs by more than 6 levels.
///
/// Both paths compute the same skin matrices in f32, in a different order (Rust on the CPU,
/// WGSL on the GPU), so vertices agree to about 1e-6 of the model's size: far below a pixel.
/// Only pixels on silhouette and shadow edges can change their MSAA coverage by a sample, and
/// lighting can differ by a rounding step; a few levels cover the latter.
///
/// At most this fraction of pixels may differ: edge pixels of a 320×240 image whose coverage
/// flips by a sample are well under 1%.
const DIFFERENT_FRACTION: f64 = 0.01;

fn render(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    model: &Model,
    clip: usize,
    time: f32,
    view: &ViewOptions,
) -> image::RgbaImage {
    let mut pose = model.skeleton.rest_pose().clone();
    let animation = &model.clips[clip];
    animation.sample(
        Playback::Loop.clip_time(time, animation.duration()),
        &mut pose,
        &mut animation.cursor(),
    );
    render_image(gpu, renderer, model, &pose, Some(clip), (320, 240), view).unwrap()
}

/// Renders `model` skinned on the GPU with `gpu_view`, and on the CPU otherwise alike, asserts
/// that the pictures agree, and returns the GPU's.
fn gpu_matches_cpu(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    (model, file): (&Model, &str),
    clip: usize,
    time: f32,
    gpu_view: ViewOptions,
) -> image::RgbaImage {
    let cpu_view = ViewOptions {
        gpu_skinning: false,
        ..gpu_view
    };
    let on_gpu = render(gpu, renderer, model, clip, time, &gpu_view);
    let on_cpu = render(gpu, renderer, model, clip, time, &cpu_view);
    let fraction = common::different_fraction(&on_gpu, &on_cpu);
    assert!(
        fraction <= DIFFERENT_FRACTION,
        "{file} at {time}: {:.3}% of pixels differ",
        fraction * 100.0
    );
    on_gpu
}

#[test]
fn dual_quaternion_skinning_draws_the_same_picture_on_cpu_and_gpu() {
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let mut renderer = SceneRenderer::new(&gpu);
    let mut differs_from_linear = 0.0f64;
    for (file, clip) in [("CesiumMan/glTF-Binary/CesiumMan.glb", "0"), ("Xbot/Xbot.glb", "walk")] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let clip = model.find_clip(clip).unwrap();
        for time in [0.3, 0.55] {
            let gpu_view = ViewOptions {
                skinning_method: SkinningMethod::DualQuaternion,
                ..ViewOptions::default()
            };
            let on_gpu = gpu_matches_cpu(&gpu, &mut renderer, (&model, file), clip, time, gpu_view);
            let linear = render(&gpu, &mut renderer, &model, clip, time, &ViewOptions::default());
            differs_from_linear = differs_from_linear.max(common::different_fraction(&on_gpu, &linear));
        }
    }
    // Walks barely twist, but the shader did switch method: some pixels change.
    assert!(differs_from_linear > 0.0);
}

#[test]
fn an_outlined_mtoon_character_draws_the_same_picture_on_cpu_and_gpu() {
    // CesiumMan's material made MToon with a dark outline: the outline's vertex stage skins as
    // the surface's does.
    let file = "CesiumMan/glTF-Binary/CesiumMan.glb";
    let glb = std::fs::read(common::gltf(file)).unwrap();
    let toon = common::edit_glb(&glb, |json| {
        json["materials"][0]["extensions"] = serde_json::json!({ "VRMC_materials_mtoon": {
            "specVersion": "1.0", "shadeColorFactor": [0.2, 0.2, 0.5],
            "outlineWidthMode": "worldCoordinates", "outlineWidthFactor": 0.01,
            "outlineColorFactor": [0.0, 0.0, 0.0], "outlineLightingMixFactor": 0.0
        } });
    });
    let path = common::temp_dir("mtoon-skinned").join("toon-man.glb");
    std::fs::write(&path, toon).unwrap();
    let model = asset::load(&path).unwrap();
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let mut renderer = SceneRenderer::new(&gpu);
    let on_gpu = gpu_matches_cpu(&gpu, &mut renderer, (&model, file), 0, 0.4, ViewOptions::default());
    // The outline shows: more near-black pixels than the plain man has.
    let plain = asset::load(&common::gltf(file)).unwrap();
    let without = render(&gpu, &mut renderer, &plain, 0, 0.4, &ViewOptions::default());
    let dark = |image: &image::RgbaImage| image.pixels().filter(|p| p[0] < 12 && p[1] < 12 && p[2] < 12).count();
    assert!(
        dark(&on_gpu) > dark(&without) + 200,
        "{} against {}",
        dark(&on_gpu),
        dark(&without)
    );
}

/// A renderer per skin source the adapter has: the uniform arrays always, the storage-buffer
/// palette where the vertex stage can read storage buffers.
fn renderers_per_skin_source(gpu: &Gpu) -> Vec<SceneRenderer> {
    let max_joints = max_uniform_joints(&gpu.device.limits());
    let mut sources = vec![SkinSource::UniformArrays { max_joints }];
    if SkinSource::storage_palette_supported(&gpu.adapter) {
        sources.push(SkinSource::StoragePalette);
    }
    sources
        .into_iter()
        .map(|source| SceneRenderer::with_skin_source(gpu, source))
        .collect()
}

#[test]
fn cpu_and_gpu_skinning_draw_the_same_picture() {
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    for mut renderer in renderers_per_skin_source(&gpu) {
        cpu_and_gpu_agree(&gpu, &mut renderer);
    }
}

/// With `renderer`'s skin source, CPU and GPU skinning draw the same pictures of three rigs.
fn cpu_and_gpu_agree(gpu: &Gpu, renderer: &mut SceneRenderer) {
    for (file, clip) in [
        ("Fox/glTF-Binary/Fox.glb", "Run"),
        ("CesiumMan/glTF-Binary/CesiumMan.glb", "0"),
        ("Xbot/Xbot.glb", "walk"),
    ] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let clip = model.find_clip(clip).unwrap();
        // The toggle really switches paths: these skins fit the GPU arrays.
        let uploaded = ModelView::new(gpu, renderer, &model).buffers;
        assert!(
            uploaded
                .draws
                .iter()
                .all(|d| d.on_gpu(true) && !d.uses_cpu_vertices(true)),
            "{file}"
        );
        assert!(
            uploaded
                .draws
                .iter()
                .all(|d| !d.on_gpu(false) && d.uses_cpu_vertices(false)),
            "{file}"
        );
        for time in [0.0, 0.3, 0.55] {
            let gpu_view = ViewOptions::default();
            gpu_matches_cpu(gpu, renderer, (&model, file), clip, time, gpu_view);
            let mesh_only = render(
                gpu,
                renderer,
                &model,
                clip,
                time,
                &ViewOptions {
                    grid: false,
                    ..gpu_view
                },
            );
            let covered = common::coverage(&mesh_only);
            assert!(
                (0.03..0.8).contains(&covered),
                "{file} at {time}: the model covers {:.1}%",
                covered * 100.0
            );
        }
    }
}

#[test]
fn view_toggles_change_the_picture() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let model = asset::load(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb")).unwrap();
    let plain = ViewOptions::default();
    let base = render(&gpu, &mut renderer, &model, 0, 0.4, &plain);
    for (name, view) in [
        (
            "skeleton",
            ViewOptions {
                skeleton: true,
                ..plain
            },
        ),
        (
            "wireframe",
            ViewOptions {
                wireframe: true,
                ..plain
            },
        ),
        ("grid off", ViewOptions { grid: false, ..plain }),
        ("mesh off", ViewOptions { mesh: false, ..plain }),
    ] {
        let changed = common::different_fraction(&base, &render(&gpu, &mut renderer, &model, 0, 0.4, &view));
        assert!(changed > 0.002, "{name} changes only {:.3}% of pixels", changed * 100.0);
    }
    let other_time = common::different_fraction(&base, &render(&gpu, &mut renderer, &model, 0, 1.1, &plain));
    assert!(other_time > 0.002, "the animation moves the picture");
}

/// A renderer makes each pipeline when a frame first draws with it, so a still compiles only
/// what it draws: Fox's picture needs the shadow, the background, the ground with and without
/// its shadow, one lit mesh pipeline and one tone curve, not the wireframe, ghosts, overlays,
/// points, lines, blended, mirrored, layered, MToon or transmissive ones, nor the other curves.
#[test]
fn a_still_makes_only_the_pipelines_it_draws_with() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    assert_eq!(renderer.pipelines_made(), 0, "none before the first frame");
    let model = asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let plain = ViewOptions::default();
    render(&gpu, &mut renderer, &model, 0, 0.3, &plain);
    let made = renderer.pipelines_made();
    assert!((1..=6).contains(&made), "Fox's still made {made} pipelines");
    render(&gpu, &mut renderer, &model, 0, 0.6, &plain);
    assert_eq!(renderer.pipelines_made(), made, "the next frame makes none");
    let wireframe = ViewOptions {
        wireframe: true,
        ..plain
    };
    render(&gpu, &mut renderer, &model, 0, 0.6, &wireframe);
    assert!(
        renderer.pipelines_made() > made,
        "the wireframe's are made when it is first drawn"
    );
}

/// A static mesh's shadow is drawn by the shadow pipeline without the skinning code (a
/// software rasteriser would run both skinning methods for each of its vertices); a mesh
/// skinned on the GPU by the one with it.
#[test]
fn a_static_mesh_casts_its_shadow_without_the_skinning_code() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let cube = asset::load(&common::gltf("AnimatedCube/glTF/AnimatedCube.gltf")).unwrap();
    let plain = ViewOptions::default();
    render(&gpu, &mut renderer, &cube, 0, 0.3, &plain);
    assert_eq!(
        renderer.shadow_pipelines_made(),
        [true, false],
        "the cube's shadow is unskinned"
    );
    let fox = asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    render(&gpu, &mut renderer, &fox, 0, 0.3, &plain);
    assert_eq!(renderer.shadow_pipelines_made(), [true, true], "Fox's is skinned");
}

#[test]
fn the_render_command_writes_a_png_of_the_requested_size() {
    let dir = common::temp_dir("render");
    let out = dir.join("fox.png");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let (fox, out_path) = (fox.to_str().unwrap(), out.to_str().unwrap());
    common::succeed(&[
        "render",
        fox,
        "-o",
        out_path,
        "--clip",
        "Walk",
        "--time",
        "0.3",
        "--size",
        "200x150",
        "--skinning",
        "cpu",
        "--skeleton",
    ]);
    let image = image::open(&out).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (200, 150));
    assert!(common::coverage(&image) > 0.05);
    // Without a file: the demo rig, posed by the named clip.
    let demo = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let base = [
            "render",
            "-o",
            path.to_str().unwrap(),
            "--time",
            "1.6",
            "--size",
            "160x200",
        ];
        common::succeed(&[&base[..], extra].concat());
        image::open(&path).unwrap().to_rgba8()
    };
    let waving = demo("wave.png", &["--clip", "wave"]);
    assert!(common::coverage(&waving) > 0.05);
    // Without --clip, the first clip (the demo's idle).
    assert_eq!(demo("default.png", &[]), demo("idle.png", &["--clip", "idle"]));
    assert_ne!(
        demo("rest.png", &["--clip", "wave"]),
        demo("idle2.png", &["--clip", "idle"])
    );
    // Every view and animation option changes the picture; CPU skinning keeps it.
    for flags in [
        &["--clip", "wave", "--wireframe"][..],
        &["--clip", "wave", "--no-grid"],
        &["--clip", "wave", "--skeleton"],
        // 1.6 s is past the 1.2 s clip: once holds the end, ping-pong is back at 0.8 s.
        &["--clip", "wave", "--playback", "pingpong"],
        &["--crossfade", "wave:walk:0.5:0.25"],
        &["--clip", "wave", "--additive", "walk:1:0.3"],
        &["--clip", "wave", "--ik", "wrist.L:2:0.45,1.55,0.35"],
        &[
            "--clip",
            "wave",
            "--ik",
            "wrist.L:2:0.45,1.55,0.35",
            "--ik-weight",
            "0.5",
        ],
        &["--clip", "wave", "--pose-mode", "rest"],
        &["--clip", "wave", "--pose-mode", "bind"],
        &["--clip", "wave", "--bind-ghost"],
        &["--clip", "wave", "--joint", "chest"],
        &["--clip", "wave", "--bone-names"],
        &["--clip", "wave", "--vertex-view", "weights", "--joint", "chest"],
        &["--clip", "wave", "--vertex-view", "influences"],
        &["--clip", "wave", "--vertex-view", "not-normalised"],
        &["--clip", "wave", "--vertex-view", "capped"],
        &["--clip", "wave", "--vertex-view", "skin-difference"],
    ] {
        let flagged = demo(&format!("{}.png", flags.join("_").replace('-', "")), flags);
        assert!(
            common::different_fraction(&waving, &flagged) > 0.002,
            "{flags:?} changes nothing"
        );
    }
    // With the skeleton shown, IK chains draw their targets, and their limits when set.
    let reaching = ["--clip", "wave", "--skeleton", "--ik", "wrist.L:2:0.45,1.55,0.35"];
    let plain_gizmo = demo("ik_gizmo.png", &reaching);
    let limited = [&reaching[..], &["--ik-constraint", "shoulder.L:ball:170:170"]].concat();
    assert!(common::different_fraction(&plain_gizmo, &demo("ik_limits.png", &limited)) > 0.0005);
    // The demo's joints bend more than they twist: dual quaternions move only a few pixels.
    let dual = demo("dq.png", &["--clip", "wave", "--skin-method", "dual-quaternion"]);
    assert!(
        common::different_fraction(&waving, &dual) > 0.0,
        "--skin-method changes nothing"
    );
    let on_gpu = demo("gpu.png", &["--clip", "wave", "--skinning", "gpu"]);
    let on_cpu = demo("cpu.png", &["--clip", "wave", "--skinning", "cpu"]);
    assert!(common::different_fraction(&on_gpu, &on_cpu) <= DIFFERENT_FRACTION);
    let bad_size = common::rigscope(&["render", fox, "-o", out_path, "--size", "big"]);
    assert_eq!(bad_size.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_size.stderr).contains("WIDTHxHEIGHT"));
}

#[test]
fn a_picture_skins_on_the_cpu_where_the_adapter_rasterises_on_the_cpu() {
    let dir = common::temp_dir("render-skinning");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let out = dir.join("fox.png");
    let skinning = |extra: &[&str]| {
        let args = [
            "render",
            fox.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "64x48",
        ];
        let stats = common::json(&[&args[..], &["--benchmark-frames", "1"], extra].concat());
        stats["skinning"].as_str().unwrap().to_owned()
    };
    let expected = if Gpu::headless().unwrap().is_software() {
        "cpu"
    } else {
        "gpu"
    };
    assert_eq!(skinning(&[]), expected);
    assert_eq!(skinning(&["--skinning", "auto"]), expected);
    assert_eq!(skinning(&["--skinning", "gpu"]), "gpu");
    assert_eq!(skinning(&["--skinning", "cpu"]), "cpu");
    // A crowd's far copies skin only their simplified vertices on the GPU.
    assert_eq!(skinning(&["--crowd", "3"]), "gpu");
}

#[test]
fn skins_too_big_for_the_uniform_arrays_fall_back_to_cpu_skinning() {
    let gpu = Gpu::headless().unwrap();
    let model = asset::load(&common::gltf("Xbot/Xbot.glb")).unwrap();
    // The device is opened with the adapter's own limits, so the arrays are as large as it allows
    // (1,024 joints on llvmpipe, not WebGL2's 256).
    let full = SceneRenderer::with_joint_limit(&gpu, usize::MAX);
    assert_eq!(
        full.layouts.skin_source,
        SkinSource::UniformArrays {
            max_joints: max_uniform_joints(&gpu.adapter.limits())
        }
    );
    // Xbot's skin has 67 joints: a device whose uniform arrays hold 16 cannot skin it.
    let mut small = SceneRenderer::with_joint_limit(&gpu, 16);
    let uploaded = ModelView::new(&gpu, &small, &model).buffers;
    assert!(
        uploaded
            .notes
            .iter()
            .any(|n| n.contains("67 joints") && n.contains("skinned on the CPU")),
        "{:?}",
        uploaded.notes
    );
    assert!(
        uploaded
            .draws
            .iter()
            .all(|d| !d.gpu_skinnable && d.uses_cpu_vertices(true))
    );

    let clip = model.find_clip("walk").unwrap();
    let view = ViewOptions::default(); // GPU skinning asked for
    let fallback = render(&gpu, &mut small, &model, clip, 0.3, &view);
    let on_gpu = render(&gpu, &mut SceneRenderer::new(&gpu), &model, clip, 0.3, &view);
    let fraction = common::different_fraction(&fallback, &on_gpu);
    assert!(
        fraction <= DIFFERENT_FRACTION,
        "the fallback draws the same picture ({:.3}% differ)",
        fraction * 100.0
    );
    assert!(common::coverage(&fallback) > 0.05);
}

#[test]
fn skins_longer_than_the_devices_uniform_arrays_are_skinned_on_the_cpu() {
    let gpu = Gpu::headless().unwrap();
    let limit = max_uniform_joints(&gpu.device.limits());
    let mut model = asset::load(&common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb")).unwrap();
    // Entries no vertex uses, one past what the device's uniform arrays can hold: the arrays
    // must still be bound at the device's size.
    let skin = &mut model.skins[0];
    let padding = limit + 1 - skin.joints.len();
    skin.joints.extend(std::iter::repeat_n(0, padding));
    skin.inverse_bind
        .extend(std::iter::repeat_n(glam::Mat4::IDENTITY, padding));
    let mut renderer = SceneRenderer::with_joint_limit(&gpu, usize::MAX);
    let view = ViewOptions::default();
    let fallback = render(&gpu, &mut renderer, &model, 0, 0.3, &view);
    let cpu_view = ViewOptions {
        gpu_skinning: false,
        ..view
    };
    let on_cpu = render(&gpu, &mut renderer, &model, 0, 0.3, &cpu_view);
    assert!(common::different_fraction(&fallback, &on_cpu) <= DIFFERENT_FRACTION);
    assert!(common::coverage(&fallback) > 0.03);
}

/// A 1×1 m quad in the XY plane facing +Z (u along +X, v down), its normal map one colour.
fn normal_mapped_quad(normal_rgb: [u8; 3]) -> Model {
    use glam::{Vec2, Vec3, Vec4};
    use rigscope::anim::{JointDesc, Skeleton, Transform};
    use rigscope::asset::TextureRef;
    use rigscope::asset::material::Material;
    use rigscope::asset::model::{Image, Mesh, MeshInstance, Primitive, Topology};
    let mut png = Vec::new();
    let pixel = image::RgbaImage::from_pixel(4, 4, image::Rgba([normal_rgb[0], normal_rgb[1], normal_rgb[2], 255]));
    pixel
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let skeleton = Skeleton::new(vec![JointDesc {
        name: "quad".into(),
        parent: None,
        rest: Transform::IDENTITY,
        bind_model: None,
        morph_weights: Vec::new(),
    }])
    .unwrap();
    let mut model = Model::new("quad".into(), None, skeleton);
    model.meshes = vec![Mesh {
        name: "quad".into(),
        primitives: vec![Primitive {
            topology: Topology::Triangles,
            indices: vec![0, 1, 2, 0, 2, 3],
            positions: vec![
                Vec3::new(-0.5, -0.5, 0.0),
                Vec3::new(0.5, -0.5, 0.0),
                Vec3::new(0.5, 0.5, 0.0),
                Vec3::new(-0.5, 0.5, 0.0),
            ],
            normals: vec![Vec3::Z; 4],
            normals_computed: false,
            tangents: Vec::new(),
            uvs: vec![
                Vec2::new(0.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 0.0),
            ],
            material: Some(0),
            ..Primitive::default()
        }],
        attributes: Vec::new(),
        target_names: Vec::new(),
    }];
    model.instances = vec![MeshInstance {
        joint: 0,
        mesh: 0,
        skin: None,
    }];
    model.materials = vec![Material {
        base_color: Vec4::new(0.2, 0.2, 0.2, 1.0),
        metallic: 0.0,
        roughness: 1.0,
        normal_texture: Some(TextureRef::plain(0)),
        ..Material::default()
    }];
    model.images = vec![Image {
        name: "normal".into(),
        mime_type: Some("image/png".into()),
        bytes: png.into(),
    }];
    model
}

/// The brightness at the middle of `model` (a quad facing the camera) lit by the key light
/// alone: the environment lights tilted normals too, from other sides.
fn lit_middle(gpu: &Gpu, renderer: &mut SceneRenderer, model: &Model) -> i32 {
    let view = ViewOptions {
        grid: false,
        lighting: rigscope::view::Lighting {
            environment_intensity: 0.0,
            ..Default::default()
        },
        ..ViewOptions::default()
    };
    let image = render_image(gpu, renderer, model, model.skeleton.rest_pose(), None, (64, 64), &view).unwrap();
    image.get_pixel(32, 32).0[0] as i32
}

/// The normal map colours that tilt a normal along +T, −T, +B and −B, and the flat one.
const TOWARDS: [u8; 3] = [230, 128, 160];
const AWAY: [u8; 3] = [25, 128, 160];
const UP: [u8; 3] = [128, 230, 160];
const DOWN: [u8; 3] = [128, 25, 160];
const FLAT: [u8; 3] = [128, 128, 255];

#[test]
fn normal_maps_tilt_normals_along_the_texture_tangent() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let mut brightness = |rgb: [u8; 3]| lit_middle(&gpu, &mut renderer, &normal_mapped_quad(rgb));
    // The key light comes from +X: a normal tilted towards +U (= +X here) is lit more than a
    // flat one, and one tilted towards -U less.
    let towards = brightness(TOWARDS);
    let flat = brightness(FLAT);
    let away = brightness(AWAY);
    assert!(
        towards > flat + 10 && flat > away + 10,
        "towards {towards}, flat {flat}, away {away}"
    );
    // And from above (+Y): glTF's green points up the texture, towards −V (= +Y here).
    let up = brightness(UP);
    let down = brightness(DOWN);
    assert!(up > flat + 10 && flat > down + 10, "up {up}, flat {flat}, down {down}");
}

/// `normal_mapped_quad` with `tangents` at every vertex.
fn quad_with_tangents(normal_rgb: [u8; 3], tangent: Vec4) -> Model {
    let mut model = normal_mapped_quad(normal_rgb);
    model.meshes[0].primitives[0].tangents = vec![tangent; 4];
    model
}

#[test]
fn a_files_tangents_orient_the_normal_map_and_generated_ones_match_the_texture() {
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    // The file's tangent runs along −X with handedness −1: the bitangent cross(Z, −X) · −1 is
    // still +Y. So red now tilts away from the key light, and green still up.
    let reversed = Vec4::new(-1.0, 0.0, 0.0, -1.0);
    let mut brightness = |rgb, tangent| lit_middle(&gpu, &mut renderer, &quad_with_tangents(rgb, tangent));
    let flat = brightness(FLAT, reversed);
    let (towards, up) = (brightness(TOWARDS, reversed), brightness(UP, reversed));
    assert!(
        towards + 10 < flat && up > flat + 10,
        "towards {towards}, up {up}, flat {flat}"
    );
    // MikkTSpace's tangents, as loading generates them, draw what the texture coordinates'
    // derivatives draw (the frame without tangents).
    tangents_light_as_derivatives(&gpu, &mut renderer, |model| model, generated_tangents);
}

/// MikkTSpace's tangents of `model`'s quad, as loading makes them.
fn generated_tangents(model: &Model) -> Vec<Vec4> {
    let primitive = &model.meshes[0].primitives[0];
    rigscope::asset::tangents::mikktspace_tangents(
        &primitive.positions,
        &primitive.normals,
        &primitive.uvs,
        &primitive.indices,
    )
}

/// For each tilt of the normal map, asserts that the quad `placed` (from `normal_mapped_quad`)
/// lights its middle within 2 levels alike with the tangents `tangents_of` gives it as without
/// tangents, where the frame comes from the texture coordinates' derivatives.
fn tangents_light_as_derivatives(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    placed: impl Fn(Model) -> Model,
    tangents_of: impl Fn(&Model) -> Vec<Vec4>,
) {
    for rgb in [TOWARDS, AWAY, UP, DOWN] {
        let derived = lit_middle(gpu, renderer, &placed(normal_mapped_quad(rgb)));
        let mut with_tangents = placed(normal_mapped_quad(rgb));
        with_tangents.meshes[0].primitives[0].tangents = tangents_of(&with_tangents);
        let from_tangents = lit_middle(gpu, renderer, &with_tangents);
        assert!(
            (derived - from_tangents).abs() <= 2,
            "{rgb:?}: {derived} against {from_tangents}"
        );
    }
}

#[test]
fn a_mirrored_mesh_keeps_its_bumps_lit_from_the_right_side() {
    // The quad's node mirrors X. Its (unmirrored) tangents go through the mirror and must still
    // give the frame that the texture coordinates' derivatives give, which is right by
    // construction: the handedness flips with the mirror.
    use rigscope::anim::{JointDesc, Skeleton, Transform};
    let mirrored = |mut model: Model| {
        let rest = Transform::new(glam::Vec3::ZERO, glam::Quat::IDENTITY, glam::Vec3::new(-1.0, 1.0, 1.0));
        model.skeleton = Skeleton::new(vec![JointDesc {
            name: "mirror".into(),
            parent: None,
            rest,
            bind_model: None,
            morph_weights: Vec::new(),
        }])
        .unwrap();
        model
    };
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    let unmirrored = |_: &Model| vec![Vec4::new(1.0, 0.0, 0.0, 1.0); 4];
    tangents_light_as_derivatives(&gpu, &mut renderer, mirrored, unmirrored);
}

#[test]
fn a_turned_normal_map_turns_the_tangents_with_it() {
    // The normal texture turned a quarter by KHR_texture_transform, as in Khronos's
    // TextureTransformMultiTest: tangents of the untransformed coordinates (MikkTSpace's, as
    // loading makes them) must turn with the texture, to light as the derivative frame of the
    // transformed coordinates does.
    let turned = |mut model: Model| {
        let texture = model.materials[0].normal_texture.as_mut().unwrap();
        texture.transform.rotation = std::f32::consts::FRAC_PI_2;
        model
    };
    let gpu = Gpu::headless().unwrap();
    let mut renderer = SceneRenderer::new(&gpu);
    tangents_light_as_derivatives(&gpu, &mut renderer, turned, generated_tangents);
}

#[test]
fn a_normal_mapped_character_draws_the_same_picture_on_cpu_and_gpu() {
    // CesiumMan's texture as its normal map too: strong bumps, on MikkTSpace tangents that
    // loading generates, skinned on the CPU and on the GPU by both methods.
    let file = "CesiumMan/glTF-Binary/CesiumMan.glb";
    let glb = std::fs::read(common::gltf(file)).unwrap();
    let bumpy = common::edit_glb(&glb, |json| {
        json["materials"][0]["normalTexture"] = serde_json::json!({ "index": 0 });
    });
    let path = common::temp_dir("tangents-skinned").join("bumpy-man.glb");
    std::fs::write(&path, bumpy).unwrap();
    let model = asset::load(&path).unwrap();
    assert!(model.meshes[0].primitives[0].tangents_generated);
    let report = common::succeed(&["inspect", path.to_str().unwrap()]);
    assert!(report.contains("TANGENT (generated: MikkTSpace)"), "{report}");
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let mut renderer = SceneRenderer::new(&gpu);
    for skinning_method in [SkinningMethod::Linear, SkinningMethod::DualQuaternion] {
        let view = ViewOptions {
            skinning_method,
            ..ViewOptions::default()
        };
        let on_gpu = gpu_matches_cpu(&gpu, &mut renderer, (&model, file), 0, 0.4, view);
        let plain = asset::load(&common::gltf(file)).unwrap();
        let without = render(&gpu, &mut renderer, &plain, 0, 0.4, &view);
        assert!(
            common::different_fraction(&on_gpu, &without) > 0.02,
            "the normal map shows"
        );
    }
}

#[test]
fn render_reports_the_skin_difference_and_refuses_bad_inspection_options() {
    let dir = common::temp_dir("render-inspect");
    let out = dir.join("x.png");
    let out = out.to_str().unwrap();
    let measured = common::rigscope(&["render", "-o", out, "--time", "0.5", "--vertex-view", "skin-difference"]);
    assert!(measured.status.success());
    let stderr = String::from_utf8_lossy(&measured.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("CPU vs GPU skinning: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let relative: f32 = line
        .split('(')
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(relative < 1e-6, "{line}");
    for (args, message) in [
        (
            &["--vertex-view", "weights"][..],
            "--vertex-view weights needs --joint JOINT",
        ),
        (&["--joint", "tail"], "--joint: "),
        (
            &["--vertex-view", "weights", "--joint", "99"],
            "no joint 99 (joints are numbered 0 to",
        ),
    ] {
        let output = common::rigscope(&[&["render", "-o", out][..], args].concat());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The GPU timer exists exactly where the device writes timestamps, and there it measures the
/// commands between `begin` and `end` of a frame (a frame or two later, without waiting).
#[test]
fn the_gpu_timer_measures_frames_where_the_adapter_reports_timestamps() {
    let gpu = Gpu::headless().expect("a graphics adapter");
    let timestamps = gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
    let timer = GpuTimer::new(&gpu);
    assert_eq!(timer.is_some(), timestamps, "{}", gpu.describe());
    let Some(mut timer) = timer else {
        // Said, so that a run on such an adapter shows what it did not check.
        eprintln!(
            "skipped: {} writes no timestamps, so there is nothing to measure",
            gpu.describe()
        );
        return;
    };
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 1024,
            height: 1024,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let mut measured = Vec::new();
    for _ in 0..4 {
        measured.extend(timer.read(&gpu));
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        timer.begin(&mut encoder);
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::RED),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        timer.end(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        timer.submitted();
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    }
    measured.extend(timer.read(&gpu));
    assert!(!measured.is_empty(), "no frame was measured");
    assert!(
        measured.iter().all(|&seconds| (0.0..1.0).contains(&seconds)),
        "{measured:?}"
    );
}

/// The opaque draws are drawn nearest the camera first (so that a software rasteriser's early
/// depth test skips what they hide): every draw that is not blended, each no farther than
/// the next, and from the other side the other way round.
#[test]
fn the_opaque_draws_are_drawn_nearest_first() {
    use glam::Vec3;
    let gpu = Gpu::headless().unwrap();
    let renderer = SceneRenderer::new(&gpu);
    let truck = asset::load(&common::gltf("CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb")).unwrap();
    let mut view = ModelView::new(&gpu, &renderer, &truck);
    let matrices = truck.skeleton.rest_pose().to_model_matrices();
    let order_from = |view: &mut ModelView, eye: Vec3| {
        let camera = glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y);
        view.buffers.sort_by_distance(&matrices, &camera);
        let buffers = &view.buffers;
        let depth = |index: usize| {
            let draw = &buffers.draws[index];
            let center = matrices[draw.joint].transform_point3(draw.center);
            camera.transform_point3(center).z
        };
        let depths: Vec<f32> = buffers.opaque_order.iter().map(|&index| depth(index)).collect();
        assert!(depths.windows(2).all(|pair| pair[0] >= pair[1]), "{depths:?}");
        let mut drawn = buffers.opaque_order.clone();
        drawn.sort_unstable();
        let opaque: Vec<usize> = (0..buffers.draws.len())
            .filter(|&i| !buffers.draws[i].blended)
            .collect();
        assert_eq!(drawn, opaque, "every opaque draw once");
        buffers.opaque_order.clone()
    };
    let from_front = order_from(&mut view, Vec3::new(20.0, 1.0, 0.0));
    let from_behind = order_from(&mut view, Vec3::new(-20.0, 1.0, 0.0));
    assert!(from_front.len() > 2, "the truck has several draws");
    assert_ne!(from_front, from_behind, "the order follows the camera");
}
