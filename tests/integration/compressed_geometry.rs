//! Compressed geometry (KHR_draco_mesh_compression, EXT_meshopt_compression) loads and poses
//! like the uncompressed original, within the compression's quantisation.
//!
//! Draco re-indexes and reorders vertices (Fox: 1,728 unindexed vertices become 434 welded
//! ones), and gltfpack reorders them for the vertex cache, so vertices are matched
//! permutation-independently: each compressed vertex is matched once, in the rest pose, to its
//! nearest original vertex (world space), and every original vertex must have a compressed
//! one that near (nothing is missing). Then, for every clip at six times, each compressed
//! vertex posed (CPU linear skinning, world space) must lie within the tolerance of its match
//! posed the same way. Tolerances are fractions of the original's bounding-box diagonal.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use base64::Engine;
use glam::Vec3;
use rigscope::asset::{self, Model};
use rigscope::skin::{Deformer, SkinningMethod};

struct Case {
    compressed: &'static str,
    /// Relative to the assets' `gltf/` folder.
    original: &'static str,
    /// Largest allowed distance between matched posed vertices, as a fraction of the
    /// original's bounding-box diagonal.
    tolerance: f32,
    /// Largest allowed angle between matched normals in the rest pose and posed, in degrees
    /// (none: the file has no normals, and computed ones differ once vertices are welded).
    normal_degrees: Option<(f32, f32)>,
}

// Measured (largest posed error over every clip at six times, of the diagonal; normals in the
// rest pose and posed): Fox-draco 4.1e-5, CesiumMan-draco 5.0e-5 (0.19 and 0.21 degrees),
// Fox-meshopt 3.4e-4, Xbot-gltfpack 5.7e-4 (1.1 and 9.0 degrees).
const CASES: [Case; 4] = [
    // Draco's default 14-bit positions: a step of 1/16384 of the largest extent.
    Case {
        compressed: "Fox-draco.glb",
        original: "Fox/glTF-Binary/Fox.glb",
        tolerance: 2e-4,
        normal_degrees: None,
    },
    Case {
        compressed: "CesiumMan-draco.glb",
        original: "CesiumMan/glTF-Binary/CesiumMan.glb",
        tolerance: 2e-4,
        normal_degrees: Some((0.5, 0.5)),
    },
    // Quantised positions and 16-bit quaternion keys (QUATERNION filter).
    Case {
        compressed: "Fox-meshopt.glb",
        original: "Fox/glTF-Binary/Fox.glb",
        tolerance: 1e-3,
        normal_degrees: None,
    },
    // gltfpack also resampled and quantised the animation; its normals are 8-bit octahedral.
    // Posed, small finger joints turn a few degrees off the original between keys: normals
    // there differ by up to 9.0 degrees while the vertices stay within 1 mm.
    Case {
        compressed: "Xbot-gltfpack.glb",
        original: "Xbot/Xbot.glb",
        tolerance: 1e-3,
        normal_degrees: Some((2.0, 10.0)),
    },
];

fn compressed(name: &str) -> PathBuf {
    common::compressed_dir().join(name)
}

/// Every posed vertex of every primitive of every instance, in world space: `clip` sampled at
/// `time` over the rest pose, or the rest pose itself.
fn posed(model: &Model, clip: Option<usize>, time: f32) -> Vec<Vec3> {
    posed_with_normals(model, clip, time).0
}

/// `posed`, with the posed normals.
fn posed_with_normals(model: &Model, clip: Option<usize>, time: f32) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut pose = model.skeleton.rest_pose().clone();
    if let Some(clip) = clip {
        let clip = &model.clips[clip];
        clip.sample(time, &mut pose, &mut clip.cursor());
    }
    let mut deformer = Deformer::new(model);
    deformer.update_all(model, &pose, SkinningMethod::Linear);
    let primitives = deformer.primitives();
    (
        primitives.iter().flat_map(|p| p.positions.iter().copied()).collect(),
        // Skinned normals are not unit length (see skin::split_linear): the angles below need them so.
        primitives
            .iter()
            .flat_map(|p| p.normals.iter().map(|n| n.normalize_or_zero()))
            .collect(),
    )
}

