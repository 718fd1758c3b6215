//! The glTF loader on bytes named `.glb`: the GLB container, then the JSON and buffers inside.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Errors are expected; panics, hangs and huge allocations are what the fuzzer finds.
    let _ = rigscope::asset::load_bytes(Path::new("/nonexistent/fuzz.glb"), data);
});
