//! `EXT_meshopt_compression` with `KHR_mesh_quantization`, laid out as gltfpack's `-cc` writes
//! it: every vertex attribute and index view is stored as meshoptimizer's vertex or index
//! stream in the one buffer, and the view itself lies in a second buffer that has a length and
//! no data (`"fallback": true`), so the extension is required. Each view is encoded on its own
//! (vertex codec version 0, the one `EXT_meshopt_compression` reads; version 1 is
//! `KHR_meshopt_compression`'s). Vertex and triangle order are kept as the model has them.
//!
//! What each attribute becomes, and the error it may carry:
//! - POSITION stays float: integers would need their dequantisation in the mesh node's
//!   transform or, for skinned meshes, in every inverse bind matrix of the skin. Each
//!   component is rounded to a multiple of the largest power of two no more than the
//!   primitive's extent in it over 2^`GRID_BITS`, so it moves by at most extent / 2^15, and
//!   the values go through the EXPONENTIAL filter (one exponent per component, as gltfpack's
//!   `-vpf`) with the mantissa bits that hold every one of them exactly: integers the codec
//!   compresses far better than float bytes (floats too far from zero for their grid stay
//!   floats). The grid's error does not grow with the distance from the origin, as a shared
//!   exponent's alone would.
//! - TEXCOORD_n likewise, on the grid of its own extent: UVs outside 0..1 (tiling) stay as they
//!   are, which 16-bit normalised UVs could only hold with `KHR_texture_transform`.
//! - NORMAL and TANGENT: 8-bit octahedral (the OCTAHEDRAL filter, as gltfpack's default
//!   `-vn 8`), signed normalised bytes; a tangent's handedness stays ±1 exactly.
//! - COLOR_0: unsigned normalised shorts (error at most 1/131070).
//! - JOINTS_n: as written plainly (unsigned bytes or shorts), exact.
//! - WEIGHTS_n: unsigned normalised shorts (each weight within 1/131070), each set's sum
//!   rounded as a whole, so a vertex of one set sums to exactly 65535.
//! - Indices: the TRIANGLES stream for triangle lists, INDICES for lines and points.
//!
//! Morph targets, skins and animations are written plainly (see `meshes`).

use bytemuck::Pod;
use glam::{Vec2, Vec3};
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::validation::USize64;

use super::document::{Document, FALLBACK_BUFFER, Layout, Usage, float_bounds};
use super::vertices::{Vertices, narrow_joints, short_indices};
use crate::asset::gltf::compressed::meshopt::Mode;
use crate::asset::{Primitive, Topology};

pub const EXTENSION: &str = "EXT_meshopt_compression";
const QUANTIZATION: &str = "KHR_mesh_quantization";

/// The vertex codec's bitstream version that `EXT_meshopt_compression` reads.
const VERTEX_CODEC_VERSION: i32 = 0;
/// Float positions and UVs are rounded to a power-of-two grid at least this many bits finer
/// than their extent.
const GRID_BITS: i32 = 14;
/// Bits of the octahedral normals and tangents (8: signed bytes).
const DIRECTION_BITS: i32 = 8;

/// What the decoder applies to an ATTRIBUTES stream after decoding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    None,
    Octahedral,
    Exponential,
}

