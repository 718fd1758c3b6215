//! Draco-compressed variants of sample files, written as gltf-transform's `draco` command
//! writes them: every triangle primitive without morph targets has its attributes and indices
//! encoded (by `draco-core`'s encoder, which writes byte for byte what Google's does) into one
//! Draco buffer view, its accessors keep only their count and layout, and the extension is
//! required. Floats are quantised per attribute kind (positions, normals, texture coordinates,
//! colours, other floats); integers are kept exactly.

use std::path::Path;

use base64::Engine;
use draco_core::{DataType, EncoderBuffer, EncoderOptions, GeometryAttributeType, Mesh, MeshEncoder, PointAttribute};
use serde_json::{Value, json};

/// How to encode: Draco's connectivity method and speeds, and quantisation bits per kind.
#[derive(Clone, Copy, Debug)]
pub struct DracoOptions {
    pub edgebreaker: bool,
    pub encode_speed: i32,
    pub decode_speed: i32,
    pub position_bits: i32,
    pub normal_bits: i32,
    pub texcoord_bits: i32,
    pub color_bits: i32,
    pub generic_bits: i32,
}

impl Default for DracoOptions {
    /// gltf-transform's defaults.
    fn default() -> Self {
        Self {
            edgebreaker: true,
            encode_speed: 5,
            decode_speed: 5,
            position_bits: 14,
            normal_bits: 10,
            texcoord_bits: 12,
            color_bits: 8,
            generic_bits: 12,
        }
    }
}

/// The glTF file at `path` (GLB, or JSON with its buffers) with its primitives compressed by
/// Draco, as a GLB whose one buffer holds every original buffer and the Draco data.
pub fn draco_glb(path: &Path, options: &DracoOptions) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let (mut json, buffers) = read_gltf(path, &bytes);
    // One buffer: the originals one after another, each 4-byte aligned.
    let mut bin = Vec::new();
    let mut starts = Vec::new();
    for buffer in &buffers {
        starts.push(bin.len());
        bin.extend_from_slice(buffer);
        bin.resize(bin.len().next_multiple_of(4), 0);
    }
    for view in json["bufferViews"].as_array_mut().into_iter().flatten() {
        let buffer = view["buffer"].as_u64().unwrap() as usize;
        let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        view["buffer"] = 0.into();
        view["byteOffset"] = (starts[buffer] + offset).into();
    }
    let mut compressed_any = false;
    let meshes = json["meshes"].as_array().cloned().unwrap_or_default();
    for (m, mesh) in meshes.iter().enumerate() {
        for (p, primitive) in mesh["primitives"].as_array().unwrap().iter().enumerate() {
            let triangles = primitive["mode"].as_u64().unwrap_or(4) == 4;
            if !triangles || primitive.get("targets").is_some() {
                continue;
            }
            let Some(encoded) = encode_primitive(&json, &bin, primitive, options) else {
                continue;
            };
            compressed_any = true;
            let view = json["bufferViews"].as_array().unwrap().len();
            json["bufferViews"]
                .as_array_mut()
                .unwrap()
                .push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": encoded.bytes.len()}));
            bin.extend_from_slice(&encoded.bytes);
            bin.resize(bin.len().next_multiple_of(4), 0);
            for (accessor, count) in encoded.accessors {
                let accessor = &mut json["accessors"][accessor];
                let object = accessor.as_object_mut().unwrap();
                object.remove("bufferView");
                object.remove("byteOffset");
                object.insert("count".into(), count.into());
            }
            json["meshes"][m]["primitives"][p]["extensions"]["KHR_draco_mesh_compression"] =
                json!({"bufferView": view, "attributes": encoded.ids});
        }
    }
    assert!(compressed_any, "{}: no primitive to compress", path.display());
    for list in ["extensionsUsed", "extensionsRequired"] {
        let names = json[list].as_array().cloned().unwrap_or_default();
        let mut names: Vec<Value> = names
            .into_iter()
            .filter(|n| n != "KHR_draco_mesh_compression")
            .collect();
        names.push("KHR_draco_mesh_compression".into());
        json[list] = names.into();
    }
    json["buffers"] = json!([{"byteLength": bin.len()}]);
    glb(&json, &bin)
}

/// A primitive's Draco data, the Draco id of each attribute, and the accessors it now fills
/// with their new counts.
struct Encoded {
    bytes: Vec<u8>,
    ids: serde_json::Map<String, Value>,
    accessors: Vec<(usize, usize)>,
}

