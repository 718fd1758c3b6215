//! The model's meshes: per primitive every vertex attribute it holds (positions, normals
//! unless the primitive is shaded flat, tangents the file gave, two UV sets, colours, up to
//! eight influences as JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1), its indices, topology and
//! material with its material-variant mappings, and its morph targets, named in the mesh's
//! `extras.targetNames`.
//!
//! `WriteOptions::compression` hands a primitive's vertex attributes and indices to `meshopt`
//! (each view compressed on its own) or `draco` (the whole primitive in one Draco mesh); morph
//! targets are written plainly either way.

use std::collections::BTreeMap;

use glam::{Vec3, Vec4};
use gltf_json as json;
use json::mesh::{Mode, Semantic};
use json::validation::Checked;

use super::document::{Document, Usage};
use super::options::{Compression, WriteOptions};
use super::vertices::{Vertices, narrow_joints, short_indices};
use super::{draco, meshopt};
use crate::asset::{Mesh, Model, MorphTarget, Primitive, SkinWeights, Topology};

/// Writes every mesh that has something to draw; returns, per model mesh, its glTF mesh.
pub fn write_meshes(
    document: &mut Document,
    model: &Model,
    options: &WriteOptions,
) -> Vec<Option<json::Index<json::Mesh>>> {
    (model.meshes.iter())
        .map(|mesh| write_mesh(document, mesh, options))
        .collect()
}

fn write_mesh(document: &mut Document, mesh: &Mesh, options: &WriteOptions) -> Option<json::Index<json::Mesh>> {
    let targets = mesh.primitives.iter().map(|p| p.morph_targets.len()).max().unwrap_or(0);
    let mut primitives = Vec::with_capacity(mesh.primitives.len());
    for (index, primitive) in mesh.primitives.iter().enumerate() {
        if primitive.positions.is_empty() {
            document.warn(format!(
                "mesh '{}', primitive {index}: no vertices, left out",
                mesh.name
            ));
            continue;
        }
        let place = format!("mesh '{}', primitive {index}", mesh.name);
        primitives.push(write_primitive(document, primitive, targets, options, &place));
    }
    if primitives.is_empty() {
        return None;
    }
    let names = (targets > 0)
        .then(|| serde_json::json!({ "targetNames": &mesh.target_names[..targets.min(mesh.target_names.len())] }));
    Some(document.root.push(json::Mesh {
        extensions: None,
        extras: names.and_then(|names| serde_json::value::to_raw_value(&names).ok()),
        name: Some(mesh.name.clone()),
        primitives,
        weights: None,
    }))
}

fn write_primitive(
    document: &mut Document,
    primitive: &Primitive,
    targets: usize,
    options: &WriteOptions,
    place: &str,
) -> json::mesh::Primitive {
    let clamped = clamped_colors(&primitive.colors);
    if clamped.is_some() {
        document.warn(format!(
            "{place}: vertex colours outside 0 to 1 clamped (glTF's COLOR_0 holds no more)"
        ));
    }
    let vertices = vertex_attributes(primitive, clamped.as_deref().unwrap_or(&primitive.colors));
    let draco = match options.compression {
        Compression::Draco => draco::write_primitive(document, primitive, &vertices, targets, place),
        Compression::None | Compression::Meshopt => None,
    };
    let (attributes, indices, draco_extension) = match draco {
        Some(draco) => (draco.attributes, Some(draco.indices), Some(draco.extension)),
        None => {
            let write = |(semantic, data): &(Semantic, Vertices)| {
                (
                    Checked::Valid(semantic.clone()),
                    write_vertices(document, *data, options),
                )
            };
            let attributes = vertices.iter().map(write).collect();
            (attributes, write_indices(document, primitive, options), None)
        }
    };
    let targets = (targets > 0).then(|| {
        (0..targets)
            .map(|target| write_target(document, primitive.morph_targets.get(target), primitive.positions.len()))
            .collect()
    });
    let mut extensions = variant_mappings(primitive);
    if extensions.is_some() {
        document.use_extension("KHR_materials_variants", false);
    }
    if let Some(draco) = draco_extension {
        let extensions = extensions.get_or_insert_with(Default::default);
        extensions.others.insert(draco::EXTENSION.into(), draco);
    }
    json::mesh::Primitive {
        attributes,
        extensions,
        extras: None,
        indices,
        material: (primitive.material_in(options.material_variant)).map(|m| json::Index::new(m as u32)),
        mode: Checked::Valid(match primitive.topology {
            Topology::Points => Mode::Points,
            Topology::Lines => Mode::Lines,
            Topology::Triangles => Mode::Triangles,
        }),
        targets,
    }
}

