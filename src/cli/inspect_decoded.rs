//! What `inspect` says about geometry a file stored compressed (Draco, meshopt): what each
//! compressed object decoded to, and the bytes before and after.

use std::io::Write;

use serde::Serialize;

use crate::asset::DecodedGeometry;

#[derive(Serialize)]
pub struct DecodedReport {
    /// The buffer view or primitive decoded, and the extension, e.g.
    /// "/meshes/0/primitives/0 (KHR_draco_mesh_compression)".
    object: String,
    /// A meshopt view's elements, a Draco primitive's vertices.
    elements: usize,
    /// A Draco primitive's indices.
    indices: Option<usize>,
    /// meshopt: element size, mode and filter; Draco: its attributes.
    layout: String,
    compressed_bytes: usize,
    decoded_bytes: usize,
}

impl From<&DecodedGeometry> for DecodedReport {
    fn from(decoded: &DecodedGeometry) -> Self {
        Self {
            object: decoded.object.clone(),
            elements: decoded.elements,
            indices: decoded.indices,
            layout: decoded.layout.clone(),
            compressed_bytes: decoded.compressed_bytes,
            decoded_bytes: decoded.decoded_bytes,
        }
    }
}

/// One line per decoded object, then the totals.
pub fn write_text(decoded: &[DecodedReport], out: &mut dyn Write) -> std::io::Result<()> {
    for d in decoded {
        let counts = match d.indices {
            Some(indices) => format!("{} vertices, {indices} indices", d.elements),
            None => format!("{} elements", d.elements),
        };
        writeln!(
            out,
            "  decoded {}: {counts} ({}), {} → {} bytes",
            d.object, d.layout, d.compressed_bytes, d.decoded_bytes
        )?;
    }
    if decoded.len() > 1 {
        let before: usize = decoded.iter().map(|d| d.compressed_bytes).sum();
        let after: usize = decoded.iter().map(|d| d.decoded_bytes).sum();
        writeln!(
            out,
            "  decoded {} compressed objects in all: {before} → {after} bytes",
            decoded.len()
        )?;
    }
    Ok(())
}