fn diagonal(points: &[Vec3]) -> f32 {
    let min = points.iter().fold(Vec3::splat(f32::MAX), |a, &p| a.min(p));
    let max = points.iter().fold(Vec3::splat(f32::MIN), |a, &p| a.max(p));
    (max - min).length()
}

/// Rest-pose positions and normals of one model, the primitive (in posing order) each vertex
/// belongs to, and its position half-way through the first clip (a vertex is matched on both
/// places, so that close vertices that move apart, such as fingertips, are told apart).
struct Rest {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    primitive: Vec<usize>,
    moved: Vec<Vec3>,
}

impl Rest {
    fn of(model: &Model) -> Self {
        let (positions, normals) = posed_with_normals(model, None, 0.0);
        let primitive = (model.instances.iter())
            .flat_map(|i| &model.meshes[i.mesh].primitives)
            .enumerate()
            .flat_map(|(index, p)| std::iter::repeat_n(index, p.vertex_count()))
            .collect();
        let clip = model.clips.first().map(|c| c.duration() / 2.0);
        let moved = posed(model, clip.map(|_| 0), clip.unwrap_or(0.0));
        Self {
            positions,
            normals,
            primitive,
            moved,
        }
    }
}

/// For each vertex of `from`, the vertex of `to` it matches and their distance: the nearest of
/// the same primitive, and among vertices as near (within a tenth of `radius`: vertices split
/// at hard edges or seams share a position), the one whose normal is closest to its own.
/// Searches a slab of `to` sorted by x around each vertex (width `radius`), falling back to
/// all of `to`.
fn nearest(from: &Rest, to: &Rest, radius: f32) -> Vec<(usize, f32)> {
    let mut sorted: Vec<usize> = (0..to.positions.len()).collect();
    sorted.sort_by(|&a, &b| to.positions[a].x.total_cmp(&to.positions[b].x));
    let xs: Vec<f32> = sorted.iter().map(|&i| to.positions[i].x).collect();
    let tie = radius * 0.1;
    let distance = |from_vertex: usize, to_vertex: usize| {
        let rest = from.positions[from_vertex].distance(to.positions[to_vertex]);
        rest.max(from.moved[from_vertex].distance(to.moved[to_vertex]))
    };
    (from
        .positions
        .iter()
        .zip(&from.normals)
        .zip(&from.primitive)
        .enumerate())
    .map(|(vertex, ((&p, &n), &primitive))| {
        let start = xs.partition_point(|&x| x < p.x - radius);
        let end = xs.partition_point(|&x| x <= p.x + radius);
        let slab: Vec<(usize, f32)> = sorted[start..end]
            .iter()
            .filter(|&&i| to.primitive[i] == primitive)
            .map(|&i| (i, distance(vertex, i)))
            .collect();
        let closest = slab.iter().map(|c| c.1).fold(f32::MAX, f32::min);
        let as_near = slab.iter().filter(|c| c.1 <= radius && c.1 <= closest + tie);
        let best = as_near.max_by(|a, b| n.dot(to.normals[a.0]).total_cmp(&n.dot(to.normals[b.0])));
        best.copied().unwrap_or_else(|| {
            ((0..to.positions.len()).map(|i| (i, distance(vertex, i))))
                .filter(|&(i, _)| to.primitive[i] == primitive)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap_or((0, f32::INFINITY))
        })
    })
    .collect()
}

/// The largest distance between matched posed vertices (as a fraction of `diag`) and angle
/// between their normals (degrees) over every clip of `original` (matched by name in
/// `packed`) at six times.
fn largest_pose_errors(original: &Model, packed: &Model, matches: &[(usize, f32)], diag: f32) -> (f32, f32) {
    let (mut worst, mut worst_angle) = (0.0f32, 0.0f32);
    for (clip_index, clip) in original.clips.iter().enumerate() {
        let packed_clip = packed
            .clips
            .iter()
            .position(|c| c.name() == clip.name())
            .unwrap_or_else(|| panic!("clip '{}' is missing", clip.name()));
        for step in 0..6 {
            let time = clip.duration() * step as f32 / 5.0;
            let (expected, expected_normals) = posed_with_normals(original, Some(clip_index), time);
            let (actual, actual_normals) = posed_with_normals(packed, Some(packed_clip), time);
            for (vertex, &(matched, _)) in matches.iter().enumerate() {
                worst = worst.max(actual[vertex].distance(expected[matched]) / diag);
                let cosine = actual_normals[vertex].dot(expected_normals[matched]).clamp(-1.0, 1.0);
                worst_angle = worst_angle.max(cosine.acos().to_degrees());
            }
        }
    }
    (worst, worst_angle)
}

