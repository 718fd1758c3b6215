//! `KHR_draco_mesh_compression` primitives, decoded by `draco-core`, a pure-Rust port of
//! Google's Draco 1.5.7 decoder (every connectivity method, prediction scheme and attribute
//! transform, meshes and point clouds). It was checked byte for byte against Google's own
//! decoder on every Draco file of the real-file corpus (README, "Files from elsewhere").
//!
//! The extension names a buffer view holding a Draco mesh (or point cloud) and, per glTF
//! attribute, the Draco attribute's unique id. The decoded points become the data of the
//! accessors the primitive names, so the mesh loader reads them like any other accessor. Each
//! value is converted to its accessor's component type as Google's decoder converts it for
//! three.js (`GetAttributeDataArrayForAllPoints`, `GeometryAttribute::ConvertValue`): integers
//! range-checked and cast, floats range-checked and truncated, except that a Draco attribute
//! marked normalized maps between integers and floats in `[0, 1]` by its type's maximum. The
//! faces become the index accessor's data.
//!
//! As in three.js, what Draco decodes is what is drawn: when an accessor's `count` differs
//! from the points or indices decoded (exporters have written both), the decoded count is used
//! and a warning says so.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use draco_core::{DataType, DecodeLimits, DecoderBuffer, Mesh as DracoMesh, MeshDecoder, PointAttribute, PointIndex};
use gltf_json::accessor::ComponentType;
use gltf_json::mesh::Primitive;
use gltf_json::validation::Checked;
use serde_json::Value;

use super::{Budget, size_field};
use crate::asset::gltf::container::Container;
use crate::asset::model::DecodedGeometry;

pub const EXTENSION: &str = "KHR_draco_mesh_compression";

/// An accessor the decoded data fills: its index, declared count and element layout.
struct Target {
    accessor: usize,
    count: usize,
    component: ComponentType,
    components: usize,
}

impl Target {
    fn element_size(&self) -> usize {
        self.component.size() * self.components
    }
}

/// What one primitive decoded to.
pub struct DecodedPrimitive {
    pub report: DecodedGeometry,
    /// Accessors whose `count` the decoded data replaces: (accessor, decoded count).
    pub recounted: Vec<(usize, usize)>,
    pub warnings: Vec<String>,
}

/// Decodes `primitive`'s Draco data (`extension` is its extension object; `names`, its
/// attributes as the file writes them) into `accessors`.
pub fn decode_primitive(
    container: &Container,
    primitive: &Primitive,
    names: &[(String, Option<u64>)],
    extension: &Value,
    budget: &mut Budget,
    accessors: &mut HashMap<usize, Vec<u8>>,
) -> Result<DecodedPrimitive, String> {
    let view = size_field(extension, "bufferView", None)?;
    let compressed = container.view(view)?;
    let ids = extension
        .get("attributes")
        .and_then(Value::as_object)
        .ok_or("it has no 'attributes' object")?;
    let mut attributes = Vec::with_capacity(ids.len());
    for (name, id) in ids {
        let id = id
            .as_u64()
            .and_then(|id| u32::try_from(id).ok())
            .ok_or_else(|| format!("attribute {name}'s id is not a whole number ({id})"))?;
        let accessor = names
            .iter()
            .find(|(written, _)| written == name)
            .and_then(|(_, accessor)| usize::try_from((*accessor)?).ok())
            .ok_or_else(|| format!("it names attribute {name}, which the primitive does not have"))?;
        attributes.push((name.as_str(), id, target(container, accessor)?));
    }
    let indices = primitive.indices.map(|i| target(container, i.value())).transpose()?;
    let connectivity_only = attributes.is_empty().then(|| {
        let position = names.iter().find(|(name, _)| name == "POSITION");
        let count = position.and_then(|(_, a)| container.root.accessors.get(usize::try_from((*a)?).ok()?));
        // A count no file of this size could hold is left to fail as the stream says.
        let vertices = count
            .map(|a| a.count.0)
            .filter(|&c| c <= container.input_bytes as u64)?;
        with_points(compressed, vertices as usize)
    });
    let mesh = run_decoder(
        connectivity_only.flatten().as_deref().unwrap_or(compressed),
        budget.left(),
    )?;

    let points = mesh.num_points();
    let index_count = mesh.num_faces() * 3;
    let decoded_bytes: usize = (attributes
        .iter()
        .map(|(_, _, t)| points.saturating_mul(t.element_size())))
    .chain(indices.iter().map(|t| index_count.saturating_mul(t.component.size())))
    .fold(0, usize::saturating_add);
    budget.charge(decoded_bytes)?;

    let mut recounted = Vec::new();
    let mut warnings = Vec::new();
    let mut recount = |target: &Target, decoded: usize, what: &str| {
        if target.count != decoded {
            warnings.push(format!(
                "accessor {} declares {} elements, but Draco decoded {decoded} {what} (the decoded ones are drawn)",
                target.accessor, target.count
            ));
            recounted.push((target.accessor, decoded));
        }
    };
    for (name, id, target) in &attributes {
        let decoded = mesh
            .attribute_by_unique_id(*id)
            .ok_or_else(|| format!("its Draco data has no attribute with id {id} (for {name})"))?;
        let bytes = convert_attribute(decoded, points, target).map_err(|e| format!("attribute {name}: {e}"))?;
        accessors.insert(target.accessor, bytes);
        recount(target, points, "points");
    }
    if let Some(target) = &indices {
        accessors.insert(target.accessor, convert_indices(&mesh, target)?);
        recount(target, index_count, "indices");
    }
    let mut names: Vec<&str> = attributes.iter().map(|(name, _, _)| *name).collect();
    names.sort_unstable();
    Ok(DecodedPrimitive {
        report: DecodedGeometry {
            object: String::new(),
            elements: points,
            indices: indices.is_some().then_some(index_count),
            layout: names.join(", "),
            compressed_bytes: compressed.len(),
            decoded_bytes,
        },
        recounted,
        warnings,
    })
}