/// One vertex attribute as an accessor of a compressed view; none, with a warning, when
/// meshoptimizer could not encode it (the caller writes it plainly).
pub fn write_vertices(document: &mut Document, vertices: Vertices) -> Option<json::Index<json::Accessor>> {
    match vertices {
        Vertices::Positions(positions) => {
            let positions = on_grid(bytemuck::cast_slice::<Vec3, [f32; 3]>(positions));
            let bounds = float_bounds(bytemuck::cast_slice::<[f32; 3], Vec3>(&positions));
            float_accessor(document, &positions, Layout::of::<Vec3>(), bounds)
        }
        Vertices::TexCoords(uvs) => {
            let uvs = on_grid(bytemuck::cast_slice::<Vec2, [f32; 2]>(uvs));
            float_accessor(document, &uvs, Layout::of::<Vec2>(), None)
        }
        Vertices::Normals(normals) => {
            let directions: Vec<[f32; 4]> = normals.iter().map(|n| n.extend(0.0).to_array()).collect();
            octahedral(document, &directions, Type::Vec3)
        }
        Vertices::Tangents(tangents) => {
            let directions: Vec<[f32; 4]> = tangents.iter().map(|t| t.to_array()).collect();
            octahedral(document, &directions, Type::Vec4)
        }
        Vertices::Colors(colors) => {
            let shorts: Vec<[u16; 4]> = colors.iter().map(|c| c.to_array().map(unorm16)).collect();
            vertex_accessor(document, &shorts, normalized::<[u16; 4]>(), Filter::None, None)
        }
        Vertices::Joints(joints) => match narrow_joints(joints) {
            Some(bytes) => vertex_accessor(document, &bytes, Layout::of::<[u8; 4]>(), Filter::None, None),
            None => vertex_accessor(document, joints, Layout::of::<[u16; 4]>(), Filter::None, None),
        },
        Vertices::Weights(weights) => {
            let shorts: Vec<[u16; 4]> = weights.iter().map(|&w| unorm16_weights(w)).collect();
            vertex_accessor(document, &shorts, normalized::<[u16; 4]>(), Filter::None, None)
        }
    }
}

/// The primitive's indices as an accessor of a compressed view: 16-bit where the vertices
/// allow, else 32-bit; none, with a warning, when meshoptimizer could not encode them.
pub fn write_indices(document: &mut Document, primitive: &Primitive) -> Option<json::Index<json::Accessor>> {
    let indices = &primitive.indices;
    let vertices = primitive.positions.len();
    let triangles = primitive.topology == Topology::Triangles && indices.len().is_multiple_of(3);
    let (mode, encoded) = match triangles {
        true => (Mode::Triangles, ::meshopt::encode_index_buffer(indices, vertices)),
        false => (Mode::Indices, ::meshopt::encode_index_sequence(indices, vertices)),
    };
    let (view, layout) = if short_indices(vertices) {
        let short: Vec<u16> = indices.iter().map(|&i| i as u16).collect();
        let view = compressed_view(document, encoded, &short, mode, Filter::None, Usage::Indices);
        (view?, Layout::of::<u16>())
    } else {
        let view = compressed_view(document, encoded, indices, mode, Filter::None, Usage::Indices);
        (view?, Layout::of::<u32>())
    };
    Some(document.layout_accessor(Some(view), indices.len(), layout, None))
}

/// An accessor of `elements` (one a vertex) in a view compressed as ATTRIBUTES.
fn vertex_accessor<T: Pod>(
    document: &mut Document,
    elements: &[T],
    layout: Layout,
    filter: Filter,
    bounds: Option<(json::Value, json::Value)>,
) -> Option<json::Index<json::Accessor>> {
    let encoded = ::meshopt::encode_vertex_buffer_level(elements, 2, Some(VERTEX_CODEC_VERSION));
    let view = compressed_view(document, encoded, elements, Mode::Attributes, filter, Usage::Vertices)?;
    Some(document.layout_accessor(Some(view), elements.len(), layout, bounds))
}

/// An accessor of float vectors: through the EXPONENTIAL filter where it holds every value
/// exactly (its integers compress far better than float bytes), else as they are.
fn float_accessor<const N: usize>(
    document: &mut Document,
    values: &[[f32; N]],
    layout: Layout,
    bounds: Option<(json::Value, json::Value)>,
) -> Option<json::Index<json::Accessor>> {
    match exponential(values) {
        Some(encoded) => vertex_accessor(document, &encoded, layout, Filter::Exponential, bounds),
        None => vertex_accessor(document, values, layout, Filter::None, bounds),
    }
}