/// The vertex attributes to write, by semantic: positions; normals unless the primitive is
/// shaded flat (without NORMAL, glTF readers shade flat, as it was read); tangents the file
/// gave (generated ones are generated again by the reader, MikkTSpace, as the file meant);
/// both UV sets, `colors` (the primitive's, clamped) and the influence sets the primitive has.
fn vertex_attributes<'a>(primitive: &'a Primitive, colors: &'a [Vec4]) -> Vec<(Semantic, Vertices<'a>)> {
    let mut attributes = vec![(Semantic::Positions, Vertices::Positions(&primitive.positions))];
    if !primitive.normals.is_empty() && !primitive.flat_shaded {
        attributes.push((Semantic::Normals, Vertices::Normals(&primitive.normals)));
    }
    if !primitive.tangents.is_empty() && !primitive.tangents_generated {
        attributes.push((Semantic::Tangents, Vertices::Tangents(&primitive.tangents)));
    }
    for (set, uvs) in [&primitive.uvs, &primitive.uvs1].into_iter().enumerate() {
        if !uvs.is_empty() {
            attributes.push((Semantic::TexCoords(set as u32), Vertices::TexCoords(uvs)));
        }
    }
    if !colors.is_empty() {
        attributes.push((Semantic::Colors(0), Vertices::Colors(colors)));
    }
    if let Some(skin) = &primitive.skin_weights {
        for (set, (joints, weights)) in influence_sets(skin).into_iter().enumerate() {
            attributes.push((Semantic::Joints(set as u32), Vertices::Joints(joints)));
            attributes.push((Semantic::Weights(set as u32), Vertices::Weights(weights)));
        }
    }
    attributes
}

/// `colors` clamped to 0 to 1, as glTF asks of COLOR_0 (an OBJ or FBX file may hold brighter
/// ones); none when every one is within.
fn clamped_colors(colors: &[Vec4]) -> Option<Vec<Vec4>> {
    let within = |c: &Vec4| c.cmpge(Vec4::ZERO).all() && c.cmple(Vec4::ONE).all();
    (!colors.iter().all(within)).then(|| colors.iter().map(|c| c.clamp(Vec4::ZERO, Vec4::ONE)).collect())
}

/// One vertex attribute's accessor, compressed as `options` ask (plain where meshoptimizer
/// could not encode it).
fn write_vertices(document: &mut Document, vertices: Vertices, options: &WriteOptions) -> json::Index<json::Accessor> {
    let compressed = match options.compression {
        Compression::Meshopt => meshopt::write_vertices(document, vertices),
        Compression::None | Compression::Draco => None,
    };
    if let Some(accessor) = compressed {
        return accessor;
    }
    match vertices {
        Vertices::Positions(positions) => document.accessor(positions, Usage::Vertices, true),
        Vertices::Normals(normals) => document.accessor(normals, Usage::Vertices, false),
        Vertices::Tangents(tangents) => document.accessor(tangents, Usage::Vertices, false),
        Vertices::TexCoords(uvs) => document.accessor(uvs, Usage::Vertices, false),
        Vertices::Colors(colors) => document.accessor(colors, Usage::Vertices, false),
        Vertices::Joints(joints) => match narrow_joints(joints) {
            Some(bytes) => document.accessor(&bytes, Usage::Vertices, false),
            None => document.accessor(joints, Usage::Vertices, false),
        },
        Vertices::Weights(weights) => {
            let weights: Vec<Vec4> = weights.iter().map(|&w| Vec4::from(w)).collect();
            document.accessor(&weights, Usage::Vertices, false)
        }
    }
}

