//! `EXT_meshopt_compression` and `KHR_meshopt_compression` buffer views, decoded by
//! meshoptimizer's own decoders (the `meshopt` crate builds them from C++).
//!
//! Both extensions share the JSON (`buffer`, `byteOffset`, `byteLength`, `byteStride`, `count`,
//! `mode`, `filter`); KHR's bitstream adds vertex codec version 1 (the decoder reads the
//! version from the stream's header) and the COLOR filter. The C++ decoders assert on layouts
//! the specification forbids, so every stride, count and filter is checked here first, and
//! they are only ever given lengths that lie inside the file.

use serde_json::Value;

use super::{Budget, size_field};
use crate::asset::gltf::container::Container;
use crate::asset::model::DecodedGeometry;

pub(super) const EXTENSIONS: [&str; 2] = ["EXT_meshopt_compression", "KHR_meshopt_compression"];

/// How the view's data was encoded (the writer encodes with the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Attributes,
    Triangles,
    Indices,
}

impl Mode {
    /// The extension's name for it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mode::Attributes => "ATTRIBUTES",
            Mode::Triangles => "TRIANGLES",
            Mode::Indices => "INDICES",
        }
    }
}

/// The transform applied to ATTRIBUTES data after decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    None,
    Octahedral,
    Quaternion,
    Exponential,
    Color,
}

impl Filter {
    fn name(self) -> &'static str {
        match self {
            Filter::None => "NONE",
            Filter::Octahedral => "OCTAHEDRAL",
            Filter::Quaternion => "QUATERNION",
            Filter::Exponential => "EXPONENTIAL",
            Filter::Color => "COLOR",
        }
    }
}

/// A view's extension object, read and checked.
#[derive(Debug)]
struct Encoded<'a> {
    data: &'a [u8],
    stride: usize,
    count: usize,
    mode: Mode,
    filter: Filter,
}

/// Decodes buffer view `index` from its `extension` object (of extension `name`), into the
/// bytes the view declares.
pub(super) fn decode_view(
    container: &Container,
    index: usize,
    name: &str,
    extension: &Value,
    budget: &mut Budget,
) -> Result<(Vec<u8>, DecodedGeometry), String> {
    let encoded = read_extension(container, name, extension)?;
    let decoded_size = encoded
        .count
        .checked_mul(encoded.stride)
        .ok_or("its count and byteStride are absurd")?;
    let declared = container.root.buffer_views.get(index).map_or(0, |v| v.byte_length.0);
    if decoded_size as u64 != declared {
        return Err(format!(
            "it decodes to {} × {} = {decoded_size} bytes, but the buffer view declares {declared}",
            encoded.count, encoded.stride
        ));
    }
    budget.charge(decoded_size)?;
    let bytes = run_decoder(&encoded)?;
    let report = DecodedGeometry {
        object: String::new(),
        elements: encoded.count,
        indices: None,
        layout: format!(
            "{}-byte elements, {}, filter {}",
            encoded.stride,
            encoded.mode.name(),
            encoded.filter.name()
        ),
        compressed_bytes: encoded.data.len(),
        decoded_bytes: decoded_size,
    };
    Ok((bytes, report))
}