/// `values` as the EXPONENTIAL filter's integers, each component with one exponent for all
/// values (`SharedComponent`) and as many mantissa bits as its finest value needs; none when
/// that is more than the filter's 24, or the filter would not give back every value exactly.
fn exponential<const N: usize>(values: &[[f32; N]]) -> Option<Vec<[u32; N]>> {
    if values.iter().flatten().any(|v| !v.is_normal() && *v != 0.0) {
        return None;
    }
    let mut bits = 1;
    let mut exponents = Vec::with_capacity(N);
    for component in 0..N {
        let nonzero = || values.iter().map(|v| v[component]).filter(|&v| v != 0.0);
        // The filter's exponent: |v| < 2^largest for every v.
        let Some(largest) = nonzero().map(|v| exponent(v) + 1).max() else {
            continue;
        };
        // The place of the lowest bit any value sets.
        let finest = nonzero()
            .map(|v| exponent(v) - 23 + (v.to_bits() | 1 << 23).trailing_zeros() as i32)
            .min()?;
        bits = bits.max(largest - finest + 1);
        exponents.push(largest);
    }
    // The filter scales by 2^-(largest - bits + 1), which must be a normal float.
    let scalable = exponents
        .iter()
        .all(|&largest| (-126..=127).contains(&(largest - bits + 1)));
    if bits > 24 || !scalable {
        return None;
    }
    let encoded = ::meshopt::encode_filter_exp(values, bits, ::meshopt::EncodeExpMode::SharedComponent);
    let mut decoded = encoded.clone();
    ::meshopt::decode_filter_exp(&mut decoded);
    let exact = (decoded.iter().flatten().zip(values.iter().flatten())).all(|(&d, &v)| f32::from_bits(d) == v);
    exact.then_some(encoded)
}

/// The unbiased binary exponent of a normal float.
fn exponent(value: f32) -> i32 {
    ((value.to_bits() >> 23) & 0xff) as i32 - 127
}

/// Unit vectors (xyz, and w kept: a tangent's handedness) as 8-bit octahedral signed bytes,
/// read as `kind` (VEC3 for normals, VEC4 for tangents).
fn octahedral(document: &mut Document, directions: &[[f32; 4]], kind: Type) -> Option<json::Index<json::Accessor>> {
    let encoded: Vec<[i8; 4]> = ::meshopt::encode_filter_oct(directions, DIRECTION_BITS);
    let layout = Layout {
        kind,
        component: ComponentType::I8,
        normalized: true,
    };
    let accessor = vertex_accessor(document, &encoded, layout, Filter::Octahedral, None)?;
    document.use_extension(QUANTIZATION, true);
    Some(accessor)
}

/// A view of `decoded` whose data is the meshoptimizer stream `encoded`: the stream goes in
/// the buffer, the view lies in the fallback buffer. None, with a warning, when the encoder
/// could not make the stream.
fn compressed_view<T: Pod>(
    document: &mut Document,
    encoded: ::meshopt::Result<Vec<u8>>,
    decoded: &[T],
    mode: Mode,
    filter: Filter,
    usage: Usage,
) -> Option<json::Index<json::buffer::View>> {
    let stride = size_of::<T>();
    let length = size_of_val(decoded);
    let stream = match encoded {
        Ok(stream) => stream,
        Err(error) => {
            let mode = mode.name();
            document.warn(format!(
                "a {length}-byte {mode} view is written uncompressed: meshoptimizer could not encode it ({error})"
            ));
            return None;
        }
    };
    let offset = document.append(&stream);
    let mut extension = serde_json::json!({
        "buffer": 0,
        "byteOffset": offset,
        "byteLength": stream.len(),
        "byteStride": stride,
        "count": decoded.len(),
        "mode": mode.name(),
    });
    match filter {
        Filter::None => {}
        Filter::Octahedral => extension["filter"] = "OCTAHEDRAL".into(),
        Filter::Exponential => extension["filter"] = "EXPONENTIAL".into(),
    }
    let mut extensions = json::extensions::buffer::View::default();
    extensions.others.insert(EXTENSION.into(), extension);
    document.use_extension(EXTENSION, true);
    let fallback_offset = document.reserve_fallback(length);
    Some(document.root.push(json::buffer::View {
        buffer: json::Index::new(FALLBACK_BUFFER),
        byte_length: USize64::from(length),
        byte_offset: (fallback_offset > 0).then(|| USize64::from(fallback_offset)),
        // glTF gives vertex views their stride (a normal's 3 bytes lie in 4); index views none.
        byte_stride: (usage == Usage::Vertices).then_some(json::buffer::Stride(stride)),
        name: None,
        target: usage.target(),
        extensions: Some(extensions),
        extras: None,
    }))
}

