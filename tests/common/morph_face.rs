//! A small glTF "face" with named morph targets, written by the tests themselves (none of the
//! sample models names its targets): a cube on node "Head", mesh "Face", with targets Angry
//! (the top rises), Surprised (the sides widen) and Sad (the top leans forward), and a clip
//! "Emote" that raises Angry from 0 to 1 and back over 2 s while holding Surprised at 0.5.

use std::path::{Path, PathBuf};

use super::{data_uri, f32_bytes};

/// Where Angry lifts the top face: the model's top is at this height at full weight.
pub const ANGRY_LIFT: f32 = 0.8;

const CORNERS: [[f32; 3]; 8] = [
    [-0.5, 0.0, -0.5],
    [0.5, 0.0, -0.5],
    [0.5, 0.0, 0.5],
    [-0.5, 0.0, 0.5],
    [-0.5, 1.0, -0.5],
    [0.5, 1.0, -0.5],
    [0.5, 1.0, 0.5],
    [-0.5, 1.0, 0.5],
];

const TRIANGLES: [u16; 36] = [
    0, 1, 2, 0, 2, 3, // bottom
    4, 6, 5, 4, 7, 6, // top
    0, 4, 5, 0, 5, 1, // back
    3, 2, 6, 3, 6, 7, // front
    0, 3, 7, 0, 7, 4, // left
    1, 5, 6, 1, 6, 2, // right
];

/// The glTF JSON, with `mesh_extras` as the mesh's `extras` (e.g. `{"targetNames": [...]}`).
pub fn morph_face_gltf(mesh_extras: &str) -> String {
    let top = |delta: [f32; 3]| CORNERS.map(|c| if c[1] > 0.5 { delta } else { [0.0; 3] });
    let angry = top([0.0, ANGRY_LIFT, 0.0]);
    let surprised = CORNERS.map(|c| [c[0].signum() * 0.5, 0.0, 0.0]);
    let sad = top([0.0, 0.0, 0.6]);
    let mut bin = f32_bytes(CORNERS.as_flattened());
    bin.extend(TRIANGLES.iter().flat_map(|i| i.to_le_bytes()));
    for target in [angry, surprised, sad] {
        bin.extend(f32_bytes(target.as_flattened()));
    }
    bin.extend(f32_bytes(&[0.0, 1.0, 2.0]));
    bin.extend(f32_bytes(&[0.0, 0.5, 0.0, 1.0, 0.5, 0.0, 0.0, 0.5, 0.0]));
    let bounds = |points: &[[f32; 3]; 8]| {
        let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
        for point in points {
            for axis in 0..3 {
                min[axis] = min[axis].min(point[axis]);
                max[axis] = max[axis].max(point[axis]);
            }
        }
        format!(r#""min":{min:?},"max":{max:?}"#)
    };
    let vec3_accessor = |view: usize, points: &[[f32; 3]; 8]| {
        format!(
            r#"{{"bufferView":{view},"componentType":5126,"count":8,"type":"VEC3",{}}}"#,
            bounds(points)
        )
    };
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
        "buffers":[{{"byteLength":{length},"uri":"{uri}"}}],
        "bufferViews":[{{"buffer":0,"byteLength":96}},{{"buffer":0,"byteOffset":96,"byteLength":72}},
            {{"buffer":0,"byteOffset":168,"byteLength":96}},{{"buffer":0,"byteOffset":264,"byteLength":96}},
            {{"buffer":0,"byteOffset":360,"byteLength":96}},{{"buffer":0,"byteOffset":456,"byteLength":12}},
            {{"buffer":0,"byteOffset":468,"byteLength":36}}],
        "accessors":[{base},
            {{"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"}},
            {angry},{surprised},{sad},
            {{"bufferView":5,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[2]}},
            {{"bufferView":6,"componentType":5126,"count":9,"type":"SCALAR"}}],
        "meshes":[{{"name":"Face","extras":{mesh_extras},"weights":[0,0,0],
            "primitives":[{{"attributes":{{"POSITION":0}},"indices":1,
                "targets":[{{"POSITION":2}},{{"POSITION":3}},{{"POSITION":4}}]}}]}}],
        "nodes":[{{"name":"Head","mesh":0}}],
        "animations":[{{"name":"Emote","samplers":[{{"input":5,"output":6}}],
            "channels":[{{"sampler":0,"target":{{"node":0,"path":"weights"}}}}]}}]}}"#,
        length = bin.len(),
        uri = data_uri(&bin),
        base = vec3_accessor(0, &CORNERS),
        angry = vec3_accessor(2, &angry),
        surprised = vec3_accessor(3, &surprised),
        sad = vec3_accessor(4, &sad),
    )
}

/// Writes the face, its targets named Angry, Surprised and Sad, to `dir/face.gltf`.
pub fn write_morph_face(dir: &Path) -> PathBuf {
    write_face(dir, "face.gltf", r#"{"targetNames":["Angry","Surprised","Sad"]}"#)
}

/// Writes the face with `mesh_extras` as its mesh's `extras` to `dir/name`.
pub fn write_face(dir: &Path, name: &str, mesh_extras: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, morph_face_gltf(mesh_extras)).unwrap();
    path
}
