//! The real window under Xvfb: `rigscope FILE` starts, draws frames, saves a screenshot of the
//! window and exits cleanly; the screenshot shows the panel and the model.

use crate::common;

use std::process::Command;

use rigscope::view::triangle_budget::FAST_TRIANGLE_BUDGET;

fn screenshot(args: &[&str], name: &str) -> image::RgbaImage {
    screenshot_and_stderr(args, name).0
}

/// The screenshot after 8 frames, and what rigscope wrote to stderr.
fn screenshot_and_stderr(args: &[&str], name: &str) -> (image::RgbaImage, String) {
    screenshot_on_screen("1440x900", args, name)
}

/// The screenshot after 8 frames on a screen of `size` ("WIDTHxHEIGHT"), and what rigscope
/// wrote to stderr.
fn screenshot_on_screen(size: &str, args: &[&str], name: &str) -> (image::RgbaImage, String) {
    let path = common::temp_dir(&format!("window-{name}")).join(name);
    let screen = format!("-screen 0 {size}x24");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", &screen, env!("CARGO_BIN_EXE_rigscope")])
        .args(args)
        .args(["--screenshot-after-frames", "8", path.to_str().unwrap()])
        .output()
        .expect("xvfb-run (Debian package xvfb) must be installed; .ci/run installs it");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "rigscope {args:?} failed: {stderr}");
    (image::open(&path).unwrap().to_rgba8(), stderr)
}

/// Fraction of pixels in the region right of the panel that differ from its top-left corner.
fn scene_coverage(image: &image::RgbaImage) -> f64 {
    let (width, height) = image.dimensions();
    let start = width / 3;
    let background = image.get_pixel(width - 1, 0).0;
    let mut covered = 0;
    for y in 0..height {
        for x in start..width {
            if image
                .get_pixel(x, y)
                .0
                .iter()
                .zip(background.iter())
                .any(|(a, b)| a.abs_diff(*b) > 12)
            {
                covered += 1;
            }
        }
    }
    covered as f64 / ((width - start) * height) as f64
}

#[test]
fn the_window_shows_a_model_and_exits_cleanly() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let image = screenshot(&[fox.to_str().unwrap()], "fox.png");
    assert_eq!(image.dimensions(), (1280, 800));
    let covered = scene_coverage(&image);
    assert!(covered > 0.2, "the view shows little: {:.1}%", covered * 100.0);
    // The panel (left) is egui's dark grey, not the scene's background.
    let panel = image.get_pixel(5, 790).0;
    assert!(panel[0] > 15 && panel[0] < 60, "panel pixel {panel:?}");
}

#[test]
fn on_a_small_screen_the_window_opens_smaller() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let (image, _) = screenshot_on_screen("1024x600", &[fox.to_str().unwrap()], "small-screen.png");
    assert_eq!(image.dimensions(), (922, 540), "90% of a 1024 x 600 screen");
    let covered = scene_coverage(&image);
    assert!(covered > 0.1, "the view shows little: {:.1}%", covered * 100.0);
}

#[test]
fn without_a_file_the_window_shows_the_demo_rig() {
    let image = screenshot(&[], "demo.png");
    assert!(scene_coverage(&image) > 0.2);
}

#[test]
fn a_file_that_cannot_be_opened_opens_the_window_with_the_demo_rig_and_the_error() {
    let (image, stderr) = screenshot_and_stderr(&["/no/such/model.glb"], "broken.png");
    assert!(stderr.contains("/no/such/model.glb"), "{stderr}");
    let demo = screenshot(&[], "demo-beside-broken.png");
    assert!(scene_coverage(&image) > 0.2, "the demo rig shows");
    // The panel holds the error (red text) where the demo's panel has none.
    let reddish = |image: &image::RgbaImage| {
        image
            .enumerate_pixels()
            .filter(|(x, _, p)| *x < 280 && p[0] > 200 && p[1] < 140 && p[2] < 140)
            .count()
    };
    assert!(reddish(&image) > reddish(&demo) + 50, "no error text in the panel");
}

