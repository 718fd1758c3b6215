//! A model through everything the commands do with it: load (glTF by content, else MD5),
//! sample every clip at its ends, middle and outside it, skin on the CPU by both methods, and
//! lint.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use rigscope::asset::{Model, load_bytes};
use rigscope::skin::{Deformer, SkinningMethod};

fuzz_target!(|data: &[u8]| {
    let name = if data.starts_with(b"MD5Version") { "fuzz.md5mesh" } else { "fuzz.gltf" };
    if let Ok(model) = load_bytes(&Path::new("/nonexistent").join(name), data) {
        exercise(&model);
    }
});

fn exercise(model: &Model) {
    let rest = model.skeleton.rest_pose();
    let mut pose = rest.clone();
    let mut deformer = Deformer::new(model);
    for method in [SkinningMethod::Linear, SkinningMethod::DualQuaternion] {
        deformer.update_all(model, &pose, method);
    }
    for clip in &model.clips {
        let mut cursor = clip.cursor();
        let duration = clip.duration();
        for time in [-1.0, 0.0, duration * 0.5, duration, duration + 1.0] {
            pose.copy_from(rest);
            clip.sample(time, &mut pose, &mut cursor);
            deformer.update_all(model, &pose, SkinningMethod::Linear);
        }
    }
    let _ = rigscope::lint::lint(model);
}
