//! `KHR_draco_mesh_compression` primitives, decoded by `draco-oxide-decoder` (a Rust port of
//! Google's Draco decoder).
//!
//! The extension names a buffer view holding a Draco mesh and, per glTF attribute, the Draco
//! attribute's unique id. The decoded points become the data of the accessors the primitive
//! names (so the mesh loader reads them like any other accessor): each value converted to the
//! accessor's declared component type, the faces to its index accessor. The accessors keep
//! only their count, type, component type, `normalized` and min/max from the JSON, and the
//! decoded point and index counts must match those counts.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use draco_oxide_core::attribute::{Attribute, ComponentDataType};
use draco_oxide_core::mesh::Mesh as DracoMesh;
use gltf_json::accessor::ComponentType;
use gltf_json::mesh::Primitive;
use gltf_json::validation::Checked;
use serde_json::Value;

use super::{Budget, size_field};
use crate::asset::gltf::container::Container;
use crate::asset::model::DecodedGeometry;

pub const EXTENSION: &str = "KHR_draco_mesh_compression";

/// An accessor the decoded data fills: its index, count and element layout.
struct Target {
    accessor: usize,
    count: usize,
    component: ComponentType,
    components: usize,
    normalized: bool,
}

impl Target {
    fn element_size(&self) -> usize {
        self.component.size() * self.components
    }
}

/// Decodes `primitive`'s Draco mesh (`extension` is its extension object; `names`, its
/// attributes as the file writes them) into `accessors`.
pub fn decode_primitive(
    container: &Container,
    primitive: &Primitive,
    names: &[(String, Option<u64>)],
    extension: &Value,
    budget: &mut Budget,
    accessors: &mut HashMap<usize, Vec<u8>>,
) -> Result<DecodedGeometry, String> {
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
            .ok_or_else(|| format!("attribute {name}'s id is not a whole number ({id})"))?;
        let accessor = names
            .iter()
            .find(|(written, _)| written == name)
            .and_then(|(_, accessor)| usize::try_from((*accessor)?).ok())
            .ok_or_else(|| format!("it names attribute {name}, which the primitive does not have"))?;
        attributes.push((name.as_str(), id, target(container, accessor)?));
    }
    let indices = primitive.indices.map(|i| target(container, i.value())).transpose()?;
    // The declared sizes are charged before the decoder allocates anything for them.
    let decoded_bytes: usize = (attributes.iter().map(|(_, _, t)| t))
        .chain(&indices)
        .map(|t| t.count.saturating_mul(t.element_size()))
        .fold(0, usize::saturating_add);
    budget.charge(decoded_bytes)?;
    let mesh = run_decoder(compressed)?;

    let points = attributes.first().map_or(0, |(_, _, t)| t.count);
    for (name, id, target) in &attributes {
        let decoded = mesh
            .get_attributes()
            .iter()
            .find(|a| a.get_id().as_usize() as u64 == *id)
            .ok_or_else(|| format!("its Draco data has no attribute with id {id} (for {name})"))?;
        let bytes = convert_attribute(decoded, target).map_err(|e| format!("attribute {name}: {e}"))?;
        accessors.insert(target.accessor, bytes);
    }
    let index_count = mesh.get_faces().len() * 3;
    if let Some(target) = &indices {
        accessors.insert(target.accessor, convert_indices(&mesh, target, points)?);
    }
    let mut names: Vec<&str> = attributes.iter().map(|(name, _, _)| *name).collect();
    names.sort_unstable();
    Ok(DecodedGeometry {
        object: String::new(),
        elements: points,
        indices: indices.is_some().then_some(index_count),
        layout: names.join(", "),
        compressed_bytes: compressed.len(),
        decoded_bytes,
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
        normalized: accessor.normalized,
    })
}

/// Decodes a Draco mesh; a decoder that gives up on corrupt data by panicking is an error too.
fn run_decoder(compressed: &[u8]) -> Result<DracoMesh, String> {
    let decoded = catch_unwind(AssertUnwindSafe(|| draco_oxide_decoder::decode_mesh(compressed)));
    match decoded {
        Ok(Ok(mesh)) => Ok(mesh),
        Ok(Err(e)) => Err(format!(
            "its {} bytes of Draco data cannot be decoded ({e})",
            compressed.len()
        )),
        Err(_) => Err(format!(
            "its {} bytes of Draco data are corrupt (the decoder gave up)",
            compressed.len()
        )),
    }
}

