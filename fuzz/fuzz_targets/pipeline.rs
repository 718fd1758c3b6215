//! A model through everything the commands do with it: load (MD5 or FBX by content, else glTF),
//! sample every clip at its ends, middle and outside it, skin on the CPU by both methods, and
//! lint.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use rigscope::asset::load_bytes;

#[path = "../../tests/common/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| {
    let name = if data.starts_with(b"MD5Version") {
        "fuzz.md5mesh"
    } else if data.starts_with(b"Kaydara FBX Binary") || data.starts_with(b"; FBX") {
        "fuzz.fbx"
    } else {
        "fuzz.gltf"
    };
    if let Ok(model) = load_bytes(&Path::new("/nonexistent").join(name), data) {
        pipeline::exercise(&model);
    }
});
