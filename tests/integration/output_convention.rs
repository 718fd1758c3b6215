//! The command line's one output convention (README, "Where output goes"): `-o -` is standard
//! output where the format streams and refused in words where it cannot, files appear whole
//! or not at all (also when the command is killed), a link is written through; and the
//! launcher's words: a mistyped command's nearest name, one size limit, no build paths, and
//! nothing on standard error when a headless command succeeds.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::temp_dir;

fn sample(relative: &str) -> String {
    common::gltf(relative).display().to_string()
}

/// Runs `rigscope args` in `folder`, standard output and error captured through pipes.
fn rigscope_in(folder: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(args)
        .current_dir(folder)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn entries(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_killed_video_leaves_no_file() {
    let dir = temp_dir("output-killed-video");
    for signal in [libc::SIGTERM, libc::SIGINT] {
        // Minutes of turntable: far longer than the wait below.
        let mut video = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .args([
                "video",
                "-o",
                "clip.mp4",
                "--size",
                "64x48",
                "--turntable=300",
                "--fps",
                "25",
            ])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait (polling, with no time limit of its own) until the export has begun writing.
        let mut polls = 0;
        while entries(&dir).is_empty() {
            assert!(video.try_wait().unwrap().is_none(), "video ended before it was killed");
            std::thread::sleep(std::time::Duration::from_millis(20));
            polls += 1;
            assert!(polls < 30_000, "no file appeared");
        }
        let partial = entries(&dir);
        assert!(
            partial[0].starts_with(".clip.mp4.") && partial[0].ends_with(".partial"),
            "{partial:?}"
        );
        // SAFETY: kill(2) on the child's own process id.
        assert_eq!(unsafe { libc::kill(video.id() as libc::pid_t, signal) }, 0);
        let status = video.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(signal), "it dies of the signal it was sent");
        assert_eq!(entries(&dir), Vec::<String>::new(), "signal {signal} left a file");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dash_writes_streaming_formats_to_standard_output_and_no_file() {
    let dir = temp_dir("output-dash");
    let render = rigscope_in(&dir, &["render", "-o", "-", "--size", "64x48"]);
    assert!(render.status.success(), "{}", stderr(&render));
    let picture = image::load_from_memory_with_format(&render.stdout, image::ImageFormat::Png).unwrap();
    assert_eq!((picture.width(), picture.height()), (64, 48));

    let fox = sample("Fox/glTF-Binary/Fox.glb");
    let gif = rigscope_in(
        &dir,
        &[
            "video", &fox, "-o", "-", "--format", "gif", "--size", "32x24", "--fps", "5", "--to", "0.4",
        ],
    );
    assert!(gif.status.success(), "{}", stderr(&gif));
    assert!(gif.stdout.starts_with(b"GIF89a"));

    let pose = rigscope_in(&dir, &["pose", &fox, "-o", "-"]);
    assert!(pose.status.success(), "{}", stderr(&pose));
    let posed: serde_json::Value = serde_json::from_slice(&pose.stdout).unwrap();
    assert!(posed["primitives"].is_array());

    let curves = rigscope_in(
        &dir,
        &["curves", &fox, "--joint", "b_Head_05", "--format", "csv", "-o", "-"],
    );
    assert!(curves.status.success(), "{}", stderr(&curves));
    assert!(curves.stdout.starts_with(b"kind,curve,time,value,note\n"));

    let convert = rigscope_in(&dir, &["convert", &fox, "-o", "-"]);
    assert!(convert.status.success(), "{}", stderr(&convert));
    assert!(convert.stdout.starts_with(b"glTF"), "a GLB on standard output");
    assert!(
        stderr(&convert).contains("-> -"),
        "the report on standard error: {}",
        stderr(&convert)
    );

    assert_eq!(
        entries(&dir),
        Vec::<String>::new(),
        "nothing named - (or anything) written"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dash_is_refused_in_words_where_the_format_cannot_stream() {
    let dir = temp_dir("output-refused");
    for (format, words) in [
        (None, "needs the kind of video: give --format gif"),
        (
            Some("png-sequence"),
            "a PNG sequence is a folder of files and cannot go to standard output",
        ),
        (
            Some("mp4"),
            "an MP4 cannot go to standard output (-o -): its index is written after the frames",
        ),
    ] {
        let mut args = vec!["video", "-o", "-", "--size", "32x24", "--to", "0.2"];
        args.extend(format.iter().flat_map(|format| ["--format", format]));
        let refused = rigscope_in(&dir, &args);
        assert_eq!(refused.status.code(), Some(1), "{format:?}");
        assert!(stderr(&refused).contains(words), "{format:?}: {}", stderr(&refused));
        assert!(refused.stdout.is_empty());
    }
    assert_eq!(entries(&dir), Vec::<String>::new(), "no folder named -");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_through_a_link_lands_where_it_points() {
    let dir = temp_dir("output-link");
    std::fs::create_dir(dir.join("pictures")).unwrap();
    std::os::unix::fs::symlink("pictures/still.png", dir.join("latest.png")).unwrap();
    let render = rigscope_in(&dir, &["render", "-o", "latest.png", "--size", "40x30"]);
    assert!(render.status.success(), "{}", stderr(&render));
    let link = std::fs::symlink_metadata(dir.join("latest.png")).unwrap();
    assert!(link.file_type().is_symlink(), "the link stays a link");
    assert_eq!(
        image::image_dimensions(dir.join("pictures/still.png")).unwrap(),
        (40, 30)
    );
    assert_eq!(entries(&dir.join("pictures")), ["still.png"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mistyped_command_suggests_the_nearest() {
    let dir = temp_dir("output-mistyped");
    let fox = sample("Fox/glTF-Binary/Fox.glb");
    let mistyped = rigscope_in(&dir, &["inspekt", &fox]);
    assert_eq!(mistyped.status.code(), Some(2));
    let said = stderr(&mistyped);
    assert!(
        said.contains("'inspekt' is not a command, nor a file; did you mean 'inspect'?"),
        "{said}"
    );
    assert!(!said.contains("cannot be used with"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_headless_render_says_nothing_on_standard_error() {
    let dir = temp_dir("output-quiet");
    // Mesa's Vulkan driver (lavapipe) is probed too when no backend is named; without a
    // Wayland session its device-selection layer had libwayland print XDG_RUNTIME_DIR errors.
    for backend in [None, Some("vulkan")] {
        let mut render = Command::new(env!("CARGO_BIN_EXE_rigscope"));
        render
            .args(["render", "-o", "quiet.png", "--size", "64x48"])
            .current_dir(&dir)
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("WAYLAND_DISPLAY");
        if let Some(backend) = backend {
            render.env("WGPU_BACKEND", backend);
        }
        let rendered = render.output().unwrap();
        assert!(rendered.status.success(), "{backend:?}: {}", stderr(&rendered));
        assert_eq!(stderr(&rendered), "", "{backend:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_size_option_has_one_limit_in_the_same_words() {
    let dir = temp_dir("output-sizes");
    let fox = sample("Fox/glTF-Binary/Fox.glb");
    for args in [
        &["render", "-o", "a.png", "--size", "0x100"][..],
        &["render", "-o", "a.png", "--size", "9000x100"],
        &["video", "-o", "a.gif", "--size", "5000x100000"],
        &["thumbnail", &fox, "-o", "a.png", "--size", "0"],
        &["curves", &fox, "--joint", "b_Head_05", "--size", "100x9000"],
    ] {
        let refused = rigscope_in(&dir, args);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&refused).contains("sizes run from 1 to 8192 pixels a side"),
            "{args:?}: {}",
            stderr(&refused)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_viewer_without_a_display_says_so_without_build_paths() {
    let dir = temp_dir("output-no-display");
    let viewer = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .current_dir(&dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(viewer.status.code(), Some(1));
    let said = stderr(&viewer);
    assert!(said.contains("no display to open the viewer's window on"), "{said}");
    assert!(!said.contains(".cargo") && !said.contains(".rs:"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}
