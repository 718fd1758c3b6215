//! Corrupt files: truncated, bit-flipped and number-mangled copies of every sample asset must
//! load or fail with an error naming the file, never panic, and never make one allocation
//! larger than a small multiple of the input.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

use rigscope::asset;

/// Records the largest single allocation made by the current thread.
struct TrackLargest;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
}

unsafe impl GlobalAlloc for TrackLargest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: TrackLargest = TrackLargest;

/// One allocation may be this many times the bytes the model is made of (the file and the
/// files beside it that it may reference), plus a fixed allowance for small files.
const ALLOCATION_FACTOR: usize = 8;
const ALLOCATION_ALLOWANCE: usize = 256 << 10;

/// Length of the part of the file that is JSON (all of a `.gltf`, the first chunk of a `.glb`).
fn json_extent(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"glTF") && bytes.len() >= 20 {
        20 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
    } else {
        bytes.len()
    }
}

fn mutations(bytes: &[u8], seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let len = bytes.len();
    let mut cuts = vec![0, 1, 4, 11, 12, 13, 19, 20, 21, len / 4, len / 2, len - 1];
    cuts.extend((1..24).map(|i| len * i / 24));
    for cut in cuts {
        out.push((format!("truncated to {cut} bytes"), bytes[..cut.min(len)].to_vec()));
    }
    let mut random = common::Lcg(seed);
    let json = json_extent(bytes).min(len);
    for flip in 0..120 {
        // Most flips land in the JSON, where they change structure rather than vertex data.
        let position = if flip % 4 == 0 {
            random.below(len)
        } else {
            random.below(json)
        };
        let mut copy = bytes.to_vec();
        copy[position] ^= 1 << random.below(8);
        out.push((format!("bit flip at byte {position}"), copy));
    }
    // Numbers in the JSON replaced by huge or boundary values: counts, offsets, indices.
    let digits: Vec<usize> = (0..json)
        .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit()))
        .collect();
    for replacement in ["4294967295", "18446744073709551615", "0", "1e38", "-1"] {
        for _ in 0..12 {
            let Some(&start) = digits.get(random.below(digits.len())) else {
                break;
            };
            let end = (start..len).find(|&i| !bytes[i].is_ascii_digit()).unwrap_or(len);
            let mut copy = bytes[..start].to_vec();
            copy.extend_from_slice(replacement.as_bytes());
            copy.extend_from_slice(&bytes[end..]);
            if bytes.starts_with(b"glTF") {
                fix_glb_lengths(&mut copy, end - start, replacement.len());
            }
            out.push((format!("number at byte {start} replaced by {replacement}"), copy));
        }
    }
    out
}

/// Keeps a GLB's header and JSON chunk lengths consistent after the JSON changed length, so
/// the mutation reaches the JSON parser and the loader behind it.
fn fix_glb_lengths(glb: &mut [u8], old: usize, new: usize) {
    let adjust = |field: &mut [u8]| {
        let value = u32::from_le_bytes(field[..4].try_into().unwrap()) as i64 + new as i64 - old as i64;
        field[..4].copy_from_slice(&(value as u32).to_le_bytes());
    };
    adjust(&mut glb[8..12]);
    adjust(&mut glb[12..16]);
}

fn folder_bytes(path: &Path) -> usize {
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len() as usize)
        .sum()
}