/// The layout of `T` with its integers normalised.
fn normalized<T: super::document::Element>() -> Layout {
    Layout {
        normalized: true,
        ..Layout::of::<T>()
    }
}

/// `values` with each component rounded to a multiple of the largest power of two no more
/// than that component's extent over 2^`GRID_BITS` (a component of no extent, or one not
/// finite, stays as it is). Dividing and multiplying by a power of two is exact, so each value
/// moves by at most half a step.
fn on_grid<const N: usize>(values: &[[f32; N]]) -> Vec<[f32; N]> {
    let mut min = [f32::INFINITY; N];
    let mut max = [f32::NEG_INFINITY; N];
    for value in values {
        for (i, &component) in value.iter().enumerate() {
            min[i] = min[i].min(component);
            max[i] = max[i].max(component);
        }
    }
    let steps: [Option<f32>; N] = std::array::from_fn(|i| {
        let extent = max[i] - min[i];
        let step = (extent > 0.0 && extent.is_finite()).then(|| {
            let exponent = (extent * 2f32.powi(-GRID_BITS)).log2().floor();
            2f32.powi(exponent as i32)
        });
        step.filter(|s| s.is_normal())
    });
    let snap = |value: &[f32; N]| {
        std::array::from_fn(|i| match steps[i] {
            Some(step) if value[i].is_finite() => (value[i] / step).round() * step,
            _ => value[i],
        })
    };
    values.iter().map(snap).collect()
}

/// A value in `0..=1` as an unsigned normalised short (clamped).
fn unorm16(value: f32) -> u16 {
    (value.clamp(0.0, 1.0) * 65535.0).round() as u16
}