/// One decoded attribute, point by point, in `target`'s component type.
fn convert_attribute(decoded: &Attribute, target: &Target) -> Result<Vec<u8>, String> {
    if decoded.len() != target.count {
        return Err(format!(
            "Draco decoded {} values, where accessor {} declares {}",
            decoded.len(),
            target.accessor,
            target.count
        ));
    }
    if decoded.get_num_components() != target.components {
        return Err(format!(
            "Draco decoded {} components per value, where accessor {} has {}",
            decoded.get_num_components(),
            target.accessor,
            target.components
        ));
    }
    let source = decoded.get_component_type();
    let source_size = source.size();
    if source_size == 0 || source_size > 4 {
        return Err(format!("Draco decoded it as {source:?}, which glTF cannot hold"));
    }
    let values = decoded.get_data_as_bytes();
    let value_size = source_size * target.components;
    let map = decoded.point_map_as_slice();
    let mut out = Vec::with_capacity(target.count * target.element_size());
    for point in 0..target.count {
        let value = map.map_or(point, |m| usize::from(m[point]));
        let bytes = values
            .get(value * value_size..(value + 1) * value_size)
            .ok_or("a point refers to a value Draco did not decode")?;
        for component in bytes.chunks_exact(source_size) {
            let number = read_component(component, source);
            write_component(number, source.is_float(), target, &mut out)?;
        }
    }
    Ok(out)
}

/// A component of Draco's output as a number.
fn read_component(bytes: &[u8], kind: ComponentDataType) -> f64 {
    let mut word = [0u8; 4];
    word[..bytes.len()].copy_from_slice(bytes);
    match kind {
        ComponentDataType::F32 => f32::from_le_bytes(word) as f64,
        ComponentDataType::I8 => bytes[0] as i8 as f64,
        ComponentDataType::I16 => i16::from_le_bytes([word[0], word[1]]) as f64,
        ComponentDataType::I32 => i32::from_le_bytes(word) as f64,
        _ => u32::from_le_bytes(word) as f64,
    }
}

/// Appends `number` in `target`'s component type. A float (`from_float`) for a normalised
/// integer accessor is scaled to its range; any other value must fit the type as it is.
fn write_component(number: f64, from_float: bool, target: &Target, out: &mut Vec<u8>) -> Result<(), String> {
    let (low, high) = match target.component {
        ComponentType::F32 => {
            out.extend_from_slice(&(number as f32).to_le_bytes());
            return Ok(());
        }
        ComponentType::I8 => (i8::MIN as f64, i8::MAX as f64),
        ComponentType::U8 => (0.0, u8::MAX as f64),
        ComponentType::I16 => (i16::MIN as f64, i16::MAX as f64),
        ComponentType::U16 => (0.0, u16::MAX as f64),
        ComponentType::U32 => (0.0, u32::MAX as f64),
    };
    let scaled = if target.normalized && from_float {
        (number * high).round()
    } else {
        number
    };
    if !(low..=high).contains(&scaled) || scaled.fract() != 0.0 {
        return Err(format!(
            "value {number} does not fit accessor {}'s {:?} components",
            target.accessor, target.component
        ));
    }
    let bytes = (scaled as i64).to_le_bytes();
    out.extend_from_slice(&bytes[..target.component.size()]);
    Ok(())
}

/// The decoded faces as `target`'s indices; each must name one of the `points` vertices.
fn convert_indices(mesh: &DracoMesh, target: &Target, points: usize) -> Result<Vec<u8>, String> {
    let faces = mesh.get_faces();
    if faces.len() * 3 != target.count || target.components != 1 {
        return Err(format!(
            "Draco decoded {} triangles, where index accessor {} declares {} indices",
            faces.len(),
            target.accessor,
            target.count
        ));
    }
    let mut out = Vec::with_capacity(target.count * target.element_size());
    for &corner in faces.iter().flatten() {
        let point = usize::from(corner);
        if point >= points {
            return Err(format!("Draco decoded index {point} for {points} vertices"));
        }
        write_component(point as f64, false, target, &mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(component: ComponentType, normalized: bool) -> Target {
        Target {
            accessor: 4,
            count: 1,
            component,
            components: 1,
            normalized,
        }
    }

    #[test]
    fn values_are_written_in_the_accessors_component_type() {
        let mut out = Vec::new();
        write_component(0.5, true, &target(ComponentType::F32, false), &mut out).unwrap();
        write_component(1.0, true, &target(ComponentType::U8, true), &mut out).unwrap();
        write_component(300.0, false, &target(ComponentType::U16, false), &mut out).unwrap();
        write_component(-2.0, false, &target(ComponentType::I8, false), &mut out).unwrap();
        assert_eq!(out, [0, 0, 0, 0x3f, 255, 44, 1, 254]);
    }

    #[test]
    fn values_that_do_not_fit_are_errors() {
        let mut out = Vec::new();
        let error = write_component(256.0, false, &target(ComponentType::U8, false), &mut out).unwrap_err();
        assert!(error.contains("does not fit accessor 4's U8 components"), "{error}");
        assert!(write_component(-1.0, false, &target(ComponentType::U32, false), &mut out).is_err());
        assert!(write_component(0.5, true, &target(ComponentType::U16, false), &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [&b""[..], b"DRACO", b"DRACO\x02\x02\x01\x01\x00\x00\xff\xff\xff\xff\x0f"] {
            assert!(run_decoder(bytes).is_err());
        }
    }
}
