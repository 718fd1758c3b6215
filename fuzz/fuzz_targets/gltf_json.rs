//! The glTF loader on bytes named `.gltf`: JSON, `data:` URIs, accessors, skins, clips.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rigscope::asset::load_bytes(Path::new("/nonexistent/fuzz.gltf"), data);
});