#[test]
fn corrupt_copies_of_every_sample_fail_cleanly() {
    let mut outcomes = (0, 0);
    for (file_index, path) in common::all_gltf_files().into_iter().enumerate() {
        let bytes = std::fs::read(&path).unwrap();
        let limit = ALLOCATION_FACTOR * folder_bytes(&path) + ALLOCATION_ALLOWANCE;
        for (what, mutated) in mutations(&bytes, file_index as u64 + 1) {
            LARGEST.with(|l| l.set(0));
            let result = std::panic::catch_unwind(|| asset::load_bytes(&path, &mutated));
            let largest = LARGEST.with(Cell::get);
            let context = format!("{} {what}", path.display());
            match result {
                Err(_) => panic!("{context}: the loader panicked"),
                Ok(Ok(_)) => outcomes.0 += 1,
                Ok(Err(error)) => {
                    outcomes.1 += 1;
                    let message = error.to_string();
                    assert!(
                        message.starts_with(&path.display().to_string()),
                        "{context}: error does not name the file: {message}"
                    );
                }
            }
            assert!(
                largest <= limit,
                "{context}: allocated {largest} bytes at once (limit {limit})"
            );
        }
    }
    let (loaded, failed) = outcomes;
    println!("{loaded} corrupt copies still loaded, {failed} were refused");
    assert!(failed > 500, "the mutations should break many files");
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    // An accessor without a buffer view claims four billion elements.
    let json = br#"{"asset":{"version":"2.0"},
        "buffers":[{"byteLength":4,"uri":"data:application/octet-stream;base64,AAAAAA=="}],
        "accessors":[{"componentType":5126,"count":4000000000,"type":"VEC3"}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
        "nodes":[{"mesh":0}]}"#;
    LARGEST.with(|l| l.set(0));
    let error = asset::load_bytes(Path::new("absurd.gltf"), json).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("absurd.gltf: /meshes/0/primitives/0/attributes/POSITION: accessor 0"),
        "{error}"
    );
    assert!(LARGEST.with(Cell::get) < 1 << 20);
}

#[test]
fn bad_references_are_errors_that_say_what_is_wrong() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"children":[1]}]}"#,
            "/nodes/0/children: child 1 does not exist",
        ),
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}"#,
            "cycle",
        ),
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{},{"children":[1]}]}"#,
            "more than one parent",
        ),
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"mesh":3}]}"#,
            "/nodes/0/mesh: mesh 3 does not exist",
        ),
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"translation":[0,1e39,0]}]}"#,
            "",
        ),
        (
            r#"{"asset":{"version":"2.0"},"extensionsRequired":["KHR_gaussian_splatting_compression_spz_2"]}"#,
            "KHR_gaussian_splatting_compression_spz_2",
        ),
        (
            r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"missing.bin"}],
                "bufferViews":[{"buffer":0,"byteLength":12}],
                "accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}],
                "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#,
            "/meshes/0/primitives/0/attributes/POSITION: accessor 0: buffer view 0 uses buffer 0, which cannot be read (cannot read 'missing.bin'",
        ),
        (
            r#"{"asset":{"version":"2.0"},"nodes":[{"skin":0}]}"#,
            "/nodes/0/skin: skin 0 does not exist",
        ),
    ];
    for (json, expected) in cases {
        let error = asset::load_bytes(Path::new("case.gltf"), json.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("case.gltf: ") && error.contains(expected),
            "{json}: {error}"
        );
    } // A buffer shorter than it declares is read as far as it goes (exporters miscount their
    // padding): only the views past its end are errors.
    let short = r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":10,"uri":"data:application/octet-stream;base64,AAAA"}]}"#;
    let model = asset::load_bytes(Path::new("case.gltf"), short.as_bytes()).unwrap();
    assert_eq!(
        model.warnings,
        ["/buffers/0: it declares 10 bytes but only 3 are there (the views that fit are read)"]
    );
}

#[test]
fn many_instances_cannot_ask_for_unbounded_memory() {
    // 4,000 zero vertices (no buffer view) placed by 9,000 nodes: 36 million posed vertices
    // from a 100 KB file.
    let nodes = vec![r#"{"mesh":0}"#; 9000].join(",");
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},
        "accessors":[{{"componentType":5126,"count":4000,"type":"VEC3"}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
        "nodes":[{nodes}]}}"#
    );
    LARGEST.with(|l| l.set(0));
    let error = asset::load_bytes(Path::new("instanced.gltf"), json.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(error.contains("more than rigscope poses"), "{error}");
    // The largest allocation is the parsed node list: `{"mesh":0}` (11 bytes) becomes a
    // 224-byte gltf-json node, and the list's growth may double that; nothing larger.
    let largest = LARGEST.with(Cell::get);
    assert!(
        largest < 48 * json.len(),
        "{largest} bytes for a {}-byte file",
        json.len()
    );

    // Many morph targets on many nodes: each node carries its own weights.
    let targets = vec!["{}"; 4000].join(",");
    let nodes = vec![r#"{"mesh":0}"#; 2000].join(",");
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},
        "meshes":[{{"primitives":[{{"attributes":{{}},"targets":[{targets}]}}]}}],
        "nodes":[{nodes}]}}"#
    );
    let error = asset::load_bytes(Path::new("morphs.gltf"), json.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("morph weights, more than the file could describe"),
        "{error}"
    );
}