#[test]
fn the_benchmark_mode_prints_frame_times_as_json() {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args(["--benchmark-frames", "5"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let line = String::from_utf8_lossy(&output.stdout);
    let stats: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(stats["frames"], 5, "{stats}");
    let (median, p95) = (stats["median_ms"].as_f64().unwrap(), stats["p95_ms"].as_f64().unwrap());
    assert!(median > 0.0 && p95 >= median, "{stats}");
    // Which adapter drew, and why: llvmpipe through OpenGL, preferred to Mesa's Vulkan
    // rasteriser where that is installed too (.ci/run installs it).
    let adapter = stats["adapter"].as_str().unwrap();
    let choice = stats["adapter_choice"].as_str().unwrap();
    assert!(adapter.contains("(Gl)"), "{stats}");
    let lavapipe = std::path::Path::new("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json").exists();
    let expected = match lavapipe {
        true => "draws rigscope 1.5 to 9.5 times faster than its Vulkan one",
        false => "a CPU rasteriser, the only adapter found",
    };
    assert!(choice.contains(expected), "{stats}");
    // The viewer skins on the GPU unless the panel says otherwise, on every adapter (at fast
    // quality the triangle budget leaves a software rasteriser little vertex work to save).
    assert_eq!(stats["skinning"], "gpu", "{stats}");
    // On X11, llvmpipe's frames reach the X server through shared memory.
    let presentation = stats["presentation"].as_str().unwrap();
    assert!(presentation.starts_with("shared memory (MIT-SHM): on X11"), "{stats}");
}

#[test]
fn at_fast_quality_the_viewer_draws_within_the_triangle_budget() {
    let xbot = common::gltf("Xbot/Xbot.glb");
    let triangles = |quality: &str| {
        let output = Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
            .args([xbot.to_str().unwrap(), "--quality", quality, "--benchmark-frames", "60"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let stats: serde_json::Value = serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
        stats["triangles"].as_u64().unwrap()
    };
    // The copies are made in the background; by the last of 60 frames they are drawn.
    let fast = triangles("fast");
    assert!(
        fast > 1000 && fast <= u64::from(FAST_TRIANGLE_BUDGET),
        "{fast} triangles at fast"
    );
    assert_eq!(triangles("best"), 49_112, "best draws every triangle");
}

#[test]
fn the_viewer_takes_the_lighting_options_and_survives_a_bad_environment() {
    let dir = common::temp_dir("window-environment");
    let bright = dir.join("bright.hdr");
    let pixels = vec![image::Rgb([3.0f32, 2.0, 1.0]); 32 * 16];
    image::codecs::hdr::HdrEncoder::new(std::fs::File::create(&bright).unwrap())
        .encode(&pixels, 32, 16)
        .unwrap();
    let plain = screenshot(&[], "plain.png");
    let lit = screenshot(
        &[
            "--environment",
            bright.to_str().unwrap(),
            "--environment-background",
            "--exposure=-1",
        ],
        "lit.png",
    );
    // The background is the orange environment instead of the plain dark grey.
    let corner = |image: &image::RgbaImage| image.get_pixel(1270, 10).0;
    let (before, after) = (corner(&plain), corner(&lit));
    assert!(
        after[0] > before[0] + 60 && after[0] > after[2] + 40,
        "{before:?} → {after:?}"
    );
    // The demo has no lights of its own: the file's lights leave it lit by the environment
    // alone, darker than under the studio key light.
    let unlit = screenshot(&["--lights", "file"], "file-lights.png");
    let brightness = |image: &image::RgbaImage| {
        image
            .pixels()
            .map(|p| p[0] as u64 + p[1] as u64 + p[2] as u64)
            .sum::<u64>()
    };
    assert!(
        brightness(&unlit) < brightness(&plain),
        "--lights file drops the key light"
    );
    // A file that is not an environment leaves the studio; the window still opens.
    let bad = dir.join("bad.hdr");
    std::fs::write(&bad, b"not an image").unwrap();
    let image = screenshot(&["--environment", bad.to_str().unwrap()], "bad.png");
    assert_eq!(corner(&image), corner(&plain));
}

#[test]
fn a_broken_file_given_at_launch_opens_in_the_window_once_fixed() {
    use std::io::BufRead;
    let dir = common::temp_dir("window-fixed");
    let model = dir.join("model.glb");
    std::fs::write(&model, b"not a model yet").unwrap();
    let shot = dir.join("fixed.png");
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .arg(&model)
        .args(["--screenshot-after-frames", "90", shot.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The launch has read the broken file once it says so.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert!(line.contains("model.glb"), "{line}");
    // Saved again and again, as an artist re-exporting would, until the window has seen it
    // (its watcher starts with the window) and taken its screenshot.
    let fox = std::fs::read(common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    let status = loop {
        let saving = dir.join("model.saving");
        std::fs::write(&saving, &fox).unwrap();
        std::fs::rename(&saving, &model).unwrap();
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    };
    assert!(status.success());
    let fixed = image::open(&shot).unwrap().to_rgba8();
    let demo = screenshot(&[], "demo-beside-fixed.png");
    let panel_differs = (0..800)
        .flat_map(|y| (0..280).map(move |x| (x, y)))
        .filter(|&(x, y)| fixed.get_pixel(x, y) != demo.get_pixel(x, y))
        .count();
    assert!(panel_differs > 2000, "the panel still describes the demo rig");
    let reddish = fixed
        .enumerate_pixels()
        .filter(|(x, _, p)| *x < 280 && p[0] > 200 && p[1] < 140 && p[2] < 140)
        .count();
    assert!(reddish < 50, "the error is gone once the file opened");
}

#[test]
fn select_and_curves_open_the_curve_view_on_a_joint() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let fox = fox.to_str().unwrap();
    // Pixels near the colour of Y curves (rotation.y is the tail's swing in Survey) where the
    // view docks, over the timeline and right of the panel (the joint's gizmo has green too).
    let green = |image: &image::RgbaImage| {
        let (width, height) = image.dimensions();
        let near =
            |p: &image::Rgba<u8>| p.0[0].abs_diff(120) < 25 && p.0[1].abs_diff(200) < 25 && p.0[2].abs_diff(90) < 25;
        (height * 6 / 10..height * 9 / 10)
            .flat_map(|y| (width / 4..width).map(move |x| (x, y)))
            .filter(|&(x, y)| near(image.get_pixel(x, y)))
            .count()
    };
    let args = [fox, "--paused", "--select", "b_Tail03_014", "--curves"];
    let with_curves = screenshot(&args, "fox-curves.png");
    let without = screenshot(&[fox, "--paused", "--select", "b_Tail03_014"], "fox-no-curves.png");
    assert!(green(&with_curves) > 300, "the curve is drawn: {}", green(&with_curves));
    assert!(green(&without) < 50, "no curve without --curves: {}", green(&without));
}

/// What the X server shows of `rigscope ARGS` on a screen of its own, 1280x800, with
/// `RIGSCOPE_PRESENT=present`: grabbed once the picture has been the same for half a second.
fn shown_on_screen(args: &[&str], present: &str) -> image::RgbImage {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

    // -displayfd: Xvfb finds a free display and writes its number to our pipe.
    let mut xvfb = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb (Debian package xvfb) must be installed; .ci/run installs it");
    let mut number = String::new();
    BufReader::new(xvfb.stdout.take().unwrap())
        .read_line(&mut number)
        .unwrap();
    let display = format!(":{}", number.trim());
    let mut viewer = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(args)
        .env("DISPLAY", &display)
        .env("RIGSCOPE_PRESENT", present)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (connection, screen) = x11rb::connect(Some(&display)).unwrap();
    let root = connection.setup().roots[screen].root;
    let grab = || {
        let reply = (connection
            .get_image(ImageFormat::Z_PIXMAP, root, 0, 0, 1280, 800, !0)
            .unwrap())
        .reply()
        .unwrap();
        // 24-bit depth: B, G, R and a pad byte per pixel.
        let rgb = reply.data.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0]]).collect();
        image::RgbImage::from_raw(1280, 800, rgb).unwrap()
    };
    let started = std::time::Instant::now();
    let mut last = grab();
    let shown = loop {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let now = grab();
        // Drawn (not the empty screen's black) and still.
        if now == last && now.pixels().any(|p| p.0 != [0, 0, 0]) {
            break now;
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "the window never showed a still picture"
        );
        last = now;
    };
    viewer.kill().unwrap();
    viewer.wait().unwrap();
    xvfb.kill().unwrap();
    xvfb.wait().unwrap();
    shown
}

#[test]
fn an_unknown_way_of_showing_frames_is_refused_in_words() {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_rigscope")])
        .args(["--benchmark-frames", "1"])
        .env("RIGSCOPE_PRESENT", "carrier-pigeon")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains(r#"RIGSCOPE_PRESENT=carrier-pigeon: expected "surface" or "shared-memory""#),
        "{stderr}"
    );
}

#[test]
fn frames_shown_through_shared_memory_look_as_the_surfaces_do() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let args = [fox.to_str().unwrap(), "--paused"];
    let shared = shown_on_screen(&args, "shared-memory");
    let surface = shown_on_screen(&args, "surface");
    // The 3D view, right of the panel and above the timeline (the panel names the way frames
    // are shown, which differs).
    let view = |image: &image::RgbImage| image::imageops::crop_imm(image, 320, 0, 960, 700).to_image();
    let (shared, surface) = (view(&shared), view(&surface));
    let fox_orange = shared
        .pixels()
        .filter(|p| p.0[0] > 150 && p.0[1] < 140 && p.0[2] < 80)
        .count();
    assert!(fox_orange > 2000, "the fox is on screen ({fox_orange} orange pixels)");
    let differing = shared.pixels().zip(surface.pixels()).filter(|(a, b)| a != b).count();
    assert!(
        differing < shared.len() / 3 / 1000,
        "{differing} pixels differ between the two ways of showing the frame"
    );
}
