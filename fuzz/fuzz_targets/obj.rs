//! The OBJ loader on an `.obj`, in a folder that does not exist, so no `.mtl` is read beside it.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rigscope::asset::load_bytes(Path::new("/nonexistent/fuzz.obj"), data);
});
