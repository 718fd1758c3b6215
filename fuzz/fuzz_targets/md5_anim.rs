//! The `.md5anim` parser: its frame bounds, and the clip it makes for a small two-joint mesh
//! whose hierarchy the seeds match.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rigscope::asset::{Model, load_bytes, md5};

const MESH: &str = r#"MD5Version 10
commandline ""
numJoints 2
numMeshes 1
joints {
    "origin" -1 ( 0 0 0 ) ( 0 0 0 )
    "bone" 0 ( 0 0 1 ) ( 0 0 0 )
}
mesh {
    shader "none"
    numverts 3
    vert 0 ( 0 0 ) 0 1
    vert 1 ( 1 0 ) 1 1
    vert 2 ( 0 1 ) 2 1
    numtris 1
    tri 0 0 1 2
    numweights 3
    weight 0 0 1 ( 0 0 0 )
    weight 1 1 1 ( 1 0 0 )
    weight 2 1 1 ( 0 1 0 )
}
"#;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| load_bytes(Path::new("/nonexistent/fuzz.md5mesh"), MESH.as_bytes()).expect("the mesh loads"))
}

fuzz_target!(|data: &[u8]| {
    let _ = md5::frame_bounds(data);
    if let Ok(clip) = md5::load_clip(model(), Path::new("fuzz.md5anim"), data) {
        let mut pose = model().skeleton.rest_pose().clone();
        clip.sample(clip.duration() * 0.5, &mut pose, &mut clip.cursor());
    }
});