#[test]
fn compressed_samples_pose_like_their_originals() {
    for case in &CASES {
        let packed = asset::load(&compressed(case.compressed)).unwrap();
        let original = asset::load(&common::assets_dir().join("gltf").join(case.original)).unwrap();
        assert_poses_alike(case.compressed, &packed, &original, case.tolerance, case.normal_degrees);
    }
}

/// Asserts that `packed` (called `name`) has every vertex of `original` and no other, within
/// `tolerance` of the original's diagonal in the rest pose and in every clip at six times, and
/// normals within `normal_degrees` (rest and posed) when given.
pub(super) fn assert_poses_alike(
    name: &str,
    packed: &Model,
    original: &Model,
    tolerance: f32,
    normal_degrees: Option<(f32, f32)>,
) {
    assert_eq!(packed.clips.len(), original.clips.len(), "{name}");
    let (packed_rest, original_rest) = (Rest::of(packed), Rest::of(original));
    let diag = diagonal(&original_rest.positions);
    let radius = tolerance * diag;
    let matches = nearest(&packed_rest, &original_rest, radius);
    let unmatched = matches.iter().filter(|m| m.1 > radius).count();
    assert_eq!(unmatched, 0, "{name}: {unmatched} vertices have no original near");
    let missing = nearest(&original_rest, &packed_rest, radius);
    let missing = missing.iter().filter(|m| m.1 > radius).count();
    assert_eq!(missing, 0, "{name}: {missing} original vertices are missing");
    let in_order = matches.iter().enumerate().all(|(i, m)| m.0 == i);
    let (worst, worst_angle) = largest_pose_errors(original, packed, &matches, diag);
    let order = if in_order {
        "in the original's order"
    } else {
        "reordered"
    };
    eprintln!(
        "{name}: {} vertices (original {}), {order}, largest posed error {worst:.2e} of the diagonal, \
         normals {worst_angle:.2} degrees",
        packed_rest.positions.len(),
        original_rest.positions.len(),
    );
    assert!(
        worst <= tolerance,
        "{name}: posed vertices differ by {worst} of the diagonal"
    );
    if let Some((rest_degrees, posed_degrees)) = normal_degrees {
        let angle = |i: usize, m: &(usize, f32)| {
            let cosine = packed_rest.normals[i].dot(original_rest.normals[m.0]);
            cosine.clamp(-1.0, 1.0).acos().to_degrees()
        };
        let rest_angle = matches.iter().enumerate().map(|(i, m)| angle(i, m)).fold(0.0, f32::max);
        assert!(
            rest_angle <= rest_degrees,
            "{name}: rest-pose normals differ by {rest_angle} degrees"
        );
        assert!(
            worst_angle <= posed_degrees,
            "{name}: posed normals differ by {worst_angle} degrees"
        );
    }
}

/// How far a vertex may move when its positions are quantised to `bits`, as a fraction of the
/// diagonal: Draco's step is the largest extent over 2^bits − 1 (no more than the diagonal),
/// and a vertex may lie half a step off; a step is allowed, and posing adds rounding.
pub(super) fn quantised_tolerance(bits: i32) -> f32 {
    1.5 / ((1u32 << bits) - 1) as f32 + 1e-5
}

