//! `KHR_draco_mesh_compression`: each triangle primitive's vertex attributes and indices
//! become one Draco mesh (`draco-core`'s encoder, byte for byte what Google's writes), as
//! gltf-transform's `draco` command writes it: edgebreaker connectivity at speed 5, floats
//! quantised to gltf-transform's default bits (positions 14, normals 10, UVs 12, colours 8,
//! other floats 12: tangents and weights), integers (joints) kept exactly. The primitive's
//! accessors stay in the JSON with their layout and the counts Draco encoded, and POSITION
//! with its bounds, but without a buffer view; the extension is required.
//!
//! Draco welds and reorders the vertices, so a primitive with morph targets (whose
//! displacements follow the vertex order) stays uncompressed, as do points and lines; each is
//! a warning.
//!
//! A quantised value moves by at most half a step, a step being the attribute's largest
//! extent over any component divided by 2^bits − 1: a position by at most √3 × extent /
//! (2 × 16383), a weight by 1/8190 (the weights of a vertex then sum to 1 within 4/8190, which
//! readers renormalise).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use draco_core::{
    DataType, EncodedMeshInfo, EncoderBuffer, EncoderOptions, GeometryAttributeType, Mesh, MeshEncoder, PointAttribute,
};
use glam::{Vec2, Vec3, Vec4};
use gltf_json as json;
use json::mesh::Semantic;
use json::validation::Checked;

use super::document::{Document, Element, Layout, Usage, float_bounds};
use super::vertices::{Vertices, narrow_joints, short_indices};
use crate::asset::{Primitive, Topology};

pub const EXTENSION: &str = "KHR_draco_mesh_compression";

/// Quantisation bits per kind of float attribute (gltf-transform's defaults).
const POSITION_BITS: i32 = 14;
const NORMAL_BITS: i32 = 10;
const TEXCOORD_BITS: i32 = 12;
const COLOR_BITS: i32 = 8;
const GENERIC_BITS: i32 = 12;
/// Draco's encoding and decoding speed (gltf-transform's default: the standard edgebreaker
/// and prediction schemes).
const SPEED: i32 = 5;
/// Draco's number for edgebreaker connectivity.
const EDGEBREAKER: i32 = 1;

/// A primitive written compressed: its accessors by semantic, its index accessor, and the
/// extension object for the primitive.
pub struct DracoPrimitive {
    pub attributes: BTreeMap<Checked<Semantic>, json::Index<json::Accessor>>,
    pub indices: json::Index<json::Accessor>,
    pub extension: serde_json::Value,
}

/// One vertex attribute handed to Draco: its semantic, the accessor layout it decodes to, and
/// its values' bytes.
struct Attribute<'a> {
    semantic: &'a Semantic,
    layout: Layout,
    kind: GeometryAttributeType,
    data_type: DataType,
    bytes: Vec<u8>,
    bounds: Option<(json::Value, json::Value)>,
}

/// Writes `primitive` (whose attributes are `vertices`) as a Draco mesh; none, with a warning
/// naming it as `place`, when it must stay uncompressed: not triangles (or none), morph
/// targets (its mesh has `targets`), or data the encoder refuses.
pub fn write_primitive(
    document: &mut Document,
    primitive: &Primitive,
    vertices: &[(Semantic, Vertices)],
    targets: usize,
    place: &str,
) -> Option<DracoPrimitive> {
    let reason = match primitive.topology {
        _ if targets > 0 => Some("its morph targets follow the vertex order, which Draco changes"),
        Topology::Points | Topology::Lines => Some("Draco compresses triangles only"),
        Topology::Triangles if primitive.indices.len() < 3 => Some("it has no triangles"),
        Topology::Triangles => None,
    };
    if let Some(reason) = reason {
        document.warn(format!("{place}: left uncompressed: {reason}"));
        return None;
    }
    let attributes: Vec<Attribute> = vertices
        .iter()
        .map(|(semantic, data)| attribute(semantic, *data))
        .collect();
    let (bytes, info) = match encode(primitive, &attributes) {
        Ok(encoded) => encoded,
        Err(problem) => {
            document.warn(format!(
                "{place}: left uncompressed: Draco could not encode it ({problem})"
            ));
            return None;
        }
    };
    let view = document.view(&bytes, Usage::Other);
    let points = info.num_encoded_points;
    let mut accessors = BTreeMap::new();
    let mut ids = serde_json::Map::new();
    for (id, attribute) in attributes.into_iter().enumerate() {
        let accessor = document.layout_accessor(None, points, attribute.layout, attribute.bounds);
        accessors.insert(Checked::Valid(attribute.semantic.clone()), accessor);
        // Draco numbers attributes in the order they were added unless it says otherwise.
        let unique_id = (info.attributes.iter())
            .find(|encoded| encoded.source_attribute_id == id as i32)
            .map_or(id as u32, |encoded| encoded.unique_id);
        ids.insert(attribute.semantic.to_string(), unique_id.into());
    }
    let index_layout = match short_indices(points) {
        true => Layout::of::<u16>(),
        false => Layout::of::<u32>(),
    };
    let indices = document.layout_accessor(None, info.num_encoded_faces * 3, index_layout, None);
    document.use_extension(EXTENSION, true);
    Some(DracoPrimitive {
        attributes: accessors,
        indices,
        extension: serde_json::json!({ "bufferView": view.value(), "attributes": ids }),
    })
}