/// Accessor `index`'s layout, which the decoded data must fill.
fn target(container: &Container, index: usize) -> Result<Target, String> {
    let accessor = container
        .root
        .accessors
        .get(index)
        .ok_or_else(|| format!("accessor {index} does not exist"))?;
    let (Checked::Valid(component), Checked::Valid(kind)) = (accessor.component_type, accessor.type_) else {
        return Err(format!("accessor {index} has an unknown type or component type"));
    };
    Ok(Target {
        accessor: index,
        count: usize::try_from(accessor.count.0).map_err(|_| format!("accessor {index}'s count is absurd"))?,
        component: component.0,
        components: kind.multiplicity(),
    })
}

/// Decodes a Draco mesh or point cloud whose attribute values may take up to `max_bytes`; a
/// decoder that gives up on corrupt data by panicking is an error too.
fn run_decoder(compressed: &[u8], max_bytes: usize) -> Result<DracoMesh, String> {
    let limits = DecodeLimits::default().with_max_decoded_bytes(max_bytes as u64);
    let decoded = catch_unwind(AssertUnwindSafe(|| {
        let mut buffer = DecoderBuffer::new(compressed).with_limits(limits);
        let mut mesh = DracoMesh::new();
        MeshDecoder::new().decode(&mut buffer, &mut mesh).map(|()| mesh)
    }));
    match decoded {
        Ok(Ok(mesh)) => Ok(mesh),
        Ok(Err(e)) => Err(format!(
            "its {} bytes of Draco data cannot be decoded ({})",
            compressed.len(),
            e.message()
        )),
        Err(_) => Err(format!(
            "its {} bytes of Draco data are corrupt (the decoder gave up)",
            compressed.len()
        )),
    }
}