/// Every sample with triangles to compress, with the settings gltf-transform's `draco` command
/// takes: each connectivity method and speed (Draco picks its prediction schemes by speed:
/// 0 to 4 the valence edgebreaker, 5 to 9 the standard one, 10 no prediction) and
/// quantisation from 8 to 16 bits. Each loads without a warning and poses like its original.
#[test]
fn draco_encodings_of_every_kind_pose_like_their_originals() {
    use common::draco_encode::{DracoOptions, draco_glb};
    let default = DracoOptions::default();
    let low = DracoOptions {
        position_bits: 8,
        normal_bits: 6,
        texcoord_bits: 8,
        color_bits: 6,
        generic_bits: 8,
        ..default
    };
    let high = DracoOptions {
        position_bits: 16,
        normal_bits: 16,
        texcoord_bits: 16,
        color_bits: 16,
        generic_bits: 16,
        ..default
    };
    let every_kind = [
        ("edgebreaker", default),
        (
            "valence edgebreaker",
            DracoOptions {
                encode_speed: 0,
                decode_speed: 0,
                ..default
            },
        ),
        (
            "edgebreaker speed 10",
            DracoOptions {
                encode_speed: 10,
                decode_speed: 10,
                ..default
            },
        ),
        (
            "sequential",
            DracoOptions {
                edgebreaker: false,
                ..default
            },
        ),
        (
            "sequential speed 10",
            DracoOptions {
                edgebreaker: false,
                encode_speed: 10,
                decode_speed: 0,
                ..default
            },
        ),
        ("8-bit", low),
        ("16-bit", high),
    ];
    let samples = [
        "Fox/glTF-Binary/Fox.glb",
        "CesiumMan/glTF-Binary/CesiumMan.glb",
        "RiggedSimple/glTF-Binary/RiggedSimple.glb",
        "RiggedFigure/glTF-Binary/RiggedFigure.glb",
        "SimpleSkin/glTF/SimpleSkin.gltf",
        "BoxAnimated/glTF-Binary/BoxAnimated.glb",
        "AnimatedCube/glTF/AnimatedCube.gltf",
        "AnimatedTriangle/glTF/AnimatedTriangle.gltf",
        "CesiumMilkTruck/glTF-Binary/CesiumMilkTruck.glb",
        "InterpolationTest/glTF-Binary/InterpolationTest.glb",
        "Xbot/Xbot.glb",
    ];
    for sample in samples {
        let path = common::assets_dir().join("gltf").join(sample);
        let original = asset::load(&path).unwrap();
        // Every setting on the small characters, the default on the rest.
        let kinds = if sample.starts_with("Fox") || sample.starts_with("CesiumMan") {
            &every_kind[..]
        } else {
            &every_kind[..1]
        };
        for (kind, options) in kinds {
            let name = format!("{sample} ({kind})");
            // Beside the original, so external images resolve as they did.
            let packed_path = path.with_extension("draco.glb");
            let packed = asset::load_bytes(&packed_path, &draco_glb(&path, options)).unwrap();
            assert!(!packed.decoded_geometry.is_empty(), "{name}: nothing was decoded");
            // Weights quantised to 8 bits no longer sum to 1 exactly (they are renormalised).
            let expected = |w: &&String| {
                original.warnings.contains(w) || (options.generic_bits < 12 && w.contains("renormalised"))
            };
            let extra: Vec<&String> = (packed.warnings.iter()).filter(|w| !expected(w)).collect();
            assert!(extra.is_empty(), "{name}: {extra:?}");
            let tolerance = quantised_tolerance(options.position_bits);
            let normals = (options.normal_bits >= 10).then_some((2.0, 5.0));
            assert_poses_alike(&name, &packed, &original, tolerance, normals);
        }
    }
}

/// Files gltf-transform's `draco` command wrote from the shared samples, with each method,
/// speed and quantisation: `$RIGSCOPE_CORPUS/draco-gltf-transform/SAMPLE/*` (see README,
/// "Files from elsewhere"). Quantisation is read from the name (`-q8`, `-q16`; 14 bits
/// otherwise, gltf-transform's default).
#[test]
#[ignore = "needs the corpus of files from elsewhere: set RIGSCOPE_CORPUS"]
fn gltf_transform_draco_files_pose_like_their_originals() {
    let corpus = PathBuf::from(std::env::var_os("RIGSCOPE_CORPUS").expect("set RIGSCOPE_CORPUS"));
    let gltf = common::assets_dir().join("gltf");
    let (mut compared, mut failed) = (0, Vec::new());
    for sample in std::fs::read_dir(corpus.join("draco-gltf-transform"))
        .unwrap()
        .flatten()
    {
        let name = sample.file_name().to_string_lossy().into_owned();
        // The shared sample it was made from: its GLB, else its glTF.
        let original = ["glTF-Binary", "glTF", ""]
            .iter()
            .flat_map(|folder| ["glb", "gltf"].map(|ext| gltf.join(&name).join(folder).join(format!("{name}.{ext}"))))
            .find(|path| path.is_file());
        let Some(original) = original else { continue };
        let original = asset::load(&original).unwrap();
        let inputs = rigscope::cli::batch::expand(&[sample.path()]);
        for input in inputs {
            let file = input.path.display().to_string();
            let packed = asset::load(&input.path).unwrap_or_else(|e| panic!("{e}"));
            if packed.vertex_count() == 0 || packed.decoded_geometry.is_empty() {
                continue;
            }
            // gltf-transform 4.5 quantises a morphed cube in the scene's volume to 0.9949 of its
            // size (its accessor's min/max still say 1), and Google's decoder decodes the same
            // bytes as rigscope's: the file is off, not the decoding.
            if file.contains("AnimatedMorphCube.draco-seq-q14-scenevol") {
                continue;
            }
            let bits = [8, 16]
                .into_iter()
                .find(|b| file.contains(&format!("-q{b}")))
                .unwrap_or(14);
            let compare = || assert_poses_alike(&file, &packed, &original, quantised_tolerance(bits), None);
            match std::panic::catch_unwind(compare) {
                Ok(()) => compared += 1,
                Err(_) => failed.push(file),
            }
        }
    }
    eprintln!("{compared} files pose like their originals, {} do not", failed.len());
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(compared > 0);
}