#[test]
fn unusual_but_valid_files_load() {
    // A node hidden by a zero-scale matrix, with a child: both must stay finite.
    let json = br#"{"asset":{"version":"2.0"},
        "nodes":[{"matrix":[0,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1],"children":[1]},{"translation":[1,0,0]}]}"#;
    let model = asset::load_bytes(Path::new("hidden.gltf"), json).unwrap();
    let world = model.skeleton.rest_pose().to_model_matrices();
    assert!(world.iter().all(|m| m.is_finite()));
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    assert_eq!(
        world[1].w_axis.truncate(),
        glam::Vec3::new(1.0, 2.0, 3.0),
        "the child collapses onto its parent's origin"
    );
}

#[test]
fn animation_pointers_rigscope_reads_play_and_others_are_listed() {
    let mut data = common::f32_bytes(&[0.0, 1.0]);
    data.extend(common::f32_bytes(&[0.0, 0.0, 0.0, 2.0, 0.0, 0.0]));
    let pointer = |target: &str| {
        serde_json::json!({"sampler": 0, "target": {"path": "pointer",
        "extensions": {"KHR_animation_pointer": {"pointer": target}}}})
    };
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_animation_pointer"],
        "nodes": [{"name": "a"}, {"name": "b"}],
        "materials": [{}],
        "buffers": [{"byteLength": data.len(), "uri": common::data_uri(&data)}],
        "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0], "max": [1.0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}
        ],
        "animations": [{"samplers": [{"input": 0, "output": 1}], "channels": [
            pointer("/materials/0/emissiveFactor"),
            pointer("/nodes/1/translation"),
            pointer("/materials/0/extensions/KHR_materials_sheen/sheenColorFactor"),
            pointer("/materials/0/extensions/EXT_unknown/colorFactor")
        ]}]
    });
    let model = asset::load_bytes(Path::new("pointer.gltf"), json.to_string().as_bytes()).unwrap();
    let clip = &model.clips[0];
    let mut pose = model.skeleton.rest_pose().clone();
    clip.sample(0.5, &mut pose, &mut clip.cursor());
    let b = model.skeleton.find("b").unwrap();
    assert_eq!(pose.local()[b].translation, glam::Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(
        pose.properties(),
        [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        "the emissive and sheen factors play"
    );
    assert_eq!(
        model.warnings,
        [
            "/animations/0/channels/3: it animates /materials/0/extensions/EXT_unknown/colorFactor (KHR_animation_pointer), which rigscope does not play (not played)"
        ]
    );
}

#[test]
fn malformed_skin_data_is_refused() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":1,"type":"VEC3"},{"componentType":5121,"count":1,"type":"VEC4"},{"componentType":5126,"count":1,"type":"VEC4"}],
               "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_1":1,"WEIGHTS_0":2}}]}]}"#,
            "do not pair up",
        ),
        (
            r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"data:application/octet-stream;base64,AAAAAA=="}],"bufferViews":[{"buffer":0,"byteLength":4}],
               "accessors":[{"componentType":5126,"count":1,"type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":0,"componentType":5126},"values":{"bufferView":0}}}],
               "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#,
            "",
        ),
        (
            r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}],"bufferViews":[{"buffer":0,"byteLength":12}],
               "accessors":[{"componentType":5126,"count":1,"type":"VEC3","sparse":{"count":1,"indices":{"bufferView":0,"componentType":5126},"values":{"bufferView":0}}}],
               "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#,
            "indices must be unsigned integers",
        ),
    ];
    for (json, expected) in cases {
        let error = asset::load_bytes(Path::new("skin.gltf"), json.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("skin.gltf: ") && error.contains(expected),
            "{json}: {error}"
        );
    }
}