/// How one vertex attribute goes to Draco.
fn attribute<'a>(semantic: &'a Semantic, vertices: Vertices) -> Attribute<'a> {
    fn floats<'s, T: Element>(
        semantic: &'s Semantic,
        kind: GeometryAttributeType,
        values: &[T],
        bounds: bool,
    ) -> Attribute<'s> {
        Attribute {
            semantic,
            layout: Layout::of::<T>(),
            kind,
            data_type: DataType::Float32,
            bytes: bytemuck::cast_slice(values).to_vec(),
            bounds: bounds.then(|| float_bounds(values)).flatten(),
        }
    }
    match vertices {
        Vertices::Positions(positions) => floats::<Vec3>(semantic, GeometryAttributeType::Position, positions, true),
        Vertices::Normals(normals) => floats::<Vec3>(semantic, GeometryAttributeType::Normal, normals, false),
        Vertices::Tangents(tangents) => floats::<Vec4>(semantic, GeometryAttributeType::Generic, tangents, false),
        Vertices::TexCoords(uvs) => floats::<Vec2>(semantic, GeometryAttributeType::TexCoord, uvs, false),
        Vertices::Colors(colors) => floats::<Vec4>(semantic, GeometryAttributeType::Color, colors, false),
        Vertices::Weights(weights) => {
            let weights: Vec<Vec4> = weights.iter().map(|&w| Vec4::from(w)).collect();
            floats::<Vec4>(semantic, GeometryAttributeType::Generic, &weights, false)
        }
        Vertices::Joints(joints) => {
            let (layout, data_type, bytes) = match narrow_joints(joints) {
                Some(narrow) => (
                    Layout::of::<[u8; 4]>(),
                    DataType::Uint8,
                    bytemuck::cast_slice(&narrow).to_vec(),
                ),
                None => (
                    Layout::of::<[u16; 4]>(),
                    DataType::Uint16,
                    bytemuck::cast_slice(joints).to_vec(),
                ),
            };
            Attribute {
                semantic,
                layout,
                kind: GeometryAttributeType::Generic,
                data_type,
                bytes,
                bounds: None,
            }
        }
    }
}

/// The quantisation bits of a float attribute of `kind`.
fn quantization_bits(kind: GeometryAttributeType) -> i32 {
    match kind {
        GeometryAttributeType::Position => POSITION_BITS,
        GeometryAttributeType::Normal => NORMAL_BITS,
        GeometryAttributeType::TexCoord => TEXCOORD_BITS,
        GeometryAttributeType::Color => COLOR_BITS,
        _ => GENERIC_BITS,
    }
}