fn inspect_json(file: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["inspect", &compressed(file).to_string_lossy(), "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn inspect_says_what_draco_decoded_to() {
    let report = inspect_json("Fox-draco.glb");
    let decoded = report["decoded_geometry"].as_array().unwrap();
    assert_eq!(decoded.len(), 1);
    assert_eq!(
        decoded[0]["object"],
        "/meshes/0/primitives/0 (KHR_draco_mesh_compression)"
    );
    // The file's accessors declare 434 vertices and 1,728 indices.
    assert_eq!(decoded[0]["elements"], 434);
    assert_eq!(decoded[0]["indices"], 1728);
    assert_eq!(decoded[0]["compressed_bytes"], 3566);
    // 434 × (12 + 8 + 8 + 16) bytes of attributes and 1,728 × 2 bytes of indices.
    assert_eq!(decoded[0]["decoded_bytes"], 434 * 44 + 1728 * 2);
    assert!(report["unsupported_extensions"].as_array().unwrap().is_empty());
}

#[test]
fn inspect_says_what_meshopt_decoded_to() {
    let report = inspect_json("Xbot-gltfpack.glb");
    let decoded = report["decoded_geometry"].as_array().unwrap();
    // All nine buffer views are compressed; the index view is TRIANGLES.
    assert_eq!(decoded.len(), 9);
    let indices = &decoded[4];
    assert_eq!(indices["object"], "/bufferViews/4 (EXT_meshopt_compression)");
    assert_eq!(indices["elements"], 147_336);
    assert_eq!(indices["layout"], "2-byte elements, TRIANGLES, filter NONE");
    assert_eq!(indices["compressed_bytes"], 53_192);
    assert_eq!(indices["decoded_bytes"], 294_672);
    assert_eq!(decoded[1]["layout"], "4-byte elements, ATTRIBUTES, filter OCTAHEDRAL");

    let text = Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .args(["inspect", &compressed("Xbot-gltfpack.glb").to_string_lossy()])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(
            "decoded /bufferViews/4 (EXT_meshopt_compression): 147336 elements (2-byte elements, TRIANGLES, filter NONE), 53192 → 294672 bytes"
        ),
        "{text}"
    );
    assert!(text.contains("decoded 9 compressed objects in all"), "{text}");
}