/// Reads and checks the extension object: its source bytes lie in a buffer with data, and its
/// mode, filter, stride and count are a combination the specification allows.
fn read_extension<'a>(container: &'a Container, name: &str, json: &Value) -> Result<Encoded<'a>, String> {
    let buffer_index = size_field(json, "buffer", None)?;
    let buffer = match container.buffers.get(buffer_index) {
        Some(Ok(buffer)) => buffer,
        Some(Err(_)) => return Err(format!("its source, buffer {buffer_index}, has no data")),
        None => return Err(format!("its source, buffer {buffer_index}, does not exist")),
    };
    let offset = size_field(json, "byteOffset", Some(0))?;
    let length = size_field(json, "byteLength", None)?;
    let data = offset
        .checked_add(length)
        .and_then(|end| buffer.get(offset..end))
        .ok_or_else(|| {
            format!(
                "its {length} bytes at offset {offset} reach past the end of buffer {buffer_index} ({} bytes)",
                buffer.len()
            )
        })?;
    let stride = size_field(json, "byteStride", None)?;
    let count = size_field(json, "count", None)?;
    let mode = match json.get("mode").and_then(Value::as_str) {
        Some("ATTRIBUTES") => Mode::Attributes,
        Some("TRIANGLES") => Mode::Triangles,
        Some("INDICES") => Mode::Indices,
        Some(other) => return Err(format!("its mode '{other}' is not ATTRIBUTES, TRIANGLES or INDICES")),
        None => return Err("it has no 'mode' (ATTRIBUTES, TRIANGLES or INDICES)".into()),
    };
    let filter = match json.get("filter").map(|f| f.as_str()) {
        None | Some(Some("NONE")) => Filter::None,
        Some(Some("OCTAHEDRAL")) => Filter::Octahedral,
        Some(Some("QUATERNION")) => Filter::Quaternion,
        Some(Some("EXPONENTIAL")) => Filter::Exponential,
        Some(Some("COLOR")) if name == "KHR_meshopt_compression" => Filter::Color,
        Some(_) => return Err(format!("its filter {} is not one {name} defines", json["filter"])),
    };
    let encoded = Encoded {
        data,
        stride,
        count,
        mode,
        filter,
    };
    check_layout(&encoded)?;
    Ok(encoded)
}

/// The combinations of mode, filter, stride and count the specification allows (and the
/// decoders assume).
fn check_layout(encoded: &Encoded) -> Result<(), String> {
    let Encoded {
        stride,
        count,
        mode,
        filter,
        ..
    } = *encoded;
    match mode {
        Mode::Attributes if stride == 0 || stride > 256 || !stride.is_multiple_of(4) => Err(format!(
            "its byteStride {stride} is not a multiple of 4 from 4 to 256, as ATTRIBUTES needs"
        )),
        Mode::Triangles | Mode::Indices if stride != 2 && stride != 4 => Err(format!(
            "its byteStride {stride} is not 2 or 4, as {} indices need",
            mode.name()
        )),
        Mode::Triangles if !count.is_multiple_of(3) => {
            Err(format!("its count {count} is not a whole number of triangles"))
        }
        Mode::Triangles | Mode::Indices if filter != Filter::None => {
            Err(format!("the {} filter applies to ATTRIBUTES only", filter.name()))
        }
        _ => match filter {
            Filter::Octahedral | Filter::Color if stride != 4 && stride != 8 => Err(format!(
                "its byteStride {stride} is not 4 or 8, as the {} filter needs",
                filter.name()
            )),
            Filter::Quaternion if stride != 8 => Err(format!(
                "its byteStride {stride} is not 8, as the QUATERNION filter needs"
            )),
            _ => Ok(()),
        },
    }
}

