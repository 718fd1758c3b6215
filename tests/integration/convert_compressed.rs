//! `convert --meshopt` and `--draco`: every sample rig written with each compression comes back
//! posing like its source within the compression's stated error, for every clip at five (six
//! for Draco) times; the files are smaller than the plain GLB; the Khronos validator finds no
//! error in them.
//!
//! Bounds, as fractions of the source's bounding-box diagonal:
//! - meshopt keeps the vertex order, so vertices are compared one to one. Positions move by at
//!   most extent / 2^15 per component (the power-of-two grid of `write::meshopt`), which is
//!   diagonal / 2^15 in all; 16-bit weights that sum to 1 exactly add a few 1/65535ths of a
//!   joint's reach. Allowed: 2^-14. Normals are 8-bit octahedral (half a step of 1/127 in
//!   the octahedron's square, about 0.65 degrees at worst) and decoded into signed bytes
//!   (about 0.4 degrees more): allowed 1.5 degrees.
//! - Draco welds and reorders vertices, so they are matched by position
//!   (`compressed_geometry::assert_poses_alike`); 14-bit positions move by at most half a
//!   step of the largest extent / 16383 per component, 12-bit weights by 1/8190 each:
//!   `quantised_tolerance(14)`, 1.5 steps. Normals (10-bit): 2 degrees at rest, 5 posed.

use crate::common;
use crate::common::validator::{WARNING, khronos_validate_all};
use crate::compressed_geometry::{assert_poses_alike, quantised_tolerance};
use crate::convert::largest_pose_difference;

use std::path::{Path, PathBuf};

use rigscope::asset::{self, Model};
use rigscope::write::{self, Compression, WriteOptions};

/// The samples whose sizes the README gives.
const SIZED: [&str; 3] = [
    "Fox/glTF-Binary/Fox.glb",
    "CesiumMan/glTF-Binary/CesiumMan.glb",
    "Xbot/Xbot.glb",
];

/// The largest position difference meshopt may make, of the diagonal.
const MESHOPT_TOLERANCE: f32 = 1.0 / 16384.0;
/// The largest angle between a source normal and its 8-bit octahedral copy, in degrees.
const MESHOPT_NORMAL_DEGREES: f32 = 1.5;

/// Writes `source` (read from `file`) with `compression` into `dir`; returns the file, its
/// size and the warnings.
fn write_with(source: &Model, file: &Path, dir: &Path, compression: Compression) -> (PathBuf, u64, Vec<String>) {
    let stem = file.file_stem().unwrap().to_string_lossy();
    let output = dir.join(format!("{stem}-{compression:?}.glb"));
    let mut options = WriteOptions::default();
    options.compression = compression;
    let written = write::save(source, &output, &options).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    (output, written.bytes, written.warnings)
}

/// The largest angle (degrees) between the rest normals of `source` and `written`, vertex for
/// vertex, over the primitives that keep their normals (flat-shaded ones have none in the file).
fn largest_normal_angle(source: &Model, written: &Model) -> f32 {
    let mut largest = 0.0f32;
    for (a, b) in source.meshes.iter().zip(&written.meshes) {
        for (a, b) in a.primitives.iter().zip(&b.primitives) {
            if a.flat_shaded {
                continue;
            }
            assert_eq!(a.normals.len(), b.normals.len(), "normals");
            for (a, b) in a.normals.iter().zip(&b.normals) {
                let cosine = a.normalize_or_zero().dot(b.normalize_or_zero()).clamp(-1.0, 1.0);
                largest = largest.max(cosine.acos().to_degrees());
            }
        }
    }
    largest
}

/// Fails unless the Khronos validator finds no error or warning in `files` (it does not know
/// either extension: it says so, as an info, and reads no compressed data).
fn assert_valid(files: &[PathBuf]) {
    for report in khronos_validate_all(files) {
        report.assert_no_errors();
        let warnings = report.codes_of_severity(WARNING);
        assert!(warnings.is_empty(), "{}: {warnings:?}", report.file.display());
    }
}

/// Vertices whose weights in the file did not sum to 1.
fn renormalised(model: &Model) -> usize {
    let primitives = model.meshes.iter().flat_map(|m| &m.primitives);
    primitives
        .filter_map(|p| p.skin_weights.as_ref())
        .map(|w| w.renormalised)
        .sum()
}

