//! A small glTF scene the animated-property tests write: a textured quad, a camera and a spot
//! light, with animations whose channels are KHR_animation_pointer pointers.

use std::path::PathBuf;

use rigscope::anim::Pose;
use rigscope::asset::{self, Model};

/// One animation channel a test file animates: a pointer, its sampler's interpolation, key
/// times and output values (`kind`: the output accessor's type).
pub struct Pointer {
    pointer: String,
    interpolation: &'static str,
    times: Vec<f32>,
    values: Vec<f32>,
    kind: &'static str,
}

pub fn pointer(pointer: &str, interpolation: &'static str, times: &[f32], values: &[f32]) -> Pointer {
    let components = values.len() / times.len() / if interpolation == "CUBICSPLINE" { 3 } else { 1 };
    let kind = ["SCALAR", "VEC2", "VEC3", "VEC4"][components - 1];
    Pointer {
        pointer: pointer.to_owned(),
        interpolation,
        times: times.to_vec(),
        values: values.to_vec(),
        kind,
    }
}

/// Binary data and accessors of a file a test writes.
#[derive(Default)]
struct Bin {
    bytes: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Bin {
    fn accessor(&mut self, bytes: &[u8], component: u32, count: usize, kind: &str) -> usize {
        self.views.push(format!(
            r#"{{"buffer":0,"byteOffset":{},"byteLength":{}}}"#,
            self.bytes.len(),
            bytes.len()
        ));
        self.bytes.extend_from_slice(bytes);
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        self.accessors.push(format!(
            r#"{{"bufferView":{},"componentType":{component},"count":{count},"type":"{kind}"}}"#,
            self.views.len() - 1
        ));
        self.accessors.len() - 1
    }

    fn floats(&mut self, values: &[f32], per: usize, kind: &str) -> usize {
        self.accessor(&super::f32_bytes(values), 5126, values.len() / per, kind)
    }
}

/// A 2 × 2 quad facing +Z on node 0 (under node 1), drawn with material 0 (a white texture
/// with a texture transform, MASK, emissive strength), a camera on node 2, a spot light on
/// node 3, and one animation per list of `animations`.
fn scene_json(animations: &[Vec<Pointer>]) -> String {
    let mut bin = Bin::default();
    let positions = [-1.0, -1.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -1.0, 1.0, 0.0];
    let position = bin.floats(&positions, 3, "VEC3");
    let normal = bin.floats(&[0.0, 0.0, 1.0].repeat(4), 3, "VEC3");
    let uv = bin.floats(&[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0], 2, "VEC2");
    let index_bytes: Vec<u8> = [0u32, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
    let indices = bin.accessor(&index_bytes, 5125, 6, "SCALAR");
    let mut animation_json = Vec::new();
    for channels in animations {
        let (mut samplers, mut targets) = (Vec::new(), Vec::new());
        for (index, channel) in channels.iter().enumerate() {
            let input = bin.floats(&channel.times, 1, "SCALAR");
            let per = channel.values.len() / bin_count(channel);
            let output = bin.floats(&channel.values, per, channel.kind);
            samplers.push(format!(
                r#"{{"input":{input},"output":{output},"interpolation":"{}"}}"#,
                channel.interpolation
            ));
            targets.push(format!(
                r#"{{"sampler":{index},"target":{{"path":"pointer","extensions":{{"KHR_animation_pointer":{{"pointer":"{}"}}}}}}}}"#,
                channel.pointer
            ));
        }
        animation_json.push(format!(
            r#"{{"samplers":[{}],"channels":[{}]}}"#,
            samplers.join(","),
            targets.join(",")
        ));
    }
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "extensionsUsed":["KHR_animation_pointer","KHR_texture_transform","KHR_lights_punctual","KHR_materials_emissive_strength","KHR_node_visibility"],
        "buffers":[{{"byteLength":{},"uri":"{}"}}],"bufferViews":[{}],"accessors":[{}],
        "images":[{{"uri":"{}"}}],"textures":[{{"source":0}}],
        "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[1,1,1,1],"metallicFactor":0,"roughnessFactor":1,
            "baseColorTexture":{{"index":0,"extensions":{{"KHR_texture_transform":{{"offset":[0.25,0],"scale":[2,2]}}}}}}}},
            "emissiveFactor":[0,0,0],"alphaMode":"MASK","alphaCutoff":0.4,
            "extensions":{{"KHR_materials_emissive_strength":{{"emissiveStrength":2}}}}}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":{position},"NORMAL":{normal},"TEXCOORD_0":{uv}}},"indices":{indices},"material":0}}]}}],
        "cameras":[{{"type":"perspective","perspective":{{"yfov":0.8,"znear":0.1,"zfar":100}}}}],
        "extensions":{{"KHR_lights_punctual":{{"lights":[{{"type":"spot","color":[1,1,1],"intensity":5,"range":10,"spot":{{"innerConeAngle":0.2,"outerConeAngle":0.6}}}}]}}}},
        "nodes":[{{"mesh":0}},{{"children":[0]}},{{"camera":0,"translation":[0,0,5]}},
            {{"translation":[0,0,3],"extensions":{{"KHR_lights_punctual":{{"light":0}}}}}}],
        "scenes":[{{"nodes":[1,2,3]}}],
        "animations":[{}]}}"#,
        bin.bytes.len(),
        super::data_uri(&bin.bytes),
        bin.views.join(","),
        bin.accessors.join(","),
        white_png(),
        animation_json.join(",")
    )
}

/// How many elements a channel's output accessor has.
fn bin_count(channel: &Pointer) -> usize {
    channel.times.len() * if channel.interpolation == "CUBICSPLINE" { 3 } else { 1 }
}

fn white_png() -> String {
    use base64::Engine;
    let image = image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 255, 255, 255]));
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

pub fn write(name: &str, animations: &[Vec<Pointer>]) -> PathBuf {
    let path = super::temp_dir(name).join(format!("{name}.gltf"));
    std::fs::write(&path, scene_json(animations)).unwrap();
    path
}

pub fn load(name: &str, animations: &[Vec<Pointer>]) -> Model {
    asset::load(&write(name, animations)).unwrap_or_else(|e| panic!("{e}"))
}

/// The pose of clip `clip` at `time`, from the rest pose.
pub fn pose_at(model: &Model, clip: usize, time: f32) -> Pose {
    let mut pose = model.skeleton.rest_pose().clone();
    let clip = &model.clips[clip];
    clip.sample(time, &mut pose, &mut clip.cursor());
    pose
}

/// The pose's value of the property `pointer` animates.
pub fn value(model: &Model, pose: &Pose, pointer: &str) -> Vec<f32> {
    let slot = (model.properties.slots().iter().find(|s| s.pointer == pointer))
        .unwrap_or_else(|| panic!("no slot for {pointer}"));
    pose.properties()[slot.offset..slot.offset + slot.width].to_vec()
}

pub fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

pub const BASE_COLOR: &str = "/materials/0/pbrMetallicRoughness/baseColorFactor";
pub const VISIBLE: &str = "/nodes/1/extensions/KHR_node_visibility/visible";