/// The error loading `file` edited by `edit` gives.
fn load_error(file: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let path = compressed(file);
    let bytes = common::edit_glb(&std::fs::read(&path).unwrap(), edit);
    match asset::load_bytes(&path, &bytes) {
        Ok(_) => panic!("{file} loaded after the edit"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn broken_draco_data_is_an_error_naming_the_primitive() {
    let object = "/meshes/0/primitives/0 (KHR_draco_mesh_compression): ";
    // A truncated stream.
    let error = load_error("Fox-draco.glb", |json| {
        json["bufferViews"][3]["byteLength"] = 1000.into()
    });
    assert!(error.contains(object) && error.contains("Draco data"), "{error}");
    // An attribute id the stream does not have.
    let error = load_error("Fox-draco.glb", |json| {
        json["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["attributes"]["POSITION"] =
            9.into()
    });
    assert!(error.contains("no attribute with id 9 (for POSITION)"), "{error}");
}

#[test]
fn declared_counts_that_differ_from_the_draco_data_give_way_to_it_with_a_warning() {
    // What Draco decodes is drawn, as in three.js: a count the stream does not hold, however
    // large, allocates nothing.
    let path = compressed("Fox-draco.glb");
    for (accessor, count) in [(1, 400_000_000u64), (2, 435)] {
        let bytes = common::edit_glb(&std::fs::read(&path).unwrap(), |json| {
            json["accessors"][accessor]["count"] = count.into()
        });
        let model = asset::load_bytes(&path, &bytes).unwrap();
        let expected = format!(
            "/meshes/0/primitives/0 (KHR_draco_mesh_compression): accessor {accessor} declares {count} elements, \
             but Draco decoded 434 points (the decoded ones are drawn)"
        );
        assert!(model.warnings.contains(&expected), "{:?}", model.warnings);
        assert_eq!(model.vertex_count(), 434);
    }
}

#[test]
fn broken_meshopt_data_is_an_error_naming_the_buffer_view() {
    let object = "/bufferViews/6 (EXT_meshopt_compression): ";
    let extension = |json: &mut serde_json::Value| -> serde_json::Value {
        json["bufferViews"][6]["extensions"]["EXT_meshopt_compression"].take()
    };
    let with = |change: fn(&mut serde_json::Value)| {
        move |json: &mut serde_json::Value| {
            let mut ext = extension(json);
            change(&mut ext);
            json["bufferViews"][6]["extensions"]["EXT_meshopt_compression"] = ext;
        }
    };
    let error = load_error("Fox-meshopt.glb", with(|ext| ext["byteLength"] = 100.into()));
    assert!(
        error.contains(object) && error.contains("not a valid ATTRIBUTES stream"),
        "{error}"
    );
    let error = load_error("Fox-meshopt.glb", with(|ext| ext["mode"] = "STRIPS".into()));
    assert!(error.contains(object) && error.contains("mode 'STRIPS'"), "{error}");
    let error = load_error("Fox-meshopt.glb", with(|ext| ext["filter"] = "COLOR".into()));
    assert!(
        error.contains("filter \"COLOR\" is not one EXT_meshopt_compression defines"),
        "{error}"
    );
    let error = load_error("Fox-meshopt.glb", with(|ext| ext["byteStride"] = 6.into()));
    assert!(error.contains("byteStride 6 is not a multiple of 4"), "{error}");
    let error = load_error("Fox-meshopt.glb", with(|ext| ext["count"] = 1729.into()));
    assert!(error.contains("but the buffer view declares 13824"), "{error}");
    // A count the view agrees with, far past what the file may decode to.
    let error = load_error("Fox-meshopt.glb", |json| {
        json["bufferViews"][6]["byteLength"] = 800_000_000u64.into();
        json["bufferViews"][6]["extensions"]["EXT_meshopt_compression"]["count"] = 100_000_000.into();
    });
    assert!(error.contains(object) && error.contains("may decode to"), "{error}");
}

#[test]
fn an_optional_meshopt_extension_reads_the_fallback_when_it_has_data() {
    // One triangle whose view carries a meshopt extension pointing at bytes that are no
    // meshopt stream (the positions themselves): with the extension optional and the view's
    // own buffer holding data, that data is read and the decoder never runs.
    let positions: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let gltf = |required: &str| {
        format!(
            r#"{{"asset":{{"version":"2.0"}},"extensionsUsed":["EXT_meshopt_compression"],"extensionsRequired":[{required}],
            "buffers":[{{"byteLength":36,"uri":"data:application/octet-stream;base64,{data}"}}],
            "bufferViews":[{{"buffer":0,"byteLength":36,"byteStride":12,"extensions":{{"EXT_meshopt_compression":
                {{"buffer":0,"byteLength":36,"byteStride":12,"count":3,"mode":"ATTRIBUTES"}}}}}}],
            "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}}],
            "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],"nodes":[{{"mesh":0}}]}}"#,
            data = base64::engine::general_purpose::STANDARD.encode(&positions)
        )
    };
    let path = std::path::Path::new("fallback.gltf");
    let model = asset::load_bytes(path, gltf("").as_bytes()).unwrap();
    assert_eq!(model.meshes[0].primitives[0].positions[1], Vec3::X);
    assert!(model.decoded_geometry.is_empty());
    let error = asset::load_bytes(path, gltf(r#""EXT_meshopt_compression""#).as_bytes()).unwrap_err();
    assert!(
        error.to_string().contains(
            "/bufferViews/0 (EXT_meshopt_compression): its 36 compressed bytes are not a valid ATTRIBUTES stream"
        ),
        "{error}"
    );
}

#[test]
fn an_optional_meshopt_extension_decodes_when_the_fallback_has_no_data() {
    let path = compressed("Fox-meshopt.glb");
    let bytes = common::edit_glb(&std::fs::read(&path).unwrap(), |json| {
        json["extensionsRequired"] = serde_json::json!(["KHR_mesh_quantization"]);
    });
    let optional = asset::load_bytes(&path, &bytes).unwrap();
    let required = asset::load(&path).unwrap();
    assert_eq!(optional.decoded_geometry.len(), 8);
    assert_eq!(posed(&optional, Some(0), 0.5), posed(&required, Some(0), 0.5));
}

#[test]
fn khr_meshopt_compression_reads_the_same_streams() {
    // KHR_meshopt_compression keeps EXT's JSON and accepts its bitstream (version 0).
    let path = compressed("Fox-meshopt.glb");
    let original = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&original[20..]).replace("EXT_meshopt_compression", "KHR_meshopt_compression");
    let json_length = u32::from_le_bytes(original[12..16].try_into().unwrap()) as usize;
    let bytes = common::edit_glb(&original, |json| {
        *json = serde_json::from_str(&text[..json_length]).unwrap();
    });
    let khr = asset::load_bytes(&path, &bytes).unwrap();
    assert_eq!(
        khr.decoded_geometry[0].object,
        "/bufferViews/1 (KHR_meshopt_compression)"
    );
    assert_eq!(
        posed(&khr, Some(1), 0.3),
        posed(&asset::load(&path).unwrap(), Some(1), 0.3)
    );
}

#[test]
fn geometry_decompressed_many_times_the_file_size_is_read_whole() {
    // Khronos's Draco GearboxAssy holds 502,386 triangles in 349 KiB; reading its accessors took
    // more than 16 times the file's bytes, and four primitives were refused. Here 300,000
    // positions (3.6 MB) come from a meshopt stream in a file of about 70 KiB whose buffer holds
    // 50 KiB: over 16 times the bytes read, within what they may decompress to (32 times). What was decompressed counts as read.
    let vertices = 300_000;
    let positions = vec![[1.0f32, 2.0, 0.0]; vertices];
    let stream = meshopt::encode_vertex_buffer(&positions).unwrap();
    let padding = 50 * 1024;
    let mut buffer = stream.clone();
    buffer.resize(stream.len() + padding, 0);
    let size = vertices * 12;
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"extensionsUsed":["EXT_meshopt_compression"],"extensionsRequired":["EXT_meshopt_compression"],
        "buffers":[{{"byteLength":{length},"uri":"data:application/octet-stream;base64,{data}"}},{{"byteLength":{size}}}],
        "bufferViews":[{{"buffer":1,"byteLength":{size},"byteStride":12,"extensions":{{"EXT_meshopt_compression":
            {{"buffer":0,"byteLength":{stream},"byteStride":12,"count":{vertices},"mode":"ATTRIBUTES"}}}}}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":{vertices},"type":"VEC3","min":[1,2,0],"max":[1,2,0]}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],"nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]}}"#,
        length = buffer.len(),
        stream = stream.len(),
        data = base64::engine::general_purpose::STANDARD.encode(&buffer)
    );
    let dir = common::temp_dir("decompressed-many-times");
    let path = dir.join("dense.gltf");
    std::fs::write(&path, &json).unwrap();
    // What the loader reads: the file and its buffer's data.
    let file_size = json.len() + buffer.len();
    let allowance = 1 << 20;
    assert!(
        size > 16 * file_size + allowance && size < 32 * file_size + allowance,
        "{size} from {file_size}"
    );
    let model = asset::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.meshes[0].primitives[0].positions.len(), vertices);
}
