//! A glTF file with one 2 × 2 quad, written by a test: the quad faces +Z (the default view's
//! side), u runs left to right and v top to bottom, so a texture shows upright.

use std::path::{Path, PathBuf};

/// The file's JSON: the quad's primitive gets `primitive_members` (e.g. `"material":0`) and the
/// root gets `root_members` (materials, textures, images, extensions, ...).
pub fn quad_gltf(primitive_members: &str, root_members: &str) -> String {
    let positions = [-1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
    let normals = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
    let uvs = [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let mut bin = super::f32_bytes(&positions);
    bin.extend(super::f32_bytes(&normals));
    bin.extend(super::f32_bytes(&uvs));
    bin.extend([0u16, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()));
    let separator = if root_members.is_empty() { "" } else { "," };
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "buffers":[{{"byteLength":{length},"uri":"{uri}"}}],
        "bufferViews":[{{"buffer":0,"byteOffset":0,"byteLength":48}},{{"buffer":0,"byteOffset":48,"byteLength":48}},
            {{"buffer":0,"byteOffset":96,"byteLength":32}},{{"buffer":0,"byteOffset":128,"byteLength":12}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[-1,-1,0],"max":[1,1,0]}},
            {{"bufferView":1,"componentType":5126,"count":4,"type":"VEC3"}},
            {{"bufferView":2,"componentType":5126,"count":4,"type":"VEC2"}},
            {{"bufferView":3,"componentType":5123,"count":6,"type":"SCALAR"}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2}},"indices":3{comma}{primitive_members}}}]}}],
        "nodes":[{{"mesh":0}}],"scenes":[{{"nodes":[0]}}]{separator}{root_members}}}"#,
        length = bin.len(),
        uri = super::data_uri(&bin),
        comma = if primitive_members.is_empty() { "" } else { "," },
    )
}

/// Writes `json` as `name.gltf` into `dir` and returns its path.
pub fn write(dir: &Path, name: &str, json: &str) -> PathBuf {
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, json).unwrap();
    path
}

/// The name of the colour at a fraction (`fx`, `fy`) across the part of `image` that differs
/// from its corner pixel (the background).
pub fn colour_at(image: &image::RgbaImage, fx: f32, fy: f32) -> &'static str {
    let background = image.get_pixel(0, 0).0;
    let drawn = image
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0.iter().zip(background.iter()).any(|(a, b)| a.abs_diff(*b) > 12));
    let (mut min, mut max) = ((u32::MAX, u32::MAX), (0, 0));
    for (x, y, _) in drawn {
        min = (min.0.min(x), min.1.min(y));
        max = (max.0.max(x), max.1.max(y));
    }
    assert!(min.0 <= max.0, "nothing drawn");
    let x = min.0 as f32 + fx * (max.0 - min.0) as f32;
    let y = min.1 as f32 + fy * (max.1 - min.1) as f32;
    colour_name(image.get_pixel(x as u32, y as u32).0)
}

/// "red", "green", "blue", "yellow", "grey" or "other", for clearly saturated colours.
pub fn colour_name(pixel: [u8; 4]) -> &'static str {
    match pixel {
        [r, g, b, _] if r > 180 && g > 180 && b < 80 => "yellow",
        [r, g, b, _] if r > 180 && g < 80 && b < 80 => "red",
        [r, g, b, _] if g > 180 && r < 80 && b < 80 => "green",
        [r, g, b, _] if b > 180 && r < 80 && g < 80 => "blue",
        [r, g, b, _] if r.abs_diff(g) < 12 && g.abs_diff(b) < 12 && r > 60 => "grey",
        _ => "other",
    }
}
