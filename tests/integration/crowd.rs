//! Crowds: `--crowd N` draws N figures in `render` and the viewer, the seed and `--crowd-same`
//! decide how they play, the headless benchmark reports N, and every way the GPU draws a crowd
//! (one storage palette, pose uniform arrays in chunks, the CPU-posed fallback) draws the
//! picture CPU skinning draws.

use crate::common;

use std::process::Command;

use rigscope::anim::Playback;
use rigscope::asset::{self, Model};
use rigscope::render::skin_source::max_uniform_joints;
use rigscope::render::still::{StillRenderer, Viewpoint};
use rigscope::render::{Gpu, SceneRenderer, SkinSource};
use rigscope::view::crowd::CrowdOptions;
use rigscope::view::{ViewOptions, ViewPreset};

/// As tests/integration/render.rs: a pixel differs when a channel differs by more than 6 of 255, and at
/// most 1% of the pixels (silhouette and shadow edges whose MSAA coverage flips) may.
const DIFFERENT_FRACTION: f64 = 0.01;

/// `model` as a crowd of `count` (varied, default seed), playing its first clip, 0.4 s in,
/// seen from `viewpoint`.
fn crowd_image(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    (model, count): (&Model, usize),
    view: &ViewOptions,
    viewpoint: Viewpoint,
) -> image::RgbaImage {
    crowd_image_and_triangles(gpu, renderer, (model, count), view, viewpoint).0
}

/// `crowd_image`, and the triangles its lit pass drew.
fn crowd_image_and_triangles(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    (model, count): (&Model, usize),
    view: &ViewOptions,
    viewpoint: Viewpoint,
) -> (image::RgbaImage, u64) {
    let clip = 0;
    let mut pose = model.skeleton.rest_pose().clone();
    let animation = &model.clips[clip];
    let time = Playback::Loop.clip_time(0.4, animation.duration());
    animation.sample(time, &mut pose, &mut animation.cursor());
    let mut still = StillRenderer::new(gpu, renderer, model);
    still.viewpoint = viewpoint;
    still.frame_clip(Some(clip));
    let options = CrowdOptions {
        count,
        ..CrowdOptions::default()
    };
    still.show_crowd(options, Some(clip));
    still.time = 0.4;
    let image = still.render(renderer, &pose, (320, 240), view).unwrap();
    (image, still.triangles_drawn(view))
}

#[test]
fn every_gpu_path_draws_the_crowd_that_cpu_skinning_draws() {
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let max_joints = max_uniform_joints(&gpu.device.limits());
    for file in ["Fox/glTF-Binary/Fox.glb", "CesiumMan/glTF-Binary/CesiumMan.glb"] {
        let model = asset::load(&common::gltf(file)).unwrap();
        let joints = model.skins[0].joints.len();
        let count = 7;
        // Every copy whole, as the CPU draws them (coarser copies: the test below).
        let full_detail = ViewOptions {
            crowd_detail: false,
            ..ViewOptions::default()
        };
        let cpu_view = ViewOptions {
            gpu_skinning: false,
            ..full_detail
        };
        let three_quarter = Viewpoint::default();
        let on_cpu = crowd_image(
            &gpu,
            &mut SceneRenderer::new(&gpu),
            (&model, count),
            &cpu_view,
            three_quarter,
        );
        let top = Viewpoint::Orbit(ViewPreset::Top.angles());
        let no_ground = ViewOptions {
            grid: false,
            ..cpu_view
        };
        let from_above = crowd_image(&gpu, &mut SceneRenderer::new(&gpu), (&model, count), &no_ground, top);
        assert_eq!(figures(&from_above, 20), count, "{file}: figures seen from above");
        let mut sources = vec![
            // One instance per `pose` array: seven instanced draws of one instance each.
            (
                "uniform arrays, one instance each",
                SkinSource::UniformArrays { max_joints: joints },
            ),
            // Three instances per array: three draws (3, 3, 1).
            (
                "uniform arrays, three each",
                SkinSource::UniformArrays { max_joints: joints * 3 },
            ),
            ("uniform arrays, all in one", SkinSource::UniformArrays { max_joints }),
            // The skin does not fit: posed on the CPU per instance although GPU skinning is on.
            (
                "CPU-posed fallback",
                SkinSource::UniformArrays { max_joints: joints - 1 },
            ),
        ];
        if SkinSource::storage_palette_supported(&gpu.adapter) {
            sources.push(("storage palette", SkinSource::StoragePalette));
        }
        for (name, source) in sources {
            let mut renderer = SceneRenderer::with_skin_source(&gpu, source);
            let on_gpu = crowd_image(&gpu, &mut renderer, (&model, count), &full_detail, three_quarter);
            let fraction = common::different_fraction(&on_gpu, &on_cpu);
            eprintln!("{file}, {name}: {:.3}% of pixels differ", fraction * 100.0);
            assert!(
                fraction <= DIFFERENT_FRACTION,
                "{file}, {name}: {:.3}% of pixels differ from CPU skinning",
                fraction * 100.0
            );
        }
    }
}