fn encode_primitive(json: &Value, bin: &[u8], primitive: &Value, options: &DracoOptions) -> Option<Encoded> {
    let attributes = primitive["attributes"].as_object()?;
    let points = json["accessors"][attributes.get("POSITION")?.as_u64()? as usize]["count"].as_u64()? as usize;
    let indices: Vec<u32> = match primitive["indices"].as_u64() {
        Some(accessor) => read_accessor(json, bin, accessor as usize)?
            .into_iter()
            .map(|i| i as u32)
            .collect(),
        None => (0..points as u32).collect(),
    };
    let mut mesh = Mesh::new();
    mesh.set_num_points(points);
    mesh.set_num_faces(indices.len() / 3);
    mesh.set_faces_from_flat_indices(&indices);
    let mut encoder_options = EncoderOptions::new();
    encoder_options.set_encoding_method(if options.edgebreaker { 1 } else { 0 });
    encoder_options.set_global_int("encoding_speed", options.encode_speed);
    encoder_options.set_global_int("decoding_speed", options.decode_speed);
    let mut names = Vec::new();
    for (name, accessor) in attributes {
        let index = accessor.as_u64()? as usize;
        let layout = &json["accessors"][index];
        if layout.get("sparse").is_some() {
            return None;
        }
        let (data_type, float) = match layout["componentType"].as_u64()? {
            5120 => (DataType::Int8, false),
            5121 => (DataType::Uint8, false),
            5122 => (DataType::Int16, false),
            5123 => (DataType::Uint16, false),
            5125 => (DataType::Uint32, false),
            _ => (DataType::Float32, true),
        };
        let components = components(layout["type"].as_str()?);
        let kind = match name.as_str() {
            "POSITION" => GeometryAttributeType::Position,
            "NORMAL" => GeometryAttributeType::Normal,
            n if n.starts_with("TEXCOORD_") => GeometryAttributeType::TexCoord,
            n if n.starts_with("COLOR_") => GeometryAttributeType::Color,
            _ => GeometryAttributeType::Generic,
        };
        let bits = match kind {
            GeometryAttributeType::Position => options.position_bits,
            GeometryAttributeType::Normal => options.normal_bits,
            GeometryAttributeType::TexCoord => options.texcoord_bits,
            GeometryAttributeType::Color => options.color_bits,
            _ => options.generic_bits,
        };
        let raw = read_raw(json, bin, index)?;
        let mut attribute = PointAttribute::new();
        let normalized = layout["normalized"].as_bool().unwrap_or(false);
        attribute.init(kind, components as u8, data_type, normalized, points);
        attribute.buffer_mut().write(0, &raw);
        let id = mesh.add_attribute(attribute);
        if float {
            encoder_options.set_attribute_int(id, "quantization_bits", bits);
        }
        names.push((name.clone(), index));
    }
    let mut encoder = MeshEncoder::new();
    encoder.set_mesh(mesh);
    let mut buffer = EncoderBuffer::new();
    let info = encoder.encode_with_info(&encoder_options, &mut buffer).unwrap();
    let mut ids = serde_json::Map::new();
    let mut accessors = Vec::new();
    for ((name, accessor), encoded) in names.iter().zip(&info.attributes) {
        ids.insert(name.clone(), encoded.unique_id.into());
        accessors.push((*accessor, info.num_encoded_points));
    }
    if let Some(index) = primitive["indices"].as_u64() {
        accessors.push((index as usize, info.num_encoded_faces * 3));
    }
    Some(Encoded {
        bytes: buffer.data().to_vec(),
        ids,
        accessors,
    })
}

fn components(kind: &str) -> usize {
    match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" | "MAT2" => 4,
        "MAT3" => 9,
        _ => 16,
    }
}

fn component_size(component_type: u64) -> usize {
    match component_type {
        5120 | 5121 => 1,
        5122 | 5123 => 2,
        _ => 4,
    }
}

/// An accessor's elements tightly packed, in its own component type.
fn read_raw(json: &Value, bin: &[u8], index: usize) -> Option<Vec<u8>> {
    let accessor = &json["accessors"][index];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64()? as usize];
    let element = component_size(accessor["componentType"].as_u64()?) * components(accessor["type"].as_str()?);
    let stride = view["byteStride"].as_u64().map_or(element, |s| s as usize);
    let start =
        view["byteOffset"].as_u64().unwrap_or(0) as usize + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = accessor["count"].as_u64()? as usize;
    let mut out = Vec::with_capacity(count * element);
    for i in 0..count {
        out.extend_from_slice(&bin[start + i * stride..start + i * stride + element]);
    }
    Some(out)
}

/// An integer accessor's values.
fn read_accessor(json: &Value, bin: &[u8], index: usize) -> Option<Vec<u64>> {
    let raw = read_raw(json, bin, index)?;
    let size = component_size(json["accessors"][index]["componentType"].as_u64()?);
    Some(
        raw.chunks_exact(size)
            .map(|c| c.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b)))
            .collect(),
    )
}

/// A glTF file's JSON and its buffers' bytes.
fn read_gltf(path: &Path, bytes: &[u8]) -> (Value, Vec<Vec<u8>>) {
    let (json, bin) = if bytes.starts_with(b"glTF") {
        let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json: Value = serde_json::from_slice(&bytes[20..20 + json_length]).unwrap();
        let bin = bytes.get(20 + json_length + 8..).map(<[u8]>::to_vec);
        (json, bin)
    } else {
        (serde_json::from_slice(bytes).unwrap(), None)
    };
    let buffers = (json["buffers"].as_array().cloned().unwrap_or_default())
        .iter()
        .map(|buffer| match buffer["uri"].as_str() {
            None => bin.clone().unwrap(),
            Some(uri) if uri.starts_with("data:") => {
                let data = &uri[uri.find(',').unwrap() + 1..];
                base64::engine::general_purpose::STANDARD.decode(data).unwrap()
            }
            Some(uri) => std::fs::read(path.parent().unwrap().join(uri)).unwrap(),
        })
        .collect();
    (json, buffers)
}

fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap();
    text.resize(text.len().next_multiple_of(4), b' ');
    let mut out = b"glTF".to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&((12 + 8 + text.len() + 8 + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend(text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}