/// A Draco mesh of connectivity only (no attributes, no points) whose indices name the
/// vertices of the primitive's uncompressed attributes, as gltf-transform writes for a
/// primitive whose attributes it leaves uncompressed (sparse ones): Google's decoder reads its
/// indices as they are, `draco-core` refuses indices past the mesh's points. This is the same
/// stream declaring the primitive's `vertices` as its points, for a sequential mesh of
/// bitstream 2.2 whose declared point count is 0; none for any other stream, or when the new
/// count would change how raw indices are read (their width follows the point count).
fn with_points(compressed: &[u8], vertices: usize) -> Option<Vec<u8>> {
    // "DRACO", version 2.2, a mesh, sequential, no flags (no metadata).
    let header = compressed.get(..11)?;
    if header != b"DRACO\x02\x02\x01\x00\x00\x00" {
        return None;
    }
    let faces_end = 11 + varint_length(&compressed[11..])?;
    // A declared point count of 0 is one byte, followed by the connectivity method.
    let (&0, &method) = (compressed.get(faces_end)?, compressed.get(faces_end + 1)?) else {
        return None;
    };
    const RAW: u8 = 1;
    if method == RAW && vertices >= 256 {
        return None;
    }
    let mut patched = compressed[..faces_end].to_vec();
    let mut rest = vertices as u64;
    loop {
        let byte = (rest & 0x7f) as u8;
        rest >>= 7;
        patched.push(if rest == 0 { byte } else { byte | 0x80 });
        if rest == 0 {
            break;
        }
    }
    patched.extend_from_slice(&compressed[faces_end + 1..]);
    Some(patched)
}

/// The length of the LEB128 varint `bytes` starts with (at most 10 bytes).
fn varint_length(bytes: &[u8]) -> Option<usize> {
    bytes.iter().take(10).position(|b| b & 0x80 == 0).map(|last| last + 1)
}

/// One decoded attribute, point by point, in `target`'s component type.
fn convert_attribute(decoded: &PointAttribute, points: usize, target: &Target) -> Result<Vec<u8>, String> {
    let components = usize::from(decoded.num_components());
    if components != target.components {
        return Err(format!(
            "Draco decoded {components} components per value, where accessor {} has {}",
            target.accessor, target.components
        ));
    }
    let source = decoded.data_type();
    let width = source.byte_length();
    if width == 0 || source == DataType::Bool {
        return Err(format!("Draco decoded it as {source:?}, which glTF cannot hold"));
    }
    // Decoded values are packed from the buffer's start, `stride` bytes apart.
    let stride = usize::try_from(decoded.byte_stride()).map_err(|_| "its decoded layout is corrupt")?;
    let values = decoded.buffer().data();
    let normalized = decoded.normalized();
    let mut out = Vec::with_capacity(points * target.element_size());
    for point in 0..points {
        let value = decoded.mapped_index(PointIndex(point as u32)).0 as usize;
        let start = value.saturating_mul(stride);
        let bytes = values
            .get(start..start.saturating_add(width * components))
            .ok_or("a point refers to a value Draco did not decode")?;
        for component in bytes.chunks_exact(width) {
            let number = read_component(component, source);
            write_component(number, normalized, target.component, &mut out).ok_or_else(|| {
                format!(
                    "value {} does not fit accessor {}'s {:?} components",
                    number.describe(),
                    target.accessor,
                    target.component
                )
            })?;
        }
    }
    Ok(out)
}

/// A component of Draco's output, in the width and signedness it was decoded in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Number {
    /// A signed integer and its type's maximum.
    Signed(i64, i64),
    /// An unsigned integer and its type's maximum.
    Unsigned(u64, u64),
    /// A float (32-bit values widened exactly).
    Float(f64),
}

impl Number {
    fn describe(self) -> String {
        match self {
            Self::Signed(v, _) => v.to_string(),
            Self::Unsigned(v, _) => v.to_string(),
            Self::Float(v) => v.to_string(),
        }
    }
}

fn read_component(bytes: &[u8], kind: DataType) -> Number {
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    let signed = i64::from_le_bytes(word);
    let unsigned = u64::from_le_bytes(word);
    match kind {
        DataType::Int8 => Number::Signed(signed as i8 as i64, i8::MAX as i64),
        DataType::Int16 => Number::Signed(signed as i16 as i64, i16::MAX as i64),
        DataType::Int32 => Number::Signed(signed as i32 as i64, i32::MAX as i64),
        DataType::Int64 => Number::Signed(signed, i64::MAX),
        DataType::Uint8 => Number::Unsigned(unsigned, u8::MAX as u64),
        DataType::Uint16 => Number::Unsigned(unsigned, u16::MAX as u64),
        DataType::Uint32 => Number::Unsigned(unsigned, u32::MAX as u64),
        DataType::Uint64 => Number::Unsigned(unsigned, u64::MAX),
        DataType::Float32 => Number::Float(f32::from_le_bytes([word[0], word[1], word[2], word[3]]) as f64),
        _ => Number::Float(f64::from_le_bytes(word)),
    }
}