/// The Draco bitstream of `primitive`'s triangles with `attributes` (Draco attribute `i` is
/// `attributes[i]`), and what the encoder did; a refusal, or an encoder that gave up by
/// panicking, is an error in words.
fn encode(primitive: &Primitive, attributes: &[Attribute]) -> Result<(Vec<u8>, EncodedMeshInfo), String> {
    let points = primitive.positions.len();
    let mut mesh = Mesh::new();
    mesh.set_num_points(points);
    mesh.set_num_faces(primitive.indices.len() / 3);
    mesh.set_faces_from_flat_indices(&primitive.indices[..primitive.indices.len() / 3 * 3]);
    let mut options = EncoderOptions::new();
    options.set_encoding_method(EDGEBREAKER);
    options.set_global_int("encoding_speed", SPEED);
    options.set_global_int("decoding_speed", SPEED);
    for attribute in attributes {
        let mut draco = PointAttribute::new();
        let components = attribute.layout.kind.multiplicity() as u8;
        draco.init(attribute.kind, components, attribute.data_type, false, points);
        draco.buffer_mut().write(0, &attribute.bytes);
        let id = mesh.add_attribute(draco);
        if attribute.data_type == DataType::Float32 {
            options.set_attribute_int(id, "quantization_bits", quantization_bits(attribute.kind));
        }
    }
    let encoded = catch_unwind(AssertUnwindSafe(|| {
        let mut encoder = MeshEncoder::new();
        encoder.set_mesh(mesh);
        let mut buffer = EncoderBuffer::new();
        encoder
            .encode_with_info(&options, &mut buffer)
            .map(|info| (buffer.data().to_vec(), info))
    }));
    match encoded {
        Ok(Ok(encoded)) => Ok(encoded),
        Ok(Err(error)) => Err(error.message().to_owned()),
        Err(_) => Err("the encoder gave up".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asset::SkinWeights;

    /// A quad of two triangles, skinned to joints 0 and 300 (joints past a byte).
    fn quad() -> Primitive {
        Primitive {
            topology: Topology::Triangles,
            indices: vec![0, 1, 2, 2, 1, 3],
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)],
            normals: vec![Vec3::Z; 4],
            uvs: vec![Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ONE],
            skin_weights: Some(SkinWeights {
                joints: vec![[0, 300, 0, 0]; 4],
                weights: vec![[0.75, 0.25, 0.0, 0.0]; 4],
                ..SkinWeights::default()
            }),
            ..Primitive::default()
        }
    }

    fn vertices(primitive: &Primitive) -> Vec<(Semantic, Vertices<'_>)> {
        let skin = primitive.skin_weights.as_ref().unwrap();
        vec![
            (Semantic::Positions, Vertices::Positions(&primitive.positions)),
            (Semantic::Normals, Vertices::Normals(&primitive.normals)),
            (Semantic::TexCoords(0), Vertices::TexCoords(&primitive.uvs)),
            (Semantic::Joints(0), Vertices::Joints(&skin.joints)),
            (Semantic::Weights(0), Vertices::Weights(&skin.weights)),
        ]
    }

    #[test]
    fn a_primitive_becomes_one_draco_mesh_its_accessors_without_views() {
        let mut document = Document::new("test".into());
        let primitive = quad();
        let written = write_primitive(&mut document, &primitive, &vertices(&primitive), 0, "quad").unwrap();
        assert_eq!(document.root.extensions_required, [EXTENSION]);
        assert_eq!(document.root.buffer_views.len(), 1, "one view: the Draco data");
        assert_eq!(written.extension["bufferView"], 0);
        let ids = written.extension["attributes"].as_object().unwrap();
        assert_eq!(
            ids.keys().collect::<Vec<_>>(),
            ["JOINTS_0", "NORMAL", "POSITION", "TEXCOORD_0", "WEIGHTS_0"]
        );
        for accessor in &document.root.accessors {
            assert!(accessor.buffer_view.is_none());
        }
        let position = &written.attributes[&Checked::Valid(Semantic::Positions)];
        let position = &document.root.accessors[position.value()];
        assert_eq!(position.count.0, 4);
        assert_eq!(position.max, Some(json::Value::from(vec![1.0f32, 1.0, 0.0])));
        let joints = &written.attributes[&Checked::Valid(Semantic::Joints(0))];
        let joints = &document.root.accessors[joints.value()];
        let unsigned_shorts = json::accessor::ComponentType::U16;
        assert!(
            matches!(joints.component_type, Checked::Valid(c) if c.0 == unsigned_shorts),
            "joints past a byte"
        );
        assert_eq!(document.root.accessors[written.indices.value()].count.0, 6);
        assert!(document.warnings.is_empty());
    }

    #[test]
    fn morph_targets_lines_and_no_triangles_stay_uncompressed_with_a_warning() {
        let mut document = Document::new("test".into());
        let lines = Primitive {
            topology: Topology::Lines,
            indices: vec![0, 1],
            ..quad()
        };
        let empty = Primitive {
            indices: Vec::new(),
            ..quad()
        };
        for (primitive, targets, place) in [(quad(), 1, "a"), (lines, 0, "b"), (empty, 0, "c")] {
            let written = write_primitive(&mut document, &primitive, &vertices(&primitive), targets, place);
            assert!(written.is_none(), "{place}");
        }
        assert_eq!(
            document.warnings,
            [
                "a: left uncompressed: its morph targets follow the vertex order, which Draco changes",
                "b: left uncompressed: Draco compresses triangles only",
                "c: left uncompressed: it has no triangles",
            ]
        );
        assert!(document.root.extensions_used.is_empty());
    }
}
