//! The MD5 loader on an `.md5mesh` (in a folder that does not exist, so no `.md5anim` or
//! texture is read beside it).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rigscope::asset::load_bytes(Path::new("/nonexistent/fuzz.md5mesh"), data);
});
