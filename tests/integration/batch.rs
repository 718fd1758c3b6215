//! Thumbnails, contact sheets and batches over many files: pictures of the requested size with
//! the model in them, and batches where one corrupt file is reported and the rest processed.

use crate::common;

use std::path::{Path, PathBuf};

use crate::shared::shown_on_a_terminal;
use common::{rigscope, temp_dir};
use serde_json::Value;

/// Fraction of pixels that differ from the top-left one (the background) by more than 24.
fn covered(image: &image::RgbaImage, region: (u32, u32, u32, u32)) -> f64 {
    let background = image.get_pixel(0, 0);
    let (x0, y0, w, h) = region;
    let mut count = 0;
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            let p = image.get_pixel(x, y);
            if (0..3).any(|c| (p[c] as i32 - background[c] as i32).abs() > 24) {
                count += 1;
            }
        }
    }
    count as f64 / (w * h) as f64
}

fn thumbnail(file: &Path, out: &Path, size: &str) -> image::RgbaImage {
    let made = rigscope(&[
        "thumbnail",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--size",
        size,
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    image::open(out).unwrap().to_rgba8()
}

#[test]
fn thumbnails_are_framed_pictures_of_the_requested_size() {
    let dir = temp_dir("thumbnails");
    for (file, size) in [
        ("Fox/glTF-Binary/Fox.glb", 96u32),
        ("CesiumMan/glTF-Binary/CesiumMan.glb", 200),
    ] {
        let image = thumbnail(&common::gltf(file), &dir.join("t.png"), &size.to_string());
        assert_eq!(image.dimensions(), (size, size));
        let coverage = covered(&image, (0, 0, size, size));
        assert!((0.05..0.8).contains(&coverage), "{file}: {coverage}");
    }
    // A file with joints and no meshes shows its skeleton.
    let skeleton = dir.join("skeleton.gltf");
    std::fs::write(
        &skeleton,
        r#"{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
            "nodes": [{"name": "hip", "children": [1, 2]},
                      {"name": "leg", "translation": [0.2, -1, 0]},
                      {"name": "spine", "translation": [0, 1, 0], "children": [3]},
                      {"name": "head", "translation": [0, 0.6, 0.1]}]}"#,
    )
    .unwrap();
    let image = thumbnail(&skeleton, &dir.join("s.png"), "128");
    assert!(covered(&image, (0, 0, 128, 128)) > 0.005, "the skeleton is drawn");
    let bad = rigscope(&["thumbnail", "/no/such.glb", "-o", dir.join("x.png").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("/no/such.glb"));
    // The older spelling, FILE OUT, still writes the thumbnail, with a note to move on.
    let old = rigscope(&[
        "thumbnail",
        skeleton.to_str().unwrap(),
        dir.join("old.png").to_str().unwrap(),
    ]);
    assert!(old.status.success(), "{}", String::from_utf8_lossy(&old.stderr));
    assert!(String::from_utf8_lossy(&old.stderr).contains("deprecated; write `thumbnail FILE -o OUT.png`"));
    assert!(dir.join("old.png").exists());
    let both = rigscope(&["thumbnail", "a.glb", "b.png", "-o", "c.png"]);
    assert_eq!(both.status.code(), Some(1), "one output, not two");
    let three = rigscope(&["thumbnail", "a.glb", "b.glb", "c.png"]);
    assert_eq!(three.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&three.stderr).contains("--out-dir"));
    let json_alone = rigscope(&["thumbnail", "a.glb", "b.png", "--json"]);
    assert_eq!(json_alone.status.code(), Some(2), "--json is for --out-dir batches");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn contact_sheets_have_a_row_per_clip_and_a_frame_per_column() {
    let dir = temp_dir("sheets");
    let out = dir.join("sheet.png");
    // The demo rig: 5 clips, 4 frames of 96 pixels; each cell holds the figure.
    let made = rigscope(&["sheet", "-o", out.to_str().unwrap(), "--frames", "4", "--cell", "96"]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let sheet = image::open(&out).unwrap().to_rgba8();
    // Layout (src/cli/sheet.rs): margins of 8, titles of 14 + 8, time labels of 11 + 4.
    let (title, label, margin) = (22, 15, 8);
    let row = title + 96 + label;
    assert_eq!(
        sheet.dimensions(),
        (8 + 4 * (96 + 8), title + margin + 5 * (row + margin))
    );
    for clip in 0..5 {
        let top = title + margin + clip * (row + margin);
        assert!(
            covered(&sheet, (margin, top, 120, title - 4)) > 0.02,
            "clip {clip} has a title"
        );
        for frame in 0..4 {
            let x = margin + frame * (96 + margin);
            let cell = covered(&sheet, (x, top + title, 96, 96));
            assert!(cell > 0.3, "clip {clip} frame {frame}: {cell}");
            assert!(
                covered(&sheet, (x + 20, top + title + 96, 56, label - 2)) > 0.01,
                "time label"
            );
        }
    }
    // A walk's frames differ from one another.
    let walk_top = title + margin + (row + margin) + title;
    let cell =
        |frame: u32| image::imageops::crop_imm(&sheet, margin + frame * (96 + margin), walk_top, 96, 96).to_image();
    assert_ne!(cell(0), cell(1));
    // A file's sheet, and the limit on its size.
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let made = rigscope(&[
        "sheet",
        fox.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--frames",
        "3",
        "--cell",
        "64",
    ]);
    assert!(made.status.success());
    assert_eq!(image::image_dimensions(&out).unwrap().0, 8 + 3 * (64 + 8));
    let huge = rigscope(&[
        "sheet",
        fox.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--frames",
        "64",
        "--cell",
        "1024",
    ]);
    assert_eq!(huge.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&huge.stderr).contains("sizes run from 1 to 8192 pixels a side"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of the sample assets with one truncated file added.
fn assets_with_a_corrupt_file(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let mut folders = vec![common::assets_dir()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let copy = dir.join(path.strip_prefix(common::assets_dir()).unwrap());
            if path.is_dir() {
                std::fs::create_dir_all(&copy).unwrap();
                folders.push(path);
            } else {
                std::fs::copy(&path, &copy).unwrap();
            }
        }
    }
    let corrupt = dir.join("gltf/corrupt.glb");
    let fox = std::fs::read(common::gltf("Fox/glTF-Binary/Fox.glb")).unwrap();
    std::fs::write(&corrupt, &fox[..fox.len() / 3]).unwrap();
    (dir, corrupt)
}

fn model_count(dir: &Path) -> usize {
    rigscope::cli::batch::expand(&[dir.to_path_buf()]).len()
}

#[test]
fn a_batch_reports_the_corrupt_file_and_processes_the_rest() {
    let (dir, corrupt) = assets_with_a_corrupt_file("batch-inspect");
    let total = model_count(&dir);
    assert!(total >= 18, "{total}");
    let output = rigscope(&["inspect", "--json", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "a failed file fails the batch");
    let lines: Vec<Value> = common::json_lines(&output.stdout);
    assert_eq!(lines.len(), total, "one line per file");
    let failed: Vec<&Value> = lines.iter().filter(|l| l["ok"] == false).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["file"], corrupt.display().to_string());
    assert!(failed[0]["error"].as_str().unwrap().contains("corrupt.glb"));
    let fox = lines
        .iter()
        .find(|l| l["file"].as_str().unwrap().ends_with("Fox.glb"))
        .unwrap();
    assert_eq!(
        (fox["ok"].clone(), fox["nodes"].clone()),
        (Value::Bool(true), Value::from(26))
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("inspected {} of {total} files", total - 1)),
        "{stderr}"
    );
    // The files come in a stable order: sorted by path within the directory.
    let files: Vec<&Path> = lines.iter().map(|l| Path::new(l["file"].as_str().unwrap())).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);

    // Text mode: every good model's summary; the error on standard error.
    let text = rigscope(&[
        "inspect",
        dir.join("gltf/Fox").to_str().unwrap(),
        corrupt.to_str().unwrap(),
    ]);
    assert_eq!(text.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&text.stdout).contains("26 nodes"));
    assert!(String::from_utf8_lossy(&text.stderr).contains("corrupt.glb"));
    // All good: exit 0.
    let good = rigscope(&[
        "inspect",
        dir.join("gltf/Fox").to_str().unwrap(),
        dir.join("md5").to_str().unwrap(),
    ]);
    assert!(good.status.success());

    let thumbnails = dir.join("thumbnails");
    let output = rigscope(&[
        "thumbnail",
        "--json",
        "--size",
        "64",
        dir.join("gltf").to_str().unwrap(),
        "--out-dir",
        thumbnails.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<Value> = common::json_lines(&output.stdout);
    let gltf_count = model_count(&dir.join("gltf"));
    assert_eq!(lines.len(), gltf_count);
    for line in &lines {
        let file = line["file"].as_str().unwrap();
        if file.ends_with("corrupt.glb") {
            assert_eq!(line["ok"], false);
            continue;
        }
        assert_eq!(line["ok"], true, "{line}");
        let png = PathBuf::from(line["thumbnail"].as_str().unwrap());
        assert!(png.starts_with(&thumbnails), "{}", png.display());
        let image = image::open(&png).unwrap().to_rgba8();
        assert_eq!(image.dimensions(), (64, 64));
        assert!(covered(&image, (0, 0, 64, 64)) > 0.01, "{file} is blank");
    }
    // Same names in different folders do not collide.
    assert!(thumbnails.join("SimpleSkin/glTF/SimpleSkin.gltf.png").is_file());
    assert!(
        thumbnails
            .join("SimpleSkin/glTF-Embedded/SimpleSkin.gltf.png")
            .is_file()
    );
    // Two files given by name that would share a thumbnail: the second fails, the first stays.
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let twin = dir.join("twin");
    std::fs::create_dir_all(&twin).unwrap();
    std::fs::copy(&fox, twin.join("Fox.glb")).unwrap();
    let both = dir.join("both");
    let output = rigscope(&[
        "thumbnail",
        "--size",
        "32",
        fox.to_str().unwrap(),
        twin.join("Fox.glb").to_str().unwrap(),
        "--out-dir",
        both.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("would overwrite that of") && stderr.contains("twin/Fox.glb"),
        "{stderr}"
    );
    assert!(both.join("Fox.glb.png").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_terminal_sees_a_progress_bar_and_a_pipe_does_not() {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let man = common::gltf("CesiumMan/glTF-Binary/CesiumMan.glb");
    let command = format!(
        "{} inspect {} {} > /dev/null",
        env!("CARGO_BIN_EXE_rigscope"),
        fox.display(),
        man.display()
    );
    let log = std::env::temp_dir().join(format!("rigscope-progress-{}", std::process::id()));
    let shown = shown_on_a_terminal(&command, &log);
    assert!(shown.contains("2/2 100%") && shown.contains('━'), "a bar: {shown}");
    assert!(shown.contains("inspected 2 of 2 files"), "{shown}");
    let piped = rigscope(&["inspect", fox.to_str().unwrap(), man.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&piped.stderr).contains("100%"));
}