#[test]
fn far_copies_draw_coarser_meshes_in_every_gpu_path() {
    let gpu = Gpu::headless().expect("a graphics adapter (llvmpipe on CI)");
    let model = asset::load(&common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let joints = model.skins[0].joints.len();
    let count = 60;
    // No ground, so that a pixel is covered or not by its colour.
    let coarser_view = ViewOptions {
        grid: false,
        ..ViewOptions::default()
    };
    let whole = ViewOptions {
        crowd_detail: false,
        ..coarser_view
    };
    let three_quarter = Viewpoint::default();
    let mut renderer = SceneRenderer::with_skin_source(&gpu, SkinSource::UniformArrays { max_joints: joints * 7 });
    let (full, all_triangles) = crowd_image_and_triangles(&gpu, &mut renderer, (&model, count), &whole, three_quarter);
    assert_eq!(all_triangles, count as u64 * 576, "every Fox whole");
    let mut sources = vec![
        // Seven copies per array: the levels' runs of instances cross the chunks.
        (
            "uniform arrays, seven each",
            SkinSource::UniformArrays { max_joints: joints * 7 },
        ),
        (
            "uniform arrays, one each",
            SkinSource::UniformArrays { max_joints: joints },
        ),
    ];
    if SkinSource::storage_palette_supported(&gpu.adapter) {
        sources.push(("storage palette", SkinSource::StoragePalette));
    }
    let mut first: Option<image::RgbaImage> = None;
    for (name, source) in sources {
        let mut renderer = SceneRenderer::with_skin_source(&gpu, source);
        let (coarser, triangles) =
            crowd_image_and_triangles(&gpu, &mut renderer, (&model, count), &coarser_view, three_quarter);
        let (covered, shaded) = (
            coverage_difference(&coarser, &full),
            common::different_fraction(&coarser, &full),
        );
        eprintln!(
            "{name}: {triangles} triangles (whole: {all_triangles}); covered {:.3}%, shaded {:.3}% of pixels apart",
            covered * 100.0,
            shaded * 100.0,
        );
        assert!(triangles * 2 < all_triangles, "{name}: far copies are coarser");
        // Shapes stay within half a pixel: only silhouette pixels change coverage. Shading
        // moves where a copy's faces merge.
        assert!(
            covered <= 0.01,
            "{name}: {:.3}% of pixels covered differently",
            covered * 100.0
        );
        assert!(
            shaded <= 0.05,
            "{name}: {:.3}% of pixels shaded differently",
            shaded * 100.0
        );
        // Every path picks the same levels for the same copies (and their poses follow them).
        if let Some(first) = &first {
            let apart = common::different_fraction(&coarser, first);
            assert!(apart <= DIFFERENT_FRACTION, "{name}: {:.3}% apart", apart * 100.0);
        }
        first.get_or_insert(coarser);
    }
}

/// The fraction of pixels that one of `a` and `b` covers (`common::covered`) and the other
/// does not.
fn coverage_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let apart = (a.pixels().zip(b.pixels()))
        .filter(|(p, q)| common::covered(a, p) != common::covered(b, q))
        .count();
    apart as f64 / (a.width() * a.height()) as f64
}