/// Appends `number` in component type `out`, converted as Draco's `ConvertComponentValue`
/// does; none when Draco refuses the conversion (the value does not fit).
fn write_component(number: Number, normalized: bool, out: ComponentType, bytes: &mut Vec<u8>) -> Option<()> {
    let (low, high): (i64, i64) = match out {
        ComponentType::F32 => {
            let value = match number {
                // Integers widen, or with `normalized` become fractions of their maximum
                // (divided in 32-bit floats, as Draco does).
                Number::Signed(v, max) if normalized => v as f32 / max as f32,
                Number::Unsigned(v, max) if normalized => v as f32 / max as f32,
                Number::Signed(v, _) => v as f32,
                Number::Unsigned(v, _) => v as f32,
                Number::Float(v) => v as f32,
            };
            bytes.extend_from_slice(&value.to_le_bytes());
            return Some(());
        }
        ComponentType::I8 => (i8::MIN.into(), i8::MAX.into()),
        ComponentType::U8 => (0, u8::MAX.into()),
        ComponentType::I16 => (i16::MIN.into(), i16::MAX.into()),
        ComponentType::U16 => (0, u16::MAX.into()),
        ComponentType::U32 => (0, u32::MAX.into()),
    };
    let integer = match number {
        Number::Signed(v, _) => (low..=high).contains(&v).then_some(v)?,
        Number::Unsigned(v, _) => (v <= high as u64).then_some(v as i64)?,
        Number::Float(v) => {
            // Draco: finite, at least the type's minimum and below its maximum; then a
            // normalized value must lie in [0, 1] and is scaled and rounded.
            if !v.is_finite() || v < low as f64 || v >= high as f64 {
                return None;
            }
            if normalized {
                if !(0.0..=1.0).contains(&v) {
                    return None;
                }
                (v * high as f64 + 0.5).floor() as i64
            } else {
                v as i64
            }
        }
    };
    bytes.extend_from_slice(&integer.to_le_bytes()[..out.size()]);
    Some(())
}