#[test]
fn meshopt_files_pose_like_their_sources_vertex_for_vertex() {
    let dir = common::temp_dir("convert-meshopt");
    let mut written = Vec::new();
    for file in common::all_rig_files() {
        let source = asset::load(&file).unwrap();
        let (output, _, warnings) = write_with(&source, &file, &dir, Compression::Meshopt);
        let back = asset::load(&output).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let difference = largest_pose_difference(&source, &back);
        let angle = largest_normal_angle(&source, &back);
        eprintln!(
            "{}: posed vertices within {difference:.2e} of the diagonal, normals {angle:.2} degrees",
            file.display()
        );
        assert!(
            difference <= MESHOPT_TOLERANCE,
            "{}: poses differ by {difference:.2e} of the diagonal; warnings: {warnings:?}",
            file.display()
        );
        assert!(
            angle <= MESHOPT_NORMAL_DEGREES,
            "{}: normals differ by {angle} degrees",
            file.display()
        );
        assert_eq!(renormalised(&back), 0, "{}: the weights sum to 1", file.display());
        assert!(
            !back.decoded_geometry.is_empty(),
            "{}: nothing was decoded",
            file.display()
        );
        written.push(output);
    }
    assert_valid(&written);
}

#[test]
fn draco_files_pose_like_their_sources_within_the_quantisation() {
    let dir = common::temp_dir("convert-draco");
    let mut written = Vec::new();
    for file in common::all_rig_files() {
        let source = asset::load(&file).unwrap();
        let (output, _, warnings) = write_with(&source, &file, &dir, Compression::Draco);
        let back = asset::load(&output).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // Primitives with morph targets, and points and lines, stay as they are, in words.
        let uncompressed: Vec<&String> = warnings.iter().filter(|w| w.contains("left uncompressed")).collect();
        for warning in &uncompressed {
            assert!(
                warning.contains("morph targets") || warning.contains("triangles only"),
                "{}: {warning}",
                file.display()
            );
        }
        let morphs = (source.meshes.iter().flat_map(|m| &m.primitives)).any(|p| !p.morph_targets.is_empty());
        assert_eq!(morphs, !uncompressed.is_empty(), "{}: {uncompressed:?}", file.display());
        if back.decoded_geometry.is_empty() {
            continue;
        }
        assert_eq!(
            renormalised(&back),
            0,
            "{}: the weights sum to 1 within 4/8190",
            file.display()
        );
        // Normals computed for flat shading differ once Draco has welded the vertices.
        let primitives = || source.meshes.iter().flat_map(|m| &m.primitives);
        let normals = primitives().all(|p| !p.flat_shaded).then_some((2.0, 5.0));
        let name = file.display().to_string();
        assert_poses_alike(&name, &back, &source, quantised_tolerance(14), normals);
        written.push(output);
    }
    assert!(written.len() >= 10, "most samples have triangles to compress");
    assert_valid(&written);
}

#[test]
fn compressed_files_are_smaller_than_plain_ones() {
    let dir = common::temp_dir("convert-sizes");
    for sample in SIZED {
        let file = common::gltf(sample);
        let source = asset::load(&file).unwrap();
        let [plain, meshopt, draco] = [Compression::None, Compression::Meshopt, Compression::Draco]
            .map(|c| write_with(&source, &file, &dir, c).1);
        eprintln!("{sample}: {plain} bytes plain, {meshopt} with meshopt, {draco} with Draco");
        assert!(meshopt < plain, "{sample}: meshopt {meshopt} >= plain {plain}");
        assert!(draco < plain, "{sample}: Draco {draco} >= plain {plain}");
    }
}

#[test]
fn convert_takes_meshopt_or_draco_but_not_both() {
    let dir = common::temp_dir("convert-flags");
    let fox = common::gltf("Fox/glTF-Binary/Fox.glb");
    let fox = fox.to_str().unwrap();
    for (flag, extension) in [
        ("--meshopt", "EXT_meshopt_compression"),
        ("--draco", "KHR_draco_mesh_compression"),
    ] {
        let out = dir.join(format!("fox{flag}.glb"));
        common::succeed(&["convert", fox, "-o", out.to_str().unwrap(), flag]);
        let json = common::gltf_json(&out);
        let required: Vec<&str> = (json["extensionsRequired"].as_array().unwrap().iter())
            .filter_map(|e| e.as_str())
            .collect();
        assert!(required.contains(&extension), "{flag}: {required:?}");
        assert!(!asset::load(&out).unwrap().decoded_geometry.is_empty(), "{flag}");
    }
    // A .gltf keeps the fallback buffer without a file of its own.
    let out = dir.join("fox.gltf");
    common::succeed(&["convert", fox, "-o", out.to_str().unwrap(), "--meshopt"]);
    let back = asset::load(&out).unwrap();
    assert_eq!(back.vertex_count(), asset::load(Path::new(fox)).unwrap().vertex_count());
    assert!(!back.decoded_geometry.is_empty());
    let out = dir.join("both.glb");
    let output = common::rigscope(&["convert", fox, "-o", out.to_str().unwrap(), "--meshopt", "--draco"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("cannot be used with"),
        "{stderr}"
    );
    assert!(!out.exists());
}
