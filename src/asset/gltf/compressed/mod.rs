//! Geometry stored compressed: buffer views under `EXT_meshopt_compression` or
//! `KHR_meshopt_compression` (decoded into the bytes the view declares), and primitives under
//! `KHR_draco_mesh_compression` (decoded into the bytes of the accessors the primitive names).
//!
//! Everything is decoded once, before any accessor is read, so the accessor reader sees plain
//! bytes either way. Decoded sizes come from the file and may be many times the compressed
//! size, so each one is checked against a budget of `DECODE_FACTOR` times the input plus a
//! fixed allowance before anything is allocated or handed to a decoder.

mod draco;
pub(crate) mod meshopt;

use std::collections::HashMap;

use serde_json::Value;

use super::container::Container;
use crate::asset::LoadErrorKind;
use crate::asset::model::DecodedGeometry;

/// Decoded data may be this many times the bytes read for the model (meshopt packs constant
/// or smooth streams far tighter than 16:1), plus `DECODE_ALLOWANCE` for small files.
const DECODE_FACTOR: usize = 32;
const DECODE_ALLOWANCE: usize = 1 << 20;

/// What decoding produced: bytes that stand in for buffer views and accessors, and what was
/// decoded, for `inspect`.
#[derive(Default)]
pub struct Decoded {
    /// Per buffer view, its decoded bytes (none: read it from its buffer as usual).
    pub views: Vec<Option<Vec<u8>>>,
    /// Per accessor a Draco primitive supplies, its elements tightly packed in the accessor's
    /// own component type.
    pub accessors: HashMap<usize, Vec<u8>>,
    /// Accessors whose `count` differs from what Draco decoded: (accessor, decoded count).
    pub recounted: Vec<(usize, usize)>,
    pub report: Vec<DecodedGeometry>,
    pub warnings: Vec<String>,
}

/// The decoded bytes still allowed.
pub(super) struct Budget {
    total: usize,
    left: usize,
}

impl Budget {
    fn new(input_bytes: usize) -> Self {
        let total = input_bytes
            .saturating_mul(DECODE_FACTOR)
            .saturating_add(DECODE_ALLOWANCE);
        Self { total, left: total }
    }

    /// The bytes still allowed.
    pub(super) fn left(&self) -> usize {
        self.left
    }

    /// Takes `bytes` from the budget, or says why the file may not decode that much.
    pub(super) fn charge(&mut self, bytes: usize) -> Result<(), String> {
        if bytes > self.left {
            return Err(format!(
                "it would decode to {bytes} bytes, past the {} MiB this file may decode to in all",
                self.total >> 20
            ));
        }
        self.left -= bytes;
        Ok(())
    }
}

/// Decodes every compressed buffer view and primitive of `container`.
pub fn decode(container: &Container) -> Result<Decoded, LoadErrorKind> {
    let mut budget = Budget::new(container.input_bytes);
    let mut decoded = Decoded {
        views: vec![None; container.root.buffer_views.len()],
        ..Decoded::default()
    };
    for (index, view) in container.root.buffer_views.iter().enumerate() {
        let Some((name, extension)) = meshopt_extension(&view.extensions) else {
            continue;
        };
        let object = format!("/bufferViews/{index} ({name})");
        let optional = !container.root.extensions_required.iter().any(|e| e == name);
        // An optional extension's view whose own buffer has data is read from there.
        if optional && container.view(index).is_ok() {
            continue;
        }
        let (bytes, report) = meshopt::decode_view(container, index, name, extension, &mut budget)
            .map_err(|problem| LoadErrorKind::invalid(&object, problem))?;
        decoded.report.push(DecodedGeometry { object, ..report });
        decoded.views[index] = Some(bytes);
    }
    for (mesh_index, mesh) in container.root.meshes.iter().enumerate() {
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            let Some(extension) = draco_extension(&primitive.extensions) else {
                continue;
            };
            let object = format!(
                "/meshes/{mesh_index}/primitives/{primitive_index} ({})",
                draco::EXTENSION
            );
            let names = (container.attribute_names.get(mesh_index))
                .and_then(|m| m.get(primitive_index))
                .map_or(&[][..], Vec::as_slice);
            let primitive = draco::decode_primitive(
                container,
                primitive,
                names,
                extension,
                &mut budget,
                &mut decoded.accessors,
            )
            .map_err(|problem| LoadErrorKind::invalid(&object, problem))?;
            decoded.recounted.extend(primitive.recounted);
            let warnings = primitive.warnings.iter().map(|w| format!("{object}: {w}"));
            decoded.warnings.extend(warnings);
            decoded.report.push(DecodedGeometry {
                object,
                ..primitive.report
            });
        }
    }
    Ok(decoded)
}

/// The meshopt extension a buffer view carries, and its name.
fn meshopt_extension(extensions: &Option<gltf_json::extensions::buffer::View>) -> Option<(&'static str, &Value)> {
    let others = &extensions.as_ref()?.others;
    meshopt::EXTENSIONS
        .iter()
        .find_map(|&name| Some((name, others.get(name)?)))
}

fn draco_extension(extensions: &Option<gltf_json::extensions::mesh::Primitive>) -> Option<&Value> {
    extensions.as_ref()?.others.get(draco::EXTENSION)
}

/// Field `name` of extension object `json` as a count or byte size (absent: `default`).
fn size_field(json: &Value, name: &str, default: Option<usize>) -> Result<usize, String> {
    match json.get(name) {
        None => default.ok_or_else(|| format!("it has no '{name}'")),
        Some(value) => value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| format!("its '{name}' is not a whole number ({value})")),
    }
}
