//! glTF mesh primitives → `Primitive`: attributes, indices, skin weights and morph targets.

use glam::{Vec2, Vec3, Vec4};
use gltf_json::mesh::{Mode as JsonMode, Semantic};
use gltf_json::validation::Checked;

use super::accessor::Accessors;
use crate::asset::geometry::{Mode, build_skin_weights, compute_normals, to_list};
use crate::asset::model::{MorphTarget, Primitive, Topology};
use crate::asset::{LoadErrorKind, tangents};

/// A primitive with nothing to draw, in the place of one that has no geometry rigscope can
/// read.
pub fn empty() -> Primitive {
    Primitive::default()
}

/// Why `primitive` cannot be read because some of its data is in a buffer without data (see
/// `Accessors::unavailable`).
pub fn unavailable(accessors: &Accessors, primitive: &gltf_json::mesh::Primitive) -> Option<String> {
    let targets = primitive
        .targets
        .iter()
        .flatten()
        .flat_map(|t| [t.positions, t.normals, t.tangents]);
    primitive
        .attributes
        .values()
        .copied()
        .chain(primitive.indices)
        .chain(targets.flatten())
        .find_map(|accessor| accessors.unavailable(accessor.value()))
}

/// Loads one primitive, `object` (its JSON pointer). `joint_limit` is the joint count of the
/// smallest skin that deforms this mesh (influences beyond it are dropped). A primitive
/// without POSITION loads empty: glTF allows it (an extension may supply the geometry), and
/// there is nothing to draw.
pub fn load_primitive(
    accessors: &Accessors,
    object: &str,
    primitive: &gltf_json::mesh::Primitive,
    material_count: usize,
    joint_limit: usize,
) -> Result<Primitive, LoadErrorKind> {
    let attribute = |semantic: Semantic| primitive.attributes.get(&Checked::Valid(semantic)).map(|i| i.value());
    let invalid = |problem: String| LoadErrorKind::invalid(object, problem);
    // Errors in an attribute's data name the attribute.
    let named = |name: &str, problem: String| LoadErrorKind::invalid(format!("{object}/attributes/{name}"), problem);

    let Some(position_accessor) = attribute(Semantic::Positions) else {
        return Ok(empty());
    };
    let positions: Vec<Vec3> = accessors
        .read_f32::<3>(position_accessor)
        .map_err(|e| named("POSITION", e))?
        .into_iter()
        .map(Vec3::from)
        .collect();
    let vertex_count = positions.len();
    let same_count = |name: &str, count: usize| {
        if count == vertex_count {
            Ok(())
        } else {
            Err(named(
                name,
                format!("it has {count} elements for the {vertex_count} vertices of POSITION"),
            ))
        }
    };

    let mode = match primitive.mode {
        Checked::Valid(JsonMode::Points) => Mode::Points,
        Checked::Valid(JsonMode::Lines) => Mode::Lines,
        Checked::Valid(JsonMode::LineLoop) => Mode::LineLoop,
        Checked::Valid(JsonMode::LineStrip) => Mode::LineStrip,
        Checked::Valid(JsonMode::Triangles) => Mode::Triangles,
        Checked::Valid(JsonMode::TriangleStrip) => Mode::TriangleStrip,
        Checked::Valid(JsonMode::TriangleFan) => Mode::TriangleFan,
        Checked::Invalid => {
            return Err(LoadErrorKind::invalid(
                format!("{object}/mode"),
                "unknown primitive mode",
            ));
        }
    };
    let file_indices: Vec<u32> = match primitive.indices {
        Some(index) => {
            let indices_error = |problem: String| LoadErrorKind::invalid(format!("{object}/indices"), problem);
            let indices: Vec<u32> = accessors
                .read_u32::<1>(index.value())
                .map_err(indices_error)?
                .into_iter()
                .map(|[i]| i)
                .collect();
            if let Some(bad) = indices.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(indices_error(format!(
                    "index {bad} refers past the {vertex_count} vertices"
                )));
            }
            indices
        }
        None => (0..vertex_count as u32).collect(),
    };
    let (topology, indices) = to_list(mode, file_indices);

    let (normals, normals_computed) = match attribute(Semantic::Normals) {
        Some(index) => {
            let normals: Vec<Vec3> = accessors
                .read_f32::<3>(index)
                .map_err(|e| named("NORMAL", e))?
                .into_iter()
                .map(|n| Vec3::from(n).try_normalize().unwrap_or(Vec3::Z))
                .collect();
            same_count("NORMAL", normals.len())?;
            (normals, false)
        }
        None if topology == Topology::Triangles => (compute_normals(&positions, &indices), true),
        None => (vec![Vec3::Z; vertex_count], true),
    };
    let tangents: Vec<Vec4> = match attribute(Semantic::Tangents) {
        // glTF 2.0, meshes: "When normals are not specified, [...] the provided tangents (if
        // present) MUST be ignored."
        Some(_) if normals_computed => Vec::new(),
        Some(index) => accessors
            .read_f32::<4>(index)
            .map_err(|e| named("TANGENT", e))?
            .into_iter()
            .map(|t| tangents::cleaned(Vec4::from(t)))
            .collect(),
        None => Vec::new(),
    };
    if !tangents.is_empty() {
        same_count("TANGENT", tangents.len())?;
    }
    let read_uvs = |set: u32| -> Result<Vec<Vec2>, LoadErrorKind> {
        let Some(index) = attribute(Semantic::TexCoords(set)) else {
            return Ok(Vec::new());
        };
        let name = format!("TEXCOORD_{set}");
        let uvs: Vec<Vec2> = accessors
            .read_f32::<2>(index)
            .map_err(|e| named(&name, e))?
            .into_iter()
            .map(Vec2::from)
            .collect();
        same_count(&name, uvs.len())?;
        Ok(uvs)
    };
    let uvs = read_uvs(0)?;
    let uvs1 = read_uvs(1)?;
    let colors: Vec<Vec4> = match attribute(Semantic::Colors(0)) {
        Some(index) => {
            let colors: Vec<Vec4> = match accessors.components(index) {
                Some(3) => accessors
                    .read_f32::<3>(index)
                    .map_err(|e| named("COLOR_0", e))?
                    .into_iter()
                    .map(|c| Vec3::from(c).extend(1.0))
                    .collect(),
                _ => accessors
                    .read_f32::<4>(index)
                    .map_err(|e| named("COLOR_0", e))?
                    .into_iter()
                    .map(Vec4::from)
                    .collect(),
            };
            same_count("COLOR_0", colors.len())?;
            colors
        }
        None => Vec::new(),
    };

    // Every JOINTS_n/WEIGHTS_n pair the file has; the strongest eight influences are kept.
    let set_numbers = |wanted: fn(&Semantic) -> Option<u32>| -> Vec<u32> {
        primitive
            .attributes
            .keys()
            .filter_map(|key| match key {
                Checked::Valid(semantic) => wanted(semantic),
                Checked::Invalid => None,
            })
            .collect()
    };
    let joint_sets = set_numbers(|s| if let Semantic::Joints(n) = s { Some(*n) } else { None });
    let weight_sets = set_numbers(|s| if let Semantic::Weights(n) = s { Some(*n) } else { None });
    if joint_sets != weight_sets {
        return Err(invalid(format!(
            "JOINTS sets {joint_sets:?} and WEIGHTS sets {weight_sets:?} do not pair up"
        )));
    }
    let mut sets = Vec::with_capacity(joint_sets.len());
    for set in joint_sets {
        let (Some(joints), Some(weights)) = (attribute(Semantic::Joints(set)), attribute(Semantic::Weights(set)))
        else {
            continue;
        };
        let (joints_name, weights_name) = (format!("JOINTS_{set}"), format!("WEIGHTS_{set}"));
        let joints = accessors.read_u32::<4>(joints).map_err(|e| named(&joints_name, e))?;
        let weights = accessors.read_f32::<4>(weights).map_err(|e| named(&weights_name, e))?;
        same_count(&joints_name, joints.len())?;
        same_count(&weights_name, weights.len())?;
        sets.push((joints, weights));
    }
    let skin_weights = (!sets.is_empty()).then(|| {
        build_skin_weights(vertex_count, joint_limit, |vertex, out| {
            for (joints, weights) in &sets {
                out.extend(joints[vertex].iter().zip(weights[vertex]).map(|(&j, w)| (j, w)));
            }
        })
    });

    let mut morph_targets = Vec::new();
    for (target_index, target) in primitive.targets.iter().flatten().enumerate() {
        let read_deltas = |accessor: Option<gltf_json::Index<gltf_json::Accessor>>, name: &'static str| {
            let Some(accessor) = accessor else {
                return Ok(Vec::new());
            };
            let target_object = format!("{object}/targets/{target_index}/{name}");
            let deltas: Vec<Vec3> = accessors
                .read_f32::<3>(accessor.value())
                .map_err(|e| LoadErrorKind::invalid(&target_object, e))?
                .into_iter()
                .map(Vec3::from)
                .collect();
            if deltas.len() != vertex_count {
                return Err(LoadErrorKind::invalid(
                    target_object,
                    format!(
                        "it has {} elements for the {vertex_count} vertices of POSITION",
                        deltas.len()
                    ),
                ));
            }
            Ok(deltas)
        };
        morph_targets.push(MorphTarget {
            positions: read_deltas(target.positions, "POSITION")?,
            normals: read_deltas(target.normals, "NORMAL")?,
            tangents: read_deltas(target.tangents, "TANGENT")?,
        });
    }

    let material = match primitive.material {
        Some(index) if index.value() >= material_count => {
            return Err(LoadErrorKind::invalid(
                format!("{object}/material"),
                format!("material {} does not exist", index.value()),
            ));
        }
        other => other.map(|i| i.value()),
    };
    Ok(Primitive {
        topology,
        indices,
        positions,
        normals,
        normals_computed,
        // glTF 2.0, meshes: "When normals are not specified, client implementations MUST
        // calculate flat normals."
        flat_shaded: normals_computed && topology == Topology::Triangles,
        tangents,
        tangents_generated: false,
        uvs,
        uvs1,
        colors,
        skin_weights,
        morph_targets,
        material,
        variant_materials: Vec::new(),
    })
}
