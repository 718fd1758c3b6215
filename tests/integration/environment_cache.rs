//! The prepared environment kept on disk (src/render/environment_cache.rs): a second run reads it
//! and draws the same picture; a damaged file is replaced; a cache that cannot be written, or
//! one turned off, changes nothing in the picture.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// Renders Fox with `cache_home` as `XDG_CACHE_HOME` (and `RIGSCOPE_CACHE` as given) and
/// returns the picture.
fn render(cache_home: &Path, switch: Option<&str>, out: &Path) -> image::RgbaImage {
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let mut command = Command::new(env!("CARGO_BIN_EXE_rigscope"));
    command
        .args([
            "render",
            fox.to_str().unwrap(),
            "--size",
            "160x120",
            "-o",
            out.to_str().unwrap(),
        ])
        .env("XDG_CACHE_HOME", cache_home)
        .env_remove("RIGSCOPE_CACHE");
    if let Some(switch) = switch {
        command.env("RIGSCOPE_CACHE", switch);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    image::open(out).unwrap().to_rgba8()
}

/// The environment files in `cache_home`'s rigscope folder.
fn cache_files(cache_home: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(cache_home.join("rigscope")) else {
        return Vec::new();
    };
    entries.map(|entry| entry.unwrap().path()).collect()
}

#[test]
fn a_cached_environment_draws_the_same_picture_and_damage_is_replaced() {
    let dir = common::temp_dir("environment-cache");
    let cache_home = dir.join("cache");
    let out = dir.join("fox.png");

    let uncached = render(&dir.join("off"), Some("off"), &out);
    assert!(
        cache_files(&dir.join("off")).is_empty(),
        "RIGSCOPE_CACHE=off writes nothing"
    );

    let first = render(&cache_home, None, &out);
    assert!(first == uncached, "preparing and keeping the maps changes nothing");
    let files = cache_files(&cache_home);
    assert_eq!(files.len(), 1, "one file for the studio: {files:?}");
    let file = &files[0];
    let written = std::fs::metadata(file).unwrap();

    let second = render(&cache_home, None, &out);
    assert!(
        second == uncached,
        "the maps read from the cache light the same picture"
    );
    // A hit reads the file and leaves it; a miss would have renamed a new file over it.
    assert_eq!(std::fs::metadata(file).unwrap().ino(), written.ino());
    assert_eq!(cache_files(&cache_home), files, "nothing else written");

    let whole = std::fs::read(file).unwrap();
    let mut altered = whole.clone();
    let middle = altered.len() / 2;
    altered[middle] ^= 0x40;
    for damaged in [whole[..whole.len() / 3].to_vec(), altered, b"garbage".to_vec()] {
        std::fs::write(file, &damaged).unwrap();
        let before = std::fs::metadata(file).unwrap().ino();
        let picture = render(&cache_home, None, &out);
        assert_eq!(
            picture,
            uncached,
            "a damaged cache file ({} bytes) is not trusted",
            damaged.len()
        );
        assert_ne!(std::fs::metadata(file).unwrap().ino(), before, "and it is replaced");
        assert!(std::fs::read(file).unwrap() == whole, "by the same maps");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cache_folder_that_cannot_be_written_is_no_error() {
    let dir = common::temp_dir("environment-cache-blocked");
    let out = dir.join("fox.png");
    let uncached = render(&dir.join("off"), Some("off"), &out);
    // A file where the cache's folder would be made.
    let blocked = dir.join("blocked");
    std::fs::write(&blocked, b"not a folder").unwrap();
    assert!(render(&blocked, None, &out) == uncached);
    assert_eq!(std::fs::read(&blocked).unwrap(), b"not a folder");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn each_environment_image_has_its_own_cache_file() {
    let dir = common::temp_dir("environment-cache-images");
    let cache_home = dir.join("cache");
    let out = dir.join("fox.png");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    // Runs rigscope with `args`, the cache in `cache_home`, lit by `hdr`.
    let run_lit_by = |args: &[&str], hdr: &Path| {
        let output = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .args(args)
            .arg("--environment")
            .arg(hdr)
            .env("XDG_CACHE_HOME", &cache_home)
            .env_remove("RIGSCOPE_CACHE")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    };
    let (fox, out) = (fox.to_str().unwrap(), out.to_str().unwrap());
    let render_lit_by = |hdr: &Path| {
        run_lit_by(&["render", fox, "--size", "96x72", "-o", out], hdr);
        image::open(out).unwrap().to_rgba8()
    };
    let write_hdr = |name: &str, colour: [f32; 3]| {
        let path = dir.join(name);
        let pixels = vec![image::Rgb(colour); 16 * 8];
        let mut bytes = Vec::new();
        image::codecs::hdr::HdrEncoder::new(&mut bytes)
            .encode(&pixels, 16, 8)
            .unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let warm = write_hdr("warm.hdr", [1.5, 0.8, 0.4]);
    let cool = write_hdr("cool.hdr", [0.4, 0.8, 1.5]);
    let warm_picture = render_lit_by(&warm);
    let cool_picture = render_lit_by(&cool);
    assert!(warm_picture != cool_picture);
    // The two images, and no studio: a renderer lit by a file never prepares the studio.
    assert_eq!(cache_files(&cache_home).len(), 2);
    assert!(render_lit_by(&warm) == warm_picture, "each read back from its own file");
    assert!(render_lit_by(&cool) == cool_picture);
    run_lit_by(&["thumbnail", fox, "--size", "64", "-o", out], &warm);
    assert_eq!(cache_files(&cache_home).len(), 2, "nor does a thumbnail's");
    run_lit_by(&["sheet", fox, "--frames", "1", "--cell", "32", "-o", out], &warm);
    assert_eq!(cache_files(&cache_home).len(), 2, "nor does a contact sheet's");
    run_lit_by(&["video", fox, "--fps", "1", "--size", "32x32", "-o", out], &warm);
    assert_eq!(cache_files(&cache_home).len(), 2, "nor does a video's");
    std::fs::remove_dir_all(&dir).unwrap();
}
