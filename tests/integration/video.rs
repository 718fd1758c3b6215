//! `rigscope video`: decoded MP4s, GIFs and APNGs have the frames, size and timing asked for
//! (an MP4's frames each the render of its moment within H.264's loss), a
//! sequence has its numbered files and each is `render`'s picture of that moment, a
//! turntable's middle frame is the model seen from the other side, the progress bar shows
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

/// The frames of the MP4 at `path`, read by the `mp4` crate (not rigscope's writer) and
/// decoded by OpenH264, with the track's timing: (timescale, each sample's start and
/// duration, which are key frames).
struct Mp4Video {
    size: (u16, u16),
    timescale: u32,
    seconds: f64,
    samples: Vec<(u64, u32, bool)>,
    frames: Vec<image::RgbaImage>,
}

fn read_mp4(path: &Path) -> Mp4Video {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = mp4::Mp4Reader::read_header(std::io::Cursor::new(&bytes), bytes.len() as u64).unwrap();
    assert_eq!(reader.tracks().len(), 1);
    let track = reader.tracks().values().next().unwrap();
    assert_eq!(track.media_type().unwrap(), mp4::MediaType::H264);
    let (id, size, timescale) = (track.track_id(), (track.width(), track.height()), track.timescale());
    let seconds = reader.duration().as_secs_f64();
    // Annex B for the decoder: start codes instead of lengths, the parameter sets first.
    let start = [0u8, 0, 0, 1];
    let mut stream = Vec::new();
    for set in [
        track.sequence_parameter_set().unwrap(),
        track.picture_parameter_set().unwrap(),
    ] {
        stream.extend_from_slice(&start);
        stream.extend_from_slice(set);
    }
    let mut decoder = openh264::decoder::Decoder::new().unwrap();
    let (mut samples, mut frames) = (Vec::new(), Vec::new());
    let count = reader.sample_count(id).unwrap();
    for number in 1..=count {
        let sample = reader.read_sample(id, number).unwrap().unwrap();
        samples.push((sample.start_time, sample.duration, sample.is_sync));
        let mut nal_units = &sample.bytes[..];
        while !nal_units.is_empty() {
            let length = u32::from_be_bytes(nal_units[..4].try_into().unwrap()) as usize;
            stream.extend_from_slice(&start);
            stream.extend_from_slice(&nal_units[4..4 + length]);
            nal_units = &nal_units[4 + length..];
        }
        let decoded = decoder
            .decode(&stream)
            .unwrap()
            .expect("each sample decodes to a frame");
        let mut rgba = vec![0; size.0 as usize * size.1 as usize * 4];
        decoded.write_rgba8(&mut rgba);
        frames.push(image::RgbaImage::from_raw(size.0.into(), size.1.into(), rgba).unwrap());
        stream.clear();
    }
    Mp4Video {
        size,
        timescale,
        seconds,
        samples,
        frames,
    }
}

/// Peak signal-to-noise ratio of `decoded` against `original` over the colour channels, in dB.
fn psnr(decoded: &image::RgbaImage, original: &image::RgbaImage) -> f64 {
    let (mut squares, mut count) = (0.0, 0.0);
    for (a, b) in decoded.pixels().zip(original.pixels()) {
        for channel in 0..3 {
            squares += (f64::from(a[channel]) - f64::from(b[channel])).powi(2);
            count += 1.0;
        }
    }
    10.0 * (255.0f64.powi(2) / (squares / count).max(1e-9)).log10()
}

#[test]
fn an_mp4_has_exact_timestamps_and_each_frame_is_the_render_of_its_moment() {
    let dir = temp_dir("video-mp4");
    let out = dir.join("walk.mp4");
    let args = [
        "--clip", "walk", "--from", "0.1", "--to", "1.1", "--fps", "20", "--size", "160x120",
    ];
    succeed(&[&["video", "-o", out.to_str().unwrap()], &args[..]].concat());
    let video = read_mp4(&out);
    assert_eq!(video.size, (160, 120));
    assert_eq!(video.frames.len(), 20);
    // 1 s at 20 fps: frame i starts at exactly i/20 s and lasts 1/20 s.
    for (i, &(start, duration, _)) in video.samples.iter().enumerate() {
        assert_eq!(
            (
                start as f64 / f64::from(video.timescale),
                f64::from(duration) / f64::from(video.timescale)
            ),
            (i as f64 / 20.0, 0.05),
            "frame {i}"
        );
    }
    assert!((video.seconds - 1.0).abs() < 1e-3, "{}", video.seconds);
    // A key frame every two seconds: the first only, here.
    let key_frames: Vec<bool> = video.samples.iter().map(|s| s.2).collect();
    assert!(key_frames[0] && key_frames[1..].iter().all(|&k| !k), "{key_frames:?}");
    // The same frames losslessly, to compare each decoded frame with.
    let frames = dir.join("frames");
    succeed(&[&["video", "-o", frames.to_str().unwrap()], &args[..]].concat());
    let original = |i: usize| {
        image::open(frames.join(format!("frame_{:04}.png", i + 1)))
            .unwrap()
            .to_rgba8()
    };
    let mut worst = f64::INFINITY;
    for (i, decoded) in video.frames.iter().enumerate() {
        let same = psnr(decoded, &original(i));
        worst = worst.min(same);
        if i > 0 {
            let previous = psnr(decoded, &original(i - 1));
            assert!(
                same > previous + 1.0,
                "frame {i} is its own moment: {same} dB against {previous} dB"
            );
        }
    }
    // 35.5 dB at this small size (about 40 at 1280x720).
    assert!(worst > 34.0, "every frame within H.264's loss: worst {worst:.1} dB");
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
fn a_terminal_sees_a_progress_bar_and_a_pipe_does_not() {
    let dir = temp_dir("video-progress");
    let out = dir.join("p.gif");
    let command = format!(
        "{} video -o {} --size 32x32 --to 0.2 --fps 10",
        env!("CARGO_BIN_EXE_rigscope"),
        out.display()
    );
    let shown = shown_on_a_terminal(&command, &dir.join("log"));
    assert!(
        shown.contains("2/2 100%") && shown.contains("frame 2 at 0.10 s"),
        "{shown}"
    );
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
        (vec!["--size", "9000x10"], 2, "sizes run from 1 to 8192 pixels a side"),
        (vec!["--clip", "fly"], 1, "fly"),
    ] {
        let mut all = vec!["video", "-o", gif];
        all.extend_from_slice(&args);
        let ran = rigscope(&all);
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert_eq!(ran.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    for (name, size, expected) in [
        ("x.avi", "480x360", ".avi is not .mp4, .gif, .png or .apng"),
        ("x.mp4", "481x360", "481x360: an MP4's frames need even sides"),
        ("x.mp4", "4000x2000", "at most 3840x2160"),
    ] {
        let out = dir.join(name);
        let ran = rigscope(&["video", "-o", out.to_str().unwrap(), "--size", size]);
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert!(stderr.contains(expected), "{name} {size}: {stderr}");
    }
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