/// The decoded faces as `target`'s indices.
fn convert_indices(mesh: &DracoMesh, target: &Target) -> Result<Vec<u8>, String> {
    if target.components != 1 {
        return Err(format!("index accessor {} is not made of scalars", target.accessor));
    }
    let points = mesh.num_points();
    let mut out = Vec::with_capacity(mesh.num_faces() * 3 * target.component.size());
    for corner in mesh.faces().iter().flatten() {
        let point = corner.0;
        if point as usize >= points {
            return Err(format!("Draco decoded index {point} for {points} vertices"));
        }
        write_component(
            Number::Unsigned(point.into(), u32::MAX.into()),
            false,
            target.component,
            &mut out,
        )
        .ok_or_else(|| {
            format!(
                "index {point} does not fit index accessor {}'s {:?} components",
                target.accessor, target.component
            )
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(number: Number, normalized: bool, out: ComponentType) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        write_component(number, normalized, out, &mut bytes)?;
        Some(bytes)
    }

    #[test]
    fn values_convert_as_dracos_convert_value() {
        use ComponentType::*;
        // Integers widen to floats, or become fractions of their type's maximum.
        assert_eq!(
            written(Number::Unsigned(255, 255), true, F32),
            Some(1f32.to_le_bytes().to_vec())
        );
        assert_eq!(
            written(Number::Signed(-2, 127), false, F32),
            Some((-2f32).to_le_bytes().to_vec())
        );
        // Normalised floats scale and round into integers; others truncate.
        assert_eq!(written(Number::Float(0.5), true, U8), Some(vec![128]));
        assert_eq!(written(Number::Float(2.9), false, U16), Some(vec![2, 0]));
        assert_eq!(written(Number::Unsigned(300, 65535), false, U16), Some(vec![44, 1]));
        assert_eq!(written(Number::Signed(-2, 127), false, I8), Some(vec![254]));
    }

    #[test]
    fn values_draco_would_refuse_are_refused() {
        use ComponentType::*;
        assert_eq!(written(Number::Unsigned(256, 65535), false, U8), None);
        assert_eq!(written(Number::Signed(-1, 127), false, U32), None);
        // A float must lie below the integer type's maximum, and in [0, 1] when normalised.
        assert_eq!(written(Number::Float(255.0), false, U8), None);
        assert_eq!(written(Number::Float(1.5), true, U16), None);
        assert_eq!(written(Number::Float(f64::NAN), false, U16), None);
    }

    /// Google's decoder against ours, byte for byte, on every Draco primitive of the files that
    /// `$RIGSCOPE_DRACO_REFERENCE` holds dumps of: one folder per file, written by
    /// `tools/draco-reference/draco-dump.js` (Google's draco3dgltf 1.5.7, as three.js calls it).
    #[test]
    #[ignore = "needs reference dumps: see tools/draco-reference/README.md"]
    fn every_primitive_decodes_byte_for_byte_as_googles_decoder_does() {
        let folder = std::env::var_os("RIGSCOPE_DRACO_REFERENCE").expect("set RIGSCOPE_DRACO_REFERENCE");
        let mut dumps: Vec<_> = (std::fs::read_dir(folder).unwrap())
            .map(|entry| entry.unwrap().path().join("index.json"))
            .filter(|index| index.is_file())
            .collect();
        dumps.sort();
        let (mut same, mut refused, mut different) = (0, 0, Vec::new());
        for dump in &dumps {
            let index: Value = serde_json::from_slice(&std::fs::read(dump).unwrap()).unwrap();
            let source = std::path::PathBuf::from(index["source_path"].as_str().unwrap());
            let bytes = std::fs::read(&source).unwrap();
            let container = crate::asset::gltf::container::open(&source, &bytes).unwrap();
            for reference in index["primitives"].as_array().unwrap() {
                let (m, p) = (
                    reference["mesh"].as_u64().unwrap(),
                    reference["primitive"].as_u64().unwrap(),
                );
                let at = format!("{} mesh {m} primitive {p}", source.display());
                let primitive = &container.root.meshes[m as usize].primitives[p as usize];
                let extension = &primitive.extensions.as_ref().unwrap().others[EXTENSION];
                let names = &container.attribute_names[m as usize][p as usize];
                let mut accessors = HashMap::new();
                let mut budget = Budget::new(usize::MAX >> 8);
                let ours = decode_primitive(&container, primitive, names, extension, &mut budget, &mut accessors);
                match (ours, reference["error"].as_str()) {
                    (Err(_), Some(_)) => refused += 1,
                    (Err(ours), None) => different.push(format!("{at}: we refuse it ({ours}), Google does not")),
                    (Ok(_), Some(theirs)) => different.push(format!("{at}: Google refuses it ({theirs}), we do not")),
                    (Ok(_), None) => {
                        let folder = dump.parent().unwrap();
                        let records = reference["attributes"].as_array().unwrap().iter();
                        let records = records.chain(reference["index"].as_object().map(|_| &reference["index"]));
                        let mismatch = records.filter(|r| r["file"].is_string()).find_map(|record| {
                            let accessor = record["accessor"].as_u64().unwrap() as usize;
                            let theirs = std::fs::read(folder.join(record["file"].as_str().unwrap())).unwrap();
                            let ours = accessors.get(&accessor).map_or(&[][..], Vec::as_slice);
                            (ours != theirs.as_slice()).then(|| {
                                let first = ours.iter().zip(&theirs).position(|(a, b)| a != b);
                                format!(
                                    "{at}: accessor {accessor} differs ({} bytes against {}, first at {first:?})",
                                    ours.len(),
                                    theirs.len()
                                )
                            })
                        });
                        match mismatch {
                            Some(mismatch) => different.push(mismatch),
                            None => same += 1,
                        }
                    }
                }
            }
        }
        println!(
            "{} files: {same} primitives decode to the same bytes, {refused} refused by both, {} differ",
            dumps.len(),
            different.len()
        );
        assert!(different.is_empty(), "{different:#?}");
        assert!(same > 0, "no primitive was compared");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [&b""[..], b"DRACO", b"DRACO\x02\x02\x01\x01\x00\x00\xff\xff\xff\xff\x0f"] {
            assert!(run_decoder(bytes, 1 << 20).is_err());
        }
    }
}
