//! Shared test helpers: where the sample assets are.
#![allow(dead_code)] // each test binary uses a different subset

pub mod animated_scene;
pub mod draco_encode;
pub mod fbx_file;
pub mod morph_face;
pub mod pipeline;
pub mod quad;
pub mod renamed_rig;
pub mod timing;
pub mod ufbx_reference;
pub mod validator;

use std::path::{Path, PathBuf};

/// `$RIGSCOPE_ASSETS`, or `../shared/assets` beside the repository. Tests fail (not skip)
/// when the assets are missing.
pub fn assets_dir() -> PathBuf {
    shared_dir("RIGSCOPE_ASSETS", "assets", "gltf")
}

/// `$RIGSCOPE_VALIDATOR`, or `../shared/validator` beside the repository: the Khronos
/// glTF-Validator's test models, each with the validator's report beside it as
/// `FILE.report.json`. Tests fail (not skip) when it is missing.
pub fn validator_dir() -> PathBuf {
    shared_dir("RIGSCOPE_VALIDATOR", "validator", "base")
}

/// The compressed variants of the samples (Draco, meshopt, WebP): `compressed/` beside the
/// assets folder. Tests fail (not skip) when it is missing.
pub fn compressed_dir() -> PathBuf {
    let dir = assets_dir().join("../compressed");
    assert!(
        dir.join("SOURCE.txt").is_file(),
        "compressed samples not found at {}",
        dir.display()
    );
    dir
}

/// `$variable`, or `../shared/name` beside the repository, which must hold `inside`.
fn shared_dir(variable: &str, name: &str, inside: &str) -> PathBuf {
    let dir = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(name));
    assert!(
        dir.join(inside).is_dir(),
        "{name} not found at {} (set {variable})",
        dir.display()
    );
    dir
}

/// A model of the validator corpus and what the validator said about it.
pub struct ValidatorModel {
    pub path: PathBuf,
    /// The validator's error count and the JSON pointers of its errors.
    pub errors: usize,
    pub error_pointers: Vec<String>,
}

/// Every model of the validator corpus (each file with a `.report.json` beside it), sorted.
pub fn validator_models() -> Vec<ValidatorModel> {
    let mut models = Vec::new();
    let mut folders = vec![validator_dir()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let Some(model) = path.to_str().and_then(|p| p.strip_suffix(".report.json")) else {
                continue;
            };
            let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let issues = &report["issues"];
            let error_pointers = issues["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["severity"] == 0)
                .filter_map(|m| m["pointer"].as_str().map(str::to_owned))
                .collect();
            models.push(ValidatorModel {
                path: PathBuf::from(model),
                errors: issues["numErrors"].as_u64().unwrap() as usize,
                error_pointers,
            });
        }
    }
    models.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(
        models.len() >= 300,
        "expected the whole validator corpus, found {}",
        models.len()
    );
    models
}

/// A glTF sample by its path under `assets/gltf`.
pub fn gltf(relative: &str) -> PathBuf {
    let path = assets_dir().join("gltf").join(relative);
    assert!(path.is_file(), "missing sample asset {}", path.display());
    path
}

/// `count` poses of `clip` evenly over one loop of it, each sampled from `rest`.
pub fn cycle_poses(
    clip: &rigscope::anim::Clip,
    rest: &rigscope::anim::Pose,
    count: usize,
) -> Vec<rigscope::anim::Pose> {
    let playback = rigscope::anim::Playback::Loop;
    (0..count)
        .map(|i| {
            let mut pose = rest.clone();
            let time = playback.clip_time(i as f32 / count as f32 * clip.duration(), clip.duration());
            clip.sample(time, &mut pose, &mut clip.cursor());
            pose
        })
        .collect()
}

/// A file of the compressed variants of the samples, `compressed/` beside the assets folder
/// (its SOURCE.txt says how each was made).
pub fn compressed(name: &str) -> PathBuf {
    let path = assets_dir().join("../compressed").join(name);
    assert!(path.is_file(), "missing compressed sample {}", path.display());
    path
}

/// Every `.glb` and `.gltf` file under `assets/gltf`, sorted.
pub fn all_gltf_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![assets_dir().join("gltf")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if matches!(path.extension().and_then(|e| e.to_str()), Some("glb" | "gltf")) {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 14, "expected the full sample set, found {}", files.len());
    files
}

/// Every sample rig: the glTF files (`all_gltf_files`) and MD5's Bob.
pub fn all_rig_files() -> Vec<PathBuf> {
    let mut files = all_gltf_files();
    files.push(assets_dir().join("md5/Bob/Bob.md5mesh"));
    files
}

/// The JSON part of a `.glb` or `.gltf` file, parsed independently of rigscope's loader.
pub fn gltf_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap();
    let json = if bytes.starts_with(b"glTF") {
        let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        bytes[20..20 + length].to_vec()
    } else {
        bytes
    };
    serde_json::from_slice(&json).unwrap()
}

/// `glb` with its JSON chunk changed by `edit` (the BIN chunk kept as it is).
pub fn edit_glb(glb: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let json_length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let mut json: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_length]).unwrap();
    edit(&mut json);
    let mut text = serde_json::to_vec(&json).unwrap();
    text.resize(text.len().div_ceil(4) * 4, b' ');
    let rest = &glb[20 + json_length..];
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((20 + text.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend(text);
    out.extend_from_slice(rest);
    out
}

/// A base64 `data:` URI holding `bytes`, for glTF files the tests write themselves.
pub fn data_uri(bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Little-endian bytes of a list of floats.
pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// One JSON value per line of a command's output (the batch commands' `--json`).
pub fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Fraction of pixels where some channel of `a` and `b` differs by more than 6 levels (the
/// CPU-vs-GPU picture tests' tolerance).
pub fn different_fraction(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    const CHANNEL_TOLERANCE: u8 = 6;
    let different = (a.pixels().zip(b.pixels()))
        .filter(|(p, q)| {
            p.0.iter()
                .zip(q.0.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    different as f64 / (a.width() * a.height()) as f64
}

/// Whether `pixel` of `image` is unlike its top-left corner's (the background).
pub fn covered(image: &image::RgbaImage, pixel: &image::Rgba<u8>) -> bool {
    let background = image.get_pixel(0, 0).0;
    pixel.0.iter().zip(background.iter()).any(|(x, y)| x.abs_diff(*y) > 12)
}

/// Fraction of pixels unlike the top-left corner's (the background).
pub fn coverage(image: &image::RgbaImage) -> f64 {
    let covered = image.pixels().filter(|p| covered(image, p)).count();
    covered as f64 / (image.width() * image.height()) as f64
}

/// Runs the `rigscope` binary with `args`.
pub fn rigscope(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `rigscope` and returns what it printed, failing the test (showing its errors) if it
/// fails.
pub fn succeed(args: &[&str]) -> String {
    let output = rigscope(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `rigscope render FILE -o OUT ARGS...` and reads the image it wrote.
pub fn render_png(file: &Path, out: &Path, args: &[&str]) -> image::RgbaImage {
    let base = ["render", file.to_str().unwrap(), "-o", out.to_str().unwrap()];
    succeed(&[&base[..], args].concat());
    image::open(out).unwrap().to_rgba8()
}

/// Runs `rigscope` and parses what it printed as one JSON value.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&succeed(args)).unwrap()
}

/// A new, empty folder for one test, in the system's temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rigscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A reproducible pseudo-random sequence (no dependency needed).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}