/// Runs meshoptimizer's decoder and filter over checked input. The output is allocated as
/// 32-bit words because the filters read and write it as such.
fn run_decoder(encoded: &Encoded) -> Result<Vec<u8>, String> {
    let size = encoded.count * encoded.stride;
    if size == 0 {
        return Ok(Vec::new());
    }
    let mut words = vec![0u32; size.div_ceil(4)];
    let destination = words.as_mut_ptr().cast::<std::ffi::c_void>();
    let (source, source_len) = (encoded.data.as_ptr(), encoded.data.len());
    let (count, stride) = (encoded.count, encoded.stride);
    // SAFETY: `destination` holds at least `count * stride` bytes, `source` is
    // `source_len` readable bytes, and the stride, count and filter were checked against what
    // each function requires (check_layout); the decoders bounds-check their input.
    let status = unsafe {
        match encoded.mode {
            Mode::Attributes => {
                ::meshopt::ffi::meshopt_decodeVertexBuffer(destination, count, stride, source, source_len)
            }
            Mode::Triangles => {
                ::meshopt::ffi::meshopt_decodeIndexBuffer(destination, count, stride, source, source_len)
            }
            Mode::Indices => {
                ::meshopt::ffi::meshopt_decodeIndexSequence(destination, count, stride, source, source_len)
            }
        }
    };
    if status != 0 {
        return Err(format!(
            "its {source_len} compressed bytes are not a valid {} stream (meshoptimizer error {status})",
            encoded.mode.name()
        ));
    }
    // SAFETY: as above; the filters rewrite `count` elements of `stride` bytes in place.
    unsafe {
        match encoded.filter {
            Filter::None => {}
            Filter::Octahedral => ::meshopt::ffi::meshopt_decodeFilterOct(destination, count, stride),
            Filter::Quaternion => ::meshopt::ffi::meshopt_decodeFilterQuat(destination, count, stride),
            Filter::Exponential => ::meshopt::ffi::meshopt_decodeFilterExp(destination, count, stride),
            Filter::Color => ::meshopt::ffi::meshopt_decodeFilterColor(destination, count, stride),
        }
    }
    let mut bytes = bytemuck::cast_slice::<u32, u8>(&words).to_vec();
    bytes.truncate(size);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(data: &[u8], stride: usize, count: usize, mode: Mode, filter: Filter) -> Encoded<'_> {
        Encoded {
            data,
            stride,
            count,
            mode,
            filter,
        }
    }

    #[test]
    fn decodes_a_vertex_stream_and_refuses_it_truncated() {
        let vertices: Vec<[u16; 4]> = (0..100u16).map(|i| [i, i * 2, 7, 65535 - i]).collect();
        let stream = ::meshopt::encode_vertex_buffer(&vertices).unwrap();
        let decoded = run_decoder(&encoded(&stream, 8, 100, Mode::Attributes, Filter::None)).unwrap();
        assert_eq!(decoded, bytemuck::cast_slice::<[u16; 4], u8>(&vertices));
        let cut = &stream[..stream.len() / 2];
        let error = run_decoder(&encoded(cut, 8, 100, Mode::Attributes, Filter::None)).unwrap_err();
        assert!(error.contains("not a valid ATTRIBUTES stream"), "{error}");
        // More elements than the stream holds.
        assert!(run_decoder(&encoded(&stream, 8, 1000, Mode::Attributes, Filter::None)).is_err());
    }

    #[test]
    fn decodes_triangles_and_refuses_garbage() {
        let indices: Vec<u32> = vec![0, 1, 2, 2, 1, 3, 3, 1, 4];
        let stream = ::meshopt::encode_index_buffer(&indices, 5).unwrap();
        let decoded = run_decoder(&encoded(&stream, 4, 9, Mode::Triangles, Filter::None)).unwrap();
        assert_eq!(decoded, bytemuck::cast_slice::<u32, u8>(&indices));
        let error = run_decoder(&encoded(&[0xff; 16], 4, 9, Mode::Triangles, Filter::None)).unwrap_err();
        assert!(error.contains("not a valid TRIANGLES stream"), "{error}");
    }

    #[test]
    fn layouts_the_decoders_cannot_take_are_refused() {
        let check = |stride, count, mode, filter| check_layout(&encoded(&[], stride, count, mode, filter));
        assert!(check(12, 3, Mode::Attributes, Filter::Exponential).is_ok());
        assert!(
            check(260, 3, Mode::Attributes, Filter::None)
                .unwrap_err()
                .contains("4 to 256")
        );
        assert!(check(6, 3, Mode::Attributes, Filter::None).is_err());
        assert!(check(0, 3, Mode::Attributes, Filter::None).is_err());
        assert!(
            check(4, 4, Mode::Triangles, Filter::None)
                .unwrap_err()
                .contains("whole number of triangles")
        );
        assert!(
            check(1, 3, Mode::Indices, Filter::None)
                .unwrap_err()
                .contains("not 2 or 4")
        );
        assert!(
            check(2, 3, Mode::Indices, Filter::Octahedral)
                .unwrap_err()
                .contains("ATTRIBUTES only")
        );
        assert!(
            check(12, 3, Mode::Attributes, Filter::Octahedral)
                .unwrap_err()
                .contains("not 4 or 8")
        );
        assert!(
            check(4, 3, Mode::Attributes, Filter::Quaternion)
                .unwrap_err()
                .contains("not 8")
        );
        assert!(check(4, 3, Mode::Attributes, Filter::Color).is_ok());
    }
}
