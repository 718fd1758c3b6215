//! The vertex attributes a glTF primitive names, as the file stores them, for `inspect` and
//! the panel: every one is listed, including those rigscope does not draw.

use gltf_json::Root;
use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::Checked;

use crate::asset::model::VertexAttribute;

/// The attributes of `primitive`, in the file's order (POSITION, NORMAL, ... as glTF sorts
/// them), each with its accessor's element type, or why that cannot be told.
pub fn describe(root: &Root, primitive: &gltf_json::mesh::Primitive) -> Vec<VertexAttribute> {
    primitive
        .attributes
        .iter()
        .map(|(semantic, accessor)| {
            let semantic = match semantic {
                Checked::Valid(semantic) => semantic.to_string(),
                Checked::Invalid => "(unknown semantic)".to_string(),
            };
            let layout = root
                .accessors
                .get(accessor.value())
                .map_or_else(|| format!("accessor {} does not exist", accessor.value()), layout);
            VertexAttribute { semantic, layout }
        })
        .collect()
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
