//! The FBX loader (ufbx and the conversion to a model) on an `.fbx`, binary or ASCII, in a
//! folder that does not exist, so no texture is read beside it.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rigscope::asset::load_bytes(Path::new("/nonexistent/fuzz.fbx"), data);
});
