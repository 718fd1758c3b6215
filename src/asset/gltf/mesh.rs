//! glTF mesh primitives → `Primitive`: attributes, indices, skin weights and morph targets.

use glam::{Vec2, Vec3, Vec4};
use gltf_json::mesh::{Mode as JsonMode, Semantic};
use gltf_json::validation::Checked;

use super::accessor::Accessors;
use crate::asset::geometry::{Mode, build_skin_weights, compute_normals, to_list};
use crate::asset::model::{MorphTarget, Primitive, Topology};

/// Loads one primitive. `joint_limit` is the joint count of the smallest skin that deforms
/// this mesh (influences beyond it are dropped).
pub fn load_primitive(
    accessors: &Accessors,
    primitive: &gltf_json::mesh::Primitive,
    material_count: usize,
    joint_limit: usize,
) -> Result<Primitive, String> {
    let attribute = |semantic: Semantic| primitive.attributes.get(&Checked::Valid(semantic)).map(|i| i.value());

    let positions: Vec<Vec3> = match attribute(Semantic::Positions) {
        Some(index) => named("POSITION", accessors.read_f32::<3>(index))?
            .into_iter()
            .map(Vec3::from)
            .collect(),
        // No positions: nothing to draw (glTF 2.0 §3.7.2.1), but keep the primitive's place.
        None => Vec::new(),
    };
    let vertex_count = positions.len();
    let same_count = |name: &'static str, count: usize| {
        if count == vertex_count {
            Ok(())
        } else {
            Err(format!("{name} has {count} elements for {vertex_count} vertices"))
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
        Checked::Invalid => return Err("unknown primitive mode".into()),
    };
    let file_indices: Vec<u32> = match primitive.indices {
        Some(index) => {
            let indices: Vec<u32> = named("indices", accessors.read_u32::<1>(index.value()))?
                .into_iter()
                .map(|[i]| i)
                .collect();
            if let Some(bad) = indices.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(format!("index {bad} refers past the {vertex_count} vertices"));
            }
            indices
        }
        None => (0..vertex_count as u32).collect(),
    };
    let (topology, indices) = to_list(mode, &file_indices);

    let (normals, normals_computed) = match attribute(Semantic::Normals) {
        Some(index) => {
            let normals: Vec<Vec3> = named("NORMAL", accessors.read_f32::<3>(index))?
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
        Some(index) => named("TANGENT", accessors.read_f32::<4>(index))?
            .into_iter()
            .map(Vec4::from)
            .collect(),
        None => Vec::new(),
    };
    if !tangents.is_empty() {
        same_count("TANGENT", tangents.len())?;
    }
    let uvs: Vec<Vec2> = match attribute(Semantic::TexCoords(0)) {
        Some(index) => named("TEXCOORD_0", accessors.read_f32::<2>(index))?
            .into_iter()
            .map(Vec2::from)
            .collect(),
        None => Vec::new(),
    };
    if !uvs.is_empty() {
        same_count("TEXCOORD_0", uvs.len())?;
    }

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
        return Err(format!(
            "JOINTS sets {joint_sets:?} and WEIGHTS sets {weight_sets:?} do not pair up"
        ));
    }
    let mut sets = Vec::with_capacity(joint_sets.len());
    for set in joint_sets {
        let (Some(joints), Some(weights)) = (attribute(Semantic::Joints(set)), attribute(Semantic::Weights(set)))
        else {
            continue;
        };
        let joints = named("JOINTS", accessors.read_u32::<4>(joints))?;
        let weights = named("WEIGHTS", accessors.read_f32::<4>(weights))?;
        same_count("JOINTS", joints.len())?;
        same_count("WEIGHTS", weights.len())?;
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
            let deltas: Vec<Vec3> = accessors
                .read_f32::<3>(accessor.value())
                .map_err(|e| format!("morph target {target_index} {name}: {e}"))?
                .into_iter()
                .map(Vec3::from)
                .collect();
            same_count(name, deltas.len())?;
            Ok::<_, String>(deltas)
        };
        morph_targets.push(MorphTarget {
            name: format!("target {target_index}"),
            positions: read_deltas(target.positions, "POSITION")?,
            normals: read_deltas(target.normals, "NORMAL")?,
            tangents: read_deltas(target.tangents, "TANGENT")?,
        });
    }

    let material = match primitive.material {
        Some(index) if index.value() >= material_count => {
            return Err(format!("material {} does not exist", index.value()));
        }
        other => other.map(|i| i.value()),
    };
    Ok(Primitive {
        topology,
        indices,
        positions,
        normals,
        normals_computed,
        tangents,
        uvs,
        skin_weights,
        morph_targets,
        material,
    })
}

/// Prefixes an attribute's errors with its name.
fn named<T>(name: &str, result: Result<T, String>) -> Result<T, String> {
    result.map_err(|e| format!("{name}: {e}"))
}