/// The influence sets to write: the four strongest, and influences five to eight when some
/// vertex has them.
fn influence_sets(skin: &SkinWeights) -> Vec<(&[[u16; 4]], &[[f32; 4]])> {
    let mut sets = vec![(&skin.joints[..], &skin.weights[..])];
    let extra = skin.weights_extra.iter().any(|w| w.iter().any(|&w| w > 0.0));
    if extra {
        sets.push((&skin.joints_extra[..], &skin.weights_extra[..]));
    }
    sets
}

/// The indices as 16-bit where the vertices allow, else 32-bit, compressed as `options` ask
/// (plain where meshoptimizer could not encode them); none for points drawn in order.
fn write_indices(
    document: &mut Document,
    primitive: &Primitive,
    options: &WriteOptions,
) -> Option<json::Index<json::Accessor>> {
    let in_order = primitive
        .indices
        .iter()
        .enumerate()
        .all(|(i, &index)| i == index as usize);
    if primitive.topology == Topology::Points && in_order && primitive.indices.len() == primitive.positions.len() {
        return None;
    }
    let compressed = match options.compression {
        Compression::Meshopt => meshopt::write_indices(document, primitive),
        Compression::None | Compression::Draco => None,
    };
    if compressed.is_some() {
        return compressed;
    }
    if short_indices(primitive.positions.len()) {
        let short: Vec<u16> = primitive.indices.iter().map(|&i| i as u16).collect();
        Some(document.accessor(&short, Usage::Indices, false))
    } else {
        Some(document.accessor(&primitive.indices, Usage::Indices, false))
    }
}

/// A morph target's displacements; a primitive with fewer targets than its mesh gets targets
/// that displace nothing (glTF asks every primitive of a mesh for as many), and so does a
/// target that moves only normals or tangents (an accessor of no positions is invalid).
fn write_target(document: &mut Document, target: Option<&MorphTarget>, vertices: usize) -> json::mesh::MorphTarget {
    let positions = match target.filter(|t| !t.positions.is_empty()) {
        Some(target) => document.accessor(&target.positions, Usage::Vertices, true),
        None => document.accessor(&vec![Vec3::ZERO; vertices], Usage::Vertices, true),
    };
    let normals =
        (target.filter(|t| !t.normals.is_empty())).map(|t| document.accessor(&t.normals, Usage::Vertices, false));
    let tangents =
        (target.filter(|t| !t.tangents.is_empty())).map(|t| document.accessor(&t.tangents, Usage::Vertices, false));
    json::mesh::MorphTarget {
        positions: Some(positions),
        normals,
        tangents,
    }
}

/// `KHR_materials_variants` mappings: per material, the variants that draw the primitive
/// with it.
fn variant_mappings(primitive: &Primitive) -> Option<json::extensions::mesh::Primitive> {
    if primitive.variant_materials.is_empty() {
        return None;
    }
    let mut by_material: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for mapping in &primitive.variant_materials {
        by_material.entry(mapping.material).or_default().push(mapping.variant);
    }
    let mappings: Vec<serde_json::Value> = (by_material.into_iter())
        .map(|(material, variants)| serde_json::json!({ "material": material, "variants": variants }))
        .collect();
    let mut extensions = json::extensions::mesh::Primitive::default();
    extensions.others.insert(
        "KHR_materials_variants".into(),
        serde_json::json!({ "mappings": mappings }),
    );
    Some(extensions)
}