/// The figures in `image`: 4-connected regions unlike the background (the top-left pixel)
/// of at least `smallest` pixels.
fn figures(image: &image::RgbaImage, smallest: usize) -> usize {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let covered: Vec<bool> = image.pixels().map(|p| common::covered(image, p)).collect();
    let mut seen = vec![false; covered.len()];
    let mut count = 0;
    for start in 0..covered.len() {
        if !covered[start] || seen[start] {
            continue;
        }
        let (mut stack, mut size) = (vec![start], 0);
        seen[start] = true;
        while let Some(at) = stack.pop() {
            size += 1;
            let (x, y) = (at % width, at / width);
            let neighbours = [
                (x > 0).then(|| at - 1),
                (x + 1 < width).then(|| at + 1),
                (y > 0).then(|| at - width),
                (y + 1 < height).then(|| at + width),
            ];
            for next in neighbours.into_iter().flatten() {
                if covered[next] && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        count += usize::from(size >= smallest);
    }
    count
}

fn render(dir: &std::path::Path, name: &str, args: &[&str]) -> image::RgbaImage {
    let fox = common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
    common::render_png(&fox, &dir.join(name), &[&["--size", "480x360"], args].concat())
}

#[test]
fn render_draws_n_figures_and_the_seed_decides_how_they_play() {
    let dir = common::temp_dir("crowd-render");
    let top = ["--view", "top", "--no-grid"];
    for count in [1, 4, 9] {
        let n = count.to_string();
        let image = render(&dir, &format!("{count}.png"), &[&top[..], &["--crowd", &n]].concat());
        assert_eq!(figures(&image, 40), count, "--crowd {count}");
    }
    let seeded = |name: &str, args: &[&str]| render(&dir, name, &[&["--crowd", "9", "--time", "0.5"], args].concat());
    let a = seeded("a.png", &["--crowd-seed", "3"]);
    let again = seeded("again.png", &["--crowd-seed", "3"]);
    let other = seeded("other.png", &["--crowd-seed", "4"]);
    let same = seeded("same.png", &["--crowd-same"]);
    let same_other_seed = seeded("same-other.png", &["--crowd-same", "--crowd-seed", "4"]);
    assert_eq!(a, again, "the same seed draws the same crowd");
    assert!(
        common::different_fraction(&a, &other) > 0.002,
        "another seed, other phases"
    );
    assert!(
        common::different_fraction(&a, &same) > 0.002,
        "a uniform crowd differs from a varied one"
    );
    assert_eq!(same, same_other_seed, "a uniform crowd ignores the seed");
    let refused = common::rigscope(&["render", "-o", "x.png", "--crowd", "0"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("1 to 10000"));
}

#[test]
fn render_times_crowd_frames_headless() {
    let dir = common::temp_dir("crowd-benchmark");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let out = dir.join("bench.png");
    let args = [
        "render",
        fox.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--size",
        "160x120",
    ];
    let stats = common::json(&[&args[..], &["--crowd", "12", "--benchmark-frames", "3"]].concat());
    assert_eq!(stats["crowd"], 12, "{stats}");
    assert_eq!(stats["frames"], 3, "{stats}");
    assert_eq!(stats["presentation"], "offscreen", "{stats}");
    let (median, p95) = (stats["median_ms"].as_f64().unwrap(), stats["p95_ms"].as_f64().unwrap());
    assert!(median > 0.0 && p95 >= median, "{stats}");
    assert!(out.exists(), "the last frame is saved");
    // In a 160x120 picture every Fox is a few dozen pixels: all of them draw coarser copies.
    let triangles = stats["triangles"].as_u64().unwrap();
    assert!(triangles > 0 && triangles < 12 * 576 / 2, "{stats}");
    let whole = common::json(
        &[
            &args[..],
            &["--crowd", "12", "--benchmark-frames", "1", "--full-detail"],
        ]
        .concat(),
    );
    assert_eq!(whole["triangles"], 12 * 576, "{whole}");
}

#[test]
fn the_viewer_benchmarks_a_crowd() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args([fox.to_str().unwrap(), "--crowd", "16", "--benchmark-frames", "3"])
        .output()
        .expect("xvfb-run (Debian package xvfb) must be installed; .ci/run installs it");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stats: serde_json::Value = serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
    assert_eq!(stats["crowd"], 16, "{stats}");
    assert_eq!(stats["frames"], 3, "{stats}");
    let triangles = stats["triangles"].as_u64().unwrap();
    assert!(triangles > 0 && triangles <= 16 * 576, "{stats}");
}
