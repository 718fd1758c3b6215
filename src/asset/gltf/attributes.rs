//! The vertex attributes a glTF primitive names, as the file stores them, for `inspect` and
//! the panel: every one is listed, custom `_NAME`s and those rigscope does not draw included.

use gltf_json::Root;
use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::Checked;

use crate::asset::model::VertexAttribute;

/// The attributes `names` lists (name and accessor index, as the file wrote them), each with
/// its accessor's element type, or why that cannot be told; in the specification's order
/// (POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n, JOINTS_n, WEIGHTS_n, then the rest).
pub fn describe(root: &Root, names: &[(String, Option<u64>)]) -> Vec<VertexAttribute> {
    let mut names: Vec<&(String, Option<u64>)> = names.iter().collect();
    names.sort_by_key(|(name, _)| (rank(name), name.clone()));
    names
        .into_iter()
        .map(|(semantic, accessor)| {
            let found = accessor.and_then(|a| root.accessors.get(usize::try_from(a).ok()?));
            let layout = match (found, accessor) {
                (Some(found), _) => layout(found),
                (None, Some(index)) => format!("accessor {index} does not exist"),
                (None, None) => "not an accessor index".to_string(),
            };
            VertexAttribute {
                semantic: semantic.clone(),
                layout,
            }
        })
        .collect()
}

/// Where an attribute comes in the specification's order.
fn rank(name: &str) -> usize {
    const ORDER: [&str; 7] = [
        "POSITION",
        "NORMAL",
        "TANGENT",
        "TEXCOORD_",
        "COLOR_",
        "JOINTS_",
        "WEIGHTS_",
    ];
    ORDER
        .iter()
        .position(|prefix| name.starts_with(prefix))
        .unwrap_or(ORDER.len())
}

/// "VEC3 float", "VEC4 unsigned byte normalized".
fn layout(accessor: &gltf_json::Accessor) -> String {
    let kind = match accessor.type_ {
        Checked::Valid(Type::Scalar) => "SCALAR",
        Checked::Valid(Type::Vec2) => "VEC2",
        Checked::Valid(Type::Vec3) => "VEC3",
        Checked::Valid(Type::Vec4) => "VEC4",
        Checked::Valid(Type::Mat2) => "MAT2",
        Checked::Valid(Type::Mat3) => "MAT3",
        Checked::Valid(Type::Mat4) => "MAT4",
        Checked::Invalid => "(unknown type)",
    };
    let component = match accessor.component_type {
        Checked::Valid(generic) => match generic.0 {
            ComponentType::I8 => "byte",
            ComponentType::U8 => "unsigned byte",
            ComponentType::I16 => "short",
            ComponentType::U16 => "unsigned short",
            ComponentType::U32 => "unsigned int",
            ComponentType::F32 => "float",
        },
        Checked::Invalid => "(unknown component type)",
    };
    let normalized = if accessor.normalized { " normalized" } else { "" };
    format!("{kind} {component}{normalized}")
}
