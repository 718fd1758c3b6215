//! `rigscope video`: decoded GIFs and APNGs have the frames, size and timing asked for, a
//! sequence has its numbered files and each is `render`'s picture of that moment, a
//! turntable's middle frame is the model seen from the other side, the progress line shows
//! only on a terminal, and bad options are refused by name. The demo rig keeps it fast.

use crate::common;

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use crate::shared::shown_on_a_terminal;
use common::{rigscope, succeed, temp_dir};

fn video(out: &Path, extra: &[&str]) {
    let mut args = vec!["video", "-o", out.to_str().unwrap(), "--size", "64x48"];
    args.extend_from_slice(extra);
    succeed(&args);
}

/// Each frame's delay in centiseconds and its pixels, checking every frame covers the whole
/// picture.
fn gif_frames(path: &Path) -> (Vec<u16>, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(File::open(path).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (64, 48));
    let (mut delays, mut pixels) = (Vec::new(), Vec::new());
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), (64, 48));
        delays.push(frame.delay);
        pixels.push(frame.buffer.to_vec());
    }
    (delays, pixels)
}

#[test]
fn a_gif_has_the_frames_size_and_delays_asked_for() {
    let dir = temp_dir("video-gif");
    let out = dir.join("walk.gif");
    video(&out, &["--clip", "walk", "--to", "0.5", "--fps", "10"]);
    assert_eq!(gif_frames(&out).0, [10; 5]);
    // 30 fps is 3⅓ centiseconds a frame: delays of 3 and 4 that add up to the time asked.
    video(&out, &["--clip", "walk", "--from", "0.2", "--to", "0.5", "--fps", "30"]);
    let (delays, frames) = gif_frames(&out);
    assert_eq!(delays, [3, 4, 3, 3, 4, 3, 3, 4, 3]);
    assert_eq!(delays.iter().sum::<u16>(), 30);
    assert!(
        frames[0] != frames[8],
        "the walk moves between the first and last frames"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_apng_has_the_frames_size_and_exact_delays_asked_for() {
    let dir = temp_dir("video-apng");
    let out = dir.join("walk.png");
    video(&out, &["--clip", "walk", "--to", "0.25", "--fps", "24"]);
    let decoder = png::Decoder::new(BufReader::new(File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let info = reader.info();
    assert_eq!((info.width, info.height), (64, 48));
    let animation = info.animation_control.unwrap();
    assert_eq!((animation.num_frames, animation.num_plays), (6, 0));
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let mut frames = Vec::new();
    for _ in 0..6 {
        reader.next_frame(&mut buffer).unwrap();
        let control = reader.info().frame_control.unwrap();
        assert_eq!((control.delay_num, control.delay_den), (1, 24));
        assert_eq!((control.width, control.height), (64, 48));
        frames.push(buffer.clone());
    }
    assert!(frames[0] != frames[5], "the frames move");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sequence_is_numbered_files_each_the_render_of_its_moment() {
    let dir = temp_dir("video-sequence");
    let frames = dir.join("frames");
    video(
        &frames,
        &["--clip", "walk", "--from", "0.25", "--to", "1", "--fps", "4"],
    );
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["frame_0001.png", "frame_0002.png", "frame_0003.png"]);
    // Frame 3 shows 0.25 + 2/4 s, exactly as `render` draws it.
    let still = dir.join("still.png");
    succeed(&[
        "render",
        "-o",
        still.to_str().unwrap(),
        "--clip",
        "walk",
        "--time",
        "0.75",
        "--size",
        "64x48",
    ]);
    let rendered = image::open(&still).unwrap().to_rgba8();
    let third = image::open(frames.join("frame_0003.png")).unwrap().to_rgba8();
    let second = image::open(frames.join("frame_0002.png")).unwrap().to_rgba8();
    assert_eq!(third.dimensions(), (64, 48));
    assert!(third == rendered, "frame 3 is the render at 0.75 s");
    assert!(second != rendered, "frame 2 is another moment");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Mean difference per channel of two images of one size, 0 to 255.
fn mean_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let sum: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.as_raw().len() as f64
}

#[test]
fn a_turntables_middle_frame_sees_the_model_from_the_other_side() {
    let dir = temp_dir("video-turntable");
    let frames = dir.join("turn");
    // A held pose, two frames: the camera at the front, then half a turn on.
    video(
        &frames,
        &[
            "--clip",
            "walk",
            "--to",
            "0",
            "--turntable=1",
            "--fps",
            "2",
            "--view",
            "front",
        ],
    );
    let first = image::open(frames.join("frame_0001.png")).unwrap().to_rgba8();
    let middle = image::open(frames.join("frame_0002.png")).unwrap().to_rgba8();
    let render = |view: &str| {
        let out = dir.join(format!("{view}.png"));
        succeed(&[
            "render",
            "-o",
            out.to_str().unwrap(),
            "--clip",
            "walk",
            "--size",
            "64x48",
            "--view",
            view,
        ]);
        image::open(&out).unwrap().to_rgba8()
    };
    let (front, back) = (render("front"), render("back"));
    assert!(front != back, "the demo rig looks different from behind");
    assert!(first == front, "the turntable starts where it was asked");
    // 180° from 0 by the turn and 180° by the back view's degrees can differ in the last bit.
    let to_back = mean_difference(&middle, &back);
    let to_front = mean_difference(&middle, &front);
    assert!(
        to_back < 0.5 && to_front > 4.0 * to_back.max(0.1),
        "{to_back} {to_front}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_terminal_sees_a_progress_line_and_a_pipe_does_not() {
    let dir = temp_dir("video-progress");
    let out = dir.join("p.gif");
    let command = format!(
        "{} video -o {} --size 32x32 --to 0.2 --fps 10",
        env!("CARGO_BIN_EXE_rigscope"),
        out.display()
    );
    let shown = shown_on_a_terminal(&command, &dir.join("log"));
    assert!(shown.contains("[2/2] 100%  frame 2 at 0.10 s"), "{shown}");
    let piped = rigscope(&[
        "video",
        "-o",
        out.to_str().unwrap(),
        "--size",
        "32x32",
        "--to",
        "0.2",
        "--fps",
        "10",
    ]);
    assert!(piped.status.success());
    // (A graphics driver may say something of its own there: Mesa's Vulkan driver without
    // XDG_RUNTIME_DIR does.)
    let stderr = String::from_utf8_lossy(&piped.stderr);
    assert!(!stderr.contains('%') && !stderr.contains('\r'), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_refused_by_name_and_write_nothing() {
    let dir = temp_dir("video-errors");
    let gif = dir.join("x.gif");
    let gif = gif.to_str().unwrap();
    for (args, code, expected) in [
        (vec!["--fps", "0"], 1, "--fps 0"),
        (vec!["--fps", "60"], 1, "a GIF shows at most 50"),
        (vec!["--from", "1", "--to", "0.5"], 1, "--from 1 is after --to 0.5"),
        (vec!["--to", "99"], 1, "--to 99 is past the end of clip 'idle'"),
        (vec!["--turntable=3000", "--fps", "50"], 1, "more than 9999"),
        (vec!["--size", "5000x10"], 2, "at most 4096 pixels"),
        (vec!["--clip", "fly"], 1, "fly"),
    ] {
        let mut all = vec!["video", "-o", gif];
        all.extend_from_slice(&args);
        let ran = rigscope(&all);
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert_eq!(ran.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let mp4 = dir.join("x.mp4");
    let ran = rigscope(&["video", "-o", mp4.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&ran.stderr).contains(".mp4 is not .gif, .png or .apng"));
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(names.is_empty(), "nothing written: {names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bare `--turntable` before the model leaves the model as the file (its seconds are
/// written `--turntable=SECONDS`).
#[test]
fn a_bare_turntable_before_the_file_turns_over_the_clip() {
    let dir = temp_dir("video-bare-turntable");
    let out = dir.join("fox.gif");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    succeed(&[
        "video",
        "--turntable",
        fox.to_str().unwrap(),
        "--clip",
        "Walk",
        "--fps",
        "4",
        "--size",
        "64x48",
        "-o",
        out.to_str().unwrap(),
    ]);
    let (delays, _) = gif_frames(&out);
    assert_eq!(delays.len(), 3, "Walk's 0.71 s at 4 fps");
}