/// One influence set's weights as unsigned normalised shorts whose sum is their float sum
/// rounded: each rounded, then the largest takes up the difference.
fn unorm16_weights(weights: [f32; 4]) -> [u16; 4] {
    let mut shorts = weights.map(unorm16);
    let target = (weights.iter().map(|w| w.clamp(0.0, 1.0)).sum::<f32>().min(1.0) * 65535.0).round() as i32;
    let sum: i32 = shorts.iter().map(|&s| i32::from(s)).sum();
    let largest = (0..4).max_by_key(|&i| shorts[i]).unwrap_or(0);
    shorts[largest] = (i32::from(shorts[largest]) + target - sum).clamp(0, 65535) as u16;
    shorts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_are_powers_of_two_within_the_extent_over_2_to_the_14() {
        let values = [[0.0f32, 5.0], [1.0, 5.0], [0.123_456_79, 5.0], [-0.5, 5.0]];
        let snapped = on_grid(&values);
        // Extent 1.5 in x: the step is 2^-14 (1.5 / 2^14 lies between 2^-14 and 2^-13).
        let step = 2f32.powi(-14);
        for (before, after) in values.iter().zip(&snapped) {
            assert!((before[0] - after[0]).abs() <= step / 2.0);
            assert_eq!(after[0] / step, (after[0] / step).round(), "on the grid");
            assert_eq!(after[1], 5.0, "a component of no extent stays as it is");
        }
        assert_eq!(snapped[1][0], 1.0);
        assert_eq!(snapped[3][0], -0.5);
    }

    #[test]
    fn the_exponential_filter_is_used_only_where_it_is_exact() {
        let values = [[0.25f32, 1000.0], [-3.5, 0.0], [0.0, 1024.5]];
        let mut decoded = exponential(&values).unwrap();
        ::meshopt::decode_filter_exp(&mut decoded);
        assert_eq!(decoded, values.map(|v| v.map(f32::to_bits)));
        // 2^24 and 1 need 26 bits of mantissa; NaN none.
        assert!(exponential(&[[2f32.powi(24)], [1.0]]).is_none());
        assert!(exponential(&[[f32::NAN], [1.0]]).is_none());
    }

    #[test]
    fn weights_keep_their_sum_exactly() {
        for weights in [
            [0.5f32, 0.3, 0.2, 0.0],
            [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0],
            [0.25; 4],
        ] {
            let shorts = unorm16_weights(weights);
            assert_eq!(shorts.iter().map(|&s| u32::from(s)).sum::<u32>(), 65535, "{weights:?}");
            for (short, weight) in shorts.iter().zip(weights) {
                assert!((f32::from(*short) / 65535.0 - weight).abs() <= 1.5 / 65535.0);
            }
        }
        // A second set's weights keep their own sum (here 0.25).
        let second = unorm16_weights([0.125, 0.125, 0.0, 0.0]);
        assert_eq!(second.iter().map(|&s| u32::from(s)).sum::<u32>(), 16384);
    }

    #[test]
    fn views_are_compressed_into_the_buffer_and_lie_in_the_fallback() {
        let mut document = Document::new("test".into());
        let positions: Vec<Vec3> = (0..100).map(|i| Vec3::new(i as f32, (i * 2) as f32, 0.5)).collect();
        let accessor = write_vertices(&mut document, Vertices::Positions(&positions)).unwrap();
        let normals = vec![Vec3::Z; 100];
        write_vertices(&mut document, Vertices::Normals(&normals));
        assert_eq!(document.root.extensions_required, [EXTENSION, QUANTIZATION]);
        let accessor = &document.root.accessors[accessor.value()];
        assert_eq!(accessor.min, Some(json::Value::from(vec![0.0f32, 0.0, 0.5])));
        let view = &document.root.buffer_views[0];
        assert_eq!(view.buffer.value(), FALLBACK_BUFFER as usize);
        assert_eq!(view.byte_length, USize64(1200));
        let extension = &view.extensions.as_ref().unwrap().others[EXTENSION];
        assert_eq!(extension["mode"], "ATTRIBUTES");
        assert_eq!(extension["byteStride"], 12);
        let normal_view = &document.root.buffer_views[1];
        assert_eq!(normal_view.byte_stride, Some(json::buffer::Stride(4)));
        assert_eq!(normal_view.byte_offset, Some(USize64(1200)));
        assert_eq!(
            normal_view.extensions.as_ref().unwrap().others[EXTENSION]["filter"],
            "OCTAHEDRAL"
        );
        assert_eq!(extension["filter"], "EXPONENTIAL");
        let length = extension["byteLength"].as_u64().unwrap() as usize;
        let (json, bin, _) = document.finish(None).unwrap();
        assert_eq!(
            ::meshopt::decode_vertex_version(&bin[..length]),
            Some(0),
            "EXT's codec version"
        );
        let mut decoded: Vec<[u32; 3]> = ::meshopt::decode_vertex_buffer(&bin[..length], 100).unwrap();
        ::meshopt::decode_filter_exp(&mut decoded);
        let decoded: Vec<Vec3> = decoded.iter().map(|p| Vec3::from(p.map(f32::from_bits))).collect();
        assert_eq!(decoded, positions, "whole numbers are on the grid already");
        let root: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(root["buffers"][1]["byteLength"], 1600);
        assert_eq!(root["buffers"][1]["extensions"][EXTENSION]["fallback"], true);
        assert!(root["buffers"][1].get("uri").is_none());
    }
}
